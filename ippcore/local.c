/* local.c -- a procedure's local path numbering (ipp_local.h): Ball-Larus
 * over the procedure's own DAG D in G*fin, for two-level counting.
 *
 * D's vertices are the procedure's G*fin vertices and a virtual sink T.
 * Its edges, per vertex v in successor order:
 *   - v = Exit_P or GExit_P: one edge to T (a path ends there);
 *   - v an interprocedural call vertex (its G*fin successor is the CALL
 *     edge to the callee): one edge to T (the path leaves the procedure);
 *   - otherwise v's G*fin out-edges that stay in the procedure (NORMAL,
 *     SUMMARY, SURR_EXIT, and SURR_ENTRY out of Entry_P);
 *   - after them, out of Entry_P only, one virtual start edge per
 *     interprocedural call site, to its return site, in call order.
 * D is acyclic: back edges and cut vertices are G*fin's surrogate pairs.
 * np(v) is the number of paths from v to T, and the value of the k-th
 * out-edge of v is the sum of np over the destinations of its first k-1
 * out-edges (Ball-Larus), so a path's local number is the sum of the values
 * of its edges, the numbers are 0 .. np(Entry_P)-1, and the paths that
 * leave Entry_P through its real out-edges (entry, restarts) come first:
 * 0 .. nentry-1.
 *
 * Invariants relied on: G*fin vertex ids are G* ids (context and intra
 * modes: no split halves), and a vertex's local index is the graph's
 * per-procedure index (lidx).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include "internal.h"
#include "ipp_local.h"

#include <stdlib.h>
#include <string.h>

struct ipp_local {
	const ipp_fin *f;
	const ipp_graph *g;
	ipp_id proc;
	size_t nv;		/* the procedure's vertices; local index T = nv */
	const ipp_id *verts;	/* local index -> G*fin vertex */
	uint64_t *np;		/* per local vertex: paths to T */
	int **dst;		/* per local vertex: per D out-edge: local dst (nv = T) */
	ipp_id **edge;		/* ... its G*fin edge, or IPP_NONE (virtual) */
	uint64_t **val;		/* ... its value */
	size_t *nout;
	uint64_t nentry;
	unsigned char *reach;	/* per local vertex: IPP_LOCAL_FROM_* */
};

static int local_of(const ipp_local *l, ipp_id v)
{
	return l->g->lidx[v];
}

static bool is_interproc_call(const ipp_fin *f, ipp_id v)
{
	return ipp_fin_vkind(f, v) == IPP_V_CALL && ipp_fin_call_summary(f, v) == IPP_SUM_NONE;
}

/* D's out-edges of local vertex i (see the file's comment). */
static void build_out(ipp_local *l, size_t i)
{
	const ipp_fin *f = l->f;
	ipp_id v = l->verts[i];
	const struct ipp_proc *pr = &l->g->p[l->proc];
	size_t ns = ipp_fin_nsucc(f, v), n = 0, cap = ns + 1;
	enum ipp_vkind k = ipp_fin_vkind(f, v);

	if (v == pr->entry)
		cap += pr->ncalls;
	l->dst[i] = ipp_xmalloc(cap * sizeof(int));
	l->edge[i] = ipp_xmalloc(cap * sizeof(ipp_id));
	l->val[i] = ipp_xcalloc(cap, sizeof(uint64_t));
	if (k == IPP_V_EXIT || k == IPP_V_GEXIT || is_interproc_call(f, v)) {
		l->dst[i][n] = (int)l->nv;
		l->edge[i][n++] = IPP_NONE;
	} else {
		for (size_t s = 0; s < ns; s++) {
			ipp_id e = ipp_fin_succ(f, v, s), d = ipp_fin_edst(f, e);
			switch (ipp_fin_ekind(f, e)) {
			case IPP_E_NORMAL:
			case IPP_E_SUMMARY:
			case IPP_E_SURR_EXIT:
			case IPP_E_SURR_ENTRY:
				l->dst[i][n] = local_of(l, d);
				l->edge[i][n++] = e;
				break;
			default:
				break;
			}
		}
	}
	if (v == pr->entry)
		for (size_t c = 0; c < pr->ncalls; c++)
			if (is_interproc_call(f, pr->calls[c])) {
				l->dst[i][n] = local_of(l, pr->calls[c] + 1);
				l->edge[i][n++] = IPP_NONE;
			}
	l->nout[i] = n;
}

/* np of every vertex, successors first (an iterative DFS from Entry_P:
 * D is acyclic), values of the out-edges.  false if a count passes limit. */
static bool count_paths(ipp_local *l, uint64_t limit)
{
	size_t nv = l->nv;
	unsigned char *state = ipp_xcalloc(nv, 1);	/* 0 new, 1 open, 2 done */
	size_t *stack = ipp_xmalloc((nv + 1) * sizeof(size_t)), *next = ipp_xcalloc(nv, sizeof(size_t));
	size_t sp = 0;
	bool ok = true;
	int entry = local_of(l, l->g->p[l->proc].entry);

	stack[sp++] = (size_t)entry;
	state[entry] = 1;
	while (sp && ok) {
		size_t i = stack[sp - 1];
		if (next[i] < l->nout[i]) {
			int d = l->dst[i][next[i]++];
			if (d == (int)nv || state[d] == 2)
				continue;
			if (state[d] == 1) {
				ok = false;	/* a cycle: never, in G*fin */
				break;
			}
			state[d] = 1;
			stack[sp++] = (size_t)d;
			continue;
		}
		/* all successors done: np(i) and the values */
		{
			uint64_t sum = 0;
			for (size_t k = 0; k < l->nout[i]; k++) {
				int d = l->dst[i][k];
				uint64_t n = d == (int)nv ? 1 : l->np[d];
				l->val[i][k] = sum;
				if (__builtin_add_overflow(sum, n, &sum) || sum > limit)
					ok = false;
			}
			l->np[i] = sum;
		}
		state[i] = 2;
		sp--;
	}
	free(state);
	free(stack);
	free(next);
	return ok;
}

/* Which starts reach each vertex (forward over D, from Entry_P's real
 * out-edges and from the virtual starts). */
static void mark_reach(ipp_local *l)
{
	size_t nv = l->nv, sp = 0;
	int entry = local_of(l, l->g->p[l->proc].entry);
	size_t *stack = ipp_xmalloc((nv + 1) * 2 * sizeof(size_t));
	l->reach = ipp_xcalloc(nv, 1);
	for (size_t k = 0; k < l->nout[entry]; k++) {
		unsigned bit = l->edge[entry][k] != IPP_NONE ? IPP_LOCAL_FROM_ENTRY
							     : IPP_LOCAL_FROM_RETURN;
		int d = l->dst[entry][k];
		if (d == (int)nv || (l->reach[d] & bit))
			continue;
		l->reach[d] |= bit;
		stack[sp++] = (size_t)d;
		stack[sp++] = bit;
		while (sp) {
			unsigned b = (unsigned)stack[--sp];
			size_t i = stack[--sp];
			for (size_t j = 0; j < l->nout[i]; j++) {
				int x = l->dst[i][j];
				if (x == (int)nv || (l->reach[x] & b))
					continue;
				l->reach[x] |= b;
				stack[sp++] = (size_t)x;
				stack[sp++] = b;
			}
		}
	}
	l->reach[entry] |= IPP_LOCAL_FROM_ENTRY;
	free(stack);
}

ipp_local *ipp_local_new(const ipp_fin *f, ipp_id p, uint64_t limit)
{
	const ipp_graph *g = ipp_fin_graph(f);
	enum ipp_mode m = ipp_fin_mode(f);
	ipp_local *l;
	int entry;

	if ((m != IPP_MODE_CONTEXT && m != IPP_MODE_INTRA) || p < 0 ||
	    (size_t)p >= ipp_graph_nprocs(g) || (ipp_proc_flags(g, p) & IPP_PROC_SKIPPED))
		return NULL;
	ipp_graph_derive(g);
	l = ipp_xcalloc(1, sizeof(*l));
	l->f = f;
	l->g = g;
	l->proc = p;
	l->nv = g->p[p].nverts;
	l->verts = g->p[p].verts;
	l->np = ipp_xcalloc(l->nv, sizeof(uint64_t));
	l->dst = ipp_xcalloc(l->nv, sizeof(int *));
	l->edge = ipp_xcalloc(l->nv, sizeof(ipp_id *));
	l->val = ipp_xcalloc(l->nv, sizeof(uint64_t *));
	l->nout = ipp_xcalloc(l->nv, sizeof(size_t));
	for (size_t i = 0; i < l->nv; i++)
		build_out(l, i);
	if (!count_paths(l, limit)) {
		ipp_local_free(l);
		return NULL;
	}
	entry = local_of(l, g->p[p].entry);
	l->nentry = l->np[entry];
	for (size_t k = 0; k < l->nout[entry]; k++)
		if (l->edge[entry][k] == IPP_NONE) {
			l->nentry = l->val[entry][k];	/* the first virtual start */
			break;
		}
	mark_reach(l);
	return l;
}

void ipp_local_free(ipp_local *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->nv; i++) {
		free(l->dst[i]);
		free(l->edge[i]);
		free(l->val[i]);
	}
	free(l->dst);
	free(l->edge);
	free(l->val);
	free(l->nout);
	free(l->np);
	free(l->reach);
	free(l);
}

uint64_t ipp_local_nentry(const ipp_local *l)
{
	return l->nentry;
}

uint64_t ipp_local_npaths(const ipp_local *l)
{
	return l->np[local_of(l, l->g->p[l->proc].entry)];
}

uint64_t ipp_local_edge(const ipp_local *l, ipp_id e)
{
	int i = local_of(l, ipp_fin_esrc(l->f, e));
	for (size_t k = 0; k < l->nout[i]; k++)
		if (l->edge[i][k] == e)
			return l->val[i][k];
	return 0;	/* not an edge of D: adds nothing */
}

uint64_t ipp_local_retsite(const ipp_local *l, ipp_id r)
{
	int entry = local_of(l, l->g->p[l->proc].entry), d = local_of(l, r);
	for (size_t k = 0; k < l->nout[entry]; k++)
		if (l->edge[entry][k] == IPP_NONE && l->dst[entry][k] == d)
			return l->val[entry][k];
	return l->nentry;	/* never: every interprocedural return site has a start */
}

unsigned ipp_local_reach(const ipp_local *l, ipp_id v)
{
	int i = local_of(l, v);
	return i >= 0 && (size_t)i < l->nv ? l->reach[i] : 0;
}

bool ipp_local_ab(const ipp_local *l, uint64_t idx, mpz_t a, mpz_t b)
{
	mpz_t ra, rb;
	size_t i = (size_t)local_of(l, l->g->p[l->proc].entry);
	bool record = true;

	mpz_set_ui(a, 0);
	mpz_set_ui(b, 0);
	if (idx >= l->nentry)
		return false;
	mpz_inits(ra, rb, NULL);
	/* Ball-Larus regeneration: at each vertex the last out-edge whose
	 * value does not pass what is left of idx */
	while (i != l->nv) {
		size_t k = 0;
		ipp_id e;
		while (k + 1 < l->nout[i] && l->val[i][k + 1] <= idx)
			k++;
		idx -= l->val[i][k];
		e = l->edge[i][k];
		if (e != IPP_NONE) {
			ipp_fin_rho(l->f, e, ra, rb);
			mpz_add(a, a, ra);
			mpz_add(b, b, rb);
		} else if (is_interproc_call(l->f, l->verts[i])) {
			record = false;	/* leaves the procedure: no record */
		}
		i = (size_t)l->dst[i][k];
	}
	mpz_clears(ra, rb, NULL);
	if (!record) {
		mpz_set_ui(a, 0);
		mpz_set_ui(b, 0);
	}
	return record;
}
