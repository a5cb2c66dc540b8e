/* cut.c -- choosing cuts so that every region's path numbers fit.
 *
 * Region totals are psi_{Entry_P}(1) (and, in piecewise mode,
 * psi_{GEntry_P}(numUnbalRLPaths[Exit_P])).  Every psi has non-negative
 * coefficients and every vertex has at least one valid completion, so
 * psi_{Entry_P}(1) bounds the paths any region contributes through P.  But
 * it bounds only the vertices that a path from Entry_P counts, and the
 * plugin emits psi and rho as constants at every vertex: a return site r
 * after a continuing call to Q that cannot return (psi_c = a_Q * psi_r +
 * b_Q with a_Q = 0) and a procedure that no region reaches are bounded by
 * nothing.  The chooser therefore works bottom-up over the call graph and
 * makes every procedure fit on its own, reached or not: psi_v(1) <= limit
 * at every vertex v of P, Entry_P and GEntry_P included.  Then every Entry
 * region fits, and so does every psi and every rho of an intraprocedural
 * edge of G*fin (a prefix sum of its source's psi, eq. 24).
 *
 * Within a procedure P that does not fit:
 *  1. If P fits with all its interprocedural call sites summarized, apply
 *     Transformation 3 to those sites one at a time, coldest first by
 *     Ball-Larus static weight (ties: the bigger callee first, then the lower
 *     id), until P fits: interprocedural cuts lose the least.
 *  2. Otherwise walk P's DAG successors-first with a per-vertex budget
 *     tau = floor(limit / (|V_P| + 1)).  A vertex u whose path count exceeds
 *     tau is a call (summarize it) or has successors to cut: cut them coldest
 *     first (ties: most paths first) until u is down to sqrt(tau), leaving
 *     headroom so that its predecessors do not overflow again at once.  After the walk
 *     every vertex but Entry_P has at most tau paths (a call summarized,
 *     or every cuttable successor cut), reached from Entry_P or not, and
 *     Entry_P's at most |V_P|+1 successors have at most tau each: P fits.
 * Piecewise mode then checks GEntry regions top-down and summarizes call
 * sites on a procedure whose numUnbalRLPaths makes its GEntry region too big.
 * The result is verified by building G*fin.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include "internal.h"

void ipp_cuts_init(ipp_cuts *c)
{
	memset(c, 0, sizeof(*c));
}

void ipp_cuts_free(ipp_cuts *c)
{
	free(c->vertices);
	free(c->calls);
	ipp_cuts_init(c);
}

static int id_cmp(const void *x, const void *y)
{
	ipp_id a = *(const ipp_id *)x, b = *(const ipp_id *)y;
	return (a > b) - (a < b);
}

bool ipp_sorted_ids_have(const ipp_id *ids, size_t n, ipp_id x)
{
	return n && bsearch(&x, ids, n, sizeof(*ids), id_cmp) != NULL;
}

static void sorted_insert(ipp_id **a, size_t *n, ipp_id x)
{
	size_t i = *n;
	for (size_t k = 0; k < *n; k++)
		if ((*a)[k] == x)
			return;
	*a = ipp_xrealloc(*a, (*n + 1) * sizeof(ipp_id));
	while (i > 0 && (*a)[i - 1] > x) {
		(*a)[i] = (*a)[i - 1];
		i--;
	}
	(*a)[i] = x;
	(*n)++;
}

void ipp_cuts_add_vertex(ipp_cuts *c, ipp_id v)
{
	sorted_insert(&c->vertices, &c->nvertices, v);
}

void ipp_cuts_add_call(ipp_cuts *c, ipp_id call)
{
	sorted_insert(&c->calls, &c->ncalls, call);
}

struct cutctx {
	const ipp_graph *g;
	enum ipp_mode mode;
	mpz_srcptr limit;
	ipp_cuts *cuts;
	unsigned char *cutv;		/* per G* vertex */
	enum ipp_summary_why *status;	/* per G* vertex */
	mpz_t *entry_a, *entry_b;	/* per procedure, final once solved */
};

/* Paths of P counted with x = 1 at the local vertex li. */
static void count_at(const struct lproc *lp, int li, mpz_t out)
{
	mpz_add(out, lp->psi_a[li], lp->psi_b[li]);
}

/* The most paths at any vertex of P: max over its local vertices v of
 * psi_v(1), Entry_P and GEntry_P included. */
static void max_count(const struct lproc *lp, mpz_t out)
{
	mpz_t n;
	mpz_init(n);
	mpz_set_ui(out, 0);
	for (size_t i = 0; i < lp->nv; i++) {
		count_at(lp, (int)i, n);
		if (mpz_cmp(n, out) > 0)
			mpz_set(out, n);
	}
	mpz_clear(n);
}

/* Does P fit: psi_v(1) <= limit at every vertex v of P?  psi_{Entry_P}(1)
 * bounds only the vertices that a path from Entry_P counts.  After a
 * continuing call to a Q that cannot return (no same-level path from
 * Entry_Q to Exit_Q), psi_c = a_Q * psi_r + b_Q with a_Q = 0 drops psi_r,
 * so nothing bounds the return site r and what only r reaches; the plugin
 * still emits their psi and rho as constants.  Where Entry_P reaches every
 * vertex this is the same test as psi_{Entry_P}(1) <= limit. */
static bool proc_fits(struct cutctx *cx, const struct lproc *lp)
{
	mpz_t n;
	bool ok;
	mpz_init(n);
	max_count(lp, n);
	ok = mpz_cmp(n, cx->limit) <= 0;
	mpz_clear(n);
	return ok;
}

static struct lproc *rebuild(struct cutctx *cx, struct lproc *lp, ipp_id p)
{
	ipp_lproc_free(lp);
	lp = ipp_lproc_build(cx->g, cx->mode, p, cx->cutv, cx->status);
	ipp_lproc_solve(lp, cx->g, cx->entry_a, cx->entry_b);
	return lp;
}

static void summarize(struct cutctx *cx, ipp_id c)
{
	cx->status[c] = IPP_SUM_CUT;
	ipp_cuts_add_call(cx->cuts, c);
}

struct cand {
	ipp_id id;
	double weight;
	mpz_t size;
};

static int cand_cmp(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;
	int c;
	if (a->weight != b->weight)
		return a->weight < b->weight ? -1 : 1;
	c = mpz_cmp(b->size, a->size);
	if (c)
		return c;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* Step 1: summarize call sites of P, coldest first, until P fits. */
static struct lproc *cut_calls(struct cutctx *cx, struct lproc *lp, ipp_id p)
{
	const struct ipp_proc *pr = &cx->g->p[p];
	struct cand *cs = ipp_xmalloc((pr->ncalls + 1) * sizeof(*cs));
	size_t n = 0;
	for (size_t i = 0; i < pr->ncalls; i++) {
		ipp_id c = pr->calls[i], q = cx->g->v[c].callee;
		if (cx->status[c] != IPP_SUM_NONE)
			continue;
		/* a callee with psi = id adds no paths; summarizing it gains nothing */
		if (mpz_cmp_ui(cx->entry_a[q], 1) == 0 && mpz_sgn(cx->entry_b[q]) == 0)
			continue;
		cs[n].id = c;
		cs[n].weight = ipp_graph_vertex_weight(cx->g, c);
		mpz_init(cs[n].size);
		mpz_add(cs[n].size, cx->entry_a[q], cx->entry_b[q]);
		n++;
	}
	if (n)
		qsort(cs, n, sizeof(*cs), cand_cmp);
	for (size_t i = 0; i < n && !proc_fits(cx, lp); i++) {
		summarize(cx, cs[i].id);
		lp = rebuild(cx, lp, p);
	}
	for (size_t i = 0; i < n; i++)
		mpz_clear(cs[i].size);
	free(cs);
	return lp;
}

/* n(u) with x = 1 over the current (partly cut) local DAG. */
static void local_count(struct cutctx *cx, const struct lproc *lp, int u,
			const unsigned char *cutnow, mpz_t *cnt, mpz_t out)
{
	bool exit_seen = false;
	mpz_set_ui(out, 0);
	for (size_t k = 0; k < lp->nsucc[u]; k++) {
		const struct ledge *le = &lp->e[lp->succ[u][k]];
		if (le->kind == IPP_E_CALL) {
			ipp_id c = lp->vorig[u], q = cx->g->v[c].callee;
			int r = lp->lidx[c + 1];
			if (cx->status[c] != IPP_SUM_NONE) {
				mpz_set(out, cnt[r]);
			} else {
				mpz_mul(out, cx->entry_a[q], cnt[r]);
				mpz_add(out, out, cx->entry_b[q]);
			}
			return;
		}
		if (le->kind == IPP_E_SURR_EXIT ||
		    (le->kind == IPP_E_NORMAL && cutnow[le->dst])) {
			if (!exit_seen)
				mpz_add_ui(out, out, 1);
			exit_seen = true;
			continue;
		}
		mpz_add(out, out, cnt[le->dst]);
	}
}

/* Step 2: the per-vertex budget walk. */
static int cut_vertices(struct cutctx *cx, struct lproc *lp)
{
	const ipp_graph *g = cx->g;
	mpz_t tau, low, *cnt;
	unsigned char *cutnow = ipp_xcalloc(lp->nv, 1);
	struct cand *cs = NULL;
	size_t capcs = 0;
	int rc = 0;

	mpz_init(tau);
	mpz_init(low);
	mpz_fdiv_q_ui(tau, cx->limit, (unsigned long)(lp->nv + 1));
	if (mpz_sgn(tau) == 0)
		mpz_set_ui(tau, 1);	/* a small limit: cut_greedy() finishes the job */
	mpz_sqrt(low, tau);
	cnt = ipp_xmalloc(lp->nv * sizeof(mpz_t));
	for (size_t i = 0; i < lp->nv; i++)
		mpz_init(cnt[i]);
	for (size_t t = 0; t < lp->nv; t++) {
		int u = lp->topo[t];
		enum ipp_vkind k = lp->vkind[u];
		if (k == IPP_V_EXIT || k == IPP_V_GEXIT) {
			mpz_set_ui(cnt[u], 1);
			continue;
		}
		local_count(cx, lp, u, cutnow, cnt, cnt[u]);
		if (mpz_cmp(cnt[u], tau) <= 0 || k == IPP_V_ENTRY || k == IPP_V_GENTRY)
			continue;
		if (lp->nsucc[u] && lp->e[lp->succ[u][0]].kind == IPP_E_CALL) {
			summarize(cx, lp->vorig[u]);
			local_count(cx, lp, u, cutnow, cnt, cnt[u]);
			continue;
		}
		/* candidate successors: distinct cuttable targets of normal edges */
		size_t n = 0;
		for (size_t j = 0; j < lp->nsucc[u]; j++) {
			const struct ledge *le = &lp->e[lp->succ[u][j]];
			bool dup = false;
			if (le->kind != IPP_E_NORMAL || cutnow[le->dst] ||
			    (lp->vkind[le->dst] != IPP_V_BLOCK && lp->vkind[le->dst] != IPP_V_CALL) ||
			    mpz_cmp_ui(cnt[le->dst], 1) <= 0)
				continue;
			for (size_t q = 0; q < n; q++)
				if (cs[q].id == le->dst)
					dup = true;
			if (dup)
				continue;
			IPP_ARRAY_GROW(cs, n, capcs);
			cs[n].id = le->dst;
			cs[n].weight = ipp_graph_vertex_weight(g, lp->vorig[le->dst]);
			mpz_init_set(cs[n].size, cnt[le->dst]);
			n++;
		}
		if (n)
			qsort(cs, n, sizeof(*cs), cand_cmp);
		/* Cut down to sqrt(tau), not just tau: a vertex left just under the
		 * budget would overflow again one level up (a chain of diamonds
		 * would lose a branch per level). */
		for (size_t q = 0; q < n && mpz_cmp(cnt[u], low) > 0; q++) {
			cutnow[cs[q].id] = 1;
			local_count(cx, lp, u, cutnow, cnt, cnt[u]);
		}
		for (size_t q = 0; q < n; q++)
			mpz_clear(cs[q].size);
	}
	for (size_t i = 0; i < lp->nv; i++) {
		if (cutnow[i]) {
			cx->cutv[lp->vorig[i]] = 1;
			ipp_cuts_add_vertex(cx->cuts, lp->vorig[i]);
		}
		mpz_clear(cnt[i]);
	}
	free(cnt);
	free(cs);
	free(cutnow);
	mpz_clear(tau);
	mpz_clear(low);
	return rc;
}

/* Step 3, for limits too small for the budget walk's guarantee: cut the
 * cuttable vertex with the most paths (coldest on ties) until P fits or
 * nothing is left to cut. */
static struct lproc *cut_greedy(struct cutctx *cx, struct lproc *lp, ipp_id p)
{
	mpz_t n, best;
	mpz_inits(n, best, NULL);
	while (!proc_fits(cx, lp)) {
		int bi = -1;
		double bw = 0.0;
		for (size_t i = 0; i < lp->nbase; i++) {
			enum ipp_vkind k = lp->vkind[i];
			double w;
			if ((k != IPP_V_BLOCK && k != IPP_V_CALL) || lp->cut[i])
				continue;
			count_at(lp, (int)i, n);
			if (mpz_cmp_ui(n, 1) <= 0)
				continue;
			w = ipp_graph_vertex_weight(cx->g, lp->vorig[i]);
			if (bi < 0 || mpz_cmp(n, best) > 0 || (mpz_cmp(n, best) == 0 && w < bw)) {
				bi = (int)i;
				bw = w;
				mpz_set(best, n);
			}
		}
		if (bi < 0)
			break;
		cx->cutv[lp->vorig[bi]] = 1;
		ipp_cuts_add_vertex(cx->cuts, lp->vorig[bi]);
		lp = rebuild(cx, lp, p);
	}
	mpz_clears(n, best, NULL);
	return lp;
}

/* Piecewise: GEntry regions, top-down.  Returns 1 if something was cut,
 * 0 if all fit, -1 on failure. */
static int cut_gentry(struct cutctx *cx, char *err, size_t errlen)
{
	const ipp_graph *g = cx->g;
	ipp_fin *f = ipp_fin_new(g, cx->mode, cx->cuts, err, errlen);
	mpz_t t;
	int rc = 0;
	if (!f)
		return -1;
	mpz_init(t);
	for (size_t r = 0; r < ipp_fin_nregions(f) && rc == 0; r++) {
		ipp_region_info ri;
		ipp_id best = IPP_NONE;
		double bw = 0.0;
		ipp_fin_region(f, (ipp_id)r, &ri);
		ipp_fin_region_total(f, (ipp_id)r, t);
		if (!ri.gentry || mpz_cmp(t, cx->limit) <= 0)
			continue;
		for (size_t c = 0; c < g->nv; c++) {
			double w;
			if (g->v[c].kind != IPP_V_CALL || cx->status[c] != IPP_SUM_NONE ||
			    g->v[c].callee != ri.proc)
				continue;
			w = ipp_graph_vertex_weight(g, (ipp_id)c);
			if (best == IPP_NONE || w < bw) {
				best = (ipp_id)c;
				bw = w;
			}
		}
		if (best == IPP_NONE) {
			ipp_seterr(err, errlen, "region %s cannot be cut to fit", ri.name);
			rc = -1;
		} else {
			summarize(cx, best);
			rc = 1;
		}
	}
	mpz_clear(t);
	ipp_fin_free(f);
	return rc;
}

int ipp_autocut(const ipp_graph *g, enum ipp_mode mode, const mpz_t limit,
		ipp_cuts *cuts, char *err, size_t errlen)
{
	struct cutctx cx;
	ipp_id *order;
	int rc = 0;

	if (mpz_cmp_ui(limit, 2) < 0) {
		ipp_seterr(err, errlen, "a path limit below 2 cannot be met");
		return -1;
	}
	if (ipp_graph_check(g, err, errlen) < 0)
		return -1;
	ipp_graph_derive(g);
	memset(&cx, 0, sizeof(cx));
	cx.g = g;
	cx.mode = mode;
	cx.limit = limit;
	cx.cuts = cuts;
	cx.cutv = ipp_xcalloc(g->nv, 1);
	for (size_t i = 0; i < cuts->nvertices; i++)
		cx.cutv[cuts->vertices[i]] = 1;
	cx.status = ipp_xcalloc(g->nv, sizeof(*cx.status));
	for (size_t i = 0; i < g->nv; i++)
		if (g->v[i].kind == IPP_V_CALL)
			cx.status[i] = ipp_call_status(g, mode, cuts, (ipp_id)i);
	cx.entry_a = ipp_xmalloc((g->np + 1) * sizeof(mpz_t));
	cx.entry_b = ipp_xmalloc((g->np + 1) * sizeof(mpz_t));
	for (size_t p = 0; p < g->np; p++) {
		mpz_init(cx.entry_a[p]);
		mpz_init(cx.entry_b[p]);
	}
	/* Summarizing more sites keeps a callee-first order valid.  Every
	 * procedure is made to fit, those no region reaches too: the plugin
	 * emits their numbers all the same (a continuing call site in one
	 * dead procedure calls the clone of another). */
	order = ipp_callee_first_order(g, cx.status);
	for (size_t k = 0; k < g->np && rc == 0; k++) {
		ipp_id p = order[k];
		struct lproc *lp = ipp_lproc_build(g, mode, p, cx.cutv, cx.status);
		if (!lp)
			continue;
		ipp_lproc_solve(lp, g, cx.entry_a, cx.entry_b);
		if (!proc_fits(&cx, lp)) {
			/* does P fit with all its call sites summarized? */
			const struct ipp_proc *pr = &g->p[p];
			enum ipp_summary_why *saved = ipp_xmalloc(pr->ncalls * sizeof(*saved) + 1);
			struct lproc *alone;
			bool alone_fits;
			for (size_t i = 0; i < pr->ncalls; i++) {
				saved[i] = cx.status[pr->calls[i]];
				if (saved[i] == IPP_SUM_NONE)
					cx.status[pr->calls[i]] = IPP_SUM_CUT;
			}
			alone = ipp_lproc_build(g, mode, p, cx.cutv, cx.status);
			ipp_lproc_solve(alone, g, cx.entry_a, cx.entry_b);
			alone_fits = proc_fits(&cx, alone);
			ipp_lproc_free(alone);
			for (size_t i = 0; i < pr->ncalls; i++)
				cx.status[pr->calls[i]] = saved[i];
			free(saved);
			if (alone_fits) {
				lp = cut_calls(&cx, lp, p);
			} else {
				rc = cut_vertices(&cx, lp);
				lp = rebuild(&cx, lp, p);
				if (rc == 0)
					lp = cut_greedy(&cx, lp, p);
			}
			if (rc == 0 && !proc_fits(&cx, lp)) {
				mpz_t m;
				char *s;
				mpz_init(m);
				max_count(lp, m);
				s = mpz_get_str(NULL, 10, m);
				ipp_seterr(err, errlen, "procedure %s cannot be cut below %s paths",
					   pr->asm_name, s);
				free(s);
				mpz_clear(m);
				rc = -1;
			}
		}
		if (rc == 0) {
			mpz_set(cx.entry_a[p], lp->psi_a[g->lidx[g->p[p].entry]]);
			mpz_set(cx.entry_b[p], lp->psi_b[g->lidx[g->p[p].entry]]);
		}
		ipp_lproc_free(lp);
	}
	while (rc == 0 && mode == IPP_MODE_PIECEWISE) {
		int r = cut_gentry(&cx, err, errlen);
		if (r <= 0) {
			rc = r;
			break;
		}
	}
	if (rc == 0) {
		/* verify the promise */
		ipp_fin *f = ipp_fin_new(g, mode, cuts, err, errlen);
		mpz_t t;
		if (!f)
			rc = -1;
		mpz_init(t);
		for (size_t r = 0; f && r < ipp_fin_nregions(f); r++) {
			ipp_fin_region_total(f, (ipp_id)r, t);
			if (mpz_cmp(t, limit) > 0) {
				ipp_region_info ri;
				ipp_fin_region(f, (ipp_id)r, &ri);
				ipp_seterr(err, errlen, "internal error: region %s still exceeds the "
					   "limit after cutting", ri.name);
				rc = -1;
				break;
			}
		}
		mpz_clear(t);
		ipp_fin_free(f);
	}
	for (size_t p = 0; p < g->np; p++) {
		mpz_clear(cx.entry_a[p]);
		mpz_clear(cx.entry_b[p]);
	}
	free(cx.entry_a);
	free(cx.entry_b);
	free(order);
	free(cx.cutv);
	free(cx.status);
	return rc;
}
