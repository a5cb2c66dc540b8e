/* events.c -- the run-time events of the inserted code, derived from a
 * profile module (ipp_events_derive, ipp_derive.h; docs/PROTOCOL.md,
 * "Events", is this rule as a table).
 *
 * The rule is plugin/instrument.cc's placement, written down once here.
 * First what each procedure's bodies look like (struct plan, from the
 * map; ipp_decide_frames, ipp_prepare_rows, ipp_instrument):
 *  - a procedure with an Entry region has a fresh body (the original);
 *    one that some interprocedural site enters, a continuing clone;
 *  - a frame if the function has abnormal edges (the map: a restart
 *    point) or a call that is interprocedural, through a pointer, to
 *    setjmp, or summarized, not a dead end (noreturn, ending its block),
 *    not a tail call and not to a function declared leaf (the map's
 *    `leaf` call flag), or if it records at restarts; an inlined copy by
 *    the same rule for its own calls and restarts, and then every
 *    procedure around it (a copy entered through a summarized call
 *    pushes a frame of its own; one that continues its caller's path
 *    keeps its checkpoints in the frame around it, which stands at the
 *    copy's return site again when the copy returns);
 *  - a fresh body whose region has at most array_max paths counts in the
 *    thread's array (one __ipp_counts per activation, counts[n] += 1);
 *  - in context mode a procedure without abnormal edges that records at
 *    restarts (ipp_fin_proc_restarts) and whose local paths from its
 *    entry and restarts number 1 .. row_max (ipp_local.h) counts in rows
 *    in every body that does not count in an array; such a body keeps
 *    no r on its edges (lazy r) if the function's calls need no frame
 *    and it makes no continuing call: its checkpoints at its restarts
 *    store their restart values, its return computes r from the row
 *    tables;
 *  - a body that counts in neither an array nor rows probes its region's
 *    hash table inline at each record of its own (the table found in its
 *    unit's thread-local slot of the region; a miss of both probes calls
 *    __ipp_hmiss): a fresh body always (its region is a hash region), a
 *    summarized inlined copy likewise, a continuing one if it records at
 *    restarts (ipp_fin_proc_restarts);
 *  - a fresh body that makes continuing calls saves and restores
 *    __ipp_path if the map flags its procedure entry (what a signal
 *    handler can be).
 * Then what each execution does.  Every record (complete or partial) is
 * decoded and its active suffix walked, as ipp_derive does; an edge of
 * procedure P in a path of P's own Entry region belongs to P's fresh
 * activation (a path starts at its region's procedure, and no path enters
 * that procedure again: G*fin has no recursion), any other to a
 * continuing one.  Per G*fin edge and body:
 *  - GLOBAL_ENTRY: a fresh activation; CALL: a continuing one (frame push,
 *    __ipp_counts, the __ipp_path save, by the plan);
 *  - a NORMAL edge into a block or Exit_P: r += rho_e(nvc) if rho_e is
 *    not 0 and the body keeps r (a multiply if the body is a clone and a
 *    != 0: a fresh body's nvc is the constant 1), l += lambda_e in rows;
 *    into Exit_P a return (pop; a clone hands r back, computed from the
 *    row tables in a lazy body: one multiply); into a call vertex, the
 *    call (below);
 *  - a NORMAL edge into GExit_P: a dead end; its rho multiplies into the
 *    recorded value (clone, r kept); the frame, or a frameless clone's
 *    caller's frame through __ipp_top, is marked recorded;
 *  - SURR_EXIT: a split, its rho in the recorded value; SURR_ENTRY: the
 *    restart (r = onentry + rho, l = lambda), counted per surrogate
 *    arrival (abnormal restarts included);
 *  - RETURN: a continuing call came back (r = __ipp_path);
 *  - a call vertex reached: interprocedural (stand, arguments, psi of the
 *    return site: a multiply in a clone), dead (summarized, noreturn, the
 *    return site's only edge goes to GExit_P: recorded before; the arc
 *    counted at the site if through a pointer), or summarized (stand if
 *    framed; the arc counted at the site if through a pointer, context
 *    mode).
 * Each complete record ends at a return of a fresh activation, a split or
 * a dead end, in some body of the procedure where it ends: counted in the
 * array (fresh, array), in a row (a row body, and the point reachable by
 * a local path from the entry or a restart, or the body is lazy; when the
 * path's local part started at a return site, l >= nentry and __ipp_row
 * passes it to __ipp_record), else through __ipp_record.
 * If the plugin's placement changes, this file changes with it.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "internal.h"
#include "ipp_derive.h"
#include "ipp_local.h"

enum { FRESH, CONT };		/* the two bodies of a procedure */

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

/* ------------------------------------------------------------------ */
/* The bodies of each procedure                                         */
/* ------------------------------------------------------------------ */

struct plan {
	bool instrumented;
	bool framed;		/* its calls need a frame (both bodies) */
	bool restarts;		/* a function: it or a copy it keeps records at
				 * restarts, so it has a frame */
	bool copy;		/* an inlined copy kept as a virtual procedure */
	bool summarized;	/* ... entered through a summarized call: its
				 * path is its own, in its own Entry region */
	bool slot;		/* ... its checkpoints go to a slot of its
				 * function's frames: no push (IPP_CALL_SLOT) */
	ipp_id parent;		/* ... the procedure its call vertex lies in */
	bool keeps_copies;	/* a function with inlined copies kept: no rows */
	bool in_memory;		/* abnormal edges: r in the frame, no rows */
	bool continues;		/* makes interprocedural (continuing) calls */
	bool entry;		/* flagged entry: a fresh body that continues
				 * saves and restores __ipp_path */
	bool array;		/* the fresh body counts in an array */
	bool anchored;		/* a function whose fresh body counts in no
				 * array but takes the unit's counters at its
				 * entry for its copies (two or more summarized
				 * copies of array regions that no procedure
				 * counting in an array holds) */
	bool own_restarts;	/* records at its own restarts: a continuing
				 * body that counts in no row probes its hash
				 * table inline */
	ipp_local *local;	/* counts in rows (context mode), or NULL */
};

static bool rows(const struct plan *pl, int body)
{
	return pl->local && !(body == FRESH && pl->array);
}

/* Probes its region's hash table inline (ipp_instrument; ipp_abi.h,
 * __ipp_hmiss): a fresh body in a hash region, a continuing one that
 * records at its restarts; neither in rows.  (The flight recorder's
 * builds record through the runtime; events are derived for others.) */
static bool htab_body(const struct plan *pl, int body)
{
	/* a summarized inlined copy is a fresh activation of a region of its
	 * own (body_proc): in a hash region it probes through the region's
	 * slot, as a fresh body does (a copy never counts in rows) */
	if (rows(pl, body))
		return false;
	return body == FRESH ? !pl->array : pl->own_restarts;
}

/* r not kept on the edges: a continuing body in rows whose calls need no
 * frame and that makes no continuing call (ipp_instrument) */
static bool lazy_r(const struct plan *pl, int body)
{
	return body == CONT && rows(pl, body) && !pl->framed && !pl->continues;
}

/* Does a body of the procedure push a frame: for its calls, or (a function's) to move
 * its checkpoint on with the records at its restarts? */
static bool framed(const struct plan *pl)
{
	return pl->framed || pl->restarts;	/* both bodies alike */
}

/* Does an activation of the procedure push a frame of its own?  A framed
 * function or summarized copy does; a framed copy that continues its
 * caller's path keeps its checkpoints in the frame around it (ABI 9), and
 * one with a slot in its slot (ABI 13). */
static bool pushes_frame(const struct plan *pl)
{
	return framed(pl) && (!pl->copy || (pl->summarized && !pl->slot));
}

/* The procedure whose body runs code of procedure p: p itself, or for an
 * inlined copy that continues its caller's path, the procedure (function
 * or summarized copy) it was inlined into, transitively. */
static ipp_id body_proc(const struct plan *plan, ipp_id p)
{
	while (plan[p].copy && !plan[p].summarized)
		p = plan[p].parent;
	return p;
}


/* A summarized call that never returns: the plugin records the path
 * before it.  The call ends its block (GCC ends a block at a noreturn
 * call), which has no successor: the return site's only edge leads to
 * GExit_P.  (A block that ends in a dead end after a call that may return,
 * `f(); __builtin_trap();`, has the same edge, but f is not noreturn.) */
static bool dead_call(const ipp_fin *f, ipp_id v)
{
	const ipp_graph *g = ipp_fin_graph(f);
	return ipp_fin_call_summary(f, v) != IPP_SUM_NONE &&
	       (ipp_call_flags(g, v) & IPP_CALL_NORETURN) && ipp_vertex_nout(g, v + 1) == 1 &&
	       ipp_vertex_kind(g, ipp_edge_dst(g, ipp_vertex_out(g, v + 1, 0))) == IPP_V_GEXIT;
}

/* The procedure direct call vertex c calls: its callee, or else the
 * procedure its target names (a context-mode call to a function that is
 * not cloned is summarized as a call out of the unit); IPP_NONE if none
 * (plugin/instrument.cc, named_callee). */
static ipp_id named_callee(const ipp_graph *g, ipp_id c)
{
	ipp_id q = ipp_call_callee(g, c);
	const char *target = ipp_call_target_asm(g, c);
	if (q < 0 && target && !(ipp_call_flags(g, c) & IPP_CALL_INDIRECT))
		q = ipp_proc_find(g, target);
	return q;
}

static bool mpz_gt_u64(mpz_t x, uint64_t lim)
{
	mpz_t l;
	bool gt;
	mpz_init(l);
	mpz_import(l, 1, 1, sizeof(lim), 0, 0, &lim);
	gt = mpz_cmp(x, l) > 0;
	mpz_clear(l);
	return gt;
}

static struct plan *plans_new(const ipp_fin *f, const ipp_events_limits *lim)
{
	const ipp_graph *g = ipp_fin_graph(f);
	size_t np = ipp_graph_nprocs(g), nv = ipp_graph_nvertices(g);
	bool ctx = ipp_fin_mode(f) == IPP_MODE_CONTEXT;
	struct plan *plan = ipp_xcalloc(np + 1, sizeof(*plan));
	bool *sure = ipp_xcalloc(np + 1, sizeof(bool));
	mpz_t total;

	for (size_t pi = 0; pi < np; pi++) {
		plan[pi].instrumented = !(ipp_proc_flags(g, (ipp_id)pi) & IPP_PROC_SKIPPED);
		plan[pi].entry = (ipp_proc_flags(g, (ipp_id)pi) & IPP_PROC_ENTRY) != 0;
	}
	/* frames (ipp_decide_frames) and what else the calls decide */
	for (size_t vi = 0; vi < nv; vi++) {
		ipp_id v = (ipp_id)vi, p = ipp_vertex_proc(g, v);
		if (p < 0 || !plan[p].instrumented)
			continue;
		if (ipp_vertex_is_restart(g, v))
			plan[p].in_memory = true;	/* a setjmp or computed-goto target */
		if (ipp_vertex_kind(g, v) != IPP_V_CALL)
			continue;
		/* a function entered through a direct dead-end call has a
		 * frame of its own (ipp_decide_frames: no checkpoint of the
		 * caller stands at such a call while the callee runs) */
		ipp_id q;
		if (dead_call(f, v) && !(ipp_call_flags(g, v) & IPP_CALL_INLINED) &&
		    (q = named_callee(g, v)) >= 0 && plan[q].instrumented)
			sure[q] = true;
		if (ipp_call_flags(g, v) & IPP_CALL_TAIL)
			continue;	/* nothing is pending while it runs */
		if (ipp_call_flags(g, v) & IPP_CALL_INLINED)
			continue;	/* no call: the copy's own calls frame it
					 * (below), and the procedures around it */
		if (ipp_fin_call_summary(f, v) == IPP_SUM_NONE) {
			plan[p].continues = true;
			sure[p] = true;
		} else if ((ipp_call_flags(g, v) & IPP_CALL_INDIRECT) ||
			   ipp_vertex_is_restart(g, v + 1)) {
			sure[p] = true;		/* through a pointer, or setjmp */
		} else if (!dead_call(f, v) && !(ipp_call_flags(g, v) & IPP_CALL_LEAF)) {
			/* framed unless the callee is declared leaf (the
			 * map's flag; a map from before it has none) */
			sure[p] = true;
		}
	}
	/* inlined copies kept as virtual procedures (plugin/inline.cc): a
	 * copy frames itself for its own calls and restarts, and so does
	 * every procedure around it (ipp_decide_frames); the function's
	 * continuing calls and restarts include its copies' */
	for (size_t vi = 0; vi < nv; vi++) {
		ipp_id v = (ipp_id)vi, q;
		if (ipp_vertex_kind(g, v) != IPP_V_CALL || !(ipp_call_flags(g, v) & IPP_CALL_INLINED))
			continue;
		q = ipp_call_callee(g, v);
		if (q < 0 || !plan[q].instrumented || ipp_vertex_proc(g, v) < 0)
			continue;
		plan[q].copy = true;
		plan[q].summarized = ipp_fin_call_summary(f, v) != IPP_SUM_NONE;
		plan[q].slot = (ipp_call_flags(g, v) & IPP_CALL_SLOT) != 0;
		plan[q].parent = ipp_vertex_proc(g, v);
		if (ipp_fin_proc_restarts(f, q))
			sure[q] = true;
	}
	for (size_t pi = 0; pi < np; pi++) {
		ipp_id q = (ipp_id)pi;
		if (!plan[pi].copy)
			continue;
		for (; plan[q].copy; q = plan[q].parent) {	/* up to its function */
			ipp_id up = plan[q].parent;
			sure[up] |= sure[pi];
			plan[up].continues |= plan[pi].continues;
		}
		plan[q].keeps_copies = true;
		if (ipp_fin_proc_restarts(f, (ipp_id)pi))
			plan[q].restarts = true;
	}
	mpz_init(total);
	for (size_t pi = 0; pi < np; pi++) {
		ipp_id p = (ipp_id)pi, r;
		struct plan *pl = &plan[pi];
		if (!pl->instrumented)
			continue;
		pl->framed = pl->in_memory || sure[pi];
		if (!pl->copy && ipp_fin_proc_restarts(f, p))
			pl->restarts = true;
		r = ipp_fin_region_find(f, ipp_proc_asm(g, p));
		if (r != IPP_NONE) {
			ipp_fin_region_total(f, r, total);
			pl->array = !mpz_gt_u64(total, lim->array_max);
		}
		if (pl->copy)
			continue;	/* no rows, no probes, no frame for restarts */
		/* rows (ipp_prepare_rows: not with copies kept) */
		if (ctx && !pl->in_memory && ipp_fin_proc_restarts(f, p) && !pl->keeps_copies) {
			ipp_local *l = ipp_local_new(f, p, UINT64_MAX >> 1);
			if (l && ipp_local_nentry(l) > 0 && ipp_local_nentry(l) <= lim->row_max)
				pl->local = l;
			else
				ipp_local_free(l);
		}
		/* inline probes (ipp_instrument: a body with neither array
		 * nor rows; htab_body) */
		pl->own_restarts = ipp_fin_proc_restarts(f, p);
	}
	/* the anchors (plugin/instrument.cc, setup_copies; intra mode) */
	{
		size_t *alone = ipp_xcalloc(np ? np : 1, sizeof(size_t));
		for (size_t pi = 0; pi < np; pi++) {
			ipp_id up;
			if (!plan[pi].copy || !plan[pi].summarized || !plan[pi].array)
				continue;
			for (up = plan[pi].parent; plan[up].copy; up = plan[up].parent)
				if (plan[up].summarized && plan[up].array)
					break;
			if (!plan[up].copy && !plan[up].array)
				alone[up]++;
		}
		for (size_t pi = 0; pi < np; pi++)
			plan[pi].anchored = !ctx && !plan[pi].copy && alone[pi] >= 2;
		free(alone);
	}
	mpz_clear(total);
	free(sure);
	return plan;
}

static void plans_free(struct plan *plan, size_t np)
{
	for (size_t i = 0; i < np; i++)
		ipp_local_free(plan[i].local);
	free(plan);
}

/* ------------------------------------------------------------------ */
/* Walking the records                                                  */
/* ------------------------------------------------------------------ */

struct walk {
	const ipp_fin *f;
	const struct plan *plan;
	ipp_events *ev;
	uint64_t *cnt[2];	/* per G*fin edge and body: active-suffix occurrences */
};

/* The procedure whose activation executes G*fin edge e. */
static ipp_id owner(const ipp_fin *f, ipp_id e)
{
	switch (ipp_fin_ekind(f, e)) {
	case IPP_E_CALL:		/* the callee's entry */
	case IPP_E_RETURN:		/* back in the caller */
	case IPP_E_GLOBAL_ENTRY:
		return ipp_fin_vproc(f, ipp_fin_edst(f, e));
	default:
		return ipp_fin_vproc(f, ipp_fin_esrc(f, e));
	}
}

/* Did the local part of the path recorded at its edge n-2 start at the
 * return site of a continuing call, rather than at the entry or a restart?
 * Back from the end, the recording activation's own edges (NORMAL,
 * SUMMARY) lead to the edge that entered it, restarted it, or returned
 * into it: the first edge of another kind. */
static bool from_return_site(const ipp_fin *f, const ipp_path *path)
{
	for (size_t j = path->nedges - 1; j-- > 0;) {
		enum ipp_ekind k = ipp_fin_ekind(f, path->edges[j]);
		if (k == IPP_E_RETURN)
			return true;
		if (k == IPP_E_SURR_ENTRY || k == IPP_E_CALL || k == IPP_E_GLOBAL_ENTRY)
			return false;
	}
	return false;
}

/* Where and how a complete path (of region procedure x) was recorded. */
static int count_record(struct walk *w, const ipp_path *path, uint64_t n, ipp_id x)
{
	const ipp_fin *f = w->f;
	ipp_events *ev = w->ev;
	ipp_id last, at, p;
	const struct plan *pl;
	int body;

	if (path->nedges < 3)
		return -1;
	last = path->edges[path->nedges - 2];
	at = ipp_fin_esrc(f, last);
	if (ipp_fin_ekind(f, last) == IPP_E_SURR_EXIT) {
		add(ev, &ev->rec_split, n);
	} else if (ipp_fin_ekind(f, last) != IPP_E_NORMAL) {
		return -1;
	} else if (ipp_fin_vkind(f, ipp_fin_edst(f, last)) == IPP_V_GEXIT) {
		add(ev, &ev->rec_dead, n);
	} else if (ipp_fin_vkind(f, ipp_fin_edst(f, last)) == IPP_V_EXIT) {
		add(ev, &ev->rec_return, n);
		at = ipp_fin_edst(f, last);
	} else {
		return -1;
	}
	add(ev, &ev->records, n);
	/* a record in a continuing copy is its body's: in its counters,
	 * never probed inline (emit_count) */
	p = body_proc(w->plan, ipp_fin_vproc(f, at));
	pl = &w->plan[p];
	body = p == x ? FRESH : CONT;
	if (body == FRESH && pl->array) {
		add(ev, &ev->rec_array, n);
	} else if (rows(pl, body) && (lazy_r(pl, body) ||
				      (ipp_local_reach(pl->local, at) & IPP_LOCAL_FROM_ENTRY))) {
		add(ev, &ev->rec_row, n);
		if (from_return_site(f, path))
			add(ev, &ev->rec_row_return, n);
	} else if (htab_body(pl, body) && ipp_fin_vproc(f, at) == p) {
		add(ev, &ev->rec_probe, n);
	} else {
		add(ev, &ev->rec_hash, n);
	}
	return 0;
}

/* One record: its active suffix (from the last surrogate entry on) by
 * body, and if complete where it was counted. */
static int walk_record(struct walk *w, const ipp_path *path, uint64_t n, ipp_id x, bool complete)
{
	const ipp_fin *f = w->f;
	size_t s = 0;
	for (size_t i = path->nedges; i-- > 1;)
		if (ipp_fin_ekind(f, path->edges[i]) == IPP_E_SURR_ENTRY) {
			s = i;
			break;
		}
	for (size_t i = s; i < path->nedges; i++) {
		ipp_id e = path->edges[i];
		add(w->ev, &w->cnt[body_proc(w->plan, owner(f, e)) == x ? FRESH : CONT][e], n);
	}
	return complete ? count_record(w, path, n, x) : 0;
}

/* Decodes every record of pm into the walk.  Returns -1 with a message. */
static int walk_module(struct walk *w, const ipp_prof_module *pm, char *err, size_t errlen)
{
	const ipp_fin *f = w->f;
	ipp_id *rmap = ipp_xmalloc((pm->nregions + 1) * sizeof(ipp_id));
	ipp_path path;
	char e2[256];
	int rc = -1;

	ipp_path_init(&path);
	for (size_t i = 0; i < pm->nregions; i++)
		if ((rmap[i] = ipp_fin_region_find(f, pm->regions[i])) == IPP_NONE) {
			ipp_seterr(err, errlen, "region %s of the profile is not in the map",
				   pm->regions[i]);
			goto done;
		}
	for (size_t i = 0; i < pm->npaths + pm->npartials; i++) {
		bool complete = i < pm->npaths;
		const ipp_prof_partial *q = complete ? NULL : &pm->partials[i - pm->npaths];
		uint32_t reg = complete ? pm->paths[i].region : q->region;
		uint64_t n = complete ? pm->paths[i].count : q->count;
		ipp_region_info ri;
		int d;
		if (n == 0)
			continue;
		if (reg >= pm->nregions) {
			ipp_seterr(err, errlen, "record %zu: bad region index", i);
			goto done;
		}
		d = complete ? ipp_decode_pnum(f, rmap[reg], &pm->paths[i].num, NULL, 0, &path, e2,
					       sizeof(e2))
			     : ipp_decode_pnum(f, rmap[reg], &q->num, q->stack, q->nstack, &path,
					       e2, sizeof(e2));
		if (d < 0) {
			ipp_seterr(err, errlen, "%s record %zu of region %s: %s",
				   complete ? "path" : "partial", i, pm->regions[reg], e2);
			goto done;
		}
		ipp_fin_region(f, rmap[reg], &ri);
		if (walk_record(w, &path, n, ri.proc, complete) < 0) {
			ipp_seterr(err, errlen, "path record %zu of region %s does not end at a "
				   "return, a split or a dead end", i, pm->regions[reg]);
			goto done;
		}
	}
	rc = 0;
done:
	ipp_path_free(&path);
	free(rmap);
	return rc;
}

/* ------------------------------------------------------------------ */
/* From edges to events                                                 */
/* ------------------------------------------------------------------ */

/* Does rho_e (or psi_v) multiply by nvc in a clone, and is it non-zero? */
static bool lin_mult(const ipp_fin *f, ipp_id x, bool psi, bool *nonzero)
{
	mpz_t a, b;
	bool mult;
	mpz_inits(a, b, NULL);
	if (psi)
		ipp_fin_psi(f, x, a, b);
	else
		ipp_fin_rho(f, x, a, b);
	mult = mpz_sgn(a) != 0;
	if (nonzero)
		*nonzero = mult || mpz_sgn(b) != 0;
	mpz_clears(a, b, NULL);
	return mult;
}

/* Does summarized copy pl take its counters from those of a procedure
 * around it?  The nearest one that counts in an array took them at its
 * entry, which dominates the copy's: a summarized copy of an array region,
 * or the function's fresh body of one, or the fresh body's anchor (a
 * continuing copy counts with its caller).  The unit's counters are one array in every thread (ipp_abi.h,
 * ABI 11), so the copy's are at a fixed distance from those: no select of
 * its own (plugin/instrument.cc, enter_copy). */
static bool counts_around(const struct walk *w, const struct plan *pl, int body)
{
	for (const struct plan *q = &w->plan[pl->parent];; q = &w->plan[q->parent]) {
		if (!q->copy)
			return body == FRESH && (q->array || q->anchored);
		if (q->summarized)
			return q->array;
	}
}

/* An activation of p in body `body`, fresh or continuing (an inlined
 * copy: entered through its call vertex, its frame if it has one and, a
 * summarized one, its counters if counted in an array, nothing else). */
static void activation(struct walk *w, ipp_id p, int body, bool fresh, uint64_t n)
{
	const struct plan *pl = &w->plan[p];
	ipp_events *ev = w->ev;
	add(ev, &ev->activations, n);
	add(ev, fresh ? &ev->fresh : &ev->continuing, n);
	if (pushes_frame(pl))
		add(ev, &ev->frames, n);
	else if (framed(pl) && pl->slot)
		add(ev, &ev->slots, n);
	if (pl->copy) {
		if (pl->summarized && pl->array && !counts_around(w, pl, body))
			add(ev, &ev->counts_calls, n);
		return;
	}
	if (body != FRESH)
		return;
	if (pl->array || pl->anchored)
		add(ev, &ev->counts_calls, n);
	if (pl->continues && pl->entry)
		add(ev, &ev->path_saves, n);
}

static void call_site(struct walk *w, ipp_id v, int body, uint64_t n)
{
	const ipp_fin *f = w->f;
	const ipp_graph *g = ipp_fin_graph(f);
	const struct plan *pl = &w->plan[ipp_vertex_proc(g, v)];
	ipp_events *ev = w->ev;
	if (ipp_call_flags(g, v) & IPP_CALL_INLINED) {
		/* the call of an inlined copy: no call, but the copy's entry
		 * (enter_copy): nvc of a continuing one in a clone, and the
		 * caller's stores around a copy with a frame of its own (a
		 * continuing copy's are at its return, edge_events) */
		const struct plan *q = &w->plan[ipp_call_callee(g, v)];
		if (!q->summarized && body == CONT && lin_mult(f, v + 1, true, NULL))
			add(ev, &ev->multiplies, n);
		if (pushes_frame(q) || (framed(q) && q->slot))
			add(ev, &ev->calls_framed, n);
		return;
	}
	add(ev, &ev->calls, n);
	if (ipp_fin_is_cut_vertex(f, v))
		add(ev, &ev->calls_cut, n);
	if (ipp_fin_call_summary(f, v) == IPP_SUM_NONE) {
		add(ev, &ev->calls_interproc, n);
		if (body == CONT && lin_mult(f, v + 1, true, NULL))
			add(ev, &ev->multiplies, n);
	} else if (dead_call(f, v)) {
		add(ev, &ev->calls_dead, n);
		if (ipp_call_flags(g, v) & IPP_CALL_INDIRECT)
			add(ev, &ev->calls_indirect, n);	/* its arc too */
	} else {
		add(ev, &ev->calls_summarized, n);
		if (framed(pl))
			add(ev, &ev->calls_framed, n);
		if (framed(pl) && (ipp_call_flags(g, v) & IPP_CALL_BARE))
			add(ev, &ev->calls_bare, n);	/* the vertex alone */
		if (ipp_call_flags(g, v) & IPP_CALL_INDIRECT)
			add(ev, &ev->calls_indirect, n);
	}
}

/* n executions of G*fin edge e in body `body` of its procedure. */
static void edge_events(struct walk *w, ipp_id e, int body, uint64_t n)
{
	const ipp_fin *f = w->f;
	ipp_id p = owner(f, e), dst = ipp_fin_edst(f, e);
	const struct plan *pl = &w->plan[p];
	ipp_events *ev = w->ev;
	bool keeps_r = !lazy_r(pl, body), clone = body == CONT, nonzero;
	enum ipp_vkind dk = ipp_fin_vkind(f, dst);

	switch (ipp_fin_ekind(f, e)) {
	case IPP_E_GLOBAL_ENTRY:
		if (dk == IPP_V_ENTRY)
			activation(w, p, body, true, n);
		break;
	case IPP_E_CALL:
		activation(w, p, body, false, n);
		break;
	case IPP_E_RETURN:
		if (!pl->copy)		/* a copy hands nothing back */
			add(ev, &ev->interproc_returns, n);
		else if (framed(pl) && !pl->summarized)
			/* a continuing copy's checkpoints went to the frame
			 * around it: that frame stands at the return site
			 * again (frame.path, frame.vertex) */
			add(ev, &ev->calls_framed, n);
		break;
	case IPP_E_SURR_EXIT:		/* a split: rho in the recorded value */
		if (keeps_r && clone && lin_mult(f, e, false, NULL))
			add(ev, &ev->multiplies, n);
		break;
	case IPP_E_SURR_ENTRY:		/* the restart (a lazy body computes it
					 * for its checkpoint) */
		add(ev, &ev->restarts, n);
		if (clone && lin_mult(f, e, false, NULL))
			add(ev, &ev->multiplies, n);
		if (dk == IPP_V_CALL)
			call_site(w, dst, body, n);	/* a cut call vertex */
		break;
	case IPP_E_NORMAL:
		if (dk == IPP_V_GEXIT) {	/* a dead end: rho in the recorded value */
			if (keeps_r && clone && lin_mult(f, e, false, NULL))
				add(ev, &ev->multiplies, n);
			if (framed(pl) || clone)
				add(ev, &ev->dead_marks, n);
			if (!framed(pl) && clone)
				add(ev, &ev->dead_marks_top, n);
			break;
		}
		if (lin_mult(f, e, false, &nonzero) && keeps_r && clone)
			add(ev, &ev->multiplies, n);
		/* with increments on chords, a fresh body's edge adds inc_e,
		 * not rho_e (a continuing clone keeps rho_e(nvc)) */
		if (ipp_fin_has_offsets(f) && body == FRESH)
			nonzero = ipp_fin_inc(f, e) != 0;
		if (nonzero && keeps_r)
			add(ev, &ev->increments, n);
		if (rows(pl, body) && ipp_local_edge(pl->local, e) != 0)
			add(ev, &ev->local_increments, n);
		if (dk == IPP_V_EXIT && pl->copy) {
			if (pushes_frame(pl))	/* a copy leaves: its frame popped */
				add(ev, &ev->frame_pops, n);
		} else if (dk == IPP_V_EXIT) {
			add(ev, &ev->returns, n);
			if (framed(pl))
				add(ev, &ev->frame_pops, n);
			if (clone)
				add(ev, &ev->returns_continuing, n);
			if (clone && !keeps_r) {
				add(ev, &ev->returns_lazy, n);
				add(ev, &ev->multiplies, n);	/* a[l] * nvc */
			}
		} else if (dk == IPP_V_CALL) {
			call_site(w, dst, body, n);
		}
		break;
	default:
		break;
	}
}

/* The records of pm by the size of their region (a region the map does
 * not know, which ipp_profile_check rejects, counts as big), and the
 * profile's sums. */
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
		if (!mpz_gt_u64(t, array_max))
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

int ipp_events_derive(const ipp_fin *f, const ipp_prof_module *pm,
		      const ipp_events_limits *lim, ipp_events *ev, char *err, size_t errlen)
{
	const ipp_graph *g = ipp_fin_graph(f);
	enum ipp_mode mode = ipp_fin_mode(f);
	size_t np = ipp_graph_nprocs(g), nfe = ipp_fin_nedges(f);
	struct walk w;
	int rc;

	memset(ev, 0, sizeof(*ev));
	if (mode != IPP_MODE_INTRA && mode != IPP_MODE_CONTEXT) {
		ipp_seterr(err, errlen, "no events in %s mode: the plugin instruments intra and "
			   "context mode only", ipp_mode_name(mode));
		return -1;
	}
	if (pm->mode != mode) {
		ipp_seterr(err, errlen, "the profile module was recorded in %s mode, the map is %s",
			   ipp_mode_name(pm->mode), ipp_mode_name(mode));
		return -1;
	}
	w.f = f;
	w.ev = ev;
	w.plan = plans_new(f, lim);
	w.cnt[FRESH] = ipp_xcalloc(nfe + 1, sizeof(uint64_t));
	w.cnt[CONT] = ipp_xcalloc(nfe + 1, sizeof(uint64_t));
	rc = walk_module(&w, pm, err, errlen);
	if (rc == 0) {
		for (size_t e = 0; e < nfe; e++)
			for (int b = FRESH; b <= CONT; b++)
				if (w.cnt[b][e] && owner(f, (ipp_id)e) >= 0 &&
				    w.plan[owner(f, (ipp_id)e)].instrumented)
					edge_events(&w, (ipp_id)e, b, w.cnt[b][e]);
		region_split(f, pm, lim->array_max, ev);
	} else {
		memset(ev, 0, sizeof(*ev));
	}
	free(w.cnt[FRESH]);
	free(w.cnt[CONT]);
	plans_free((struct plan *)w.plan, np);
	return rc;
}
