/* write_struct.c -- the report, a decoded path and the cuts in the stable
 * YAML / JSON schema documented field by field in docs/REPORT.md.  Change
 * the schema only together with that document (and REPORT_SCHEMA_VERSION
 * for anything a reader could trip on).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "writers.h"
#include "util.h"

#include <string.h>

int parse_format(const char *s, enum out_format *out)
{
	if (strcmp(s, "text") == 0)
		*out = FORMAT_TEXT;
	else if (strcmp(s, "yaml") == 0)
		*out = FORMAT_YAML;
	else if (strcmp(s, "json") == 0)
		*out = FORMAT_JSON;
	else
		return -1;
	return 0;
}

void write_report(FILE *out, enum out_format f, const struct report *r)
{
	if (f == FORMAT_TEXT)
		write_report_text(out, r);
	else
		write_report_struct(out, f == FORMAT_JSON ? EMIT_JSON : EMIT_YAML, r);
}

void write_cuts(FILE *out, enum out_format f, const struct cuts_report *c)
{
	if (f == FORMAT_TEXT)
		write_cuts_text(out, c);
	else
		write_cuts_struct(out, f == FORMAT_JSON ? EMIT_JSON : EMIT_YAML, c);
}

/* ------------------------------------------------------------------ */
/* Pieces shared by the report and the cuts                            */
/* ------------------------------------------------------------------ */

/* file and line of a G* vertex (null when unknown) */
void key_location(emitter *e, const ipp_graph *g, ipp_id v)
{
	int line = ipp_vertex_line(g, v);
	key_str(e, "file", ipp_vertex_file(g, v));
	emit_key(e, "line");
	if (line > 0)
		emit_int(e, line);
	else
		emit_null(e);
}

static const char *proc_name_or_null(const ipp_graph *g, ipp_id p)
{
	return p != IPP_NONE ? ipp_proc_name(g, p) : NULL;
}

/* name, checksum, mode */
static void module_head(emitter *e, const struct prog_module *m)
{
	key_str(e, "name", m->map->module);
	emit_key(e, "checksum");
	emit_str_quoted(e, m->checksum);
	key_str(e, "mode", ipp_mode_name(m->map->mode));
}

void emit_regions(emitter *e, const struct prog_module *m)
{
	mpz_t x;

	mpz_init(x);
	emit_key(e, "regions");
	emit_begin_seq(e);
	for (size_t i = 0; i < ipp_fin_nregions(m->fin); i++) {
		ipp_region_info info;
		ipp_fin_region(m->fin, (ipp_id)i, &info);
		emit_begin_map_flow(e);
		key_str(e, "name", info.name);
		key_str(e, "function", ipp_proc_name(m->map->graph, info.proc));
		key_str(e, "kind", info.gentry ? "gentry" : "entry");
		ipp_fin_region_total(m->fin, (ipp_id)i, x);
		key_big(e, "paths", x);
		ipp_fin_region_offset(m->fin, (ipp_id)i, x);
		key_big(e, "offset", x);
		emit_end(e);
	}
	emit_end(e);
	mpz_clear(x);
}

static void total_paths(emitter *e, const struct prog_module *m)
{
	/* the map's total: the renumbering's (ipp_map_fin checks it) */
	key_big(e, "total_paths", m->map->total);
}

/* ------------------------------------------------------------------ */
/* The report                                                           */
/* ------------------------------------------------------------------ */

void struct_vertex(emitter *e, const struct prog_module *m, const struct step *s)
{
	const ipp_graph *g = m->map->graph;

	emit_begin_map_flow(e);
	key_str(e, "function", proc_name_or_null(g, s->proc));
	key_location(e, g, s->origin);
	key_str(e, "kind", step_kind_name(s->kind));
	if (s->kind == SK_CALL || s->kind == SK_SUMMARY)
		key_str(e, "callee", s->callee_name);
	if (s->kind == SK_SUMMARY)
		key_str(e, "why", ipp_summary_why_name(s->why));
	key_int(e, "vertex", s->vertex);
	emit_end(e);
}

void struct_stack(emitter *e, const struct rec *x)
{
	if (!x->partial)
		return;
	emit_key(e, "stack");
	emit_begin_seq_flow(e);
	for (size_t i = 0; i < x->nstack; i++)
		emit_int(e, x->stack[i]);
	emit_end(e);
}

void struct_vertices(emitter *e, const struct prog_module *m, const struct rec *x)
{
	emit_key(e, "vertices");
	emit_begin_seq(e);
	for (size_t i = 0; i < x->steps.n; i++)
		struct_vertex(e, m, &x->steps.v[i]);
	emit_end(e);
}

void emit_report_path(emitter *e, const struct report *r, const struct rec *x)
{
	const struct prog_module *m = &r->prog->mods[x->mod];
	ipp_region_info info;
	mpz_t global, num;

	ipp_fin_region(m->fin, x->region, &info);
	mpz_init(global);
	mpz_init(num);
	ipp_fin_region_offset(m->fin, x->region, global);
	ipp_pnum_get(&x->num, num);
	mpz_add(global, global, num);
	mpz_clear(num);

	emit_begin_map(e);
	if (r->kind == REPORT_PROFILE)
		key_int(e, "rank", (long long)x->rank);
	key_str(e, "region", info.name);
	key_pnum(e, "number", &x->num);
	key_big(e, "global", global);
	if (r->kind == REPORT_PROFILE) {
		emit_key(e, "count");
		emit_big_u64(e, x->count);
	}
	emit_key(e, "partial");
	emit_bool(e, x->partial);
	if (x->nfolds > 0) {	/* an inlined copy's runs counted as its function's */
		emit_key(e, "counted_as");
		emit_begin_seq(e);
		for (size_t k = 0; k < x->nfolds; k++) {
			ipp_region_info fi;
			ipp_fin_region(m->fin, x->folds[k].region, &fi);
			emit_begin_map_flow(e);
			key_str(e, "region", fi.name);
			emit_key(e, "count");
			emit_big_u64(e, x->folds[k].count);
			emit_end(e);
		}
		emit_end(e);
	}
	key_int(e, "context_prefix", (long long)x->steps.context);
	struct_stack(e, x);
	struct_vertices(e, m, x);
	emit_end(e);
	mpz_clear(global);
}

static bool module_has_shown(const struct report *r, size_t mod)
{
	for (size_t i = 0; i < r->nshown; i++)
		if (r->shown[i]->mod == mod)
			return true;
	return false;
}

void write_report_struct(FILE *out, enum emit_format f, const struct report *r)
{
	emitter *e = emit_new(out, f);
	bool profile = r->kind == REPORT_PROFILE;

	emit_begin_map(e);
	key_int(e, "ipp_report", REPORT_SCHEMA_VERSION);
	key_str(e, "program", r->prog->path);
	if (profile) {
		key_str(e, "profile", r->profile_name);
		key_big(e, "total_recorded", r->total);
		key_int(e, "paths_recorded", (long long)r->nrecs);
		key_int(e, "paths_shown", (long long)r->nshown);
	}
	emit_key(e, "modules");
	emit_begin_seq(e);
	for (size_t i = 0; i < r->prog->nmods; i++) {
		const struct prog_module *m = &r->prog->mods[i];
		const struct mod_report *mr = &r->mods[i];

		if (!profile && !module_has_shown(r, i))
			continue;
		emit_begin_map(e);
		module_head(e, m);
		if (profile) {
			emit_key(e, "runs");
			emit_big_u64(e, mr->pm != NULL ? mr->pm->runs : 0);
			key_big(e, "recorded", mr->recorded);
			key_int(e, "paths_recorded", (long long)mr->nrecords);
		}
		total_paths(e, m);
		if (r->show_regions)
			emit_regions(e, m);
		emit_key(e, "paths");
		emit_begin_seq(e);
		for (size_t k = 0; k < r->nshown; k++)
			if (r->shown[k]->mod == i)
				emit_report_path(e, r, r->shown[k]);
		emit_end(e);
		emit_end(e);
	}
	emit_end(e);
	emit_end(e);
	emit_finish(e);
}

/* ------------------------------------------------------------------ */
/* The cuts                                                             */
/* ------------------------------------------------------------------ */

/* caller, callee, file, line of call vertex c */
static void call_site(emitter *e, const ipp_graph *g, ipp_id c)
{
	key_str(e, "caller", ipp_proc_name(g, ipp_vertex_proc(g, c)));
	key_str(e, "callee", ipp_call_target_name(g, c));
	key_location(e, g, c);
}

void write_cuts_struct(FILE *out, enum emit_format f, const struct cuts_report *c)
{
	emitter *e = emit_new(out, f);

	emit_begin_map(e);
	key_int(e, "ipp_cuts", REPORT_SCHEMA_VERSION);
	key_str(e, "program", c->prog->path);
	emit_key(e, "modules");
	emit_begin_seq(e);
	for (size_t i = 0; i < c->prog->nmods; i++) {
		const struct prog_module *m = &c->prog->mods[i];
		const struct mod_cuts *mc = &c->mods[i];
		const ipp_graph *g = m->map->graph;

		emit_begin_map(e);
		module_head(e, m);
		key_big(e, "limit", m->map->limit);
		total_paths(e, m);
		emit_regions(e, m);

		emit_key(e, "cut_vertices");
		emit_begin_seq(e);
		for (size_t k = 0; k < mc->nvertices; k++) {
			ipp_id v = mc->vertices[k].vertex;
			emit_begin_map_flow(e);
			key_str(e, "function", ipp_proc_name(g, ipp_vertex_proc(g, v)));
			key_location(e, g, v);
			key_str(e, "kind", ipp_vkind_name(ipp_vertex_kind(g, v)));
			key_str(e, "why", cut_why_name(mc->vertices[k].why));
			key_int(e, "vertex", v);
			emit_end(e);
		}
		emit_end(e);

		emit_key(e, "cut_calls");
		emit_begin_seq(e);
		for (size_t k = 0; k < mc->ncalls; k++) {
			emit_begin_map_flow(e);
			call_site(e, g, mc->calls[k].vertex);
			key_str(e, "why", cut_why_name(mc->calls[k].why));
			key_int(e, "vertex", mc->calls[k].vertex);
			emit_end(e);
		}
		emit_end(e);

		emit_key(e, "summaries");
		emit_begin_seq(e);
		for (size_t k = 0; k < mc->nsummaries; k++) {
			ipp_id v = mc->summaries[k];
			emit_begin_map_flow(e);
			call_site(e, g, v);
			key_str(e, "why", ipp_summary_why_name(ipp_fin_call_summary(m->fin, v)));
			key_int(e, "vertex", v);
			emit_end(e);
		}
		emit_end(e);
		emit_end(e);
	}
	emit_end(e);
	emit_end(e);
	emit_finish(e);
}
