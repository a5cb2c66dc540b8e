/* map_rebuild.c -- step 2 of reading a map: from the records of the
 * document (struct mapdoc, filled by map_read.c) to the unit's graph G*,
 * cuts and stored facts in the ipp_map.
 *
 * The graph is rebuilt by replaying the records in id order through the
 * construction API of ipp_core.h, which trusts its arguments: so every id,
 * kind and edge rule is checked here *before* it is handed to the core,
 * and a bad map is an error naming the record ("name:line:col: vertex 7:
 * ..."), never a crash or an assertion.  The replay must give every vertex
 * and edge the id the writer gave it; ipp_add_proc() and ipp_add_call()
 * create some vertices themselves (exit, GExit, GEntry; the return site),
 * and the records must list them right after the one that created them.
 *
 * Last, the checksum is recomputed from the rebuilt graph (checksum.c) and
 * must equal the stored one.  The derived facts are only checked to be
 * well formed here; map_check.c checks that they are true.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "internal.h"
#include "map_internal.h"

#include <inttypes.h>

/* What the replay expects next: the vertices ipp_add_proc / ipp_add_call
 * created together with the one that called it. */
struct replay {
	enum ipp_vkind want[3];
	size_t nwant;
	ipp_id proc;
};

static int vertex_loc(ipp_yreader *r, struct mapdoc *d, ipp_graph *g, ipp_id id)
{
	const struct rawvert *v = &d->verts[id];
	if (v->file >= (int64_t)d->nfiles)
		return ipp_yr_fail(r, v->pline, v->pcol, "vertex %" PRId32 ": file index %" PRId64
				   " out of range (the file table has %zu entries)", id, v->file,
				   d->nfiles);
	if (v->file >= 0 || v->line || v->col)
		ipp_set_loc(g, id, v->file >= 0 ? d->files[v->file] : NULL, (int)v->line,
			    (int)v->col);
	if (v->tag != -1)
		ipp_set_tag(g, id, (int)v->tag);
	return 0;
}

/* Adds vertex 'id' (not one created implicitly) through the core's API. */
static int replay_vertex(ipp_yreader *r, struct mapdoc *d, ipp_graph *g,
			 const ipp_strtab *asms, struct replay *rp, ipp_id id)
{
	const struct rawvert *v = &d->verts[id];
	size_t nadded = ipp_graph_nprocs(g);
	const char *kname = ipp_vkind_name(v->kind);
	ipp_id got = IPP_NONE, callee = IPP_NONE;

	if (id < 2) {
		enum ipp_vkind k = id == 0 ? IPP_V_GLOBAL_ENTRY : IPP_V_GLOBAL_EXIT;
		if (v->kind != k || v->proc != -1)
			return ipp_yr_fail(r, v->pline, v->pcol, "vertex %" PRId32 " must be %s "
					   "with a null procedure", id, ipp_vkind_name(k));
		return 0;	/* ipp_graph_new() made it */
	}
	if (v->proc < 0)
		return ipp_yr_fail(r, v->pline, v->pcol, "vertex %" PRId32 ": a %s vertex needs a "
				   "procedure", id, kname);
	switch (v->kind) {
	case IPP_V_ENTRY:
		if ((size_t)v->proc != nadded || (size_t)v->proc >= d->nprocs)
			return ipp_yr_fail(r, v->pline, v->pcol, "vertex %" PRId32 ": entry of "
					   "procedure %" PRId64 ", but the next procedure is %zu "
					   "(of %zu)", id, v->proc, nadded, d->nprocs);
		got = ipp_proc_entry(g, ipp_add_proc(g, d->procs[v->proc].name,
						     d->procs[v->proc].asm_name,
						     d->procs[v->proc].flags));
		rp->want[0] = IPP_V_EXIT;
		rp->want[1] = IPP_V_GEXIT;
		rp->want[2] = IPP_V_GENTRY;
		rp->nwant = 3;
		break;
	case IPP_V_BLOCK:
	case IPP_V_CALL:
		if ((size_t)v->proc >= nadded)
			return ipp_yr_fail(r, v->pline, v->pcol, "vertex %" PRId32 ": procedure %"
					   PRId64 " is not defined yet (its entry vertex must come "
					   "first)", id, v->proc);
		if (v->kind == IPP_V_BLOCK) {
			got = ipp_add_block(g, (ipp_id)v->proc);
			break;
		}
		if (v->callee) {
			int64_t q = ipp_strtab_find(asms, v->callee);
			if (q < 0)
				return ipp_yr_fail(r, v->pline, v->pcol, "vertex %" PRId32
						   ": callee '%.40s' is not a procedure of the "
						   "map", id, v->callee);
			if (v->cflags & IPP_CALL_INDIRECT)
				return ipp_yr_fail(r, v->pline, v->pcol, "vertex %" PRId32 ": an "
						   "indirect call has no callee", id);
			callee = (ipp_id)q;
		}
		got = ipp_add_call(g, (ipp_id)v->proc, callee, v->cflags);
		rp->want[0] = IPP_V_RETSITE;
		rp->nwant = 1;
		break;
	case IPP_V_SPLIT:
		return ipp_yr_fail(r, v->pline, v->pcol, "vertex %" PRId32 ": split vertices "
				   "exist only in G*fin", id);
	default:
		return ipp_yr_fail(r, v->pline, v->pcol, "vertex %" PRId32 ": a %s vertex must "
				   "directly follow the %s that creates it", id, kname,
				   v->kind == IPP_V_RETSITE ? "call vertex" : "entry vertex");
	}
	rp->proc = (ipp_id)v->proc;
	if (got != id)	/* cannot happen: the core numbers vertices densely */
		return ipp_yr_fail(r, v->pline, v->pcol, "vertex %" PRId32 ": the graph gave it "
				   "id %" PRId32, id, got);
	return 0;
}

static int rebuild_vertices(ipp_yreader *r, struct mapdoc *d, ipp_graph *g,
			    const ipp_strtab *asms)
{
	struct replay rp = { .nwant = 0 };
	size_t i = 0;
	if (d->nverts < 2)
		return ipp_yr_fail(r, d->kline[K_VERTICES], d->kcol[K_VERTICES], "the vertex list "
				   "must start with global-entry and global-exit");
	for (i = 0; i < d->nverts; i++) {
		const struct rawvert *v = &d->verts[i];
		if (rp.nwant) {
			/* created by the entry or call vertex before it */
			if (v->kind != rp.want[0] || v->proc != rp.proc)
				return ipp_yr_fail(r, v->pline, v->pcol, "vertex %zu: expected the "
						   "%s vertex of procedure %" PRId32 ", got a %s "
						   "vertex", i, ipp_vkind_name(rp.want[0]), rp.proc,
						   ipp_vkind_name(v->kind));
			memmove(rp.want, rp.want + 1, --rp.nwant * sizeof(rp.want[0]));
		} else if (replay_vertex(r, d, g, asms, &rp, (ipp_id)i) < 0) {
			return -1;
		}
		if (vertex_loc(r, d, g, (ipp_id)i) < 0)
			return -1;
	}
	if (rp.nwant)
		return ipp_yr_fail(r, d->verts[i - 1].pline, d->verts[i - 1].pcol, "the vertex "
				   "list ends before the %s vertex of procedure %" PRId32,
				   ipp_vkind_name(rp.want[0]), rp.proc);
	if (ipp_graph_nprocs(g) < d->nprocs)
		return ipp_yr_fail(r, d->procs[ipp_graph_nprocs(g)].pline,
				   d->procs[ipp_graph_nprocs(g)].pcol, "procedure %zu has no entry "
				   "vertex", ipp_graph_nprocs(g));
	return 0;
}

/* The edge rules of ipp_graph_check(), checked here for a precise message
 * (and because ipp_add_edge() trusts its arguments). */
static int rebuild_edges(ipp_yreader *r, struct mapdoc *d, ipp_graph *g)
{
	size_t nv = ipp_graph_nvertices(g);
	for (size_t i = 0; i < d->nedges; i++) {
		const struct rawedge *e = &d->edges[i];
		enum ipp_vkind sk, dk;
		if ((size_t)e->src >= nv || (size_t)e->dst >= nv)
			return ipp_yr_fail(r, e->pline, e->pcol, "edge %zu: vertex %" PRId64
					   " does not exist (the graph has %zu vertices)", i,
					   (size_t)e->src >= nv ? e->src : e->dst, nv);
		sk = ipp_vertex_kind(g, (ipp_id)e->src);
		dk = ipp_vertex_kind(g, (ipp_id)e->dst);
		if (ipp_vertex_proc(g, (ipp_id)e->src) == IPP_NONE ||
		    ipp_vertex_proc(g, (ipp_id)e->src) != ipp_vertex_proc(g, (ipp_id)e->dst))
			return ipp_yr_fail(r, e->pline, e->pcol, "edge %zu (%" PRId64 " -> %" PRId64
					   ") is not inside one procedure", i, e->src, e->dst);
		if (sk != IPP_V_BLOCK && sk != IPP_V_RETSITE && sk != IPP_V_ENTRY)
			return ipp_yr_fail(r, e->pline, e->pcol, "edge %zu leaves a %s vertex (%"
					   PRId64 ")", i, ipp_vkind_name(sk), e->src);
		if (dk != IPP_V_BLOCK && dk != IPP_V_CALL && dk != IPP_V_EXIT && dk != IPP_V_GEXIT)
			return ipp_yr_fail(r, e->pline, e->pcol, "edge %zu enters a %s vertex (%"
					   PRId64 ")", i, ipp_vkind_name(dk), e->dst);
		if (ipp_add_edge(g, (ipp_id)e->src, (ipp_id)e->dst) != (ipp_id)i)
			return ipp_yr_fail(r, e->pline, e->pcol, "edge %zu: the graph gave it "
					   "another id", i);
	}
	return 0;
}

/* A procedure's file and line are those of its entry vertex. */
static int check_proc_locs(ipp_yreader *r, struct mapdoc *d, const ipp_graph *g)
{
	for (size_t p = 0; p < d->nprocs; p++) {
		const struct rawproc *rp = &d->procs[p];
		const struct rawvert *ev = &d->verts[ipp_proc_entry(g, (ipp_id)p)];
		if (rp->file != ev->file || rp->line != ev->line)
			return ipp_yr_fail(r, rp->pline, rp->pcol, "procedure %zu: file %"
					   PRId64 " line %" PRId64 " differ from its entry "
					   "vertex's (file %" PRId64 " line %" PRId64 ")", p,
					   rp->file, rp->line, ev->file, ev->line);
	}
	return 0;
}

static int check_ids(ipp_yreader *r, struct mapdoc *d, enum map_key k, const struct idlist *l,
		     size_t bound, const char *of)
{
	for (size_t i = 0; i < l->n; i++)
		if ((size_t)l->ids[i] >= bound)
			return ipp_yr_fail(r, d->kline[k], d->kcol[k], "%s: %" PRId32 " is not "
					   "a %s (there are %zu)", ipp_map_key_names[k], l->ids[i],
					   of, bound);
	return 0;
}

/* Restart vertices (ipp_set_restart) are block or return-site vertices. */
static int rebuild_restarts(ipp_yreader *r, struct mapdoc *d, ipp_graph *g)
{
	if (check_ids(r, d, K_RESTART_VERTICES, &d->restart, ipp_graph_nvertices(g),
		      "vertex") < 0)
		return -1;
	for (size_t i = 0; i < d->restart.n; i++) {
		ipp_id v = d->restart.ids[i];
		enum ipp_vkind k = ipp_vertex_kind(g, v);
		if (k != IPP_V_BLOCK && k != IPP_V_RETSITE)
			return ipp_yr_fail(r, d->kline[K_RESTART_VERTICES],
					   d->kcol[K_RESTART_VERTICES], "restart-vertices: vertex %"
					   PRId32 " is a %s vertex (only block and return-site "
					   "vertices restart paths)", v, ipp_vkind_name(k));
		ipp_set_restart(g, v);
	}
	return 0;
}

/* The callees' names go to direct call vertices without a callee procedure
 * (the others are named by the procedure table). */
static int rebuild_callees(ipp_yreader *r, struct mapdoc *d, ipp_graph *g)
{
	for (size_t i = 0; i < d->ncallees; i++) {
		const struct rawcallee *c = &d->callees[i];
		ipp_id v = (ipp_id)c->call;
		const char *why = NULL;
		if ((size_t)c->call >= ipp_graph_nvertices(g))
			why = "does not exist";
		else if (ipp_vertex_kind(g, v) != IPP_V_CALL)
			why = "is not a call vertex";
		else if (ipp_call_flags(g, v) & IPP_CALL_INDIRECT)
			why = "is an indirect call";
		else if (ipp_call_callee(g, v) != IPP_NONE)
			why = "calls a procedure of the map (named by the procedure table)";
		if (why)
			return ipp_yr_fail(r, c->pline, c->pcol, "callees: vertex %" PRId64 " %s",
					   c->call, why);
		ipp_set_call_target(g, v, c->asm_name, c->name);
	}
	return 0;
}

static void take_idlist(struct idlist *l, ipp_id **ids, size_t *n)
{
	*ids = l->ids;
	*n = l->n;
	l->ids = NULL;
	l->n = l->cap = 0;
}

static int rebuild_cuts(ipp_yreader *r, struct mapdoc *d, const ipp_graph *g, ipp_cuts *c)
{
	size_t nv = ipp_graph_nvertices(g);
	if (check_ids(r, d, K_CUT_VERTICES, &d->cutv, nv, "vertex") < 0 ||
	    check_ids(r, d, K_CUT_CALLS, &d->cutc, nv, "vertex") < 0)
		return -1;
	for (size_t i = 0; i < d->cutv.n; i++) {
		enum ipp_vkind k = ipp_vertex_kind(g, d->cutv.ids[i]);
		if (k != IPP_V_BLOCK && k != IPP_V_CALL)
			return ipp_yr_fail(r, d->kline[K_CUT_VERTICES], d->kcol[K_CUT_VERTICES],
					   "cut-vertices: vertex %" PRId32 " is a %s vertex (only "
					   "block and call vertices are cut)", d->cutv.ids[i],
					   ipp_vkind_name(k));
	}
	for (size_t i = 0; i < d->cutc.n; i++)
		if (ipp_vertex_kind(g, d->cutc.ids[i]) != IPP_V_CALL)
			return ipp_yr_fail(r, d->kline[K_CUT_CALLS], d->kcol[K_CUT_CALLS],
					   "cut-calls: vertex %" PRId32 " is not a call vertex",
					   d->cutc.ids[i]);
	/* read_id_list() made both lists increasing: ipp_cuts' invariant holds */
	ipp_cuts_free(c);
	take_idlist(&d->cutv, &c->vertices, &c->nvertices);
	take_idlist(&d->cutc, &c->calls, &c->ncalls);
	return 0;
}

/* Well-formedness of the derived facts; their truth is ipp_map_fin()'s job. */
static int check_derived(ipp_yreader *r, struct mapdoc *d, const ipp_graph *g)
{
	ipp_map *m = d->m;
	ipp_strtab names = { 0 };
	mpz_t sum;
	int rc = 0;
	if (check_ids(r, d, K_BACK_EDGES, &d->back, ipp_graph_nedges(g), "edge") < 0 ||
	    check_ids(r, d, K_FALLBACK, &d->fallback, ipp_graph_nprocs(g), "procedure") < 0)
		return -1;
	for (size_t i = 0; i < m->nsummaries; i++) {
		ipp_id c = m->summaries[i].call;
		if ((size_t)c >= ipp_graph_nvertices(g) || ipp_vertex_kind(g, c) != IPP_V_CALL)
			return ipp_yr_fail(r, d->kline[K_SUMMARIES], d->kcol[K_SUMMARIES],
					   "summaries: %" PRId32 " is not a call vertex", c);
	}
	mpz_init(sum);
	for (size_t i = 0; i < m->nregions && rc == 0; i++) {
		const ipp_map_region *g2 = &m->regions[i];
		bool added;
		if ((size_t)g2->proc >= ipp_graph_nprocs(g))
			rc = ipp_yr_fail(r, d->kline[K_REGIONS], d->kcol[K_REGIONS], "region %s: "
					 "procedure %" PRId32 " does not exist", g2->name,
					 g2->proc);
		else if (ipp_strtab_intern(&names, g2->name, &added), !added)
			rc = ipp_yr_fail(r, d->kline[K_REGIONS], d->kcol[K_REGIONS], "region %s "
					 "is listed twice", g2->name);
		else if (mpz_cmp(g2->offset, sum) != 0)
			rc = ipp_yr_fail(r, d->kline[K_REGIONS], d->kcol[K_REGIONS], "region %s: "
					 "its offset is not the sum of the earlier totals",
					 g2->name);
		mpz_add(sum, sum, g2->total);
	}
	if (rc == 0 && mpz_cmp(sum, m->total) != 0)
		rc = ipp_yr_fail(r, d->kline[K_TOTAL], d->kcol[K_TOTAL], "total is not the sum of "
				 "the region totals");
	mpz_clear(sum);
	ipp_strtab_free(&names);
	return rc;
}

int ipp_map_rebuild(ipp_yreader *r, struct mapdoc *d)
{
	ipp_map *m = d->m;
	ipp_strtab asms = { 0 };
	char msg[256], hs[17], hc[17];
	uint64_t sum;
	int rc = -1;

	for (size_t p = 0; p < d->nprocs; p++) {
		bool added;
		ipp_strtab_intern(&asms, d->procs[p].asm_name, &added);
		if (!added) {
			ipp_yr_fail(r, d->procs[p].pline, d->procs[p].pcol, "two procedures have "
				    "the assembler name %.40s", d->procs[p].asm_name);
			goto out;
		}
		if (d->procs[p].file >= (int64_t)d->nfiles) {
			ipp_yr_fail(r, d->procs[p].pline, d->procs[p].pcol, "procedure %zu: file "
				    "index out of range", p);
			goto out;
		}
	}
	m->graph = ipp_graph_new();
	if (rebuild_vertices(r, d, m->graph, &asms) < 0 || rebuild_edges(r, d, m->graph) < 0)
		goto out;
	if (rebuild_restarts(r, d, m->graph) < 0 || rebuild_callees(r, d, m->graph) < 0)
		goto out;
	if (ipp_graph_check(m->graph, msg, sizeof(msg)) < 0) {
		ipp_yr_fail(r, m->line, 0, "invalid graph: %s", msg);
		goto out;
	}
	if (check_proc_locs(r, d, m->graph) < 0 || rebuild_cuts(r, d, m->graph, &m->cuts) < 0 ||
	    check_derived(r, d, m->graph) < 0)
		goto out;
	sum = ipp_map_checksum(m->graph, m->mode, &m->cuts, m->module);
	if (sum != m->checksum) {
		ipp_yr_fail(r, d->kline[K_CHECKSUM], d->kcol[K_CHECKSUM], "map corrupt: checksum "
			    "mismatch (the map says %s, its contents give %s)",
			    ipp_hex64(m->checksum, hs), ipp_hex64(sum, hc));
		goto out;
	}
	m->skip_reason = ipp_xcalloc(d->nprocs, sizeof(char *));
	for (size_t p = 0; p < d->nprocs; p++) {
		m->skip_reason[p] = d->procs[p].reason;
		d->procs[p].reason = NULL;
	}
	take_idlist(&d->back, &m->back_edges, &m->nback_edges);
	take_idlist(&d->fallback, &m->fallback, &m->nfallback);
	rc = 0;
out:
	ipp_strtab_free(&asms);
	return rc;
}
