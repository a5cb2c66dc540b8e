/* test_big.c -- path counts past 64 bits, and cuts that make them fit.
 *
 * Expected values are arithmetic stated here: a chain of n independent
 * diamonds has 2^n paths; a chain of n procedures, each a diamond followed
 * by a call to the next, has 2^n interprocedural context paths but only 2
 * (or 1) paths per procedure in the intraprocedural mode.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "ipp_core.h"
#include "test_core.h"

static const char *U64MAX = "18446744073709551615";

/* n diamonds in procedure p from 'from'; returns the last join. */
static ipp_id add_diamonds(ipp_graph *g, ipp_id p, ipp_id from, int n)
{
	for (int i = 0; i < n; i++) {
		ipp_id top = ipp_add_block(g, p), l = ipp_add_block(g, p);
		ipp_id r = ipp_add_block(g, p), j = ipp_add_block(g, p);
		ipp_add_edge(g, from, top);
		ipp_add_edge(g, top, l);
		ipp_add_edge(g, top, r);
		ipp_add_edge(g, l, j);
		ipp_add_edge(g, r, j);
		from = j;
	}
	return from;
}

/* One procedure: Entry -> d_1 -> ... -> d_n -> Exit, each d_i a diamond. */
static ipp_graph *diamonds(int n)
{
	ipp_graph *g = ipp_graph_new();
	ipp_id p = ipp_add_proc(g, "f", "f", IPP_PROC_ENTRY);
	ipp_add_edge(g, add_diamonds(g, p, ipp_proc_entry(g, p), n), ipp_proc_exit(g, p));
	return g;
}

/* n procedures p_0 .. p_{n-1}; p_i = diamond; call p_{i+1}; Exit.  Only p_0
 * is an entry: the others are reached through the chain of calls. */
static ipp_graph *call_chain(int n)
{
	ipp_graph *g = ipp_graph_new();
	ipp_id *p = malloc(n * sizeof(ipp_id));
	char name[32];
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "p%d", i);
		p[i] = ipp_add_proc(g, name, name, i == 0 ? IPP_PROC_ENTRY : 0);
	}
	for (int i = 0; i < n; i++) {
		ipp_id j = add_diamonds(g, p[i], ipp_proc_entry(g, p[i]), 1);
		if (i + 1 < n) {
			ipp_id c = ipp_add_call(g, p[i], p[i + 1], 0);
			ipp_add_edge(g, j, c);
			ipp_add_edge(g, c + 1, ipp_proc_exit(g, p[i]));
		} else {
			ipp_add_edge(g, j, ipp_proc_exit(g, p[i]));
		}
	}
	free(p);
	return g;
}

/* main: a continuing call to spin, then 70 diamonds.  spin loops forever:
 * no path from Entry_spin reaches Exit_spin, so psi_{Entry_spin} = <0, 2>
 * (the loop entered, or restarted at its head) and main's call vertex c
 * has psi_c = 0 * psi_r + 2: main's region holds 2 paths, but its return
 * site r has 2^70, which bounds nothing and nothing bounds (the plugin's
 * lin_val stopped on such a psi_r: testsuite/compile/spin-return.c). */
static ipp_graph *after_spin(void)
{
	ipp_graph *g = ipp_graph_new();
	ipp_id m = ipp_add_proc(g, "main", "main", IPP_PROC_ENTRY);
	ipp_id q = ipp_add_proc(g, "spin", "spin", 0);
	ipp_id loop = ipp_add_block(g, q);
	ipp_id c = ipp_add_call(g, m, q, 0);
	ipp_add_edge(g, ipp_proc_entry(g, q), loop);
	ipp_add_edge(g, loop, loop);
	ipp_add_edge(g, ipp_proc_entry(g, m), c);
	ipp_add_edge(g, add_diamonds(g, m, c + 1, 70), ipp_proc_exit(g, m));
	return g;
}

/* The shape of the graph where the plugin stopped on SQLite (f343cee):
 * main calls u, a diamond; d and e are reached by no region (d's callers
 * were summarized without their callee), d calls e, and e is 70 diamonds,
 * a continuing call to u, then 70 more.  Nothing bounds e: psi at the
 * return site r of its call to u is 2^70. */
static ipp_graph *dead_caller(void)
{
	ipp_graph *g = ipp_graph_new();
	ipp_id m = ipp_add_proc(g, "main", "main", IPP_PROC_ENTRY);
	ipp_id u = ipp_add_proc(g, "u", "u", 0);
	ipp_id d = ipp_add_proc(g, "d", "d", 0);
	ipp_id e = ipp_add_proc(g, "e", "e", 0);
	ipp_id c;
	c = ipp_add_call(g, m, u, 0);
	ipp_add_edge(g, ipp_proc_entry(g, m), c);
	ipp_add_edge(g, c + 1, ipp_proc_exit(g, m));
	ipp_add_edge(g, add_diamonds(g, u, ipp_proc_entry(g, u), 1), ipp_proc_exit(g, u));
	c = ipp_add_call(g, d, e, 0);
	ipp_add_edge(g, ipp_proc_entry(g, d), c);
	ipp_add_edge(g, c + 1, ipp_proc_exit(g, d));
	c = ipp_add_call(g, e, u, 0);
	ipp_add_edge(g, add_diamonds(g, e, ipp_proc_entry(g, e), 70), c);
	ipp_add_edge(g, add_diamonds(g, e, c + 1, 70), ipp_proc_exit(g, e));
	return g;
}

/* decode(n) then encode gives n back, for n = 0, 1, total-1, total/3. */
static void round_trips(const ipp_fin *f)
{
	char err[256];
	mpz_t t, n, m;
	mpz_inits(t, n, m, NULL);
	for (size_t r = 0; r < ipp_fin_nregions(f); r++) {
		ipp_fin_region_total(f, (ipp_id)r, t);
		for (int k = 0; k < 4; k++) {
			ipp_path p;
			ipp_id reg;
			switch (k) {
			case 0: mpz_set_ui(n, 0); break;
			case 1: mpz_set_ui(n, 1); break;
			case 2: mpz_sub_ui(n, t, 1); break;
			default: mpz_fdiv_q_ui(n, t, 3); break;
			}
			if (mpz_cmp(n, t) >= 0)
				continue;
			ipp_path_init(&p);
			CU_ASSERT_FATAL(ipp_decode(f, (ipp_id)r, n, &p, err, sizeof(err)) == 0);
			CU_ASSERT_FATAL(ipp_encode(f, p.edges, p.nedges, &reg, m, NULL, NULL, err,
						   sizeof(err)) == 0);
			CU_ASSERT_EQUAL(reg, (ipp_id)r);
			CU_ASSERT_EQUAL(mpz_cmp(m, n), 0);
			ipp_path_free(&p);
		}
		/* the total itself is out of range */
		{
			ipp_path p;
			ipp_path_init(&p);
			CU_ASSERT(ipp_decode(f, (ipp_id)r, t, &p, err, sizeof(err)) < 0);
		}
	}
	mpz_clears(t, n, m, NULL);
}

static void all_regions_fit(const ipp_fin *f, const mpz_t limit)
{
	mpz_t t;
	mpz_init(t);
	for (size_t r = 0; r < ipp_fin_nregions(f); r++) {
		ipp_fin_region_total(f, (ipp_id)r, t);
		CU_ASSERT(mpz_cmp(t, limit) <= 0);
	}
	mpz_clear(t);
}

/* Every psi and rho of G*fin, at x = 1, is at most limit: each is a
 * constant the plugin emits, reached by a path or not. */
static void every_number_fits(const ipp_fin *f, const mpz_t limit)
{
	mpz_t a, b;
	mpz_inits(a, b, NULL);
	for (size_t v = 0; v < ipp_fin_nvertices(f); v++) {
		ipp_fin_psi(f, (ipp_id)v, a, b);
		mpz_add(a, a, b);
		CU_ASSERT(mpz_cmp(a, limit) <= 0);
	}
	for (size_t e = 0; e < ipp_fin_nedges(f); e++) {
		ipp_fin_rho(f, (ipp_id)e, a, b);
		mpz_add(a, a, b);
		CU_ASSERT(mpz_cmp(a, limit) <= 0);
	}
	mpz_clears(a, b, NULL);
}

static void test_80_diamonds_exact(void)
{
	ipp_graph *g = diamonds(80);
	char err[256];
	mpz_t t, expect;
	for (int mode = 0; mode < IPP_MODE_COUNT; mode++) {
		ipp_fin *f = ipp_fin_new(g, mode, NULL, err, sizeof(err));
		CU_ASSERT_FATAL(f != NULL);
		mpz_inits(t, expect, NULL);
		ipp_fin_region_total(f, 0, t);
		mpz_ui_pow_ui(expect, 2, 80);	/* 2^80 = 1208925819614629174706176 */
		CU_ASSERT_EQUAL(mpz_cmp(t, expect), 0);
		round_trips(f);
		mpz_clears(t, expect, NULL);
		ipp_fin_free(f);
	}
	ipp_graph_free(g);
}

static void test_80_diamonds_cut(void)
{
	ipp_graph *g = diamonds(80);
	char err[256];
	const char *limits[] = { U64MAX, "4294967295", "1000" };
	for (int mode = 0; mode < IPP_MODE_COUNT; mode++)
		for (size_t li = 0; li < sizeof(limits) / sizeof(limits[0]); li++) {
			ipp_cuts c;
			ipp_fin *f;
			mpz_t limit;
			mpz_init_set_str(limit, limits[li], 10);
			ipp_cuts_init(&c);
			CU_ASSERT_FATAL(ipp_autocut(g, mode, limit, &c, err, sizeof(err)) == 0);
			CU_ASSERT(c.nvertices > 0);
			CU_ASSERT_EQUAL(c.ncalls, 0);
			f = ipp_fin_new(g, mode, &c, err, sizeof(err));
			CU_ASSERT_FATAL(f != NULL);
			all_regions_fit(f, limit);
			round_trips(f);
			/* autocut is deterministic */
			{
				ipp_cuts c2;
				ipp_cuts_init(&c2);
				CU_ASSERT_FATAL(ipp_autocut(g, mode, limit, &c2, err, sizeof(err)) == 0);
				CU_ASSERT_EQUAL(c2.nvertices, c.nvertices);
				CU_ASSERT(c.nvertices == 0 ||
					  memcmp(c.vertices, c2.vertices, c.nvertices * sizeof(ipp_id)) == 0);
				ipp_cuts_free(&c2);
			}
			ipp_fin_free(f);
			ipp_cuts_free(&c);
			mpz_clear(limit);
		}
	ipp_graph_free(g);
}

static void test_interprocedural_cut_first(void)
{
	ipp_graph *g = call_chain(80);
	char err[256];
	ipp_fin *f;
	ipp_cuts c;
	mpz_t t, expect, limit;
	mpz_inits(t, expect, NULL);
	/* context: 2^80 paths from p0's entry (each level doubles) */
	f = ipp_fin_new(g, IPP_MODE_CONTEXT, NULL, err, sizeof(err));
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL(ipp_fin_nregions(f), 1);
	ipp_fin_total(f, t);
	mpz_ui_pow_ui(expect, 2, 80);
	CU_ASSERT_EQUAL(mpz_cmp(t, expect), 0);
	round_trips(f);
	ipp_fin_free(f);
	/* intra: 2 paths in each of the 80 procedures */
	f = ipp_fin_new(g, IPP_MODE_INTRA, NULL, err, sizeof(err));
	ipp_fin_total(f, t);
	CU_ASSERT_EQUAL(mpz_cmp_ui(t, 160), 0);
	ipp_fin_free(f);
	/* cutting for 64 bits summarizes call sites and never splits a procedure */
	mpz_init_set_str(limit, U64MAX, 10);
	ipp_cuts_init(&c);
	CU_ASSERT_FATAL(ipp_autocut(g, IPP_MODE_CONTEXT, limit, &c, err, sizeof(err)) == 0);
	CU_ASSERT_EQUAL(c.nvertices, 0);
	CU_ASSERT(c.ncalls >= 1);
	f = ipp_fin_new(g, IPP_MODE_CONTEXT, &c, err, sizeof(err));
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT(ipp_fin_nregions(f) == 1 + c.ncalls);	/* each cut callee is entered afresh */
	all_regions_fit(f, limit);
	round_trips(f);
	ipp_fin_free(f);
	ipp_cuts_free(&c);
	mpz_clears(t, expect, limit, NULL);
	ipp_graph_free(g);
}

/* g has 2 paths in context mode, main's region only, but psi_r = <2^70, 0>
 * at a return site r that no path from a region reaches.  Cut for 64 bits
 * in every mode: exactly the vertex cuts want[mode] (nwant of them), no
 * call site summarized, every psi and rho within the limit, and then
 * psi_r = <0, psi_r_cut>; context mode keeps main's region and its paths,
 * plus ctx_extra from the surrogate edges of the cuts in main. */
static void check_unreached_cut(ipp_graph *g, ipp_id r, const ipp_id *const want[IPP_MODE_COUNT],
				size_t nwant, unsigned long psi_r_cut, const mpz_t ctx_extra)
{
	char err[256];
	ipp_fin *f;
	ipp_cuts c;
	mpz_t t, limit, a, b;
	mpz_inits(t, a, b, NULL);
	mpz_init_set_str(limit, U64MAX, 10);
	CU_ASSERT_EQUAL_FATAL(ipp_vertex_kind(g, r), IPP_V_RETSITE);
	f = ipp_fin_new(g, IPP_MODE_CONTEXT, NULL, err, sizeof(err));
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL(ipp_fin_nregions(f), 1);
	ipp_fin_total(f, t);
	CU_ASSERT_EQUAL(mpz_cmp_ui(t, 2), 0);
	ipp_fin_psi(f, r, a, b);
	mpz_ui_pow_ui(t, 2, 70);
	CU_ASSERT(mpz_cmp(a, t) == 0 && mpz_sgn(b) == 0);
	ipp_fin_free(f);
	for (int mode = 0; mode < IPP_MODE_COUNT; mode++) {
		ipp_cuts_init(&c);
		CU_ASSERT_FATAL(ipp_autocut(g, mode, limit, &c, err, sizeof(err)) == 0);
		CU_ASSERT_EQUAL(c.ncalls, 0);
		CU_ASSERT_EQUAL(c.nvertices, nwant);
		CU_ASSERT(c.nvertices == nwant &&
			  memcmp(c.vertices, want[mode], nwant * sizeof(ipp_id)) == 0);
		f = ipp_fin_new(g, mode, &c, err, sizeof(err));
		CU_ASSERT_FATAL(f != NULL);
		every_number_fits(f, limit);
		all_regions_fit(f, limit);
		round_trips(f);
		ipp_fin_psi(f, r, a, b);
		CU_ASSERT(mpz_sgn(a) == 0 && mpz_cmp_ui(b, psi_r_cut) == 0);
		if (mode == IPP_MODE_CONTEXT) {
			CU_ASSERT_EQUAL(ipp_fin_nregions(f), 1);
			mpz_add_ui(a, ctx_extra, 2);
			ipp_fin_total(f, t);
			CU_ASSERT_EQUAL(mpz_cmp(t, a), 0);
		}
		ipp_fin_free(f);
		ipp_cuts_free(&c);
	}
	mpz_clears(t, limit, a, b, NULL);
}

static void test_unreached_return_site(void)
{
	/* main has 286 vertices: tau = floor((2^64-1) / 287), about 2^55.8.
	 * In every mode the budget walk cuts both arms of diamond 14, the
	 * first whose top has more than tau paths (2^56); 55 diamonds follow,
	 * 2^55 paths from each arm, and r keeps 14 diamonds before the cut.
	 * main's region: spin's 2 paths, and 2^55 from each cut arm. */
	ipp_graph *g = after_spin();
	static const ipp_id cut[] = { 70, 71 };
	const ipp_id *const want[IPP_MODE_COUNT] = {
		[IPP_MODE_CONTEXT] = cut, [IPP_MODE_PIECEWISE] = cut,
		[IPP_MODE_INTRA] = cut, [IPP_MODE_INTRA_CONTEXT] = cut,
	};
	mpz_t extra;
	mpz_init(extra);
	mpz_ui_pow_ui(extra, 2, 56);
	/* r: 0, 1 global; 2-5 main; 6-9 spin; spin's loop; main's call */
	check_unreached_cut(g, 12, want, 2, 16384, extra);
	mpz_clear(extra);
	ipp_graph_free(g);
}

static void test_dead_procedure(void)
{
	/* e has 566 vertices: tau = floor((2^64-1) / 567), about 2^54.9.
	 * Walking e successors first, the budget walk cuts both arms of the
	 * first diamond whose top has more than tau paths: after r, diamond 15
	 * (2^55: 55 diamonds follow); before the call, diamond 31 (2^55: 39
	 * diamonds, u's 2 paths, r's 2^15).  In the intraprocedural modes the
	 * call is summarized, without u's factor 2: diamond 30.  The cuts are
	 * in e: main's region is as it was. */
	ipp_graph *g = dead_caller();
	static const ipp_id ctx[] = { 153, 154, 369, 370 }, intra[] = { 149, 150, 369, 370 };
	const ipp_id *const want[IPP_MODE_COUNT] = {
		[IPP_MODE_CONTEXT] = ctx, [IPP_MODE_PIECEWISE] = ctx,
		[IPP_MODE_INTRA] = intra, [IPP_MODE_INTRA_CONTEXT] = intra,
	};
	mpz_t extra;
	mpz_init(extra);
	/* r: 0, 1 global; 2-17 main, u, d, e; main's call; u's diamond;
	 * d's call; e's call */
	check_unreached_cut(g, 27, want, 4, 32768, extra);
	for (size_t i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(ipp_vertex_proc(g, ctx[i]), ipp_proc_find(g, "e"));
	mpz_clear(extra);
	ipp_graph_free(g);
}

void register_big_tests(void)
{
	CU_pSuite s = CU_add_suite("numbers past 64 bits", NULL, NULL);
	CU_add_test(s, "80 diamonds: 2^80 paths, exactly", test_80_diamonds_exact);
	CU_add_test(s, "80 diamonds: cut to fit", test_80_diamonds_cut);
	CU_add_test(s, "call chain: interprocedural cuts first", test_interprocedural_cut_first);
	CU_add_test(s, "a return site no path reaches fits too", test_unreached_return_site);
	CU_add_test(s, "a procedure no region reaches fits too", test_dead_procedure);
}
