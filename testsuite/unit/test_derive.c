/* test_derive.c -- CUnit tests of ippcore/derive.c (ipp_derive, ipp_check_flow,
 * call and line counts) against SIMULATED EXECUTIONS.
 *
 * The oracle is independent of the derivation: a simulator walks G* (not
 * G*fin) like a program runs -- from main's entry, random successors, a real
 * call stack (callees entered at call vertices, returns to the right return
 * site), bounded loops and recursion, sometimes ending abruptly as exit()
 * would -- and counts every G* vertex, edge, call return and fresh entry
 * DIRECTLY as it goes.  At the same time it cuts the walk into observable
 * paths exactly as the instrumentation does (docs/PROTOCOL.md):
 *
 *  - a "group" is a fresh activation (main, the callee of a summarized
 *    in-unit site, the target of an indirect call) with the chain of
 *    activations called from it through interprocedural sites: they share
 *    one path (intraprocedural modes: every activation is its own group);
 *  - at a removed edge w -> v (DFS back edge, in-edge of a cut vertex) the
 *    group's path is recorded with w -> GExit_P -> Exit_global and restarts:
 *    context mode keeps the context prefix up to Entry_P of the running
 *    activation and adds Entry_P -> v; piecewise starts fresh at GEntry_P
 *    -> v; intra-context restarts a back edge into a split header at the
 *    saved prefix to v_a plus v_a -> v_b (Section 7), a cut at Entry_P -> v;
 *  - a fresh activation records its path at its return; a dead end (edge
 *    to GExit_P) records the path and is exit() -- the run ends and every
 *    other pending group is recorded as a partial path -- or, in a third of
 *    the graphs, which get restart points, a computed goto (the activation
 *    restarts at a restart block of its procedure) or a longjmp (every
 *    pending path above the receiver, and the receiver's own, is recorded
 *    as a partial path and the receiver restarts at setjmp's return site);
 *    an abrupt end (exit() inside an external call, a fatal signal in a
 *    block) records every group as a partial path (one per group, with the
 *    stop stack ipp_encode gives for the group's prefix).
 *
 * In intra and context mode (the modes the plugin instruments) the walk
 * also counts the run-time events of the inserted code directly, where the
 * program executes them (an activation pushed, fresh or continuing; a
 * record made, and how: the array, a row -- from the entry or a restart,
 * or from the return site of a continuing call, as the walk saw the
 * activation go --, __ipp_record; a kept edge traversed; a call vertex
 * stepped), and ipp_events_derive must give the same counts from the
 * profile.  What each procedure's bodies look like (a frame, an array,
 * rows: struct tplan) is docs/PROTOCOL.md's "Events" rule restated
 * here from the graph; the derivation has to find out from the records
 * alone which body ran each edge, where each path's local part started,
 * which activation made each record.
 *
 * Paths are encoded with ipp_encode into an ipp_prof_module, ipp_derive
 * reads them back, and every derived count must equal the direct count
 * exactly (removed edges: when the derivation says it knows them; their
 * per-source and per-target totals always), in all four modes, with and
 * without cuts (ipp_autocut with small limits); ipp_check_flow must find no
 * violation.  Corrupted profiles (one observation dropped, where that must
 * be visible) must give a violation.  Fixed tests: the paper's Figure 9
 * profile (counts stated in comments), saturation, line counts, errors, and
 * a timing test.
 *
 * Environment: IPP_DERIVE_SEED=s runs only seed s; IPP_DERIVE_NGRAPHS=n runs
 * seeds 1..n (default 500); IPP_DERIVE_SCALE_PATHS=n sets the size of the
 * timing test.  A failure prints "seed S mode M cuts C profile K": rerun
 * with IPP_DERIVE_SEED=S.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <CUnit/Basic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ipp_core.h"
#include "ipp_format.h"
#include "ipp_derive.h"
#include "ipp_local.h"
#include "checkf.h"
#include "fig4.h"
#include "randgraph.h"

#define DEFAULT_NGRAPHS 500u
#define MAX_STEPS 2500u		/* per run, then walk towards termination */
#define MAX_DEPTH 14u		/* call depth, then walk towards termination */
#define INF UINT64_MAX
#define MAX_REPORTS 6u


static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *xcalloc(size_t n, size_t s)
{
	void *p = calloc(n ? n : 1, s ? s : 1);
	if (!p) {
		perror("calloc");
		abort();
	}
	return p;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		perror("realloc");
		abort();
	}
	return p;
}

/* ------------------------------------------------------------------ */
/* G*fin lookup tables for the simulator                                */
/* ------------------------------------------------------------------ */
struct tables {
	const ipp_graph *g;
	const ipp_fin *f;
	enum ipp_mode mode;
	size_t nv, ne, np;
	ipp_id *kept;		/* G* edge -> its NORMAL G*fin edge, or -1 (removed) */
	ipp_id *surr_exit;	/* G*fin vertex -> its SURR_EXIT edge, or -1 */
	ipp_id *surr_entry;	/* G* vertex -> the SURR_ENTRY edge into it, or -1 */
	ipp_id *half;		/* G* vertex -> its split half v_b, or -1 */
	ipp_id *split_e;	/* G* vertex -> v_a -> v_b SPLIT edge */
	ipp_id *split_surr_e;	/* G* vertex -> v_a -> v_b SPLIT_SURR edge */
	ipp_id *call_e;		/* call vertex -> CALL edge, or -1 */
	ipp_id *sum_e;		/* call vertex -> SUMMARY edge, or -1 */
	ipp_id *ret_e;		/* call vertex -> RETURN edge, or -1 */
	ipp_id *gx_exit;	/* procedure -> GLOBAL_EXIT out of Exit_P */
	ipp_id *gx_gexit;	/* procedure -> GLOBAL_EXIT out of GExit_P */
	ipp_id *reg_entry;	/* procedure -> its Entry region, or -1 */
	ipp_id *reg_gentry;	/* procedure -> its GEntry region, or -1 */
	uint64_t *cost;		/* G* vertex -> steps to Exit_P / a dead end */
	ipp_id *entry_procs;	/* IPP_PROC_ENTRY procedures: indirect targets */
	size_t nentry;
	bool *proc_restart;	/* procedure has restart points */
	ipp_id *restart_blocks;	/* restart BLOCK vertices (computed-goto targets) */
	size_t nrestart_blocks;
	bool any_setjmp;	/* some return site is a restart point */
	bool *in_loop;		/* intra-context: G* vertex inside the natural loop of a
				 * split header (not the header itself) */
	/* intra and context mode: the inserted code (docs/PROTOCOL.md,
	 * "Events") */
	unsigned char *rho_add;	/* G*fin edge: rho_e != 0 (adds something) */
	unsigned char *inc_add;	/* ... in a fresh activation: inc_e != 0 (chords) */
	unsigned char *rho_mul;	/* G*fin edge: a != 0 (a clone multiplies by nvc) */
	unsigned char *psi_mul;	/* G* vertex: psi_v has a != 0 */
	struct tplan *plan;	/* procedure: its bodies */
};

/* What the plugin makes of a procedure's bodies (plugin/instrument.cc:
 * ipp_decide_frames, ipp_prepare_rows, ipp_instrument).  A summarized call
 * that may return needs a frame unless the map flags it `leaf`; a tail
 * call never does; a procedure entered by a direct dead-end call has one
 * (no checkpoint of its caller stands at such a call). */
struct tplan {
	bool framed;		/* a frame in both bodies for its calls */
	bool restarts;		/* records at restarts: a frame too in a body
				 * that keeps r, whose checkpoint moves on */
	bool continues;		/* makes interprocedural calls */
	bool array;		/* the fresh body counts in its region's array */
	ipp_local *local;	/* rows (context mode), or NULL */
};

/* ipp_events_derive's limits for the tests: small, so that the random
 * graphs have procedures of every kind */
static const ipp_events_limits test_limits = { 4, 8 };

static ipp_id *ids(size_t n)
{
	ipp_id *a = xcalloc(n + 1, sizeof(ipp_id));
	for (size_t i = 0; i <= n; i++)
		a[i] = IPP_NONE;
	return a;
}

static bool instrumented(const ipp_graph *g, ipp_id p)
{
	return p >= 0 && !(ipp_proc_flags(g, p) & IPP_PROC_SKIPPED);
}

/* The procedure a call at c enters, and whether it starts fresh; IPP_NONE
 * for an external call (or an indirect one, decided at run time). */
static ipp_id static_callee(const struct tables *t, ipp_id c, bool *fresh)
{
	ipp_id q = ipp_call_callee(t->g, c);
	enum ipp_summary_why w = ipp_fin_call_summary(t->f, c);
	*fresh = w != IPP_SUM_NONE;
	if ((ipp_call_flags(t->g, c) & IPP_CALL_INDIRECT) || !instrumented(t->g, q))
		return IPP_NONE;
	return q;
}

/* A summarized call flagged noreturn: the program records the caller's
 * path before the call, with c -> c+1 -> GExit_P as its dead end, so
 * c -> c+1 is no return (the derivation counts the call as abandoned).  A
 * random graph's "noreturn" callee may return all the same; the walk then
 * goes on to that dead end, and counts no return either. */
static bool summarized_noreturn(const struct tables *t, ipp_id c)
{
	return (ipp_call_flags(t->g, c) & IPP_CALL_NORETURN) &&
	       ipp_fin_call_summary(t->f, c) != IPP_SUM_NONE;
}

static void tables_free(struct tables *t)
{
	free(t->kept);
	free(t->surr_exit);
	free(t->surr_entry);
	free(t->half);
	free(t->split_e);
	free(t->split_surr_e);
	free(t->call_e);
	free(t->sum_e);
	free(t->ret_e);
	free(t->gx_exit);
	free(t->gx_gexit);
	free(t->reg_entry);
	free(t->reg_gentry);
	free(t->cost);
	free(t->entry_procs);
	free(t->proc_restart);
	free(t->restart_blocks);
	free(t->in_loop);
	free(t->rho_add);
	free(t->inc_add);
	free(t->rho_mul);
	free(t->psi_mul);
	for (size_t p = 0; p < t->np; p++)
		ipp_local_free(t->plan[p].local);
	free(t->plan);
}

/* A summarized noreturn call whose block ends with it: the plugin records
 * before it (a dead end), and it needs no frame. */
static bool dead_call(const struct tables *t, ipp_id c)
{
	const ipp_graph *g = t->g;
	return ipp_fin_call_summary(t->f, c) != IPP_SUM_NONE &&
	       (ipp_call_flags(g, c) & IPP_CALL_NORETURN) && ipp_vertex_nout(g, c + 1) == 1 &&
	       ipp_vertex_kind(g, ipp_edge_dst(g, ipp_vertex_out(g, c + 1, 0))) == IPP_V_GEXIT;
}

static void tables_events(struct tables *t)
{
	const ipp_graph *g = t->g;
	size_t nfe = ipp_fin_nedges(t->f);
	bool ctx = t->mode == IPP_MODE_CONTEXT;
	mpz_t a, b;
	t->rho_add = xcalloc(nfe + 1, 1);
	t->inc_add = xcalloc(nfe + 1, 1);
	t->rho_mul = xcalloc(nfe + 1, 1);
	t->psi_mul = xcalloc(t->nv + 2, 1);
	t->plan = xcalloc(t->np + 1, sizeof(*t->plan));
	if (t->mode != IPP_MODE_INTRA && !ctx)
		return;
	mpz_inits(a, b, NULL);
	for (size_t e = 0; e < nfe; e++) {
		ipp_fin_rho(t->f, (ipp_id)e, a, b);
		t->rho_add[e] = mpz_sgn(a) != 0 || mpz_sgn(b) != 0;
		t->rho_mul[e] = mpz_sgn(a) != 0;
		t->inc_add[e] = t->rho_add[e];
		if (ipp_fin_has_offsets(t->f)) {
			/* increments on chords, in fresh activations (nvc 1):
			 * rho_e(1) + off(dst) - off(src), modulo 2^64 */
			mpz_add(a, a, b);
			mpz_add_ui(a, a, ipp_fin_offset(t->f, ipp_fin_edst(t->f, (ipp_id)e)));
			mpz_sub_ui(a, a, ipp_fin_offset(t->f, ipp_fin_esrc(t->f, (ipp_id)e)));
			mpz_fdiv_r_2exp(a, a, 64);
			t->inc_add[e] = mpz_sgn(a) != 0;
		}
	}
	for (size_t v = 0; v < t->nv; v++) {
		ipp_fin_psi(t->f, (ipp_id)v, a, b);
		t->psi_mul[v] = mpz_sgn(a) != 0;
	}
	bool *abrupt = calloc(t->np + 1, sizeof(bool));	/* entered by a dead-end call */
	for (size_t vi = 0; vi < t->nv; vi++) {
		ipp_id v = (ipp_id)vi, q;
		if (ipp_vertex_kind(g, v) != IPP_V_CALL || ipp_vertex_proc(g, v) < 0 ||
		    !instrumented(g, ipp_vertex_proc(g, v)) ||
		    (ipp_call_flags(g, v) & IPP_CALL_INLINED))
			continue;
		q = ipp_call_callee(g, v);	/* (random graphs name no other targets) */
		if (q >= 0 && dead_call(t, v))
			abrupt[q] = true;
	}
	for (size_t pi = 0; pi < t->np; pi++) {
		ipp_id p = (ipp_id)pi;
		struct tplan *pl = &t->plan[pi];
		bool in_memory = false, sure = abrupt[pi], restarts;
		if (!instrumented(g, p))
			continue;
		for (size_t vi = 0; vi < t->nv; vi++) {
			ipp_id v = (ipp_id)vi;
			if (ipp_vertex_proc(g, v) != p)
				continue;
			in_memory |= ipp_vertex_is_restart(g, v);
			if (ipp_vertex_kind(g, v) != IPP_V_CALL ||
			    (ipp_call_flags(g, v) & IPP_CALL_TAIL))
				continue;	/* nothing is pending in a tail call */
			if (ipp_fin_call_summary(t->f, v) == IPP_SUM_NONE)
				pl->continues = sure = true;
			else if ((ipp_call_flags(g, v) & IPP_CALL_INDIRECT) ||
				 ipp_vertex_is_restart(g, v + 1))
				sure = true;
			else if (!dead_call(t, v) && !(ipp_call_flags(g, v) & IPP_CALL_LEAF))
				sure = true;	/* not declared leaf */
		}
		pl->framed = in_memory || sure;
		if (t->reg_entry[p] >= 0) {
			ipp_fin_region_total(t->f, t->reg_entry[p], a);
			pl->array = mpz_cmp_ui(a, test_limits.array_max) <= 0;
		}
		/* rows only where an activation may record several paths: a
		 * surrogate edge to GExit (a back edge or a cut) leaves one of
		 * the procedure's vertices */
		restarts = false;
		for (size_t e = 0; e < ipp_fin_nedges(t->f); e++)
			if (ipp_fin_ekind(t->f, (ipp_id)e) == IPP_E_SURR_EXIT &&
			    ipp_fin_vproc(t->f, ipp_fin_esrc(t->f, (ipp_id)e)) == p)
				restarts = true;
		if (ctx && !in_memory && restarts) {
			pl->local = ipp_local_new(t->f, p, UINT64_MAX >> 1);
			if (pl->local && (ipp_local_nentry(pl->local) == 0 ||
					  ipp_local_nentry(pl->local) > test_limits.row_max)) {
				ipp_local_free(pl->local);
				pl->local = NULL;
			}
		}
		pl->restarts = restarts;
	}
	free(abrupt);
	mpz_clears(a, b, NULL);
}

/* Does activation body `fresh` of procedure p count in rows, and keep no r? */
static bool in_rows(const struct tables *t, ipp_id p, bool fresh)
{
	return t->plan[p].local && !(fresh && t->plan[p].array);
}

/* Does it probe its region's hash table inline at each record?  A body
 * in no row: the fresh one of a hash region (its own), a continuing one
 * that records at restarts (its caller's region). */
static bool probes(const struct tables *t, ipp_id p, bool fresh)
{
	if (in_rows(t, p, fresh))
		return false;
	return fresh ? !t->plan[p].array : t->plan[p].restarts;
}

/* r not kept on the edges: only a clone (the plugin's st.lazy_r needs
 * st.cont), in rows, whose calls need no frame and that makes no
 * continuing call */
static bool lazy_r(const struct tables *t, ipp_id p, bool fresh)
{
	return !fresh && in_rows(t, p, fresh) && !t->plan[p].framed && !t->plan[p].continues;
}

/* Does a body of p push a frame: for its calls, or to move its
 * checkpoint on at its restarts (ipp_decide_frames)?  Both bodies alike. */
static bool has_frame(const struct tables *t, ipp_id p)
{
	return t->plan[p].framed || t->plan[p].restarts;
}

static void tables_init(struct tables *t, const ipp_fin *f)
{
	const ipp_graph *g = ipp_fin_graph(f);
	size_t nfv = ipp_fin_nvertices(f);
	memset(t, 0, sizeof(*t));
	t->g = g;
	t->f = f;
	t->mode = ipp_fin_mode(f);
	t->nv = ipp_graph_nvertices(g);
	t->ne = ipp_graph_nedges(g);
	t->np = ipp_graph_nprocs(g);
	t->kept = ids(t->ne);
	t->surr_exit = ids(nfv);
	t->surr_entry = ids(t->nv);
	t->half = ids(t->nv);
	t->split_e = ids(t->nv);
	t->split_surr_e = ids(t->nv);
	t->call_e = ids(t->nv);
	t->sum_e = ids(t->nv);
	t->ret_e = ids(t->nv);
	t->gx_exit = ids(t->np);
	t->gx_gexit = ids(t->np);
	t->reg_entry = ids(t->np);
	t->reg_gentry = ids(t->np);
	for (size_t i = 0; i < ipp_fin_nedges(f); i++) {
		ipp_id e = (ipp_id)i, s = ipp_fin_esrc(f, e), d = ipp_fin_edst(f, e);
		switch (ipp_fin_ekind(f, e)) {
		case IPP_E_NORMAL:
			t->kept[ipp_fin_eorigin(f, e)] = e;
			break;
		case IPP_E_SURR_EXIT:
			t->surr_exit[s] = e;
			break;
		case IPP_E_SURR_ENTRY:
			t->surr_entry[d] = e;
			break;
		case IPP_E_SPLIT:
			t->half[s] = d;
			t->split_e[s] = e;
			break;
		case IPP_E_SPLIT_SURR:
			t->split_surr_e[s] = e;
			break;
		case IPP_E_CALL:
			t->call_e[s] = e;
			break;
		case IPP_E_SUMMARY:
			t->sum_e[ipp_fin_ecall(f, e)] = e;
			break;
		case IPP_E_RETURN:
			t->ret_e[ipp_fin_ecall(f, e)] = e;
			break;
		case IPP_E_GLOBAL_EXIT:
			if (ipp_fin_vkind(f, s) == IPP_V_EXIT)
				t->gx_exit[ipp_fin_vproc(f, s)] = e;
			else
				t->gx_gexit[ipp_fin_vproc(f, s)] = e;
			break;
		default:
			break;
		}
	}
	for (size_t r = 0; r < ipp_fin_nregions(f); r++) {
		ipp_region_info ri;
		ipp_fin_region(f, (ipp_id)r, &ri);
		if (ri.gentry)
			t->reg_gentry[ri.proc] = (ipp_id)r;
		else
			t->reg_entry[ri.proc] = (ipp_id)r;
	}
	tables_events(t);
	t->entry_procs = ids(t->np);
	for (size_t p = 0; p < t->np; p++)
		if ((ipp_proc_flags(g, (ipp_id)p) & IPP_PROC_ENTRY) && instrumented(g, (ipp_id)p) &&
		    t->reg_entry[p] >= 0)
			t->entry_procs[t->nentry++] = (ipp_id)p;

	t->proc_restart = xcalloc(t->np + 1, sizeof(bool));
	t->restart_blocks = ids(t->nv);
	for (size_t v = 0; v < t->nv; v++) {
		if (!ipp_vertex_is_restart(g, (ipp_id)v))
			continue;
		t->proc_restart[ipp_vertex_proc(g, (ipp_id)v)] = true;
		if (ipp_vertex_kind(g, (ipp_id)v) == IPP_V_BLOCK)
			t->restart_blocks[t->nrestart_blocks++] = (ipp_id)v;
		else
			t->any_setjmp = true;
	}

	/* intra-context: natural loops of the split headers (Section 7 needs
	 * the header reached before its back edge; a computed goto into a loop
	 * body would bypass it, see goto_target_ok) */
	t->in_loop = xcalloc(t->nv + 1, sizeof(bool));
	if (t->mode == IPP_MODE_INTRA_CONTEXT) {
		ipp_id *stack = ids(t->nv);
		unsigned char *seen = xcalloc(t->nv + 1, 1);
		for (size_t ei = 0; ei < t->ne; ei++) {
			ipp_id e = (ipp_id)ei, h = ipp_edge_dst(g, e);
			size_t sp = 0;
			if (!ipp_graph_is_back_edge(g, e) || t->half[h] < 0)
				continue;
			memset(seen, 0, t->nv + 1);
			seen[h] = 1;
			stack[sp++] = ipp_edge_src(g, e);
			seen[ipp_edge_src(g, e)] = 1;
			while (sp) {
				ipp_id v = stack[--sp];
				t->in_loop[v] = true;
				/* predecessors: G* in-edges, and c for a return site c+1 */
				if (ipp_vertex_kind(g, v) == IPP_V_RETSITE && !seen[v - 1]) {
					seen[v - 1] = 1;
					stack[sp++] = v - 1;
				}
				for (size_t k = 0; k < t->ne; k++)
					if (ipp_edge_dst(g, (ipp_id)k) == v &&
					    !seen[ipp_edge_src(g, (ipp_id)k)]) {
						seen[ipp_edge_src(g, (ipp_id)k)] = 1;
						stack[sp++] = ipp_edge_src(g, (ipp_id)k);
					}
			}
		}
		free(stack);
		free(seen);
	}

	/* cost: fewest steps to Exit_P or a dead end, callees included
	 * (a fixpoint from "infinite"; INF = cannot terminate) */
	t->cost = xcalloc(t->nv + 1, sizeof(uint64_t));
	for (size_t v = 0; v < t->nv; v++) {
		enum ipp_vkind k = ipp_vertex_kind(g, (ipp_id)v);
		t->cost[v] = k == IPP_V_EXIT || k == IPP_V_GEXIT ? 0 : INF;
	}
	for (bool changed = true; changed;) {
		changed = false;
		for (size_t vi = 0; vi < t->nv; vi++) {
			ipp_id v = (ipp_id)vi;
			uint64_t best = INF;
			if (!instrumented(g, ipp_vertex_proc(g, v)))
				continue;
			switch (ipp_vertex_kind(g, v)) {
			case IPP_V_BLOCK:
			case IPP_V_RETSITE:
			case IPP_V_ENTRY:
				for (size_t k = 0; k < ipp_vertex_nout(g, v); k++) {
					uint64_t c = t->cost[ipp_edge_dst(g, ipp_vertex_out(g, v, k))];
					if (c != INF && c + 1 < best)
						best = c + 1;
				}
				break;
			case IPP_V_CALL: {
				bool fresh;
				ipp_id q = static_callee(t, v, &fresh);
				uint64_t cq = q >= 0 ? t->cost[ipp_proc_entry(g, q)] : 0;
				uint64_t cr = t->cost[v + 1];
				if (cq != INF && cr != INF)
					best = cq + cr + 1;
				break;
			}
			default:
				continue;
			}
			if (best < t->cost[v]) {
				t->cost[v] = best;
				changed = true;
			}
		}
	}
}

/* ------------------------------------------------------------------ */
/* The simulator                                                        */
/* ------------------------------------------------------------------ */

/* Direct counts, taken during the walk. */
struct direct {
	uint64_t *vertex;	/* G* vertex (GExit_P: dead ends taken) */
	uint64_t *edge;		/* G* edge */
	uint64_t *returns;	/* call vertex: calls that returned */
	uint64_t *fresh;	/* procedure: fresh activations */
	uint64_t *fresh_ret;	/* procedure: their returns */
	uint64_t *abn;		/* G* vertex: abnormal arrivals (longjmp, computed goto) */
	uint64_t *restarts;	/* procedure: abnormal arrivals */
	ipp_events ev;		/* intra and context mode: the inserted code's events */
};

struct saved_prefix {		/* intra-context: the path up to v_a */
	ipp_id header;
	ipp_id *edges;
	size_t n;
};

struct act {
	ipp_id proc;
	ipp_id v;		/* G* vertex where it stands */
	ipp_id site;		/* call vertex in the caller, or -1 */
	bool fresh;
	size_t group;
	size_t onentry;		/* context: path length up to Entry_P */
	bool from_ret;		/* events: a continuing call returned since the entry or
				 * the last restart (the local path starts at its return site) */
	ipp_id jmp;		/* a restart return site passed (setjmp returned), or -1 */
	struct saved_prefix *pre;
	size_t npre, cappre;
};

struct group {
	ipp_path path;
	bool done;		/* recorded already (dead end) */
};

/* Statistics per mode. */
struct stats {
	unsigned long graphs, configs, profiles, runs, abrupt, deadend, complete;
	unsigned long paths, partials;	/* observations recorded */
	unsigned long records, precords;	/* distinct records derived */
	unsigned long steps, restarts_surr, restarts_split, unknown_edges, removed_edges;
	unsigned long drops, drops_detected;
	unsigned long ctx_prefix;	/* paths with a context prefix through a call */
	unsigned long deep_partials;	/* partial paths with open calls */
	unsigned long unmatched;	/* piecewise: unmatched returns */
	unsigned long untraced;		/* piecewise: calls whose callers left no trace */
	unsigned long longjmps, gotos;	/* abnormal restarts */
	unsigned long failures;
	double secs;
	ipp_events ev;		/* intra and context: the events the walk counted */
};

/* A complete path record that must not be dropped unnoticed. */
struct cand {
	size_t rec;
};

struct sim {
	const struct tables *t;
	rg_rng *rng;
	ipp_prof_module *pm;
	struct direct d;
	struct act *a;
	size_t na, capa;
	struct group *gr;
	size_t ngr, capgr;
	unsigned long steps;
	bool ended;
	const char *label;
	struct stats *st;
	bool bad;		/* an encode failed: stop this profile */
	size_t *cands;		/* droppable records (see record_complete) */
	size_t ncands, capcands;
	mpz_t num;
};

static void direct_init(struct direct *d, const struct tables *t)
{
	d->vertex = xcalloc(t->nv + 1, sizeof(uint64_t));
	d->edge = xcalloc(t->ne + 1, sizeof(uint64_t));
	d->returns = xcalloc(t->nv + 1, sizeof(uint64_t));
	d->fresh = xcalloc(t->np + 1, sizeof(uint64_t));
	d->fresh_ret = xcalloc(t->np + 1, sizeof(uint64_t));
	d->abn = xcalloc(t->nv + 1, sizeof(uint64_t));
	d->restarts = xcalloc(t->np + 1, sizeof(uint64_t));
	memset(&d->ev, 0, sizeof(d->ev));
}

static void direct_free(struct direct *d)
{
	free(d->vertex);
	free(d->edge);
	free(d->returns);
	free(d->fresh);
	free(d->fresh_ret);
	free(d->abn);
	free(d->restarts);
}

static const char *region_name(const struct tables *t, ipp_id r)
{
	ipp_region_info ri;
	ipp_fin_region(t->f, r, &ri);
	return ri.name;
}

static void print_path(const struct tables *t, const ipp_path *p)
{
	printf("    path:");
	for (size_t i = 0; i < p->nedges; i++) {
		ipp_id e = p->edges[i];
		printf(" e%d[%d->%d %s]", (int)e, (int)ipp_fin_esrc(t->f, e),
		       (int)ipp_fin_edst(t->f, e), ipp_ekind_name(ipp_fin_ekind(t->f, e)));
	}
	printf("\n");
}

/* Whether dropping one observation of this complete path must show in the
 * flow check (from the path's edges, independently of derive.c): the path
 * starts fresh in P's Entry region with no surrogate (so it is its own
 * active suffix) and either ends at a removed edge of a procedure Q without
 * restart points (Q's surrogate arrivals then outnumber its departures,
 * which only abnormal restarts could explain) or P is not an entry
 * procedure and the path makes no summarized or indirect call that could
 * reach P (P's fresh activations then fall short of the calls to it). */
static bool must_detect_drop(const struct tables *t, const ipp_path *p)
{
	const ipp_fin *f = t->f;
	ipp_id first = ipp_fin_edst(f, p->edges[0]), proc = ipp_fin_vproc(f, first);
	bool recursive = false;
	if (ipp_fin_vkind(f, first) != IPP_V_ENTRY)
		return false;
	for (size_t i = 1; i < p->nedges; i++) {
		enum ipp_ekind k = ipp_fin_ekind(f, p->edges[i]);
		if (k == IPP_E_SURR_ENTRY || k == IPP_E_SPLIT_SURR)
			return false;
		if (k == IPP_E_SUMMARY) {
			bool fresh;
			if (static_callee(t, ipp_fin_ecall(f, p->edges[i]), &fresh) == proc ||
			    (ipp_call_flags(t->g, ipp_fin_ecall(f, p->edges[i])) & IPP_CALL_INDIRECT))
				recursive = true;
		}
	}
	if (p->nedges >= 2 && ipp_fin_ekind(f, p->edges[p->nedges - 2]) == IPP_E_SURR_EXIT &&
	    !t->proc_restart[ipp_fin_vproc(f, ipp_fin_esrc(f, p->edges[p->nedges - 2]))])
		return true;
	return !(ipp_proc_flags(t->g, proc) & IPP_PROC_ENTRY) && !recursive;
}

static void record(struct sim *s, const ipp_path *p, bool complete)
{
	const struct tables *t = s->t;
	ipp_id region, *stack = NULL;
	size_t nstack = 0;
	char err[256];
	if (s->bad)
		return;
	if (ipp_encode(t->f, p->edges, p->nedges, &region, s->num, complete ? NULL : &stack,
		       &nstack, err, sizeof(err)) < 0) {
		printf("\nFAIL [%s] the simulated %s path does not encode: %s\n", s->label,
		       complete ? "complete" : "partial", err);
		print_path(t, p);
		s->bad = true;
		s->st->failures++;
		CU_FAIL("simulated path does not encode");
		return;
	}
	{
		size_t last = 0, depth = 0;
		for (size_t i = 1; i < p->nedges; i++) {
			enum ipp_ekind k = ipp_fin_ekind(t->f, p->edges[i]);
			if (k == IPP_E_SURR_ENTRY || k == IPP_E_SPLIT_SURR)
				last = i;
			else if (k == IPP_E_CALL)
				depth++;
			else if (k == IPP_E_RETURN && depth)
				depth--;
			else if (k == IPP_E_RETURN)
				s->st->unmatched++;
		}
		for (size_t i = 0; i < last; i++)
			if (ipp_fin_ekind(t->f, p->edges[i]) == IPP_E_CALL) {
				s->st->ctx_prefix++;
				break;
			}
		if (!complete && nstack >= 2)
			s->st->deep_partials++;
	}
	if (complete) {
		size_t i = ipp_prof_add_path(s->pm, region_name(t, region), s->num, 1);
		s->st->paths++;
		s->d.ev.records++;
		if (must_detect_drop(t, p)) {
			if (s->ncands == s->capcands) {
				s->capcands = s->capcands ? 2 * s->capcands : 16;
				s->cands = xrealloc(s->cands, s->capcands * sizeof(size_t));
			}
			s->cands[s->ncands++] = i;
		}
	} else {
		ipp_prof_add_partial(s->pm, region_name(t, region), s->num, stack, nstack, 1);
		s->st->partials++;
		s->d.ev.partial_counts++;
	}
	free(stack);
}

static struct act *top(struct sim *s)
{
	return &s->a[s->na - 1];
}

static ipp_path *gpath(struct sim *s, struct act *a)
{
	return &s->gr[a->group].path;
}

static void path_reset(ipp_path *p)
{
	p->nedges = 0;
}

static void push_edge(struct sim *s, struct act *a, ipp_id e)
{
	if (e < 0) {
		printf("\nFAIL [%s] the simulator found no G*fin edge (proc %d at %d)\n", s->label,
		       (int)a->proc, (int)a->v);
		s->bad = true;
		s->st->failures++;
		CU_FAIL("missing G*fin edge");
		return;
	}
	ipp_path_push(gpath(s, a), e);
}

/* The G*fin vertex where an activation standing at G* vertex v is. */
static ipp_id fin_at(const struct tables *t, ipp_id v)
{
	return t->half[v] >= 0 ? t->half[v] : v;
}

/* Arrival at v: count it; intra-context split headers save the prefix to
 * v_a and step to v_b (unless the arrival was a split restart). */
static void arrive(struct sim *s, struct act *a, ipp_id v, bool split_restart)
{
	const struct tables *t = s->t;
	s->d.vertex[v]++;
	a->v = v;
	if (ipp_vertex_kind(t->g, v) == IPP_V_RETSITE && ipp_vertex_is_restart(t->g, v))
		a->jmp = v;	/* setjmp returned: a longjmp may come back here */
	if (t->half[v] >= 0 && !split_restart) {
		ipp_path *p = gpath(s, a);
		struct saved_prefix *sp = NULL;
		for (size_t i = 0; i < a->npre; i++)
			if (a->pre[i].header == v)
				sp = &a->pre[i];
		if (!sp) {
			if (a->npre == a->cappre) {
				a->cappre = a->cappre ? 2 * a->cappre : 4;
				a->pre = xrealloc(a->pre, a->cappre * sizeof(*a->pre));
			}
			sp = &a->pre[a->npre++];
			sp->header = v;
			sp->edges = NULL;
		}
		sp->edges = xrealloc(sp->edges, (p->nedges + 1) * sizeof(ipp_id));
		memcpy(sp->edges, p->edges, p->nedges * sizeof(ipp_id));
		sp->n = p->nedges;
		push_edge(s, a, t->split_e[v]);
	}
}

/* ---- the inserted code's events, as the walk executes them ---- */

/* An activation of q's fresh body or its clone. */
static void ev_activation(struct sim *s, ipp_id q, bool fresh)
{
	const struct tplan *pl = &s->t->plan[q];
	ipp_events *ev = &s->d.ev;
	ev->activations++;
	if (fresh)
		ev->fresh++;
	else
		ev->continuing++;
	ev->frames += has_frame(s->t, q);
	if (fresh) {
		ev->counts_calls += pl->array;
		ev->path_saves += pl->continues &&
				  (ipp_proc_flags(s->t->g, q) & IPP_PROC_ENTRY);
	}
}

/* Activation a records its path at G*fin vertex at: how it counts it. */
static void ev_record(struct sim *s, const struct act *a, ipp_id at)
{
	const struct tables *t = s->t;
	const struct tplan *pl = &t->plan[a->proc];
	ipp_events *ev = &s->d.ev;
	if (a->fresh && pl->array) {
		ev->rec_array++;
	} else if (in_rows(t, a->proc, a->fresh) &&
		   (lazy_r(t, a->proc, a->fresh) ||
		    (ipp_local_reach(pl->local, at) & IPP_LOCAL_FROM_ENTRY))) {
		ev->rec_row++;
		ev->rec_row_return += a->from_ret;	/* l >= nentry */
	} else if (probes(t, a->proc, a->fresh)) {
		ev->rec_probe++;
	} else {
		ev->rec_hash++;
	}
}

/* Kept G*fin edge fe traversed by activation a. */
static void ev_edge(struct sim *s, const struct act *a, ipp_id fe)
{
	const struct tables *t = s->t;
	ipp_events *ev = &s->d.ev;
	if (!lazy_r(t, a->proc, a->fresh)) {
		/* r += inc_e (fresh: chords), r += rho_e(nvc) (continuing) */
		ev->increments += a->fresh ? t->inc_add[fe] : t->rho_add[fe];
		ev->multiplies += !a->fresh && t->rho_mul[fe];
	}
	if (in_rows(t, a->proc, a->fresh) && ipp_local_edge(t->plan[a->proc].local, fe) != 0)
		ev->local_increments++;	/* l += lambda_e */
}

/* A path ending with G*fin edge fe (a split's SURR_EXIT, a dead end's edge
 * into GExit_P): its rho in the recorded value. */
static void ev_record_rho(struct sim *s, const struct act *a, ipp_id fe)
{
	const struct tables *t = s->t;
	if (!a->fresh && !lazy_r(t, a->proc, false) && fe >= 0 && t->rho_mul[fe])
		s->d.ev.multiplies++;
}

/* Activation a restarts at v (after a split, a longjmp, a computed goto). */
static void ev_restart(struct sim *s, struct act *a, ipp_id v)
{
	ipp_id fe = s->t->surr_entry[v];
	s->d.ev.restarts++;
	/* the restart value: r's, or a lazy body's checkpoint's */
	if (!a->fresh && fe >= 0 && s->t->rho_mul[fe])
		s->d.ev.multiplies++;
	a->from_ret = false;
}

/* Activation a returns normally. */
static void ev_return(struct sim *s, const struct act *a)
{
	const struct tables *t = s->t;
	ipp_events *ev = &s->d.ev;
	ev->returns++;
	ev->frame_pops += has_frame(t, a->proc);
	if (a->fresh) {
		ev->rec_return++;	/* a fresh activation records its path */
		ev_record(s, a, ipp_proc_exit(t->g, a->proc));
	} else {
		ev->returns_continuing++;	/* __ipp_path = r */
		if (lazy_r(t, a->proc, false)) {
			ev->returns_lazy++;	/* r from the row tables */
			ev->multiplies++;
		}
	}
}

/* Activation a stands at call vertex c. */
static void ev_call(struct sim *s, const struct act *a, ipp_id c)
{
	const struct tables *t = s->t;
	ipp_events *ev = &s->d.ev;
	ev->calls++;
	if (ipp_fin_is_cut_vertex(t->f, c))
		ev->calls_cut++;
	if (ipp_fin_call_summary(t->f, c) == IPP_SUM_NONE) {
		ev->calls_interproc++;	/* rule 1 */
		ev->multiplies += !a->fresh && t->psi_mul[c + 1];
	} else if (dead_call(t, c)) {
		ev->calls_dead++;
		if (ipp_call_flags(t->g, c) & IPP_CALL_INDIRECT)
			ev->calls_indirect++;	/* the arc is counted before it */
	} else {
		ev->calls_summarized++;
		ev->calls_framed += has_frame(t, a->proc);
		ev->calls_bare += has_frame(t, a->proc) && (ipp_call_flags(t->g, c) & IPP_CALL_BARE);
		if (ipp_call_flags(t->g, c) & IPP_CALL_INDIRECT)
			ev->calls_indirect++;
	}
}

static void push_act(struct sim *s, ipp_id q, ipp_id site, bool fresh)
{
	const struct tables *t = s->t;
	struct act *a;
	if (s->na == s->capa) {
		s->capa = s->capa ? 2 * s->capa : 16;
		s->a = xrealloc(s->a, s->capa * sizeof(*s->a));
	}
	a = &s->a[s->na++];
	memset(a, 0, sizeof(*a));
	a->proc = q;
	a->site = site;
	a->fresh = fresh;
	a->jmp = IPP_NONE;
	if (fresh) {
		if (s->ngr == s->capgr) {
			s->capgr = s->capgr ? 2 * s->capgr : 8;
			s->gr = xrealloc(s->gr, s->capgr * sizeof(*s->gr));
		}
		ipp_path_init(&s->gr[s->ngr].path);
		s->gr[s->ngr].done = false;
		a->group = s->ngr++;
		ipp_region_info ri;
		ipp_fin_region(t->f, t->reg_entry[q], &ri);
		ipp_path_push(&s->gr[a->group].path, ri.edge);
		s->d.fresh[q]++;
	} else {
		a->group = s->a[s->na - 2].group;
		push_edge(s, a, t->call_e[site]);
	}
	a->onentry = gpath(s, a)->nedges;
	ev_activation(s, q, fresh);
	arrive(s, a, ipp_proc_entry(t->g, q), false);
}

static void pop_act(struct sim *s)
{
	struct act *a = top(s);
	for (size_t i = 0; i < a->npre; i++)
		free(a->pre[i].edges);
	free(a->pre);
	if (a->fresh) {
		ipp_path_free(&s->gr[a->group].path);
		s->ngr--;
	}
	s->na--;
}

/* The run ends now (exit(), a fatal signal): every pending group is
 * recorded as a partial path. */
static void end_run(struct sim *s)
{
	for (size_t i = s->ngr; i-- > 0;)
		if (!s->gr[i].done && s->gr[i].path.nedges)
			record(s, &s->gr[i].path, false);
	while (s->na)
		pop_act(s);
	s->ended = true;
}

static bool budget(const struct sim *s)
{
	return s->steps > MAX_STEPS || s->na > MAX_DEPTH;
}

/* An abnormal restart of activation a at restart point v (a longjmp
 * arriving at setjmp's return site, a computed goto's target): its path
 * restarts there as after a back edge (docs/PROTOCOL.md, "longjmp",
 * "Computed goto"). */
static void restart_at(struct sim *s, struct act *a, ipp_id v)
{
	const struct tables *t = s->t;
	ipp_path *p = gpath(s, a);
	s->gr[a->group].done = false;
	if (t->mode == IPP_MODE_PIECEWISE) {
		ipp_region_info ri;
		ipp_fin_region(t->f, t->reg_gentry[a->proc], &ri);
		path_reset(p);
		ipp_path_push(p, ri.edge);
	} else {
		p->nedges = a->onentry;
	}
	push_edge(s, a, t->surr_entry[v]);
	ev_restart(s, a, v);
	s->d.abn[v]++;
	s->d.restarts[a->proc]++;
	arrive(s, a, v, false);
}

/* A dead end (G* edge e to GExit_P) taken by the top activation X: the
 * path is recorded, then it is exit(), or a computed goto to a restart
 * block of X's procedure, or a longjmp to an activation that passed a
 * setjmp (its return site is a restart point): every pending path above
 * the receiver, and the receiver's own, is recorded as a partial path, the
 * frames above it are dropped and it restarts at setjmp's return site. */
static void dead_end(struct sim *s, ipp_id e)
{
	const struct tables *t = s->t;
	struct act *x = top(s);
	ipp_id v = ipp_edge_dst(t->g, e);

	s->d.vertex[v]++;
	s->d.ev.rec_dead++;
	ev_record_rho(s, x, t->kept[e]);
	ev_record(s, x, ipp_edge_src(t->g, e));
	if (has_frame(t, x->proc) || !x->fresh)
		s->d.ev.dead_marks++;	/* frame.vertex = -1 */
	if (!has_frame(t, x->proc) && !x->fresh)
		s->d.ev.dead_marks_top++;	/* __ipp_top->vertex = -1 */
	push_edge(s, x, t->kept[e]);
	push_edge(s, x, t->gx_gexit[x->proc]);
	record(s, gpath(s, x), true);
	s->gr[x->group].done = true;
	if (!budget(s) && t->nrestart_blocks && rg_rng_chance(s->rng, 50)) {
		ipp_id b = t->restart_blocks[rg_rng_below(s->rng, (uint32_t)t->nrestart_blocks)];
		/* Not into a loop body in intra-context mode: the back edge would
		 * then need Section 7's pathNumOnEntryToV for a header this
		 * activation never reached -- undefined (reported as a core
		 * issue: such procedures should fall back to Ball-Larus). */
		if (ipp_vertex_proc(t->g, b) == x->proc && !t->in_loop[b]) {
			s->st->gotos++;
			restart_at(s, x, b);
			return;
		}
	}
	if (!budget(s) && rg_rng_chance(s->rng, 90)) {
		size_t ai = rg_rng_below(s->rng, (uint32_t)s->na);
		for (size_t k = 0; k < s->na; k++, ai = (ai + 1) % s->na) {
			if (s->a[ai].jmp < 0)
				continue;
			for (size_t gi = s->ngr; gi-- > s->a[ai].group;)
				if (!s->gr[gi].done && s->gr[gi].path.nedges)
					record(s, &s->gr[gi].path, false);
			while (s->na > ai + 1)
				pop_act(s);
			s->st->longjmps++;
			restart_at(s, top(s), top(s)->jmp);
			return;
		}
	}
	s->st->deadend++;
	end_run(s);
}

/* Traverses G* edge e out of the top activation's vertex. */
static void traverse(struct sim *s, ipp_id e)
{
	const struct tables *t = s->t;
	const ipp_graph *g = t->g;
	struct act *a = top(s);
	ipp_id w = a->v, v = ipp_edge_dst(g, e);
	ipp_path *p = gpath(s, a);

	s->d.edge[e]++;
	if (ipp_vertex_kind(g, v) == IPP_V_GEXIT) {
		dead_end(s, e);
		return;
	}
	if (t->kept[e] >= 0) {
		ev_edge(s, a, t->kept[e]);
		push_edge(s, a, t->kept[e]);
		arrive(s, a, v, false);
		return;
	}
	/* a removed edge: record, restart */
	s->d.ev.rec_split++;
	ev_record_rho(s, a, t->surr_exit[fin_at(t, w)]);
	ev_record(s, a, fin_at(t, w));
	push_edge(s, a, t->surr_exit[fin_at(t, w)]);
	push_edge(s, a, t->gx_gexit[a->proc]);
	record(s, p, true);
	if (t->mode == IPP_MODE_INTRA_CONTEXT && t->half[v] >= 0 && ipp_graph_is_back_edge(g, e)) {
		struct saved_prefix *sp = NULL;
		for (size_t i = 0; i < a->npre; i++)
			if (a->pre[i].header == v)
				sp = &a->pre[i];
		if (!sp) {
			printf("\nFAIL [%s] back edge %d into header %d never reached\n", s->label,
			       (int)e, (int)v);
			s->bad = true;
			s->st->failures++;
			CU_FAIL("header not reached");
			return;
		}
		path_reset(p);
		for (size_t i = 0; i < sp->n; i++)
			ipp_path_push(p, sp->edges[i]);
		push_edge(s, a, t->split_surr_e[v]);
		s->st->restarts_split++;
		arrive(s, a, v, true);
		return;
	}
	if (t->mode == IPP_MODE_PIECEWISE) {
		ipp_region_info ri;
		ipp_fin_region(t->f, t->reg_gentry[a->proc], &ri);
		path_reset(p);
		ipp_path_push(p, ri.edge);
	} else {
		p->nedges = a->onentry;
	}
	push_edge(s, a, t->surr_entry[v]);
	ev_restart(s, a, v);
	s->st->restarts_surr++;
	arrive(s, a, v, false);
}

/* Chooses an out-edge of v: at random (dead ends rarely), or towards
 * termination when out of budget.  -1 if v cannot terminate. */
static ipp_id choose(struct sim *s, ipp_id v)
{
	const struct tables *t = s->t;
	const ipp_graph *g = t->g;
	size_t n = ipp_vertex_nout(g, v);
	if (budget(s)) {
		ipp_id best = IPP_NONE;
		uint64_t bc = INF;
		for (size_t k = 0; k < n; k++) {
			ipp_id e = ipp_vertex_out(g, v, k);
			if (t->cost[ipp_edge_dst(g, e)] < bc) {
				bc = t->cost[ipp_edge_dst(g, e)];
				best = e;
			}
		}
		return best;
	}
	/* dead ends are rare (they end the run), less so where a longjmp or
	 * computed goto can continue it */
	unsigned dead = t->nrestart_blocks || t->any_setjmp ? 15 : 3;
	for (int tries = 0; tries < 8; tries++) {
		ipp_id e = ipp_vertex_out(g, v, rg_rng_below(s->rng, (uint32_t)n));
		if (ipp_vertex_kind(g, ipp_edge_dst(g, e)) != IPP_V_GEXIT ||
		    rg_rng_chance(s->rng, dead))
			return e;
	}
	return ipp_vertex_out(g, v, rg_rng_below(s->rng, (uint32_t)n));
}

/* One step of the top activation. */
static void step(struct sim *s)
{
	const struct tables *t = s->t;
	const ipp_graph *g = t->g;
	struct act *a = top(s);
	ipp_id v = a->v;

	s->steps++;
	s->st->steps++;
	switch (ipp_vertex_kind(g, v)) {
	case IPP_V_EXIT: {
		bool fresh = a->fresh;
		ipp_id c = a->site, p = a->proc;
		ev_return(s, a);
		if (fresh) {
			push_edge(s, a, t->gx_exit[p]);
			record(s, gpath(s, a), true);
			s->d.fresh_ret[p]++;
		} else {
			push_edge(s, a, t->ret_e[c]);
		}
		pop_act(s);
		if (s->na == 0) {	/* main returned */
			s->ended = true;
			s->st->complete++;
			return;
		}
		a = top(s);
		if (fresh) {
			push_edge(s, a, t->sum_e[c]);
		} else {
			s->d.ev.interproc_returns++;	/* r = __ipp_path */
			a->from_ret = true;
		}
		if (!summarized_noreturn(t, c))
			s->d.returns[c]++;
		arrive(s, a, c + 1, false);
		return;
	}
	case IPP_V_CALL: {
		bool fresh;
		ipp_id q = static_callee(t, v, &fresh);
		ev_call(s, a, v);
		if (ipp_call_flags(g, v) & IPP_CALL_INDIRECT) {
			q = IPP_NONE;
			if (t->nentry && !budget(s) && rg_rng_chance(s->rng, 60))
				q = t->entry_procs[rg_rng_below(s->rng, (uint32_t)t->nentry)];
		}
		if (q < 0) {
			/* out of the unit: returns at once, or calls exit() */
			if (!budget(s) && rg_rng_chance(s->rng, 2)) {
				s->st->abrupt++;
				end_run(s);
				return;
			}
			push_edge(s, a, t->sum_e[v]);
			if (!summarized_noreturn(t, v))
				s->d.returns[v]++;
			arrive(s, a, v + 1, false);
			return;
		}
		push_act(s, q, v, fresh);
		return;
	}
	case IPP_V_BLOCK:
	case IPP_V_RETSITE:
	case IPP_V_ENTRY: {
		ipp_id e;
		if (ipp_vertex_kind(g, v) == IPP_V_BLOCK && !budget(s) &&
		    rg_rng_below(s->rng, 1000) == 0) {
			s->st->abrupt++;	/* a fatal signal */
			end_run(s);
			return;
		}
		e = choose(s, v);
		if (e < 0 || (budget(s) && t->cost[v] == INF)) {
			s->st->abrupt++;	/* cannot terminate: killed */
			end_run(s);
			return;
		}
		traverse(s, e);
		return;
	}
	default:
		printf("\nFAIL [%s] the walk stands at vertex %d (%s)\n", s->label, (int)v,
		       ipp_vkind_name(ipp_vertex_kind(g, v)));
		s->bad = true;
		s->st->failures++;
		CU_FAIL("walk at an impossible vertex");
		return;
	}
}

/* One execution from main's entry. */
static void sim_run(struct sim *s)
{
	s->steps = 0;
	s->ended = false;
	push_act(s, 0, IPP_NONE, true);
	while (!s->ended && !s->bad)
		step(s);
	while (s->na)
		pop_act(s);
	s->ngr = 0;
	s->st->runs++;
}

/* ------------------------------------------------------------------ */
/* Comparing derived and direct counts                                  */
/* ------------------------------------------------------------------ */

/* Mismatches printed per mode (all are counted). */
static unsigned reports;

static bool report(void)
{
	return reports++ < MAX_REPORTS;
}

/* Returns the number of mismatches. */
static unsigned long compare(const struct tables *t, const struct direct *d,
			     const ipp_counts *c, const char *label, struct stats *st)
{
	const ipp_graph *g = t->g;
	unsigned long bad = 0;
	uint64_t *rem_out = xcalloc(t->nv + 1, sizeof(uint64_t));
	uint64_t *rem_in = xcalloc(t->nv + 1, sizeof(uint64_t));
#define MISMATCH(...)                                                         \
	do {                                                                  \
		bad++;                                                        \
		if (report()) {                                               \
			printf("\nFAIL [%s] ", label);                        \
			printf(__VA_ARGS__);                                  \
			printf("\n");                                         \
		}                                                             \
	} while (0)

	for (size_t vi = 0; vi < t->nv; vi++) {
		ipp_id v = (ipp_id)vi;
		enum ipp_vkind k = ipp_vertex_kind(g, v);
		if (!instrumented(g, ipp_vertex_proc(g, v)) || k == IPP_V_GENTRY)
			continue;
		if (c->vertex[v] != d->vertex[v])
			MISMATCH("vertex %d (%s): derived %llu, executed %llu", (int)v, ipp_vkind_name(k),
				 (unsigned long long)c->vertex[v], (unsigned long long)d->vertex[v]);
		if (k == IPP_V_CALL && c->returns[v] != d->returns[v])
			MISMATCH("call %d: derived %llu returns, executed %llu", (int)v,
				 (unsigned long long)c->returns[v], (unsigned long long)d->returns[v]);
	}
	for (size_t ei = 0; ei < t->ne; ei++) {
		ipp_id e = (ipp_id)ei;
		ipp_id src = ipp_edge_src(g, e), dst = ipp_edge_dst(g, e);
		if (!instrumented(g, ipp_vertex_proc(g, src)))
			continue;
		if (t->kept[e] < 0) {
			st->removed_edges++;
			rem_out[src] += d->edge[e];
			rem_in[dst] += d->edge[e];
			if (!c->edge_known[e]) {
				st->unknown_edges++;
				continue;
			}
		} else if (!c->edge_known[e]) {
			MISMATCH("kept edge %d (%d -> %d) not known", (int)e, (int)src, (int)dst);
			continue;
		}
		if (c->edge[e] != d->edge[e])
			MISMATCH("edge %d (%d -> %d%s): derived %llu, executed %llu", (int)e, (int)src,
				 (int)dst, t->kept[e] < 0 ? ", removed" : "",
				 (unsigned long long)c->edge[e], (unsigned long long)d->edge[e]);
	}
	for (size_t v = 0; v < t->nv; v++) {
		if (c->surr_out[v] != rem_out[v])
			MISMATCH("vertex %zu: removed out-edges derived %llu, executed %llu", v,
				 (unsigned long long)c->surr_out[v], (unsigned long long)rem_out[v]);
		if (c->surr_in[v] != rem_in[v] + d->abn[v])
			MISMATCH("vertex %zu: removed in-edges and restarts derived %llu, executed "
				 "%llu + %llu", v, (unsigned long long)c->surr_in[v],
				 (unsigned long long)rem_in[v], (unsigned long long)d->abn[v]);
	}
	for (size_t p = 0; p < t->np; p++) {
		if (c->fresh_entries[p] != d->fresh[p])
			MISMATCH("proc %zu: fresh entries derived %llu, executed %llu", p,
				 (unsigned long long)c->fresh_entries[p], (unsigned long long)d->fresh[p]);
		if (c->fresh_returns[p] != d->fresh_ret[p])
			MISMATCH("proc %zu: fresh returns derived %llu, executed %llu", p,
				 (unsigned long long)c->fresh_returns[p],
				 (unsigned long long)d->fresh_ret[p]);
		if (c->restarts[p] != d->restarts[p])
			MISMATCH("proc %zu: %llu abnormal restarts derived, %llu executed", p,
				 (unsigned long long)c->restarts[p], (unsigned long long)d->restarts[p]);
	}
	/* call sites: executions and returns, per arc */
	{
		ipp_call_count *cc;
		size_t n = ipp_counts_calls(t->f, c, &cc);
		for (size_t i = 0; i < n; i++) {
			ipp_id s = cc[i].site;
			if (cc[i].calls != d->vertex[s] || cc[i].returns != d->returns[s])
				MISMATCH("call site %d: %llu/%llu derived, %llu/%llu executed", (int)s,
					 (unsigned long long)cc[i].calls, (unsigned long long)cc[i].returns,
					 (unsigned long long)d->vertex[s], (unsigned long long)d->returns[s]);
			if (cc[i].indirect != !!(ipp_call_flags(g, s) & IPP_CALL_INDIRECT) ||
			    (cc[i].indirect && cc[i].callee != IPP_NONE))
				MISMATCH("call site %d: indirect flag or callee wrong", (int)s);
		}
		free(cc);
	}
	if (c->saturated)
		MISMATCH("saturated");
	free(rem_out);
	free(rem_in);
#undef MISMATCH
	return bad;
}

/* The events ipp_events_derive gives for profile module pm against those
 * the walk counted (intra and context mode; no events in the others).
 * Returns the number of mismatches. */
static unsigned long compare_events(const struct tables *t, const struct direct *d,
				    const ipp_prof_module *pm, const char *label)
{
	ipp_events ev, want = d->ev;
	char err[256];
	unsigned long bad = 0;
	int rc = ipp_events_derive(t->f, pm, &test_limits, &ev, err, sizeof(err));

	if (t->mode != IPP_MODE_INTRA && t->mode != IPP_MODE_CONTEXT) {
		CHECKF(rc < 0, "[%s] events derived in %s mode", label, ipp_mode_name(t->mode));
		return rc < 0 ? 0 : 1;
	}
	if (rc < 0) {
		CHECKF(false, "[%s] ipp_events_derive: %s", label, err);
		return 1;
	}
	/* what the walk cannot tell: the region sizes (their sum it can) */
	want.path_counts = want.records;
	want.rec_region_small = ev.rec_region_small;
	want.rec_region_32 = ev.rec_region_32;
	want.rec_region_48 = ev.rec_region_48;
	want.rec_region_big = ev.rec_region_big;
	if (ev.rec_region_small + ev.rec_region_32 + ev.rec_region_48 + ev.rec_region_big !=
	    want.records) {
		bad++;
		if (report())
			printf("\nFAIL [%s] records by region size do not add up to %llu\n", label,
			       (unsigned long long)want.records);
	}
	if (want.rec_return + want.rec_split + want.rec_dead != want.records ||
	    want.rec_array + want.rec_row + want.rec_probe + want.rec_hash != want.records) {
		bad++;	/* the walk's own bookkeeping: every record has one site, one route */
		if (report())
			printf("\nFAIL [%s] the walk recorded %llu paths at %llu sites, by %llu "
			       "routes\n", label, (unsigned long long)want.records,
			       (unsigned long long)(want.rec_return + want.rec_split + want.rec_dead),
			       (unsigned long long)(want.rec_array + want.rec_row + want.rec_probe +
						    want.rec_hash));
	}
#define IPP_EVENT_CMP(name, what)                                              \
	if (ev.name != want.name) {                                            \
		bad++;                                                         \
		if (report())                                                  \
			printf("\nFAIL [%s] event %s: derived %llu, executed %llu\n", \
			       label, #name, (unsigned long long)ev.name,      \
			       (unsigned long long)want.name);                 \
	}
	IPP_EVENT_FIELDS(IPP_EVENT_CMP)
#undef IPP_EVENT_CMP
	return bad;
}

static void print_msgs(const char *label, char **msgs, size_t n)
{
	for (size_t i = 0; i < n && i < 8; i++)
		printf("    [%s] %s\n", label, msgs[i]);
	if (n > 8)
		printf("    [%s] ... %zu messages\n", label, n);
}

/* One profile: 'nruns' executions merged, derived, compared, checked, and
 * corrupted.  Returns false if the simulation itself failed. */
static bool one_profile(const struct tables *t, uint64_t seed, unsigned nruns, const char *label,
			struct stats *st)
{
	ipp_profile *prof = ipp_profile_new();
	ipp_prof_module *pm = ipp_profile_add_module(prof, "sim.c", 1, t->mode);
	struct sim s;
	rg_rng rng;
	ipp_counts c;
	char err[512];
	bool ok = true;

	rg_rng_seed(&rng, seed);
	memset(&s, 0, sizeof(s));
	s.t = t;
	s.rng = &rng;
	s.pm = pm;
	s.label = label;
	s.st = st;
	mpz_init(s.num);
	direct_init(&s.d, t);
	for (unsigned r = 0; r < nruns && !s.bad; r++)
		sim_run(&s);
	pm->runs = nruns;
	st->profiles++;
	if (s.bad) {
		ok = false;
		goto out;
	}
	st->records += pm->npaths;
	st->precords += pm->npartials;
	if (ipp_derive(t->f, pm, &c, err, sizeof(err)) < 0) {
		CHECKF(false, "[%s] ipp_derive: %s", label, err);
		st->failures++;
		goto out;
	}
	{
		unsigned long bad = compare(t, &s.d, &c, label, st) +
				    compare_events(t, &s.d, pm, label);
		if (t->mode == IPP_MODE_INTRA || t->mode == IPP_MODE_CONTEXT)
			ipp_events_add(&st->ev, &s.d.ev);
		char **msgs;
		size_t n;
		int viol = ipp_check_flow(t->f, &c, &msgs, &n);
		CHECKF(bad == 0, "[%s] %lu derived counts differ from the executed ones", label, bad);
		for (size_t v = 0; v < t->nv; v++)
			if (ipp_vertex_kind(t->g, (ipp_id)v) == IPP_V_CALL &&
			    c.vertex[v] > c.returns[v] + c.stopped[v] + c.abandoned[v])
				st->untraced += c.vertex[v] - c.returns[v] - c.stopped[v] -
						c.abandoned[v];
		CHECKF(viol == 0 && n == 0, "[%s] flow check: %d violations, %zu messages", label,
		       viol, n);
		if (n)
			print_msgs(label, msgs, n);
		ipp_flow_free(msgs, n);
		st->failures += bad + (viol != 0);
		ipp_counts_free(&c);
	}
	/* corruption: drop one observation of a path whose loss must show */
	if (s.ncands) {
		size_t rec = s.cands[rg_rng_below(&rng, (uint32_t)s.ncands)];
		char **msgs;
		size_t n;
		int viol = 0;
		pm->paths[rec].count--;
		if (ipp_derive(t->f, pm, &c, err, sizeof(err)) == 0) {
			viol = ipp_check_flow(t->f, &c, &msgs, &n);
			ipp_flow_free(msgs, n);
			ipp_counts_free(&c);
		}
		pm->paths[rec].count++;
		st->drops++;
		st->drops_detected += viol > 0;
		CHECKF(viol > 0, "[%s] dropping one observation of path record %zu went unnoticed",
		       label, rec);
		if (viol == 0)
			st->failures++;
	}
out:
	direct_free(&s.d);
	free(s.a);
	free(s.gr);
	free(s.cands);
	mpz_clear(s.num);
	ipp_profile_free(prof);
	return ok;
}

/* ------------------------------------------------------------------ */
/* Random graphs, all modes, with and without cuts                      */
/* ------------------------------------------------------------------ */

struct seed_range {
	uint64_t first;
	unsigned n;
};

static struct seed_range seed_range(void)
{
	struct seed_range r = { 1, DEFAULT_NGRAPHS };
	const char *s = getenv("IPP_DERIVE_SEED");
	const char *n = getenv("IPP_DERIVE_NGRAPHS");
	if (s && *s) {
		r.first = strtoull(s, NULL, 0);
		r.n = 1;
	} else if (n && *n) {
		r.n = (unsigned)strtoul(n, NULL, 0);
	}
	return r;
}

/* Simulates a few profiles of graph g in 'mode' with 'cuts'. */
static void run_config(const ipp_graph *g, enum ipp_mode mode, const ipp_cuts *cuts,
		       uint64_t seed, const char *cutlabel, struct stats *st)
{
	char err[256], label[160];
	ipp_fin *f = ipp_fin_new(g, mode, cuts, err, sizeof(err));
	struct tables t;
	if (!f) {
		CHECKF(false, "seed %llu mode %s cuts %s: ipp_fin_new: %s", (unsigned long long)seed,
		       ipp_mode_name(mode), cutlabel, err);
		st->failures++;
		return;
	}
	if (seed % 2) {
		/* increments on chords, by random weights, in every
		 * procedure (fresh activations; context mode's continuing
		 * ones keep rho): the events count the edges that
		 * increment */
		rg_rng rng;
		size_t ne = ipp_fin_nedges(f), np = ipp_graph_nprocs(g);
		uint64_t *w = xcalloc(ne + 1, sizeof(*w));
		bool *en = xcalloc(np + 1, sizeof(*en));
		rg_rng_seed(&rng, seed * 31u + 17u);
		for (size_t e = 0; e < ne; e++)
			w[e] = rg_rng_below(&rng, 1000);
		memset(en, 1, np);
		ipp_fin_place_chords(f, w, en);
		free(en);
		free(w);
	}
	tables_init(&t, f);
	st->configs++;
	for (unsigned k = 0; k < 3; k++) {
		unsigned nruns = k == 0 ? 1 : k == 1 ? 4 : 10;
		snprintf(label, sizeof(label), "seed %llu mode %s cuts %s profile %u",
			 (unsigned long long)seed, ipp_mode_name(mode), cutlabel, k);
		if (!one_profile(&t, seed * 1000003u + k * 7919u + (uint64_t)mode, nruns, label, st))
			break;
	}
	tables_free(&t);
	ipp_fin_free(f);
}

static void run_graph(const ipp_graph *g, enum ipp_mode mode, uint64_t seed, struct stats *st)
{
	rg_rng rng;
	ipp_cuts cuts;
	mpz_t lim;
	char err[256], cl[64];

	st->graphs++;
	run_config(g, mode, NULL, seed, "none", st);
	/* with cuts: small limits (ipp_autocut refuses some; then try larger) */
	rg_rng_seed(&rng, seed * 31 + (uint64_t)mode);
	mpz_init(lim);
	for (unsigned lv = 0; lv < 3; lv++) {
		unsigned l = lv == 0 ? 2 + rg_rng_below(&rng, 10) : lv == 1 ? 12 + rg_rng_below(&rng, 40)
									   : 60 + rg_rng_below(&rng, 200);
		mpz_set_ui(lim, l);
		ipp_cuts_init(&cuts);
		if (ipp_autocut(g, mode, lim, &cuts, err, sizeof(err)) == 0) {
			snprintf(cl, sizeof(cl), "autocut %u (%zu vertices, %zu calls)", l,
				 cuts.nvertices, cuts.ncalls);
			run_config(g, mode, &cuts, seed, cl, st);
			ipp_cuts_free(&cuts);
			break;
		}
		ipp_cuts_free(&cuts);
	}
	mpz_clear(lim);
}

static struct stats mode_stats[IPP_MODE_COUNT];

static void print_stats(const char *what, const struct stats *st)
{
	printf("\n    %s: %lu graphs, %lu configurations, %lu profiles, %lu executions "
	       "(%lu returned from main, %lu exit() at a dead end, %lu abrupt), %lu steps; "
	       "%lu paths + %lu partial paths recorded (%lu + %lu distinct records); "
	       "%lu surrogate + %lu split restarts; removed edges checked %lu, undetermined %lu; "
	       "corrupted profiles: %lu, detected %lu; paths with a context prefix through a call "
	       "%lu, partial paths with open calls %lu, unmatched returns %lu, untraced calls %lu, "
	       "longjmps %lu, computed gotos %lu; %.2fs",
	       what, st->graphs, st->configs, st->profiles, st->runs, st->complete, st->deadend,
	       st->abrupt, st->steps, st->paths, st->partials, st->records, st->precords,
	       st->restarts_surr, st->restarts_split, st->removed_edges, st->unknown_edges,
	       st->drops, st->drops_detected, st->ctx_prefix, st->deep_partials, st->unmatched,
	       st->untraced, st->longjmps, st->gotos, st->secs);
	if (st->ev.activations)
		printf("\n    events: %llu fresh and %llu continuing activations, %llu with a frame, "
		       "%llu returns (%llu lazy); records: %llu in arrays, %llu in "
		       "rows (%llu from a return site), %llu probed inline, %llu through "
		       "__ipp_record; %llu + %llu "
		       "increments, %llu multiplies, %llu calls (%llu continuing, %llu framed), "
		       "%llu dead-end marks (%llu through __ipp_top)",
		       (unsigned long long)st->ev.fresh, (unsigned long long)st->ev.continuing,
		       (unsigned long long)st->ev.frames,
		       (unsigned long long)st->ev.returns, (unsigned long long)st->ev.returns_lazy,
		       (unsigned long long)st->ev.rec_array, (unsigned long long)st->ev.rec_row,
		       (unsigned long long)st->ev.rec_row_return, (unsigned long long)st->ev.rec_probe,
		       (unsigned long long)st->ev.rec_hash,
		       (unsigned long long)st->ev.increments,
		       (unsigned long long)st->ev.local_increments,
		       (unsigned long long)st->ev.multiplies, (unsigned long long)st->ev.calls,
		       (unsigned long long)st->ev.calls_interproc,
		       (unsigned long long)st->ev.calls_framed, (unsigned long long)st->ev.dead_marks,
		       (unsigned long long)st->ev.dead_marks_top);
}

/* Marks restart points in a third of the random graphs: the return sites
 * of some calls out of the unit (setjmp) and some blocks (computed-goto
 * targets; loop headers among them). */
static void add_restarts(ipp_graph *g, uint64_t seed)
{
	rg_rng rng;
	rg_rng_seed(&rng, seed ^ UINT64_C(0x5e7));
	if (seed % 3)
		return;
	for (size_t i = 0; i < ipp_graph_nvertices(g); i++) {
		ipp_id v = (ipp_id)i;
		enum ipp_vkind k = ipp_vertex_kind(g, v);
		if (k == IPP_V_CALL && ipp_call_callee(g, v) == IPP_NONE &&
		    !(ipp_call_flags(g, v) & IPP_CALL_INDIRECT) && rg_rng_chance(&rng, 70))
			ipp_set_restart(g, v + 1);
		else if (k == IPP_V_BLOCK && rg_rng_chance(&rng, 8))
			ipp_set_restart(g, v);
	}
}

static void run_random(enum ipp_mode mode)
{
	struct seed_range sr = seed_range();
	struct stats *st = &mode_stats[mode];
	double t0 = now();
	reports = 0;
	for (unsigned i = 0; i < sr.n; i++) {
		uint64_t seed = sr.first + i;
		rg_params prm;
		rg_params_level(&prm, (unsigned)(seed % RG_NLEVELS));
		ipp_graph *g = rg_random(seed, &prm);
		add_restarts(g, seed);
		run_graph(g, mode, seed, st);
		ipp_graph_free(g);
	}
	/* fixed shapes: the paper's program, recursion */
	{
		ipp_graph *g = fig4_graph();
		run_graph(g, mode, 900001, st);
		ipp_graph_free(g);
		g = rg_recursion_zoo();
		run_graph(g, mode, 900002, st);
		ipp_graph_free(g);
		g = rg_diamond_chain_calls(3, 3);
		run_graph(g, mode, 900003, st);
		ipp_graph_free(g);
	}
	st->secs = now() - t0;
	print_stats(ipp_mode_name(mode), st);
	CU_ASSERT(st->failures == 0);
}

static void test_random_context(void) { run_random(IPP_MODE_CONTEXT); }
static void test_random_piecewise(void) { run_random(IPP_MODE_PIECEWISE); }
static void test_random_intra(void) { run_random(IPP_MODE_INTRA); }
static void test_random_intra_context(void) { run_random(IPP_MODE_INTRA_CONTEXT); }

/* ------------------------------------------------------------------ */
/* The paper's Figure 9                                                 */
/* ------------------------------------------------------------------ */

static ipp_fin *fig4_fin(ipp_graph **gout, enum ipp_mode mode)
{
	char err[256];
	ipp_graph *g = fig4_graph();
	ipp_fin *f = ipp_fin_new(g, mode, NULL, err, sizeof(err));
	CU_ASSERT_FATAL(f != NULL);
	*gout = g;
	return f;
}

/* Figure 9's profile as a module: region 0 is main, and the paper's
 * numbers are the numbers within it (there is one region).  Every count
 * is multiplied by 'scale' (1 for the paper's counts): the profile of
 * 'scale' runs. */
static ipp_prof_module *figure9_module(ipp_profile *prof, const ipp_fin *f, uint64_t scale)
{
	ipp_prof_module *pm = ipp_profile_add_module(prof, "fig4.c", 4, IPP_MODE_CONTEXT);
	ipp_region_info ri;
	mpz_t n;
	ipp_fin_region(f, 0, &ri);
	CU_ASSERT_FATAL(ipp_fin_nregions(f) == 1 && strcmp(ri.name, "main") == 0);
	mpz_init(n);
	for (size_t i = 0; i < fig4_figure9_len; i++) {
		mpz_set_ui(n, fig4_figure9[i].number);
		ipp_prof_add_path(pm, "main", n, fig4_figure9[i].count * scale);
	}
	mpz_clear(n);
	pm->runs = 1;
	return pm;
}

static ipp_id fig4_edge(const ipp_graph *g, const char *from, const char *to)
{
	ipp_id s = fig4_vertex(from), d = fig4_vertex(to);
	for (size_t k = 0; k < ipp_vertex_nout(g, s); k++)
		if (ipp_edge_dst(g, ipp_vertex_out(g, s, k)) == d)
			return ipp_vertex_out(g, s, k);
	return IPP_NONE;
}

static void test_figure9(void)
{
	ipp_graph *g;
	ipp_fin *f = fig4_fin(&g, IPP_MODE_CONTEXT);
	ipp_profile *prof = ipp_profile_new();
	ipp_prof_module *pm = figure9_module(prof, f, 1);
	ipp_counts c;
	char err[256], **msgs;
	size_t n;

	CU_ASSERT_FATAL(ipp_derive(f, pm, &c, err, sizeof(err)) == 0);
	/* main runs its loop for i = 1 .. 18 and leaves it at i = 19: the
	 * header v4 runs 18 + 1 = 19 times, the body v5 and the back edge
	 * v13 -> v4 18 times, and main is entered and returns once. */
	CU_ASSERT_EQUAL(c.vertex[fig4_vertex("v4")], 19);
	CU_ASSERT_EQUAL(c.vertex[fig4_vertex("v5")], 18);
	CU_ASSERT_EQUAL(c.vertex[fig4_vertex("v15")], 1);
	CU_ASSERT_EQUAL(c.vertex[fig4_vertex("v1")], 1);
	CU_ASSERT_EQUAL(c.vertex[fig4_vertex("v16")], 1);
	CU_ASSERT_EQUAL(c.edge[fig4_edge(g, "v13", "v4")], 18);
	CU_ASSERT(c.edge_known[fig4_edge(g, "v13", "v4")]);
	/* pow is called at v6 for even i (i = 2, 4, .., 18: 9 times) and at v10
	 * for multiples of 3 (i = 3, 6, .., 18: 6 times): 15 entries, all
	 * returning.  pow(x, 2) iterates twice: its header u3 runs 3 times a
	 * call (45), its back edge u5 -> u3 2 times a call (30). */
	CU_ASSERT_EQUAL(c.vertex[fig4_vertex("u1")], 15);
	CU_ASSERT_EQUAL(c.vertex[fig4_vertex("u8")], 15);
	CU_ASSERT_EQUAL(c.vertex[fig4_vertex("v6")], 9);
	CU_ASSERT_EQUAL(c.returns[fig4_vertex("v6")], 9);
	CU_ASSERT_EQUAL(c.vertex[fig4_vertex("v10")], 6);
	CU_ASSERT_EQUAL(c.returns[fig4_vertex("v10")], 6);
	CU_ASSERT_EQUAL(c.vertex[fig4_vertex("u3")], 45);
	CU_ASSERT_EQUAL(c.vertex[fig4_vertex("u4")], 30);
	CU_ASSERT_EQUAL(c.edge[fig4_edge(g, "u5", "u3")], 30);
	/* i % 2 == 0 at v5 is taken 9 times of 18, i % 3 == 0 at v9 6 times */
	CU_ASSERT_EQUAL(c.edge[fig4_edge(g, "v5", "v9")], 9);
	CU_ASSERT_EQUAL(c.edge[fig4_edge(g, "v9", "v13")], 12);
	CU_ASSERT_EQUAL(c.fresh_entries[0], 1);
	CU_ASSERT_EQUAL(c.fresh_entries[1], 0);
	CU_ASSERT_EQUAL(c.observations, 49);
	CU_ASSERT(!c.saturated);
	{
		int viol = ipp_check_flow(f, &c, &msgs, &n);
		CU_ASSERT_EQUAL(viol, 0);
		CU_ASSERT_EQUAL(n, 0);
		print_msgs("figure 9", msgs, n);
		ipp_flow_free(msgs, n);
	}
	/* call counts: both sites are direct, interprocedural, to pow */
	{
		ipp_call_count *cc;
		size_t nc = ipp_counts_calls(f, &c, &cc);
		CU_ASSERT_EQUAL(nc, 2);
		for (size_t i = 0; i < nc; i++) {
			CU_ASSERT_EQUAL(cc[i].callee, 1);
			CU_ASSERT_EQUAL(cc[i].why, IPP_SUM_NONE);
			CU_ASSERT(!cc[i].indirect);
		}
		CU_ASSERT_EQUAL(cc[0].calls + cc[1].calls, 15);
		free(cc);
	}
	ipp_counts_free(&c);

	/* Dropping one observation of a path is visible unless the path's
	 * active suffix is a cycle of G* -- it starts at the target of the back
	 * edge it ends with, so its flow is a circulation, which conservation
	 * cannot see.  In Figure 9 these are pow's inner iterations u3 -> u4 ->
	 * u5 -> u3 in the three contexts where they occur (24: site 1; 27:
	 * site 2 after site 1; 32: site 2 alone) and main's iterations without
	 * calls v4 -> v5 -> v9 -> v13 -> v4 (34).  The decoded paths are in
	 * test_paper.c.  Every other path enters or leaves a loop (16, 35),
	 * or starts in one procedure's loop and ends in another's (18, 25, 28,
	 * 29, 30, 33). */
	for (size_t i = 0; i < pm->npaths; i++) {
		unsigned num = (unsigned)pm->paths[i].num.u;
		bool circulation = num == 24 || num == 27 || num == 32 || num == 34;
		int viol;
		pm->paths[i].count--;
		CU_ASSERT_FATAL(ipp_derive(f, pm, &c, err, sizeof(err)) == 0);
		viol = ipp_check_flow(f, &c, &msgs, &n);
		CHECKF(circulation ? viol == 0 : viol > 0, "figure 9 without one observation of "
		       "path %u: %d violations", num, viol);
		ipp_flow_free(msgs, n);
		ipp_counts_free(&c);
		pm->paths[i].count++;
	}
	ipp_profile_free(prof);
	ipp_fin_free(f);
	ipp_graph_free(g);
}

/* Counts past 2^64 saturate; the flow check is then inconclusive, not
 * violated.  Figure 9 times K = floor((2^64 - 1) / 12): every record fits
 * (at most 9 K), main's loop header does not (19 K), pow's entry does not
 * (15 K), main's entry does (K). */
static void test_saturation(void)
{
	ipp_graph *g;
	ipp_fin *f = fig4_fin(&g, IPP_MODE_CONTEXT);
	ipp_profile *prof = ipp_profile_new();
	const uint64_t k = UINT64_MAX / 12;
	ipp_prof_module *pm = figure9_module(prof, f, k);
	ipp_counts c;
	char err[256], **msgs;
	size_t n;
	int viol;

	CU_ASSERT_FATAL(ipp_derive(f, pm, &c, err, sizeof(err)) == 0);
	CU_ASSERT(c.saturated);
	CU_ASSERT_EQUAL(c.vertex[fig4_vertex("v4")], UINT64_MAX);
	CU_ASSERT_EQUAL(c.vertex[fig4_vertex("u1")], UINT64_MAX);
	CU_ASSERT_EQUAL(c.vertex[fig4_vertex("v1")], k);
	CU_ASSERT_EQUAL(c.vertex[fig4_vertex("v15")], k);
	CU_ASSERT_EQUAL(c.observations, UINT64_MAX);
	viol = ipp_check_flow(f, &c, &msgs, &n);
	CU_ASSERT_EQUAL(viol, 0);
	CU_ASSERT(n > 0);
	if (viol)
		print_msgs("saturation", msgs, n);
	for (size_t i = 0; i < n; i++)
		CU_ASSERT(strncmp(msgs[i], "inconclusive: ", 14) == 0);
	ipp_flow_free(msgs, n);
	ipp_counts_free(&c);
	ipp_profile_free(prof);
	ipp_fin_free(f);
	ipp_graph_free(g);
}

/* Errors: mode mismatch, unknown region, out-of-range number, bad stop stack. */
static void test_errors(void)
{
	ipp_graph *g;
	ipp_fin *f = fig4_fin(&g, IPP_MODE_CONTEXT);
	ipp_profile *prof = ipp_profile_new();
	ipp_prof_module *pm;
	ipp_counts c;
	char err[256];
	mpz_t n;
	ipp_id stack[1];

	mpz_init_set_ui(n, 3);
	pm = ipp_profile_add_module(prof, "a.c", 1, IPP_MODE_INTRA);
	ipp_prof_add_path(pm, "main", n, 1);
	CU_ASSERT(ipp_derive(f, pm, &c, err, sizeof(err)) == -1);
	pm = ipp_profile_add_module(prof, "b.c", 1, IPP_MODE_CONTEXT);
	ipp_prof_add_path(pm, "nosuch", n, 1);
	CU_ASSERT(ipp_derive(f, pm, &c, err, sizeof(err)) == -1);
	CU_ASSERT(strstr(err, "nosuch") != NULL);
	pm = ipp_profile_add_module(prof, "c.c", 1, IPP_MODE_CONTEXT);
	mpz_set_ui(n, 36);	/* main has 36 paths: 0 .. 35 */
	ipp_prof_add_path(pm, "main", n, 1);
	CU_ASSERT(ipp_derive(f, pm, &c, err, sizeof(err)) == -1);
	pm = ipp_profile_add_module(prof, "d.c", 1, IPP_MODE_CONTEXT);
	mpz_set_ui(n, 0);
	stack[0] = fig4_vertex("u4");	/* no prefix of number 0 stops in pow */
	ipp_prof_add_partial(pm, "main", n, stack, 1, 1);
	CU_ASSERT(ipp_derive(f, pm, &c, err, sizeof(err)) == -1);
	pm = ipp_profile_add_module(prof, "e.c", 1, IPP_MODE_CONTEXT);
	stack[0] = 999;
	ipp_prof_add_partial(pm, "main", n, stack, 1, 1);
	CU_ASSERT(ipp_derive(f, pm, &c, err, sizeof(err)) == -1);
	/* an empty module derives to zero counts with no violation */
	pm = ipp_profile_add_module(prof, "f.c", 1, IPP_MODE_CONTEXT);
	CU_ASSERT_FATAL(ipp_derive(f, pm, &c, err, sizeof(err)) == 0);
	{
		char **msgs;
		size_t nm;
		CU_ASSERT_EQUAL(ipp_check_flow(f, &c, &msgs, &nm), 0);
		CU_ASSERT_EQUAL(nm, 0);
		ipp_flow_free(msgs, nm);
	}
	ipp_counts_free(&c);
	mpz_clear(n);
	ipp_profile_free(prof);
	ipp_fin_free(f);
	ipp_graph_free(g);
}

/* A partial path: Figure 4's program killed inside pow's second call
 * (i = 3, from site v10, in pow's first iteration at u4).  The prefix
 * counts the executions up to there, once. */
static void test_partial(void)
{
	ipp_graph *g;
	ipp_fin *f = fig4_fin(&g, IPP_MODE_CONTEXT);
	ipp_profile *prof = ipp_profile_new();
	ipp_prof_module *pm = ipp_profile_add_module(prof, "fig4.c", 4, IPP_MODE_CONTEXT);
	ipp_counts c;
	char err[256], **msgs;
	size_t n;
	ipp_path p;
	ipp_id region, *stack;
	size_t nstack;
	mpz_t num;
	static const char *const walk[] = { "v1", "v4", "v5", "v9", "v10", "u1", "u2", "u3",
					    "u4" };

	/* i = 1: main's first path (16); i = 2: v5 -> v6 -> pow (18, 24, and
	 * the path leaving pow: decoded from the paper's table); then i = 3 is
	 * built here edge by edge: the context prefix v1 -> v4 (surrogate),
	 * then v5 -> v9 -> v10 -> pow -> u2 -> u3 -> u4, stopped there. */
	mpz_init(num);
	ipp_path_init(&p);
	for (size_t k = 0; k + 1 < sizeof(walk) / sizeof(walk[0]); k++) {
		ipp_id s = fig4_vertex(walk[k]), d = fig4_vertex(walk[k + 1]), e = IPP_NONE;
		if (k == 0) {
			ipp_region_info ri;
			ipp_fin_region(f, 0, &ri);
			ipp_path_push(&p, ri.edge);
		}
		for (size_t i = 0; i < ipp_fin_nsucc(f, s); i++)
			if (ipp_fin_edst(f, ipp_fin_succ(f, s, i)) == d)
				e = ipp_fin_succ(f, s, i);
		CU_ASSERT_FATAL(e != IPP_NONE);
		ipp_path_push(&p, e);
	}
	CU_ASSERT_FATAL(ipp_encode(f, p.edges, p.nedges, &region, num, &stack, &nstack, err,
				   sizeof(err)) == 0);
	CU_ASSERT_EQUAL(nstack, 2);	/* [v10, u4] */
	ipp_prof_add_partial(pm, "main", num, stack, nstack, 1);
	free(stack);
	CU_ASSERT_FATAL(ipp_derive(f, pm, &c, err, sizeof(err)) == 0);
	/* the active suffix starts at v4 (after the surrogate Entry -> v4): v1 is
	 * in the context prefix and not counted */
	CU_ASSERT_EQUAL(c.vertex[fig4_vertex("v1")], 0);
	CU_ASSERT_EQUAL(c.vertex[fig4_vertex("v4")], 1);
	CU_ASSERT_EQUAL(c.surr_in[fig4_vertex("v4")], 1);
	CU_ASSERT_EQUAL(c.vertex[fig4_vertex("v10")], 1);
	CU_ASSERT_EQUAL(c.vertex[fig4_vertex("u1")], 1);
	CU_ASSERT_EQUAL(c.vertex[fig4_vertex("u4")], 1);
	CU_ASSERT_EQUAL(c.vertex[fig4_vertex("u5")], 0);
	CU_ASSERT_EQUAL(c.stopped[fig4_vertex("v10")], 1);
	CU_ASSERT_EQUAL(c.stopped[fig4_vertex("u4")], 1);
	CU_ASSERT_EQUAL(c.returns[fig4_vertex("v10")], 0);
	/* alone, this partial path is not a whole run: main's loop header was
	 * reached through a back edge nobody took */
	CU_ASSERT(ipp_check_flow(f, &c, &msgs, &n) > 0);
	ipp_flow_free(msgs, n);
	ipp_counts_free(&c);
	ipp_path_free(&p);
	mpz_clear(num);
	ipp_profile_free(prof);
	ipp_fin_free(f);
	ipp_graph_free(g);
}

/* A call to a noreturn function, summarized (intra mode), as in GCC's
 * torture test 20040823-1.c at -O0:
 *     static void die(void) { ...; exit(0); }     die: x -> call exit
 *     int main(void) { ...; die(); }              main: b -> call die
 * Each function's only path is recorded once: main's before the call, as
 * Entry_main -> b -> c -> c+1 -> GExit_main (the block ends in a call that
 * never returns); die's as Entry_die -> x -> e -> e+1 -> GExit_die.  The
 * edge c -> c+1 of main's path is the way to its dead end, not a return:
 * returns[c] = 0 and abandoned[c] = 1 (the call is open when the path
 * ends), and likewise at e, the call to exit().  The return sites are
 * passed on the way to GExit: vertex[c+1] = vertex[e+1] = 1.  The
 * call-graph check expects no return of die (die is not an entry
 * procedure, so it is an equality: 1 entry for 1 call, 0 returns for 0).
 * ipp_counts_calls gives, per site in vertex order, (calls, returns) =
 * (1, 0) for main -> die and for die -> exit, the callee that is not a
 * procedure of the graph named as ipp_set_call_target named it. */
static void test_noreturn(void)
{
	ipp_graph *g = ipp_graph_new();
	ipp_id m = ipp_add_proc(g, "main", "main", IPP_PROC_ENTRY);
	ipp_id die = ipp_add_proc(g, "die", "die", 0);
	ipp_id b = ipp_add_block(g, m), c = ipp_add_call(g, m, die, IPP_CALL_NORETURN);
	ipp_id x = ipp_add_block(g, die), e = ipp_add_call(g, die, IPP_NONE, IPP_CALL_NORETURN);
	ipp_profile *prof = ipp_profile_new();
	ipp_prof_module *pm = ipp_profile_add_module(prof, "nr.c", 1, IPP_MODE_INTRA);
	ipp_counts cnt;
	ipp_fin *f;
	char err[256], **msgs;
	size_t n;
	mpz_t zero;
	ipp_call_count *cc;

	ipp_set_call_target(g, e, "exit", NULL);
	ipp_add_edge(g, ipp_proc_entry(g, m), b);
	ipp_add_edge(g, b, c);
	ipp_add_edge(g, c + 1, ipp_proc_gexit(g, m));
	ipp_add_edge(g, ipp_proc_entry(g, die), x);
	ipp_add_edge(g, x, e);
	ipp_add_edge(g, e + 1, ipp_proc_gexit(g, die));
	f = ipp_fin_new(g, IPP_MODE_INTRA, NULL, err, sizeof(err));
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL_FATAL(ipp_fin_nregions(f), 2);	/* main, and die (called fresh) */
	mpz_init(zero);
	for (ipp_id r = 0; r < 2; r++) {
		ipp_fin_region_total(f, r, zero);
		CU_ASSERT_EQUAL(mpz_cmp_ui(zero, 1), 0);	/* one path each: number 0 */
	}
	mpz_set_ui(zero, 0);
	ipp_prof_add_path(pm, "main", zero, 1);
	ipp_prof_add_path(pm, "die", zero, 1);
	CU_ASSERT_FATAL(ipp_derive(f, pm, &cnt, err, sizeof(err)) == 0);
	CU_ASSERT_EQUAL(cnt.vertex[c], 1);
	CU_ASSERT_EQUAL(cnt.returns[c], 0);	/* c -> c+1 is the way to the dead end */
	CU_ASSERT_EQUAL(cnt.abandoned[c], 1);
	CU_ASSERT_EQUAL(cnt.vertex[c + 1], 1);
	CU_ASSERT_EQUAL(cnt.vertex[ipp_proc_gexit(g, m)], 1);
	CU_ASSERT_EQUAL(cnt.fresh_entries[die], 1);
	CU_ASSERT_EQUAL(cnt.fresh_returns[die], 0);
	CU_ASSERT_EQUAL(cnt.vertex[e], 1);
	CU_ASSERT_EQUAL(cnt.returns[e], 0);
	CU_ASSERT_EQUAL(cnt.abandoned[e], 1);
	CU_ASSERT_EQUAL(cnt.vertex[e + 1], 1);
	CU_ASSERT_EQUAL(cnt.vertex[ipp_proc_gexit(g, die)], 1);
	CU_ASSERT_EQUAL_FATAL(ipp_counts_calls(f, &cnt, &cc), 2);
	CU_ASSERT_EQUAL(cc[0].site, c);
	CU_ASSERT_EQUAL(cc[0].callee, die);
	CU_ASSERT_STRING_EQUAL(cc[0].callee_asm, "die");
	CU_ASSERT_EQUAL(cc[0].calls, 1);
	CU_ASSERT_EQUAL(cc[0].returns, 0);
	CU_ASSERT_EQUAL(cc[1].site, e);
	CU_ASSERT_EQUAL(cc[1].callee, IPP_NONE);
	CU_ASSERT_STRING_EQUAL(cc[1].callee_asm, "exit");
	CU_ASSERT_STRING_EQUAL(cc[1].callee_name, "exit");
	CU_ASSERT_EQUAL(cc[1].calls, 1);
	CU_ASSERT_EQUAL(cc[1].returns, 0);
	free(cc);
	CU_ASSERT_EQUAL(ipp_check_flow(f, &cnt, &msgs, &n), 0);
	CU_ASSERT_EQUAL(n, 0);
	if (n > 0)
		print_msgs("noreturn", msgs, n);
	ipp_flow_free(msgs, n);
	ipp_counts_free(&cnt);
	mpz_clear(zero);
	ipp_profile_free(prof);
	ipp_fin_free(f);
	ipp_graph_free(g);
}

/* Line counts: the maximum over block heads located on a line. */
static void test_lines(void)
{
	ipp_graph *g = ipp_graph_new();
	ipp_id m = ipp_add_proc(g, "main", "main", IPP_PROC_ENTRY);
	ipp_id a = ipp_add_block(g, m), b = ipp_add_block(g, m), d = ipp_add_block(g, m);
	ipp_id c = ipp_add_call(g, m, IPP_NONE, 0), j = ipp_add_block(g, m);
	ipp_fin *f;
	ipp_counts cnt;
	ipp_line_count *l;
	size_t n;
	char err[256];

	/* a: "for (i = 0; i < 3; i++)" on line 10: a -> b (loop head, also line
	 * 10) -> d (body, line 11) -> c (a call on line 12: not a head) ->
	 * c+1 -> b (back edge); b -> j (line 13) -> Exit */
	ipp_add_edge(g, ipp_proc_entry(g, m), a);
	ipp_add_edge(g, a, b);
	ipp_add_edge(g, b, d);
	ipp_add_edge(g, b, j);
	ipp_add_edge(g, d, c);
	ipp_add_edge(g, c + 1, b);
	ipp_add_edge(g, j, ipp_proc_exit(g, m));
	ipp_set_loc(g, a, "t.c", 10, 5);
	ipp_set_loc(g, b, "t.c", 10, 17);
	ipp_set_loc(g, d, "t.c", 11, 9);
	ipp_set_loc(g, c, "t.c", 12, 9);
	ipp_set_loc(g, c + 1, "t.c", 12, 9);
	ipp_set_loc(g, j, "s.c", 13, 5);
	f = ipp_fin_new(g, IPP_MODE_INTRA, NULL, err, sizeof(err));
	CU_ASSERT_FATAL(f != NULL);
	memset(&cnt, 0, sizeof(cnt));
	cnt.vertex = xcalloc(ipp_graph_nvertices(g), sizeof(uint64_t));
	cnt.vertex[a] = 1;
	cnt.vertex[b] = 4;
	cnt.vertex[d] = 3;
	cnt.vertex[c] = 3;
	cnt.vertex[j] = 1;
	n = ipp_counts_lines(f, &cnt, &l);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	CU_ASSERT(strcmp(l[0].file, "s.c") == 0 && l[0].line == 13 && l[0].count == 1);
	CU_ASSERT(strcmp(l[1].file, "t.c") == 0 && l[1].line == 10 && l[1].count == 4 &&
		  l[1].vertex == b);
	CU_ASSERT(strcmp(l[2].file, "t.c") == 0 && l[2].line == 11 && l[2].count == 3);
	free(l);
	free(cnt.vertex);
	ipp_fin_free(f);
	ipp_graph_free(g);
}

/* Scale: many distinct long paths.  main is a chain of 500 diamonds (2 x
 * 500 + 4 = 1004 edges per path); 20000 random path numbers of it
 * (IPP_DERIVE_SCALE_PATHS=n for another number). */
static void test_scale(void)
{
	ipp_graph *g = rg_diamond_chain(500);
	char err[256];
	ipp_fin *f = ipp_fin_new(g, IPP_MODE_INTRA, NULL, err, sizeof(err));
	ipp_profile *prof = ipp_profile_new();
	ipp_prof_module *pm = ipp_profile_add_module(prof, "big.c", 1, IPP_MODE_INTRA);
	gmp_randstate_t rs;
	mpz_t total, num;
	ipp_counts c;
	double t0;
	unsigned npaths = 20000;
	const char *env = getenv("IPP_DERIVE_SCALE_PATHS");
	if (env && *env)
		npaths = (unsigned)strtoul(env, NULL, 0);

	CU_ASSERT_FATAL(f != NULL);
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, 12345);
	mpz_inits(total, num, NULL);
	ipp_fin_region_total(f, 0, total);
	for (unsigned i = 0; i < npaths; i++) {
		mpz_urandomm(num, rs, total);
		ipp_prof_add_path(pm, "main", num, 1 + i % 3);
	}
	t0 = now();
	CU_ASSERT_FATAL(ipp_derive(f, pm, &c, err, sizeof(err)) == 0);
	printf("\n    scale: %zu distinct paths of %zu edges derived in %.2fs",
	       pm->npaths, (size_t)(2 * 500 + 4), now() - t0);
	/* each path passes Entry_P and Exit_P once */
	{
		uint64_t want = 0;
		for (size_t i = 0; i < pm->npaths; i++)
			want += pm->paths[i].count;
		CU_ASSERT_EQUAL(c.vertex[ipp_proc_entry(g, 0)], want);
		CU_ASSERT_EQUAL(c.vertex[ipp_proc_exit(g, 0)], want);
	}
	{
		char **msgs;
		size_t n;
		CU_ASSERT_EQUAL(ipp_check_flow(f, &c, &msgs, &n), 0);
		ipp_flow_free(msgs, n);
	}
	ipp_counts_free(&c);
	mpz_clears(total, num, NULL);
	gmp_randclear(rs);
	ipp_profile_free(prof);
	ipp_fin_free(f);
	ipp_graph_free(g);
}

/* ------------------------------------------------------------------ */
/* Registry                                                             */
/* ------------------------------------------------------------------ */
int main(void)
{
	static const struct {
		const char *name;
		CU_TestFunc fn;
	} tests[] = {
		{ "figure 9: pow entered 15 times, loop header 19", test_figure9 },
		{ "partial path: active suffix and stop stack", test_partial },
		{ "saturation is inconclusive, not a violation", test_saturation },
		{ "errors", test_errors },
		{ "noreturn call summarized: no return expected", test_noreturn },
		{ "line counts", test_lines },
		{ "simulated executions, context", test_random_context },
		{ "simulated executions, piecewise", test_random_piecewise },
		{ "simulated executions, intra", test_random_intra },
		{ "simulated executions, intra-context", test_random_intra_context },
		{ "scale", test_scale },
	};
	CU_pSuite s;
	double t0 = now();
	unsigned nfail;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("derive", NULL, NULL);
	if (!s)
		return 2;
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		if (!CU_add_test(s, tests[i].name, tests[i].fn)) {
			CU_cleanup_registry();
			return 2;
		}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	nfail = CU_get_number_of_failures();
	printf("\ntest_derive: %u assertion failures, %.1fs\n", nfail, now() - t0);
	CU_cleanup_registry();
	return nfail != 0 || CU_get_error() != CUE_SUCCESS ? 1 : 0;
}
