/* write_text.c -- the report, a decoded path and the cuts as readable text
 * (the layout is described in docs/REPORT.md).  The text is for people:
 * scripts should use --format=yaml or json.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "writers.h"
#include "text.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* The report                                                           */
/* ------------------------------------------------------------------ */

static void module_line(FILE *out, const struct report *r, size_t i)
{
	const struct prog_module *m = &r->prog->mods[i];
	const struct mod_report *mr = &r->mods[i];
	size_t nreg = m->map->nregions;
	mpz_t total;

	/* the map's totals: equal to the renumbering's (ipp_map_fin checks
	 * them), and at hand for a unit that was not renumbered */
	mpz_init(total);
	mpz_set(total, m->map->total);
	gmp_fprintf(out, "%s: %s mode, %Zd %s in %zu %s", m->map->module,
		    ipp_mode_name(m->map->mode), total, mpz_cmp_ui(total, 1) == 0 ? "path" : "paths",
		    nreg, plural(nreg, "region", "regions"));
	if (r->kind == REPORT_PROFILE) {
		if (mr->pm == NULL)
			fputs("; not run", out);
		else
			gmp_fprintf(out, "; %" PRIu64 " %s, %Zd %s of %zu %s recorded",
				    mr->pm->runs, plural(mr->pm->runs, "run", "runs"), mr->recorded,
				    mpz_cmp_ui(mr->recorded, 1) == 0 ? "execution" : "executions",
				    mr->nrecords, plural(mr->nrecords, "path", "paths"));
	}
	fprintf(out, " (checksum %s)\n", m->checksum);
	mpz_clear(total);
}

static void region_table(FILE *out, const struct prog_module *m)
{
	struct table t;
	mpz_t x;

	mpz_init(x);
	table_init(&t, 4, 0x6);
	table_row(&t, (const char *const[]){ "region", "paths", "offset", "function" });
	for (size_t i = 0; i < ipp_fin_nregions(m->fin); i++) {
		ipp_region_info info;
		char *paths, *offset;
		ipp_fin_region(m->fin, (ipp_id)i, &info);
		ipp_fin_region_total(m->fin, (ipp_id)i, x);
		paths = mpz_str(x);
		ipp_fin_region_offset(m->fin, (ipp_id)i, x);
		offset = mpz_str(x);
		table_row(&t, (const char *const[]){ info.name, paths, offset,
			  ipp_proc_name(m->map->graph, info.proc) });
		free(paths);
		free(offset);
	}
	table_print(out, &t, 4);
	table_free(&t);
	mpz_clear(x);
}

/* The unit of the program that holds main (instrumented, an entry), or -1. */
static long main_unit(const struct program *prog)
{
	for (size_t i = 0; i < prog->nmods; i++) {
		const ipp_graph *g;
		ipp_id p;
		if (prog->mods[i].map == NULL)	/* not parsed: it never ran */
			continue;
		g = prog->mods[i].map->graph;
		p = ipp_proc_find(g, "main");
		if (p != IPP_NONE && !(ipp_proc_flags(g, p) & IPP_PROC_SKIPPED))
			return (long)i;
	}
	return -1;
}

/* Every run of the program records in the unit of main, so a unit with
 * more runs than that one holds runs of other programs too (a profile that
 * several programs sharing a unit wrote into). */
static void several_programs(FILE *out, const struct report *r)
{
	long mu = main_unit(r->prog);
	uint64_t own;

	if (mu < 0 || r->mods[mu].pm == NULL)
		return;
	own = r->mods[mu].pm->runs;
	for (size_t i = 0; i < r->prog->nmods; i++) {
		const ipp_prof_module *pm = r->mods[i].pm;
		if (pm != NULL && pm->runs > own)
			fprintf(out, "  note: %s has %" PRIu64 " runs but %s, the unit of main, has "
				"%" PRIu64 ": its paths include runs of other programs that share "
				"it\n", r->prog->mods[i].map->module, pm->runs,
				r->prog->mods[mu].map->module, own);
	}
}

/* Two shown paths of one region whose text would read the same each get a
 * note at the vertex where they part: where each went from there. */
static struct path_note *distinguishing_notes(const struct report *r, char **texts, size_t i,
					      size_t *nnotes)
{
	const struct rec *x = r->shown[i];
	const struct prog_module *m = &r->prog->mods[x->mod];
	struct path_note *notes = NULL;
	ipp_path mine, other;
	char err[256];

	*nnotes = 0;
	ipp_path_init(&mine);
	ipp_path_init(&other);
	for (size_t k = 0; k < r->nshown; k++) {
		const struct rec *y = r->shown[k];
		size_t common = 0;
		char *d1, *d2;
		struct sbuf b = { 0 };

		if (k == i || y->mod != x->mod || y->region != x->region ||
		    strcmp(texts[i], texts[k]) != 0)
			continue;
		if ((mine.nedges == 0 && report_rec_edges(r, x, &mine, err, sizeof(err)) < 0) ||
		    report_rec_edges(r, y, &other, err, sizeof(err)) < 0)
			continue;	/* decoded before: cannot fail */
		while (common < mine.nedges && common < other.nedges &&
		       mine.edges[common] == other.edges[common])
			common++;
		edge_targets(m, common < mine.nedges ? mine.edges[common] : IPP_NONE,
			     common < other.nedges ? other.edges[common] : IPP_NONE, 1, &d1, &d2);
		sb_printf(&b, "branch to %s", d1);
		free(d1);
		free(d2);
		notes = xrealloc(notes, (*nnotes + 1) * sizeof(notes[0]));
		/* vertex 'common' of the path is step common - 1 (Entry_global is
		 * not a step) */
		notes[*nnotes].step = common > 0 ? common - 1 : 0;
		notes[*nnotes].text = b.s;
		(*nnotes)++;
	}
	ipp_path_free(&mine);
	ipp_path_free(&other);
	return notes;
}

/* The text of every shown path, distinct paths of a region never alike. */
static char **path_texts(const struct report *r)
{
	char **texts = xcalloc(r->nshown ? r->nshown : 1, sizeof(texts[0]));
	char **plain = xcalloc(r->nshown ? r->nshown : 1, sizeof(plain[0]));

	for (size_t i = 0; i < r->nshown; i++) {
		const struct rec *x = r->shown[i];
		plain[i] = path_render(&r->prog->mods[x->mod], &x->steps, NULL, 0, r->width, 6);
	}
	for (size_t i = 0; i < r->nshown; i++) {
		const struct rec *x = r->shown[i];
		size_t nnotes;
		struct path_note *notes = distinguishing_notes(r, plain, i, &nnotes);

		if (nnotes == 0) {
			texts[i] = xstrdup(plain[i]);
			continue;
		}
		texts[i] = path_render(&r->prog->mods[x->mod], &x->steps, notes, nnotes, r->width,
				       6);
		for (size_t k = 0; k < nnotes; k++)
			free((char *)notes[k].text);
		free(notes);
	}
	for (size_t i = 0; i < r->nshown; i++)
		free(plain[i]);
	free(plain);
	return texts;
}

/* A unit ran if the profile holds a record of it.  Every unit registers at
 * start-up, so a unit whose code never executed is written with its run
 * count and no records: it is listed with those that are not there. */
static bool unit_ran(const ipp_prof_module *pm)
{
	return pm != NULL && ipp_prof_module_has_records(pm);
}

static void report_profile_text(FILE *out, const struct report *r)
{
	struct table t;
	size_t never = 0;
	char **texts;

	fprintf(out, "ipp report: %s, profile %s\n", r->prog->path, r->profile_name);
	for (size_t i = 0; i < r->prog->nmods; i++) {
		if (!unit_ran(r->mods[i].pm) && !r->show_regions) {
			never++;
			continue;
		}
		fputs("  ", out);
		module_line(out, r, i);
		if (r->show_regions)
			region_table(out, &r->prog->mods[i]);
	}
	if (never > 0)
		fprintf(out, "  %s%zu %s never ran\n", never < r->prog->nmods ? "and " : "", never,
			plural(never, "unit", "units"));
	several_programs(out, r);
	putc('\n', out);
	if (r->nrecs == 0) {
		fputs("No paths recorded.\n", out);
		return;
	}
	if (r->nmatching < r->nrecs)
		gmp_fprintf(out, "%s %zu of the %zu paths that match (of %zu recorded, %Zd "
			    "executions):\n\n", r->nshown == r->nmatching ? "All" : "The top",
			    r->nshown, r->nmatching, r->nrecs, r->total);
	else if (r->nshown == r->nrecs)
		gmp_fprintf(out, "All %zu %s recorded (%Zd %s):\n\n", r->nrecs,
			    plural(r->nrecs, "path", "paths"), r->total,
			    mpz_cmp_ui(r->total, 1) == 0 ? "execution" : "executions");
	else
		gmp_fprintf(out, "The top %zu of %zu paths recorded (%Zd executions):\n\n",
			    r->nshown, r->nrecs, r->total);
	if (r->nshown == 0)
		return;

	texts = path_texts(r);
	table_init(&t, 7, 0x27);
	table_row(&t, (const char *const[]){ "rank", "count", "%", "module", "region", "number",
		  "" });
	for (size_t i = 0; i < r->nshown; i++) {
		const struct rec *x = r->shown[i];
		const struct prog_module *m = &r->prog->mods[x->mod];
		ipp_region_info info;
		char rank[24], pct[32], *count = u64_str(x->count), *num = ipp_pnum_str(&x->num);
		double total = mpz_get_d(r->total);

		ipp_fin_region(m->fin, x->region, &info);
		snprintf(rank, sizeof(rank), "%zu", x->rank);
		snprintf(pct, sizeof(pct), "%.2f%%",
			 total > 0 ? 100.0 * (double)x->count / total : 0.0);
		table_row(&t, (const char *const[]){ rank, count, pct, m->map->module, info.name,
			  num, x->partial ? "partial" : "" });
		table_after(&t, texts[i]);
		free(count);
		free(num);
	}
	free(texts);
	table_print(out, &t, 0);
	table_free(&t);
}

static void report_decode_text(FILE *out, const struct report *r)
{
	const struct rec *x = r->shown[0];
	const struct prog_module *m = &r->prog->mods[x->mod];
	const ipp_graph *g = m->map->graph;
	ipp_region_info info;
	struct table t;
	char *steps = path_render(m, &x->steps, NULL, 0, r->width, 2);
	mpz_t total, global, num;

	mpz_init(total);
	mpz_init(global);
	mpz_init(num);
	ipp_pnum_get(&x->num, num);
	ipp_fin_region(m->fin, x->region, &info);
	ipp_fin_region_total(m->fin, x->region, total);
	ipp_fin_region_offset(m->fin, x->region, global);
	mpz_add(global, global, num);
	if (r->show_regions) {
		fputs("  ", out);
		module_line(out, r, x->mod);
		region_table(out, m);
		putc('\n', out);
	}
	gmp_fprintf(out, "%s, region %s, %spath %Zd of %Zd (global number %Zd):\n%s\n\n",
		    m->map->module, info.name, x->partial ? "partial " : "", num, total,
		    global, steps);
	free(steps);

	table_init(&t, 5, 0x1);
	table_row(&t, (const char *const[]){ "vertex", "kind", "function", "location", "" });
	for (size_t i = 0; i < x->steps.n; i++) {
		const struct step *s = &x->steps.v[i];
		char id[24], *loc = location(g, s->origin);
		struct sbuf extra = { 0 };

		snprintf(id, sizeof(id), "%" PRId32, s->vertex);
		if (s->kind == SK_CALL || s->kind == SK_SUMMARY)
			sb_printf(&extra, "calls %s", s->callee_name != NULL ?
				  s->callee_name : "?");
		if (s->kind == SK_SUMMARY)
			sb_printf(&extra, ", not followed: %s%s", ipp_summary_why_name(s->why),
				  (ipp_call_flags(g, s->origin) & IPP_CALL_TAIL) ? ", tail call" : "");
		table_row(&t, (const char *const[]){ id, step_kind_name(s->kind),
			  s->proc != IPP_NONE ? ipp_proc_name(g, s->proc) : "?", loc,
			  extra.s != NULL ? extra.s : "" });
		free(loc);
		free(extra.s);
	}
	table_print(out, &t, 2);
	table_free(&t);
	mpz_clear(total);
	mpz_clear(global);
	mpz_clear(num);
}

void write_report_text(FILE *out, const struct report *r)
{
	if (r->kind == REPORT_PROFILE)
		report_profile_text(out, r);
	else
		report_decode_text(out, r);
}

/* ------------------------------------------------------------------ */
/* The cuts                                                             */
/* ------------------------------------------------------------------ */

static void call_row(struct table *t, const ipp_graph *g, ipp_id c, const char *why)
{
	const char *callee = ipp_call_target_name(g, c);
	struct sbuf arrow = { 0 };
	char *loc = location(g, c);

	sb_printf(&arrow, "%s -> %s", ipp_proc_name(g, ipp_vertex_proc(g, c)),
		  callee != NULL ? callee :
		  (ipp_call_flags(g, c) & IPP_CALL_INDIRECT) ? "(indirect)" : "(external)");
	table_row(t, (const char *const[]){ arrow.s, loc, why });
	free(arrow.s);
	free(loc);
}

/* The limit in decimal, or "2^64-1" for the plugin's default. */
static char *limit_str(const mpz_t limit)
{
	mpz_t max;
	bool is_max;

	mpz_init(max);
	mpz_ui_pow_ui(max, 2, 64);
	mpz_sub_ui(max, max, 1);
	is_max = mpz_cmp(limit, max) == 0;
	mpz_clear(max);
	return is_max ? xstrdup("2^64-1") : mpz_str(limit);
}

void write_cuts_text(FILE *out, const struct cuts_report *c)
{
	mpz_t x;

	mpz_init(x);
	fprintf(out, "ipp report --cuts: %s\n", c->prog->path);
	for (size_t i = 0; i < c->prog->nmods; i++) {
		const struct prog_module *m = &c->prog->mods[i];
		const struct mod_cuts *mc = &c->mods[i];
		const ipp_graph *g = m->map->graph;
		size_t nreg = ipp_fin_nregions(m->fin);
		struct table t;

		char *limit = limit_str(m->map->limit);
		ipp_fin_total(m->fin, x);
		gmp_fprintf(out, "\n%s: %s mode, limit %s paths per region, %Zd paths in %zu %s "
			    "(checksum %s)\n", m->map->module, ipp_mode_name(m->map->mode),
			    limit, x, nreg, plural(nreg, "region", "regions"), m->checksum);
		free(limit);
		fputs("  regions:\n", out);
		region_table(out, m);

		if (mc->nvertices == 0) {
			fputs("  cut vertices: none\n", out);
		} else {
			fprintf(out, "  cut vertices (%zu):\n", mc->nvertices);
			table_init(&t, 4, 0);
			for (size_t k = 0; k < mc->nvertices; k++) {
				ipp_id v = mc->vertices[k].vertex;
				char *loc = location(g, v);
				table_row(&t, (const char *const[]){
					  ipp_proc_name(g, ipp_vertex_proc(g, v)), loc,
					  ipp_vkind_name(ipp_vertex_kind(g, v)),
					  cut_why_name(mc->vertices[k].why) });
				free(loc);
			}
			table_print(out, &t, 4);
			table_free(&t);
		}
		if (mc->ncalls == 0) {
			fputs("  cut call sites: none\n", out);
		} else {
			fprintf(out, "  cut call sites (%zu):\n", mc->ncalls);
			table_init(&t, 3, 0);
			for (size_t k = 0; k < mc->ncalls; k++)
				call_row(&t, g, mc->calls[k].vertex, cut_why_name(mc->calls[k].why));
			table_print(out, &t, 4);
			table_free(&t);
		}
		if (mc->nsummaries == 0) {
			fputs("  summarized call sites: none\n", out);
		} else {
			fprintf(out, "  summarized call sites (%zu):\n", mc->nsummaries);
			table_init(&t, 3, 0);
			for (size_t k = 0; k < mc->nsummaries; k++)
				call_row(&t, g, mc->summaries[k],
					 ipp_summary_why_name(ipp_fin_call_summary(m->fin,
										   mc->summaries[k])));
			table_print(out, &t, 4);
			table_free(&t);
		}
	}
	mpz_clear(x);
}
