/* events.c -- the run-time events of the inserted code, derived from a
 * module's counts (ipp_events_derive, ipp_derive.h; docs/PROTOCOL.md,
 * "Events").
 *
 * The rule is plugin/ipp_pass.cc's placement (instrument(), emit_entry(),
 * emit_return(), lin_val()), written down once here, and nowhere else:
 *  - every activation of P (count of Entry_P): context mode calls
 *    __ipp_enter if P has an Entry region (fresh: fresh_entries[P], else
 *    continuing), else enters inline (always continuing); intra mode
 *    enters inline, every activation fresh;
 *  - every normal return (Exit_P): context mode calls __ipp_leave if P has
 *    an Entry region, which records if the activation was fresh; intra
 *    mode records inline; so records at returns = fresh returns;
 *  - a G* edge that is a DFS back edge or enters a cut vertex records the
 *    path and restarts it (surr_out of its source counts them all); a
 *    dead end (an edge to GExit_P, a summarized noreturn call among them)
 *    records (vertex[GExit_P]);
 *  - every other G* edge of an instrumented procedure adds rho_e(nvc) of
 *    its G*fin edge to the path register unless rho_e = 0 (in intra mode
 *    rho_e(1) = a + b; in context mode rho_e = <a,b> != <0,0>); a != 0 in
 *    context mode is a multiply.  The edges the plugin cannot instrument
 *    (the chain edges inside a basic block, into and out of call vertices)
 *    are the only out-edges of their source, so their rho_e is 0; edges
 *    into GExit_P add their rho_e to the recorded value instead;
 *  - multiplies by nvc besides the edges (context): a record's rho of its
 *    SURR_EXIT edge, a restart's rho of its SURR_ENTRY edge (counted once
 *    per surrogate arrival; the plugin also computes it each time a setjmp
 *    or computed-goto restart point executes, which is not counted), a
 *    dead end's rho, psi of the return site at an interprocedural call;
 *  - every executed call vertex: interprocedural (context rule 1), dead
 *    (summarized noreturn: recorded before), or summarized (frame stores;
 *    an indirect one in context mode also stores __ipp_itgt); a cut call
 *    vertex first splits (counted among rec_split).
 * If the plugin's placement changes, this file changes with it.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "internal.h"
#include "ipp_derive.h"

static void add(ipp_events *ev, uint64_t *x, uint64_t n)
{
	uint64_t s = *x + n;
	if (s < *x)
		s = UINT64_MAX;
	if (s == UINT64_MAX && n)
		ev->saturated = true;
	*x = s;
}

void ipp_events_add(ipp_events *sum, const ipp_events *x)
{
#define IPP_EVENT_SUM(name, what) add(sum, &sum->name, x->name);
	IPP_EVENT_FIELDS(IPP_EVENT_SUM)
#undef IPP_EVENT_SUM
	sum->saturated |= x->saturated;
}

/* The rho (or psi) <a,b> as the plugin emits it: does it add anything, and
 * does it multiply by nvc? */
struct lin {
	bool nonzero, mult;
};

static struct lin lin_of(bool ctx, mpz_t a, mpz_t b)
{
	struct lin l;
	/* intra mode adds the constant a + b (a, b >= 0); context mode adds
	 * b or a * nvc (+ b) */
	l.nonzero = mpz_sgn(a) != 0 || mpz_sgn(b) != 0;
	l.mult = ctx && mpz_sgn(a) != 0;
	return l;
}

/* What rho_e (of a G*fin edge, psi false) or psi_v (of a vertex, psi
 * true) does in the inserted code. */
static struct lin lin_at(const ipp_fin *f, ipp_id x, bool psi, bool ctx)
{
	mpz_t a, b;
	struct lin l;
	mpz_inits(a, b, NULL);
	if (psi)
		ipp_fin_psi(f, x, a, b);
	else
		ipp_fin_rho(f, x, a, b);
	l = lin_of(ctx, a, b);
	mpz_clears(a, b, NULL);
	return l;
}

static bool instrumented(const ipp_graph *g, ipp_id p)
{
	return p >= 0 && !(ipp_proc_flags(g, p) & IPP_PROC_SKIPPED);
}

/* The records of pm by the size of their region (a region the map does
 * not know, which ipp_profile_check rejects, counts as big). */
static void region_split(const ipp_fin *f, const ipp_prof_module *pm, uint64_t array_max,
			 ipp_events *ev)
{
	mpz_t t, lim32, lim48;
	unsigned char *cls = ipp_xcalloc(pm->nregions + 1, 1);
	mpz_inits(t, lim32, lim48, NULL);
	mpz_ui_pow_ui(lim32, 2, 32);
	mpz_ui_pow_ui(lim48, 2, 48);
	for (size_t i = 0; i < pm->nregions; i++) {
		ipp_id r = ipp_fin_region_find(f, pm->regions[i]);
		cls[i] = 3;
		if (r == IPP_NONE)
			continue;
		ipp_fin_region_total(f, r, t);
		if (mpz_cmp_ui(t, array_max) <= 0)
			cls[i] = 0;
		else if (mpz_cmp(t, lim32) <= 0)
			cls[i] = 1;
		else if (mpz_cmp(t, lim48) <= 0)
			cls[i] = 2;
	}
	for (size_t k = 0; k < pm->npaths; k++) {
		uint64_t n = pm->paths[k].count;
		uint64_t *to[4] = { &ev->rec_region_small, &ev->rec_region_32, &ev->rec_region_48,
				    &ev->rec_region_big };
		add(ev, to[cls[pm->paths[k].region]], n);
		add(ev, &ev->path_counts, n);
	}
	for (size_t k = 0; k < pm->npartials; k++)
		add(ev, &ev->partial_counts, pm->partials[k].count);
	for (size_t k = 0; k < pm->nicalls; k++)
		add(ev, &ev->icall_arcs, pm->icalls[k].count);
	mpz_clears(t, lim32, lim48, NULL);
	free(cls);
}

int ipp_events_derive(const ipp_fin *f, const ipp_counts *c, const ipp_prof_module *pm,
		      uint64_t array_max, ipp_events *ev, char *err, size_t errlen)
{
	const ipp_graph *g = ipp_fin_graph(f);
	enum ipp_mode mode = ipp_fin_mode(f);
	bool ctx = mode == IPP_MODE_CONTEXT;
	size_t nv = ipp_graph_nvertices(g), ne = ipp_graph_nedges(g), np = ipp_graph_nprocs(g);
	ipp_id *kept, *exit_of, *entry_of;

	memset(ev, 0, sizeof(*ev));
	if (mode != IPP_MODE_INTRA && mode != IPP_MODE_CONTEXT) {
		snprintf(err, errlen, "no events in %s mode: the plugin instruments intra and "
			 "context mode only", ipp_mode_name(mode));
		return -1;
	}
	if (c->nvertices != nv || c->nedges != ne || c->nprocs != np) {
		snprintf(err, errlen, "the counts are not of this map's graph");
		return -1;
	}

	/* G* edge -> kept NORMAL edge; G* vertex -> SURR_EXIT out of it,
	 * SURR_ENTRY into it (as the plugin's fin_of, exit_of, restart_of) */
	kept = ipp_xmalloc((ne + 1) * sizeof(ipp_id));
	exit_of = ipp_xmalloc((nv + 1) * sizeof(ipp_id));
	entry_of = ipp_xmalloc((nv + 1) * sizeof(ipp_id));
	for (size_t i = 0; i <= ne; i++)
		kept[i] = IPP_NONE;
	for (size_t i = 0; i <= nv; i++)
		exit_of[i] = entry_of[i] = IPP_NONE;
	for (size_t i = 0; i < ipp_fin_nedges(f); i++) {
		ipp_id e = (ipp_id)i, s = ipp_fin_esrc(f, e), d = ipp_fin_edst(f, e);
		switch (ipp_fin_ekind(f, e)) {
		case IPP_E_NORMAL:
			kept[ipp_fin_eorigin(f, e)] = e;
			break;
		case IPP_E_SURR_EXIT:
			if ((size_t)s < nv)
				exit_of[s] = e;
			break;
		case IPP_E_SURR_ENTRY:
			if ((size_t)d < nv)
				entry_of[d] = e;
			break;
		default:
			break;
		}
	}

	/* activations and returns */
	for (size_t pi = 0; pi < np; pi++) {
		ipp_id p = (ipp_id)pi;
		uint64_t act, fresh, ret, fret;
		bool region_fn;
		if (!instrumented(g, p))
			continue;
		act = c->vertex[ipp_proc_entry(g, p)];
		ret = c->vertex[ipp_proc_exit(g, p)];
		fresh = c->fresh_entries[p];
		fret = c->fresh_returns[p];
		region_fn = ipp_fin_region_find(f, ipp_proc_asm(g, p)) != IPP_NONE;
		add(ev, &ev->activations, act);
		add(ev, &ev->fresh, fresh);
		add(ev, &ev->continuing, act - fresh);
		add(ev, &ev->returns, ret);
		add(ev, &ev->rec_return, fret);
		if (ctx && region_fn) {
			add(ev, &ev->enter_fresh, fresh);
			add(ev, &ev->enter_continuing, act - fresh);
			add(ev, &ev->leave_fresh, fret);
			add(ev, &ev->leave_continuing, ret - fret);
		} else {
			add(ev, &ev->inline_entries, act);
			add(ev, &ev->inline_returns, ret);
		}
		add(ev, &ev->rec_dead, c->vertex[ipp_proc_gexit(g, p)]);
	}

	/* edges: increments, splits, dead ends */
	for (size_t ei = 0; ei < ne; ei++) {
		ipp_id e = (ipp_id)ei, src = ipp_edge_src(g, e), dst = ipp_edge_dst(g, e);
		struct lin l;
		if (!instrumented(g, ipp_vertex_proc(g, src)) || kept[e] == IPP_NONE)
			continue;	/* removed edges: counted per source below */
		l = lin_at(f, kept[e], false, ctx);
		if (ipp_vertex_kind(g, dst) == IPP_V_GEXIT) {
			if (l.mult)	/* added to the recorded value */
				add(ev, &ev->multiplies, c->edge[e]);
			continue;
		}
		if (l.nonzero)
			add(ev, &ev->increments, c->edge[e]);
		if (l.mult)
			add(ev, &ev->multiplies, c->edge[e]);
	}
	for (size_t vi = 0; vi < nv; vi++) {
		ipp_id v = (ipp_id)vi;
		if (!instrumented(g, ipp_vertex_proc(g, v)))
			continue;
		add(ev, &ev->rec_split, c->surr_out[v]);
		if (exit_of[v] != IPP_NONE && lin_at(f, exit_of[v], false, ctx).mult)
			add(ev, &ev->multiplies, c->fin_edge[exit_of[v]]);
		if (entry_of[v] != IPP_NONE && lin_at(f, entry_of[v], false, ctx).mult)
			add(ev, &ev->multiplies, c->surr_in[v]);
		if (ipp_vertex_kind(g, v) != IPP_V_CALL)
			continue;
		uint64_t n = c->vertex[v];
		add(ev, &ev->calls, n);
		if (ipp_fin_is_cut_vertex(f, v))
			add(ev, &ev->calls_cut, n);
		if (ipp_fin_call_summary(f, v) == IPP_SUM_NONE) {
			add(ev, &ev->calls_interproc, n);
			if (lin_at(f, v + 1, true, ctx).mult)
				add(ev, &ev->multiplies, n);
		} else if (ipp_call_flags(g, v) & IPP_CALL_NORETURN) {
			add(ev, &ev->calls_dead, n);
		} else {
			add(ev, &ev->calls_summarized, n);
			if (ipp_call_flags(g, v) & IPP_CALL_INDIRECT)
				add(ev, &ev->calls_indirect, n);
		}
	}
	add(ev, &ev->records, ev->rec_return);
	add(ev, &ev->records, ev->rec_split);
	add(ev, &ev->records, ev->rec_dead);
	if (pm != NULL)
		region_split(f, pm, array_max, ev);
	if (c->saturated)
		ev->saturated = true;
	free(kept);
	free(exit_of);
	free(entry_of);
	return 0;
}
