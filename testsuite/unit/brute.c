/* brute.c -- a brute-force oracle for the ipp numbering core.
 *
 * See brute.h for what is computed and from which definitions.  Nothing in
 * this file calls ipp_fin_psi, ipp_fin_rho or ipp_fin_num_unbal_rl: the
 * core's encoder and decoder are only ever the *subject* of a check, and the
 * expected values come from walking G*fin with a parenthesis stack.
 *
 * Invariants relied on:
 *  - a walk starts with a region's GLOBAL_ENTRY edge and consecutive edges
 *    share a vertex (the walk only follows ipp_fin_succ, and checks that
 *    ipp_fin_esrc agrees);
 *  - the parenthesis stack holds call vertices (>= 0) for "(c" and
 *    PROC_MARK(P) (< -1) for "(P"; only a region's first edge pushes a
 *    PROC_MARK, so it is always at the bottom;
 *  - the enumerator visits successors in successor order, so complete paths
 *    come out in increasing definition number, numbered 0, 1, 2, ...
 *    (Theorem 4.1); this is asserted as a self-check of the oracle.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "brute.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROC_MARK(p) ((ipp_id)(-2 - (p)))
#define MAX_PATH_LEN 100000u	/* a longer walk means G*fin is not finite */
#define MAX_STACK 20000u

/* ------------------------------------------------------------------ */
/* Small helpers                                                        */
/* ------------------------------------------------------------------ */
typedef struct idvec {
	ipp_id *v;
	size_t n, cap;
} idvec;

static void iv_push(idvec *s, ipp_id x)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 32;
		s->v = realloc(s->v, s->cap * sizeof *s->v);
		if (!s->v) {
			perror("realloc");
			abort();
		}
	}
	s->v[s->n++] = x;
}

static void iv_free(idvec *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		perror("malloc");
		abort();
	}
	return p;
}

static bool same_edges(const ipp_id *a, size_t na, const ipp_id *b, size_t nb)
{
	return na == nb && (na == 0 || memcmp(a, b, na * sizeof *a) == 0);
}

void brute_print_path(const ipp_fin *f, const ipp_id *edges, size_t n)
{
	printf("    path (%zu edges):", n);
	for (size_t i = 0; i < n; i++) {
		ipp_id e = edges[i];
		if (e < 0 || (size_t)e >= ipp_fin_nedges(f)) {
			printf(" e%d[?]", (int)e);
			continue;
		}
		printf(" e%d[%d->%d %s]", (int)e, (int)ipp_fin_esrc(f, e), (int)ipp_fin_edst(f, e),
		       ipp_ekind_name(ipp_fin_ekind(f, e)));
	}
	printf("\n");
}

static void print_ids(const char *what, const ipp_id *v, size_t n)
{
	printf("    %s: [", what);
	for (size_t i = 0; i < n; i++)
		printf("%s%d", i ? " " : "", (int)v[i]);
	printf("]\n");
}

/* Failure reporting shared by both engines. */
struct reporter {
	const ipp_fin *f;
	const char *label;
	unsigned max;
	unsigned long fails;
};

static void fail(struct reporter *rp, ipp_id region, const ipp_id *edges, size_t n,
		 const char *fmt, ...)
{
	rp->fails++;
	if (rp->fails > rp->max)
		return;
	ipp_region_info ri = { .proc = IPP_NONE, .name = "?" };
	if (region >= 0 && (size_t)region < ipp_fin_nregions(rp->f))
		ipp_fin_region(rp->f, region, &ri);
	printf("\nFAIL [%s] mode %s, region %d (%s): ", rp->label,
	       ipp_mode_name(ipp_fin_mode(rp->f)), (int)region, ri.name ? ri.name : "?");
	va_list ap;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (edges)
		brute_print_path(rp->f, edges, n);
	fflush(stdout);
}

/* ------------------------------------------------------------------ */
/* Labels and the parenthesis stack                                     */
/* ------------------------------------------------------------------ */
enum label {
	LAB_E,		/* e */
	LAB_OPEN_CALL,	/* "(c": call vertex -> Entry_Q */
	LAB_CLOSE_CALL,	/* ")c": Exit_Q -> return site */
	LAB_OPEN_PROC,	/* "(P": Entry_global -> Entry_P */
	LAB_START,	/* e:    Entry_global -> GEntry_P */
	LAB_CLOSE_PROC,	/* ")P": Exit_P -> Exit_global */
	LAB_END,	/* e:    GExit_P -> Exit_global */
	LAB_BAD		/* an edge of a shape the paper does not have */
};

static enum label edge_label(const ipp_fin *f, ipp_id e)
{
	ipp_id s = ipp_fin_esrc(f, e), d = ipp_fin_edst(f, e);
	enum ipp_vkind sk = ipp_fin_vkind(f, s), dk = ipp_fin_vkind(f, d);

	if (sk == IPP_V_GLOBAL_ENTRY) {
		if (dk == IPP_V_ENTRY)
			return LAB_OPEN_PROC;
		if (dk == IPP_V_GENTRY)
			return LAB_START;
		return LAB_BAD;
	}
	if (dk == IPP_V_GLOBAL_EXIT) {
		if (sk == IPP_V_EXIT)
			return LAB_CLOSE_PROC;
		if (sk == IPP_V_GEXIT)
			return LAB_END;
		return LAB_BAD;
	}
	if (sk == IPP_V_CALL && dk == IPP_V_ENTRY)
		return LAB_OPEN_CALL;
	if (sk == IPP_V_EXIT && dk == IPP_V_RETSITE)
		return LAB_CLOSE_CALL;
	if (dk == IPP_V_ENTRY || dk == IPP_V_GENTRY || dk == IPP_V_GLOBAL_ENTRY)
		return LAB_BAD;
	return LAB_E;
}

enum step { STEP_BAD, STEP_OK, STEP_DONE };

struct undo {
	int op;		/* 0 nothing, 1 pushed, 2 popped 'val' */
	ipp_id val;
};

/* Applies edge e's label to the stack.  'first': e is the path's first edge. */
static enum step apply_edge(const ipp_fin *f, bool piecewise, ipp_id e, bool first, idvec *stk,
			    struct undo *u)
{
	enum label lab = edge_label(f, e);
	ipp_id top;

	u->op = 0;
	if (first != (lab == LAB_OPEN_PROC || lab == LAB_START))
		return STEP_BAD;
	switch (lab) {
	case LAB_E:
	case LAB_START:
		return STEP_OK;
	case LAB_OPEN_CALL:
		iv_push(stk, ipp_fin_esrc(f, e));
		u->op = 1;
		return STEP_OK;
	case LAB_OPEN_PROC:
		iv_push(stk, PROC_MARK(ipp_fin_vproc(f, ipp_fin_edst(f, e))));
		u->op = 1;
		return STEP_OK;
	case LAB_CLOSE_CALL:
		if (stk->n == 0)
			return piecewise ? STEP_OK : STEP_BAD;
		top = stk->v[stk->n - 1];
		if (top < 0 || ipp_fin_vorigin(f, top) + 1 != ipp_fin_vorigin(f, ipp_fin_edst(f, e)))
			return STEP_BAD;
		stk->n--;
		u->op = 2;
		u->val = top;
		return STEP_OK;
	case LAB_CLOSE_PROC:
		if (stk->n == 0)
			return piecewise ? STEP_DONE : STEP_BAD;
		top = stk->v[stk->n - 1];
		if (top != PROC_MARK(ipp_fin_vproc(f, ipp_fin_esrc(f, e))))
			return STEP_BAD;
		stk->n--;
		u->op = 2;
		u->val = top;
		return STEP_DONE;
	case LAB_END:
		return STEP_DONE;
	case LAB_BAD:
	default:
		return STEP_BAD;
	}
}

static void undo_edge(idvec *stk, const struct undo *u)
{
	if (u->op == 1)
		stk->n--;
	else if (u->op == 2)
		iv_push(stk, u->val);
}

/* The stop stack of a prefix: open call vertices, then the last vertex. */
static void stop_stack(const idvec *stk, ipp_id last, idvec *out)
{
	out->n = 0;
	for (size_t i = 0; i < stk->n; i++)
		if (stk->v[i] >= 0)
			iv_push(out, stk->v[i]);
	iv_push(out, last);
}

static bool piecewise_of(const ipp_fin *f)
{
	return ipp_fin_mode(f) == IPP_MODE_PIECEWISE;
}

/* ------------------------------------------------------------------ */
/* Checks shared by both engines                                        */
/* ------------------------------------------------------------------ */

/* encode(path): must accept it in 'region'.  Returns false (reported) if not;
 * the number is left in 'got'.  The number itself is compared by the caller
 * (check_number), so that BIJECTION and DEFINITION report separately. */
static bool encode_complete(struct reporter *rp, ipp_id region, const ipp_id *edges, size_t n,
			    mpz_t got)
{
	char err[256] = "";
	ipp_id r = IPP_NONE;
	if (ipp_encode(rp->f, edges, n, &r, got, NULL, NULL, err, sizeof err) != 0) {
		fail(rp, region, edges, n, "ipp_encode rejected a valid path: %s", err);
		return false;
	}
	if (r != region) {
		fail(rp, region, edges, n, "ipp_encode gave region %d", (int)r);
		return false;
	}
	return true;
}

/* The encoded number must be the definition's number (equations 6-7). */
static void check_number(struct reporter *rp, ipp_id region, const ipp_id *edges, size_t n,
			 const mpz_t got, const mpz_t want)
{
	if (mpz_cmp(got, want) != 0) {
		char *a = mpz_get_str(NULL, 10, got), *b = mpz_get_str(NULL, 10, want);
		fail(rp, region, edges, n,
		     "ipp_encode gave %s, the definition (equations 6-7) gives %s", a, b);
		free(a);
		free(b);
	}
}

/* decode(region, num) must give exactly the path. */
static void check_decode(struct reporter *rp, ipp_id region, const ipp_id *edges, size_t n,
			 const mpz_t num)
{
	char err[256] = "";
	ipp_path out;
	ipp_path_init(&out);
	if (ipp_decode(rp->f, region, num, &out, err, sizeof err) != 0) {
		char *a = mpz_get_str(NULL, 10, num);
		fail(rp, region, edges, n, "ipp_decode(%s) failed: %s", a, err);
		free(a);
	} else if (!same_edges(out.edges, out.nedges, edges, n)) {
		char *a = mpz_get_str(NULL, 10, num);
		fail(rp, region, edges, n, "ipp_decode(%s) returned another path (below: expected)", a);
		if (rp->fails <= rp->max) {
			printf("    decoded:\n");
			brute_print_path(rp->f, out.edges, out.nedges);
		}
		free(a);
	}
	ipp_path_free(&out);
}

/* encode(prefix) must give (region, sum, stack); decode_partial must give the prefix. */
static void check_prefix(struct reporter *rp, ipp_id region, const ipp_id *edges, size_t n,
			 const mpz_t sum, const ipp_id *stack, size_t nstack, mpz_t tmp)
{
	char err[256] = "";
	ipp_id r = IPP_NONE;
	ipp_id *got = NULL;
	size_t ngot = 0;

	if (ipp_encode(rp->f, edges, n, &r, tmp, &got, &ngot, err, sizeof err) != 0) {
		fail(rp, region, edges, n, "ipp_encode rejected a valid prefix: %s", err);
	} else {
		if (r != region)
			fail(rp, region, edges, n, "ipp_encode(prefix) gave region %d", (int)r);
		if (mpz_cmp(tmp, sum) != 0) {
			char *a = mpz_get_str(NULL, 10, tmp), *b = mpz_get_str(NULL, 10, sum);
			fail(rp, region, edges, n,
			     "ipp_encode(prefix) partial sum %s, the definition gives %s", a, b);
			free(a);
			free(b);
		}
		if (!same_edges(got, ngot, stack, nstack)) {
			fail(rp, region, edges, n, "ipp_encode(prefix) stop stack differs");
			if (rp->fails <= rp->max) {
				print_ids("core stop stack", got, ngot);
				print_ids("expected (open calls, last vertex)", stack, nstack);
			}
		}
	}
	free(got);

	ipp_path out;
	ipp_path_init(&out);
	if (ipp_decode_partial(rp->f, region, sum, stack, nstack, &out, err, sizeof err) != 0) {
		char *a = mpz_get_str(NULL, 10, sum);
		fail(rp, region, edges, n, "ipp_decode_partial(%s) failed: %s", a, err);
		if (rp->fails <= rp->max)
			print_ids("stop stack", stack, nstack);
		free(a);
	} else if (!same_edges(out.edges, out.nedges, edges, n)) {
		char *a = mpz_get_str(NULL, 10, sum);
		fail(rp, region, edges, n,
		     "ipp_decode_partial(%s) returned another prefix (below: expected)", a);
		if (rp->fails <= rp->max) {
			print_ids("stop stack", stack, nstack);
			printf("    decoded:\n");
			brute_print_path(rp->f, out.edges, out.nedges);
		}
		free(a);
	}
	ipp_path_free(&out);
}

/* ------------------------------------------------------------------ */
/* Engine 1: exhaustive enumeration                                     */
/* ------------------------------------------------------------------ */
struct enumr {
	const ipp_fin *f;
	bool piecewise;
	unsigned props;
	struct reporter *rp;
	brute_stats *st;
	ipp_id region;
	idvec path;		/* current prefix (edge ids) */
	idvec stk;		/* parenthesis stack after the prefix */
	idvec sstack;		/* scratch: stop stack */
	uint64_t total;		/* the core's count for the region (if it fits) */
	bool total_fits;
	uint64_t max_paths;
	uint64_t npaths;	/* complete paths found so far */
	unsigned char *seen;	/* bijection: encode numbers seen (size total) */
	unsigned rejects;	/* invalid sequences checked in this region */
	bool abort;
	bool checks;		/* false: only count */
	mpz_t want, got;
};

static void enum_complete(struct enumr *en, uint64_t number)
{
	const ipp_id *p = en->path.v;
	size_t n = en->path.n;

	if (number != en->npaths) {
		/* Theorem 4.1 in DFS order: a broken oracle, not a broken core. */
		fail(en->rp, en->region, p, n, "ORACLE SELF-CHECK: definition number %llu != rank %llu",
		     (unsigned long long)number, (unsigned long long)en->npaths);
	}
	en->npaths++;
	if (en->npaths > en->max_paths) {
		fail(en->rp, en->region, NULL, 0,
		     "more than %llu valid paths: enumeration stopped (core total %s%llu)",
		     (unsigned long long)en->max_paths, en->total_fits ? "" : ">= 2^64, ",
		     (unsigned long long)en->total);
		en->abort = true;
		return;
	}
	if (!en->checks)
		return;
	en->st->paths++;
	mpz_set_ui(en->want, number);
	if ((en->props & (BRUTE_DEFINITION | BRUTE_BIJECTION)) &&
	    encode_complete(en->rp, en->region, p, n, en->got)) {
		if (en->props & BRUTE_DEFINITION)
			check_number(en->rp, en->region, p, n, en->got, en->want);
		if (en->props & BRUTE_BIJECTION) {
			if (!en->seen || mpz_cmp_ui(en->got, en->total) >= 0) {
				char *a = mpz_get_str(NULL, 10, en->got);
				fail(en->rp, en->region, p, n, "ipp_encode gave %s, outside [0, total %llu)",
				     a, (unsigned long long)en->total);
				free(a);
			} else {
				uint64_t k = mpz_get_ui(en->got);
				if (en->seen[k])
					fail(en->rp, en->region, p, n,
					     "ipp_encode gave %llu to two different paths",
					     (unsigned long long)k);
				en->seen[k] = 1;
			}
		}
	}
	if (en->props & BRUTE_DECODE)
		check_decode(en->rp, en->region, p, n, en->want);
}

/* prefix + e is not an L-prefix: encode must reject it. */
static void enum_reject(struct enumr *en, ipp_id e)
{
	if (en->rejects >= 6)
		return;
	en->rejects++;
	en->st->rejects++;
	iv_push(&en->path, e);
	char err[256] = "";
	ipp_id r;
	ipp_id *stk = NULL;
	size_t nstk = 0;
	if (ipp_encode(en->f, en->path.v, en->path.n, &r, en->got, &stk, &nstk, err, sizeof err) == 0) {
		fail(en->rp, en->region, en->path.v, en->path.n,
		     "ipp_encode accepted an invalid parenthesis string (last edge unmatched)");
	}
	free(stk);
	en->path.n--;
}

static uint64_t enum_dfs(struct enumr *en, uint64_t base)
{
	const ipp_fin *f = en->f;
	ipp_id v = ipp_fin_edst(f, en->path.v[en->path.n - 1]);
	uint64_t count = 0;

	if (en->path.n > MAX_PATH_LEN || en->stk.n > MAX_STACK) {
		fail(en->rp, en->region, NULL, 0, "a valid prefix longer than %u edges: G*fin is not finite",
		     MAX_PATH_LEN);
		en->abort = true;
		return 0;
	}
	size_t ns = ipp_fin_nsucc(f, v);
	for (size_t i = 0; i < ns && !en->abort; i++) {
		ipp_id e = ipp_fin_succ(f, v, i);
		if (ipp_fin_esrc(f, e) != v) {
			fail(en->rp, en->region, en->path.v, en->path.n,
			     "successor %zu of vertex %d is edge %d whose source is %d", i, (int)v,
			     (int)e, (int)ipp_fin_esrc(f, e));
			en->abort = true;
			break;
		}
		struct undo u;
		enum step s = apply_edge(f, en->piecewise, e, false, &en->stk, &u);
		if (s == STEP_BAD) {
			if (en->checks && (en->props & BRUTE_REJECT))
				enum_reject(en, e);
			continue;
		}
		iv_push(&en->path, e);
		uint64_t sub;
		if (s == STEP_DONE) {
			sub = 1;
			enum_complete(en, base + count);
		} else {
			sub = enum_dfs(en, base + count);
		}
		en->path.n--;
		undo_edge(&en->stk, &u);
		count += sub;
	}
	if (count > 0 && !en->abort && en->checks && (en->props & BRUTE_PREFIX)) {
		en->st->prefixes++;
		stop_stack(&en->stk, v, &en->sstack);
		mpz_set_ui(en->want, base);
		check_prefix(en->rp, en->region, en->path.v, en->path.n, en->want, en->sstack.v,
			     en->sstack.n, en->got);
	}
	return count;
}

/* Enumerates region r.  Returns false if aborted. */
static bool enum_region(struct enumr *en, ipp_id region, uint64_t *count)
{
	ipp_region_info ri;
	ipp_fin_region(en->f, region, &ri);
	en->region = region;
	en->path.n = 0;
	en->stk.n = 0;
	en->npaths = 0;
	en->rejects = 0;
	en->abort = false;
	*count = 0;

	if (ri.edge < 0 || (size_t)ri.edge >= ipp_fin_nedges(en->f)) {
		fail(en->rp, region, NULL, 0, "region edge %d does not exist", (int)ri.edge);
		return false;
	}
	struct undo u;
	enum step s = apply_edge(en->f, en->piecewise, ri.edge, true, &en->stk, &u);
	if (s != STEP_OK) {
		fail(en->rp, region, &ri.edge, 1,
		     "region edge is not Entry_global -> Entry_P / GEntry_P");
		return false;
	}
	iv_push(&en->path, ri.edge);
	*count = enum_dfs(en, 0);
	return !en->abort;
}

bool brute_enum_count(const ipp_fin *f, ipp_id region, uint64_t max_paths, uint64_t *out)
{
	struct reporter rp = { .f = f, .label = "count", .max = 0 };
	brute_stats st = { 0 };
	struct enumr en = {
		.f = f, .piecewise = piecewise_of(f), .props = 0, .rp = &rp, .st = &st,
		.max_paths = max_paths, .checks = false,
	};
	mpz_inits(en.want, en.got, NULL);
	bool ok = enum_region(&en, region, out) && rp.fails == 0;
	mpz_clears(en.want, en.got, NULL);
	iv_free(&en.path);
	iv_free(&en.stk);
	iv_free(&en.sstack);
	return ok;
}

unsigned long brute_check_enum(const ipp_fin *f, unsigned props, const char *label,
			       uint64_t max_paths, unsigned max_reports, brute_stats *st)
{
	struct reporter rp = { .f = f, .label = label, .max = max_reports };
	struct enumr en = {
		.f = f, .piecewise = piecewise_of(f), .props = props, .rp = &rp, .st = st,
		.max_paths = max_paths, .checks = true,
	};
	mpz_t core_total, sum, tmp;
	mpz_inits(en.want, en.got, core_total, sum, tmp, NULL);
	brute_counter *bc = (props & BRUTE_COUNT) ? brute_counter_new(f) : NULL;
	size_t nregions = ipp_fin_nregions(f);

	for (size_t ri = 0; ri < nregions; ri++) {
		ipp_id r = (ipp_id)ri;
		ipp_region_info info;
		ipp_fin_region(f, r, &info);
		ipp_fin_region_total(f, r, core_total);

		if (props & BRUTE_COUNT) {
			/* Equation 27: the offset is the sum of the earlier totals (we
			 * compare with our own counts, accumulated in 'sum'). */
			ipp_fin_region_offset(f, r, tmp);
			if (mpz_cmp(tmp, sum) != 0) {
				char *a = mpz_get_str(NULL, 10, tmp), *b = mpz_get_str(NULL, 10, sum);
				fail(&rp, r, NULL, 0, "region offset %s, sum of earlier regions' paths %s", a, b);
				free(a);
				free(b);
			}
			/* The nvc the region starts with: 1 from Entry_P, or
			 * numUnbalRLPaths[Exit_P] (counted by walking) from GEntry_P. */
			ipp_fin_region_nvc(f, r, tmp);
			mpz_t want_nvc;
			mpz_init_set_ui(want_nvc, 1);
			if (info.gentry) {
				ipp_id ex = ipp_proc_exit(ipp_fin_graph(f), info.proc);
				if (!brute_counter_from_vertex(bc, ex, want_nvc))
					fail(&rp, r, NULL, 0, "infinitely many paths from Exit_P");
			}
			if (mpz_cmp(tmp, want_nvc) != 0) {
				char *a = mpz_get_str(NULL, 10, tmp), *b = mpz_get_str(NULL, 10, want_nvc);
				fail(&rp, r, NULL, 0, "region nvc %s, expected %s (%s)", a, b,
				     info.gentry ? "numUnbalRLPaths[Exit_P] by walking" : "1");
				free(a);
				free(b);
			}
			mpz_clear(want_nvc);
		}

		en.total_fits = mpz_fits_ulong_p(core_total) && sizeof(unsigned long) >= 8;
		en.total = en.total_fits ? mpz_get_ui(core_total) : UINT64_MAX;
		en.seen = NULL;
		if ((props & BRUTE_BIJECTION) && en.total_fits && en.total <= max_paths)
			en.seen = calloc(en.total ? en.total : 1, 1);

		uint64_t count = 0;
		bool ok = enum_region(&en, r, &count);
		st->regions++;
		if (ok && (props & BRUTE_COUNT)) {
			if (mpz_cmp_ui(core_total, count) != 0) {
				char *a = mpz_get_str(NULL, 10, core_total);
				fail(&rp, r, NULL, 0,
				     "ipp_fin_region_total %s, but %llu valid paths enumerated", a,
				     (unsigned long long)count);
				free(a);
			}
			/* The memoised counter must agree with enumeration (oracle self-check). */
			if (!brute_counter_region(bc, r, tmp) || mpz_cmp_ui(tmp, count) != 0)
				fail(&rp, r, NULL, 0, "ORACLE SELF-CHECK: memoised count differs from enumeration");
		}
		if (ok && (props & BRUTE_BIJECTION) && en.seen && count == en.total) {
			for (uint64_t k = 0; k < en.total; k++) {
				if (!en.seen[k]) {
					fail(&rp, r, NULL, 0, "no path was encoded as %llu",
					     (unsigned long long)k);
					break;
				}
			}
		}
		if (ok && (props & BRUTE_DECODE)) {
			/* Numbers past the end must be refused. */
			char err[256];
			ipp_path out;
			ipp_path_init(&out);
			mpz_set_ui(tmp, count);
			if (ipp_decode(f, r, tmp, &out, err, sizeof err) == 0)
				fail(&rp, r, out.edges, out.nedges,
				     "ipp_decode(%llu) succeeded past the %llu paths of the region",
				     (unsigned long long)count, (unsigned long long)count);
			ipp_path_free(&out);
		}
		free(en.seen);
		en.seen = NULL;
		mpz_add_ui(sum, sum, count);
	}
	if (props & BRUTE_COUNT) {
		ipp_fin_total(f, tmp);
		if (mpz_cmp(tmp, sum) != 0) {
			char *a = mpz_get_str(NULL, 10, tmp), *b = mpz_get_str(NULL, 10, sum);
			fail(&rp, IPP_NONE, NULL, 0, "ipp_fin_total %s, enumerated %s", a, b);
			free(a);
			free(b);
		}
	}
	if (bc)
		brute_counter_free(bc);
	mpz_clears(en.want, en.got, core_total, sum, tmp, NULL);
	iv_free(&en.path);
	iv_free(&en.stk);
	iv_free(&en.sstack);
	if (rp.fails > rp.max)
		printf("  [%s] ... %lu failures in all (%u printed)\n", label, rp.fails, rp.max);
	st->failures += rp.fails;
	return rp.fails;
}

/* ------------------------------------------------------------------ */
/* Engine 2: memoised counting on (vertex, parenthesis stack)           */
/* ------------------------------------------------------------------ */
struct memo_ent {
	struct memo_ent *next;
	uint64_t hash;
	ipp_id v;
	size_t n;
	ipp_id *stk;
	mpz_t count;
	bool done;
};

struct brute_counter {
	const ipp_fin *f;
	bool piecewise;
	struct memo_ent **buckets;
	size_t nbuckets, nentries;
	idvec stk;		/* current parenthesis stack */
	unsigned depth;		/* recursion depth of count_from */
	bool broken;		/* a cycle of valid prefixes was found */
};

static uint64_t key_hash(ipp_id v, const ipp_id *s, size_t n)
{
	uint64_t h = UINT64_C(1469598103934665603);
	h = (h ^ (uint32_t)v) * UINT64_C(1099511628211);
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint32_t)s[i]) * UINT64_C(1099511628211);
	return h ^ (h >> 29);
}

brute_counter *brute_counter_new(const ipp_fin *f)
{
	brute_counter *c = xmalloc(sizeof *c);
	memset(c, 0, sizeof *c);
	c->f = f;
	c->piecewise = piecewise_of(f);
	c->nbuckets = 1024;
	c->buckets = calloc(c->nbuckets, sizeof *c->buckets);
	return c;
}

void brute_counter_free(brute_counter *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nbuckets; i++) {
		struct memo_ent *e = c->buckets[i];
		while (e) {
			struct memo_ent *next = e->next;
			mpz_clear(e->count);
			free(e->stk);
			free(e);
			e = next;
		}
	}
	free(c->buckets);
	iv_free(&c->stk);
	free(c);
}

static struct memo_ent *memo_find(brute_counter *c, ipp_id v, uint64_t h)
{
	for (struct memo_ent *e = c->buckets[h % c->nbuckets]; e; e = e->next)
		if (e->hash == h && e->v == v && e->n == c->stk.n &&
		    (e->n == 0 || memcmp(e->stk, c->stk.v, e->n * sizeof *e->stk) == 0))
			return e;
	return NULL;
}

static struct memo_ent *memo_add(brute_counter *c, ipp_id v, uint64_t h)
{
	if (c->nentries >= 2 * c->nbuckets) {
		size_t nb = 4 * c->nbuckets;
		struct memo_ent **b = calloc(nb, sizeof *b);
		for (size_t i = 0; i < c->nbuckets; i++) {
			struct memo_ent *e = c->buckets[i];
			while (e) {
				struct memo_ent *next = e->next;
				e->next = b[e->hash % nb];
				b[e->hash % nb] = e;
				e = next;
			}
		}
		free(c->buckets);
		c->buckets = b;
		c->nbuckets = nb;
	}
	struct memo_ent *e = xmalloc(sizeof *e);
	e->hash = h;
	e->v = v;
	e->n = c->stk.n;
	e->stk = xmalloc(e->n * sizeof *e->stk);
	if (e->n)
		memcpy(e->stk, c->stk.v, e->n * sizeof *e->stk);
	mpz_init(e->count);
	e->done = false;
	e->next = c->buckets[h % c->nbuckets];
	c->buckets[h % c->nbuckets] = e;
	c->nentries++;
	return e;
}

static bool count_after(brute_counter *c, ipp_id e, bool first, mpz_t out);

/* numValidComps of any prefix that ends at v with the current stack. */
static bool count_from(brute_counter *c, ipp_id v, mpz_t out)
{
	uint64_t h = key_hash(v, c->stk.v, c->stk.n);
	struct memo_ent *me = memo_find(c, v, h);
	if (me) {
		if (!me->done) {
			c->broken = true;	/* the same state again: infinitely many paths */
			return false;
		}
		mpz_set(out, me->count);
		return true;
	}
	if (c->stk.n > MAX_STACK || c->depth > MAX_PATH_LEN) {
		c->broken = true;
		return false;
	}
	me = memo_add(c, v, h);
	mpz_t sum, sub;
	mpz_init(sum);
	mpz_init(sub);
	bool ok = true;
	c->depth++;
	size_t ns = ipp_fin_nsucc(c->f, v);
	for (size_t i = 0; i < ns && ok; i++) {
		ipp_id e = ipp_fin_succ(c->f, v, i);
		if (ipp_fin_esrc(c->f, e) != v) {
			ok = false;
			break;
		}
		ok = count_after(c, e, false, sub);
		mpz_add(sum, sum, sub);
	}
	c->depth--;
	mpz_set(me->count, sum);
	me->done = ok;
	mpz_set(out, sum);
	mpz_clear(sum);
	mpz_clear(sub);
	return ok;
}

/* numValidComps(p || e) for the current prefix p (0 if invalid). */
static bool count_after(brute_counter *c, ipp_id e, bool first, mpz_t out)
{
	struct undo u;
	enum step s = apply_edge(c->f, c->piecewise, e, first, &c->stk, &u);
	bool ok = true;
	if (s == STEP_BAD)
		mpz_set_ui(out, 0);
	else if (s == STEP_DONE)
		mpz_set_ui(out, 1);
	else
		ok = count_from(c, ipp_fin_edst(c->f, e), out);
	undo_edge(&c->stk, &u);
	return ok;
}

bool brute_counter_region(brute_counter *c, ipp_id region, mpz_t out)
{
	ipp_region_info ri;
	ipp_fin_region(c->f, region, &ri);
	c->stk.n = 0;
	if (ri.edge < 0 || (size_t)ri.edge >= ipp_fin_nedges(c->f))
		return false;
	return count_after(c, ri.edge, true, out) && !c->broken;
}

bool brute_counter_from_vertex(brute_counter *c, ipp_id v, mpz_t out)
{
	c->stk.n = 0;
	return count_from(c, v, out) && !c->broken;
}

static ipp_id region_of_edge(const ipp_fin *f, ipp_id e)
{
	size_t n = ipp_fin_nregions(f);
	for (size_t i = 0; i < n; i++) {
		ipp_region_info ri;
		ipp_fin_region(f, (ipp_id)i, &ri);
		if (ri.edge == e)
			return (ipp_id)i;
	}
	return IPP_NONE;
}

bool brute_counter_number(brute_counter *c, const ipp_id *edges, size_t n, ipp_id *region,
			  mpz_t num, ipp_id **stack, size_t *nstack, char *err, size_t errlen)
{
	const ipp_fin *f = c->f;
	struct undo u;
	mpz_t sub;
	bool ok = false;

	mpz_set_ui(num, 0);
	if (stack) {
		*stack = NULL;
		*nstack = 0;
	}
	c->stk.n = 0;
	if (n == 0 || (*region = region_of_edge(f, edges[0])) == IPP_NONE) {
		snprintf(err, errlen, "does not start with a region edge");
		return false;
	}
	if (apply_edge(f, c->piecewise, edges[0], true, &c->stk, &u) != STEP_OK) {
		snprintf(err, errlen, "bad region edge");
		return false;
	}
	mpz_init(sub);
	for (size_t i = 1; i < n; i++) {
		ipp_id v = ipp_fin_edst(f, edges[i - 1]);
		size_t ns = ipp_fin_nsucc(f, v), j;
		for (j = 0; j < ns; j++) {
			ipp_id e = ipp_fin_succ(f, v, j);
			if (e == edges[i])
				break;
			if (!count_after(c, e, false, sub)) {
				snprintf(err, errlen, "infinitely many paths");
				goto out;
			}
			mpz_add(num, num, sub);
		}
		if (j == ns) {
			snprintf(err, errlen, "edge %zu (%d) does not leave vertex %d", i,
				 (int)edges[i], (int)v);
			goto out;
		}
		enum step s = apply_edge(f, c->piecewise, edges[i], false, &c->stk, &u);
		if (s == STEP_BAD || (s == STEP_DONE && i + 1 != n)) {
			snprintf(err, errlen, "edge %zu (%d) makes an invalid parenthesis string", i,
				 (int)edges[i]);
			goto out;
		}
	}
	ok = true;
	if (stack) {
		idvec ss = { 0 };
		stop_stack(&c->stk, ipp_fin_edst(f, edges[n - 1]), &ss);
		*stack = ss.v;
		*nstack = ss.n;
	}
out:
	mpz_clear(sub);
	return ok;
}

bool brute_counter_unrank(brute_counter *c, ipp_id region, const mpz_t num, ipp_path *out)
{
	const ipp_fin *f = c->f;
	ipp_region_info ri;
	struct undo u;
	mpz_t rem, cnt;
	bool ok = false;

	ipp_fin_region(f, region, &ri);
	out->nedges = 0;
	out->region = region;
	c->stk.n = 0;
	mpz_init_set(rem, num);
	mpz_init(cnt);
	if (!count_after(c, ri.edge, true, cnt) || mpz_sgn(rem) < 0 || mpz_cmp(rem, cnt) >= 0)
		goto out;
	apply_edge(f, c->piecewise, ri.edge, true, &c->stk, &u);
	ipp_path_push(out, ri.edge);
	for (;;) {
		if (out->nedges > MAX_PATH_LEN)
			goto out;
		ipp_id v = ipp_fin_edst(f, out->edges[out->nedges - 1]);
		size_t ns = ipp_fin_nsucc(f, v), j;
		enum step s = STEP_BAD;
		for (j = 0; j < ns; j++) {
			ipp_id e = ipp_fin_succ(f, v, j);
			if (!count_after(c, e, false, cnt))
				goto out;
			if (mpz_cmp(rem, cnt) < 0) {
				s = apply_edge(f, c->piecewise, e, false, &c->stk, &u);
				ipp_path_push(out, e);
				break;
			}
			mpz_sub(rem, rem, cnt);
		}
		if (j == ns || s == STEP_BAD)
			goto out;
		if (s == STEP_DONE)
			break;
	}
	ok = true;
out:
	mpz_clear(rem);
	mpz_clear(cnt);
	return ok;
}

/* ------------------------------------------------------------------ */
/* Sampled checks for graphs too large to enumerate                     */
/* ------------------------------------------------------------------ */
unsigned long brute_check_sampled(const ipp_fin *f, unsigned props, const char *label,
				  unsigned nsamples, uint64_t seed, unsigned max_reports,
				  brute_stats *st)
{
	struct reporter rp = { .f = f, .label = label, .max = max_reports };
	brute_counter *c = brute_counter_new(f);
	gmp_randstate_t rs;
	mpz_t total, mine, n, got, sum, seedz;
	char err[256];

	gmp_randinit_default(rs);
	mpz_inits(total, mine, n, got, sum, seedz, NULL);
	mpz_set_ui(seedz, (unsigned long)(seed >> 32));
	mpz_mul_2exp(seedz, seedz, 32);
	mpz_add_ui(seedz, seedz, (unsigned long)(seed & 0xffffffffu));
	gmp_randseed(rs, seedz);

	size_t nregions = ipp_fin_nregions(f);
	for (size_t ri = 0; ri < nregions; ri++) {
		ipp_id r = (ipp_id)ri;
		st->regions++;
		ipp_fin_region_total(f, r, total);
		if (!brute_counter_region(c, r, mine)) {
			fail(&rp, r, NULL, 0, "infinitely many valid paths (a cycle of valid prefixes)");
			continue;
		}
		if ((props & BRUTE_COUNT) && mpz_cmp(mine, total) != 0) {
			char *a = mpz_get_str(NULL, 10, total), *b = mpz_get_str(NULL, 10, mine);
			fail(&rp, r, NULL, 0, "ipp_fin_region_total %s, counted by definition %s", a, b);
			free(a);
			free(b);
		}
		if (mpz_sgn(mine) == 0)
			continue;
		for (unsigned k = 0; k < nsamples + 2; k++) {
			if (k == 0)
				mpz_set_ui(n, 0);
			else if (k == 1)
				mpz_sub_ui(n, mine, 1);
			else
				mpz_urandomm(n, rs, mine);

			ipp_path p;
			ipp_path_init(&p);
			if (!brute_counter_unrank(c, r, n, &p)) {
				fail(&rp, r, NULL, 0, "ORACLE SELF-CHECK: cannot unrank");
				ipp_path_free(&p);
				continue;
			}
			ipp_id rr;
			if (!brute_counter_number(c, p.edges, p.nedges, &rr, sum, NULL, NULL, err, sizeof err) ||
			    rr != r || mpz_cmp(sum, n) != 0)
				fail(&rp, r, p.edges, p.nedges, "ORACLE SELF-CHECK: rank/unrank disagree");
			st->paths++;
			if ((props & (BRUTE_DEFINITION | BRUTE_BIJECTION)) &&
			    encode_complete(&rp, r, p.edges, p.nedges, got))
				check_number(&rp, r, p.edges, p.nedges, got, n);
			if (props & BRUTE_DECODE)
				check_decode(&rp, r, p.edges, p.nedges, n);
			if ((props & BRUTE_PREFIX) && p.nedges > 1) {
				/* One random proper prefix: 1 .. nedges-1 edges. */
				size_t len = 1 + (size_t)gmp_urandomm_ui(rs, p.nedges - 1);
				ipp_id *stk = NULL;
				size_t nstk = 0;
				st->prefixes++;
				if (!brute_counter_number(c, p.edges, len, &rr, sum, &stk, &nstk, err, sizeof err))
					fail(&rp, r, p.edges, len, "ORACLE SELF-CHECK: prefix: %s", err);
				else
					check_prefix(&rp, r, p.edges, len, sum, stk, nstk, got);
				free(stk);
			}
			ipp_path_free(&p);
		}
	}
	gmp_randclear(rs);
	mpz_clears(total, mine, n, got, sum, seedz, NULL);
	brute_counter_free(c);
	if (rp.fails > rp.max)
		printf("  [%s] ... %lu failures in all (%u printed)\n", label, rp.fails, rp.max);
	st->failures += rp.fails;
	return rp.fails;
}
