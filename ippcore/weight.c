/* weight.c -- Ball & Larus's static edge-weight heuristic (TOPLAS 1994,
 * Section 5), used only to choose cuts: loops iterate LOOP_MULTIPLIER
 * times, branches are equally likely, and loop-exit edges share the
 * weight of their loop entry.  weight(Entry_P) = 1.
 *
 * The rules are applied in one topological traversal of the back-edge-free
 * CFG (including the implicit call -> return-site flow).  Each edge takes
 * the weight of the first rule that assigns it:
 *   (1) weight(v) = sum of v's incoming non-back edges;
 *   (2) at a loop entry v of weight W with N loop exits, each exit gets W/N;
 *   (3) W' = weight(v) * LOOP_MULTIPLIER at a loop entry, else weight(v);
 *       v's out-edges that are not loop exits share W' minus the exits'
 *       weight equally.
 * Deterministic for a given graph.  The result is a hint, never a count.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include "internal.h"

#define LOOP_MULTIPLIER 10.0

/* One procedure.  Local arrays are indexed by the position of a vertex in
 * the procedure's vertex list; implicit call edges are given pseudo edge
 * ids ne + call-vertex so every edge has a slot in ew[] (size ne + nv). */
static void proc_weights(ipp_graph *g, struct ipp_proc *pr, const int *lidx,
			 double *ew, unsigned char *assigned)
{
	size_t n = pr->nverts;
	int *indeg = ipp_xcalloc(n, sizeof(int));
	int *queue = ipp_xmalloc(n * sizeof(int));
	unsigned char *inloop = ipp_xmalloc(n);
	int *stack = ipp_xmalloc(n * sizeof(int));
	size_t qh = 0, qt = 0;

#define NOUT(vx) ((vx)->kind == IPP_V_CALL ? 1 : (vx)->nout)
#define EID(vid, vx, k) ((vx)->kind == IPP_V_CALL ? (ipp_id)g->ne + (vid) : (vx)->out[k])
#define EDST(vid, vx, k) ((vx)->kind == IPP_V_CALL ? (vid) + 1 : g->e[(vx)->out[k]].dst)
#define ISBACK(vx, e) ((vx)->kind != IPP_V_CALL && g->back[e])

	/* Once per procedure: in-degrees over non-back edges, loop entries
	 * (targets of back edges), and predecessor lists (every edge, back
	 * edges and implicit call edges included) as CSR arrays:
	 * the predecessors of x are pred[pstart[x] .. pstart[x+1]-1], with
	 * pback[] telling whether that edge is a back edge. */
	unsigned char *loop_entry = ipp_xcalloc(n, 1);
	size_t *pstart = ipp_xcalloc(n + 1, sizeof(size_t)), *pfill;
	int *pred;
	unsigned char *pback;
	for (size_t i = 0; i < n; i++) {
		ipp_id vid = pr->verts[i];
		struct ipp_vertex *vx = &g->v[vid];
		for (size_t k = 0; k < NOUT(vx); k++) {
			ipp_id e = EID(vid, vx, k);
			int d = lidx[EDST(vid, vx, k)];
			pstart[d + 1]++;
			if (ISBACK(vx, e))
				loop_entry[d] = 1;
			else
				indeg[d]++;
		}
	}
	for (size_t i = 0; i < n; i++)
		pstart[i + 1] += pstart[i];
	pred = ipp_xmalloc((pstart[n] + 1) * sizeof(int));
	pback = ipp_xmalloc(pstart[n] + 1);
	pfill = ipp_xmalloc((n + 1) * sizeof(size_t));
	memcpy(pfill, pstart, n * sizeof(size_t));
	for (size_t i = 0; i < n; i++) {
		ipp_id vid = pr->verts[i];
		struct ipp_vertex *vx = &g->v[vid];
		for (size_t k = 0; k < NOUT(vx); k++) {
			int d = lidx[EDST(vid, vx, k)];
			pback[pfill[d]] = ISBACK(vx, EID(vid, vx, k));
			pred[pfill[d]++] = (int)i;
		}
	}
	free(pfill);
	queue[qt++] = lidx[pr->entry];
	while (qh < qt) {
		int li = queue[qh++];
		ipp_id vid = pr->verts[li];
		struct ipp_vertex *vx = &g->v[vid];
		double w = 0.0, wl, we = 0.0;
		size_t nonexit = 0;
		bool is_loop_entry = false;

		/* rule (1): sum of incoming non-back edges */
		if (vid == pr->entry)
			w = 1.0;
		else
			w = g->weight[vid];	/* accumulated as predecessors were visited */
		g->weight[vid] = w;

		is_loop_entry = loop_entry[li];
		if (is_loop_entry) {
			/* nat-loop(v): v plus every vertex reaching a back-edge source
			 * without passing through v (reverse search). */
			size_t sp = 0, nexits = 0;
			memset(inloop, 0, n);
			inloop[li] = 1;
			for (size_t k = pstart[li]; k < pstart[li + 1]; k++)
				if (pback[k] && !inloop[pred[k]]) {
					inloop[pred[k]] = 1;
					stack[sp++] = pred[k];
				}
			while (sp) {
				int x = stack[--sp];
				for (size_t k = pstart[x]; k < pstart[x + 1]; k++)
					if (!inloop[pred[k]]) {
						inloop[pred[k]] = 1;
						stack[sp++] = pred[k];
					}
			}
			/* rule (2): loop exits share W */
			for (int pass = 0; pass < 2; pass++)
				for (size_t i = 0; i < n; i++) {
					ipp_id uid = pr->verts[i];
					struct ipp_vertex *ux = &g->v[uid];
					if (!inloop[i])
						continue;
					for (size_t k = 0; k < NOUT(ux); k++) {
						ipp_id e = EID(uid, ux, k);
						if (inloop[lidx[EDST(uid, ux, k)]])
							continue;
						if (pass == 0) {
							if (!assigned[e])
								nexits++;
						} else if (!assigned[e]) {
							ew[e] = w / (double)nexits;
							assigned[e] = 2;	/* 2: loop exit */
						}
					}
				}
		}
		/* rule (3) */
		wl = is_loop_entry ? w * LOOP_MULTIPLIER : w;
		for (size_t k = 0; k < NOUT(vx); k++) {
			ipp_id e = EID(vid, vx, k);
			if (assigned[e] == 2)
				we += ew[e];
			else if (!assigned[e])
				nonexit++;
		}
		for (size_t k = 0; k < NOUT(vx); k++) {
			ipp_id e = EID(vid, vx, k);
			if (!assigned[e]) {
				double share = (wl - we) / (double)nonexit;
				ew[e] = share > 0.0 ? share : 0.0;
				assigned[e] = 1;
			}
		}
		/* push the weights forward and release successors */
		for (size_t k = 0; k < NOUT(vx); k++) {
			ipp_id e = EID(vid, vx, k);
			ipp_id d = EDST(vid, vx, k);
			if (ISBACK(vx, e))
				continue;
			g->weight[d] += ew[e];
			if (--indeg[lidx[d]] == 0)
				queue[qt++] = lidx[d];
		}
	}
#undef NOUT
#undef EID
#undef EDST
#undef ISBACK
	free(indeg);
	free(queue);
	free(inloop);
	free(stack);
	free(loop_entry);
	free(pstart);
	free(pred);
	free(pback);
}

void ipp_graph_derive_weights(const ipp_graph *cg)
{
	ipp_graph *g = (ipp_graph *)cg;	/* cache fill: see internal.h */
	double *ew;
	unsigned char *assigned;
	int *lidx;
	if (g->weights_ok)
		return;
	ipp_graph_derive(g);
	free(g->weight);
	g->weight = ipp_xcalloc(g->nv, sizeof(double));
	ew = ipp_xcalloc(g->ne + g->nv, sizeof(double));
	assigned = ipp_xcalloc(g->ne + g->nv, 1);
	lidx = ipp_xmalloc(g->nv * sizeof(int));
	for (size_t p = 0; p < g->np; p++)
		for (size_t i = 0; i < g->p[p].nverts; i++)
			lidx[g->p[p].verts[i]] = (int)i;
	for (size_t p = 0; p < g->np; p++)
		if (!(g->p[p].flags & IPP_PROC_SKIPPED))
			proc_weights(g, &g->p[p], lidx, ew, assigned);
	free(ew);
	free(assigned);
	free(lidx);
	g->weights_ok = true;
}

double ipp_graph_vertex_weight(const ipp_graph *g, ipp_id v)
{
	ipp_graph_derive_weights(g);
	return g->weight[v];
}
