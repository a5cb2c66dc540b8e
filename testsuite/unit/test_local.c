/* test_local.c -- CUnit tests of the local path numbering of two-level
 * counting (ippcore/local.c, ipp_local.h) against an enumeration.
 *
 * For every procedure of random supergraphs (testsuite/unit/randgraph.c),
 * in context and intra mode, the test enumerates the paths of the
 * procedure's DAG D by its definition in ipp_local.h -- written again here:
 * a path starts at Entry_P through one of its G*fin out-edges, or at the
 * return site of an interprocedural call; it follows the procedure's
 * NORMAL, SUMMARY, SURR_EXIT and SURR_ENTRY edges; it ends at Exit_P, at
 * GExit_P or at an interprocedural call vertex -- and checks that:
 *   - the numbers (ipp_local_edge summed along the path, plus
 *     ipp_local_retsite for a path from a return site) are exactly
 *     0 .. npaths-1, each once;
 *   - the paths from Entry_P have the numbers below nentry, the others not;
 *   - ipp_local_ab of a path from Entry_P is the sum of rho over its edges
 *     (summed here with ipp_fin_rho), and false for one that ends at a call;
 *   - ipp_local_reach(v) says FROM_ENTRY exactly when some path from Entry_P
 *     passes v, FROM_RETURN when some path from a return site does.
 *
 * Environment: IPP_LOCAL_NGRAPHS=n (seeds 1..n, default 300).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipp_local.h"
#include "randgraph.h"

#define ENUM_LIMIT 100000u

struct walk {
	const ipp_fin *f;
	const ipp_local *l;
	ipp_id proc;
	unsigned char *seen;		/* per number */
	uint64_t npaths, nseen;
	unsigned *reach;		/* per G*fin vertex: FROM_* seen */
	ipp_id *edges;			/* the current path */
	size_t nedges, cap;
	bool from_entry;
	uint64_t start;			/* the start's value */
	unsigned failures;
	bool overflow;
};

static bool interproc_call(const ipp_fin *f, ipp_id v)
{
	return ipp_fin_vkind(f, v) == IPP_V_CALL && ipp_fin_call_summary(f, v) == IPP_SUM_NONE;
}

static bool in_d(enum ipp_ekind k)
{
	return k == IPP_E_NORMAL || k == IPP_E_SUMMARY || k == IPP_E_SURR_EXIT ||
	       k == IPP_E_SURR_ENTRY;
}

/* A complete path of D ends at v: check it. */
static void finish(struct walk *w, ipp_id v)
{
	uint64_t num = w->start;
	mpz_t sa, sb, ra, rb, la, lb;
	bool rec;

	for (size_t i = 0; i < w->nedges; i++)
		num += ipp_local_edge(w->l, w->edges[i]);
	if (num >= w->npaths || w->seen[num]) {
		if (w->failures++ < 4)
			printf("\nFAIL proc %d: number %llu out of range or repeated\n", (int)w->proc,
			       (unsigned long long)num);
		CU_FAIL("local number out of range or repeated");
		return;
	}
	w->seen[num] = 1;
	w->nseen++;
	CU_ASSERT((num < ipp_local_nentry(w->l)) == w->from_entry);
	if (!w->from_entry)
		return;
	mpz_inits(sa, sb, ra, rb, la, lb, NULL);
	for (size_t i = 0; i < w->nedges; i++) {
		ipp_fin_rho(w->f, w->edges[i], ra, rb);
		mpz_add(sa, sa, ra);
		mpz_add(sb, sb, rb);
	}
	rec = ipp_local_ab(w->l, num, la, lb);
	if (interproc_call(w->f, v)) {
		CU_ASSERT(!rec);
	} else {
		CU_ASSERT(rec);
		CU_ASSERT(mpz_cmp(la, sa) == 0 && mpz_cmp(lb, sb) == 0);
	}
	mpz_clears(sa, sb, ra, rb, la, lb, NULL);
}

static void walk_from(struct walk *w, ipp_id v)
{
	enum ipp_vkind k = ipp_fin_vkind(w->f, v);
	w->reach[v] |= w->from_entry ? IPP_LOCAL_FROM_ENTRY : IPP_LOCAL_FROM_RETURN;
	if (w->nseen > ENUM_LIMIT) {
		w->overflow = true;
		return;
	}
	if (k == IPP_V_EXIT || k == IPP_V_GEXIT || interproc_call(w->f, v)) {
		finish(w, v);
		return;
	}
	for (size_t s = 0; s < ipp_fin_nsucc(w->f, v); s++) {
		ipp_id e = ipp_fin_succ(w->f, v, s);
		if (!in_d(ipp_fin_ekind(w->f, e)))
			continue;
		if (w->nedges == w->cap) {
			w->cap = w->cap ? 2 * w->cap : 64;
			w->edges = realloc(w->edges, w->cap * sizeof(ipp_id));
		}
		w->edges[w->nedges++] = e;
		walk_from(w, ipp_fin_edst(w->f, e));
		w->nedges--;
	}
}

static void check_proc(const ipp_fin *f, ipp_id p)
{
	const ipp_graph *g = ipp_fin_graph(f);
	ipp_local *l = ipp_local_new(f, p, ENUM_LIMIT);
	struct walk w;
	ipp_id entry = ipp_proc_entry(g, p);

	if (!l)
		return;		/* too many paths to enumerate */
	memset(&w, 0, sizeof(w));
	w.f = f;
	w.l = l;
	w.proc = p;
	w.npaths = ipp_local_npaths(l);
	w.seen = calloc(w.npaths + 1, 1);
	w.reach = calloc(ipp_fin_nvertices(f), sizeof(unsigned));
	/* from Entry_P */
	w.from_entry = true;
	w.start = 0;
	walk_from(&w, entry);
	/* from the return sites of interprocedural calls */
	w.from_entry = false;
	for (size_t v = 0; v < ipp_graph_nvertices(g); v++)
		if (ipp_vertex_proc(g, (ipp_id)v) == p && interproc_call(f, (ipp_id)v)) {
			w.start = ipp_local_retsite(l, (ipp_id)v + 1);
			walk_from(&w, (ipp_id)v + 1);
		}
	if (!w.overflow) {
		CU_ASSERT(w.nseen == w.npaths);
		for (size_t v = 0; v < ipp_graph_nvertices(g); v++)
			if (ipp_vertex_proc(g, (ipp_id)v) == p && v != (size_t)entry)
				CU_ASSERT(ipp_local_reach(l, (ipp_id)v) == w.reach[v]);
	}
	free(w.seen);
	free(w.reach);
	free(w.edges);
	ipp_local_free(l);
}

static void run(enum ipp_mode mode)
{
	const char *s = getenv("IPP_LOCAL_NGRAPHS");
	unsigned n = s && *s ? (unsigned)strtoul(s, NULL, 0) : 300u;
	char err[256];

	for (uint64_t seed = 1; seed <= n; seed++) {
		rg_params prm;
		ipp_graph *g;
		ipp_fin *f;
		rg_params_level(&prm, 2 + (unsigned)(seed % 3));
		g = rg_random(seed, &prm);
		f = ipp_fin_new(g, mode, NULL, err, sizeof(err));
		if (f) {
			for (size_t p = 0; p < ipp_graph_nprocs(g); p++)
				check_proc(f, (ipp_id)p);
			ipp_fin_free(f);
		}
		ipp_graph_free(g);
	}
}

static void test_local_context(void)
{
	run(IPP_MODE_CONTEXT);
}

static void test_local_intra(void)
{
	run(IPP_MODE_INTRA);
}

int main(void)
{
	CU_pSuite s;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("local", NULL, NULL);
	if (!s || !CU_add_test(s, "local numbering, context mode", test_local_context) ||
	    !CU_add_test(s, "local numbering, intra mode", test_local_intra))
		return 1;
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	{
		unsigned failed = CU_get_number_of_failures();
		CU_cleanup_registry();
		return failed ? 1 : 0;
	}
}
