/* codec.c -- path numbers: encoding (Algorithms 5.1 and 6.1) and decoding
 * (Algorithm 5.2 and our piecewise counterpart), for complete paths and for
 * prefixes (partial paths).
 *
 * Both directions walk G*fin keeping numValidCompsFromExit (nvc) and a
 * stack of open calls, each with the nvc to restore when it returns.  In
 * an Entry region the region's own parenthesis "(P" is open at the bottom
 * of that stack ("marker"); a GEntry region (piecewise) starts with nothing
 * open, so its path may return past the procedure it started in: such an
 * unmatched return adds edgeValue and resets nvc to numUnbalRLPaths[Exit_S]
 * of the procedure S returned into (see docs/NUMBERING.md for why this is
 * numUnbalRLPaths[Exit_S] and not psi_r of it as printed in Algorithm 6.1).
 *
 * Decoding is greedy: at a vertex with several valid successors take the
 * last one whose rho(nvc) does not exceed what remains of the number.  rho
 * is nondecreasing along the successor list, so binary search finds it.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include "internal.h"

void ipp_path_init(ipp_path *p)
{
	memset(p, 0, sizeof(*p));
	p->region = IPP_NONE;
}

void ipp_path_free(ipp_path *p)
{
	free(p->edges);
	ipp_path_init(p);
}

void ipp_path_push(ipp_path *p, ipp_id e)
{
	IPP_ARRAY_GROW(p->edges, p->nedges, p->cap);
	p->edges[p->nedges++] = e;
}

struct open_call {
	ipp_id call;
	mpz_t nvc;		/* nvc to restore at the matching return */
};

struct walk {
	const ipp_fin *f;
	struct open_call *st;
	size_t depth, cap;
	bool marker;		/* the region's "(P" is open below the calls */
	mpz_t nvc;
};

static void walk_init(struct walk *w, const ipp_fin *f, ipp_id region)
{
	ipp_region_info ri;
	memset(w, 0, sizeof(*w));
	w->f = f;
	mpz_init(w->nvc);
	ipp_fin_region(f, region, &ri);
	ipp_fin_region_nvc(f, region, w->nvc);
	w->marker = !ri.gentry;
}

static void walk_push(struct walk *w, ipp_id call)
{
	if (w->depth == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 16;
		w->st = ipp_xrealloc(w->st, w->cap * sizeof(*w->st));
	}
	w->st[w->depth].call = call;
	mpz_init_set(w->st[w->depth].nvc, w->nvc);
	w->depth++;
	/* nvc := psi_r(nvc) for the return site r = call + 1 */
	ipp_lin_apply(w->nvc, *ipp_fin_psi_ref(w->f, call + 1, 0),
		      *ipp_fin_psi_ref(w->f, call + 1, 1), w->nvc);
}

static void walk_pop(struct walk *w)
{
	w->depth--;
	mpz_set(w->nvc, w->st[w->depth].nvc);
	mpz_clear(w->st[w->depth].nvc);
}

static void walk_free(struct walk *w)
{
	while (w->depth)
		walk_pop(w);
	free(w->st);
	mpz_clear(w->nvc);
}

/* After an unmatched return into procedure S: nvc := numUnbalRLPaths[Exit_S]. */
static void walk_unmatched_return(struct walk *w, ipp_id r)
{
	const ipp_graph *g = ipp_fin_graph(w->f);
	mpz_set(w->nvc, *ipp_fin_nurl_ref(w->f, ipp_proc_exit(g, ipp_fin_vproc(w->f, r))));
}

static ipp_id region_of_edge(const ipp_fin *f, ipp_id e)
{
	for (size_t r = 0; r < ipp_fin_nregions(f); r++) {
		ipp_region_info ri;
		ipp_fin_region(f, (ipp_id)r, &ri);
		if (ri.edge == e)
			return (ipp_id)r;
	}
	return IPP_NONE;
}

int ipp_encode(const ipp_fin *f, const ipp_id *edges, size_t n, ipp_id *region, mpz_t num,
	       ipp_id **stack, size_t *nstack, char *err, size_t errlen)
{
	struct walk w;
	ipp_id r, cur;
	bool done = false;
	mpz_t t;

	if (stack) {
		*stack = NULL;
		*nstack = 0;
	}
	if (n == 0 || edges[0] < 0 || (size_t)edges[0] >= ipp_fin_nedges(f) ||
	    (r = region_of_edge(f, edges[0])) == IPP_NONE) {
		ipp_seterr(err, errlen, "a path must start with a region's global-entry edge");
		return -1;
	}
	walk_init(&w, f, r);
	mpz_set_ui(num, 0);
	mpz_init(t);
	cur = ipp_fin_edst(f, edges[0]);
	for (size_t i = 1; i < n; i++) {
		ipp_id e = edges[i];
		enum ipp_ekind k;
		if (done) {
			ipp_seterr(err, errlen, "edge %zu follows the end of the path", i);
			goto fail;
		}
		if (e < 0 || (size_t)e >= ipp_fin_nedges(f) || ipp_fin_esrc(f, e) != cur) {
			ipp_seterr(err, errlen, "edge %zu (%d) does not leave vertex %d", i, (int)e,
				   (int)cur);
			goto fail;
		}
		k = ipp_fin_ekind(f, e);
		switch (k) {
		case IPP_E_CALL:
			walk_push(&w, cur);
			break;
		case IPP_E_RETURN:
			if (w.depth > 0) {
				if (w.st[w.depth - 1].call != ipp_fin_ecall(f, e)) {
					ipp_seterr(err, errlen, "edge %zu returns to the wrong call site", i);
					goto fail;
				}
				walk_pop(&w);
			} else if (w.marker) {
				ipp_seterr(err, errlen, "edge %zu returns past the region's entry", i);
				goto fail;
			} else {
				mpz_add(num, num, *ipp_fin_rho_ref(f, e, 1));	/* edgeValue */
				walk_unmatched_return(&w, ipp_fin_edst(f, e));
			}
			break;
		case IPP_E_GLOBAL_EXIT:
			if (ipp_fin_vkind(f, cur) == IPP_V_EXIT) {
				if (w.depth > 0) {
					ipp_seterr(err, errlen, "edge %zu leaves with calls open", i);
					goto fail;
				}
				if (!w.marker)
					mpz_add(num, num, *ipp_fin_rho_ref(f, e, 1));
			}
			done = true;
			break;
		case IPP_E_GLOBAL_ENTRY:
			ipp_seterr(err, errlen, "edge %zu is a second global-entry edge", i);
			goto fail;
		default:
			/* intraprocedural: pathNum += rho_e(nvc) */
			ipp_lin_apply(t, *ipp_fin_rho_ref(f, e, 0), *ipp_fin_rho_ref(f, e, 1), w.nvc);
			mpz_add(num, num, t);
			break;
		}
		cur = ipp_fin_edst(f, e);
	}
	*region = r;
	if (!done && stack) {
		*nstack = w.depth + 1;
		*stack = ipp_xmalloc(*nstack * sizeof(ipp_id));
		for (size_t i = 0; i < w.depth; i++)
			(*stack)[i] = w.st[i].call;
		(*stack)[w.depth] = cur;
	}
	mpz_clear(t);
	walk_free(&w);
	return 0;
fail:
	mpz_clear(t);
	walk_free(&w);
	return -1;
}

static bool at_stop(const struct walk *w, ipp_id v, const ipp_id *stop, size_t nstop)
{
	if (nstop != w->depth + 1 || stop[w->depth] != v)
		return false;
	for (size_t i = 0; i < w->depth; i++)
		if (w->st[i].call != stop[i])
			return false;
	return true;
}

/* The last successor index i of v with value(i) <= rem, where value is
 * rho(nvc) (or edgeValue when use_b_only). */
static size_t choose_succ(const ipp_fin *f, ipp_id v, const mpz_t nvc, const mpz_t rem,
			  bool use_b_only, mpz_t val)
{
	size_t lo = 0, hi = ipp_fin_nsucc(f, v);	/* answer in [lo, hi) ; succ 0 has value 0 */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		ipp_id e = ipp_fin_succ(f, v, mid);
		if (use_b_only)
			mpz_set(val, *ipp_fin_rho_ref(f, e, 1));
		else
			ipp_lin_apply(val, *ipp_fin_rho_ref(f, e, 0), *ipp_fin_rho_ref(f, e, 1), nvc);
		if (mpz_cmp(val, rem) <= 0)
			lo = mid;
		else
			hi = mid;
	}
	{
		ipp_id e = ipp_fin_succ(f, v, lo);
		if (use_b_only)
			mpz_set(val, *ipp_fin_rho_ref(f, e, 1));
		else
			ipp_lin_apply(val, *ipp_fin_rho_ref(f, e, 0), *ipp_fin_rho_ref(f, e, 1), nvc);
	}
	return lo;
}

static int decode_walk(const ipp_fin *f, ipp_id region, const mpz_t num, const ipp_id *stop,
		       size_t nstop, ipp_path *out, char *err, size_t errlen)
{
	struct walk w;
	ipp_region_info ri;
	mpz_t rem, val, total;
	ipp_id v;
	int rc = -1;

	ipp_path_free(out);
	if (region < 0 || (size_t)region >= ipp_fin_nregions(f)) {
		ipp_seterr(err, errlen, "no region %d", (int)region);
		return -1;
	}
	ipp_fin_region(f, region, &ri);
	mpz_init(total);
	ipp_fin_region_total(f, region, total);
	if (mpz_sgn(num) < 0 || mpz_cmp(num, total) >= 0) {
		char *s = mpz_get_str(NULL, 10, num), *t = mpz_get_str(NULL, 10, total);
		ipp_seterr(err, errlen, "path number %s is out of range for region %s (%s paths)",
			   s, ri.name, t);
		free(s);
		free(t);
		mpz_clear(total);
		return -1;
	}
	mpz_clear(total);
	mpz_init_set(rem, num);
	mpz_init(val);
	walk_init(&w, f, region);
	out->region = region;
	ipp_path_push(out, ri.edge);
	v = ipp_fin_edst(f, ri.edge);
	for (;;) {
		enum ipp_vkind k = ipp_fin_vkind(f, v);
		ipp_id e;
		bool done = false;
		if (stop && mpz_sgn(rem) == 0 && at_stop(&w, v, stop, nstop)) {
			rc = 0;
			break;
		}
		if (ipp_fin_nsucc(f, v) == 0) {
			ipp_seterr(err, errlen, "vertex %d has no successor (corrupt graph)", (int)v);
			break;
		}
		if (k == IPP_V_EXIT) {
			if (w.depth > 0) {
				e = ipp_fin_ret_edge(f, w.st[w.depth - 1].call);
				walk_pop(&w);
			} else if (w.marker) {
				e = ipp_fin_succ(f, v, ipp_fin_nsucc(f, v) - 1);	/* GLOBAL_EXIT */
				done = true;
			} else {
				size_t i = choose_succ(f, v, w.nvc, rem, true, val);
				e = ipp_fin_succ(f, v, i);
				mpz_sub(rem, rem, val);
				if (ipp_fin_ekind(f, e) == IPP_E_RETURN)
					walk_unmatched_return(&w, ipp_fin_edst(f, e));
				else
					done = true;
			}
		} else if (k == IPP_V_GEXIT) {
			e = ipp_fin_succ(f, v, 0);
			done = true;
		} else if (ipp_fin_ekind(f, ipp_fin_succ(f, v, 0)) == IPP_E_CALL) {
			e = ipp_fin_succ(f, v, 0);
			walk_push(&w, v);
		} else {
			size_t i = choose_succ(f, v, w.nvc, rem, false, val);
			e = ipp_fin_succ(f, v, i);
			mpz_sub(rem, rem, val);
		}
		ipp_path_push(out, e);
		v = ipp_fin_edst(f, e);
		if (done) {
			if (stop)
				ipp_seterr(err, errlen, "no prefix of region %s stops there with that number",
					   ri.name);
			else if (mpz_sgn(rem) != 0)
				ipp_seterr(err, errlen, "internal error: %s left over after decoding",
					   "a remainder");
			else
				rc = 0;
			break;
		}
	}
	mpz_clear(rem);
	mpz_clear(val);
	walk_free(&w);
	if (rc < 0)
		ipp_path_free(out);
	return rc;
}

int ipp_decode(const ipp_fin *f, ipp_id region, const mpz_t num, ipp_path *out,
	       char *err, size_t errlen)
{
	return decode_walk(f, region, num, NULL, 0, out, err, errlen);
}

int ipp_decode_partial(const ipp_fin *f, ipp_id region, const mpz_t num,
		       const ipp_id *stack, size_t nstack, ipp_path *out,
		       char *err, size_t errlen)
{
	if (nstack == 0) {
		ipp_seterr(err, errlen, "empty stop stack");
		return -1;
	}
	return decode_walk(f, region, num, stack, nstack, out, err, errlen);
}
