/* test_paper.c -- the paper's printed figures, reproduced exactly.
 *
 * Oracle: Melski & Reps TR-1382.  Figure 7's caption gives psi_u1 and the
 * six non-zero rho functions of G*fin for the Figure 4 program; Figure 9
 * prints the context profile (12 non-zero counters, 49 observations);
 * Section 6.1 gives 8 + 8 + 5 = 21 piecewise paths and Figures 16-17 and the
 * output after them give the piecewise constants and profile.
 *
 * The profile tests do not trust the numbering: they *execute* the Figure 4
 * program's control flow (i = 1..19, pow(i, 2) from the two call sites),
 * cut the execution into observable paths exactly as the paper's
 * instrumentation does (Figures 8-9 and 16-17), encode each observed path
 * with ipp_encode, and compare the resulting counters with the figures.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "ipp_core.h"
#include "fig4.h"
#include "test_core.h"

static ipp_graph *G;

static ipp_id V(const char *name)
{
	ipp_id v = fig4_vertex(name);
	CU_ASSERT_FATAL(v != IPP_NONE);
	return v;
}

/* The G*fin edge src -> dst of the given kind (the first one). */
static ipp_id E(const ipp_fin *f, const char *src, const char *dst, enum ipp_ekind kind)
{
	ipp_id s = V(src), d = V(dst);
	for (size_t i = 0; i < ipp_fin_nedges(f); i++)
		if (ipp_fin_esrc(f, (ipp_id)i) == s && ipp_fin_edst(f, (ipp_id)i) == d &&
		    ipp_fin_ekind(f, (ipp_id)i) == kind)
			return (ipp_id)i;
	CU_FAIL_FATAL("edge not found");
	return IPP_NONE;
}

static void check_lin(const char *what, mpz_t a, mpz_t b, long ea, long eb)
{
	if (mpz_cmp_si(a, ea) || mpz_cmp_si(b, eb)) {
		gmp_fprintf(stderr, "\n%s = <%Zd,%Zd>, expected <%ld,%ld>\n", what, a, b, ea, eb);
		CU_FAIL("linear function differs from the paper");
	} else {
		CU_PASS(what);
	}
}

static void psi_is(const ipp_fin *f, const char *v, long ea, long eb)
{
	mpz_t a, b;
	mpz_inits(a, b, NULL);
	ipp_fin_psi(f, V(v), a, b);
	check_lin(v, a, b, ea, eb);
	mpz_clears(a, b, NULL);
}

static void rho_is(const ipp_fin *f, ipp_id e, long ea, long eb)
{
	mpz_t a, b;
	char what[64];
	mpz_inits(a, b, NULL);
	ipp_fin_rho(f, e, a, b);
	snprintf(what, sizeof(what), "rho of edge %d", (int)e);
	check_lin(what, a, b, ea, eb);
	mpz_clears(a, b, NULL);
}

static ipp_fin *build(enum ipp_mode mode)
{
	char err[256];
	ipp_fin *f = ipp_fin_new(G, mode, NULL, err, sizeof(err));
	if (!f)
		fprintf(stderr, "\n%s\n", err);
	CU_ASSERT_FATAL(f != NULL);
	return f;
}

/* ---- Figure 7 ---- */

static void test_figure7_psi_rho(void)
{
	ipp_fin *f = build(IPP_MODE_CONTEXT);
	mpz_t a, b;
	size_t nonzero = 0;

	/* "psi_u1 = lambda x. 2x + 2" (Section 3.3) */
	psi_is(f, "u1", 2, 2);
	/* Exit and GExit: equations 19 and 20 */
	psi_is(f, "v16", 1, 0);
	psi_is(f, "u8", 1, 0);
	psi_is(f, "v14", 0, 1);
	psi_is(f, "u6", 0, 1);
	/* the six labelled edges of Figure 7's caption */
	rho_is(f, E(f, "v1", "v4", IPP_E_SURR_ENTRY), 1, 17);
	rho_is(f, E(f, "v4", "v15", IPP_E_NORMAL), 0, 17);
	rho_is(f, E(f, "v5", "v9", IPP_E_NORMAL), 0, 12);
	rho_is(f, E(f, "v9", "v13", IPP_E_NORMAL), 0, 4);
	rho_is(f, E(f, "u1", "u3", IPP_E_SURR_ENTRY), 1, 1);
	rho_is(f, E(f, "u3", "u7", IPP_E_NORMAL), 0, 1);
	/* "Only six edges are labeled with functions other than <0,0>" */
	mpz_inits(a, b, NULL);
	for (size_t e = 0; e < ipp_fin_nedges(f); e++) {
		ipp_fin_rho(f, (ipp_id)e, a, b);
		if (mpz_sgn(a) || mpz_sgn(b))
			nonzero++;
	}
	CU_ASSERT_EQUAL(nonzero, 6);
	/* Figure 9: the fourth argument at call site 1 is always 5, at site 2 always 1:
	 * psi of the return sites v7 and v11 applied to main's nvc (1). */
	psi_is(f, "v7", 0, 5);
	psi_is(f, "v11", 0, 1);
	mpz_clears(a, b, NULL);
	ipp_fin_free(f);
}

static void test_figure7_total(void)
{
	ipp_fin *f = build(IPP_MODE_CONTEXT);
	mpz_t t;
	mpz_init(t);
	ipp_fin_total(f, t);
	CU_ASSERT_EQUAL(mpz_cmp_ui(t, 36), 0);	/* "unsigned int profile[36]" */
	CU_ASSERT_EQUAL(ipp_fin_nregions(f), 1);	/* pow is static: main is the only way in */
	mpz_clear(t);
	ipp_fin_free(f);
}

/* ---- executing Figure 4 ---- */

struct counter {
	unsigned long long n[64];
	unsigned observations;
};

struct sim {
	const ipp_fin *f;
	enum ipp_mode mode;
	ipp_path path;
	size_t entry_len[2];	/* context: path length on entry to main / pow */
	struct counter *out;
};

static void sim_edge(struct sim *s, ipp_id e)
{
	ipp_path_push(&s->path, e);
}

/* Records the current path (the paper's "profile[pathNum]++"): global number
 * = region offset + number within the region. */
static void sim_record(struct sim *s)
{
	ipp_id region;
	mpz_t num, off;
	char err[256];
	mpz_inits(num, off, NULL);
	if (ipp_encode(s->f, s->path.edges, s->path.nedges, &region, num, NULL, NULL, err,
		       sizeof(err)) < 0) {
		fprintf(stderr, "\nencode: %s\n", err);
		CU_FAIL_FATAL("the simulated path does not encode");
	}
	ipp_fin_region_offset(s->f, region, off);
	mpz_add(num, num, off);
	CU_ASSERT_FATAL(mpz_cmp_ui(num, 64) < 0);
	s->out->n[mpz_get_ui(num)]++;
	s->out->observations++;
	mpz_clears(num, off, NULL);
}

/* A back edge in procedure P (header h, source w): record the path that
 * ends w -> GExit_P -> Exit_global, then start the next one. */
static void sim_back_edge(struct sim *s, int proc, const char *w, const char *gexit,
			  const char *entry, const char *gentry, const char *h)
{
	const ipp_fin *f = s->f;
	sim_edge(s, E(f, w, gexit, IPP_E_SURR_EXIT));
	sim_edge(s, E(f, gexit, "Exit_global", IPP_E_GLOBAL_EXIT));
	sim_record(s);
	if (s->mode == IPP_MODE_CONTEXT) {
		/* keep the context prefix up to Entry_P (pathNumOnEntry) */
		s->path.nedges = s->entry_len[proc];
		sim_edge(s, E(f, entry, h, IPP_E_SURR_ENTRY));
	} else {
		/* piecewise: a fresh path Entry_global -> GEntry_P -> h */
		s->path.nedges = 0;
		sim_edge(s, E(f, "Entry_global", gentry, IPP_E_GLOBAL_ENTRY));
		sim_edge(s, E(f, gentry, h, IPP_E_SURR_ENTRY));
	}
}

static void sim_pow(struct sim *s, const char *c, const char *r, long exp)
{
	const ipp_fin *f = s->f;
	sim_edge(s, E(f, c, "u1", IPP_E_CALL));
	s->entry_len[1] = s->path.nedges;
	sim_edge(s, E(f, "u1", "u2", IPP_E_NORMAL));
	sim_edge(s, E(f, "u2", "u3", IPP_E_NORMAL));
	while (exp > 0) {	/* while (exp > 0) { power *= base; exp--; } */
		sim_edge(s, E(f, "u3", "u4", IPP_E_NORMAL));
		sim_edge(s, E(f, "u4", "u5", IPP_E_NORMAL));
		exp--;
		sim_back_edge(s, 1, "u5", "u6", "u1", "u9", "u3");
	}
	sim_edge(s, E(f, "u3", "u7", IPP_E_NORMAL));
	sim_edge(s, E(f, "u7", "u8", IPP_E_NORMAL));
	sim_edge(s, E(f, "u8", r, IPP_E_RETURN));
}

static void sim_main(struct sim *s)
{
	const ipp_fin *f = s->f;
	int i = 1;
	ipp_path_init(&s->path);
	sim_edge(s, E(f, "Entry_global", "v1", IPP_E_GLOBAL_ENTRY));
	s->entry_len[0] = s->path.nedges;
	sim_edge(s, E(f, "v1", "v2", IPP_E_NORMAL));
	sim_edge(s, E(f, "v2", "v3", IPP_E_NORMAL));
	sim_edge(s, E(f, "v3", "v4", IPP_E_NORMAL));
	while (i <= 18) {
		sim_edge(s, E(f, "v4", "v5", IPP_E_NORMAL));
		if (i % 2 == 0) {
			sim_edge(s, E(f, "v5", "v6", IPP_E_NORMAL));
			sim_pow(s, "v6", "v7", 2);
			sim_edge(s, E(f, "v7", "v8", IPP_E_NORMAL));
			sim_edge(s, E(f, "v8", "v9", IPP_E_NORMAL));
		} else {
			sim_edge(s, E(f, "v5", "v9", IPP_E_NORMAL));
		}
		if (i % 3 == 0) {
			sim_edge(s, E(f, "v9", "v10", IPP_E_NORMAL));
			sim_pow(s, "v10", "v11", 2);
			sim_edge(s, E(f, "v11", "v12", IPP_E_NORMAL));
			sim_edge(s, E(f, "v12", "v13", IPP_E_NORMAL));
		} else {
			sim_edge(s, E(f, "v9", "v13", IPP_E_NORMAL));
		}
		i++;
		sim_back_edge(s, 0, "v13", "v14", "v1", "v17", "v4");
	}
	sim_edge(s, E(f, "v4", "v15", IPP_E_NORMAL));
	sim_edge(s, E(f, "v15", "v16", IPP_E_NORMAL));
	sim_edge(s, E(f, "v16", "Exit_global", IPP_E_GLOBAL_EXIT));
	sim_record(s);
	ipp_path_free(&s->path);
}

static void expect_profile(const struct counter *c, const struct fig4_obs *obs, size_t nobs,
			   unsigned nslots, unsigned observations)
{
	unsigned long long expected[64] = {0};
	for (size_t i = 0; i < nobs; i++)
		expected[obs[i].number] = obs[i].count;
	for (unsigned i = 0; i < nslots; i++) {
		if (c->n[i] != expected[i])
			fprintf(stderr, "\nprofile[%u] = %llu, the paper prints %llu\n", i, c->n[i],
				expected[i]);
		CU_ASSERT_EQUAL(c->n[i], expected[i]);
	}
	CU_ASSERT_EQUAL(c->observations, observations);
}

static void test_figure9_profile(void)
{
	struct counter c;
	struct sim s = {0};
	memset(&c, 0, sizeof(c));
	s.f = build(IPP_MODE_CONTEXT);
	s.mode = IPP_MODE_CONTEXT;
	s.out = &c;
	sim_main(&s);
	/* 18 back-edge paths in main, 1 exit path, 30 back-edge paths in pow */
	expect_profile(&c, fig4_figure9, fig4_figure9_len, 36, 49);
	ipp_fin_free((ipp_fin *)s.f);
}

/* ---- Figure 9, path by path (design-notes table) ---- */

static void expect_decoded(const ipp_fin *f, unsigned number, const char *expect)
{
	ipp_path p;
	mpz_t n;
	char err[256], buf[512];
	FILE *mem;
	ipp_path_init(&p);
	mpz_init_set_ui(n, number);
	CU_ASSERT_FATAL(ipp_decode(f, 0, n, &p, err, sizeof(err)) == 0);
	mem = fmemopen(buf, sizeof(buf), "w");
	fig4_print_path(mem, f, &p);
	fclose(mem);
	if (strcmp(buf, expect) != 0)
		fprintf(stderr, "\npath %u decodes to\n  %s\nexpected\n  %s\n", number, buf, expect);
	CU_ASSERT_STRING_EQUAL(buf, expect);
	ipp_path_free(&p);
	mpz_clear(n);
}

#define G_ "Entry_global -> "
#define POW1 "u1 -> u2 -> u3 -> u4 -> u5 -> u6 -> Exit_global"	/* first iteration */
#define POW2 "u1 -> u3 -> u4 -> u5 -> u6 -> Exit_global"	/* later iteration */
#define POWX "u1 -> u3 -> u7 -> u8"				/* loop exit, return */

static void test_figure9_paths(void)
{
	ipp_fin *f = build(IPP_MODE_CONTEXT);
	/* main's first iteration (i = 1): from entry, no calls, ends at the back edge */
	expect_decoded(f, 16, G_ "v1 -> v2 -> v3 -> v4 -> v5 -> v9 -> v13 -> v14 -> Exit_global");
	/* an iteration from the loop header with no calls (i = 5, 7, 11, 13, 17) */
	expect_decoded(f, 34, G_ "v1 -> v4 -> v5 -> v9 -> v13 -> v14 -> Exit_global");
	/* the loop exit (i = 19) to main's return */
	expect_decoded(f, 35, G_ "v1 -> v4 -> v15 -> v16 -> Exit_global");
	/* pow's first iteration entered from call site 1 */
	expect_decoded(f, 18, G_ "v1 -> v4 -> v5 -> v6 -> " POW1);
	/* pow's second iteration in the context of call site 1 */
	expect_decoded(f, 24, G_ "v1 -> v4 -> v5 -> v6 -> " POW2);
	/* an iteration that called from site 1 only (i = 2, 4, 8, 10, 14, 16) */
	expect_decoded(f, 29, G_ "v1 -> v4 -> v5 -> v6 -> " POWX " -> v7 -> v8 -> v9 -> v13 -> v14 -> Exit_global");
	/* iterations calling from site 1 and then site 2 (i = 6, 12, 18) */
	expect_decoded(f, 25, G_ "v1 -> v4 -> v5 -> v6 -> " POWX " -> v7 -> v8 -> v9 -> v10 -> " POW1);
	expect_decoded(f, 27, G_ "v1 -> v4 -> v5 -> v6 -> " POWX " -> v7 -> v8 -> v9 -> v10 -> " POW2);
	expect_decoded(f, 28, G_ "v1 -> v4 -> v5 -> v6 -> " POWX " -> v7 -> v8 -> v9 -> v10 -> " POWX " -> v11 -> v12 -> v13 -> v14 -> Exit_global");
	/* iterations calling from site 2 only (i = 3, 9, 15) */
	expect_decoded(f, 30, G_ "v1 -> v4 -> v5 -> v9 -> v10 -> " POW1);
	expect_decoded(f, 32, G_ "v1 -> v4 -> v5 -> v9 -> v10 -> " POW2);
	expect_decoded(f, 33, G_ "v1 -> v4 -> v5 -> v9 -> v10 -> " POWX " -> v11 -> v12 -> v13 -> v14 -> Exit_global");
	ipp_fin_free(f);
}

/* ---- Section 6: piecewise ---- */

static void region_total_is(const ipp_fin *f, const char *name, unsigned long expect)
{
	ipp_id r = ipp_fin_region_find(f, name);
	mpz_t t;
	CU_ASSERT_FATAL(r != IPP_NONE);
	mpz_init(t);
	ipp_fin_region_total(f, r, t);
	CU_ASSERT_EQUAL(mpz_cmp_ui(t, expect), 0);
	mpz_clear(t);
}

static void test_figure15_piecewise_total(void)
{
	ipp_fin *f = build(IPP_MODE_PIECEWISE);
	mpz_t t;
	mpz_init(t);
	/* psi_Entry_main(1) + psi_GEntry_main(1) + psi_GEntry_pow(4) = 8 + 8 + 5 */
	CU_ASSERT_EQUAL(ipp_fin_nregions(f), 3);
	region_total_is(f, "main", 8);
	region_total_is(f, "main#g", 8);
	region_total_is(f, "pow#g", 5);
	ipp_fin_total(f, t);
	CU_ASSERT_EQUAL(mpz_cmp_ui(t, 21), 0);
	/* numUnbalRLPaths[Exit_pow] = 4 ("from numUnbalRLPaths(u8)"), [Exit_main] = 1 (v16) */
	ipp_fin_num_unbal_rl(f, V("u8"), t);
	CU_ASSERT_EQUAL(mpz_cmp_ui(t, 4), 0);
	ipp_fin_num_unbal_rl(f, V("v16"), t);
	CU_ASSERT_EQUAL(mpz_cmp_ui(t, 1), 0);
	/* Figure 16/17 constants */
	rho_is(f, E(f, "u3", "u7", IPP_E_NORMAL), 0, 1);	/* "from edge u3->u7" */
	rho_is(f, E(f, "v5", "v9", IPP_E_NORMAL), 0, 4);	/* "from edge v5->v9" */
	rho_is(f, E(f, "v9", "v13", IPP_E_NORMAL), 0, 2);	/* "from edge v9->v13" */
	rho_is(f, E(f, "v4", "v15", IPP_E_NORMAL), 0, 7);	/* "from edge v4->v15" */
	rho_is(f, E(f, "u8", "v11", IPP_E_RETURN), 0, 3);	/* "pathNum += 3 from edge u8->v11" */
	psi_is(f, "v7", 0, 3);	/* "4th arg. always 3" at site 1 */
	psi_is(f, "v11", 0, 1);	/* "4th arg. always 1" at site 2 */
	/* region offsets: "pathNum = 8 from edge entry_global->v17", "= 16 ... ->u9" */
	ipp_fin_region_offset(f, ipp_fin_region_find(f, "main#g"), t);
	CU_ASSERT_EQUAL(mpz_cmp_ui(t, 8), 0);
	ipp_fin_region_offset(f, ipp_fin_region_find(f, "pow#g"), t);
	CU_ASSERT_EQUAL(mpz_cmp_ui(t, 16), 0);
	mpz_clear(t);
	ipp_fin_free(f);
}

static void test_figure17_profile(void)
{
	struct counter c;
	struct sim s = {0};
	memset(&c, 0, sizeof(c));
	s.f = build(IPP_MODE_PIECEWISE);
	s.mode = IPP_MODE_PIECEWISE;
	s.out = &c;
	sim_main(&s);
	expect_profile(&c, fig4_figure17, fig4_figure17_len, 21, 49);
	ipp_fin_free((ipp_fin *)s.f);
}

/* ---- the intraprocedural modes on the same program ---- */

static void test_intra_totals(void)
{
	/* Ball-Larus by hand: main has 5 paths from v4 (v5 branches to 2 x 2
	 * paths ending at the back edge, plus the exit) reached from v1 via v2
	 * and via the surrogate: 10; pow: 2 from u3, reached twice: 4. */
	ipp_fin *f = build(IPP_MODE_INTRA);
	region_total_is(f, "main", 10);
	region_total_is(f, "pow", 4);
	ipp_fin_free(f);
	/* Section 7 splits v4 and u3: 2 x 5 paths in main, 2 x 2 in pow. */
	f = build(IPP_MODE_INTRA_CONTEXT);
	region_total_is(f, "main", 10);
	region_total_is(f, "pow", 4);
	CU_ASSERT_FALSE(ipp_fin_proc_fallback(f, 0));
	ipp_fin_free(f);
}

/* ---- prefixes of Figure 9's paths ---- */

static void test_figure9_prefixes(void)
{
	ipp_fin *f = build(IPP_MODE_CONTEXT);
	char err[256];
	for (size_t i = 0; i < fig4_figure9_len; i++) {
		ipp_path p, q;
		mpz_t n, sum;
		ipp_id region, *stack;
		size_t nstack;
		ipp_path_init(&p);
		ipp_path_init(&q);
		mpz_init_set_ui(n, fig4_figure9[i].number);
		mpz_init(sum);
		CU_ASSERT_FATAL(ipp_decode(f, 0, n, &p, err, sizeof(err)) == 0);
		for (size_t len = 1; len < p.nedges; len++) {
			CU_ASSERT_FATAL(ipp_encode(f, p.edges, len, &region, sum, &stack, &nstack,
						   err, sizeof(err)) == 0);
			CU_ASSERT_FATAL(ipp_decode_partial(f, region, sum, stack, nstack, &q, err,
							   sizeof(err)) == 0);
			CU_ASSERT_EQUAL(q.nedges, len);
			CU_ASSERT(memcmp(q.edges, p.edges, len * sizeof(ipp_id)) == 0);
			free(stack);
		}
		ipp_path_free(&p);
		ipp_path_free(&q);
		mpz_clears(n, sum, NULL);
	}
	ipp_fin_free(f);
}

static int setup(void)
{
	G = fig4_graph();
	return G ? 0 : 1;
}

static int teardown(void)
{
	ipp_graph_free(G);
	return 0;
}

void register_paper_tests(void)
{
	CU_pSuite s = CU_add_suite("paper figures", setup, teardown);
	CU_add_test(s, "Figure 7: psi and rho", test_figure7_psi_rho);
	CU_add_test(s, "Figure 7: 36 unbalanced-left paths", test_figure7_total);
	CU_add_test(s, "Figure 9: executed profile", test_figure9_profile);
	CU_add_test(s, "Figure 9: each path's structure", test_figure9_paths);
	CU_add_test(s, "Figure 9: every prefix decodes", test_figure9_prefixes);
	CU_add_test(s, "Figure 15: 8 + 8 + 5 piecewise paths", test_figure15_piecewise_total);
	CU_add_test(s, "Figure 17: piecewise profile", test_figure17_profile);
	CU_add_test(s, "intraprocedural modes", test_intra_totals);
}
