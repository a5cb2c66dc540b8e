/* chords.c -- where a procedure's path register is incremented: on the
 * chords of a maximum-weight spanning tree (Ball & Larus, TOPLAS'94,
 * section 3.3, "event counting"), not on every edge whose rho is not 0.
 *
 * Ball-Larus numbering gives each edge e its value rho_e; a path's number
 * is the sum of the values of its edges.  Incrementing the register r by
 * rho_e on every edge is one placement of those sums; any function off on
 * the vertices gives another: increment by
 *
 *     inc_e = rho_e + off(dst e) - off(src e)       (mod 2^64)
 *
 * and r at a vertex v is the partial sum of the path so far plus off(v).
 * With off = 0 at Entry_P, Exit_P and GExit_P (the *pinned* vertices,
 * where a path starts and where it is recorded), every complete path
 * still sums to its own number.  Choosing off so that inc_e = 0 on the
 * edges of a spanning tree leaves increments on the chords only; a tree
 * of maximum weight, weighted by how often each edge runs (GCC's
 * estimate), leaves them on the coldest edges.
 *
 * The edges of procedure P that take part (edges of other kinds lie
 * between procedures and are never incremented):
 *  - an edge that can carry no code of its own (a SUMMARY edge, and a
 *    NORMAL edge the caller weighs IPP_CHORD_FIXED: the edges between the
 *    vertices of one basic block) must have inc_e = 0: it goes into the
 *    tree first;
 *  - a NORMAL edge with a weight goes into the tree by decreasing weight;
 *  - an edge whose increment costs nothing anywhere -- SURR_EXIT and a
 *    NORMAL edge into GExit_P (added into the number recorded there),
 *    SURR_ENTRY (the number a restart starts with) -- comes last: it is
 *    best a chord.
 * Ties go to the lower edge id, so the placement is a function of the
 * graph and the weights alone (-fcompare-debug builds the same code).
 *
 * off is stored with the G*fin (ipp_fin_offset); the plugin instruments
 * with ipp_fin_inc, the map carries off to the decoder (events.c counts
 * the increments), and the module carries it to the runtime, which
 * subtracts off(v) from the number a frame stands with at v before it
 * records a partial path (docs/PROTOCOL.md, "Increments on chords").
 *
 * A body numbers with nvc = 1 where it starts its paths: intra mode's
 * bodies, context mode's fresh bodies and summarized inlined copies.
 * Those are the bodies that add inc_e; a continuing clone's rho is a
 * linear function of nvc and stays on its edges (off does not apply to
 * it: the runtime subtracts it from fresh frames only).  The value at an
 * interprocedural call site (context mode) is the callee's number on
 * entry, and the callee hands its own back at the return site: both are
 * pinned, off 0, with the entries and exits.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "fin_internal.h"
#include "ipp_alloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The class of an edge in the order the tree takes them. */
enum chord_class { CH_FIXED, CH_WEIGHED, CH_FREE, CH_NONE };

struct cand {
	ipp_id e;
	unsigned char cls;
	uint64_t w;
};

static int cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	if (x->w != y->w)
		return x->w > y->w ? -1 : 1;	/* heavier first */
	return x->e < y->e ? -1 : x->e > y->e;
}

static ipp_id find(ipp_id *up, ipp_id x)
{
	while (up[x] != x) {
		up[x] = up[up[x]];
		x = up[x];
	}
	return x;
}

static void unite(ipp_id *up, ipp_id x, ipp_id y)
{
	x = find(up, x);
	y = find(up, y);
	if (x != y)
		up[x] = y;
}

/* rho_e(1) modulo 2^64: intra mode's nvc is 1. */
static uint64_t rho1(const ipp_fin *f, ipp_id e)
{
	const struct fedge *fe = &f->e[e];
	return mpz_get_ui(fe->a) + mpz_get_ui(fe->b);
}

static enum chord_class classify(const ipp_fin *f, ipp_id e, const uint64_t *weight)
{
	const struct fedge *fe = &f->e[e];
	switch (fe->kind) {
	case IPP_E_SUMMARY:
		return CH_FIXED;
	case IPP_E_SURR_ENTRY:
	case IPP_E_SURR_EXIT:
		return CH_FREE;
	case IPP_E_NORMAL:
		if (f->v[fe->dst].kind == IPP_V_GEXIT)
			return CH_FREE;
		return weight[e] == IPP_CHORD_FIXED ? CH_FIXED : CH_WEIGHED;
	default:
		return CH_NONE;
	}
}

/* An interprocedural call site (context mode): the callee continues the
 * path from the register's value at c and hands back its own number at
 * c + 1, so neither may carry an offset. */
static bool interproc_site(const ipp_fin *f, ipp_id v)
{
	if ((size_t)v >= ipp_graph_nvertices(f->g))
		return false;	/* a split half (intra-context) */
	if (f->v[v].kind == IPP_V_CALL)
		return f->status[v] == IPP_SUM_NONE;
	return f->v[v].kind == IPP_V_RETSITE && v > 0 && f->v[v - 1].kind == IPP_V_CALL &&
	       f->status[v - 1] == IPP_SUM_NONE;
}

static bool pinned(const ipp_fin *f, ipp_id v)
{
	enum ipp_vkind k = f->v[v].kind;
	return k == IPP_V_ENTRY || k == IPP_V_EXIT || k == IPP_V_GEXIT || k == IPP_V_GENTRY ||
	       interproc_site(f, v);
}

size_t ipp_fin_place_chords(ipp_fin *f, const uint64_t *weight, const bool *enabled)
{
	size_t nv = f->nv, ne = f->ne, nc = 0, placed = 0;
	size_t np = ipp_graph_nprocs(f->g);
	ipp_id *up, *root, *adj_head, *adj_next;
	struct cand *c;
	bool *tree, *done, *bad;
	ipp_id *stack;

	free(f->off);
	f->off = NULL;
	if (f->mode != IPP_MODE_INTRA && f->mode != IPP_MODE_CONTEXT)
		return 0;
	up = ipp_xmalloc((nv + 1) * sizeof(*up));
	root = ipp_xmalloc((np + 1) * sizeof(*root));
	c = ipp_xmalloc((ne + 1) * sizeof(*c));
	tree = ipp_xcalloc(ne + 1, sizeof(*tree));
	for (size_t v = 0; v < nv; v++)
		up[v] = (ipp_id)v;
	/* the pinned vertices of a procedure: one class, off 0 */
	for (size_t p = 0; p < np; p++)
		root[p] = IPP_NONE;
	for (size_t v = 0; v < nv; v++) {
		ipp_id p = f->v[v].proc;
		if (p < 0 || !enabled[p] || !pinned(f, (ipp_id)v))
			continue;
		if (root[p] == IPP_NONE)
			root[p] = (ipp_id)v;
		else
			unite(up, (ipp_id)v, root[p]);
	}
	for (size_t e = 0; e < ne; e++) {
		ipp_id p = f->v[f->e[e].src].proc;
		enum chord_class k;
		if (p < 0 || !enabled[p] || f->v[f->e[e].dst].proc != p ||
		    (k = classify(f, (ipp_id)e, weight)) == CH_NONE)
			continue;
		c[nc].e = (ipp_id)e;
		c[nc].cls = (unsigned char)k;
		c[nc].w = k == CH_WEIGHED ? weight[e] : 0;
		nc++;
	}
	qsort(c, nc, sizeof(*c), cand_cmp);
	for (size_t i = 0; i < nc; i++) {
		ipp_id s = find(up, f->e[c[i].e].src), d = find(up, f->e[c[i].e].dst);
		if (s != d) {
			up[s] = d;
			tree[c[i].e] = true;
		}
	}

	/* off along the tree, from the pinned vertices (off 0) */
	f->off = ipp_xcalloc(nv + 1, sizeof(*f->off));
	adj_head = ipp_xmalloc((nv + 1) * sizeof(*adj_head));
	adj_next = ipp_xmalloc((2 * ne + 1) * sizeof(*adj_next));
	done = ipp_xcalloc(nv + 1, sizeof(*done));
	stack = ipp_xmalloc((nv + 1) * sizeof(*stack));
	for (size_t v = 0; v < nv; v++)
		adj_head[v] = IPP_NONE;
	/* adjacency slot 2e is e seen from its source, 2e+1 from its dst */
	for (size_t e = 0; e < ne; e++) {
		if (!tree[e])
			continue;
		adj_next[2 * e] = adj_head[f->e[e].src];
		adj_head[f->e[e].src] = (ipp_id)(2 * e);
		adj_next[2 * e + 1] = adj_head[f->e[e].dst];
		adj_head[f->e[e].dst] = (ipp_id)(2 * e + 1);
	}
	for (size_t v0 = 0; v0 < nv; v0++) {
		size_t sp = 0;
		ipp_id p = f->v[v0].proc;
		if (p < 0 || !enabled[p] || !pinned(f, (ipp_id)v0) || done[v0])
			continue;
		done[v0] = true;
		stack[sp++] = (ipp_id)v0;
		while (sp) {
			ipp_id u = stack[--sp];
			for (ipp_id a = adj_head[u]; a != IPP_NONE; a = adj_next[a]) {
				ipp_id e = a / 2, w;
				uint64_t r = rho1(f, e);
				/* inc_e = rho_e + off(dst) - off(src) = 0 */
				if (a % 2 == 0) {
					w = f->e[e].dst;
					if (done[w])
						continue;
					f->off[w] = f->off[u] - r;
				} else {
					w = f->e[e].src;
					if (done[w])
						continue;
					f->off[w] = f->off[u] + r;
				}
				done[w] = true;
				stack[sp++] = w;
			}
		}
	}

	/* An edge that must carry nothing but closed a cycle of such edges
	 * through the pinned vertices (a block whose chain reaches Exit_P
	 * from Entry_P) would need an increment: that procedure keeps rho
	 * on its edges (off 0), which is always right. */
	bad = ipp_xcalloc(np + 1, sizeof(*bad));
	for (size_t i = 0; i < nc; i++)
		if (c[i].cls == CH_FIXED && ipp_fin_inc(f, c[i].e) != 0)
			bad[f->v[f->e[c[i].e].src].proc] = true;
	for (size_t v = 0; v < nv; v++) {
		ipp_id p = f->v[v].proc;
		if (p >= 0 && bad[p])
			f->off[v] = 0;
	}
	for (size_t p = 0; p < np; p++)
		placed += enabled[p] && !bad[p];

	free(bad);
	free(stack);
	free(done);
	free(adj_next);
	free(adj_head);
	free(tree);
	free(c);
	free(root);
	free(up);
	return placed;
}

uint64_t ipp_fin_offset(const ipp_fin *f, ipp_id v)
{
	return f->off && v >= 0 && (size_t)v < f->nv ? f->off[v] : 0;
}

bool ipp_fin_has_offsets(const ipp_fin *f)
{
	return f->off != NULL;
}

uint64_t ipp_fin_inc(const ipp_fin *f, ipp_id e)
{
	const struct fedge *fe = &f->e[e];
	return rho1(f, e) + ipp_fin_offset(f, fe->dst) - ipp_fin_offset(f, fe->src);
}

int ipp_fin_set_offsets(ipp_fin *f, const ipp_id *v, const uint64_t *off, size_t n,
			char *err, size_t errlen)
{
	free(f->off);
	f->off = NULL;
	if (!n)
		return 0;
	if (f->mode != IPP_MODE_INTRA && f->mode != IPP_MODE_CONTEXT) {
		ipp_seterr(err, errlen, "offsets: %s mode places no increments on chords",
			   ipp_mode_name(f->mode));
		return -1;
	}
	f->off = ipp_xcalloc(f->nv + 1, sizeof(*f->off));
	for (size_t i = 0; i < n; i++) {
		if (v[i] < 0 || (size_t)v[i] >= f->nv) {
			ipp_seterr(err, errlen, "offsets: %" PRId32 " is not a vertex", v[i]);
			goto fail;
		}
		if (pinned(f, v[i]) && off[i] != 0) {
			ipp_seterr(err, errlen, "offsets: vertex %" PRId32 " (an entry, an exit or "
				   "an interprocedural call site) must have offset 0", v[i]);
			goto fail;
		}
		f->off[v[i]] = off[i];
	}
	return 0;
fail:
	free(f->off);
	f->off = NULL;
	return -1;
}
