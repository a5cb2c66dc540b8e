/* map_check.c -- renumbering from a map (ipp_map_fin, ipp_format.h): builds
 * G*fin from the rebuilt graph, mode and cuts, and checks it against the
 * facts the writer recorded -- the region table and total, the summarized
 * call sites, the DFS back edges, the procedures that fell back to
 * intraprocedural numbering, and the psi/rho digest.  A difference means
 * this decoder would not number paths as the plugin did, and is an error
 * naming the first fact that differs.
 *
 * Relies on the reader (map_read.c) having checked that the stored facts
 * are well formed: ids in range, lists increasing, region offsets summing
 * to the total.  Their truth is checked here.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "internal.h"
#include "map_internal.h"

#include <inttypes.h>

/* Fails with "source:line: map of MODULE: <message>" in err (m, err and
 * errlen are in scope) and jumps to the caller's 'fail' label. */
#define FIN_FAIL(...)								\
	do {									\
		char fin_msg_[300];						\
		snprintf(fin_msg_, sizeof(fin_msg_), __VA_ARGS__);		\
		ipp_seterr(err, errlen, "%s:%d: map of %s: %s", m->source, m->line,	\
			   m->module, fin_msg_);				\
		goto fail;							\
	} while (0)

static int check_regions(const ipp_map *m, const ipp_fin *f, char *err, size_t errlen)
{
	size_t nr = ipp_fin_nregions(f);
	mpz_t x;
	int rc = -1;
	mpz_init(x);
	if (nr != m->nregions)
		FIN_FAIL("the renumbering has %zu regions, the map %zu", nr, m->nregions);
	for (size_t i = 0; i < nr; i++) {
		const ipp_map_region *g = &m->regions[i];
		ipp_region_info info;
		ipp_fin_region(f, (ipp_id)i, &info);
		if (strcmp(info.name, g->name) != 0 || info.proc != g->proc ||
		    info.gentry != g->gentry)
			FIN_FAIL("region %zu is %s in the renumbering, %s in the map", i, info.name,
				 g->name);
		ipp_fin_region_total(f, (ipp_id)i, x);
		if (mpz_cmp(x, g->total) != 0)
			FIN_FAIL("region %s has another total in the renumbering", g->name);
		ipp_fin_region_offset(f, (ipp_id)i, x);
		if (mpz_cmp(x, g->offset) != 0)
			FIN_FAIL("region %s has another offset in the renumbering", g->name);
	}
	ipp_fin_total(f, x);
	if (mpz_cmp(x, m->total) != 0)
		FIN_FAIL("the renumbering has another total");
	rc = 0;
fail:
	mpz_clear(x);
	return rc;
}

static int check_facts(const ipp_map *m, const ipp_fin *f, char *err, size_t errlen)
{
	const ipp_graph *g = m->graph;
	size_t k = 0;
	for (ipp_id v = 0; (size_t)v < ipp_graph_nvertices(g); v++) {
		enum ipp_summary_why why;
		if (ipp_vertex_kind(g, v) != IPP_V_CALL)
			continue;
		why = ipp_fin_call_summary(f, v);
		if (k < m->nsummaries && m->summaries[k].call == v) {
			if (why != m->summaries[k].why)
				FIN_FAIL("call site %" PRId32 " is summarized as %s in the "
					 "renumbering, as %s in the map", v,
					 ipp_summary_why_name(why),
					 ipp_summary_why_name(m->summaries[k].why));
			k++;
		} else if (why != IPP_SUM_NONE) {
			FIN_FAIL("call site %" PRId32 " is summarized (%s) in the renumbering "
				 "but not in the map", v, ipp_summary_why_name(why));
		}
	}
	if (k != m->nsummaries)
		FIN_FAIL("call site %" PRId32 " is summarized in the map only",
			 m->summaries[k].call);
	k = 0;
	for (ipp_id e = 0; (size_t)e < ipp_graph_nedges(g); e++) {
		bool in_map = k < m->nback_edges && m->back_edges[k] == e;
		if (ipp_graph_is_back_edge(g, e) != in_map)
			FIN_FAIL("edge %" PRId32 " is %sa DFS back edge but the map says "
				 "otherwise", e, in_map ? "not " : "");
		k += in_map;
	}
	k = 0;
	for (ipp_id p = 0; (size_t)p < ipp_graph_nprocs(g); p++) {
		bool in_map = k < m->nfallback && m->fallback[k] == p;
		if (ipp_fin_proc_fallback(f, p) != in_map)
			FIN_FAIL("procedure %s %s back to intraprocedural numbering but the map "
				 "says otherwise", ipp_proc_asm(g, p), in_map ? "does not fall" :
				 "falls");
		k += in_map;
	}
	return 0;
fail:
	return -1;
}

ipp_fin *ipp_map_fin(const ipp_map *m, char *err, size_t errlen)
{
	char msg[256], h1[17], h2[17];
	ipp_fin *f = ipp_fin_new(m->graph, m->mode, &m->cuts, msg, sizeof(msg));
	uint64_t digest;
	if (!f) {
		ipp_seterr(err, errlen, "%s:%d: map of %s: cannot number the graph: %s",
			   m->source, m->line, m->module, msg);
		return NULL;
	}
	if (check_regions(m, f, err, errlen) < 0 || check_facts(m, f, err, errlen) < 0)
		goto fail;
	digest = ipp_fin_digest(f);
	if (digest != m->digest)
		FIN_FAIL("the renumbering has psi/rho digest %s but the map says %s: this "
			 "decoder does not number paths as the plugin did",
			 ipp_hex64(digest, h1), ipp_hex64(m->digest, h2));
	if (m->noffsets &&
	    ipp_fin_set_offsets(f, m->offset_v, m->offset, m->noffsets, msg, sizeof(msg)) < 0)
		FIN_FAIL("%s", msg);
	return f;
fail:
	ipp_fin_free(f);
	return NULL;
}
