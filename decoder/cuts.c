/* cuts.c -- building the cuts model (cuts.h).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "cuts.h"
#include "util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

const char *cut_why_name(enum cut_why w)
{
	switch (w) {
	case CUT_LIMIT:
		return "limit";
	case CUT_FORCED:
		return "forced";
	default:
		return "unknown";
	}
}

static bool contains(const ipp_id *v, size_t n, ipp_id x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

static struct cut_entry *classify(const ipp_id *ids, size_t n, const ipp_id *chosen,
				  size_t nchosen, bool known)
{
	struct cut_entry *v = xcalloc(n ? n : 1, sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		v[i].vertex = ids[i];
		v[i].why = !known ? CUT_UNKNOWN :
			contains(chosen, nchosen, ids[i]) ? CUT_LIMIT : CUT_FORCED;
	}
	return v;
}

static void build_module(struct mod_cuts *mc, const struct prog_module *m)
{
	const ipp_map *map = m->map;
	const ipp_graph *g = map->graph;
	size_t cap = 0;
	ipp_cuts fresh;
	char msg[256];
	bool known = false;

	ipp_cuts_init(&fresh);
	if ((map->cuts.nvertices > 0 || map->cuts.ncalls > 0) && mpz_cmp_ui(map->limit, 2) >= 0)
		known = ipp_autocut(g, map->mode, map->limit, &fresh, msg, sizeof(msg)) == 0;
	mc->vertices = classify(map->cuts.vertices, map->cuts.nvertices, fresh.vertices,
				fresh.nvertices, known);
	mc->nvertices = map->cuts.nvertices;
	mc->calls = classify(map->cuts.calls, map->cuts.ncalls, fresh.calls, fresh.ncalls, known);
	mc->ncalls = map->cuts.ncalls;
	ipp_cuts_free(&fresh);

	for (ipp_id v = 0; (size_t)v < ipp_graph_nvertices(g); v++)
		if (ipp_vertex_kind(g, v) == IPP_V_CALL &&
		    ipp_fin_call_summary(m->fin, v) != IPP_SUM_NONE) {
			GROW(mc->summaries, mc->nsummaries, cap);
			mc->summaries[mc->nsummaries++] = v;
		}
}

void cuts_report_build(struct cuts_report *c, const struct program *prog)
{
	c->prog = prog;
	c->mods = xcalloc(prog->nmods ? prog->nmods : 1, sizeof(c->mods[0]));
	for (size_t i = 0; i < prog->nmods; i++)
		build_module(&c->mods[i], &prog->mods[i]);
}

void cuts_report_free(struct cuts_report *c)
{
	for (size_t i = 0; i < c->prog->nmods; i++) {
		free(c->mods[i].vertices);
		free(c->mods[i].calls);
		free(c->mods[i].summaries);
	}
	free(c->mods);
	memset(c, 0, sizeof(*c));
}
