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

/* One procedure: Entry -> d_1 -> ... -> d_n -> Exit, each d_i a diamond. */
static ipp_graph *diamonds(int n)
{
	ipp_graph *g = ipp_graph_new();
	ipp_id p = ipp_add_proc(g, "f", "f", IPP_PROC_ENTRY);
	ipp_id prev = ipp_proc_entry(g, p);
	for (int i = 0; i < n; i++) {
		ipp_id top = ipp_add_block(g, p), l = ipp_add_block(g, p);
		ipp_id r = ipp_add_block(g, p), j = ipp_add_block(g, p);
		ipp_add_edge(g, prev, top);
		ipp_add_edge(g, top, l);
		ipp_add_edge(g, top, r);
		ipp_add_edge(g, l, j);
		ipp_add_edge(g, r, j);
		prev = j;
	}
	ipp_add_edge(g, prev, ipp_proc_exit(g, p));
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
		ipp_id top = ipp_add_block(g, p[i]), l = ipp_add_block(g, p[i]);
		ipp_id r = ipp_add_block(g, p[i]), j = ipp_add_block(g, p[i]);
		ipp_add_edge(g, ipp_proc_entry(g, p[i]), top);
		ipp_add_edge(g, top, l);
		ipp_add_edge(g, top, r);
		ipp_add_edge(g, l, j);
		ipp_add_edge(g, r, j);
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

void register_big_tests(void)
{
	CU_pSuite s = CU_add_suite("numbers past 64 bits", NULL, NULL);
	CU_add_test(s, "80 diamonds: 2^80 paths, exactly", test_80_diamonds_exact);
	CU_add_test(s, "80 diamonds: cut to fit", test_80_diamonds_cut);
	CU_add_test(s, "call chain: interprocedural cuts first", test_interprocedural_cut_first);
}
