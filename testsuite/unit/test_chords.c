/* test_chords.c -- CUnit tests of increments on chords (ippcore/chords.c,
 * ipp_fin_place_chords) on random supergraphs in intra and context mode.
 *
 * For every procedure of random supergraphs (testsuite/unit/randgraph.c)
 * with random edge weights (IPP_CHORD_FIXED, as the plugin weighs the
 * edges inside a block, on some edges from a vertex with one successor to
 * one with one predecessor; some procedures left out), the test checks
 * what the plugin and the runtime rely on:
 *   - every procedure not left out is placed (none falls back), off is 0
 *     at Entry_P, Exit_P and GExit_P, at interprocedural call sites and
 *     their return sites (context mode: the callee continues from the
 *     register and hands its own number back), and everywhere in a
 *     procedure left out;
 *   - every fixed edge (SUMMARY, or weighed IPP_CHORD_FIXED) adds 0;
 *   - the edges that add 0 span the procedure (with its pinned vertices
 *     as one): the increments lie on chords of a spanning tree;
 *   - walking every path of the procedure's DAG from Entry_P (NORMAL,
 *     SUMMARY, SURR_ENTRY, SURR_EXIT edges, and from an interprocedural
 *     call vertex on to its return site, as a fresh activation sees its
 *     callee: both sums unchanged; at most ENUM_LIMIT steps),
 *     the register -- the sum of ipp_fin_inc -- equals the sum of rho
 *     (from ipp_fin_rho, summed here with GMP) plus off(v) at every
 *     vertex v, modulo 2^64, and the sum of rho exactly at Exit_P and
 *     GExit_P: each path is still recorded with its own number, and a
 *     partial path at v is the register minus off(v);
 *   - a map written and read back keeps every offset.
 * And that the placement pays: over all graphs, the fixed, weighed edges
 * that add something weigh less than those whose rho is not 0 (the
 * placement without chords).
 *
 * Environment: IPP_CHORDS_NGRAPHS=n (seeds 1..n, default 300).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipp_core.h"
#include "ipp_format.h"
#include "randgraph.h"

#define ENUM_LIMIT 200000u

static bool in_dag(enum ipp_ekind k)
{
	return k == IPP_E_NORMAL || k == IPP_E_SUMMARY || k == IPP_E_SURR_EXIT ||
	       k == IPP_E_SURR_ENTRY;
}

static bool interproc_call(const ipp_fin *f, ipp_id v)
{
	return ipp_fin_vkind(f, v) == IPP_V_CALL && ipp_fin_call_summary(f, v) == IPP_SUM_NONE;
}

static bool pinned(const ipp_fin *f, ipp_id v)
{
	enum ipp_vkind k = ipp_fin_vkind(f, v);
	return k == IPP_V_ENTRY || k == IPP_V_EXIT || k == IPP_V_GEXIT || k == IPP_V_GENTRY ||
	       interproc_call(f, v) || (k == IPP_V_RETSITE && interproc_call(f, v - 1));
}

static uint64_t rho_mod(const ipp_fin *f, ipp_id e)
{
	mpz_t a, b;
	uint64_t v;
	mpz_inits(a, b, NULL);
	ipp_fin_rho(f, e, a, b);
	mpz_add(a, a, b);	/* nvc = 1 */
	mpz_fdiv_r_2exp(a, a, 64);
	v = mpz_get_ui(a);
	mpz_clears(a, b, NULL);
	return v;
}

struct walk {
	const ipp_fin *f;
	unsigned steps;
	unsigned failures;
};

static void walk(struct walk *w, ipp_id v, uint64_t sum_rho, uint64_t reg)
{
	const ipp_fin *f = w->f;
	enum ipp_vkind k = ipp_fin_vkind(f, v);
	if (++w->steps > ENUM_LIMIT)
		return;
	if (reg != sum_rho + ipp_fin_offset(f, v)) {
		w->failures++;
		return;
	}
	if (k == IPP_V_EXIT || k == IPP_V_GEXIT) {
		if (reg != sum_rho)
			w->failures++;
		return;
	}
	if (interproc_call(f, v)) {
		/* the callee continues the path and hands back its number */
		walk(w, v + 1, sum_rho, reg);
		return;
	}
	for (size_t i = 0; i < ipp_fin_nsucc(f, v); i++) {
		ipp_id e = ipp_fin_succ(f, v, i);
		if (!in_dag(ipp_fin_ekind(f, e)))
			continue;
		walk(w, ipp_fin_edst(f, e), sum_rho + rho_mod(f, e), reg + ipp_fin_inc(f, e));
	}
}

static ipp_id find(ipp_id *up, ipp_id x)
{
	while (up[x] != x)
		x = up[x] = up[up[x]];
	return x;
}

/* weights of the edges that add something, with and without chords */
static uint64_t cost_chords, cost_rho;

static void check_graph(const ipp_graph *g, ipp_fin *f, rg_rng *rng)
{
	size_t ne = ipp_fin_nedges(f), nv = ipp_fin_nvertices(f), np = ipp_graph_nprocs(g);
	uint64_t *w = calloc(ne + 1, sizeof(*w));
	bool *en = calloc(np + 1, sizeof(*en));
	ipp_id *up = calloc(nv + 1, sizeof(*up)), *root = calloc(np + 1, sizeof(*root));
	bool *touched = calloc(nv + 1, sizeof(*touched)), *zero = calloc(np + 1, sizeof(*zero));
	size_t *npred = calloc(nv + 1, sizeof(*npred)), nen = 0;

	for (size_t e = 0; e < ne; e++)
		npred[ipp_fin_edst(f, (ipp_id)e)]++;
	for (size_t e = 0; e < ne; e++) {
		bool chain = ipp_fin_nsucc(f, ipp_fin_esrc(f, (ipp_id)e)) == 1 &&
			     npred[ipp_fin_edst(f, (ipp_id)e)] == 1;
		w[e] = chain && rg_rng_chance(rng, 50) ? IPP_CHORD_FIXED : rg_rng_below(rng, 1000);
	}
	for (size_t p = 0; p < np; p++)
		nen += en[p] = !rg_rng_chance(rng, 15);
	CU_ASSERT(ipp_fin_place_chords(f, w, en) == nen);
	CU_ASSERT(ipp_fin_has_offsets(f));

	for (size_t p = 0; p < np; p++) {
		root[p] = IPP_NONE;
		zero[p] = true;
	}
	for (size_t v = 0; v < nv; v++) {
		ipp_id p = ipp_fin_vproc(f, (ipp_id)v);
		up[v] = (ipp_id)v;
		if (p >= 0 && ipp_fin_offset(f, (ipp_id)v))
			zero[p] = false;
		if (p >= 0 && pinned(f, (ipp_id)v))
			CU_ASSERT(ipp_fin_offset(f, (ipp_id)v) == 0);
		if (p >= 0 && !en[p])
			CU_ASSERT(ipp_fin_offset(f, (ipp_id)v) == 0);
	}
	/* pinned vertices as one, then the edges that add 0 */
	for (size_t v = 0; v < nv; v++) {
		ipp_id p = ipp_fin_vproc(f, (ipp_id)v);
		if (p < 0 || !pinned(f, (ipp_id)v))
			continue;
		if (root[p] == IPP_NONE)
			root[p] = (ipp_id)v;
		else
			up[find(up, (ipp_id)v)] = find(up, root[p]);
	}
	for (size_t e = 0; e < ne; e++) {
		enum ipp_ekind k = ipp_fin_ekind(f, (ipp_id)e);
		ipp_id s = ipp_fin_esrc(f, (ipp_id)e), d = ipp_fin_edst(f, (ipp_id)e);
		ipp_id p = ipp_fin_vproc(f, s);
		bool fixed = k == IPP_E_SUMMARY ||
			     (k == IPP_E_NORMAL && ipp_fin_vkind(f, d) != IPP_V_GEXIT &&
			      w[e] == IPP_CHORD_FIXED);
		uint64_t inc = ipp_fin_inc(f, (ipp_id)e);
		if (!in_dag(k) || p < 0 || ipp_fin_vproc(f, d) != p)
			continue;
		touched[s] = touched[d] = true;
		/* a procedure that fell back has off 0 everywhere */
		if (en[p] && fixed && !zero[p])
			CU_ASSERT(inc == 0);
		if (inc == 0)
			up[find(up, s)] = find(up, d);
		if (en[p] && !zero[p] && k == IPP_E_NORMAL && !fixed &&
		    ipp_fin_vkind(f, d) != IPP_V_GEXIT) {
			cost_chords += inc ? w[e] : 0;
			cost_rho += rho_mod(f, (ipp_id)e) ? w[e] : 0;
		}
	}
	for (size_t v = 0; v < nv; v++) {
		ipp_id p = ipp_fin_vproc(f, (ipp_id)v);
		if (p >= 0 && en[p] && !zero[p] && touched[v] && root[p] != IPP_NONE)
			CU_ASSERT(find(up, (ipp_id)v) == find(up, root[p]));
	}
	for (size_t p = 0; p < np; p++) {
		struct walk wk = { f, 0, 0 };
		walk(&wk, ipp_proc_entry(g, (ipp_id)p), 0, 0);
		CU_ASSERT(wk.failures == 0);
	}
	free(npred);
	free(zero);
	free(touched);
	free(root);
	free(up);
	free(en);
	free(w);
}

/* The offsets survive the map: write it, read it back, compare. */
static void check_map(ipp_fin *f)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	ipp_map_meta meta;
	ipp_map **maps = NULL;
	size_t nmaps = 0;
	mpz_t limit;
	mpz_init_set_str(limit, "18446744073709551615", 10);
	memset(&meta, 0, sizeof(meta));
	meta.module = "chords.c";
	CU_ASSERT_FATAL(out != NULL);
	CU_ASSERT_FATAL(ipp_map_write(out, f, NULL, &meta, limit, err, sizeof(err)) == 0);
	fclose(out);
	if (ipp_map_read_buffer(buf, len, "chords.map", &maps, &nmaps, err, sizeof(err)) != 0 ||
	    nmaps != 1) {
		fprintf(stderr, "map read: %s\n", err);
		CU_FAIL("the map with offsets does not read back");
	} else {
		ipp_fin *g = ipp_map_fin(maps[0], err, sizeof(err));
		CU_ASSERT_FATAL(g != NULL);
		for (size_t v = 0; v < ipp_fin_nvertices(f); v++)
			CU_ASSERT(ipp_fin_offset(g, (ipp_id)v) == ipp_fin_offset(f, (ipp_id)v));
		ipp_fin_free(g);
	}
	ipp_map_free_all(maps, nmaps);
	free(buf);
	mpz_clear(limit);
}

static void run(enum ipp_mode mode)
{
	const char *s = getenv("IPP_CHORDS_NGRAPHS");
	unsigned n = s && *s ? (unsigned)strtoul(s, NULL, 0) : 300u;
	char err[256];

	cost_chords = cost_rho = 0;
	for (uint64_t seed = 1; seed <= n; seed++) {
		rg_params prm;
		rg_rng rng;
		ipp_graph *g;
		ipp_fin *f;
		rg_params_level(&prm, 2 + (unsigned)(seed % 3));
		g = rg_random(seed, &prm);
		rg_rng_seed(&rng, seed * 7919);
		f = ipp_fin_new(g, mode, NULL, err, sizeof(err));
		if (f) {
			check_graph(g, f, &rng);
			if (seed % 10 == 0)
				check_map(f);
			ipp_fin_free(f);
		}
		ipp_graph_free(g);
	}
	printf("\n  %s: weighed edges that add something: %llu with chords, %llu with rho\n",
	       ipp_mode_name(mode), (unsigned long long)cost_chords, (unsigned long long)cost_rho);
	CU_ASSERT(cost_chords < cost_rho);
}

static void test_chords_intra(void)
{
	run(IPP_MODE_INTRA);
}

static void test_chords_context(void)
{
	run(IPP_MODE_CONTEXT);
}

/* Piecewise mode places nothing. */
static void test_chords_piecewise(void)
{
	char err[256];
	rg_params prm;
	ipp_graph *g;
	ipp_fin *f;
	uint64_t *w;
	bool *en;
	rg_params_level(&prm, 3);
	g = rg_random(5, &prm);
	f = ipp_fin_new(g, IPP_MODE_PIECEWISE, NULL, err, sizeof(err));
	CU_ASSERT_FATAL(f != NULL);
	w = calloc(ipp_fin_nedges(f) + 1, sizeof(*w));
	en = calloc(ipp_graph_nprocs(g) + 1, sizeof(*en));
	memset(en, 1, ipp_graph_nprocs(g));
	CU_ASSERT(ipp_fin_place_chords(f, w, en) == 0);
	CU_ASSERT(!ipp_fin_has_offsets(f));
	free(en);
	free(w);
	ipp_fin_free(f);
	ipp_graph_free(g);
}

int main(void)
{
	CU_pSuite s;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("chords", NULL, NULL);
	if (!s || !CU_add_test(s, "increments on chords, intra mode", test_chords_intra) ||
	    !CU_add_test(s, "increments on chords, context mode", test_chords_context) ||
	    !CU_add_test(s, "no chords in piecewise mode", test_chords_piecewise))
		return 1;
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	{
		unsigned failed = CU_get_number_of_failures();
		CU_cleanup_registry();
		return failed ? 1 : 0;
	}
}
