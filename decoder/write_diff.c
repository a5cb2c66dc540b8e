/* write_diff.c -- `ipp diff` as readable text and as the YAML / JSON
 * document `ipp_diff` (docs/REPORT.md, "The diff document").
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "diff_write.h"
#include "text.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Divergence members printed per divergence in text (all in YAML/JSON). */
#define TEXT_MEMBERS 3

static const struct prog_module *mod_of(const struct diff *d, size_t mod)
{
	return &d->prog->mods[mod];
}

/* "main (fig4.c:36) -> pow (fig4.c:22) -> f": the calls open at the point,
 * each caller with the call's location, then the point's own function. */
static char *context_text(const struct diff *d, const struct divergence *v)
{
	const struct prog_module *m = mod_of(d, v->mod);
	const ipp_graph *g = m->map->graph;
	struct sbuf b = { 0 };

	for (size_t i = 0; i < v->ncontext; i++) {
		char *loc = location(g, v->context[i]);
		sb_printf(&b, "%s (%s) -> ", ipp_proc_name(g, ipp_vertex_proc(g, v->context[i])),
			  loc);
		free(loc);
	}
	sb_printf(&b, "%s", ipp_proc_name(g, ipp_fin_vproc(m->fin, v->vertex)));
	return b.s;
}

static const char *region_name(const struct diff *d, size_t mod, ipp_id region)
{
	ipp_region_info info;
	ipp_fin_region(mod_of(d, mod)->fin, region, &info);
	return info.name;
}

/* ------------------------------------------------------------------ */
/* Text                                                                 */
/* ------------------------------------------------------------------ */

static void side_line(FILE *out, const char *which, const struct report *r)
{
	uint64_t runs = 0;
	for (size_t i = 0; i < r->prog->nmods; i++)
		if (r->mods[i].pm != NULL && r->mods[i].pm->runs > runs)
			runs = r->mods[i].pm->runs;
	gmp_fprintf(out, "  %s: %s, %" PRIu64 " %s, %Zd %s of %zu %s\n", which, r->profile_name,
		    runs, plural(runs, "run", "runs"), r->total,
		    mpz_cmp_ui(r->total, 1) == 0 ? "execution" : "executions", r->nrecs,
		    plural(r->nrecs, "path", "paths"));
}

/* "B rank 5 (count 1): main:40 -> ..." */
static int path_line(FILE *out, struct diff *d, const char *label, struct rec *x,
		     const char *extra, char *err, size_t errlen)
{
	char *steps;

	if (diff_decode(d, x, err, errlen) < 0)
		return -1;
	steps = path_compact(mod_of(d, x->mod), &x->steps);
	fprintf(out, "       %s rank %zu (count %" PRIu64 "%s): %s\n", label, x->rank, x->count,
		extra, steps);
	free(steps);
	return 0;
}

static int divergence_text(FILE *out, struct diff *d, size_t i, char *err, size_t errlen)
{
	const struct divergence *v = &d->divs[i];
	const struct prog_module *m = mod_of(d, v->mod);
	const ipp_graph *g = m->map->graph;
	ipp_id origin = ipp_fin_vorigin(m->fin, v->vertex);
	char *loc = origin != IPP_NONE ? location(g, origin) : xstrdup("?");
	char *ctx = context_text(d, v);

	fprintf(out, "  %zu. %s at %s: %s, %" PRIu64 " %s of %zu %s only in B\n", i + 1,
		ipp_proc_name(g, ipp_fin_vproc(m->fin, v->vertex)), loc, div_kind_name(v->kind),
		v->count, plural(v->count, "execution", "executions"), v->nmembers,
		plural(v->nmembers, "path", "paths"));
	fprintf(out, "       context: %s\n", ctx);
	free(loc);
	free(ctx);
	if (v->kind == DIV_REGION) {
		fprintf(out, "       A has no path in region %s of %s\n",
			region_name(d, v->mod, v->region), m->map->module);
	}
	for (size_t k = 0; k < v->nmembers && k < TEXT_MEMBERS; k++) {
		const struct div_member *mb = &v->members[k];

		if (mb->closest != NULL) {
			char *tb, *ta;
			edge_targets(m, mb->b_edge, mb->a_edge, 0, &tb, &ta);
			fprintf(out, "       B went to %s, A to %s\n", tb, ta);
			free(tb);
			free(ta);
		}
		if (path_line(out, d, "B", mb->p->b, "", err, errlen) < 0)
			return -1;
		if (mb->closest != NULL &&
		    path_line(out, d, "A", mb->closest, ", the closest", err, errlen) < 0)
			return -1;
	}
	if (v->nmembers > TEXT_MEMBERS)
		fprintf(out, "       ... and %zu more %s\n", v->nmembers - TEXT_MEMBERS,
			plural(v->nmembers - TEXT_MEMBERS, "path", "paths"));
	return 0;
}

/* A table of paths: ranks and counts in A and B, then the decoded path. */
static int paths_text(FILE *out, struct diff *d, struct diff_path **v, size_t n, size_t top,
		      char *err, size_t errlen)
{
	struct table t;

	table_init(&t, 7, 0x4f);
	table_row(&t, (const char *const[]){ "rank A", "rank B", "count A", "count B", "module",
		  "region", "number" });
	for (size_t i = 0; i < n && i < top; i++) {
		struct diff_path *p = v[i];
		struct rec *x = p->b != NULL ? p->b : p->a;
		const struct prog_module *m = mod_of(d, x->mod);
		char ra[24] = "-", rb[24] = "-", ca[24] = "0", cb[24] = "0", *num, *steps;
		struct sbuf line = { 0 };

		if (p->a != NULL) {
			snprintf(ra, sizeof(ra), "%zu", p->a->rank);
			snprintf(ca, sizeof(ca), "%" PRIu64, p->a->count);
		}
		if (p->b != NULL) {
			snprintf(rb, sizeof(rb), "%zu", p->b->rank);
			snprintf(cb, sizeof(cb), "%" PRIu64, p->b->count);
		}
		if (diff_decode(d, x, err, errlen) < 0) {
			table_free(&t);
			return -1;
		}
		num = ipp_pnum_str(&x->num);
		table_row(&t, (const char *const[]){ ra, rb, ca, cb, m->map->module,
			  region_name(d, x->mod, x->region), num });
		steps = path_compact(m, &x->steps);
		sb_printf(&line, "      %s%s", x->partial ? "(partial) " : "", steps);
		table_after(&t, line.s);
		free(num);
		free(steps);
	}
	table_print(out, &t, 2);
	table_free(&t);
	if (n > top)
		fprintf(out, "  ... and %zu more (--all shows them)\n", n - top);
	return 0;
}

static int diff_text(FILE *out, struct diff *d, size_t top, char *err, size_t errlen)
{
	fprintf(out, "ipp diff: %s\n", d->prog->path);
	side_line(out, "A", &d->a);
	side_line(out, "B", &d->b);
	fprintf(out, "  %zu %s in both (%zu with counts differing by more than a factor of "
		"%g), %zu only in A, %zu only in B\n", d->nsame + d->nchanged,
		plural(d->nsame + d->nchanged, "path", "paths"), d->nchanged, d->ratio,
		d->nonly_a, d->nonly_b);
	if (diff_equal(d)) {
		fputs("\nThe path spectra are equal.\n", out);
		return 0;
	}
	if (d->ndivs > 0) {
		fprintf(out, "\nWhere B went another way than A (%zu divergence %s, the most "
			"executed first):\n\n", d->ndivs, plural(d->ndivs, "point", "points"));
		for (size_t i = 0; i < d->ndivs && i < top; i++)
			if (divergence_text(out, d, i, err, errlen) < 0)
				return -1;
		if (d->ndivs > top)
			fprintf(out, "  ... and %zu more (--all shows them)\n", d->ndivs - top);
	}
	if (d->nonly_b > 0) {
		fprintf(out, "\nPaths only in B (%zu), the most frequent first:\n", d->nonly_b);
		if (paths_text(out, d, d->only_b, d->nonly_b, top, err, errlen) < 0)
			return -1;
	}
	if (d->nonly_a > 0) {
		fprintf(out, "\nPaths only in A (%zu), the most frequent first:\n", d->nonly_a);
		if (paths_text(out, d, d->only_a, d->nonly_a, top, err, errlen) < 0)
			return -1;
	}
	if (d->nchanged > 0) {
		fprintf(out, "\nPaths whose counts differ by more than a factor of %g (%zu), the "
			"largest difference first:\n", d->ratio, d->nchanged);
		if (paths_text(out, d, d->changed, d->nchanged, top, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* YAML / JSON                                                          */
/* ------------------------------------------------------------------ */

static void side_struct(emitter *e, const char *key, const struct report *r)
{
	emit_key(e, key);
	emit_begin_map(e);
	key_str(e, "profile", r->profile_name);
	key_big(e, "total_recorded", r->total);
	key_int(e, "paths_recorded", (long long)r->nrecs);
	emit_end(e);
}

/* {rank, region, number, count} of a record; rank and count of 'side'. */
static void rec_ref(emitter *e, const struct diff *d, const struct rec *x)
{
	emit_begin_map_flow(e);
	key_str(e, "module", mod_of(d, x->mod)->map->module);
	key_str(e, "region", region_name(d, x->mod, x->region));
	key_pnum(e, "number", &x->num);
	emit_key(e, "partial");
	emit_bool(e, x->partial);
	key_int(e, "rank", (long long)x->rank);
	emit_key(e, "count");
	emit_big_u64(e, x->count);
	emit_end(e);
}

/* Where an edge leads: {function, file, line, vertex}, or null. */
static void edge_target_struct(emitter *e, const struct prog_module *m, ipp_id edge)
{
	const ipp_graph *g = m->map->graph;
	ipp_id dst, origin;

	if (edge == IPP_NONE) {
		emit_null(e);
		return;
	}
	dst = ipp_fin_edst(m->fin, edge);
	origin = ipp_fin_vorigin(m->fin, dst);
	emit_begin_map_flow(e);
	key_str(e, "function", ipp_proc_name(g, ipp_fin_vproc(m->fin, dst)));
	if (ipp_fin_ekind(m->fin, edge) == IPP_E_SURR_EXIT && ipp_fin_eorigin(m->fin, edge) !=
	    IPP_NONE)
		origin = ipp_edge_dst(g, ipp_fin_eorigin(m->fin, edge));	/* the loop header */
	key_location(e, g, origin != IPP_NONE ? origin : dst);
	key_str(e, "edge", ipp_ekind_name(ipp_fin_ekind(m->fin, edge)));
	key_int(e, "vertex", dst);
	emit_end(e);
}

static void divergence_struct(emitter *e, const struct diff *d, const struct divergence *v)
{
	const struct prog_module *m = mod_of(d, v->mod);
	const ipp_graph *g = m->map->graph;
	ipp_id origin = ipp_fin_vorigin(m->fin, v->vertex);

	emit_begin_map(e);
	key_str(e, "kind", div_kind_name(v->kind));
	key_str(e, "function", ipp_proc_name(g, ipp_fin_vproc(m->fin, v->vertex)));
	key_location(e, g, origin != IPP_NONE ? origin : v->vertex);
	key_str(e, "module", m->map->module);
	key_str(e, "region", region_name(d, v->mod, v->region));
	key_int(e, "vertex", v->vertex);
	emit_key(e, "context");
	emit_begin_seq(e);
	for (size_t i = 0; i < v->ncontext; i++) {
		ipp_id c = v->context[i];
		emit_begin_map_flow(e);
		key_str(e, "caller", ipp_proc_name(g, ipp_vertex_proc(g, c)));
		key_str(e, "callee", ipp_call_target_name(g, c));
		key_location(e, g, c);
		key_int(e, "vertex", c);
		emit_end(e);
	}
	emit_end(e);
	emit_key(e, "count");
	emit_big_u64(e, v->count);
	key_int(e, "paths", (long long)v->nmembers);
	emit_key(e, "paths_only_b");
	emit_begin_seq(e);
	for (size_t i = 0; i < v->nmembers; i++) {
		const struct div_member *mb = &v->members[i];
		emit_begin_map(e);
		emit_key(e, "b");
		rec_ref(e, d, mb->p->b);
		emit_key(e, "closest_a");
		if (mb->closest != NULL)
			rec_ref(e, d, mb->closest);
		else
			emit_null(e);
		key_int(e, "common_edges", (long long)mb->common);
		emit_key(e, "b_to");
		edge_target_struct(e, m, mb->b_edge);
		emit_key(e, "a_to");
		edge_target_struct(e, m, mb->a_edge);
		emit_end(e);
	}
	emit_end(e);
	emit_end(e);
}

static int paths_struct(emitter *e, struct diff *d, const char *key, struct diff_path **v,
			size_t n, size_t top, char *err, size_t errlen)
{
	emit_key(e, key);
	emit_begin_seq(e);
	for (size_t i = 0; i < n && i < top; i++) {
		struct diff_path *p = v[i];
		struct rec *x = p->b != NULL ? p->b : p->a;
		const struct prog_module *m = mod_of(d, x->mod);

		if (diff_decode(d, x, err, errlen) < 0)
			return -1;
		emit_begin_map(e);
		key_str(e, "module", m->map->module);
		key_str(e, "region", region_name(d, x->mod, x->region));
		key_pnum(e, "number", &x->num);
		emit_key(e, "partial");
		emit_bool(e, x->partial);
		struct_stack(e, x);
		emit_key(e, "rank_a");
		p->a != NULL ? emit_int(e, (long long)p->a->rank) : emit_null(e);
		emit_key(e, "rank_b");
		p->b != NULL ? emit_int(e, (long long)p->b->rank) : emit_null(e);
		emit_key(e, "count_a");
		emit_big_u64(e, p->a != NULL ? p->a->count : 0);
		emit_key(e, "count_b");
		emit_big_u64(e, p->b != NULL ? p->b->count : 0);
		key_int(e, "context_prefix", (long long)x->steps.context);
		struct_vertices(e, m, x);
		emit_end(e);
	}
	emit_end(e);
	return 0;
}

static int diff_struct(FILE *out, enum emit_format f, struct diff *d, size_t top, char *err,
		       size_t errlen)
{
	emitter *e = emit_new(out, f);
	int rc = -1;

	emit_begin_map(e);
	key_int(e, "ipp_diff", REPORT_SCHEMA_VERSION);
	key_str(e, "program", d->prog->path);
	side_struct(e, "a", &d->a);
	side_struct(e, "b", &d->b);
	emit_key(e, "ratio");
	emit_double(e, d->ratio);
	emit_key(e, "equal");
	emit_bool(e, diff_equal(d));
	key_int(e, "paths_in_both", (long long)(d->nsame + d->nchanged));
	key_int(e, "paths_changed", (long long)d->nchanged);
	key_int(e, "paths_only_a", (long long)d->nonly_a);
	key_int(e, "paths_only_b", (long long)d->nonly_b);
	emit_key(e, "divergences");
	emit_begin_seq(e);
	for (size_t i = 0; i < d->ndivs && i < top; i++)
		divergence_struct(e, d, &d->divs[i]);
	emit_end(e);
	if (paths_struct(e, d, "only_b", d->only_b, d->nonly_b, top, err, errlen) < 0 ||
	    paths_struct(e, d, "only_a", d->only_a, d->nonly_a, top, err, errlen) < 0 ||
	    paths_struct(e, d, "changed", d->changed, d->nchanged, top, err, errlen) < 0)
		goto out;
	emit_end(e);
	rc = 0;
out:
	emit_finish(e);
	return rc;
}

int write_diff(FILE *out, enum out_format f, struct diff *d, size_t top, char *err,
	       size_t errlen)
{
	if (f == FORMAT_TEXT)
		return diff_text(out, d, top, err, errlen);
	return diff_struct(out, f == FORMAT_JSON ? EMIT_JSON : EMIT_YAML, d, top, err, errlen);
}
