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
 * The walk is written once and run in one of two arithmetics: GMP, or
 * uint64_t over the 64-bit copies of the same psi, rho and nurl values for
 * a region fin_u64.c found narrow (docs/NUMBERING.md, "Decoding in 64
 * bits").  Encoding is always GMP.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include "fin_internal.h"

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

static inline void path_push(ipp_path *p, ipp_id e)
{
	IPP_ARRAY_GROW(p->edges, p->nedges, p->cap);
	p->edges[p->nedges++] = e;
}

void ipp_path_push(ipp_path *p, ipp_id e)
{
	path_push(p, e);
}

/* ------------------------------------------------------------------ */
/* The walk: nvc and the stack of open calls                           */
/* ------------------------------------------------------------------ */

/* Every function of a walk is inlined where it is called, so that 'wide'
 * is a constant there. */
#define WALK_FN static inline __attribute__((always_inline))

/* A walk keeps its numbers either as GMP integers (WIDE: ipp_encode, and
 * decoding a region that is not narrow) or as uint64_t (NARROW: decoding a
 * narrow region, fin_u64.c).  The functions below take 'wide' as a
 * parameter so that the compiler folds it away in each caller; a narrow
 * walk reads the *64 images of the very psi, rho and nurl values a wide
 * walk reads, and sets 'overflow' instead of passing 2^64 - 1. */
struct open_call {
	ipp_id call;
	uint64_t nvc64;		/* narrow: nvc to restore at the matching return */
	mpz_t nvc;		/* wide: the same */
};

struct walk {
	const ipp_fin *f;
	struct open_call *st;
	size_t depth, cap;
	bool marker;		/* the region's "(P" is open below the calls */
	bool wide;
	bool overflow;		/* narrow: a value did not fit 64 bits */
	uint64_t nvc64;		/* narrow */
	mpz_t nvc;		/* wide */
};

/* a * x + b; false if it does not fit 64 bits */
WALK_FN bool lin64(uint64_t a, uint64_t b, uint64_t x, uint64_t *out)
{
	return !__builtin_mul_overflow(a, x, out) && !__builtin_add_overflow(*out, b, out);
}

WALK_FN void walk_init(struct walk *w, const ipp_fin *f, ipp_id region, bool wide)
{
	const struct fregion *r = &f->r[region];
	w->f = f;
	w->st = NULL;
	w->depth = w->cap = 0;
	w->marker = !r->gentry;
	w->wide = wide;
	w->overflow = false;
	w->nvc64 = r->nvc64;
	if (wide)
		mpz_init_set(w->nvc, r->nvc);
}

WALK_FN void walk_push(struct walk *w, ipp_id call, bool wide)
{
	/* nvc := psi_r(nvc) for the return site r = call + 1 */
	const struct fvertex *r = &w->f->v[call + 1];
	struct open_call *o;
	if (w->depth == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 16;
		w->st = ipp_xrealloc(w->st, w->cap * sizeof(*w->st));
	}
	o = &w->st[w->depth++];
	o->call = call;
	if (wide) {
		mpz_init_set(o->nvc, w->nvc);
		ipp_lin_apply(w->nvc, r->a, r->b, w->nvc);
	} else {
		o->nvc64 = w->nvc64;
		if (!lin64(r->a64, r->b64, w->nvc64, &w->nvc64))
			w->overflow = true;
	}
}

WALK_FN void walk_pop(struct walk *w, bool wide)
{
	struct open_call *o = &w->st[--w->depth];
	if (wide) {
		mpz_set(w->nvc, o->nvc);
		mpz_clear(o->nvc);
	} else {
		w->nvc64 = o->nvc64;
	}
}

WALK_FN void walk_free(struct walk *w)
{
	if (w->wide) {
		while (w->depth)
			walk_pop(w, true);
		mpz_clear(w->nvc);
	}
	free(w->st);
}

/* After an unmatched return into procedure S: nvc := numUnbalRLPaths[Exit_S]. */
WALK_FN void walk_unmatched_return(struct walk *w, ipp_id r, bool wide)
{
	const ipp_fin *f = w->f;
	const struct fvertex *x = &f->v[f->g->p[f->v[r].proc].exit];
	if (wide)
		mpz_set(w->nvc, x->nurl);
	else
		w->nvc64 = x->nurl64;
}

static ipp_id region_of_edge(const ipp_fin *f, ipp_id e)
{
	for (size_t r = 0; r < f->nr; r++)
		if (f->r[r].edge == e)
			return (ipp_id)r;
	return IPP_NONE;
}

/* ------------------------------------------------------------------ */
/* Encoding (always wide: its input is a path, not a number)            */
/* ------------------------------------------------------------------ */

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
	if (n == 0 || edges[0] < 0 || (size_t)edges[0] >= f->ne ||
	    (r = region_of_edge(f, edges[0])) == IPP_NONE) {
		ipp_seterr(err, errlen, "a path must start with a region's global-entry edge");
		return -1;
	}
	walk_init(&w, f, r, true);
	mpz_set_ui(num, 0);
	mpz_init(t);
	cur = f->e[edges[0]].dst;
	for (size_t i = 1; i < n; i++) {
		ipp_id e = edges[i];
		const struct fedge *fe;
		if (done) {
			ipp_seterr(err, errlen, "edge %zu follows the end of the path", i);
			goto fail;
		}
		if (e < 0 || (size_t)e >= f->ne || f->e[e].src != cur) {
			ipp_seterr(err, errlen, "edge %zu (%d) does not leave vertex %d", i, (int)e,
				   (int)cur);
			goto fail;
		}
		fe = &f->e[e];
		switch (fe->kind) {
		case IPP_E_CALL:
			walk_push(&w, cur, true);
			break;
		case IPP_E_RETURN:
			if (w.depth > 0) {
				if (w.st[w.depth - 1].call != fe->call) {
					ipp_seterr(err, errlen, "edge %zu returns to the wrong call site", i);
					goto fail;
				}
				walk_pop(&w, true);
			} else if (w.marker) {
				ipp_seterr(err, errlen, "edge %zu returns past the region's entry", i);
				goto fail;
			} else {
				mpz_add(num, num, fe->b);	/* edgeValue */
				walk_unmatched_return(&w, fe->dst, true);
			}
			break;
		case IPP_E_GLOBAL_EXIT:
			if (f->v[cur].kind == IPP_V_EXIT) {
				if (w.depth > 0) {
					ipp_seterr(err, errlen, "edge %zu leaves with calls open", i);
					goto fail;
				}
				if (!w.marker)
					mpz_add(num, num, fe->b);
			}
			done = true;
			break;
		case IPP_E_GLOBAL_ENTRY:
			ipp_seterr(err, errlen, "edge %zu is a second global-entry edge", i);
			goto fail;
		default:
			/* intraprocedural: pathNum += rho_e(nvc) */
			ipp_lin_apply(t, fe->a, fe->b, w.nvc);
			mpz_add(num, num, t);
			break;
		}
		cur = fe->dst;
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

/* ------------------------------------------------------------------ */
/* Decoding                                                             */
/* ------------------------------------------------------------------ */

struct ipp_decode_stats ipp_decode_stats;

WALK_FN bool at_stop(const struct walk *w, ipp_id v, const ipp_id *stop, size_t nstop)
{
	if (nstop != w->depth + 1 || stop[w->depth] != v)
		return false;
	for (size_t i = 0; i < w->depth; i++)
		if (w->st[i].call != stop[i])
			return false;
	return true;
}

/* What remains of the number being decoded, and a successor's value:
 * narrow walks use u, wide walks z. */
struct num {
	uint64_t u;
	mpz_t z;
};

/* val := the value of edge e at the walk's nvc: rho_e(nvc), or edgeValue
 * (rho's b) when b_only.  Returns whether val <= rem.  A narrow value
 * that does not fit 64 bits exceeds every rem. */
WALK_FN bool value_le(struct walk *w, ipp_id e, bool b_only, const struct num *rem,
			    struct num *val, bool wide)
{
	const struct fedge *fe = &w->f->e[e];
	if (wide) {
		if (b_only)
			mpz_set(val->z, fe->b);
		else
			ipp_lin_apply(val->z, fe->a, fe->b, w->nvc);
		return mpz_cmp(val->z, rem->z) <= 0;
	}
	if (b_only) {
		val->u = fe->b64;
		return val->u <= rem->u;
	}
	return lin64(fe->a64, fe->b64, w->nvc64, &val->u) && val->u <= rem->u;
}

/* Takes the last successor i of vx whose value does not exceed rem (values
 * are nondecreasing along the successor list and the first is 0, so binary
 * search finds it) and subtracts its value from rem.  Returns i.  A narrow
 * walk relies on the first value being 0 (fin_u64.c checks it) and
 * subtracts the value it compared. */
WALK_FN size_t take_succ(struct walk *w, const struct fvertex *vx, bool b_only,
			 struct num *rem, struct num *val, bool wide)
{
	size_t lo = 0, hi = vx->nsucc;	/* answer in [lo, hi) */
	uint64_t taken = 0;		/* narrow: the value of succ[lo] */
	if (!wide && hi <= 2) {		/* most vertices: the same search, unrolled */
		if (hi == 2 && value_le(w, vx->succ[1], b_only, rem, val, wide)) {
			rem->u -= val->u;
			return 1;
		}
		return 0;
	}
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (value_le(w, vx->succ[mid], b_only, rem, val, wide)) {
			lo = mid;
			taken = val->u;
		} else {
			hi = mid;
		}
	}
	if (wide) {
		value_le(w, vx->succ[lo], b_only, rem, val, wide);
		mpz_sub(rem->z, rem->z, val->z);
	} else {
		rem->u -= taken;	/* taken <= rem: it was compared */
	}
	return lo;
}

/* The decoding walk (Algorithm 5.2, and its piecewise counterpart; with a
 * stop stack, the prefix), in one arithmetic.  rem->u or rem->z holds the
 * number, already checked to be in range.  Returns 0, -1 with a message,
 * or DECODE_WIDEN when a narrow walk overflowed. */
#define DECODE_WIDEN (-2)
WALK_FN int decode_walk(const ipp_fin *f, ipp_id region, struct num *rem, const ipp_id *stop, size_t nstop,
	    ipp_path *out, char *err, size_t errlen, bool wide)
{
	const struct fregion *ri = &f->r[region];
	ipp_path path = *out;	/* a copy the compiler keeps in registers */
	struct walk w;
	struct num val;
	ipp_id v;
	int rc = -1;

	if (wide)
		mpz_init(val.z);
	walk_init(&w, f, region, wide);
	path.region = region;
	path.active = 0;
	path_push(&path, ri->edge);
	v = f->e[ri->edge].dst;
	for (;;) {
		const struct fvertex *vx = &f->v[v];
		enum ipp_ekind k;
		ipp_id e;
		if (stop && (wide ? mpz_sgn(rem->z) == 0 : rem->u == 0) &&
		    at_stop(&w, v, stop, nstop)) {
			rc = 0;
			break;
		}
		switch (vx->step) {
		case FIN_STEP_CHOOSE:
			e = vx->succ[take_succ(&w, vx, false, rem, &val, wide)];
			k = f->e[e].kind;
			if (k == IPP_E_SURR_ENTRY || k == IPP_E_SPLIT_SURR)
				path.active = path.nedges;
			break;
		case FIN_STEP_CALL:
			e = vx->succ[0];
			walk_push(&w, v, wide);
			if (!wide && w.overflow) {	/* nvc past 64 bits */
				rc = DECODE_WIDEN;
				goto out;
			}
			break;
		case FIN_STEP_EXIT:
			if (w.depth > 0) {
				e = f->v[w.st[w.depth - 1].call].ret_edge;
				walk_pop(&w, wide);
				break;
			}
			if (w.marker) {
				e = vx->succ[vx->nsucc - 1];	/* GLOBAL_EXIT */
				goto last;
			}
			e = vx->succ[take_succ(&w, vx, true, rem, &val, wide)];
			if (f->e[e].kind != IPP_E_RETURN)
				goto last;
			walk_unmatched_return(&w, f->e[e].dst, wide);
			break;
		case FIN_STEP_GEXIT:
			e = vx->succ[0];
			goto last;
		default:
			ipp_seterr(err, errlen, "vertex %d has no successor (corrupt graph)", (int)v);
			goto out;
		}
		path_push(&path, e);
		v = f->e[e].dst;
		continue;
last:		/* e ends the path */
		path_push(&path, e);
		if (stop)
			ipp_seterr(err, errlen, "no prefix of region %s stops there with that number",
				   ri->name);
		else if (wide ? mpz_sgn(rem->z) != 0 : rem->u != 0)
			ipp_seterr(err, errlen, "internal error: %s left over after decoding",
				   "a remainder");
		else
			rc = 0;
		break;
	}
out:
	if (wide)
		mpz_clear(val.z);
	walk_free(&w);
	*out = path;
	return rc;
}

static int decode_narrow(const ipp_fin *f, ipp_id region, uint64_t num, const ipp_id *stop,
			 size_t nstop, ipp_path *out, char *err, size_t errlen)
{
	struct num rem;
	rem.u = num;
	/* complete paths, the many, get a walk with no stop test */
	if (stop == NULL)
		return decode_walk(f, region, &rem, NULL, 0, out, err, errlen, false);
	return decode_walk(f, region, &rem, stop, nstop, out, err, errlen, false);
}

static int decode_wide(const ipp_fin *f, ipp_id region, const mpz_t num, const ipp_id *stop,
		       size_t nstop, ipp_path *out, char *err, size_t errlen)
{
	struct num rem;
	int rc;
	mpz_init_set(rem.z, num);
	rc = decode_walk(f, region, &rem, stop, nstop, out, err, errlen, true);
	mpz_clear(rem.z);
	return rc;
}

static bool in_range64(const struct fregion *r, uint64_t num)
{
	return !r->empty && num <= r->max64;
}

bool ipp_fin_region_has(const ipp_fin *f, ipp_id r, const ipp_pnum *num)
{
	return num->big ? mpz_cmp(num->big, f->r[r].total) < 0 : in_range64(&f->r[r], num->u);
}

/* Decodes the number num (or, when num is NULL, num64) of region: range
 * checks, then the narrow walk where the region allows it and arith does
 * not forbid it, else the wide one. */
static int decode(const ipp_fin *f, ipp_id region, const mpz_t num, uint64_t num64,
		  const ipp_id *stop, size_t nstop, enum ipp_arith arith, ipp_path *out,
		  char *err, size_t errlen)
{
	const struct fregion *r;
	bool small;
	int rc;

	/* keep the edge buffer: a caller decoding many numbers reuses it */
	out->region = IPP_NONE;
	out->nedges = 0;
	if (region < 0 || (size_t)region >= f->nr) {
		ipp_seterr(err, errlen, "no region %d", (int)region);
		goto fail;
	}
	r = &f->r[region];
	if (num ? mpz_sgn(num) < 0 || mpz_cmp(num, r->total) >= 0 : !in_range64(r, num64)) {
		char *s, *t = mpz_get_str(NULL, 10, r->total);
		mpz_t z;
		mpz_init(z);
		if (num)
			mpz_set(z, num);
		else
			ipp_mpz_set_u64(z, num64);
		s = mpz_get_str(NULL, 10, z);
		mpz_clear(z);
		ipp_seterr(err, errlen, "path number %s is out of range for region %s (%s paths)",
			   s, r->name, t);
		free(s);
		free(t);
		goto fail;
	}
	small = num ? ipp_mpz_get_u64(num, &num64) : true;
	if (arith != IPP_ARITH_GMP && r->narrow && small) {
		rc = decode_narrow(f, region, num64, stop, nstop, out, err, errlen);
		if (rc != DECODE_WIDEN) {
			ipp_decode_stats.narrow++;
			goto done;
		}
		ipp_decode_stats.widened++;
		out->nedges = 0;
		if (arith == IPP_ARITH_U64) {
			ipp_seterr(err, errlen, "region %s: a value passed 64 bits", r->name);
			goto fail;
		}
	} else if (arith == IPP_ARITH_U64) {
		ipp_seterr(err, errlen, "region %s is not decoded in 64 bits", r->name);
		goto fail;
	}
	ipp_decode_stats.wide++;
	if (num) {
		rc = decode_wide(f, region, num, stop, nstop, out, err, errlen);
	} else {
		mpz_t z;
		mpz_init(z);
		ipp_mpz_set_u64(z, num64);
		rc = decode_wide(f, region, z, stop, nstop, out, err, errlen);
		mpz_clear(z);
	}
done:
	if (rc == 0)
		return 0;
fail:
	ipp_path_free(out);
	return -1;
}

static int stack_given(size_t nstack, char *err, size_t errlen)
{
	if (nstack == 0) {
		ipp_seterr(err, errlen, "empty stop stack");
		return -1;
	}
	return 0;
}

int ipp_decode(const ipp_fin *f, ipp_id region, const mpz_t num, ipp_path *out,
	       char *err, size_t errlen)
{
	return decode(f, region, num, 0, NULL, 0, IPP_ARITH_AUTO, out, err, errlen);
}

int ipp_decode_partial(const ipp_fin *f, ipp_id region, const mpz_t num,
		       const ipp_id *stack, size_t nstack, ipp_path *out,
		       char *err, size_t errlen)
{
	if (stack_given(nstack, err, errlen) < 0)
		return -1;
	return decode(f, region, num, 0, stack, nstack, IPP_ARITH_AUTO, out, err, errlen);
}

int ipp_decode_pnum(const ipp_fin *f, ipp_id region, const ipp_pnum *num, const ipp_id *stack,
		    size_t nstack, ipp_path *out, char *err, size_t errlen)
{
	if (stack && stack_given(nstack, err, errlen) < 0)
		return -1;
	return decode(f, region, num->big, num->u, stack, nstack, IPP_ARITH_AUTO, out, err,
		      errlen);
}

int ipp_decode_arith(const ipp_fin *f, ipp_id region, const mpz_t num, const ipp_id *stack,
		     size_t nstack, enum ipp_arith arith, ipp_path *out, char *err,
		     size_t errlen)
{
	return decode(f, region, num, 0, nstack ? stack : NULL, nstack, arith, out, err, errlen);
}

bool ipp_fin_region_narrow(const ipp_fin *f, ipp_id r)
{
	return f->r[r].narrow;
}
