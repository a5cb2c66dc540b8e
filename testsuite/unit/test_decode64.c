/* test_decode64.c -- CUnit tests of decoding in 64 bits (codec.c,
 * fin_u64.c): every number a test decodes is decoded both ways, with GMP
 * (IPP_ARITH_GMP) and with uint64_t (IPP_ARITH_U64, for a narrow region),
 * and the two edge sequences must be the path the definition numbers so
 * (brute.c's memoised counter unranks by equations 6-7 of Melski & Reps,
 * never through psi or rho).  Every proper prefix of those paths is
 * numbered by the definition too (brute_counter_number: its partial sum
 * and stop stack) and decoded back both ways.
 *
 * Graphs:
 *   - small random supergraphs (randgraph.c), every mode, with and without
 *     cuts: every number of every region;
 *   - the boundary: a region of exactly 2^64 - 1 paths (63 levels of "a
 *     diamond, or return": level k has 2 x paths(k+1) + 1 paths) and one of
 *     exactly 2^64 (64 diamonds), both narrow, the largest number of each
 *     included; 2^65 - 1 and 2^65 (64 levels, 65 diamonds), not narrow;
 *   - a program with a region past 2^64 beside narrow ones (main: 70
 *     diamonds, then a call of g, which is an entry of its own: 8 paths);
 *   - a region of 2^80 paths whose psi and rho values all fit 64 bits
 *     (main calls f, 40 diamonds, twice: context and piecewise modes), not
 *     narrow: the walk's products would not fit;
 *   - fin_u64.c's rule is per procedure: a piecewise GEntry region of few
 *     paths whose walks return into a caller that calls a function of
 *     2^70 paths elsewhere is not narrow (decoded with GMP).
 * The totals expected are the arithmetic above, checked against the
 * definition's count (brute_counter_region).  Numbers out of range give
 * the same message both ways.  At the end no 64-bit walk may have
 * overflowed (ipp_decode_stats.widened == 0: fin_u64.c's decision held)
 * and the 64-bit walks must have run.
 *
 * Environment: IPP_DECODE64_NGRAPHS=n (seeds 1..n, default 400).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brute.h"
#include "checkf.h"
#include "randgraph.h"

#define DEFAULT_NGRAPHS 400u
#define MAX_REGION_PATHS 3000u	/* every number of such a region is decoded */

static const enum ipp_mode all_modes[IPP_MODE_COUNT] = {
	IPP_MODE_CONTEXT, IPP_MODE_PIECEWISE, IPP_MODE_INTRA, IPP_MODE_INTRA_CONTEXT,
};


/* What a test decoded. */
struct tally {
	unsigned long narrow, wide, prefixes;
};

static bool same_edges(const ipp_id *a, size_t na, const ipp_id *b, size_t nb)
{
	return na == nb && memcmp(a, b, na * sizeof(*a)) == 0;
}

/* Decodes the prefix edges[0..n-1] of a path of region r back from the
 * number and stop stack the definition gives it, both ways. */
static void check_prefix(const ipp_fin *f, brute_counter *bc, ipp_id r, const ipp_id *edges,
			 size_t n, const char *label, struct tally *t)
{
	ipp_path w, u;
	ipp_id region, *stack = NULL;
	size_t nstack = 0;
	char err[256] = "", e1[256] = "", e2[256] = "";
	mpz_t num;

	mpz_init(num);
	ipp_path_init(&w);
	ipp_path_init(&u);
	if (!brute_counter_number(bc, edges, n, &region, num, &stack, &nstack, err, sizeof(err)) ||
	    stack == NULL) {
		CHECKF(false, "[%s] the definition numbers no prefix of %zu edges: %s", label, n,
		       err);
		goto out;
	}
	CHECKF(region == r, "[%s] prefix numbered in region %d, not %d", label, (int)region,
	       (int)r);
	CHECKF(ipp_decode_arith(f, r, num, stack, nstack, IPP_ARITH_GMP, &w, e1, sizeof(e1)) == 0 &&
	       same_edges(w.edges, w.nedges, edges, n),
	       "[%s] GMP: prefix of %zu edges not decoded back (%s)", label, n, e1);
	if (ipp_fin_region_narrow(f, r))
		CHECKF(ipp_decode_arith(f, r, num, stack, nstack, IPP_ARITH_U64, &u, e2,
					sizeof(e2)) == 0 &&
		       same_edges(u.edges, u.nedges, edges, n),
		       "[%s] 64 bits: prefix of %zu edges not decoded back (%s)", label, n, e2);
	t->prefixes++;
out:
	free(stack);
	ipp_path_free(&w);
	ipp_path_free(&u);
	mpz_clear(num);
}

/* Decodes number num of region r both ways (and as ipp_decode_pnum does
 * by default) and compares with the definition; with 'prefixes', also
 * every proper prefix of the path. */
static void check_number(const ipp_fin *f, brute_counter *bc, ipp_id r, const mpz_t num,
			 bool prefixes, const char *label, struct tally *t)
{
	ipp_path def, w, u, a;
	ipp_pnum pn;
	char e1[256] = "", e2[256] = "", e3[256] = "";
	char *s = mpz_get_str(NULL, 10, num);

	ipp_path_init(&def);
	ipp_path_init(&w);
	ipp_path_init(&u);
	ipp_path_init(&a);
	ipp_pnum_set(&pn, num);
	CHECKF(brute_counter_unrank(bc, r, num, &def), "[%s] the definition has no path %s", label,
	       s);
	CHECKF(ipp_decode_arith(f, r, num, NULL, 0, IPP_ARITH_GMP, &w, e1, sizeof(e1)) == 0 &&
	       same_edges(w.edges, w.nedges, def.edges, def.nedges),
	       "[%s] GMP: path %s is not the definition's (%s)", label, s, e1);
	t->wide++;
	if (ipp_fin_region_narrow(f, r)) {
		CHECKF(ipp_decode_arith(f, r, num, NULL, 0, IPP_ARITH_U64, &u, e2, sizeof(e2)) == 0 &&
		       same_edges(u.edges, u.nedges, def.edges, def.nedges),
		       "[%s] 64 bits: path %s is not the definition's (%s)", label, s, e2);
		t->narrow++;
	} else {
		CHECKF(ipp_decode_arith(f, r, num, NULL, 0, IPP_ARITH_U64, &u, e2, sizeof(e2)) < 0 &&
		       strstr(e2, "is not decoded in 64 bits") != NULL,
		       "[%s] 64 bits: a region that is not narrow was decoded (%s)", label, e2);
	}
	CHECKF(ipp_decode_pnum(f, r, &pn, NULL, 0, &a, e3, sizeof(e3)) == 0 &&
	       same_edges(a.edges, a.nedges, def.edges, def.nedges),
	       "[%s] default: path %s is not the definition's (%s)", label, s, e3);
	for (size_t n = 1; prefixes && n < def.nedges; n++)
		check_prefix(f, bc, r, def.edges, n, label, t);
	ipp_pnum_clear(&pn);
	ipp_path_free(&def);
	ipp_path_free(&w);
	ipp_path_free(&u);
	ipp_path_free(&a);
	free(s);
}

/* A number out of range of region r: both ways (and given as a uint64_t
 * when it fits) refused with the same message. */
static void check_out_of_range(const ipp_fin *f, ipp_id r, const mpz_t num, const char *label)
{
	ipp_path p;
	ipp_pnum pn;
	char e1[256] = "", e2[256] = "";

	ipp_path_init(&p);
	ipp_pnum_set(&pn, num);
	CU_ASSERT(ipp_decode_arith(f, r, num, NULL, 0, IPP_ARITH_GMP, &p, e1, sizeof(e1)) < 0);
	CU_ASSERT(ipp_decode_pnum(f, r, &pn, NULL, 0, &p, e2, sizeof(e2)) < 0);
	CHECKF(strstr(e1, "is out of range") != NULL && strcmp(e1, e2) == 0,
	       "[%s] out of range: '%s' and '%s'", label, e1, e2);
	CU_ASSERT(p.nedges == 0 && p.edges == NULL);
	ipp_pnum_clear(&pn);
}

/* ------------------------------------------------------------------ */
/* Small random graphs: every number                                    */
/* ------------------------------------------------------------------ */

static unsigned ngraphs(void)
{
	const char *n = getenv("IPP_DECODE64_NGRAPHS");
	return n && *n ? (unsigned)strtoul(n, NULL, 0) : DEFAULT_NGRAPHS;
}

/* Every number of every region of f of at most MAX_REGION_PATHS paths
 * (and the first past the end); prefixes of every eighth path. */
static void check_every_path(const ipp_fin *f, const char *label, struct tally *t)
{
	brute_counter *bc = brute_counter_new(f);
	mpz_t total, num;

	mpz_inits(total, num, NULL);
	for (size_t r = 0; r < ipp_fin_nregions(f); r++) {
		char lab[160];
		ipp_fin_region_total(f, (ipp_id)r, total);
		if (mpz_cmp_ui(total, MAX_REGION_PATHS) > 0)
			continue;
		/* such a region's values are far below 2^64 */
		snprintf(lab, sizeof(lab), "%s, region %zu", label, r);
		CHECKF(ipp_fin_region_narrow(f, (ipp_id)r) == (mpz_sgn(total) > 0),
		       "[%s] a small region is not narrow", lab);
		for (mpz_set_ui(num, 0); mpz_cmp(num, total) < 0; mpz_add_ui(num, num, 1))
			check_number(f, bc, (ipp_id)r, num, mpz_fdiv_ui(num, 8) == 0, lab, t);
		check_out_of_range(f, (ipp_id)r, total, lab);
	}
	mpz_clears(total, num, NULL);
	brute_counter_free(bc);
}

/* The largest size level whose regions all have at most MAX_REGION_PATHS
 * paths in every mode, or NULL. */
static ipp_graph *small_graph(uint64_t seed)
{
	for (unsigned lv = 0; lv < RG_NLEVELS; lv++) {
		rg_params p;
		ipp_graph *g;
		bool fits = true;
		mpz_t t;
		rg_params_level(&p, lv);
		g = rg_random(seed, &p);
		mpz_init(t);
		for (int m = 0; m < IPP_MODE_COUNT && fits; m++) {
			char err[256];
			ipp_fin *f = ipp_fin_new(g, all_modes[m], NULL, err, sizeof(err));
			for (size_t r = 0; f && r < ipp_fin_nregions(f) && fits; r++) {
				ipp_fin_region_total(f, (ipp_id)r, t);
				fits = mpz_cmp_ui(t, MAX_REGION_PATHS) <= 0;
			}
			ipp_fin_free(f);
		}
		mpz_clear(t);
		if (fits)
			return g;
		ipp_graph_free(g);
	}
	return NULL;
}

static void test_random(void)
{
	struct tally t = { 0, 0, 0 };
	unsigned n = ngraphs(), skipped = 0;

	for (uint64_t seed = 1; seed <= n; seed++) {
		ipp_graph *g = small_graph(seed);
		if (g == NULL) {
			skipped++;
			continue;
		}
		for (int m = 0; m < IPP_MODE_COUNT; m++) {
			char err[256] = "", label[96];
			mpz_t limit;
			ipp_cuts cuts;
			ipp_fin *f = ipp_fin_new(g, all_modes[m], NULL, err, sizeof(err));
			snprintf(label, sizeof(label), "seed %llu, %s", (unsigned long long)seed,
				 ipp_mode_name(all_modes[m]));
			CHECKF(f != NULL, "[%s] %s", label, err);
			if (f)
				check_every_path(f, label, &t);
			ipp_fin_free(f);
			/* cut to at most 16 paths a region: more regions, surrogate edges */
			mpz_init_set_ui(limit, 16);
			ipp_cuts_init(&cuts);
			if (ipp_autocut(g, all_modes[m], limit, &cuts, err, sizeof(err)) == 0) {
				strcat(label, ", cut to 16");
				f = ipp_fin_new(g, all_modes[m], &cuts, err, sizeof(err));
				CHECKF(f != NULL, "[%s] %s", label, err);
				if (f)
					check_every_path(f, label, &t);
				ipp_fin_free(f);
			}
			ipp_cuts_free(&cuts);
			mpz_clear(limit);
		}
		ipp_graph_free(g);
	}
	CU_ASSERT(skipped < n / 4);
	CU_ASSERT(t.narrow > 10000);
	printf("\n    %u graphs (%u too large), %lu paths both ways, %lu prefixes", n - skipped,
	       skipped, t.narrow, t.prefixes);
}

/* ------------------------------------------------------------------ */
/* The 2^64 boundary                                                    */
/* ------------------------------------------------------------------ */

/* main: Entry -> v_0; v_k -> Exit, and v_k -> a diamond -> v_{k+1}, for
 * k < levels; v_levels = Exit.  paths(Exit) = 1, paths(v_k) =
 * 2 paths(v_{k+1}) + 1: 2^(levels + 1) - 1 paths. */
static ipp_graph *exit_chain(unsigned levels)
{
	ipp_graph *g = ipp_graph_new();
	ipp_id m = ipp_add_proc(g, "main", "main", IPP_PROC_ENTRY);
	ipp_id v = ipp_add_block(g, m);

	ipp_add_edge(g, ipp_proc_entry(g, m), v);
	for (unsigned k = 0; k < levels; k++) {
		ipp_id l = ipp_add_block(g, m), r = ipp_add_block(g, m);
		ipp_id next = k + 1 < levels ? ipp_add_block(g, m) : ipp_proc_exit(g, m);
		ipp_add_edge(g, v, ipp_proc_exit(g, m));
		ipp_add_edge(g, v, l);
		ipp_add_edge(g, v, r);
		ipp_add_edge(g, l, next);
		ipp_add_edge(g, r, next);
		v = next;
	}
	return g;
}

/* Region main of g (intra mode, no cut) has 2^e + add paths (add is -1 or
 * 0); it is narrow iff expected.  Decodes 0, 1, 2^63 - 1, 2^63, the last
 * four numbers and 200 numbers drawn by a fixed generator, both ways (the
 * last number of the narrow regions is 2^64 - 2 or 2^64 - 1). */
static void check_boundary(ipp_graph *g, unsigned e, int add, bool narrow, const char *label)
{
	char err[256] = "";
	ipp_fin *f = ipp_fin_new(g, IPP_MODE_INTRA, NULL, err, sizeof(err));
	struct tally t = { 0, 0, 0 };
	brute_counter *bc;
	gmp_randstate_t rs;
	mpz_t want, total, mine, num;
	ipp_id r;

	CHECKF(f != NULL, "[%s] %s", label, err);
	if (f == NULL)
		return;
	r = ipp_fin_region_find(f, "main");
	CU_ASSERT_FATAL(r != IPP_NONE);
	mpz_inits(want, total, mine, num, NULL);
	mpz_ui_pow_ui(want, 2, e);
	if (add < 0)
		mpz_sub_ui(want, want, (unsigned long)-add);
	ipp_fin_region_total(f, r, total);
	bc = brute_counter_new(f);
	CU_ASSERT(brute_counter_region(bc, r, mine));
	CHECKF(mpz_cmp(total, want) == 0 && mpz_cmp(mine, want) == 0,
	       "[%s] totals: core %s, definition %s", label, mpz_get_str(NULL, 10, total),
	       mpz_get_str(NULL, 10, mine));
	CHECKF(ipp_fin_region_narrow(f, r) == narrow, "[%s] narrow is %d", label, !narrow);

	{
		static const char *const fixed[] = { "0", "1", "9223372036854775807",
						     "9223372036854775808" };
		for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
			mpz_set_str(num, fixed[i], 10);
			check_number(f, bc, r, num, i == 3, label, &t);
		}
	}
	for (unsigned long k = 1; k <= 4; k++) {
		mpz_sub_ui(num, total, k);
		check_number(f, bc, r, num, k == 1, label, &t);
	}
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, 64 + e);
	for (int i = 0; i < 200; i++) {
		mpz_urandomm(num, rs, total);
		check_number(f, bc, r, num, false, label, &t);
	}
	gmp_randclear(rs);
	check_out_of_range(f, r, total, label);
	CU_ASSERT(t.narrow == (narrow ? 208u : 0u));
	mpz_clears(want, total, mine, num, NULL);
	brute_counter_free(bc);
	ipp_fin_free(f);
}

static void test_boundary(void)
{
	ipp_graph *g;

	g = exit_chain(63);
	check_boundary(g, 64, -1, true, "2^64 - 1 paths");
	ipp_graph_free(g);
	g = rg_diamond_chain(64);
	check_boundary(g, 64, 0, true, "2^64 paths");
	ipp_graph_free(g);
	g = exit_chain(64);
	check_boundary(g, 65, -1, false, "2^65 - 1 paths");
	ipp_graph_free(g);
	g = rg_diamond_chain(65);
	check_boundary(g, 65, 0, false, "2^65 paths");
	ipp_graph_free(g);
}

/* ------------------------------------------------------------------ */
/* A region past 2^64 beside narrow ones                                */
/* ------------------------------------------------------------------ */

/* main: 70 diamonds, a call of g, Exit.  g (an entry of its own): 3
 * diamonds.  Context and piecewise: main's region has 2^70 x 2^3 paths,
 * g's Entry region 2^3.  Intra modes: main 2^70 (the call summarized), g
 * 2^3. */
static void test_mixed(void)
{
	ipp_graph *g = ipp_graph_new();
	ipp_id m = ipp_add_proc(g, "main", "main", IPP_PROC_ENTRY);
	ipp_id q = ipp_add_proc(g, "g", "g", IPP_PROC_ENTRY);
	ipp_id c = ipp_add_call(g, m, q, 0);
	struct tally t = { 0, 0, 0 };

	ipp_add_edge(g, rg_append_diamonds(g, m, ipp_proc_entry(g, m), 70), c);
	ipp_add_edge(g, c + 1, ipp_proc_exit(g, m));
	ipp_add_edge(g, rg_append_diamonds(g, q, ipp_proc_entry(g, q), 3), ipp_proc_exit(g, q));
	for (int k = 0; k < IPP_MODE_COUNT; k++) {
		char err[256] = "", label[64];
		ipp_fin *f = ipp_fin_new(g, all_modes[k], NULL, err, sizeof(err));
		brute_counter *bc;
		gmp_randstate_t rs;
		mpz_t total, num;
		ipp_id rm, rg;

		snprintf(label, sizeof(label), "main past 2^64, g narrow, %s",
			 ipp_mode_name(all_modes[k]));
		CHECKF(f != NULL, "[%s] %s", label, err);
		if (f == NULL)
			continue;
		rm = ipp_fin_region_find(f, "main");
		rg = ipp_fin_region_find(f, "g");
		CU_ASSERT_FATAL(rm != IPP_NONE && rg != IPP_NONE);
		CU_ASSERT(!ipp_fin_region_narrow(f, rm));
		CU_ASSERT(ipp_fin_region_narrow(f, rg));
		bc = brute_counter_new(f);
		mpz_inits(total, num, NULL);
		ipp_fin_region_total(f, rg, total);
		CU_ASSERT(mpz_cmp_ui(total, 8) == 0);
		for (mpz_set_ui(num, 0); mpz_cmp(num, total) < 0; mpz_add_ui(num, num, 1))
			check_number(f, bc, rg, num, true, label, &t);
		ipp_fin_region_total(f, rm, total);
		gmp_randinit_default(rs);
		gmp_randseed_ui(rs, 70 + (unsigned long)k);
		for (int i = 0; i < 50; i++) {
			mpz_urandomm(num, rs, total);
			check_number(f, bc, rm, num, i == 0, label, &t);
		}
		gmp_randclear(rs);
		mpz_clears(total, num, NULL);
		brute_counter_free(bc);
		ipp_fin_free(f);
	}
	CU_ASSERT(t.narrow == 4 * 8);
	ipp_graph_free(g);
}

/* main calls f twice; f: 40 diamonds.  Context and piecewise: main's
 * region has 2^40 x 2^40 paths, though no psi or rho value passes 2^40:
 * not narrow (nvc is 2^40 inside the first call, rho up to 2^39 - 1 there).
 * Intra modes: main has 1 path, f 2^40, both narrow. */
static void test_small_values(void)
{
	ipp_graph *g = rg_diamond_chain_calls(40, 2);
	struct tally t = { 0, 0, 0 };

	for (int k = 0; k < IPP_MODE_COUNT; k++) {
		bool intra = all_modes[k] == IPP_MODE_INTRA || all_modes[k] == IPP_MODE_INTRA_CONTEXT;
		char err[256] = "", label[64];
		ipp_fin *f = ipp_fin_new(g, all_modes[k], NULL, err, sizeof(err));
		brute_counter *bc;
		gmp_randstate_t rs;
		mpz_t total, num;

		snprintf(label, sizeof(label), "2 calls x 40 diamonds, %s",
			 ipp_mode_name(all_modes[k]));
		CHECKF(f != NULL, "[%s] %s", label, err);
		if (f == NULL)
			continue;
		bc = brute_counter_new(f);
		mpz_inits(total, num, NULL);
		gmp_randinit_default(rs);
		gmp_randseed_ui(rs, 80 + (unsigned long)k);
		for (size_t r = 0; r < ipp_fin_nregions(f); r++) {
			ipp_fin_region_total(f, (ipp_id)r, total);
			CHECKF(ipp_fin_region_narrow(f, (ipp_id)r) == intra,
			       "[%s] region %zu: narrow is %d", label, r, !intra);
			for (int i = 0; i < 40; i++) {
				/* below 2^64 too: they decode with GMP all the same */
				if (i % 2)
					mpz_urandomb(num, rs, 64);
				else
					mpz_urandomm(num, rs, total);
				if (mpz_cmp(num, total) < 0)
					check_number(f, bc, (ipp_id)r, num, i == 0, label, &t);
			}
		}
		gmp_randclear(rs);
		mpz_clears(total, num, NULL);
		brute_counter_free(bc);
		ipp_fin_free(f);
	}
	CU_ASSERT(t.narrow >= 2 * 40 && t.wide >= 4 * 40);
	ipp_graph_free(g);
}

/* Piecewise.  main: call d; call p; Exit.  d: 70 diamonds.  p: a loop
 * (h -> b -> h, h -> Exit), so p has a GEntry region p#g, whose paths
 * start at h and may return, unmatched, into main after its call of p.
 * main's own psi and rho values fit (single successors; psi of its return
 * sites is at most 2 x 3), but main calls d, whose values do not: main is
 * bad below, p bad around, and p#g is not narrow, though its walks never
 * enter d and it has few paths.  Every number of p#g decodes with GMP to
 * the definition's path; in 64 bits it is refused. */
static void test_rule_per_procedure(void)
{
	ipp_graph *g = ipp_graph_new();
	ipp_id m = ipp_add_proc(g, "main", "main", IPP_PROC_ENTRY);
	ipp_id d = ipp_add_proc(g, "d", "d", 0), p = ipp_add_proc(g, "p", "p", 0);
	ipp_id cd = ipp_add_call(g, m, d, 0), cp = ipp_add_call(g, m, p, 0);
	ipp_id h, b;
	struct tally t = { 0, 0, 0 };
	char err[256] = "";
	ipp_fin *f;

	ipp_add_edge(g, ipp_proc_entry(g, m), cd);
	ipp_add_edge(g, cd + 1, cp);
	ipp_add_edge(g, cp + 1, ipp_proc_exit(g, m));
	ipp_add_edge(g, rg_append_diamonds(g, d, ipp_proc_entry(g, d), 70), ipp_proc_exit(g, d));
	h = ipp_add_block(g, p);
	b = ipp_add_block(g, p);
	ipp_add_edge(g, ipp_proc_entry(g, p), h);
	ipp_add_edge(g, h, b);
	ipp_add_edge(g, b, h);
	ipp_add_edge(g, h, ipp_proc_exit(g, p));
	f = ipp_fin_new(g, IPP_MODE_PIECEWISE, NULL, err, sizeof(err));
	CHECKF(f != NULL, "[piecewise rule] %s", err);
	if (f != NULL) {
		ipp_id rm = ipp_fin_region_find(f, "main"), rp = ipp_fin_region_find(f, "p#g");
		brute_counter *bc = brute_counter_new(f);
		mpz_t total, num;
		mpz_inits(total, num, NULL);
		CU_ASSERT_FATAL(rm != IPP_NONE && rp != IPP_NONE);
		CU_ASSERT(!ipp_fin_region_narrow(f, rm));
		CU_ASSERT(!ipp_fin_region_narrow(f, rp));
		ipp_fin_region_total(f, rp, total);
		CU_ASSERT(mpz_cmp_ui(total, 0) > 0 && mpz_cmp_ui(total, 100) < 0);
		for (mpz_set_ui(num, 0); mpz_cmp(num, total) < 0; mpz_add_ui(num, num, 1))
			check_number(f, bc, rp, num, true, "piecewise rule, p#g", &t);
		CU_ASSERT(t.narrow == 0 && t.wide > 0);
		mpz_clears(total, num, NULL);
		brute_counter_free(bc);
		ipp_fin_free(f);
	}
	ipp_graph_free(g);
}

/* Run last: what the decoders did in all the tests before. */
static void test_stats(void)
{
	printf("\n    64-bit walks %zu, GMP walks %zu, overflowed %zu", ipp_decode_stats.narrow,
	       ipp_decode_stats.wide, ipp_decode_stats.widened);
	CU_ASSERT(ipp_decode_stats.widened == 0);
	CU_ASSERT(ipp_decode_stats.narrow > 10000);
	CU_ASSERT(ipp_decode_stats.wide > 10000);
}

int main(void)
{
	CU_pSuite s;
	unsigned failed;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("decode64", NULL, NULL);
	if (!s || !CU_add_test(s, "random graphs: every path, both ways", test_random) ||
	    !CU_add_test(s, "2^64 - 1, 2^64, 2^65 - 1, 2^65 paths", test_boundary) ||
	    !CU_add_test(s, "a region past 2^64 beside narrow ones", test_mixed) ||
	    !CU_add_test(s, "2^80 paths of small psi and rho values", test_small_values) ||
	    !CU_add_test(s, "the rule is per procedure", test_rule_per_procedure) ||
	    !CU_add_test(s, "no 64-bit walk overflowed", test_stats))
		return 1;
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failed = CU_get_number_of_failures();
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
