/* test_props.c -- CUnit property tests: the ipp numbering core against a
 * brute-force oracle, on many random supergraphs and a few fixed ones.
 *
 * Every expected value comes from the definitions (brute.c enumerates the
 * valid parenthesis paths of G*fin and numbers them by equations 6-7 of
 * Melski & Reps), from an independent reading of Transformations 0-3 and of
 * Section 7 (the structure checks below compute their own DFS back edges,
 * recursive call sites and dominators), or from arithmetic stated in a
 * comment.  None is copied from the core's output.
 *
 * Suites: generator (shape coverage), structure (G*fin against an
 * independent Transformation 0-3 / Section 7, plus directed graphs: a loop,
 * self and mutual recursion, a call vertex as loop header), count,
 * bijection, decode, definition, prefix (properties 1-4 by enumeration),
 * bignum (2^80 paths, the 2^64 boundary, sampled checks by the memoised
 * counter), cuts (autocut with small limits, forced vertex and call cuts).
 * The random suites run one test per mode over the seeds 1..N (N = 500 by
 * default).
 *
 * Environment (read-only, no global state):
 *   IPP_PROPS_SEED=s     run only seed s (with verbose failure output)
 *   IPP_PROPS_NGRAPHS=n  run seeds 1..n
 * A failure prints "seed S level L", the mode, the region and the path as
 * G*fin edge ids: rerun with IPP_PROPS_SEED=S to reproduce.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <CUnit/Basic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "brute.h"
#include "checkf.h"
#include "randgraph.h"

#define DEFAULT_NGRAPHS 500u
#define MAX_REGION_PATHS 20000u	/* a graph is shrunk until each region fits ... */
#define MAX_MODE_PATHS 24000u	/* ... and each mode's total fits */
#define ENUM_LIMIT 200000u	/* enumeration stops (and fails) past this */
#define MAX_REPORTS 4u		/* printed failures per graph and check */

static const enum ipp_mode all_modes[IPP_MODE_COUNT] = {
	IPP_MODE_CONTEXT, IPP_MODE_PIECEWISE, IPP_MODE_INTRA, IPP_MODE_INTRA_CONTEXT,
};

/* ------------------------------------------------------------------ */
/* Helpers                                                              */
/* ------------------------------------------------------------------ */


struct seed_range {
	uint64_t first;
	unsigned n;
};

static struct seed_range seed_range(void)
{
	struct seed_range r = { 1, DEFAULT_NGRAPHS };
	const char *s = getenv("IPP_PROPS_SEED");
	const char *n = getenv("IPP_PROPS_NGRAPHS");
	if (s && *s) {
		r.first = strtoull(s, NULL, 0);
		r.n = 1;
	} else if (n && *n) {
		r.n = (unsigned)strtoul(n, NULL, 0);
	}
	return r;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static unsigned max_reports(void)
{
	return getenv("IPP_PROPS_SEED") ? 50u : MAX_REPORTS;
}

/* Largest region total and the sum, or false if fin_new failed. */
static bool fin_sizes(const ipp_graph *g, enum ipp_mode mode, const ipp_cuts *cuts, mpz_t maxr,
		      mpz_t sum)
{
	char err[256];
	ipp_fin *f = ipp_fin_new(g, mode, cuts, err, sizeof err);
	if (!f)
		return false;
	mpz_t t;
	mpz_init(t);
	mpz_set_ui(maxr, 0);
	for (size_t r = 0; r < ipp_fin_nregions(f); r++) {
		ipp_fin_region_total(f, (ipp_id)r, t);
		if (mpz_cmp(t, maxr) > 0)
			mpz_set(maxr, t);
	}
	ipp_fin_total(f, sum);
	mpz_clear(t);
	ipp_fin_free(f);
	return true;
}

/* The random graph for 'seed': the largest size level whose regions fit in
 * every mode.  NULL if none fits (the seed is then skipped and counted). */
static ipp_graph *make_graph(uint64_t seed, unsigned *level)
{
	mpz_t maxr, sum;
	mpz_inits(maxr, sum, NULL);
	for (unsigned lv = 0; lv < RG_NLEVELS; lv++) {
		rg_params p;
		rg_params_level(&p, lv);
		ipp_graph *g = rg_random(seed, &p);
		bool fits = true;
		for (int m = 0; m < IPP_MODE_COUNT && fits; m++) {
			/* A graph the core cannot build is kept: the test reports it. */
			if (!fin_sizes(g, all_modes[m], NULL, maxr, sum))
				continue;
			fits = mpz_cmp_ui(maxr, MAX_REGION_PATHS) <= 0 &&
			       mpz_cmp_ui(sum, MAX_MODE_PATHS) <= 0;
		}
		if (fits) {
			*level = lv;
			mpz_clears(maxr, sum, NULL);
			return g;
		}
		ipp_graph_free(g);
	}
	mpz_clears(maxr, sum, NULL);
	return NULL;
}

static void print_stats(const char *what, enum ipp_mode mode, unsigned graphs, unsigned skipped,
			const brute_stats *st, double secs)
{
	printf("\n    %s/%s: %u graphs (%u skipped as too big), %lu regions, %lu paths, "
	       "%lu prefixes, %lu invalid strings, %lu failures, %.2fs",
	       what, ipp_mode_name(mode), graphs, skipped, st->regions, st->paths, st->prefixes,
	       st->rejects, st->failures, secs);
}

/* ------------------------------------------------------------------ */
/* The random property tests (count, bijection, decode, definition,     */
/* prefix): enumerate every region of every graph.                      */
/* ------------------------------------------------------------------ */
static void run_enum(enum ipp_mode mode, unsigned props, const char *what)
{
	struct seed_range sr = seed_range();
	brute_stats st = { 0 };
	unsigned graphs = 0, skipped = 0;
	double t0 = now();

	for (unsigned i = 0; i < sr.n; i++) {
		uint64_t seed = sr.first + i;
		unsigned level;
		ipp_graph *g = make_graph(seed, &level);
		if (!g) {
			skipped++;
			continue;
		}
		char err[256] = "", label[96];
		snprintf(label, sizeof label, "%s: seed %llu level %u", what, (unsigned long long)seed,
			 level);
		ipp_fin *f = ipp_fin_new(g, mode, NULL, err, sizeof err);
		CHECKF(f != NULL, "[%s] mode %s: ipp_fin_new failed: %s", label, ipp_mode_name(mode), err);
		if (f) {
			unsigned long nf = brute_check_enum(f, props, label, ENUM_LIMIT, max_reports(), &st);
			CU_ASSERT(nf == 0);
			ipp_fin_free(f);
		}
		graphs++;
		ipp_graph_free(g);
	}
	print_stats(what, mode, graphs, skipped, &st, now() - t0);
	CHECKF(graphs >= sr.n * 9 / 10, "%s/%s: too many seeds skipped (%u of %u)", what,
	       ipp_mode_name(mode), skipped, sr.n);
}

#define MODE_TESTS(name, props)                                                             \
	static void test_##name##_context(void) { run_enum(IPP_MODE_CONTEXT, props, #name); }     \
	static void test_##name##_piecewise(void) { run_enum(IPP_MODE_PIECEWISE, props, #name); } \
	static void test_##name##_intra(void) { run_enum(IPP_MODE_INTRA, props, #name); }         \
	static void test_##name##_intra_context(void)                                            \
	{                                                                                         \
		run_enum(IPP_MODE_INTRA_CONTEXT, props, #name);                                   \
	}

MODE_TESTS(count, BRUTE_COUNT)
MODE_TESTS(bijection, BRUTE_BIJECTION | BRUTE_REJECT)
MODE_TESTS(decode, BRUTE_DECODE)
MODE_TESTS(definition, BRUTE_DEFINITION)
MODE_TESTS(prefix, BRUTE_PREFIX)

/* ------------------------------------------------------------------ */
/* Independent analysis of G*: DFS back edges, recursive call sites,   */
/* reducibility.                                                        */
/* ------------------------------------------------------------------ */
struct gstar {
	const ipp_graph *g;
	size_t nv, ne, np;
	bool *back;		/* per edge: DFS back edge of its procedure's CFG */
	bool *rec;		/* per vertex: recursive call site */
	bool *irreducible;	/* per procedure */
	ipp_id *out_pos;	/* per edge: position in its source's successor list */
};

/* CFG successors in G*: a call vertex flows to its return site (no edge id). */
static size_t cfg_nsucc(const ipp_graph *g, ipp_id v)
{
	return ipp_vertex_kind(g, v) == IPP_V_CALL ? 1 : ipp_vertex_nout(g, v);
}

static ipp_id cfg_succ(const ipp_graph *g, ipp_id v, size_t i, ipp_id *edge)
{
	if (ipp_vertex_kind(g, v) == IPP_V_CALL) {
		*edge = IPP_NONE;
		return v + 1;
	}
	*edge = ipp_vertex_out(g, v, i);
	return ipp_edge_dst(g, *edge);
}

enum { WHITE, GRAY, BLACK };

/* DFS of a procedure CFG from root, in successor order; marks back edges
 * (edges into a vertex on the DFS stack). */
static void cfg_dfs(const ipp_graph *g, ipp_id root, unsigned char *color, bool *back)
{
	size_t nv = ipp_graph_nvertices(g);
	ipp_id *sv = malloc(nv * sizeof *sv);
	size_t *si = malloc(nv * sizeof *si);
	size_t sp = 0;
	sv[sp] = root;
	si[sp++] = 0;
	color[root] = GRAY;
	while (sp) {
		ipp_id v = sv[sp - 1];
		if (si[sp - 1] < cfg_nsucc(g, v)) {
			ipp_id e;
			ipp_id w = cfg_succ(g, v, si[sp - 1]++, &e);
			if (color[w] == WHITE) {
				color[w] = GRAY;
				sv[sp] = w;
				si[sp++] = 0;
			} else if (color[w] == GRAY && e != IPP_NONE) {
				back[e] = true;
			}
		} else {
			color[v] = BLACK;
			sp--;
		}
	}
	free(sv);
	free(si);
}

/* Dominators of procedure p (bit sets over p's vertices), then the
 * reducibility test: every DFS back edge's target dominates its source. */
static bool proc_irreducible(const ipp_graph *g, ipp_id p, const bool *back)
{
	size_t nv = ipp_graph_nvertices(g);
	int *loc = malloc(nv * sizeof *loc);
	ipp_id *verts = malloc(nv * sizeof *verts);
	size_t n = 0;
	for (size_t v = 0; v < nv; v++) {
		loc[v] = -1;
		if (ipp_vertex_proc(g, (ipp_id)v) == p) {
			loc[v] = (int)n;
			verts[n++] = (ipp_id)v;
		}
	}
	size_t words = (n + 63) / 64;
	uint64_t *dom = calloc(n * words, sizeof *dom);
	bool *reach = calloc(n, sizeof *reach);
	/* Reachability from Entry_P. */
	int *queue = malloc(n * sizeof *queue);
	size_t qh = 0, qt = 0;
	int entry = loc[ipp_proc_entry(g, p)];
	reach[entry] = true;
	queue[qt++] = entry;
	while (qh < qt) {
		ipp_id v = verts[queue[qh++]];
		for (size_t i = 0; i < cfg_nsucc(g, v); i++) {
			ipp_id e;
			int w = loc[cfg_succ(g, v, i, &e)];
			if (!reach[w]) {
				reach[w] = true;
				queue[qt++] = w;
			}
		}
	}
	/* dom(entry) = {entry}; dom(v) = all, iterate dom(v) = {v} u meet of preds. */
	for (size_t i = 0; i < n; i++)
		for (size_t w = 0; w < words; w++)
			dom[i * words + w] = (int)i == entry ? 0 : ~UINT64_C(0);
	dom[entry * words + entry / 64] |= UINT64_C(1) << (entry % 64);
	uint64_t *tmp = malloc(words * sizeof *tmp);
	bool changed = true;
	while (changed) {
		changed = false;
		for (size_t i = 0; i < n; i++) {
			if ((int)i == entry || !reach[i])
				continue;
			for (size_t w = 0; w < words; w++)
				tmp[w] = ~UINT64_C(0);
			/* predecessors: scan all reachable vertices' successors */
			for (size_t j = 0; j < n; j++) {
				if (!reach[j])
					continue;
				ipp_id u = verts[j];
				for (size_t k = 0; k < cfg_nsucc(g, u); k++) {
					ipp_id e;
					if (loc[cfg_succ(g, u, k, &e)] == (int)i)
						for (size_t w = 0; w < words; w++)
							tmp[w] &= dom[j * words + w];
				}
			}
			tmp[i / 64] |= UINT64_C(1) << (i % 64);
			if (memcmp(tmp, &dom[i * words], words * sizeof *tmp) != 0) {
				memcpy(&dom[i * words], tmp, words * sizeof *tmp);
				changed = true;
			}
		}
	}
	bool irr = false;
	for (size_t e = 0; e < ipp_graph_nedges(g); e++) {
		if (!back[e])
			continue;
		int s = loc[ipp_edge_src(g, (ipp_id)e)], t = loc[ipp_edge_dst(g, (ipp_id)e)];
		if (s < 0 || t < 0 || !reach[s])
			continue;
		if (!(dom[s * words + t / 64] & (UINT64_C(1) << (t % 64))))
			irr = true;
	}
	free(tmp);
	free(queue);
	free(reach);
	free(dom);
	free(verts);
	free(loc);
	return irr;
}

static void gstar_analyse(const ipp_graph *g, struct gstar *gs)
{
	gs->g = g;
	gs->nv = ipp_graph_nvertices(g);
	gs->ne = ipp_graph_nedges(g);
	gs->np = ipp_graph_nprocs(g);
	gs->back = calloc(gs->ne + 1, sizeof *gs->back);
	gs->rec = calloc(gs->nv, sizeof *gs->rec);
	gs->irreducible = calloc(gs->np + 1, sizeof *gs->irreducible);
	gs->out_pos = calloc(gs->ne + 1, sizeof *gs->out_pos);

	for (size_t v = 0; v < gs->nv; v++)
		for (size_t i = 0; i < ipp_vertex_nout(g, (ipp_id)v); i++)
			gs->out_pos[ipp_vertex_out(g, (ipp_id)v, i)] = (ipp_id)i;

	/* CFG back edges: DFS from Entry_P, then from unreached vertices in id order. */
	unsigned char *color = calloc(gs->nv, 1);
	for (size_t p = 0; p < gs->np; p++) {
		cfg_dfs(g, ipp_proc_entry(g, (ipp_id)p), color, gs->back);
		for (size_t v = 0; v < gs->nv; v++)
			if (ipp_vertex_proc(g, (ipp_id)v) == (ipp_id)p && color[v] == WHITE)
				cfg_dfs(g, (ipp_id)v, color, gs->back);
	}
	free(color);

	/* Call-graph back edges: procedures in order, call sites in statement
	 * (= id) order; every site with a known callee is a call-graph edge. */
	unsigned char *pc = calloc(gs->np, 1);
	ipp_id *sp_proc = malloc(gs->np * sizeof *sp_proc);
	size_t *sp_next = malloc(gs->np * sizeof *sp_next);
	for (size_t root = 0; root < gs->np; root++) {
		if (pc[root] != WHITE)
			continue;
		size_t sp = 0;
		sp_proc[sp] = (ipp_id)root;
		sp_next[sp++] = 0;
		pc[root] = GRAY;
		while (sp) {
			ipp_id p = sp_proc[sp - 1];
			size_t v;
			for (v = sp_next[sp - 1]; v < gs->nv; v++)
				if (ipp_vertex_proc(g, (ipp_id)v) == p &&
				    ipp_vertex_kind(g, (ipp_id)v) == IPP_V_CALL &&
				    ipp_call_callee(g, (ipp_id)v) != IPP_NONE)
					break;
			if (v < gs->nv) {
				sp_next[sp - 1] = v + 1;
				ipp_id q = ipp_call_callee(g, (ipp_id)v);
				if (pc[q] == WHITE) {
					pc[q] = GRAY;
					sp_proc[sp] = q;
					sp_next[sp++] = 0;
				} else if (pc[q] == GRAY) {
					gs->rec[v] = true;
				}
			} else {
				pc[p] = BLACK;
				sp--;
			}
		}
	}
	free(pc);
	free(sp_proc);
	free(sp_next);

	for (size_t p = 0; p < gs->np; p++)
		gs->irreducible[p] = proc_irreducible(g, (ipp_id)p, gs->back);
}

static void gstar_free(struct gstar *gs)
{
	free(gs->back);
	free(gs->rec);
	free(gs->irreducible);
	free(gs->out_pos);
}

static bool intra_mode(enum ipp_mode m)
{
	return m == IPP_MODE_INTRA || m == IPP_MODE_INTRA_CONTEXT;
}

/* Transformation 3 (and its ipp extensions): is call site c summarized? */
static bool expect_summary(const struct gstar *gs, enum ipp_mode mode, ipp_id c,
			   const ipp_cuts *cuts)
{
	const ipp_graph *g = gs->g;
	if (intra_mode(mode) || ipp_call_callee(g, c) == IPP_NONE || gs->rec[c] ||
	    (ipp_call_flags(g, c) & IPP_CALL_FORCE_SUMMARY))
		return true;
	for (size_t i = 0; cuts && i < cuts->ncalls; i++)
		if (cuts->calls[i] == c)
			return true;
	return false;
}

/* Procedures with an Entry region: IPP_PROC_ENTRY, or the callee of a
 * summarized site (Transformation 3 step 1; Section 8).  In the
 * intraprocedural modes every procedure is numbered on its own (Ball-Larus),
 * so every procedure has one. */
static bool *expect_entry_regions(const struct gstar *gs, enum ipp_mode mode, const ipp_cuts *cuts)
{
	const ipp_graph *g = gs->g;
	bool *has = calloc(gs->np + 1, sizeof *has);
	for (size_t p = 0; p < gs->np; p++)
		if ((ipp_proc_flags(g, (ipp_id)p) & IPP_PROC_ENTRY) || intra_mode(mode))
			has[p] = true;
	for (size_t v = 0; v < gs->nv; v++)
		if (ipp_vertex_kind(g, (ipp_id)v) == IPP_V_CALL &&
		    ipp_call_callee(g, (ipp_id)v) != IPP_NONE &&
		    expect_summary(gs, mode, (ipp_id)v, cuts))
			has[ipp_call_callee(g, (ipp_id)v)] = true;
	return has;
}

/* ------------------------------------------------------------------ */
/* Structure of G*fin                                                   */
/* ------------------------------------------------------------------ */
struct tri {
	ipp_id src, dst;
	int kind;
};

static int tri_cmp(const void *a, const void *b)
{
	const struct tri *x = a, *y = b;
	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	if (x->dst != y->dst)
		return x->dst < y->dst ? -1 : 1;
	return x->kind - y->kind;
}

struct trivec {
	struct tri *v;
	size_t n, cap;
};

static void tv_add(struct trivec *t, ipp_id s, ipp_id d, enum ipp_ekind k)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->v = realloc(t->v, t->cap * sizeof *t->v);
	}
	t->v[t->n++] = (struct tri){ s, d, (int)k };
}

/* Cycle check on a directed graph given as an edge predicate over G*fin. */
static bool fin_has_cycle(const ipp_fin *f, bool (*keep)(const ipp_fin *, ipp_id))
{
	size_t nv = ipp_fin_nvertices(f);
	unsigned char *color = calloc(nv, 1);
	ipp_id *sv = malloc(nv * sizeof *sv);
	size_t *si = malloc(nv * sizeof *si);
	bool cyc = false;
	for (size_t root = 0; root < nv && !cyc; root++) {
		if (color[root] != WHITE)
			continue;
		size_t sp = 0;
		sv[sp] = (ipp_id)root;
		si[sp++] = 0;
		color[root] = GRAY;
		while (sp && !cyc) {
			ipp_id v = sv[sp - 1];
			if (si[sp - 1] < ipp_fin_nsucc(f, v)) {
				ipp_id e = ipp_fin_succ(f, v, si[sp - 1]++);
				if (!keep(f, e))
					continue;
				ipp_id w = ipp_fin_edst(f, e);
				if (color[w] == GRAY)
					cyc = true;
				else if (color[w] == WHITE) {
					color[w] = GRAY;
					sv[sp] = w;
					si[sp++] = 0;
				}
			} else {
				color[v] = BLACK;
				sp--;
			}
		}
	}
	free(color);
	free(sv);
	free(si);
	return cyc;
}

static bool is_intra_edge(const ipp_fin *f, ipp_id e)
{
	enum ipp_ekind k = ipp_fin_ekind(f, e);
	return k != IPP_E_CALL && k != IPP_E_RETURN && k != IPP_E_GLOBAL_ENTRY &&
	       k != IPP_E_GLOBAL_EXIT;
}

/* Call graph of G*fin: CALL edges plus every intraprocedural edge (a cycle
 * through CALL edges then shows up as a cycle of this graph, since Exit_Q is
 * not followed back to the caller). */
static bool is_call_or_intra_edge(const ipp_fin *f, ipp_id e)
{
	return is_intra_edge(f, e) || ipp_fin_ekind(f, e) == IPP_E_CALL;
}

/* Checks G*fin against Transformations 0-3 and Section 7, computed
 * independently from G*, with the cuts of ipp_core.h: the in-edges of a cut
 * vertex are removed like back edges (each source gets one SURR_EXIT, the
 * vertex one SURR_ENTRY), and a cut call site is summarized.  'cuts' may be
 * NULL.  Returns the number of failures. */
static unsigned check_structure(const ipp_graph *g, const ipp_fin *f, enum ipp_mode mode,
				const ipp_cuts *cuts, const char *label)
{
	unsigned fails = 0;
	struct gstar gs;
	gstar_analyse(g, &gs);
	bool pw = mode == IPP_MODE_PIECEWISE;
	bool ic = mode == IPP_MODE_INTRA_CONTEXT;
	size_t nfv = ipp_fin_nvertices(f), nfe = ipp_fin_nedges(f);

#define SFAIL(...)                                                                  \
	do {                                                                        \
		if (fails++ < max_reports()) {                                      \
			printf("\nFAIL [%s] mode %s: ", label, ipp_mode_name(mode)); \
			printf(__VA_ARGS__);                                        \
			printf("\n");                                               \
		}                                                                   \
	} while (0)

	/* My analysis of G* against the core's published one. */
	for (size_t e = 0; e < gs.ne; e++)
		if (gs.back[e] != ipp_graph_is_back_edge(g, (ipp_id)e))
			SFAIL("edge %zu (%d->%d): DFS back edge is %d by the definition, %d by ipp_graph_is_back_edge",
			      e, (int)ipp_edge_src(g, (ipp_id)e), (int)ipp_edge_dst(g, (ipp_id)e),
			      gs.back[e], ipp_graph_is_back_edge(g, (ipp_id)e));
	for (size_t v = 0; v < gs.nv; v++)
		if (ipp_vertex_kind(g, (ipp_id)v) == IPP_V_CALL &&
		    gs.rec[v] != ipp_graph_is_recursive_call(g, (ipp_id)v))
			SFAIL("call %zu (p%d -> callee %d, flags %#x): recursive is %d by call-graph DFS, %d by ipp_graph_is_recursive_call",
			      v, (int)ipp_vertex_proc(g, (ipp_id)v), (int)ipp_call_callee(g, (ipp_id)v),
			      ipp_call_flags(g, (ipp_id)v), gs.rec[v],
			      ipp_graph_is_recursive_call(g, (ipp_id)v));

	/* Vertices: G*'s ids are kept; only intra-context appends split halves. */
	if (nfv < gs.nv)
		SFAIL("G*fin has %zu vertices, G* %zu", nfv, gs.nv);
	ipp_id *split_of = malloc((gs.nv + 1) * sizeof *split_of);
	for (size_t v = 0; v < gs.nv; v++)
		split_of[v] = IPP_NONE;
	for (size_t v = 0; v < nfv && v < gs.nv; v++) {
		if (ipp_fin_vkind(f, (ipp_id)v) != ipp_vertex_kind(g, (ipp_id)v) ||
		    ipp_fin_vproc(f, (ipp_id)v) != ipp_vertex_proc(g, (ipp_id)v) ||
		    ipp_fin_vorigin(f, (ipp_id)v) != (ipp_id)v)
			SFAIL("G*fin vertex %zu differs from G*'s", v);
	}
	for (size_t v = gs.nv; v < nfv; v++) {
		ipp_id o = ipp_fin_vorigin(f, (ipp_id)v);
		if (!ic || ipp_fin_vkind(f, (ipp_id)v) != IPP_V_SPLIT || o < 0 || (size_t)o >= gs.nv ||
		    ipp_fin_vproc(f, (ipp_id)v) != ipp_vertex_proc(g, o) || split_of[o] != IPP_NONE)
			SFAIL("unexpected G*fin vertex %zu (kind %s, origin %d)", v,
			      ipp_vkind_name(ipp_fin_vkind(f, (ipp_id)v)), (int)o);
		else
			split_of[o] = (ipp_id)v;
	}

	/* Intra-context: Ball-Larus fallback exactly on irreducible procedures. */
	if (ic)
		for (size_t p = 0; p < gs.np; p++)
			if (ipp_fin_proc_fallback(f, (ipp_id)p) != gs.irreducible[p])
				SFAIL("procedure %zu: fallback %d, but its CFG is %s", p,
				      ipp_fin_proc_fallback(f, (ipp_id)p),
				      gs.irreducible[p] ? "irreducible" : "reducible");

	/* Expected edges.  'removed': back edges and in-edges of cut vertices;
	 * 'is_target': back-edge targets; 'is_cutv': cut vertices. */
	struct trivec want = { 0 }, have = { 0 };
	bool *is_target = calloc(gs.nv, sizeof *is_target);
	bool *is_source = calloc(gs.nv, sizeof *is_source);
	bool *is_cutv = calloc(gs.nv, sizeof *is_cutv);
	bool *removed = calloc(gs.ne + 1, sizeof *removed);
	for (size_t i = 0; cuts && i < cuts->nvertices; i++)
		is_cutv[cuts->vertices[i]] = true;
	for (size_t v = 0; v < gs.nv; v++)
		if (ipp_fin_is_cut_vertex(f, (ipp_id)v) != is_cutv[v])
			SFAIL("vertex %zu: ipp_fin_is_cut_vertex %d, cut %d", v,
			      ipp_fin_is_cut_vertex(f, (ipp_id)v), is_cutv[v]);
	for (size_t e = 0; e < gs.ne; e++) {
		ipp_id s = ipp_edge_src(g, (ipp_id)e), d = ipp_edge_dst(g, (ipp_id)e);
		removed[e] = gs.back[e] || is_cutv[d];
		if (gs.back[e])
			is_target[d] = true;
		if (removed[e])
			is_source[s] = true;
	}
	/* In a non-fallback intra-context procedure a back-edge target v is split:
	 * v keeps the in-edges, v_b gets the out-edges (Section 7, T1). */
	ipp_id *src_of = malloc(gs.nv * sizeof *src_of);
	for (size_t v = 0; v < gs.nv; v++) {
		src_of[v] = (ipp_id)v;
		ipp_id p = ipp_vertex_proc(g, (ipp_id)v);
		if (ic && is_target[v] && p != IPP_NONE && !gs.irreducible[p]) {
			if (split_of[v] == IPP_NONE)
				SFAIL("back-edge target %zu of reducible procedure %d was not split", v, (int)p);
			else
				src_of[v] = split_of[v];
		} else if (split_of[v] != IPP_NONE) {
			SFAIL("vertex %zu was split but is not a back-edge target of a reducible procedure", v);
		}
	}
	for (size_t e = 0; e < gs.ne; e++) {
		ipp_id s = ipp_edge_src(g, (ipp_id)e), d = ipp_edge_dst(g, (ipp_id)e);
		if (!removed[e])
			tv_add(&want, src_of[s], d, IPP_E_NORMAL);
	}
	for (size_t v = 0; v < gs.nv; v++) {
		ipp_id p = ipp_vertex_proc(g, (ipp_id)v);
		if (p == IPP_NONE)
			continue;
		bool split = ic && !gs.irreducible[p];
		if (is_target[v] && split) {
			tv_add(&want, (ipp_id)v, src_of[v], IPP_E_SPLIT);
			tv_add(&want, (ipp_id)v, src_of[v], IPP_E_SPLIT_SURR);
		}
		if ((is_target[v] && !split) || is_cutv[v])
			tv_add(&want, pw ? ipp_proc_gentry(g, p) : ipp_proc_entry(g, p), (ipp_id)v,
			       IPP_E_SURR_ENTRY);
		if (is_source[v])
			tv_add(&want, src_of[v], ipp_proc_gexit(g, p), IPP_E_SURR_EXIT);
		if (ipp_vertex_kind(g, (ipp_id)v) == IPP_V_CALL) {
			ipp_id q = ipp_call_callee(g, (ipp_id)v);
			if (expect_summary(&gs, mode, (ipp_id)v, cuts)) {
				tv_add(&want, src_of[v], (ipp_id)v + 1, IPP_E_SUMMARY);
			} else {
				tv_add(&want, (ipp_id)v, ipp_proc_entry(g, q), IPP_E_CALL);
				tv_add(&want, ipp_proc_exit(g, q), (ipp_id)v + 1, IPP_E_RETURN);
			}
		}
	}
	bool *has_region = expect_entry_regions(&gs, mode, cuts);
	/* Transformation 0 gives every P an edge Entry_global -> GEntry_P, but
	 * where GEntry_P has no surrogate edge (P has no back-edge target and no
	 * cut vertex) that region has no path at all; ipp omits such empty GEntry
	 * regions. */
	bool *has_gregion = calloc(gs.np + 1, sizeof *has_gregion);
	for (size_t v = 0; v < gs.nv; v++)
		if (pw && (is_target[v] || is_cutv[v]))
			has_gregion[ipp_vertex_proc(g, (ipp_id)v)] = true;
	for (size_t p = 0; p < gs.np; p++) {
		if (has_region[p]) {
			tv_add(&want, 0, ipp_proc_entry(g, (ipp_id)p), IPP_E_GLOBAL_ENTRY);
			tv_add(&want, ipp_proc_exit(g, (ipp_id)p), 1, IPP_E_GLOBAL_EXIT);
		}
		if (has_gregion[p])
			tv_add(&want, 0, ipp_proc_gentry(g, (ipp_id)p), IPP_E_GLOBAL_ENTRY);
		tv_add(&want, ipp_proc_gexit(g, (ipp_id)p), 1, IPP_E_GLOBAL_EXIT);	/* Transformation 1 */
	}
	for (size_t e = 0; e < nfe; e++)
		tv_add(&have, ipp_fin_esrc(f, (ipp_id)e), ipp_fin_edst(f, (ipp_id)e),
		       ipp_fin_ekind(f, (ipp_id)e));
	qsort(want.v, want.n, sizeof *want.v, tri_cmp);
	qsort(have.v, have.n, sizeof *have.v, tri_cmp);
	{
		size_t i = 0, j = 0;
		while (i < want.n || j < have.n) {
			int c = i == want.n ? 1 : j == have.n ? -1 : tri_cmp(&want.v[i], &have.v[j]);
			if (c == 0) {
				i++;
				j++;
			} else if (c < 0) {
				SFAIL("missing G*fin edge %d->%d %s", (int)want.v[i].src, (int)want.v[i].dst,
				      ipp_ekind_name(want.v[i].kind));
				i++;
			} else {
				SFAIL("unexpected G*fin edge %d->%d %s", (int)have.v[j].src, (int)have.v[j].dst,
				      ipp_ekind_name(have.v[j].kind));
				j++;
			}
		}
	}

	/* Edge details: successor lists, origins, call vertices, kept order. */
	for (size_t v = 0; v < nfv; v++) {
		ipp_id last_origin_pos = -1;
		for (size_t i = 0; i < ipp_fin_nsucc(f, (ipp_id)v); i++) {
			ipp_id e = ipp_fin_succ(f, (ipp_id)v, i);
			if (ipp_fin_esrc(f, e) != (ipp_id)v)
				SFAIL("edge %d is successor of %zu but leaves %d", (int)e, v, (int)ipp_fin_esrc(f, e));
			enum ipp_ekind k = ipp_fin_ekind(f, e);
			if (k == IPP_E_NORMAL) {
				ipp_id o = ipp_fin_eorigin(f, e);
				if (o < 0 || (size_t)o >= gs.ne || removed[o] ||
				    src_of[ipp_edge_src(g, o)] != (ipp_id)v || ipp_edge_dst(g, o) != ipp_fin_edst(f, e)) {
					SFAIL("normal edge %d (%zu->%d) has origin %d", (int)e, v,
					      (int)ipp_fin_edst(f, e), (int)o);
				} else {
					if (gs.out_pos[o] <= last_origin_pos)
						SFAIL("vertex %zu: kept edges out of successor order", v);
					last_origin_pos = gs.out_pos[o];
				}
			}
			if (k == IPP_E_CALL || k == IPP_E_SUMMARY) {
				ipp_id c = ipp_fin_vorigin(f, ipp_fin_esrc(f, e));
				if (ipp_fin_ecall(f, e) != c)
					SFAIL("%s edge %d: ecall %d, expected %d", ipp_ekind_name(k), (int)e,
					      (int)ipp_fin_ecall(f, e), (int)c);
			}
			if (k == IPP_E_RETURN && ipp_fin_ecall(f, e) != ipp_fin_edst(f, e) - 1)
				SFAIL("return edge %d: ecall %d, expected %d", (int)e, (int)ipp_fin_ecall(f, e),
				      (int)ipp_fin_edst(f, e) - 1);
		}
	}
	for (size_t e = 0; e < nfe; e++) {
		ipp_id s = ipp_fin_esrc(f, (ipp_id)e);
		bool found = false;
		for (size_t i = 0; i < ipp_fin_nsucc(f, s); i++)
			found |= ipp_fin_succ(f, s, i) == (ipp_id)e;
		if (!found)
			SFAIL("edge %zu is not a successor of its source %d", e, (int)s);
	}

	/* Why each call site is summarized. */
	for (size_t c = 0; c < gs.nv; c++) {
		if (ipp_vertex_kind(g, (ipp_id)c) != IPP_V_CALL)
			continue;
		enum ipp_summary_why why = ipp_fin_call_summary(f, (ipp_id)c);
		bool sum = expect_summary(&gs, mode, (ipp_id)c, cuts);
		bool cutc = false;
		for (size_t i = 0; cuts && i < cuts->ncalls; i++)
			cutc |= cuts->calls[i] == (ipp_id)c;
		unsigned fl = ipp_call_flags(g, (ipp_id)c);
		bool ok;
		if (!sum)
			ok = why == IPP_SUM_NONE;
		else if (intra_mode(mode))
			ok = why != IPP_SUM_NONE;
		else
			ok = (why == IPP_SUM_RECURSIVE && gs.rec[c]) ||
			     (why == IPP_SUM_INDIRECT && (fl & IPP_CALL_INDIRECT)) ||
			     (why == IPP_SUM_EXTERNAL && ipp_call_callee(g, (ipp_id)c) == IPP_NONE &&
			      !(fl & IPP_CALL_INDIRECT)) ||
			     (why == IPP_SUM_CUT && ((fl & IPP_CALL_FORCE_SUMMARY) || cutc));
		if (!ok)
			SFAIL("call %zu: summary reason %s (expected summarized=%d, recursive=%d, flags %#x)", c,
			      ipp_summary_why_name(why), sum, gs.rec[c], fl);
	}

	/* Acyclic CFGs and call graph (Section 3.2). */
	if (fin_has_cycle(f, is_intra_edge))
		SFAIL("G*fin has an intraprocedural cycle");
	if (fin_has_cycle(f, is_call_or_intra_edge))
		SFAIL("the call graph of G*fin has a cycle");

	/* Regions: procedures in id order, Entry region then GEntry region. */
	{
		size_t r = 0, nr = ipp_fin_nregions(f);
		char name[128];
		for (size_t p = 0; p < gs.np; p++) {
			for (int k = 0; k < 2; k++) {
				bool gentry = k == 1;
				if (gentry ? !has_gregion[p] : !has_region[p])
					continue;
				if (r >= nr) {
					SFAIL("region for procedure %zu%s missing", p, gentry ? " (GEntry)" : "");
					continue;
				}
				ipp_region_info ri;
				ipp_fin_region(f, (ipp_id)r, &ri);
				snprintf(name, sizeof name, "%s%s", ipp_proc_asm(g, (ipp_id)p), gentry ? "#g" : "");
				ipp_id want_dst = gentry ? ipp_proc_gentry(g, (ipp_id)p) : ipp_proc_entry(g, (ipp_id)p);
				if (ri.proc != (ipp_id)p || ri.gentry != gentry || !ri.name ||
				    strcmp(ri.name, name) != 0 || ri.edge < 0 || (size_t)ri.edge >= nfe ||
				    ipp_fin_esrc(f, ri.edge) != 0 || ipp_fin_edst(f, ri.edge) != want_dst ||
				    ipp_fin_ekind(f, ri.edge) != IPP_E_GLOBAL_ENTRY)
					SFAIL("region %zu: got proc %d gentry %d name %s edge %d; expected %s", r,
					      (int)ri.proc, ri.gentry, ri.name ? ri.name : "(null)", (int)ri.edge, name);
				if (ipp_fin_region_find(f, name) != (ipp_id)r)
					SFAIL("ipp_fin_region_find(%s) = %d, expected %zu", name,
					      (int)ipp_fin_region_find(f, name), r);
				r++;
			}
		}
		if (r != nr)
			SFAIL("%zu regions, expected %zu", nr, r);
		if (ipp_fin_region_find(f, "no such region") != IPP_NONE)
			SFAIL("ipp_fin_region_find found a region that does not exist");
	}
#undef SFAIL

	free(has_region);
	free(has_gregion);
	free(want.v);
	free(have.v);
	free(is_target);
	free(is_source);
	free(is_cutv);
	free(removed);
	free(src_of);
	free(split_of);
	gstar_free(&gs);
	return fails;
}

static void run_structure(enum ipp_mode mode)
{
	struct seed_range sr = seed_range();
	unsigned graphs = 0;
	double t0 = now();
	for (unsigned i = 0; i < sr.n; i++) {
		uint64_t seed = sr.first + i;
		rg_params p;
		/* Structure needs no enumeration: use full-size graphs. */
		rg_params_level(&p, 0);
		ipp_graph *g = rg_random(seed, &p);
		char err[256] = "", label[64];
		snprintf(label, sizeof label, "structure: seed %llu level 0", (unsigned long long)seed);
		CHECKF(ipp_graph_check(g, err, sizeof err) == 0, "[%s] generated graph invalid: %s", label, err);
		ipp_fin *f = ipp_fin_new(g, mode, NULL, err, sizeof err);
		CHECKF(f != NULL, "[%s] ipp_fin_new(%s) failed: %s", label, ipp_mode_name(mode), err);
		if (f) {
			CU_ASSERT(check_structure(g, f, mode, NULL, label) == 0);
			ipp_fin_free(f);
		}
		ipp_graph_free(g);
		graphs++;
	}
	printf("\n    structure/%s: %u graphs, %.2fs", ipp_mode_name(mode), graphs, now() - t0);
}

static void test_structure_context(void) { run_structure(IPP_MODE_CONTEXT); }
static void test_structure_piecewise(void) { run_structure(IPP_MODE_PIECEWISE); }
static void test_structure_intra(void) { run_structure(IPP_MODE_INTRA); }
static void test_structure_intra_context(void) { run_structure(IPP_MODE_INTRA_CONTEXT); }

/* Directed: self-recursion and mutual recursion (rg_recursion_zoo).
 * Call graph main -> f (site cm), f -> f (cf), f -> g (cg), g -> h (ch),
 * h -> g (chg).  DFS from main: main, f; cf reaches f on the stack (back
 * edge); cg enters g, ch enters h, chg reaches g on the stack (back edge).
 * So cf and chg are recursive; f and g get Entry regions; in context mode
 * cm, cg and ch keep their call and return edges. */
static void test_structure_recursion(void)
{
	ipp_graph *g = rg_recursion_zoo();
	ipp_id main_p = ipp_proc_find(g, "main"), f_p = ipp_proc_find(g, "f");
	ipp_id g_p = ipp_proc_find(g, "g"), h_p = ipp_proc_find(g, "h");
	ipp_id cm = IPP_NONE, cf = IPP_NONE, cg = IPP_NONE, ch = IPP_NONE, chg = IPP_NONE;
	for (size_t v = 0; v < ipp_graph_nvertices(g); v++) {
		if (ipp_vertex_kind(g, (ipp_id)v) != IPP_V_CALL)
			continue;
		ipp_id p = ipp_vertex_proc(g, (ipp_id)v), q = ipp_call_callee(g, (ipp_id)v);
		if (p == main_p)
			cm = (ipp_id)v;
		else if (p == f_p && q == f_p)
			cf = (ipp_id)v;
		else if (p == f_p && q == g_p)
			cg = (ipp_id)v;
		else if (p == g_p)
			ch = (ipp_id)v;
		else if (p == h_p)
			chg = (ipp_id)v;
	}
	CU_ASSERT_FATAL(cm != IPP_NONE && cf != IPP_NONE && cg != IPP_NONE && ch != IPP_NONE &&
			chg != IPP_NONE);
	CU_ASSERT(ipp_graph_is_recursive_call(g, cf));
	CU_ASSERT(ipp_graph_is_recursive_call(g, chg));
	CU_ASSERT(!ipp_graph_is_recursive_call(g, cm));
	CU_ASSERT(!ipp_graph_is_recursive_call(g, cg));
	CU_ASSERT(!ipp_graph_is_recursive_call(g, ch));

	for (int m = 0; m < IPP_MODE_COUNT; m++) {
		enum ipp_mode mode = all_modes[m];
		char err[256] = "";
		ipp_fin *f = ipp_fin_new(g, mode, NULL, err, sizeof err);
		CHECKF(f != NULL, "recursion zoo, %s: %s", ipp_mode_name(mode), err);
		if (!f)
			continue;
		CU_ASSERT(check_structure(g, f, mode, NULL, "recursion zoo") == 0);
		/* The recursive sites are SUMMARY edges in every mode. */
		ipp_id rec_sites[2] = { cf, chg };
		for (int k = 0; k < 2; k++) {
			ipp_id c = rec_sites[k];
			bool summary = false, call = false;
			for (size_t i = 0; i < ipp_fin_nsucc(f, c); i++) {
				ipp_id e = ipp_fin_succ(f, c, i);
				summary |= ipp_fin_ekind(f, e) == IPP_E_SUMMARY && ipp_fin_edst(f, e) == c + 1;
				call |= ipp_fin_ekind(f, e) == IPP_E_CALL;
			}
			CHECKF(summary && !call, "recursion zoo, %s: site %d not summarized",
			       ipp_mode_name(mode), (int)c);
			if (!intra_mode(mode))
				CHECKF(ipp_fin_call_summary(f, c) == IPP_SUM_RECURSIVE,
				       "recursion zoo, %s: site %d reason %s", ipp_mode_name(mode), (int)c,
				       ipp_summary_why_name(ipp_fin_call_summary(f, c)));
		}
		/* Their callees f and g have Entry regions; h has none outside intra modes
		 * (in intra modes every callee of a summarized site has one). */
		CU_ASSERT(ipp_fin_region_find(f, "f") != IPP_NONE);
		CU_ASSERT(ipp_fin_region_find(f, "g") != IPP_NONE);
		CU_ASSERT(ipp_fin_region_find(f, "main") != IPP_NONE);
		CU_ASSERT((ipp_fin_region_find(f, "h") != IPP_NONE) == intra_mode(mode));
		brute_stats st = { 0 };
		char label[64];
		snprintf(label, sizeof label, "recursion zoo");
		CU_ASSERT(brute_check_enum(f, BRUTE_ALL, label, ENUM_LIMIT, 20, &st) == 0);
		ipp_fin_free(f);
	}
	ipp_graph_free(g);
}

/* Directed: a hand-made loop.  main: Entry -> h; h -> b, h -> x; b -> h
 * (the back edge); x -> Exit.  G*fin (context) must drop b -> h and add
 * Entry -> h (SURR_ENTRY) and b -> GExit (SURR_EXIT).  Valid paths of the
 * main region, by hand: Entry h x Exit; Entry h b GExit; Entry(surr) h x
 * Exit; Entry(surr) h b GExit: 4 paths. */
static void test_structure_loop(void)
{
	ipp_graph *g = ipp_graph_new();
	ipp_id m = ipp_add_proc(g, "main", "main", IPP_PROC_ENTRY);
	ipp_id h = ipp_add_block(g, m), b = ipp_add_block(g, m), x = ipp_add_block(g, m);
	ipp_add_edge(g, ipp_proc_entry(g, m), h);
	ipp_add_edge(g, h, b);
	ipp_add_edge(g, h, x);
	ipp_id be = ipp_add_edge(g, b, h);
	ipp_add_edge(g, x, ipp_proc_exit(g, m));
	CU_ASSERT(ipp_graph_is_back_edge(g, be));

	char err[256] = "";
	ipp_fin *f = ipp_fin_new(g, IPP_MODE_CONTEXT, NULL, err, sizeof err);
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT(check_structure(g, f, IPP_MODE_CONTEXT, NULL, "hand loop") == 0);
	bool surr_entry = false, surr_exit = false, kept = false;
	for (size_t e = 0; e < ipp_fin_nedges(f); e++) {
		ipp_id s = ipp_fin_esrc(f, (ipp_id)e), d = ipp_fin_edst(f, (ipp_id)e);
		enum ipp_ekind k = ipp_fin_ekind(f, (ipp_id)e);
		surr_entry |= k == IPP_E_SURR_ENTRY && s == ipp_proc_entry(g, m) && d == h;
		surr_exit |= k == IPP_E_SURR_EXIT && s == b && d == ipp_proc_gexit(g, m);
		kept |= s == b && d == h;
	}
	CU_ASSERT(surr_entry);
	CU_ASSERT(surr_exit);
	CU_ASSERT(!kept);
	uint64_t n = 0;
	CU_ASSERT(brute_enum_count(f, ipp_fin_region_find(f, "main"), 100, &n));
	CU_ASSERT_EQUAL(n, 4);
	brute_stats st = { 0 };
	CU_ASSERT(brute_check_enum(f, BRUTE_ALL, "hand loop", 100, 20, &st) == 0);
	ipp_fin_free(f);
	ipp_graph_free(g);
}

/* Directed: intra-context (Section 7) with a loop header that is a call
 * vertex, as in `while (f()) body;`.  main: Entry -> c (call out of the
 * unit); r = c+1 -> b, r -> x; b -> c (the back edge); x -> Exit.  The CFG is
 * reducible (c dominates b), so c is split: c keeps its in-edges, a new
 * vertex c_b takes its out-edge (the SUMMARY edge to r), c -> c_b twice (SPLIT
 * and SPLIT_SURR), and b -> c becomes b -> GExit.  Paths of main's region,
 * by hand: {split, split-surrogate} x {r->x->Exit, r->b->GExit} = 4. */
static void test_structure_call_header(void)
{
	ipp_graph *g = ipp_graph_new();
	ipp_id m = ipp_add_proc(g, "main", "main", IPP_PROC_ENTRY);
	ipp_id c = ipp_add_call(g, m, IPP_NONE, 0);
	ipp_id b = ipp_add_block(g, m), x = ipp_add_block(g, m);
	ipp_add_edge(g, ipp_proc_entry(g, m), c);
	ipp_add_edge(g, c + 1, b);
	ipp_add_edge(g, c + 1, x);
	ipp_id be = ipp_add_edge(g, b, c);
	ipp_add_edge(g, x, ipp_proc_exit(g, m));
	CU_ASSERT(ipp_graph_is_back_edge(g, be));

	char err[256] = "";
	ipp_fin *f = ipp_fin_new(g, IPP_MODE_INTRA_CONTEXT, NULL, err, sizeof err);
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT(!ipp_fin_proc_fallback(f, m));
	CU_ASSERT(check_structure(g, f, IPP_MODE_INTRA_CONTEXT, NULL, "call-vertex loop header") == 0);
	uint64_t n = 0;
	CU_ASSERT(brute_enum_count(f, ipp_fin_region_find(f, "main"), 100, &n));
	CHECKF(n == 4, "[call-vertex loop header] intra-context: main has %llu paths, expected 4",
	       (unsigned long long)n);
	ipp_fin_free(f);
	ipp_graph_free(g);
}

/* ------------------------------------------------------------------ */
/* Generator coverage                                                   */
/* ------------------------------------------------------------------ */
static void test_generator(void)
{
	struct seed_range sr = seed_range();
	enum { F_BACK, F_IRRED, F_SELFREC, F_MUTREC, F_EXTERN, F_INDIRECT, F_FORCE, F_PARALLEL,
	       F_DEADEND, F_SELFLOOP, F_NESTED, F_MULTIPROC, F_NONENTRY, F_CALLHDR, F_COUNT };
	static const char *const names[F_COUNT] = {
		"back edges", "irreducible", "self-recursion", "mutual recursion", "external calls",
		"indirect calls", "forced summaries", "parallel edges", "dead ends", "self-loops",
		"several loops in a procedure", "several procedures", "non-entry procedures", "call-vertex headers",
	};
	unsigned have[F_COUNT] = { 0 };
	unsigned graphs = 0, skipped = 0, levels[RG_NLEVELS] = { 0 };

	for (unsigned i = 0; i < sr.n; i++) {
		uint64_t seed = sr.first + i;
		unsigned level;
		ipp_graph *g = make_graph(seed, &level);
		if (!g) {
			skipped++;
			continue;
		}
		graphs++;
		levels[level]++;
		char err[256] = "";
		CHECKF(ipp_graph_check(g, err, sizeof err) == 0, "seed %llu: invalid graph: %s",
		       (unsigned long long)seed, err);
		struct gstar gs;
		gstar_analyse(g, &gs);
		bool f[F_COUNT] = { false };
		size_t nback_targets = 0;
		for (size_t e = 0; e < gs.ne; e++) {
			ipp_id s = ipp_edge_src(g, (ipp_id)e), d = ipp_edge_dst(g, (ipp_id)e);
			if (gs.back[e]) {
				f[F_BACK] = true;
				nback_targets++;
				if (s == d)
					f[F_SELFLOOP] = true;
				if (ipp_vertex_kind(g, d) == IPP_V_CALL)
					f[F_CALLHDR] = true;
			}
			if (ipp_vertex_kind(g, d) == IPP_V_GEXIT)
				f[F_DEADEND] = true;
			for (size_t e2 = e + 1; e2 < gs.ne; e2++)
				if (ipp_edge_src(g, (ipp_id)e2) == s && ipp_edge_dst(g, (ipp_id)e2) == d)
					f[F_PARALLEL] = true;
		}
		/* several loops (nested or not): two back edges in one procedure. */
		for (size_t p = 0; p < gs.np; p++) {
			unsigned nb = 0;
			for (size_t e = 0; e < gs.ne; e++)
				if (gs.back[e] && ipp_vertex_proc(g, ipp_edge_src(g, (ipp_id)e)) == (ipp_id)p)
					nb++;
			if (nb >= 2)
				f[F_NESTED] = true;
			if (gs.irreducible[p])
				f[F_IRRED] = true;
			if (!(ipp_proc_flags(g, (ipp_id)p) & IPP_PROC_ENTRY))
				f[F_NONENTRY] = true;
		}
		f[F_MULTIPROC] = gs.np > 1;
		for (size_t v = 0; v < gs.nv; v++) {
			if (ipp_vertex_kind(g, (ipp_id)v) != IPP_V_CALL)
				continue;
			ipp_id q = ipp_call_callee(g, (ipp_id)v);
			unsigned fl = ipp_call_flags(g, (ipp_id)v);
			if (gs.rec[v] && q == ipp_vertex_proc(g, (ipp_id)v))
				f[F_SELFREC] = true;
			if (gs.rec[v] && q != ipp_vertex_proc(g, (ipp_id)v))
				f[F_MUTREC] = true;
			if (q == IPP_NONE && !(fl & IPP_CALL_INDIRECT))
				f[F_EXTERN] = true;
			if (fl & IPP_CALL_INDIRECT)
				f[F_INDIRECT] = true;
			if (fl & IPP_CALL_FORCE_SUMMARY)
				f[F_FORCE] = true;
		}
		for (int k = 0; k < F_COUNT; k++)
			have[k] += f[k];
		(void)nback_targets;
		gstar_free(&gs);
		ipp_graph_free(g);
	}
	printf("\n    generator: %u graphs, %u skipped; size levels:", graphs, skipped);
	for (int l = 0; l < RG_NLEVELS; l++)
		printf(" %u", levels[l]);
	printf("\n    graphs with:");
	for (int k = 0; k < F_COUNT; k++)
		printf("%s %s %u", k ? "," : "", names[k], have[k]);
	/* Every shape must be exercised when the full seed list runs. */
	if (sr.n >= 100)
		for (int k = 0; k < F_COUNT; k++)
			CHECKF(have[k] >= 5, "generator: only %u graphs with %s", have[k], names[k]);
}

/* ------------------------------------------------------------------ */
/* Counts past 64 bits                                                  */
/* ------------------------------------------------------------------ */

/* Region 'name' must have exactly 'want' paths by the core and by the
 * memoised definition count; then sampled checks of properties 1-4. */
static void check_big(const ipp_fin *f, const char *name, const mpz_t want, const char *label)
{
	ipp_id r = ipp_fin_region_find(f, name);
	CHECKF(r != IPP_NONE, "[%s] no region %s", label, name);
	if (r == IPP_NONE)
		return;
	mpz_t got, mine;
	mpz_inits(got, mine, NULL);
	ipp_fin_region_total(f, r, got);
	brute_counter *c = brute_counter_new(f);
	CU_ASSERT(brute_counter_region(c, r, mine));
	brute_counter_free(c);
	char *a = mpz_get_str(NULL, 10, got), *b = mpz_get_str(NULL, 10, want),
	     *d = mpz_get_str(NULL, 10, mine);
	CHECKF(mpz_cmp(got, want) == 0, "[%s] region %s: core total %s, expected %s", label, name, a, b);
	CHECKF(mpz_cmp(mine, want) == 0, "[%s] region %s: ORACLE count %s, expected %s", label, name, d, b);
	free(a);
	free(b);
	free(d);
	mpz_clears(got, mine, NULL);
}

static void test_bignum_chain(void)
{
	/* 80 diamonds in a row: 2 choices each, 2^80 paths from Entry_main, in
	 * every mode (no loops, no calls).  In piecewise mode the GEntry region
	 * main#g is empty (GEntry_main has no surrogate edges), so the total is
	 * also 2^80. */
	ipp_graph *g = rg_diamond_chain(80);
	mpz_t want, t, limit;
	mpz_inits(want, t, limit, NULL);
	mpz_ui_pow_ui(want, 2, 80);
	mpz_ui_pow_ui(limit, 2, 64);
	brute_stats st = { 0 };
	for (int m = 0; m < IPP_MODE_COUNT; m++) {
		enum ipp_mode mode = all_modes[m];
		char err[256] = "", label[64];
		snprintf(label, sizeof label, "80 diamonds, %s", ipp_mode_name(mode));
		ipp_fin *f = ipp_fin_new(g, mode, NULL, err, sizeof err);
		CHECKF(f != NULL, "[%s] %s", label, err);
		if (!f)
			continue;
		check_big(f, "main", want, label);
		ipp_fin_total(f, t);
		CU_ASSERT(mpz_cmp(t, want) == 0);
		CU_ASSERT(brute_check_sampled(f, BRUTE_ALL, label, 300, 80 + m, 10, &st) == 0);
		ipp_fin_free(f);

		/* autocut to 2^64: every region fits, and the cut graph still numbers
		 * exactly (sampled, with exact counts from the definition). */
		ipp_cuts cuts;
		ipp_cuts_init(&cuts);
		snprintf(label, sizeof label, "80 diamonds cut to 2^64, %s", ipp_mode_name(mode));
		int rc = ipp_autocut(g, mode, limit, &cuts, err, sizeof err);
		CHECKF(rc == 0, "[%s] ipp_autocut failed: %s", label, err);
		if (rc == 0) {
			CHECKF(cuts.nvertices + cuts.ncalls > 0, "[%s] no cut chosen for 2^80 paths", label);
			f = ipp_fin_new(g, mode, &cuts, err, sizeof err);
			CHECKF(f != NULL, "[%s] %s", label, err);
			if (f) {
				for (size_t r = 0; r < ipp_fin_nregions(f); r++) {
					ipp_fin_region_total(f, (ipp_id)r, t);
					CHECKF(mpz_cmp(t, limit) <= 0, "[%s] region %zu exceeds 2^64", label, r);
				}
				CU_ASSERT(brute_check_sampled(f, BRUTE_ALL, label, 100, 180 + m, 10, &st) == 0);
				ipp_fin_free(f);
			}
		}
		ipp_cuts_free(&cuts);
	}
	printf("\n    bignum chain: %lu regions, %lu sampled paths, %lu prefixes", st.regions, st.paths,
	       st.prefixes);
	mpz_clears(want, t, limit, NULL);
	ipp_graph_free(g);
}

static void test_bignum_calls(void)
{
	/* main calls f twice in a row; f is 40 diamonds (2^40 paths).
	 * context / piecewise: main's region has 2^40 * 2^40 = 2^80 paths (each
	 *   call enters f and must return to its own site).  f is not an entry
	 *   and no site is summarized, so f has no Entry region.
	 * intra / intra-context: both sites are summarized, so main has 1 path
	 *   and f has its own region with 2^40 paths. */
	ipp_graph *g = rg_diamond_chain_calls(40, 2);
	mpz_t w80, w40, one, limit, t;
	mpz_inits(w80, w40, one, limit, t, NULL);
	mpz_ui_pow_ui(w80, 2, 80);
	mpz_ui_pow_ui(w40, 2, 40);
	mpz_set_ui(one, 1);
	mpz_ui_pow_ui(limit, 2, 64);
	brute_stats st = { 0 };
	for (int m = 0; m < IPP_MODE_COUNT; m++) {
		enum ipp_mode mode = all_modes[m];
		char err[256] = "", label[64];
		snprintf(label, sizeof label, "2 calls x 40 diamonds, %s", ipp_mode_name(mode));
		ipp_fin *f = ipp_fin_new(g, mode, NULL, err, sizeof err);
		CHECKF(f != NULL, "[%s] %s", label, err);
		if (!f)
			continue;
		if (intra_mode(mode)) {
			check_big(f, "main", one, label);
			check_big(f, "f", w40, label);
		} else {
			check_big(f, "main", w80, label);
			CU_ASSERT(ipp_fin_region_find(f, "f") == IPP_NONE);
		}
		CU_ASSERT(brute_check_sampled(f, BRUTE_ALL, label, 300, 40 + m, 10, &st) == 0);
		ipp_fin_free(f);

		ipp_cuts cuts;
		ipp_cuts_init(&cuts);
		snprintf(label, sizeof label, "2 calls x 40 diamonds cut to 2^64, %s", ipp_mode_name(mode));
		int rc = ipp_autocut(g, mode, limit, &cuts, err, sizeof err);
		CHECKF(rc == 0, "[%s] ipp_autocut failed: %s", label, err);
		if (rc == 0) {
			/* 2^40 + 1 fits: the intra modes need no cut. */
			if (intra_mode(mode))
				CHECKF(cuts.nvertices + cuts.ncalls == 0, "[%s] needless cuts", label);
			f = ipp_fin_new(g, mode, &cuts, err, sizeof err);
			CHECKF(f != NULL, "[%s] %s", label, err);
			if (f) {
				for (size_t r = 0; r < ipp_fin_nregions(f); r++) {
					ipp_fin_region_total(f, (ipp_id)r, t);
					CHECKF(mpz_cmp(t, limit) <= 0, "[%s] region %zu exceeds 2^64", label, r);
				}
				CU_ASSERT(brute_check_sampled(f, BRUTE_ALL, label, 100, 140 + m, 10, &st) == 0);
				ipp_fin_free(f);
			}
		}
		ipp_cuts_free(&cuts);
	}
	printf("\n    bignum calls: %lu regions, %lu sampled paths, %lu prefixes", st.regions, st.paths,
	       st.prefixes);
	mpz_clears(w80, w40, one, limit, t, NULL);
	ipp_graph_free(g);
}

static void test_bignum_boundary(void)
{
	/* 64 diamonds: exactly 2^64 paths, which fits a limit of 2^64 (numbers
	 * 0 .. 2^64-1): no cut is needed.  65 diamonds: 2^65 paths, must be cut. */
	mpz_t limit, want, t;
	mpz_inits(limit, want, t, NULL);
	mpz_ui_pow_ui(limit, 2, 64);
	for (unsigned n = 64; n <= 65; n++) {
		ipp_graph *g = rg_diamond_chain(n);
		char err[256] = "", label[64];
		snprintf(label, sizeof label, "%u diamonds, limit 2^64", n);
		ipp_fin *f = ipp_fin_new(g, IPP_MODE_INTRA, NULL, err, sizeof err);
		CU_ASSERT_FATAL(f != NULL);
		mpz_ui_pow_ui(want, 2, n);
		check_big(f, "main", want, label);
		ipp_fin_free(f);
		ipp_cuts cuts;
		ipp_cuts_init(&cuts);
		CU_ASSERT(ipp_autocut(g, IPP_MODE_INTRA, limit, &cuts, err, sizeof err) == 0);
		if (n == 64)
			CHECKF(cuts.nvertices + cuts.ncalls == 0, "[%s] needless cut", label);
		else
			CHECKF(cuts.nvertices > 0, "[%s] no cut", label);
		f = ipp_fin_new(g, IPP_MODE_INTRA, &cuts, err, sizeof err);
		CU_ASSERT_FATAL(f != NULL);
		for (size_t r = 0; r < ipp_fin_nregions(f); r++) {
			ipp_fin_region_total(f, (ipp_id)r, t);
			CHECKF(mpz_cmp(t, limit) <= 0, "[%s] region %zu exceeds 2^64", label, r);
		}
		brute_stats st = { 0 };
		CU_ASSERT(brute_check_sampled(f, BRUTE_ALL, label, 100, n, 10, &st) == 0);
		ipp_fin_free(f);
		ipp_cuts_free(&cuts);
		ipp_graph_free(g);
	}
	/* A limit below 2 is refused. */
	ipp_graph *g = rg_diamond_chain(3);
	ipp_cuts cuts;
	ipp_cuts_init(&cuts);
	char err[256];
	mpz_set_ui(limit, 1);
	CU_ASSERT(ipp_autocut(g, IPP_MODE_CONTEXT, limit, &cuts, err, sizeof err) == -1);
	ipp_cuts_free(&cuts);
	ipp_graph_free(g);
	mpz_clears(limit, want, t, NULL);
}

/* ------------------------------------------------------------------ */
/* Cuts                                                                 */
/* ------------------------------------------------------------------ */

/* Cut sets must be sorted, unique and of the right vertex kinds. */
static bool cuts_wellformed(const ipp_graph *g, const ipp_cuts *c)
{
	for (size_t i = 0; i < c->nvertices; i++) {
		enum ipp_vkind k = ipp_vertex_kind(g, c->vertices[i]);
		if ((i && c->vertices[i - 1] >= c->vertices[i]) || (k != IPP_V_BLOCK && k != IPP_V_CALL))
			return false;
	}
	for (size_t i = 0; i < c->ncalls; i++)
		if ((i && c->calls[i - 1] >= c->calls[i]) || ipp_vertex_kind(g, c->calls[i]) != IPP_V_CALL)
			return false;
	return true;
}

/* A cut vertex v: no kept edge enters it, a surrogate edge from Entry_P /
 * GEntry_P does, and a cut call site is summarized. */
static unsigned check_cut_structure(const ipp_graph *g, const ipp_fin *f, const ipp_cuts *c,
				    const char *label)
{
	unsigned fails = 0;
	bool pw = ipp_fin_mode(f) == IPP_MODE_PIECEWISE;
	for (size_t i = 0; i < c->nvertices; i++) {
		ipp_id v = c->vertices[i], p = ipp_vertex_proc(g, v);
		ipp_id from = pw ? ipp_proc_gentry(g, p) : ipp_proc_entry(g, p);
		bool surr = false, kept_in = false;
		for (size_t e = 0; e < ipp_fin_nedges(f); e++) {
			if (ipp_fin_edst(f, (ipp_id)e) != v)
				continue;
			enum ipp_ekind k = ipp_fin_ekind(f, (ipp_id)e);
			if (k == IPP_E_SURR_ENTRY && ipp_fin_esrc(f, (ipp_id)e) == from)
				surr = true;
			else if (k != IPP_E_SPLIT && k != IPP_E_SPLIT_SURR)
				kept_in = true;
		}
		if (!ipp_fin_is_cut_vertex(f, v) || kept_in ||
		    (!surr && ipp_fin_mode(f) != IPP_MODE_INTRA_CONTEXT)) {
			fails++;
			printf("\nFAIL [%s] mode %s: cut vertex %d: is_cut %d, surrogate entry %d, other in-edges %d\n",
			       label, ipp_mode_name(ipp_fin_mode(f)), (int)v, ipp_fin_is_cut_vertex(f, v), surr,
			       kept_in);
		}
	}
	for (size_t i = 0; i < c->ncalls; i++) {
		ipp_id cv = c->calls[i];
		if (ipp_fin_call_summary(f, cv) == IPP_SUM_NONE) {
			fails++;
			printf("\nFAIL [%s] mode %s: cut call %d not summarized\n", label,
			       ipp_mode_name(ipp_fin_mode(f)), (int)cv);
		}
	}
	return fails;
}

/* Procedures that some region can reach in the uncut G*fin: the procedures
 * of the regions, closed under CALL edges.  A procedure outside this set
 * (dead code: not an entry, called only from dead code) adds no path to any
 * region in the interprocedural modes. */
static bool *live_procs(const ipp_graph *g, enum ipp_mode mode)
{
	size_t np = ipp_graph_nprocs(g);
	bool *live = calloc(np + 1, sizeof *live);
	char err[256];
	ipp_fin *f = ipp_fin_new(g, mode, NULL, err, sizeof err);
	if (!f) {
		for (size_t p = 0; p < np; p++)
			live[p] = true;
		return live;
	}
	for (size_t r = 0; r < ipp_fin_nregions(f); r++) {
		ipp_region_info ri;
		ipp_fin_region(f, (ipp_id)r, &ri);
		live[ri.proc] = true;
	}
	for (bool changed = true; changed;) {
		changed = false;
		for (size_t e = 0; e < ipp_fin_nedges(f); e++) {
			if (ipp_fin_ekind(f, (ipp_id)e) != IPP_E_CALL)
				continue;
			ipp_id p = ipp_fin_vproc(f, ipp_fin_esrc(f, (ipp_id)e));
			ipp_id q = ipp_fin_vproc(f, ipp_fin_edst(f, (ipp_id)e));
			if (live[p] && !live[q])
				live[q] = changed = true;
		}
	}
	ipp_fin_free(f);
	return live;
}

struct autocut_stats {
	unsigned tries, refused, cut, dead_cuts, live_needless, numbers_over;
};

/* The largest psi_v(1) or rho_e(1) of G*fin, over every vertex and edge:
 * what ipp_autocut holds to the limit besides the region totals (the
 * plugin emits each as a constant, whether a path reaches it or not). */
static void max_number(const ipp_fin *f, mpz_t out)
{
	mpz_t a, b;
	mpz_inits(a, b, NULL);
	mpz_set_ui(out, 0);
	for (size_t i = 0; i < ipp_fin_nvertices(f) + ipp_fin_nedges(f); i++) {
		if (i < ipp_fin_nvertices(f))
			ipp_fin_psi(f, (ipp_id)i, a, b);
		else
			ipp_fin_rho(f, (ipp_id)(i - ipp_fin_nvertices(f)), a, b);
		mpz_add(a, a, b);
		if (mpz_cmp(a, out) > 0)
			mpz_set(out, a);
	}
	mpz_clears(a, b, NULL);
}

/* autocut(limit), then: every region and every psi and rho fits, cuts are
 * well formed, a graph that already fits gets no cut in a live procedure,
 * and properties 1-4 hold on the cut graph. */
static void autocut_one(const ipp_graph *g, enum ipp_mode mode, unsigned lim, const char *label,
			const mpz_t maxr_uncut, brute_stats *st, struct autocut_stats *as)
{
	mpz_t limit, t;
	mpz_inits(limit, t, NULL);
	mpz_set_ui(limit, lim);
	char err[256] = "";
	ipp_cuts cuts;
	ipp_cuts_init(&cuts);
	as->tries++;
	int rc = ipp_autocut(g, mode, limit, &cuts, err, sizeof err);
	/* The uncut graph fits if its regions and its numbers do: a vertex
	 * that no path from a region reaches (dead procedures; the return site
	 * of a call to a procedure that cannot return) is bounded by no region. */
	bool fits_uncut = mpz_cmp(maxr_uncut, limit) <= 0;
	if (fits_uncut) {
		ipp_fin *f0 = ipp_fin_new(g, mode, NULL, err, sizeof err);
		if (f0) {
			max_number(f0, t);
			fits_uncut = mpz_cmp(t, limit) <= 0;
			as->numbers_over += !fits_uncut;
			ipp_fin_free(f0);
		}
	}
	if (rc != 0) {
		/* Some limits cannot be met at all (a vertex with more out-edges than
		 * the limit), but one the uncut graph already meets can. */
		as->refused++;
		CHECKF(!fits_uncut, "[%s] mode %s: refused although the uncut graph fits: %s", label,
		       ipp_mode_name(mode), err);
	} else {
		CHECKF(cuts_wellformed(g, &cuts), "[%s] malformed cut set", label);
		/* Cuts on a graph that already fits are not forbidden by ipp_core.h
		 * (it makes each procedure fit on its own), only counted: in dead
		 * procedures, and in live ones. */
		if (fits_uncut && cuts.nvertices + cuts.ncalls > 0) {
			bool *live = live_procs(g, mode);
			for (size_t i = 0; i < cuts.nvertices + cuts.ncalls; i++) {
				ipp_id v = i < cuts.nvertices ? cuts.vertices[i] : cuts.calls[i - cuts.nvertices];
				if (live[ipp_vertex_proc(g, v)])
					as->live_needless++;
				else
					as->dead_cuts++;
			}
			free(live);
		}
		as->cut += cuts.nvertices + cuts.ncalls > 0;
		ipp_fin *f = ipp_fin_new(g, mode, &cuts, err, sizeof err);
		CHECKF(f != NULL, "[%s] mode %s: ipp_fin_new with cuts failed: %s", label,
		       ipp_mode_name(mode), err);
		if (f) {
			for (size_t r = 0; r < ipp_fin_nregions(f); r++) {
				ipp_fin_region_total(f, (ipp_id)r, t);
				char *a = mpz_get_str(NULL, 10, t);
				CHECKF(mpz_cmp(t, limit) <= 0, "[%s] mode %s: region %zu has %s paths", label,
				       ipp_mode_name(mode), r, a);
				free(a);
			}
			max_number(f, t);
			char *a = mpz_get_str(NULL, 10, t);
			CHECKF(mpz_cmp(t, limit) <= 0, "[%s] mode %s: a psi or rho of %s paths", label,
			       ipp_mode_name(mode), a);
			free(a);
			CU_ASSERT(check_cut_structure(g, f, &cuts, label) == 0);
			CU_ASSERT(check_structure(g, f, mode, &cuts, label) == 0);
			CU_ASSERT(brute_check_enum(f, BRUTE_ALL, label, ENUM_LIMIT, max_reports(), st) == 0);
			ipp_fin_free(f);
		}
	}
	ipp_cuts_free(&cuts);
	mpz_clears(limit, t, NULL);
}

static void run_autocut(enum ipp_mode mode)
{
	struct seed_range sr = seed_range();
	brute_stats st = { 0 };
	struct autocut_stats as = { 0 };
	unsigned graphs = 0, skipped = 0;
	double t0 = now();
	mpz_t maxr, sum;
	mpz_inits(maxr, sum, NULL);

	for (unsigned i = 0; i < sr.n; i++) {
		uint64_t seed = sr.first + i;
		unsigned level;
		ipp_graph *g = make_graph(seed, &level);
		if (!g) {
			skipped++;
			continue;
		}
		graphs++;
		if (!fin_sizes(g, mode, NULL, maxr, sum)) {
			ipp_graph_free(g);
			continue;	/* reported by the other suites */
		}
		rg_rng rng;
		rg_rng_seed(&rng, seed * 7919 + (uint64_t)mode);
		char label[96];
		/* A small limit, 2 .. 50. */
		unsigned lim = 2 + rg_rng_below(&rng, 49);
		snprintf(label, sizeof label, "autocut %u: seed %llu level %u", lim,
			 (unsigned long long)seed, level);
		autocut_one(g, mode, lim, label, maxr, &st, &as);
		/* A limit that forces cuts: the largest region over 2 .. 10, but above
		 * the largest procedure's vertex count (ipp_autocut refuses limits up to
		 * |V_P| for a procedure it must cut; such refusals are counted above). */
		unsigned long big = mpz_get_ui(maxr);
		size_t maxv = 0;
		for (size_t p = 0; p < ipp_graph_nprocs(g); p++) {
			size_t n = 0;
			for (size_t v = 0; v < ipp_graph_nvertices(g); v++)
				n += ipp_vertex_proc(g, (ipp_id)v) == (ipp_id)p;
			if (n > maxv)
				maxv = n;
		}
		lim = (unsigned)(big / (2 + rg_rng_below(&rng, 9)));
		if (lim < maxv + 2)
			lim = (unsigned)maxv + 2;
		if (lim < big) {
			snprintf(label, sizeof label, "autocut %u: seed %llu level %u", lim,
				 (unsigned long long)seed, level);
			autocut_one(g, mode, lim, label, maxr, &st, &as);
		}
		ipp_graph_free(g);
	}
	/* A limit below 2 is refused. */
	{
		ipp_graph *g = rg_diamond_chain(2);
		ipp_cuts cuts;
		ipp_cuts_init(&cuts);
		char err[256];
		mpz_set_ui(maxr, 1);
		CU_ASSERT(ipp_autocut(g, mode, maxr, &cuts, err, sizeof err) == -1);
		ipp_cuts_free(&cuts);
		ipp_graph_free(g);
	}
	printf("\n    autocut/%s: %u graphs (%u skipped), %u limits tried, %u refused, %u cut; "
	       "%u where the regions fit but not every psi or rho; "
	       "cuts where the uncut graph fits: %u in dead procedures, %u in live ones; "
	       "%lu regions, %lu paths, %lu prefixes, %.2fs",
	       ipp_mode_name(mode), graphs, skipped, as.tries, as.refused, as.cut, as.numbers_over,
	       as.dead_cuts, as.live_needless, st.regions, st.paths, st.prefixes, now() - t0);
	mpz_clears(maxr, sum, NULL);
}

static void run_forced_cuts(enum ipp_mode mode)
{
	struct seed_range sr = seed_range();
	brute_stats st = { 0 };
	unsigned graphs = 0, skipped = 0, toobig = 0;
	double t0 = now();
	mpz_t maxr, sum;
	mpz_inits(maxr, sum, NULL);

	for (unsigned i = 0; i < sr.n; i++) {
		uint64_t seed = sr.first + i;
		unsigned level;
		ipp_graph *g = make_graph(seed, &level);
		if (!g) {
			skipped++;
			continue;
		}
		rg_rng rng;
		rg_rng_seed(&rng, seed * 104729 + (uint64_t)mode);
		ipp_cuts cuts;
		ipp_cuts_init(&cuts);
		size_t nv = ipp_graph_nvertices(g);
		unsigned nvc = 1 + rg_rng_below(&rng, 3), ncc = rg_rng_below(&rng, 3);
		for (unsigned tries = 0; tries < 50 && (nvc || ncc); tries++) {
			ipp_id v = (ipp_id)rg_rng_below(&rng, (uint32_t)nv);
			enum ipp_vkind k = ipp_vertex_kind(g, v);
			if (nvc && (k == IPP_V_BLOCK || k == IPP_V_CALL)) {
				ipp_cuts_add_vertex(&cuts, v);
				nvc--;
			} else if (ncc && k == IPP_V_CALL) {
				ipp_cuts_add_call(&cuts, v);
				ncc--;
			}
		}
		char err[256] = "", label[96];
		snprintf(label, sizeof label, "forced cuts: seed %llu level %u", (unsigned long long)seed,
			 level);
		CHECKF(cuts_wellformed(g, &cuts), "[%s] ipp_cuts_add_* made a malformed set", label);
		ipp_fin *f = ipp_fin_new(g, mode, &cuts, err, sizeof err);
		CHECKF(f != NULL, "[%s] mode %s: ipp_fin_new with cuts failed: %s", label,
		       ipp_mode_name(mode), err);
		if (f) {
			CU_ASSERT(check_cut_structure(g, f, &cuts, label) == 0);
			CU_ASSERT(check_structure(g, f, mode, &cuts, label) == 0);
			/* Cut vertices add surrogate entries, which can add paths. */
			if (fin_sizes(g, mode, &cuts, maxr, sum) && mpz_cmp_ui(maxr, MAX_REGION_PATHS) <= 0 &&
			    mpz_cmp_ui(sum, 2 * MAX_MODE_PATHS) <= 0) {
				CU_ASSERT(brute_check_enum(f, BRUTE_ALL, label, ENUM_LIMIT, max_reports(), &st) == 0);
			} else {
				toobig++;
			}
			ipp_fin_free(f);
		}
		ipp_cuts_free(&cuts);
		ipp_graph_free(g);
		graphs++;
	}
	printf("\n    forced cuts/%s: %u graphs (%u skipped, %u too big after cutting), %lu regions, "
	       "%lu paths, %lu prefixes, %.2fs",
	       ipp_mode_name(mode), graphs, skipped, toobig, st.regions, st.paths, st.prefixes,
	       now() - t0);
	mpz_clears(maxr, sum, NULL);
}

static void test_autocut_context(void) { run_autocut(IPP_MODE_CONTEXT); }
static void test_autocut_piecewise(void) { run_autocut(IPP_MODE_PIECEWISE); }
static void test_autocut_intra(void) { run_autocut(IPP_MODE_INTRA); }
static void test_autocut_intra_context(void) { run_autocut(IPP_MODE_INTRA_CONTEXT); }
static void test_forced_context(void) { run_forced_cuts(IPP_MODE_CONTEXT); }
static void test_forced_piecewise(void) { run_forced_cuts(IPP_MODE_PIECEWISE); }
static void test_forced_intra(void) { run_forced_cuts(IPP_MODE_INTRA); }
static void test_forced_intra_context(void) { run_forced_cuts(IPP_MODE_INTRA_CONTEXT); }

/* ------------------------------------------------------------------ */
/* Registry                                                             */
/* ------------------------------------------------------------------ */
struct test_def {
	const char *name;
	CU_TestFunc fn;
};

#define PER_MODE(name)                                                       \
	{ #name " context", test_##name##_context },                         \
	{ #name " piecewise", test_##name##_piecewise },                     \
	{ #name " intra", test_##name##_intra },                             \
	{ #name " intra-context", test_##name##_intra_context }

static bool add_suite(const char *name, const struct test_def *tests, size_t n)
{
	CU_pSuite s = CU_add_suite(name, NULL, NULL);
	if (!s)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!CU_add_test(s, tests[i].name, tests[i].fn))
			return false;
	return true;
}

#define ADD_SUITE(name, arr) add_suite(name, arr, sizeof arr / sizeof arr[0])

int main(void)
{
	static const struct test_def generator[] = { { "coverage", test_generator } };
	static const struct test_def structure[] = {
		{ "hand-made loop", test_structure_loop },
		{ "self and mutual recursion", test_structure_recursion },
		{ "intra-context call-vertex loop header", test_structure_call_header },
		PER_MODE(structure),
	};
	static const struct test_def count[] = { PER_MODE(count) };
	static const struct test_def bijection[] = { PER_MODE(bijection) };
	static const struct test_def decode[] = { PER_MODE(decode) };
	static const struct test_def definition[] = { PER_MODE(definition) };
	static const struct test_def prefix[] = { PER_MODE(prefix) };
	static const struct test_def bignum[] = {
		{ "80 diamonds", test_bignum_chain },
		{ "2 calls x 40 diamonds", test_bignum_calls },
		{ "2^64 boundary", test_bignum_boundary },
	};
	static const struct test_def cuts[] = { PER_MODE(autocut), PER_MODE(forced) };

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	bool ok = ADD_SUITE("generator", generator) && ADD_SUITE("structure", structure) &&
		  ADD_SUITE("count", count) && ADD_SUITE("bijection", bijection) &&
		  ADD_SUITE("decode", decode) && ADD_SUITE("definition", definition) &&
		  ADD_SUITE("prefix", prefix) && ADD_SUITE("bignum", bignum) && ADD_SUITE("cuts", cuts);
	if (!ok) {
		fprintf(stderr, "test_props: cannot build the CUnit registry: %s\n", CU_get_error_msg());
		CU_cleanup_registry();
		return 2;
	}
	double t0 = now();
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	unsigned nfail = CU_get_number_of_failures();
	printf("\ntest_props: %u assertion failures, %.1fs\n", nfail, now() - t0);
	CU_cleanup_registry();
	return nfail != 0 ? 1 : 0;
}
