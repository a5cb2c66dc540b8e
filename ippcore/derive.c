/* derive.c -- vertex, edge, call, entry and line counts derived from a path
 * profile, and a flow-conservation check of them (see ipp_derive.h and
 * docs/DERIVE.md for the definitions).
 *
 * Derivation: every record is decoded once (ipp_decode / ipp_decode_partial)
 * and the edges of its ACTIVE SUFFIX -- from the last SURR_ENTRY or
 * SPLIT_SURR edge of the path on, or the whole path if it has none (Melski
 * & Reps, Section 3.4) -- are added, times the record's count, to per-G*fin-
 * edge counters; vertex counts and the call/return/stop bookkeeping are
 * taken in the same pass.  G* edge counts follow: a G* edge kept in G*fin
 * has the count of its NORMAL edge; the removed ones (DFS back edges, in-
 * edges of cut vertices) only left totals per source (SURR_EXIT) and per
 * target (surrogate entries), and are settled by "peeling" the bipartite
 * graph source -> target of removed edges: a node whose removed edges are
 * all determined but one determines that one.  Nothing is guessed.
 *
 * Invariants relied on (ippcore/fin.c): G*fin vertices 0 .. nvertices(G*)-1
 * are the G* vertices; split halves (IPP_V_SPLIT) have the header as
 * origin; every G* edge kept in G*fin is exactly one NORMAL edge whose
 * origin is it; a vertex has at most one SURR_EXIT; SUMMARY, CALL and
 * RETURN edges name their call vertex (ipp_fin_ecall).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "internal.h"
#include "ipp_derive.h"

#include <stdarg.h>

/* ------------------------------------------------------------------ */
/* Saturating arithmetic                                                */
/* ------------------------------------------------------------------ */

static inline void add_to(ipp_counts *c, uint64_t *x, uint64_t n)
{
	uint64_t s = *x + n;
	if (s < *x)
		s = UINT64_MAX;
	if (s == UINT64_MAX && n)
		c->saturated = true;
	*x = s;
}

/* A sum that remembers whether it saturated (any term UINT64_MAX, or the
 * sum overflowed): a check involving it is inconclusive. */
struct acc {
	uint64_t v;
	bool sat;
};

static inline void acc_add(struct acc *a, uint64_t n)
{
	uint64_t s = a->v + n;
	if (n == UINT64_MAX || s < a->v) {
		a->sat = true;
		s = UINT64_MAX;
	}
	a->v = s;
}

static inline struct acc acc_of(uint64_t n)
{
	struct acc a = { 0, false };
	acc_add(&a, n);
	return a;
}

/* ------------------------------------------------------------------ */
/* Allocation                                                           */
/* ------------------------------------------------------------------ */

void ipp_counts_free(ipp_counts *c)
{
	if (!c)
		return;
	free(c->vertex);
	free(c->surr_in);
	free(c->surr_out);
	free(c->stopped);
	free(c->forked);
	free(c->abandoned);
	free(c->returns);
	free(c->edge);
	free(c->edge_known);
	free(c->fresh_entries);
	free(c->fresh_returns);
	free(c->restarts);
	free(c->orphans);
	free(c->fin_edge);
	memset(c, 0, sizeof(*c));
}

static void counts_alloc(ipp_counts *c, const ipp_fin *f)
{
	const ipp_graph *g = ipp_fin_graph(f);
	size_t nv = ipp_graph_nvertices(g), ne = ipp_graph_nedges(g), np = ipp_graph_nprocs(g);
	size_t nfe = ipp_fin_nedges(f);

	memset(c, 0, sizeof(*c));
	c->nvertices = nv;
	c->nedges = ne;
	c->nprocs = np;
	c->nfin_edges = nfe;
	c->vertex = ipp_xcalloc(nv + 1, sizeof(uint64_t));
	c->surr_in = ipp_xcalloc(nv + 1, sizeof(uint64_t));
	c->surr_out = ipp_xcalloc(nv + 1, sizeof(uint64_t));
	c->stopped = ipp_xcalloc(nv + 1, sizeof(uint64_t));
	c->forked = ipp_xcalloc(nv + 1, sizeof(uint64_t));
	c->abandoned = ipp_xcalloc(nv + 1, sizeof(uint64_t));
	c->returns = ipp_xcalloc(nv + 1, sizeof(uint64_t));
	c->edge = ipp_xcalloc(ne + 1, sizeof(uint64_t));
	c->edge_known = ipp_xcalloc(ne + 1, 1);
	c->fresh_entries = ipp_xcalloc(np + 1, sizeof(uint64_t));
	c->fresh_returns = ipp_xcalloc(np + 1, sizeof(uint64_t));
	c->restarts = ipp_xcalloc(np + 1, sizeof(uint64_t));
	c->orphans = ipp_xcalloc(np + 1, sizeof(uint64_t));
	c->fin_edge = ipp_xcalloc(nfe + 1, sizeof(uint64_t));
}

/* The NORMAL G*fin edge of each G* edge, or IPP_NONE for a removed edge (or
 * an edge of a skipped procedure). */
static ipp_id *kept_edges(const ipp_fin *f)
{
	const ipp_graph *g = ipp_fin_graph(f);
	size_t ne = ipp_graph_nedges(g);
	ipp_id *kept = ipp_xmalloc((ne + 1) * sizeof(ipp_id));
	for (size_t e = 0; e < ne; e++)
		kept[e] = IPP_NONE;
	for (size_t fe = 0; fe < ipp_fin_nedges(f); fe++) {
		ipp_id o = ipp_fin_eorigin(f, (ipp_id)fe);
		if (ipp_fin_ekind(f, (ipp_id)fe) == IPP_E_NORMAL && o >= 0 && (size_t)o < ne)
			kept[o] = (ipp_id)fe;
	}
	return kept;
}

static bool proc_instrumented(const ipp_graph *g, ipp_id p)
{
	return p >= 0 && !(ipp_proc_flags(g, p) & IPP_PROC_SKIPPED);
}

/* A tail call kept a sibling call: the caller's path through the call's
 * return is recorded before the call (docs/PROTOCOL.md, "Tail calls"). */
static bool tail_site(const ipp_graph *g, ipp_id c)
{
	return (ipp_call_flags(g, c) & IPP_CALL_TAIL) != 0;
}

/* A call vertex whose callee never returns (ECF_NORETURN: exit, abort,
 * longjmp, a function declared noreturn). */
static bool noreturn_site(const ipp_graph *g, ipp_id c)
{
	return (ipp_call_flags(g, c) & IPP_CALL_NORETURN) != 0;
}

/* ------------------------------------------------------------------ */
/* Counting one decoded path                                            */
/* ------------------------------------------------------------------ */

struct deriver {
	const ipp_fin *f;
	const ipp_graph *g;
	ipp_counts *c;
	ipp_id *open;		/* open calls while walking a path */
	size_t nopen, capopen;
};

static void deriver_init(struct deriver *d, const ipp_fin *f, ipp_counts *c)
{
	memset(d, 0, sizeof(*d));
	d->f = f;
	d->g = ipp_fin_graph(f);
	d->c = c;
}

static void deriver_free(struct deriver *d)
{
	free(d->open);
}

/* Adds 'count' executions of the path (a complete path, or a prefix whose
 * stop stack is stack[0..nstack-1]) of a region of procedure rproc: to the
 * G*fin edges of its active suffix (the rest follows from their totals:
 * spread_fin_edges) and, at a dead end or a stop, to what only the whole
 * path tells. */
static void count_path(struct deriver *d, const ipp_path *p, uint64_t count,
		       const ipp_id *stack, size_t nstack, bool gentry, ipp_id rproc)
{
	const ipp_fin *f = d->f;
	ipp_counts *c = d->c;
	size_t n = p->nedges, s = 0;
	ipp_id base = rproc;	/* procedure at depth 0 (piecewise bookkeeping) */
	bool dead_end = !stack && n >= 2 && ipp_fin_ekind(f, p->edges[n - 2]) == IPP_E_NORMAL &&
			ipp_fin_vkind(f, ipp_fin_edst(f, p->edges[n - 2])) == IPP_V_GEXIT;

	/* the active suffix starts at the last surrogate entry */
	s = p->active;
	/* saturating, and c->saturated is set at the end (spread_fin_edges)
	 * if an edge's count reached UINT64_MAX, as add_to would */
	for (size_t i = s; i < n; i++) {
		uint64_t *x = &c->fin_edge[p->edges[i]];
		*x = *x + count < *x ? UINT64_MAX : *x + count;
	}
	if (stack)
		for (size_t i = 0; i < nstack; i++)
			add_to(c, &c->stopped[ipp_fin_vorigin(f, stack[i])], count);
	if (!dead_end && !(stack && gentry))
		return;

	/* open calls over the whole path, context prefix included */
	d->nopen = 0;
	for (size_t i = 0; i < n; i++) {
		ipp_id e = p->edges[i];
		enum ipp_ekind k = ipp_fin_ekind(f, e);
		if (k == IPP_E_CALL) {
			IPP_ARRAY_GROW(d->open, d->nopen, d->capopen);
			d->open[d->nopen++] = ipp_fin_ecall(f, e);
		} else if (k == IPP_E_RETURN) {
			if (d->nopen)
				d->nopen--;
			else
				base = ipp_fin_vproc(f, ipp_fin_edst(f, e));	/* unmatched (piecewise) */
		}
	}
	/* at a dead end, the calls still open never return */
	for (size_t i = 0; dead_end && i < d->nopen; i++)
		add_to(c, &c->abandoned[d->open[i]], count);
	if (gentry)
		add_to(c, &c->orphans[base], count);
}

/* What the count of each G*fin edge in active suffixes adds to the vertex,
 * call and procedure counts: count_path adds a path's executions to its
 * edges only, and this spreads each edge's total once.  (Counts are sums
 * of nonnegative terms saturating at UINT64_MAX: their value does not
 * depend on how the terms are grouped.) */
static void spread_fin_edges(const ipp_fin *f, const ipp_graph *g, ipp_counts *c)
{
	for (size_t i = 0; i < c->nfin_edges; i++) {
		ipp_id e = (ipp_id)i, dst = ipp_fin_edst(f, e);
		enum ipp_ekind k = ipp_fin_ekind(f, e);
		uint64_t count = c->fin_edge[e];

		if (count == 0)
			continue;
		if (count == UINT64_MAX)
			c->saturated = true;
		switch (k) {
		case IPP_E_NORMAL:	/* into a block, Exit_P, or GExit_P (dead end) */
		case IPP_E_CALL:	/* into Entry_Q */
			add_to(c, &c->vertex[ipp_fin_vorigin(f, dst)], count);
			break;
		case IPP_E_SURR_ENTRY:
		case IPP_E_SPLIT_SURR:	/* only where an active suffix starts */
			add_to(c, &c->vertex[ipp_fin_vorigin(f, dst)], count);
			add_to(c, &c->surr_in[ipp_fin_vorigin(f, dst)], count);
			break;
		case IPP_E_SURR_EXIT:
			add_to(c, &c->surr_out[ipp_fin_vorigin(f, ipp_fin_esrc(f, e))], count);
			break;
		case IPP_E_SUMMARY:
		case IPP_E_RETURN:
			/* a summarized noreturn call never returns: its path was
			 * recorded before the call, c -> c+1 -> GExit_P being its
			 * dead end, and the call is left open there */
			if (k == IPP_E_SUMMARY && noreturn_site(g, ipp_fin_ecall(f, e)))
				add_to(c, &c->abandoned[ipp_fin_ecall(f, e)], count);
			else
				add_to(c, &c->returns[ipp_fin_ecall(f, e)], count);
			add_to(c, &c->vertex[dst], count);
			break;
		case IPP_E_GLOBAL_ENTRY:	/* a fresh start at Entry_P */
			if (ipp_fin_vkind(f, dst) == IPP_V_ENTRY) {
				add_to(c, &c->fresh_entries[ipp_fin_vproc(f, dst)], count);
				add_to(c, &c->vertex[dst], count);
			}
			break;
		case IPP_E_GLOBAL_EXIT:
			if (ipp_fin_vkind(f, ipp_fin_esrc(f, e)) == IPP_V_EXIT)
				add_to(c, &c->fresh_returns[ipp_fin_vproc(f, ipp_fin_esrc(f, e))],
				       count);
			break;
		case IPP_E_SPLIT:	/* v_a -> v_b: the same G* vertex, counted at v_a */
		default:
			break;
		}
	}
}

/* ------------------------------------------------------------------ */
/* Removed edges: peeling                                               */
/* ------------------------------------------------------------------ */

/* Nodes: source w (id w), target v (nv + v), abnormal arrivals of
 * procedure p (2 nv + p; only for procedures with restart points).  Links:
 * the removed G* edges w -> v, and abn(p) -> v for each restart point v. */
struct peel {
	size_t nnodes, nlinks;
	size_t *a, *b;		/* link endpoints */
	ipp_id *gedge;		/* G* edge of a link, IPP_NONE for abn links */
	uint64_t *val;
	unsigned char *known;
	size_t *off, *inc;	/* incidence lists (CSR) */
	uint64_t *total, *ksum;
	size_t *unknown;
	unsigned char *usable;
};

static void peel_link(struct peel *pl, size_t *cap, size_t a, size_t b, ipp_id gedge)
{
	if (pl->nlinks == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		pl->a = ipp_xrealloc(pl->a, *cap * sizeof(size_t));
		pl->b = ipp_xrealloc(pl->b, *cap * sizeof(size_t));
		pl->gedge = ipp_xrealloc(pl->gedge, *cap * sizeof(ipp_id));
	}
	pl->a[pl->nlinks] = a;
	pl->b[pl->nlinks] = b;
	pl->gedge[pl->nlinks++] = gedge;
}

static void peel_free(struct peel *pl)
{
	free(pl->a);
	free(pl->b);
	free(pl->gedge);
	free(pl->val);
	free(pl->known);
	free(pl->off);
	free(pl->inc);
	free(pl->total);
	free(pl->ksum);
	free(pl->unknown);
	free(pl->usable);
}

/* Per procedure: sum of surr_in and of surr_out, and whether it has
 * restart points. */
struct proc_surr {
	struct acc in, out;
	bool has_restart;
};

static struct proc_surr *proc_surr_sums(const ipp_graph *g, const ipp_counts *c)
{
	size_t np = ipp_graph_nprocs(g);
	struct proc_surr *ps = ipp_xcalloc(np + 1, sizeof(*ps));
	for (size_t v = 0; v < ipp_graph_nvertices(g); v++) {
		ipp_id p = ipp_vertex_proc(g, (ipp_id)v);
		if (p < 0)
			continue;
		acc_add(&ps[p].in, c->surr_in[v]);
		acc_add(&ps[p].out, c->surr_out[v]);
		if (ipp_vertex_is_restart(g, (ipp_id)v))
			ps[p].has_restart = true;
	}
	return ps;
}

static void settle_removed(const ipp_fin *f, ipp_counts *c, const ipp_id *kept)
{
	const ipp_graph *g = ipp_fin_graph(f);
	size_t nv = ipp_graph_nvertices(g), ne = ipp_graph_nedges(g), np = ipp_graph_nprocs(g);
	struct proc_surr *ps = proc_surr_sums(g, c);
	struct peel pl;
	size_t cap = 0, *queue, qh = 0, qt = 0;

	memset(&pl, 0, sizeof(pl));
	for (size_t p = 0; p < np; p++)
		if (!ps[p].in.sat && !ps[p].out.sat && ps[p].in.v > ps[p].out.v)
			c->restarts[p] = ps[p].in.v - ps[p].out.v;

	pl.nnodes = 2 * nv + np;
	for (size_t e = 0; e < ne; e++) {
		ipp_id src = ipp_edge_src(g, (ipp_id)e), dst = ipp_edge_dst(g, (ipp_id)e);
		if (kept[e] >= 0 || !proc_instrumented(g, ipp_vertex_proc(g, src)))
			continue;
		peel_link(&pl, &cap, (size_t)src, nv + (size_t)dst, (ipp_id)e);
	}
	if (pl.nlinks == 0) {
		free(ps);
		return;
	}
	for (size_t v = 0; v < nv; v++) {
		ipp_id p = ipp_vertex_proc(g, (ipp_id)v);
		if (p < 0 || !proc_instrumented(g, p) || !ipp_vertex_is_restart(g, (ipp_id)v))
			continue;
		peel_link(&pl, &cap, 2 * nv + (size_t)p, nv + v, IPP_NONE);
	}
	pl.val = ipp_xcalloc(pl.nlinks, sizeof(uint64_t));
	pl.known = ipp_xcalloc(pl.nlinks, 1);
	pl.off = ipp_xcalloc(pl.nnodes + 1, sizeof(size_t));
	pl.inc = ipp_xmalloc(2 * pl.nlinks * sizeof(size_t));
	pl.total = ipp_xcalloc(pl.nnodes, sizeof(uint64_t));
	pl.ksum = ipp_xcalloc(pl.nnodes, sizeof(uint64_t));
	pl.unknown = ipp_xcalloc(pl.nnodes, sizeof(size_t));
	pl.usable = ipp_xcalloc(pl.nnodes, 1);
	for (size_t l = 0; l < pl.nlinks; l++) {
		pl.off[pl.a[l] + 1]++;
		pl.off[pl.b[l] + 1]++;
	}
	for (size_t x = 0; x < pl.nnodes; x++)
		pl.off[x + 1] += pl.off[x];
	{
		size_t *fill = ipp_xmalloc((pl.nnodes + 1) * sizeof(size_t));
		memcpy(fill, pl.off, (pl.nnodes + 1) * sizeof(size_t));
		for (size_t l = 0; l < pl.nlinks; l++) {
			pl.inc[fill[pl.a[l]]++] = l;
			pl.inc[fill[pl.b[l]]++] = l;
		}
		free(fill);
	}
	for (size_t v = 0; v < nv; v++) {
		pl.total[v] = c->surr_out[v];
		pl.usable[v] = c->surr_out[v] != UINT64_MAX;
		pl.total[nv + v] = c->surr_in[v];
		pl.usable[nv + v] = c->surr_in[v] != UINT64_MAX;
	}
	for (size_t p = 0; p < np; p++) {
		size_t x = 2 * nv + p;
		pl.usable[x] = !ps[p].in.sat && !ps[p].out.sat && ps[p].in.v >= ps[p].out.v;
		pl.total[x] = pl.usable[x] ? ps[p].in.v - ps[p].out.v : 0;
	}
	queue = ipp_xmalloc((pl.nnodes + 1) * sizeof(size_t));
	for (size_t x = 0; x < pl.nnodes; x++) {
		pl.unknown[x] = pl.off[x + 1] - pl.off[x];
		if (pl.unknown[x] == 1 && pl.usable[x])
			queue[qt++] = x;
	}
	/* Each node enters the queue at most once: when its unknown count
	 * reaches 1 (it only decreases). */
	while (qh < qt) {
		size_t x = queue[qh++], l = SIZE_MAX, y;
		if (pl.unknown[x] != 1)
			continue;
		for (size_t k = pl.off[x]; k < pl.off[x + 1]; k++)
			if (!pl.known[pl.inc[k]])
				l = pl.inc[k];
		if (l == SIZE_MAX || pl.total[x] < pl.ksum[x])
			continue;	/* inconsistent totals: leave it undetermined */
		pl.val[l] = pl.total[x] - pl.ksum[x];
		pl.known[l] = 1;
		y = pl.a[l] == x ? pl.b[l] : pl.a[l];
		pl.unknown[x] = 0;
		pl.ksum[x] = pl.total[x];
		pl.unknown[y]--;
		pl.ksum[y] += pl.val[l];	/* <= total[x] <= UINT64_MAX - 1 per term */
		if (pl.ksum[y] < pl.val[l])
			pl.ksum[y] = UINT64_MAX;
		if (pl.unknown[y] == 1 && pl.usable[y])
			queue[qt++] = y;
	}
	for (size_t l = 0; l < pl.nlinks; l++)
		if (pl.known[l] && pl.gedge[l] >= 0) {
			c->edge[pl.gedge[l]] = pl.val[l];
			c->edge_known[pl.gedge[l]] = 1;
		}
	free(queue);
	free(ps);
	peel_free(&pl);
}

/* Counts records with a stop stack (partial paths, or forked prefixes
 * into the scratch counts of subtract_forked) into d->c.  'what' names a
 * record in messages. */
static int count_stop_records(struct deriver *d, const ipp_prof_module *pm,
			      const ipp_prof_partial *recs, size_t n, const char *what,
			      const ipp_id *rmap, ipp_path *path, char *err, size_t errlen)
{
	const ipp_fin *f = d->f;
	char e2[256];
	for (size_t i = 0; i < n; i++) {
		const ipp_prof_partial *r = &recs[i];
		ipp_region_info ri;
		add_to(d->c, &d->c->observations, r->count);
		if (r->count == 0)
			continue;
		if (r->region >= pm->nregions) {
			ipp_seterr(err, errlen, "%s %zu: bad region index", what, i);
			return -1;
		}
		for (size_t k = 0; k < r->nstack; k++)
			if (r->stack[k] < 0 || (size_t)r->stack[k] >= ipp_fin_nvertices(f)) {
				ipp_seterr(err, errlen, "%s %zu of region %s: stop stack "
					   "names no vertex", what, i, pm->regions[r->region]);
				return -1;
			}
		if (ipp_decode_pnum(f, rmap[r->region], &r->num, r->stack, r->nstack, path,
				    e2, sizeof(e2)) < 0) {
			ipp_seterr(err, errlen, "%s %zu of region %s: %s", what, i,
				   pm->regions[r->region], e2);
			return -1;
		}
		ipp_fin_region(f, rmap[r->region], &ri);
		count_path(d, path, r->count, r->stack, r->nstack, ri.gentry, ri.proc);
	}
	return 0;
}

/* x -= y, unless x saturated (then the difference is unknown and x stays
 * UINT64_MAX); below 0 is clamped at 0 and counted in unmatched_forks. */
static void sub_from(ipp_counts *c, uint64_t *x, uint64_t y)
{
	if (*x == UINT64_MAX)
		return;
	if (y > *x) {
		add_to(c, &c->unmatched_forks, y - *x);
		*x = 0;
	} else {
		*x -= y;
	}
}

static void sub_array(ipp_counts *c, uint64_t *x, const uint64_t *y, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sub_from(c, &x[i], y[i]);
}

/* Forked prefixes: a path pending at a fork() went on in both processes,
 * and each recorded it, so its prefix up to the fork -- run once -- is in
 * two records; the child recorded the prefix as a forked prefix.  Derive
 * those prefixes like partial paths into scratch counts and subtract
 * every execution count; their stop stacks become out->forked (the
 * activations that went on twice), not stops. */
static int subtract_forked(const ipp_fin *f, const ipp_prof_module *pm, const ipp_id *rmap,
			   ipp_path *path, ipp_counts *out, char *err, size_t errlen)
{
	struct deriver d;
	ipp_counts debt;
	int rc;

	counts_alloc(&debt, f);
	deriver_init(&d, f, &debt);
	rc = count_stop_records(&d, pm, pm->forked, pm->nforked, "forked prefix", rmap, path,
				err, errlen);
	if (rc == 0) {
		size_t nv = out->nvertices, np = out->nprocs;
		spread_fin_edges(f, d.g, &debt);
		out->nforked += pm->nforked;
		sub_array(out, out->vertex, debt.vertex, nv);
		sub_array(out, out->surr_in, debt.surr_in, nv);
		sub_array(out, out->surr_out, debt.surr_out, nv);
		sub_array(out, out->abandoned, debt.abandoned, nv);
		sub_array(out, out->returns, debt.returns, nv);
		sub_array(out, out->fresh_entries, debt.fresh_entries, np);
		sub_array(out, out->fresh_returns, debt.fresh_returns, np);
		sub_array(out, out->fin_edge, debt.fin_edge, out->nfin_edges);
		for (size_t v = 0; v < nv; v++)
			add_to(out, &out->forked[v], debt.stopped[v]);
		/* the observations of one run of a path */
		out->observations = out->observations > debt.observations ?
				    out->observations - debt.observations : 0;
		out->saturated |= debt.saturated;
	}
	deriver_free(&d);
	ipp_counts_free(&debt);
	return rc;
}

/* ------------------------------------------------------------------ */
/* ipp_derive                                                           */
/* ------------------------------------------------------------------ */

int ipp_derive(const ipp_fin *f, const ipp_prof_module *pm, ipp_counts *out,
	       char *err, size_t errlen)
{
	const ipp_graph *g = ipp_fin_graph(f);
	struct deriver d;
	ipp_id *rmap, *kept;
	ipp_path path;
	char e2[256];
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (pm->mode != ipp_fin_mode(f)) {
		ipp_seterr(err, errlen, "profile module %s was recorded in %s mode, the map is %s",
			   pm->module ? pm->module : "?", ipp_mode_name(pm->mode),
			   ipp_mode_name(ipp_fin_mode(f)));
		return -1;
	}
	rmap = ipp_xmalloc((pm->nregions + 1) * sizeof(ipp_id));
	for (size_t i = 0; i < pm->nregions; i++) {
		rmap[i] = ipp_fin_region_find(f, pm->regions[i]);
		if (rmap[i] == IPP_NONE) {
			ipp_seterr(err, errlen, "region %s of the profile is not in the map",
				   pm->regions[i]);
			free(rmap);
			return -1;
		}
	}
	counts_alloc(out, f);
	deriver_init(&d, f, out);
	ipp_path_init(&path);

	for (size_t i = 0; i < pm->npaths; i++) {
		const ipp_prof_path *r = &pm->paths[i];
		ipp_region_info ri;
		out->npaths++;
		add_to(out, &out->observations, r->count);
		if (r->count == 0)
			continue;
		if (r->region >= pm->nregions) {
			ipp_seterr(err, errlen, "path record %zu: bad region index", i);
			goto done;
		}
		if (ipp_decode_pnum(f, rmap[r->region], &r->num, NULL, 0, &path, e2,
				    sizeof(e2)) < 0) {
			ipp_seterr(err, errlen, "path record %zu of region %s: %s", i,
				   pm->regions[r->region], e2);
			goto done;
		}
		ipp_fin_region(f, rmap[r->region], &ri);
		count_path(&d, &path, r->count, NULL, 0, ri.gentry, ri.proc);
	}
	out->npartials = pm->npartials;
	if (count_stop_records(&d, pm, pm->partials, pm->npartials, "partial record", rmap, &path,
			       err, errlen) < 0)
		goto done;
	spread_fin_edges(f, g, out);	/* before the forked prefixes are subtracted */
	if (pm->nforked && subtract_forked(f, pm, rmap, &path, out, err, errlen) < 0)
		goto done;

	kept = kept_edges(f);
	for (size_t e = 0; e < out->nedges; e++)
		if (kept[e] >= 0) {
			out->edge[e] = out->fin_edge[kept[e]];
			out->edge_known[e] = 1;
		}
	settle_removed(f, out, kept);
	free(kept);
	rc = 0;
done:
	ipp_path_free(&path);
	deriver_free(&d);
	free(rmap);
	if (rc < 0)
		ipp_counts_free(out);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Flow conservation                                                    */
/* ------------------------------------------------------------------ */

struct msgs {
	char **v;
	size_t n, cap;
	int violations;
};

static void msg_add(struct msgs *m, bool violation, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void msg_add(struct msgs *m, bool violation, const char *fmt, ...)
{
	const char *pre = violation ? "violation: " : "inconclusive: ";
	va_list ap;
	int len;
	char *s;
	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = ipp_xmalloc(strlen(pre) + (size_t)len + 1);
	strcpy(s, pre);
	va_start(ap, fmt);
	vsnprintf(s + strlen(pre), (size_t)len + 1, fmt, ap);
	va_end(ap);
	IPP_ARRAY_GROW(m->v, m->n, m->cap);
	m->v[m->n++] = s;
	if (violation)
		m->violations++;
}

void ipp_flow_free(char **msgs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(msgs[i]);
	free(msgs);
}

/* "p: vertex 12 (block, file.c:10)" */
/* Where a check is: a vertex, described only when a message names it
 * (describing every vertex of a large unit was most of a check's cost), or
 * a text. */
struct where {
	const ipp_graph *g;	/* NULL: 'text' is set */
	ipp_id v;
	char text[512];
};

static void where_vertex(struct where *w, const ipp_graph *g, ipp_id v)
{
	w->g = g;
	w->v = v;
}

static const char *where_text(struct where *w)
{
	const ipp_graph *g = w->g;
	ipp_id v = w->v, p;
	const char *file;
	int line;

	if (g == NULL)
		return w->text;
	p = ipp_vertex_proc(g, v);
	file = ipp_vertex_file(g, v);
	line = ipp_vertex_line(g, v);
	if (file && line > 0)
		snprintf(w->text, sizeof(w->text), "%s: vertex %d (%s, %s:%d)",
			 p >= 0 ? ipp_proc_asm(g, p) : "?", (int)v,
			 ipp_vkind_name(ipp_vertex_kind(g, v)), file, line);
	else
		snprintf(w->text, sizeof(w->text), "%s: vertex %d (%s)",
			 p >= 0 ? ipp_proc_asm(g, p) : "?", (int)v,
			 ipp_vkind_name(ipp_vertex_kind(g, v)));
	w->g = NULL;
	return w->text;
}

/* Reports a != b ('what' describes the two sides). */
static void expect_eq(struct msgs *m, struct where *where, const char *what, struct acc a,
		      struct acc b)
{
	if (a.sat || b.sat) {
		msg_add(m, false, "%s: %s: a count saturated", where_text(where), what);
		return;
	}
	if (a.v != b.v)
		msg_add(m, true, "%s: %s: %llu != %llu", where_text(where), what,
			(unsigned long long)a.v, (unsigned long long)b.v);
}

/* Reports a < b. */
static void expect_ge(struct msgs *m, struct where *where, const char *what, struct acc a,
		      struct acc b)
{
	if (a.sat || b.sat) {
		if (b.sat && !a.sat)
			msg_add(m, false, "%s: %s: a count saturated", where_text(where), what);
		return;
	}
	if (a.v < b.v)
		msg_add(m, true, "%s: %s: %llu < %llu", where_text(where), what,
			(unsigned long long)a.v, (unsigned long long)b.v);
}

/* Direct call sites whose callee starts fresh in its own region (every
 * direct in-unit site that is summarized). */
static bool fresh_direct_site(const ipp_fin *f, ipp_id c)
{
	const ipp_graph *g = ipp_fin_graph(f);
	ipp_id q = ipp_call_callee(g, c);
	enum ipp_summary_why w = ipp_fin_call_summary(f, c);
	if (q < 0 || (ipp_call_flags(g, c) & IPP_CALL_INDIRECT) || !proc_instrumented(g, q))
		return false;
	return w == IPP_SUM_RECURSIVE || w == IPP_SUM_CUT || w == IPP_SUM_INTRA;
}

static bool interprocedural_site(const ipp_fin *f, ipp_id c)
{
	return ipp_fin_call_summary(f, c) == IPP_SUM_NONE;
}

/* Union-find for the component check of undetermined removed edges. */
static size_t uf_find(size_t *par, size_t x)
{
	while (par[x] != x) {
		par[x] = par[par[x]];
		x = par[x];
	}
	return x;
}

int ipp_check_flow(const ipp_fin *f, const ipp_counts *c, char ***out, size_t *nout)
{
	const ipp_graph *g = ipp_fin_graph(f);
	size_t nv = ipp_graph_nvertices(g), ne = ipp_graph_nedges(g), np = ipp_graph_nprocs(g);
	enum ipp_mode mode = ipp_fin_mode(f);
	struct msgs m = { NULL, 0, 0, 0 };
	ipp_id *kept = kept_edges(f);
	struct acc *kin = ipp_xcalloc(nv + 1, sizeof(struct acc));
	struct acc *kout = ipp_xcalloc(nv + 1, sizeof(struct acc));
	struct acc *call_in = ipp_xcalloc(np + 1, sizeof(struct acc));	/* CALL edges into Entry_P */
	struct acc *ret_out = ipp_xcalloc(np + 1, sizeof(struct acc));	/* RETURN edges out of Exit_P */
	struct acc *site_calls = ipp_xcalloc(np + 1, sizeof(struct acc));	/* fresh direct sites -> P */
	struct acc *site_rets = ipp_xcalloc(np + 1, sizeof(struct acc));
	struct acc *site_calls_nr = ipp_xcalloc(np + 1, sizeof(struct acc));	/* noreturn sites */
	bool *tail_caller = ipp_xcalloc(np + 1, sizeof(bool));	/* makes tail calls */
	struct acc *deficit_to = ipp_xcalloc(np + 1, sizeof(struct acc));	/* piecewise */
	struct acc *deficit_in = ipp_xcalloc(np + 1, sizeof(struct acc));
	struct proc_surr *ps = proc_surr_sums(g, c);
	bool any_restart = false;
	struct where w;

	for (size_t p = 0; p < np; p++)
		if (c->restarts[p])
			any_restart = true;
	if (c->unmatched_forks)
		msg_add(&m, true, "forked prefixes exceed the counts of the paths they begin by "
			"%llu: a process forked, and the one that went on without the "
			"forked-prefix record (the parent) never wrote its pending paths "
			"(_exit without ipp_dump?)", (unsigned long long)c->unmatched_forks);
	for (size_t e = 0; e < ne; e++) {
		if (kept[e] < 0)
			continue;
		acc_add(&kin[ipp_edge_dst(g, (ipp_id)e)], c->edge[e]);
		acc_add(&kout[ipp_edge_src(g, (ipp_id)e)], c->edge[e]);
	}
	for (size_t fe = 0; fe < ipp_fin_nedges(f); fe++) {
		enum ipp_ekind k = ipp_fin_ekind(f, (ipp_id)fe);
		if (k == IPP_E_CALL)
			acc_add(&call_in[ipp_fin_vproc(f, ipp_fin_edst(f, (ipp_id)fe))],
				c->fin_edge[fe]);
		else if (k == IPP_E_RETURN)
			acc_add(&ret_out[ipp_fin_vproc(f, ipp_fin_esrc(f, (ipp_id)fe))],
				c->fin_edge[fe]);
	}

	/* ---- every vertex ---- */
	for (size_t vi = 0; vi < nv; vi++) {
		ipp_id v = (ipp_id)vi, p = ipp_vertex_proc(g, v);
		struct acc n = acc_of(c->vertex[v]), in = { 0, false }, o = { 0, false };
		if (p < 0 || !proc_instrumented(g, p))
			continue;
		where_vertex(&w, g, v);
		switch (ipp_vertex_kind(g, v)) {
		case IPP_V_BLOCK:
			in = kin[v];
			acc_add(&in, c->surr_in[v]);
			o = kout[v];
			acc_add(&o, c->surr_out[v]);
			acc_add(&o, c->stopped[v]);
			break;
		case IPP_V_RETSITE:
			in = acc_of(c->returns[v - 1]);
			/* after a summarized noreturn call: the dead ends the
			 * path reached through c -> c+1 (see count_path) */
			if (noreturn_site(g, v - 1) && !interprocedural_site(f, v - 1))
				acc_add(&in, c->abandoned[v - 1]);
			acc_add(&in, c->surr_in[v]);
			o = kout[v];
			acc_add(&o, c->surr_out[v]);
			acc_add(&o, c->stopped[v]);
			break;
		case IPP_V_ENTRY:
			in = acc_of(c->fresh_entries[p]);
			acc_add(&in, call_in[p].v);
			in.sat |= call_in[p].sat;
			o = kout[v];
			acc_add(&o, c->surr_out[v]);
			acc_add(&o, c->stopped[v]);
			break;
		case IPP_V_EXIT:
			in = kin[v];
			o = ret_out[p];
			acc_add(&o, c->fresh_returns[p]);
			acc_add(&o, c->stopped[v]);
			break;
		case IPP_V_GEXIT:
			in = kin[v];	/* dead ends: a sink */
			o = n;
			break;
		case IPP_V_CALL: {
			/* out-flow: calls that returned, or were left open when
			 * their path was cut short (stop stacks) or ended at a dead
			 * end.  Abnormal restarts (longjmp) may continue calls a
			 * partial path left open: then only a deficit is an error.
			 * Piecewise: activations below the start of a path leave no
			 * trace; their deficits are bounded below, per procedure. */
			bool ipw = mode == IPP_MODE_PIECEWISE && interprocedural_site(f, v);
			in = kin[v];
			acc_add(&in, c->surr_in[v]);
			expect_eq(&m, &w, "in-flow != count", in, n);
			o = acc_of(c->returns[v]);
			acc_add(&o, c->stopped[v]);
			acc_add(&o, c->abandoned[v]);
			/* a call open at a fork returned in both processes */
			acc_add(&n, c->forked[v]);
			if (o.sat || n.sat) {
				msg_add(&m, false, "%s: out-flow: a count saturated", where_text(&w));
			} else if (o.v > n.v) {
				if (!any_restart)
					msg_add(&m, true, "%s: returns %llu + stopped %llu + abandoned %llu "
						"exceed the %llu calls", where_text(&w),
						(unsigned long long)c->returns[v],
						(unsigned long long)c->stopped[v],
						(unsigned long long)c->abandoned[v],
						(unsigned long long)n.v);
			} else if (o.v < n.v) {
				if (ipw) {
					ipp_id q = ipp_call_callee(g, v);
					acc_add(&deficit_to[q], n.v - o.v);
					acc_add(&deficit_in[p], n.v - o.v);
				} else {
					msg_add(&m, true, "%s: %llu calls, but %llu returned, %llu stopped "
						"and %llu were abandoned", where_text(&w),
						(unsigned long long)n.v,
						(unsigned long long)c->returns[v],
						(unsigned long long)c->stopped[v],
						(unsigned long long)c->abandoned[v]);
				}
			}
			if (tail_site(g, v))
				tail_caller[p] = true;
			if (fresh_direct_site(f, v)) {
				/* returns[v] is 0 at a noreturn site (count_path):
				 * its calls bound the returns of a callee that
				 * returns all the same */
				ipp_id q = ipp_call_callee(g, v);
				acc_add(&site_calls[q], c->vertex[v]);
				/* a tail site counts its return before the
				 * call (IPP_CALL_TAIL): its calls bound the
				 * callee's returns, as a noreturn site's */
				if (noreturn_site(g, v) || tail_site(g, v))
					acc_add(&site_calls_nr[q], c->vertex[v]);
				else
					acc_add(&site_rets[q], c->returns[v]);
			}
			continue;
		}
		default:	/* GEntry_P: no flow in G* */
			continue;
		}
		expect_eq(&m, &w, "in-flow != count", in, n);
		/* an activation standing at v at a fork went on from v in
		 * both processes (forked prefixes) */
		acc_add(&n, c->forked[v]);
		expect_eq(&m, &w, "out-flow != count", o, n);
	}

	/* ---- every procedure ---- */
	for (size_t pi = 0; pi < np; pi++) {
		ipp_id p = (ipp_id)pi;
		bool entry = ipp_proc_flags(g, p) & IPP_PROC_ENTRY;
		if (!proc_instrumented(g, p))
			continue;
		/* surrogate pairing: each path that ends at a removed edge is
		 * followed by one that starts at its target */
		w.g = NULL;
		snprintf(w.text, sizeof(w.text), "%s: removed edges", ipp_proc_asm(g, p));
		if (ps[p].has_restart)
			expect_ge(&m, &w, "surrogate arrivals < surrogate departures", ps[p].in,
				  ps[p].out);
		else
			expect_eq(&m, &w, "surrogate arrivals != surrogate departures", ps[p].in,
				  ps[p].out);
		/* the call graph: fresh activations of P balance the calls of the
		 * summarized direct sites calling P (others, for an entry
		 * procedure, come from outside: the C runtime, callbacks,
		 * indirect calls) */
		w.g = NULL;
		snprintf(w.text, sizeof(w.text), "%s: fresh activations", ipp_proc_asm(g, p));
		if (entry) {
			expect_ge(&m, &w, "entries < calls from summarized sites",
				  acc_of(c->fresh_entries[p]), site_calls[p]);
			expect_ge(&m, &w, "returns < returns to summarized sites",
				  acc_of(c->fresh_returns[p]), site_rets[p]);
		} else if (tail_caller[p]) {
			/* P returns at its tail calls, before its callee has
			 * returned to P's caller (which may never happen): its
			 * returns lie between the returns to its sites and the
			 * calls at them */
			expect_eq(&m, &w, "entries != calls from summarized sites",
				  acc_of(c->fresh_entries[p]), site_calls[p]);
			expect_ge(&m, &w, "returns < returns to summarized sites",
				  acc_of(c->fresh_returns[p]), site_rets[p]);
			expect_ge(&m, &w, "calls from summarized sites < returns", site_calls[p],
				  acc_of(c->fresh_returns[p]));
		} else if (site_calls_nr[p].v == 0 && !site_calls_nr[p].sat) {
			expect_eq(&m, &w, "entries != calls from summarized sites",
				  acc_of(c->fresh_entries[p]), site_calls[p]);
			expect_eq(&m, &w, "returns != returns to summarized sites",
				  acc_of(c->fresh_returns[p]), site_rets[p]);
		} else {
			/* called at noreturn sites too, which count no return:
			 * between the returns to the other sites and those plus
			 * the calls at the noreturn ones */
			struct acc all = site_rets[p];
			acc_add(&all, site_calls_nr[p].sat ? UINT64_MAX : site_calls_nr[p].v);
			expect_eq(&m, &w, "entries != calls from summarized sites",
				  acc_of(c->fresh_entries[p]), site_calls[p]);
			expect_ge(&m, &w, "returns < returns to summarized sites",
				  acc_of(c->fresh_returns[p]), site_rets[p]);
			expect_ge(&m, &w, "returns to summarized sites + calls at noreturn "
				  "sites < returns", all, acc_of(c->fresh_returns[p]));
		}
		if (mode == IPP_MODE_PIECEWISE && !any_restart) {
			/* untraced callers: each continuing activation of P whose
			 * call neither returned nor was seen stopped is the bottom
			 * of an orphan path or stopped, untraced, at a call of its
			 * own */
			struct acc bound = acc_of(c->orphans[p]);
			acc_add(&bound, deficit_in[p].v);
			bound.sat |= deficit_in[p].sat;
			w.g = NULL;
			snprintf(w.text, sizeof(w.text), "%s: interprocedural calls left without trace",
				 ipp_proc_asm(g, p));
			expect_ge(&m, &w, "orphan paths + untraced stops < untraced calls", bound,
				  deficit_to[p]);
		}
	}

	/* ---- removed edges: determined counts against the totals, and the
	 * undetermined rest per connected component ---- */
	{
		struct acc *kno = ipp_xcalloc(nv + 1, sizeof(struct acc));	/* known removed out */
		struct acc *kni = ipp_xcalloc(nv + 1, sizeof(struct acc));	/* known removed in */
		size_t *unk_o = ipp_xcalloc(nv + 1, sizeof(size_t));
		size_t *unk_i = ipp_xcalloc(nv + 1, sizeof(size_t));
		size_t *par = ipp_xmalloc((2 * nv + 1) * sizeof(size_t));
		struct acc *bal_src = ipp_xcalloc(2 * nv + 1, sizeof(struct acc));
		struct acc *bal_dst = ipp_xcalloc(2 * nv + 1, sizeof(struct acc));
		bool *hasrem = ipp_xcalloc(2 * nv + 1, sizeof(bool));
		for (size_t x = 0; x < 2 * nv; x++)
			par[x] = x;
		for (size_t e = 0; e < ne; e++) {
			ipp_id s = ipp_edge_src(g, (ipp_id)e), d = ipp_edge_dst(g, (ipp_id)e);
			if (kept[e] >= 0 || !proc_instrumented(g, ipp_vertex_proc(g, s)))
				continue;
			hasrem[s] = hasrem[nv + d] = true;
			if (c->edge_known[e]) {
				acc_add(&kno[s], c->edge[e]);
				acc_add(&kni[d], c->edge[e]);
			} else {
				unk_o[s]++;
				unk_i[d]++;
				par[uf_find(par, (size_t)s)] = uf_find(par, nv + (size_t)d);
			}
		}
		for (size_t vi = 0; vi < nv; vi++) {
			ipp_id v = (ipp_id)vi, p = ipp_vertex_proc(g, v);
			bool restart = ipp_vertex_is_restart(g, v);
			if (p < 0 || !proc_instrumented(g, p))
				continue;
			where_vertex(&w, g, v);
			if (hasrem[v]) {
				if (unk_o[v] == 0)
					expect_eq(&m, &w, "removed out-edges != surrogate departures",
						  kno[v], acc_of(c->surr_out[v]));
				else
					expect_ge(&m, &w, "surrogate departures < removed out-edges",
						  acc_of(c->surr_out[v]), kno[v]);
			} else if (c->surr_out[v]) {
				msg_add(&m, true, "%s: surrogate departures without removed out-edges",
					where_text(&w));
			}
			if (hasrem[nv + v] || restart) {
				if (unk_i[v] == 0 && !restart)
					expect_eq(&m, &w, "removed in-edges != surrogate arrivals",
						  kni[v], acc_of(c->surr_in[v]));
				else
					expect_ge(&m, &w, "surrogate arrivals < removed in-edges",
						  acc_of(c->surr_in[v]), kni[v]);
			} else if (c->surr_in[v]) {
				msg_add(&m, true, "%s: surrogate arrivals without removed in-edges",
					where_text(&w));
			}
			/* what is left to distribute, per component */
			if (unk_o[v] && !ps[p].has_restart) {
				struct acc *b = &bal_src[uf_find(par, (size_t)v)];
				if (!kno[v].sat && c->surr_out[v] >= kno[v].v)
					acc_add(b, c->surr_out[v] - kno[v].v);
				else
					b->sat = true;
			}
			if (unk_i[v] && !ps[p].has_restart) {
				struct acc *b = &bal_dst[uf_find(par, nv + (size_t)v)];
				if (!kni[v].sat && c->surr_in[v] >= kni[v].v)
					acc_add(b, c->surr_in[v] - kni[v].v);
				else
					b->sat = true;
			}
		}
		for (size_t x = 0; x < 2 * nv; x++) {
			if (uf_find(par, x) != x || (!bal_src[x].v && !bal_dst[x].v &&
						     !bal_src[x].sat && !bal_dst[x].sat))
				continue;
			w.g = NULL;
			snprintf(w.text, sizeof(w.text), "%s: removed edges around vertex %d",
				 ipp_proc_asm(g, ipp_vertex_proc(g, (ipp_id)(x % nv))), (int)(x % nv));
			expect_eq(&m, &w, "undetermined departures != undetermined arrivals",
				  bal_src[x], bal_dst[x]);
		}
		free(kno);
		free(kni);
		free(unk_o);
		free(unk_i);
		free(par);
		free(bal_src);
		free(bal_dst);
		free(hasrem);
	}

	free(kept);
	free(kin);
	free(kout);
	free(call_in);
	free(ret_out);
	free(site_calls);
	free(site_rets);
	free(site_calls_nr);
	free(tail_caller);
	free(deficit_to);
	free(deficit_in);
	free(ps);
	*out = m.v;
	*nout = m.n;
	return m.violations;
}

/* ------------------------------------------------------------------ */
/* Call sites and lines                                                 */
/* ------------------------------------------------------------------ */

size_t ipp_counts_calls(const ipp_fin *f, const ipp_counts *c, ipp_call_count **out)
{
	const ipp_graph *g = ipp_fin_graph(f);
	size_t n = 0, cap = 0;
	ipp_call_count *v = NULL;
	for (size_t i = 0; i < ipp_graph_nvertices(g); i++) {
		ipp_id s = (ipp_id)i;
		if (ipp_vertex_kind(g, s) != IPP_V_CALL)
			continue;
		IPP_ARRAY_GROW(v, n, cap);
		v[n].site = s;
		v[n].caller = ipp_vertex_proc(g, s);
		v[n].indirect = ipp_call_flags(g, s) & IPP_CALL_INDIRECT;
		v[n].callee = v[n].indirect ? IPP_NONE : ipp_call_callee(g, s);
		v[n].callee_asm = v[n].indirect ? NULL : ipp_call_target_asm(g, s);
		v[n].callee_name = v[n].indirect ? NULL : ipp_call_target_name(g, s);
		v[n].why = ipp_fin_call_summary(f, s);
		v[n].calls = c->vertex[s];
		v[n].returns = c->returns[s];
		n++;
	}
	*out = v;
	return n;
}

size_t ipp_counts_icalls(const ipp_fin *f, const ipp_prof_module *pm, ipp_icall_count **out)
{
	const ipp_graph *g = ipp_fin_graph(f);
	const ipp_prof_icall **sorted = ipp_prof_icalls_sorted(pm);
	ipp_icall_count *v = ipp_xmalloc((pm->nicalls ? pm->nicalls : 1) * sizeof(*v));
	for (size_t i = 0; i < pm->nicalls; i++) {
		const ipp_prof_icall *r = sorted[i];
		bool here = r->callee_checksum == pm->checksum &&
			    strcmp(r->callee_module, pm->module) == 0;
		v[i].site = r->site;
		v[i].caller = ipp_vertex_proc(g, r->site);
		v[i].callee = here ? ipp_proc_find(g, r->callee_region) : IPP_NONE;
		v[i].callee_module = r->callee_module;
		v[i].callee_checksum = r->callee_checksum;
		v[i].callee_region = r->callee_region;
		v[i].calls = r->count;
	}
	free(sorted);
	*out = v;
	return pm->nicalls;
}

struct head {
	const char *file;
	int line;
	ipp_id v;
};

static int head_cmp(const void *x, const void *y)
{
	const struct head *a = x, *b = y;
	int r = strcmp(a->file, b->file);
	if (r)
		return r;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return a->v < b->v ? -1 : a->v > b->v;
}

size_t ipp_counts_lines(const ipp_fin *f, const ipp_counts *c, ipp_line_count **out)
{
	const ipp_graph *g = ipp_fin_graph(f);
	size_t nh = 0, n = 0;
	struct head *h = ipp_xmalloc((ipp_graph_nvertices(g) + 1) * sizeof(*h));
	ipp_line_count *l;
	for (size_t i = 0; i < ipp_graph_nvertices(g); i++) {
		ipp_id v = (ipp_id)i;
		if (ipp_vertex_kind(g, v) != IPP_V_BLOCK || !ipp_vertex_file(g, v) ||
		    ipp_vertex_line(g, v) <= 0 || !proc_instrumented(g, ipp_vertex_proc(g, v)))
			continue;
		h[nh].file = ipp_vertex_file(g, v);
		h[nh].line = ipp_vertex_line(g, v);
		h[nh++].v = v;
	}
	qsort(h, nh, sizeof(*h), head_cmp);
	l = ipp_xmalloc((nh + 1) * sizeof(*l));
	for (size_t i = 0; i < nh; i++) {
		if (n && l[n - 1].line == h[i].line && strcmp(l[n - 1].file, h[i].file) == 0) {
			if (c->vertex[h[i].v] > l[n - 1].count) {
				l[n - 1].count = c->vertex[h[i].v];
				l[n - 1].vertex = h[i].v;
			}
			continue;
		}
		l[n].file = h[i].file;
		l[n].line = h[i].line;
		l[n].count = c->vertex[h[i].v];
		l[n++].vertex = h[i].v;
	}
	free(h);
	*out = l;
	return n;
}
