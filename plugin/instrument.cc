/* instrument.cc -- step 3 of the pass: the code inserted into each body of
 * each instrumented function, from its procedure's numbering in G*fin
 * (docs/PROTOCOL.md, rule by rule).
 *
 * A procedure has up to two bodies (struct body): the original, where a
 * path starts fresh in the procedure's Entry region (path 0, nvc 1: every
 * increment is a constant), and its continuing clone (clone.cc), which
 * takes the path number, psi_r(nvc) and the region as arguments and hands
 * the number back through __ipp_path.  In either:
 *  - a frame pushed on the thread's list at entry and popped at the
 *    return, if the function makes calls that may not return (ipp_decide_
 *    frames: calls to leaf functions and calls that never return need
 *    none);
 *  - path register updates on edges (r += rho_e(nvc));
 *  - at a back edge or a cut, record and restart;
 *  - at a return, record (fresh) or hand the number back (continuing);
 *  - before a call, store the path number and call vertex in the frame
 *    (partial paths); before an interprocedural call, call the callee's
 *    clone with the path state and take the number back after it; before a
 *    call through a pointer (context mode) count the arc (site, target) in
 *    the site's cache;
 *  - before a call that never returns, record;
 *  - setjmp, longjmp, computed goto and nonlocal goto: the receiver's
 *    restart and the abandoned frames (ipp_abi.h).
 * Functions with abnormal edges keep their path register and the state
 * they carry from entry to return in memory, not in SSA.
 * Inlined copies kept as virtual procedures (context mode's default,
 * inline.cc) have registers of their own and code on the routes of the
 * CFG edges that enter, cross and leave them (docs/PROTOCOL.md, "Inlined
 * copies").
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include "gcc-common.h"
#include "ipp_plugin.h"
#define IPP_ABI_TYPES_ONLY
#include "ipp_abi.h"

/* The type of path numbers, nvc and the ABI's 64-bit fields. */
#define ipp_u64 long_long_unsigned_type_node

/* ------------------------------------------------------------------ */
/* Which functions have a frame                                         */
/* ------------------------------------------------------------------ */

/* The path register lives in memory (the frame) in functions with abnormal
 * edges: SSA values must not flow across them.  Likewise in functions with
 * landing pads, which are restart points as setjmp's return sites are
 * (unwind.cc): the map tells restart points apart from nothing else, and
 * the derivation of events (ippcore/events.c) reads a restart point as
 * abnormal edges. */
static bool has_abnormal_edges(function *fun)
{
	basic_block bb;
	FOR_EACH_BB_FN(bb, fun) {
		edge e;
		edge_iterator ei;
		FOR_EACH_EDGE(e, ei, bb->succs)
			if (e->flags & (EDGE_ABNORMAL | EDGE_EH))
				return true;
	}
	return false;
}

/* Is bb a landing pad: is it entered by EH edges? */
static bool landing_pad_p(basic_block bb)
{
	edge e;
	edge_iterator ei;
	FOR_EACH_EDGE(e, ei, bb->preds)
		if (e->flags & EDGE_EH)
			return true;
	return false;
}

/* Is call vertex v a tail call kept a sibling call (tailcall.cc): the
 * path through its return is recorded, the frame popped, before it? */
static bool tail_site(const ipp_graph *g, ipp_id v)
{
	return (ipp_call_flags(g, v) & IPP_CALL_TAIL) != 0;
}

/* Does the procedure's body make tail calls? */
static bool makes_tail_calls(const ipp_graph *g, const struct body *b)
{
	for (size_t k = 0; k < b->nv; k++)
		if (b->call_stmt[k] && ipp_vertex_kind(g, b->vbase + (ipp_id)k) == IPP_V_CALL &&
		    tail_site(g, b->vbase + (ipp_id)k))
			return true;
	return false;
}

/* Is call vertex v a dead end: a call that never returns and that does not
 * hand the path to a callee (the path is recorded before it)? */
static bool dead_end_call(const struct body *b, const ipp_fin *fin, ipp_id v)
{
	return body_dead(b, v + 1) == body_call(b, v) &&
	       ipp_fin_call_summary(fin, v) != IPP_SUM_NONE;
}

/* A frame records where an activation stands when a call it makes never
 * returns (exit, longjmp, a fatal signal in the callee).  Not needed for
 * calls to leaf functions (they return to the unit only by returning: a
 * crash inside one is asynchronous, and the path stops where the frame
 * last stood, docs/PROTOCOL.md) nor for dead-end calls (the path is
 * recorded before them).  Needed for every interprocedural call (the
 * callee continues the path and, if frameless itself, marks our frame when
 * it records it), for setjmp (its note names our frame), in functions with abnormal edges,
 * and in every body that records at its restarts (below). */
/* An inlined copy kept as a virtual procedure (inline.cc) keeps a
 * checkpoint by the same rule, for the calls and restarts in its own
 * blocks, and then so does every procedure around it.  A copy entered
 * through a summarized call starts a path of its own: it pushes a frame of
 * its own, as a fresh activation does.  A copy that continues its caller's
 * path pushes none (ABI 9): its checkpoints go to the frame around it, the
 * function's or a summarized copy's, and the module lists its vertices
 * with its call vertex (ipp_copy_runs), so that the runtime's stop stack
 * names the copy's call site as a frame of its own would have. */
static int copy_of_proc(const fninfo *fi, ipp_id p);

/* The function of the unit that direct call vertex c calls, instrumented,
 * or NULL: the callee procedure of G*, or else the procedure its target
 * names (a context-mode call to a function that is not cloned has no
 * callee procedure: it is summarized as a call out of the unit).  Not
 * checked against interposition: the unit's definition is named, whether
 * or not it is the one that runs.  ippcore/events.c resolves it alike. */
static fninfo *named_callee(struct unit *u, ipp_id c)
{
	ipp_id q = ipp_call_callee(u->g, c);
	const char *target = ipp_call_target_asm(u->g, c);
	if (q == IPP_NONE && target && !(ipp_call_flags(u->g, c) & IPP_CALL_INDIRECT))
		q = ipp_proc_find(u->g, target);
	fninfo *fi = q != IPP_NONE ? ipp_fn_of_proc(u, q) : NULL;
	return fi && !fi->skip ? fi : NULL;
}

/* fi needs a frame for vertex v, and so does every copy around v. */
static void frame_at(const struct unit *u, fninfo *fi, ipp_id v)
{
	fi->framed = true;
	for (int c = copy_of_proc(fi, ipp_vertex_proc(u->g, v)); c >= 0; c = fi->inl.v[c].parent)
		fi->inl.v[c].framed = true;
}

/* Slots (ipp_abi.h, struct ipp_rt_slot): in intra mode a copy that keeps
 * a checkpoint (summarized: every copy of intra mode) takes slot d of its
 * function's frames instead of a frame of its own, d = 1 + the slot of
 * the nearest such copy around it (0: the function's frame); copies side
 * by side share theirs, as they are never active together.  Not in a
 * function whose frame __ipp_receive reads (abnormal edges: in_memory),
 * nor deeper than IPP_FRAME_SLOT_MAX.  Each slotted call site is flagged
 * IPP_CALL_SLOT in the map, for the events (ippcore/events.c). */
static void assign_slots(struct unit *u, const ipp_fin *fin, fninfo *fi)
{
	struct inlines *in = &fi->inl;
	unsigned deepest = 0;
	for (int k = 0; k < in->n; k++)
		in->v[k].slot = 0;
	if (!ipp_opts.slots || ipp_fin_mode(fin) != IPP_MODE_INTRA || !fi->framed || fi->in_memory)
		return;
	for (int k = 0; k < in->n; k++) {
		struct ipp_inl *c = &in->v[k];
		unsigned around = 0;
		if (c->flat || !c->framed || ipp_fin_call_summary(fin, c->call) == IPP_SUM_NONE)
			continue;
		for (int a = c->parent; a >= 0 && !around; a = in->v[a].parent)
			around = in->v[a].slot;
		c->slot = around + 1;
		deepest = MAX(deepest, around + 1);
	}
	for (int k = 0; k < in->n; k++) {
		struct ipp_inl *c = &in->v[k];
		if (deepest > IPP_FRAME_SLOT_MAX)
			c->slot = 0;
		else if (c->slot) {
			ipp_set_call_flags(u->g, c->call, ipp_call_flags(u->g, c->call) | IPP_CALL_SLOT);
			u->slot_at[c->call] = c->slot;
		}
	}
}

void ipp_decide_frames(struct unit *u, const ipp_fin *fin)
{
	for (size_t i = 0; i < u->nfns; i++) {
		fninfo *fi = &u->fns[i];
		const struct body *b = &fi->orig;
		if (fi->skip)
			continue;
		fi->in_memory = has_abnormal_edges(fi->fun);
		fi->framed = fi->in_memory;
		for (int k = 0; k < fi->inl.n; k++)
			fi->inl.v[k].framed = false;
		for (size_t k = 0; k < b->nv; k++) {
			ipp_id v = b->vbase + (ipp_id)k;
			gcall *call = b->call_stmt[k];
			bool needs;
			if (!call || ipp_vertex_kind(u->g, v) != IPP_V_CALL)
				continue;
			/* a tail call: nothing is pending while it runs */
			if (tail_site(u->g, v))
				continue;
			needs = ipp_fin_call_summary(fin, v) == IPP_SUM_NONE ||
				body_setjmp(b, v + 1) || !gimple_call_fndecl(call) ||
				(!dead_end_call(b, fin, v) && !(gimple_call_flags(call) & ECF_LEAF));
			if (needs)
				frame_at(u, fi, v);
		}
		fi->calls_framed = fi->framed;
		/* A body or copy that records at its restarts (back edges,
		 * cuts) keeps a checkpoint that moves with them: after a
		 * restart, a crash must stop the path that restarted.  Marking
		 * the caller's checkpoint "recorded" instead would lose that
		 * path's prefix, and with it the flow through the restart
		 * vertex (the path before it counted, the one after it not):
		 * `ipp check` rejects such a profile. */
		for (size_t k = 0; k < b->nv; k++)
			if (u->exit_of[b->vbase + (ipp_id)k] != IPP_NONE)
				frame_at(u, fi, b->vbase + (ipp_id)k);
		assign_slots(u, fin, fi);
	}
	/* While a dead-end call's callee runs, its caller's path is recorded
	 * and its frame marked so: no checkpoint stands at the call, so the
	 * runtime cannot tell that a callee without a frame began (the
	 * frameless callees table: ipp_frameless_callees), and a crash or an
	 * exception inside it would lose its activation: the caller counted
	 * the call, the callee no entry, and `ipp check` rejects the profile.
	 * So a function of the unit entered through a direct dead-end call
	 * has a frame of its own (it usually runs once; SQLite: no cost;
	 * testsuite/runtime/ends/deadend_crash.c).  A tail call's callee is
	 * in the same position (its caller's frame is gone), but a frame for
	 * each cost SQLite 3.5% (docs/PROTOCOL.md, "Tail calls"). */
	for (size_t i = 0; i < u->nfns; i++) {
		fninfo *fi = &u->fns[i];
		const struct body *b = &fi->orig;
		if (fi->skip)
			continue;
		for (size_t k = 0; k < b->nv; k++) {
			ipp_id v = b->vbase + (ipp_id)k;
			fninfo *q;
			if (!b->call_stmt[k] || ipp_vertex_kind(u->g, v) != IPP_V_CALL)
				continue;
			if (dead_end_call(b, fin, v) &&
			    !(ipp_call_flags(u->g, v) & IPP_CALL_INLINED) &&
			    (q = named_callee(u, v)))
				q->framed = true;
		}
	}
	/* main has a frame: nothing of ours calls it, so no caller's
	 * checkpoint and no callees table can stand for a frameless main
	 * when a signal handler ends the process inside it (exit() from a
	 * SIGFPE handler: torture 20101011-1.c).  Once per process. */
	for (size_t i = 0; i < u->nfns; i++) {
		fninfo *fi = &u->fns[i];
		if (!fi->skip && TREE_PUBLIC(fi->node->decl) && DECL_NAME(fi->node->decl) &&
		    MAIN_NAME_P(DECL_NAME(fi->node->decl)))
			fi->framed = true;
	}
}

/* ------------------------------------------------------------------ */
/* Increments on chords (ippcore/chords.c)                              */
/* ------------------------------------------------------------------ */

/* How often a CFG edge runs, by GCC's estimate (guessed at -O1 and up;
 * at -O0 every edge weighs the same and the tree is the first one by
 * edge id). */
static uint64_t edge_weight(edge ge)
{
	profile_count c = ge->count();
	if (!c.initialized_p())
		return 1;
	gcov_type n = c.to_gcov_type();
	return n > 0 ? (uint64_t)n : 0;
}

/* The path register's increments go on the chords of a maximum-weight
 * spanning tree of each procedure (Ball & Larus, TOPLAS'94), weighted by
 * GCC's estimated edge counts, in the procedures that start paths of their
 * own with nvc = 1: intra mode's, and context mode's with an Entry region
 * (their fresh bodies; their continuing clones add rho(nvc)) and its
 * summarized inlined copies (u->chorded).  A G* edge's increment is
 * emitted on the CFG edge of its route, so the fin edge of every edge of
 * a route weighs that CFG edge's count; the edges that lie inside a block
 * (between the vertices of its chain) have no code of their own and weigh
 * IPP_CHORD_FIXED.  Not in functions that keep the register in memory
 * (abnormal edges, landing pads: their restarts compare and set it) nor
 * in their inlined copies: those keep rho on their edges (offset 0). */
void ipp_place_chords(struct unit *u, ipp_fin *fin)
{
	size_t ne = ipp_fin_nedges(fin), np = ipp_graph_nprocs(u->g);
	uint64_t *weight;
	bool *enabled;
	enum ipp_mode mode = ipp_fin_mode(fin);
	if ((mode != IPP_MODE_INTRA && mode != IPP_MODE_CONTEXT) || !ipp_opts.chords)
		return;
	weight = XNEWVEC(uint64_t, ne + 1);
	enabled = u->chorded = XCNEWVEC(bool, np + 1);
	for (size_t e = 0; e < ne; e++)
		weight[e] = IPP_CHORD_FIXED;
	for (size_t i = 0; i < u->nfns; i++) {
		fninfo *fi = &u->fns[i];
		const struct body *b = &fi->orig;
		if (fi->skip || fi->in_memory)
			continue;
		enabled[fi->proc] = ipp_fin_region_find(fin, ipp_proc_asm(u->g, fi->proc)) != IPP_NONE;
		for (int k = 0; k < fi->inl.n; k++) {
			ipp_id q = fi->inl.v[k].proc;
			if (q != IPP_NONE)
				enabled[q] = ipp_fin_region_find(fin, ipp_proc_asm(u->g, q)) != IPP_NONE;
		}
		for (size_t k = 0; k < b->ne; k++) {
			edge ge = b->gedge[k];
			uint64_t w;
			if (!ge)
				continue;
			w = edge_weight(ge);
			for (ipp_id x = b->ebase + (ipp_id)k; x != IPP_NONE; x = u->rnext[x])
				if (u->fin_of[x] != IPP_NONE)
					weight[u->fin_of[x]] = w;
		}
	}
	ipp_fin_place_chords(fin, weight, enabled);
	XDELETEVEC(weight);
}

/* The module's offsets table: the vertices where a frame's checkpoint may
 * stand -- those the instrumentation stored (emit_stand), the vertex
 * before each such call (where the runtime stops a path whose callee
 * overflowed the stack in its prologue, docs/PROTOCOL.md), and the entries
 * (offset 0) -- in runs of consecutive such vertices with the same offset;
 * runs of offset 0 are left out.  The vertices of a block's chain share
 * their offset, so a run is about a block.  After every body is
 * instrumented.  *out: XNEWVEC. */
void ipp_offset_runs(const struct unit *u, const ipp_fin *fin, struct ipp_offset_run **out,
		     size_t *nout)
{
	size_t nv = ipp_graph_nvertices(u->g), n = 0;
	struct ipp_offset_run *runs = XNEWVEC(struct ipp_offset_run, nv + 1), cur;
	bool open = false;
	for (size_t x = 0; ipp_fin_has_offsets(fin) && x < nv; x++) {
		ipp_id v = (ipp_id)x;
		bool before_call = x + 1 < nv && u->stands[x + 1] &&
				   ipp_vertex_kind(u->g, v + 1) == IPP_V_CALL;
		uint64_t off;
		if (!u->stands[x] && !before_call && ipp_vertex_kind(u->g, v) != IPP_V_ENTRY)
			continue;
		off = ipp_fin_offset(fin, v);
		if (open && off == cur.offset) {
			cur.last = v;
			continue;
		}
		if (open && cur.offset)
			runs[n++] = cur;
		cur.first = cur.last = v;
		cur.offset = off;
		open = true;
	}
	if (open && cur.offset)
		runs[n++] = cur;
	*out = runs;
	*nout = n;
}

void ipp_restart_points(const struct unit *u, const ipp_fin *fin,
			struct ipp_restart_point **out, size_t *nout)
{
	size_t nv = ipp_graph_nvertices(u->g), n = 0;
	struct ipp_restart_point *pts = XNEWVEC(struct ipp_restart_point, nv + 1);
	mpz_t a, b;
	mpz_inits(a, b, NULL);
	for (size_t x = 0; x < nv; x++) {
		if (u->restart_bare[x]) {
			/* the partial sum after Entry_P -> x: rho (nvc = 1) */
			ipp_fin_rho(fin, u->restart_of[x], a, b);
			mpz_add(a, a, b);
			gcc_assert(mpz_sizeinbase(a, 2) <= 64);
			gcc_assert(!u->bare_call[x] || u->pnum[x] == mpz_get_ui(a));
			pts[n].vertex = (ipp_id)x;
			pts[n++].number = mpz_get_ui(a);
		} else if (u->bare_call[x]) {
			/* a bare call's (bare_call) */
			pts[n].vertex = (ipp_id)x;
			pts[n++].number = u->pnum[x];
		}
	}
	mpz_clears(a, b, NULL);
	*out = pts;
	*nout = n;
}

void ipp_slot_points(const struct unit *u, const ipp_fin *fin, struct ipp_slot_point **out,
		     size_t *nout)
{
	size_t nv = ipp_graph_nvertices(u->g), n = 0;
	struct ipp_slot_point *pts = XNEWVEC(struct ipp_slot_point, nv + 1);
	for (size_t x = 0; x < nv; x++) {
		if (!u->slot_at[x])
			continue;
		pts[n].call = (ipp_id)x;
		pts[n].slot = u->slot_at[x];
		pts[n++].region = ipp_fin_region_find(fin, ipp_proc_asm(u->g, ipp_call_callee(u->g,
											    (ipp_id)x)));
		gcc_assert(pts[n - 1].region != IPP_NONE);
	}
	*out = pts;
	*nout = n;
}

/* Two-level counting (docs/NUMBERING.md) pays where many records of an
 * activation go to a hash table: context mode, a procedure whose local
 * paths from its entry and restarts fit a row, and that records at its
 * restarts.  An activation of a body without restarts records once at
 * its return (and once more after each continuing call its callee
 * restarted), and a row lookup costs several hash records. Not in
 * functions with abnormal edges (their restarts would have to reset the
 * local register too; they are rare). */
void ipp_prepare_rows(struct unit *u, const ipp_fin *fin)
{
	if (ipp_fin_mode(fin) != IPP_MODE_CONTEXT)
		return;
	for (size_t i = 0; i < u->nfns; i++) {
		fninfo *fi = &u->fns[i];
		ipp_local *l;
		/* not with inlined copies kept: the local numbering is the
		 * body's own procedure's, and a copy's code is not counted in
		 * rows (docs/NUMBERING.md, "Inlined copies") */
		if (fi->skip || fi->in_memory || !ipp_fin_proc_restarts(fin, fi->proc) ||
		    ipp_inline_kept(&fi->inl))
			continue;
		l = ipp_local_new(fin, fi->proc, UINT64_MAX >> 1);
		if (ipp_opts.verbose && l)
			inform(DECL_SOURCE_LOCATION(fi->node->decl),
			       "ipp: %s: %llu local paths from its entry and restarts, %llu in all%s",
			       ipp_proc_asm(u->g, fi->proc), (unsigned long long)ipp_local_nentry(l),
			       (unsigned long long)ipp_local_npaths(l),
			       ipp_local_nentry(l) <= IPP_ROW_MAX ? "" : ": too many to count in rows");
		if (l && ipp_local_nentry(l) > 0 && ipp_local_nentry(l) <= IPP_ROW_MAX)
			fi->local = l;
		else
			ipp_local_free(l);
	}
}

static int cmp_run(const void *a, const void *b)
{
	const struct ipp_copy_run *x = (const struct ipp_copy_run *)a;
	const struct ipp_copy_run *y = (const struct ipp_copy_run *)b;
	return (x->first > y->first) - (x->first < y->first);
}

void ipp_copy_runs(struct unit *u, const ipp_fin *fin, struct ipp_copy_run **out, size_t *nout)
{
	size_t n = 0, cap = 0, m = 0;
	struct ipp_copy_run *v = NULL;
	for (size_t i = 0; i < u->nfns; i++) {
		const fninfo *fi = &u->fns[i];
		if (fi->skip || !fi->inl.n)
			continue;
		for (size_t k = 0; k < fi->orig.nv; k++) {
			ipp_id x = fi->orig.vbase + (ipp_id)k;
			int c = copy_of_proc(fi, ipp_vertex_proc(u->g, x));
			const struct ipp_inl *in;
			if (c < 0)
				continue;
			in = &fi->inl.v[c];
			if (!in->framed || ipp_fin_call_summary(fin, in->call) != IPP_SUM_NONE)
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				v = XRESIZEVEC(struct ipp_copy_run, v, cap);
			}
			v[n].first = v[n].last = x;
			v[n].call = in->call;
			n++;
		}
	}
	/* one run per stretch of consecutive vertices of one copy */
	if (n)
		qsort(v, n, sizeof(v[0]), cmp_run);
	for (size_t i = 0; i < n; i++) {
		if (m && v[m - 1].call == v[i].call && v[m - 1].last + 1 == v[i].first)
			v[m - 1].last = v[i].first;
		else
			v[m++] = v[i];
	}
	*out = v;
	*nout = m;
}

void ipp_frameless_callees(struct unit *u, const ipp_fin *fin, struct ipp_callee_site **out,
			   size_t *nout)
{
	size_t n = 0, cap = 0;
	struct ipp_callee_site *v = NULL;
	for (size_t i = 0; i < u->nfns; i++) {
		const fninfo *fi = &u->fns[i];
		if (fi->skip)
			continue;
		for (size_t k = 0; k < fi->orig.nv; k++) {
			ipp_id c = fi->orig.vbase + (ipp_id)k;
			fninfo *q;
			if (!fi->orig.call_stmt[k] || ipp_vertex_kind(u->g, c) != IPP_V_CALL)
				continue;
			/* the callee procedure; or, for a context-mode call to a
			 * function that is not cloned (summarized as a call out
			 * of the unit), the unit's function it runs for sure */
			q = ipp_call_callee(u->g, c) != IPP_NONE
				    ? ipp_fn_of_proc(u, ipp_call_callee(u->g, c))
				    : ipp_fn_called(u, gimple_call_fndecl(fi->orig.call_stmt[k]));
			/* a callee that records before a tail call records
			 * before it returns (one that records at its restarts
			 * is framed): after a crash in its tail call's callee,
			 * our checkpoint at the call would record its entry
			 * again, and nothing tells the two crashes apart
			 * (docs/PROTOCOL.md, "Tail calls") */
			if (!q || q->skip || q->framed || makes_tail_calls(u->g, &q->orig))
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				v = XRESIZEVEC(struct ipp_callee_site, v, cap);
			}
			v[n].call = c;
			v[n].entry = ipp_proc_entry(u->g, q->proc);
			v[n].fresh_region = ipp_fin_call_summary(fin, c) == IPP_SUM_NONE
						    ? IPP_NONE
						    : ipp_fin_region_find(fin, ipp_proc_asm(u->g, q->proc));
			n++;
		}
	}
	*out = v;
	*nout = n;
}

/* ------------------------------------------------------------------ */
/* GIMPLE helpers                                                       */
/* ------------------------------------------------------------------ */

/* A record to be given its fast path once the code is in place
 * (finish_rows): `slow` .. `set` is the slow path, from the call of the
 * runtime (__ipp_row, whose result `set` then assigns to the row variable;
 * __ipp_record, and `set` is the call itself), or a statement before it
 * (an arc cache's second check); the fast path, taken when `c`, is
 * `t[idx] += 1`.  Sites are finished in order: a site whose slow path
 * holds another's comes first. */
/* After statement `after`: if (cond) { seq } (finish_entry). */
struct cond_site {
	gimple *after;
	tree cond;
	gimple_seq seq;
};

struct row_site {
	gimple *slow;
	gimple *set;
	tree c, t, idx;
};

struct fnstate {
	const ipp_fin *fin;
	struct unit *u;
	fninfo *fi;
	struct body *b;
	bool ctx;		/* context mode */
	bool cont;		/* the continuing clone */
	ipp_id region;		/* the Entry region of a fresh body */
	tree frame;		/* the activation's struct ipp_rt_frame, or NULL;
				 * with slots, element 0 of `frames` */
	tree frames;		/* the frame and its slots (ABI 13, struct
				 * ipp_rt_slot): an array of struct
				 * ipp_rt_frame, or NULL */
	tree r;			/* the path register */
	tree nvc, onentry, reg;	/* constants in a fresh body, parameters in a clone */
	tree saved_path;	/* fresh, makes continuing calls: __ipp_path at entry */
	tree counts;		/* fresh, array region: the thread's counters, or NULL */
	tree hslot;		/* records into a hash region, probed inline
				 * (emit_hash_record): its region's slot in the
				 * unit's slots (a constant in a fresh body,
				 * loaded from the region at a clone's entry),
				 * or NULL */
	const ipp_local *local;	/* counts in rows: the local numbering, or NULL */
	tree l;			/* ... the local register */
	tree row;		/* ... the activation's row, NULL until its first record */
	bool lazy_r;		/* a rows body: r is not kept: every path it ends starts at the entry
				 * or a restart, and nothing else needs r but the return,
				 * which computes it from the row tables, and the
				 * checkpoints at its restarts, which store their
				 * restart values */
	vec<struct row_site> sites;	/* ... records to finish (finish_rows) */
	/* the conditional blocks of the entry and of the entries of
	 * inlined copies (finish_entry), in order */
	vec<struct cond_site> conds;
	const ipp_id *fin_of, *exit_of, *restart_of;	/* struct unit's */
	hash_set<gimple *> *throwers;	/* what could throw out (unwind.cc) */
	/* The inlined copies kept as virtual procedures (inline.cc), by
	 * index in fi->inl, and the body's own state while code for one of
	 * them is emitted (use_proc). */
	struct vproc *vp;
	struct vproc *own;
	/* a fresh body that counts in no array but keeps two summarized
	 * copies or more that do, none inside another procedure that does:
	 * the unit's counters taken once at the entry (as those of the first
	 * such copy's region), from which each of those copies takes its own
	 * (ABI 11); else NULL */
	struct vproc *anchor;
	int cur;		/* whose state r, nvc, ... are: -1 the body's own */
	bool unit_base;		/* every `counts` holds the thread's counters of
				 * the unit (executables: emit_counts_tls), and a
				 * procedure's are its region's offset on */
	uint64_t counts_bias;	/* the current procedure's: that offset in
				 * bytes (use_proc), or 0 */
};

/* The state of one procedure of a body: the body's own, or an inlined
 * copy's (docs/NUMBERING.md, "Inlined copies").  A copy whose call site
 * continues the path (context mode, not cut) shares its caller's r and
 * region and has nvc = psi_{c+1}(nvc of the caller) and onentry = r at
 * its entry; a summarized copy starts a path of its own (r from 0, nvc 1)
 * in its own Entry region and records it at its exit. */
struct vproc {
	tree r, nvc, onentry, reg;
	tree frame;		/* its own frame (a summarized copy that keeps a
				 * checkpoint), or NULL */
	tree eframe;		/* the frame its checkpoints go to: its own, or
				 * the nearest one around it (the function's,
				 * or a summarized copy's) */
	tree counts;		/* its region's counters if counted inline, or NULL */
	ipp_id counts_region;	/* ... the region they are of */
	const struct vproc *counts_from;	/* a summarized copy: the procedure
				 * around it whose counters it takes its own
				 * from, or the body's anchor (the unit's
				 * arrays are one, ipp_abi.h), or NULL: it
				 * selects them itself */
	tree hslot;		/* its region's slot if it probes (emit_hash_record):
				 * the body's own, or a summarized copy's in a
				 * hash region; NULL */
	ipp_id region;		/* a summarized copy's Entry region */
	bool summarized;
	bool frame_path;	/* its path is the one the frame's checkpoint names */
	bool restarts;		/* it or a copy inside it records at a restart */
};

/* Does the frame the current procedure's checkpoints go to name its path
 * (the body's own; a summarized copy's own; the frame around a copy that
 * continues its caller's path, ipp_copy_runs)? */
static bool own_frame(const struct fnstate *st)
{
	return st->frame && (st->cur < 0 || st->vp[st->cur].frame || !st->vp[st->cur].summarized);
}

/* obj.field; volatile if obj is: the frame is read behind GCC's back (by
 * the runtime at exit, in signal handlers and at longjmp), so its stores
 * must survive even where mod/ref analysis proves no callee reads them. */
static tree fld(tree obj, tree field)
{
	/* a slot is an ARRAY_REF, which no two statements may share */
	tree t = build3(COMPONENT_REF, TREE_TYPE(field), unshare_expr(obj), field, NULL_TREE);
	if (TREE_THIS_VOLATILE(obj)) {
		TREE_THIS_VOLATILE(t) = 1;
		TREE_SIDE_EFFECTS(t) = 1;
	}
	return t;
}

static void emit_assign(gimple_seq *seq, tree lhs, tree rhs)
{
	gimple_seq_add_stmt(seq, gimple_build_assign(lhs, rhs));
}

static tree tmp_of(tree type)
{
	return create_tmp_var(type, "ipp_t");
}

static tree tmp(void)
{
	return tmp_of(ipp_u64);
}

/* x as a GIMPLE value: a copy in a temporary if x is memory. */
static tree val(gimple_seq *seq, tree x)
{
	tree t;
	if (is_gimple_min_invariant(x) || TREE_CODE(x) == SSA_NAME ||
	    (VAR_P(x) && !TREE_ADDRESSABLE(x) && !TREE_THIS_VOLATILE(x) && !is_global_var(x)))
		return x;
	t = tmp_of(TREE_TYPE(x));
	emit_assign(seq, t, x);
	return t;
}

/* A variable that carries state from the entry to the returns: a register
 * (renamed into SSA), or volatile memory in a function with abnormal edges. */
static tree state_var(struct fnstate *st, tree type, const char *name)
{
	tree v = create_tmp_var(type, name);
	if (st->fi->in_memory) {
		TREE_ADDRESSABLE(v) = 1;
		TREE_THIS_VOLATILE(v) = 1;
		TREE_SIDE_EFFECTS(v) = 1;
	}
	return v;
}

/* <a,b> applied to nvc: a constant where nvc is one (a fresh body: nvc =
 * 1; an inlined copy in it) or where a is 0, else a*nvc + b computed into
 * a temporary.  The cuts guarantee every
 * value fits in 64 bits. */
static tree lin_val(gimple_seq *seq, struct fnstate *st, mpz_t a, mpz_t b)
{
	tree t, t2;
	if (TREE_CODE(st->nvc) == INTEGER_CST) {
		mpz_t s;
		unsigned HOST_WIDE_INT v;
		mpz_init(s);
		mpz_set_ui(s, TREE_INT_CST_LOW(st->nvc));
		mpz_mul(s, s, a);
		mpz_add(s, s, b);
		gcc_assert(mpz_sizeinbase(s, 2) <= 64);
		v = mpz_get_ui(s);
		mpz_clear(s);
		return build_int_cstu(ipp_u64, v);
	}
	gcc_assert(mpz_sizeinbase(a, 2) <= 64 && mpz_sizeinbase(b, 2) <= 64);
	if (mpz_sgn(a) == 0)
		return build_int_cstu(ipp_u64, mpz_get_ui(b));
	t = tmp();
	gimple_seq_add_stmt(seq, gimple_build_assign(t, MULT_EXPR, st->nvc,
						     build_int_cstu(ipp_u64, mpz_get_ui(a))));
	if (mpz_sgn(b) == 0)
		return t;
	t2 = tmp();
	gimple_seq_add_stmt(seq, gimple_build_assign(t2, PLUS_EXPR, t,
						     build_int_cstu(ipp_u64, mpz_get_ui(b))));
	return t2;
}

/* Does the current procedure add inc_e on its edges: were its increments
 * placed on chords (ipp_place_chords), and does this body number it with
 * nvc = 1 (a fresh body's own procedure, or a summarized copy)? */
static bool on_chords(const struct fnstate *st)
{
	ipp_id p = st->cur < 0 ? st->fi->proc : st->fi->inl.v[st->cur].proc;
	bool fresh = st->cur < 0 ? !st->cont : st->vp[st->cur].summarized;
	return fresh && st->u->chorded && st->u->chorded[p];
}

/* rho_e(nvc) of G*fin edge e of the current procedure: what the register
 * adds on e.  With increments on chords it adds inc_e = rho_e + off(dst)
 * - off(src) instead (nvc is 1), which sums to the same number over every
 * complete path. */
static tree rho_val(gimple_seq *seq, struct fnstate *st, ipp_id e)
{
	mpz_t a, b;
	tree v;
	if (on_chords(st)) {
		gcc_assert(TREE_CODE(st->nvc) == INTEGER_CST && integer_onep(st->nvc));
		return build_int_cstu(ipp_u64, ipp_fin_inc(st->fin, e));
	}
	mpz_inits(a, b, NULL);
	ipp_fin_rho(st->fin, e, a, b);
	v = lin_val(seq, st, a, b);
	mpz_clears(a, b, NULL);
	return v;
}

/* psi_v(nvc) of G*fin vertex v */
static tree psi_val(gimple_seq *seq, struct fnstate *st, ipp_id v)
{
	mpz_t a, b;
	tree t;
	mpz_inits(a, b, NULL);
	ipp_fin_psi(st->fin, v, a, b);
	t = lin_val(seq, st, a, b);
	mpz_clears(a, b, NULL);
	return t;
}

/* x + y as a GIMPLE value */
static tree add_val(gimple_seq *seq, tree x, tree y)
{
	tree t;
	if (integer_zerop(y))
		return x;
	if (integer_zerop(x))
		return y;
	t = tmp();
	gimple_seq_add_stmt(seq, gimple_build_assign(t, PLUS_EXPR, x, y));
	return t;
}

/* r = r + v */
static void emit_add(gimple_seq *seq, struct fnstate *st, tree v)
{
	if (integer_zerop(v) || st->lazy_r)
		return;
	emit_assign(seq, st->r, add_val(seq, val(seq, st->r), v));
}

/* *(T *)(p + off) as a GIMPLE value, a load that may alias anything (the
 * runtime writes the arc, other bodies the frame) */
static tree load_at(gimple_seq *seq, tree type, tree p, size_t off)
{
	tree t = tmp_of(type);
	emit_assign(seq, t, build2(MEM_REF, type, p, build_int_cst(ptr_type_node, off)));
	return t;
}

/* The sites of a two-way check (emit_hash_record, emit_arc_count), for
 * finish_rows: check k holds when c[k]; its fast path adds one to word
 * idx0 + k * step of t[k]; the first check's slow path runs from the
 * second check (`second`) to the slow call, the second's is the call. */
static void push_check_pair(struct fnstate *st, gimple *second, gcall *slow, const tree c[2],
			    const tree t[2], uint64_t idx0, uint64_t step)
{
	for (int k = 0; k < 2; k++) {
		struct row_site rs;
		rs.slow = k ? (gimple *)slow : second;
		rs.set = slow;
		rs.c = c[k];
		rs.t = t[k];
		rs.idx = build_int_cstu(ipp_u64, idx0 + k * step);
		st->sites.safe_push(rs);
	}
}

/* Does the target take our x86-64 inline asm (the plugin's host and
 * the compilation's options: gcc-common.h, ipp_abi.h)? */
static bool keep_asm_ok(void)
{
	return ipp_counts_keep_ok() && IPP_COUNTS_KEEP;
}

/* Can a fresh body load its hash slot with emit_hash_record's asm: x86-64
 * code for an executable (local-exec thread-locals), whose asm names the
 * slots by their symbol -- not in LTO's IR, where the link may rename a
 * static that two partitions share (seen: -flto-partition=max)? */
static bool hslot_asm_ok(void)
{
	return keep_asm_ok() && !flag_shlib && !flag_generate_lto && !in_lto_p;
}

/* A record of path n in the body's own region (st->hslot): the first two
 * probes of the thread's table inline, __ipp_hmiss when both miss
 * (ipp_abi.h, __ipp_hmiss and struct ipp_rt_htab):
 *   h = slots[hslot]; k1 = n + 1; e = &h->e[(k1 * FIB) >> h->shift];
 *   if (e[0].key1 == k1) e[0].count += 1;
 *   else if (e[1].key1 == k1) e[1].count += 1;
 *   else __ipp_hmiss (region, k1, slots);
 * (e[1] exists: e[cap] is always empty.)  The branches are made by
 * finish_rows, as a row's: here the second probe and the slow call, and
 * two sites whose fast paths are t[4] += 1 and t[6] += 1, with t = h + 16
 * * index (the entries start 24 bytes into the table, a count 8 bytes
 * into its entry).  Linear probing leaves a key in the entry after its
 * own often enough (SQLite: one record in fourteen) that the second
 * probe pays for itself.  The slow call takes k1, not n: with no n left
 * beside it, GCC folds the + 1 into the last addition to the path
 * register (one instruction per probe: 1.2M in SQLite context). */
static void emit_hash_record(gimple_seq *seq, struct fnstate *st, tree n)
{
	tree vp = ptr_type_node, slots = ipp_abi_hslots(st->u->checksum);
	tree h = tmp_of(vp), sh = tmp(), k1 = tmp(), x = tmp();
	tree x2 = tmp(), i = tmp_of(sizetype), off = tmp_of(sizetype), t = tmp_of(vp);
	tree c[2], sa, tt[2] = { t, t };
	gimple *second = NULL;
	gcall *call;

	if (TREE_CODE(st->hslot) == INTEGER_CST && hslot_asm_ok()) {
		/* The slot's load as one instruction GCC cannot take apart:
		 * from an ARRAY_REF it computes the thread-local's offset
		 * into a register, which loop-invariant motion then keeps
		 * for the whole function (a register less in the body of
		 * every loop that records: SQLite's sqlite3VdbeExec) */
		char text[192];
		vec<tree, va_gc> *out = NULL;
		gasm *a;
		snprintf(text, sizeof(text), "movq %%%%fs:%s@tpoff+%lu, %%0",
			 IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(slots)),
			 (unsigned long)(tree_to_uhwi(st->hslot) * sizeof(void *)));
		vec_safe_push(out, build_tree_list(build_tree_list(NULL_TREE, build_string(3, "=r")), h));
		a = gimple_build_asm_vec(ggc_strdup(text), NULL, out, NULL, NULL);
		gimple_asm_set_volatile(a, true);
		gimple_seq_add_stmt(seq, a);
		/* named by the asm alone where no cold path takes its address */
		TREE_USED(slots) = 1;
		DECL_PRESERVE_P(slots) = 1;
	} else
		emit_assign(seq, h, build4(ARRAY_REF, vp, slots, val(seq, st->hslot), NULL_TREE, NULL_TREE));
	emit_assign(seq, sh, build2(MEM_REF, ipp_u64, h,
				    build_int_cst(vp, offsetof(struct ipp_rt_htab, shift))));
	gimple_seq_add_stmt(seq, gimple_build_assign(k1, PLUS_EXPR, n, build_int_cstu(ipp_u64, 1)));
	gimple_seq_add_stmt(seq, gimple_build_assign(x, MULT_EXPR, k1,
						     build_int_cstu(ipp_u64, IPP_HTAB_FIB)));
	gimple_seq_add_stmt(seq, gimple_build_assign(x2, RSHIFT_EXPR, x, sh));
	gimple_seq_add_stmt(seq, gimple_build_assign(i, NOP_EXPR, x2));
	gimple_seq_add_stmt(seq, gimple_build_assign(off, MULT_EXPR, i,
						     size_int(sizeof(struct ipp_rt_hent))));
	gimple_seq_add_stmt(seq, gimple_build_assign(t, POINTER_PLUS_EXPR, h, off));
	for (int k = 0; k < 2; k++) {
		tree key = load_at(seq, ipp_u64, t, offsetof(struct ipp_rt_htab, e) +
					       k * sizeof(struct ipp_rt_hent) +
					       offsetof(struct ipp_rt_hent, key1));
		if (k == 1)
			second = gimple_seq_last_stmt(*seq);
		c[k] = create_tmp_var(boolean_type_node, "ipp_c");
		gimple_seq_add_stmt(seq, gimple_build_assign(c[k], EQ_EXPR, key, k1));
	}
	/* a thread-local's address is no invariant: computed first */
	sa = tmp_of(build_pointer_type(vp));
	emit_assign(seq, sa, build_fold_addr_expr(build4(ARRAY_REF, vp, slots, size_int(0),
							 NULL_TREE, NULL_TREE)));
	call = gimple_build_call(ABI_FN(__ipp_hmiss), 3, st->reg, k1, sa);
	gimple_seq_add_stmt(seq, call);
	push_check_pair(st, second, call, c, tt,
			(offsetof(struct ipp_rt_htab, e) + offsetof(struct ipp_rt_hent, count)) / 8,
			sizeof(struct ipp_rt_hent) / 8);
}

/* One more execution of path n: counts[n] += 1 inline in an array region
 * (ipp_abi.h, __ipp_counts), a first probe inline in a hash region's
 * table where the body took it (emit_hash_record), else
 * __ipp_record(region of the path, n), or with the flight recorder
 * (-fplugin-arg-ipp-last) always __ipp_record_last, which also keeps the
 * path in the thread's ring. */
static void emit_count(gimple_seq *seq, struct fnstate *st, tree n)
{
	tree off, p, ref, c, c1, counts;
	if (!st->counts && st->hslot) {
		emit_hash_record(seq, st, n);
		return;
	}
	if (!st->counts) {
		tree fn = ipp_opts.last ? ABI_FN(__ipp_record_last) : ABI_FN(__ipp_record);
		gimple_seq_add_stmt(seq, gimple_build_call(fn, 2, st->reg, n));
		return;
	}
	counts = val(seq, st->counts);
	off = tmp_of(sizetype);
	if (TREE_CODE(n) == INTEGER_CST) {
		gimple_seq_add_stmt(seq, gimple_build_assign(off, MULT_EXPR, fold_convert(sizetype, n),
							     size_int(8)));
	} else {
		/* a conversion is no GIMPLE operand: (sizetype) n first (an
		 * invalid statement once stayed here for DCE to remove:
		 * -fchecking -fno-tree-dce rejected it, gcc.dg pr100414.c) */
		tree nn = tmp_of(sizetype);
		gimple_seq_add_stmt(seq, gimple_build_assign(nn, NOP_EXPR, n));
		gimple_seq_add_stmt(seq, gimple_build_assign(off, MULT_EXPR, nn, size_int(8)));
	}
	/* + the bias: a constant GCC folds into the record's address
	 * (fnstate.unit_base) */
	if (st->counts_bias) {
		tree o2 = tmp_of(sizetype);
		gimple_seq_add_stmt(seq, gimple_build_assign(o2, PLUS_EXPR, off,
							     size_int(st->counts_bias)));
		off = o2;
	}
	p = tmp_of(TREE_TYPE(counts));
	gimple_seq_add_stmt(seq, gimple_build_assign(p, POINTER_PLUS_EXPR, counts, off));
	ref = build2(MEM_REF, ipp_u64, p, build_int_cst(TREE_TYPE(counts), 0));
	c = tmp();
	c1 = tmp();
	emit_assign(seq, c, ref);
	gimple_seq_add_stmt(seq, gimple_build_assign(c1, PLUS_EXPR, c, build_int_cstu(ipp_u64, 1)));
	emit_assign(seq, unshare_expr(ref), c1);
}

/* A record of local path idx (number n) in the activation's row: the
 * slow path (the call of __ipp_row, which finds the row and counts) now,
 * the fast path `row[idx] += 1` when the row is known and, if some paths
 * that reach here started at a return site (mixed), idx < nentry. */
static void emit_row_record(gimple_seq *seq, struct fnstate *st, tree idx, tree n, bool mixed)
{
	struct row_site rs;
	tree t = tmp_of(TREE_TYPE(st->row)), t2 = tmp_of(TREE_TYPE(st->row));
	tree c = create_tmp_var(boolean_type_node, "ipp_c");
	gcall *call;

	emit_assign(seq, t, st->row);
	gimple_seq_add_stmt(seq, gimple_build_assign(c, NE_EXPR, t,
						     build_int_cst(TREE_TYPE(t), 0)));
	if (mixed) {
		tree c2 = create_tmp_var(boolean_type_node, "ipp_c");
		tree c3 = create_tmp_var(boolean_type_node, "ipp_c");
		gimple_seq_add_stmt(seq, gimple_build_assign(c2, LT_EXPR, idx,
			build_int_cstu(ipp_u64, ipp_local_nentry(st->local))));
		gimple_seq_add_stmt(seq, gimple_build_assign(c3, BIT_AND_EXPR, c, c2));
		c = c3;
	}
	if (!st->fi->rows)
		st->fi->rows = ipp_abi_rows(st->local, st->u->checksum, st->fi->proc,
					    &st->fi->rows_a, &st->fi->rows_b);
	call = gimple_build_call(ABI_FN(__ipp_row), 6, st->reg, st->fi->rows, st->onentry,
				 st->nvc, idx, n);
	gimple_call_set_lhs(call, t2);
	gimple_seq_add_stmt(seq, call);
	gimple_seq_add_stmt(seq, gimple_build_assign(st->row, t2));
	rs.slow = call;
	rs.set = gimple_seq_last_stmt(*seq);
	rs.c = c;
	rs.t = t;
	rs.idx = idx;
	st->sites.safe_push(rs);
}

/* Records the path that ends with G*fin edge e (a surrogate exit, or an
 * edge into GExit_P) or, with e = IPP_NONE, at Exit_P: number r + rho_e,
 * and in a row local path l + lambda_e.  `at` is the vertex where the path
 * ends, whose reach (ipp_local_reach) decides whether it may be in the
 * activation's row. */
static void emit_record(gimple_seq *seq, struct fnstate *st, ipp_id e, ipp_id at)
{
	tree n;
	if (st->lazy_r) {
		/* the runtime takes the number from the row tables */
		tree idx = val(seq, st->l);
		if (e != IPP_NONE)
			idx = add_val(seq, idx, build_int_cstu(ipp_u64, ipp_local_edge(st->local, e)));
		emit_row_record(seq, st, idx, build_int_cstu(ipp_u64, 0), false);
		return;
	}
	n = val(seq, st->r);
	if (e != IPP_NONE)
		n = add_val(seq, n, rho_val(seq, st, e));
	if (st->local) {
		unsigned reach = ipp_local_reach(st->local, at);
		if (reach & IPP_LOCAL_FROM_ENTRY) {
			tree idx = val(seq, st->l);
			if (e != IPP_NONE)
				idx = add_val(seq, idx,
					      build_int_cstu(ipp_u64, ipp_local_edge(st->local, e)));
			emit_row_record(seq, st, idx, n, (reach & IPP_LOCAL_FROM_RETURN) != 0);
			return;
		}
	}
	emit_count(seq, st, n);
}

/* The local register after G*fin edge e (rows only). */
static void emit_local_add(gimple_seq *seq, struct fnstate *st, ipp_id e)
{
	uint64_t v;
	if (!st->local || !(v = ipp_local_edge(st->local, e)))
		return;
	emit_assign(seq, st->l, add_val(seq, val(seq, st->l), build_int_cstu(ipp_u64, v)));
}

/* The local register set to v (rows only). */
static void emit_local_set(gimple_seq *seq, struct fnstate *st, uint64_t v)
{
	if (st->local)
		emit_assign(seq, st->l, build_int_cstu(ipp_u64, v));
}

/* frame.path = r; frame.vertex = v (path only if store_path): the frame's
 * checkpoint (docs/PROTOCOL.md, "The checkpoint"). */
static void emit_stand(gimple_seq *seq, struct fnstate *st, int v, bool store_path)
{
	if (v >= 0)
		st->u->stands[IPP_VERTEX_ID(v)] = true;
	if (store_path)
		emit_assign(seq, fld(st->frame, ABI_FIELD(FRAME, path)), val(seq, st->r));
	emit_assign(seq, fld(st->frame, ABI_FIELD(FRAME, vertex)), build_int_cst(integer_type_node, v));
}

/* A volatile reference of type `type` to frame's bytes from field's on
 * (frame: a decl, or an element of the slots array, whose MEM_REF is based
 * on the array itself: an element's address is no base the alias oracle
 * takes). */
static tree frame_bytes(tree frame, tree field, tree type)
{
	HOST_WIDE_INT off = int_byte_position(field);
	tree base = frame, ref;
	if (TREE_CODE(frame) == ARRAY_REF) {
		base = TREE_OPERAND(frame, 0);
		off += tree_to_uhwi(TREE_OPERAND(frame, 1)) * int_size_in_bytes(ABI_TYPE(FRAME));
	}
	ref = build2(MEM_REF, type, build_fold_addr_expr(base),
		     build_int_cst(build_pointer_type(ABI_TYPE(FRAME)), off));
	TREE_THIS_VOLATILE(ref) = 1;	/* as every frame store: see fld() */
	TREE_SIDE_EFFECTS(ref) = 1;
	return ref;
}

/* frame.vertex = vertex, frame.flags = flags, as one 64-bit store where
 * the two 32-bit fields are adjacent, vertex first at an 8-byte boundary
 * (ipp_abi.def's layout, on a little-endian target): one instruction per
 * frame pushed instead of two. */
static void emit_vertex_flags(gimple_seq *seq, tree frame, int vertex, unsigned flags)
{
	tree vf = ABI_FIELD(FRAME, vertex), ff = ABI_FIELD(FRAME, flags);
	HOST_WIDE_INT off = int_byte_position(vf);
	if (!BYTES_BIG_ENDIAN && off % 8 == 0 && int_byte_position(ff) == off + 4 &&
	    TYPE_PRECISION(TREE_TYPE(vf)) == 32 && TYPE_PRECISION(TREE_TYPE(ff)) == 32) {
		uint64_t both = (uint64_t)(uint32_t)vertex | (uint64_t)flags << 32;
		emit_assign(seq, frame_bytes(frame, vf, ipp_u64), build_int_cstu(ipp_u64, both));
		return;
	}
	emit_assign(seq, fld(frame, vf), build_int_cst(integer_type_node, vertex));
	emit_assign(seq, fld(frame, ff), build_int_cst(unsigned_type_node, flags));
}

/* Pushes frame on the thread's list, its first checkpoint (path, vertex)
 * and its flags set, and its region if reg is not NULL (ipp_abi.h).  A
 * fresh frame (a region, number 0) stores its region, vertex and flags
 * with one 16-byte copy of a constant (ipp_abi_frame_head: 6 instructions
 * a push instead of 7). */
static void emit_push(gimple_seq *seq, tree frame, tree reg, tree path, int vertex,
		      unsigned flags)
{
	tree t = tmp_of(build_pointer_type(ABI_TYPE(FRAME))), head = NULL_TREE;
	emit_assign(seq, t, ABI_TLS(__ipp_top));
	emit_assign(seq, fld(frame, ABI_FIELD(FRAME, prev)), t);
	/* an entry of number 0 says so in the vertex instead of storing
	 * it: every later checkpoint stores the number (ipp_abi.h) */
	if (integer_zerop(path) && (vertex & IPP_VERTEX_INSIDE))
		vertex |= IPP_VERTEX_PATH0;
	else
		emit_assign(seq, fld(frame, ABI_FIELD(FRAME, path)), path);
	if (reg && (vertex & IPP_VERTEX_PATH0))
		head = ipp_abi_frame_head(reg, vertex, flags);
	if (head)
		emit_assign(seq, frame_bytes(frame, ABI_FIELD(FRAME, region), TREE_TYPE(head)),
			    head);
	else {
		if (reg)
			emit_assign(seq, fld(frame, ABI_FIELD(FRAME, region)), reg);
		emit_vertex_flags(seq, frame, vertex, flags);
	}
	/* the frame is complete before it is visible to a walk */
	emit_assign(seq, ABI_TLS(__ipp_top), build_fold_addr_expr(unshare_expr(frame)));
}

/* Pops frame: __ipp_top = frame.prev. */
static void emit_pop(gimple_seq *seq, tree frame)
{
	emit_assign(seq, ABI_TLS(__ipp_top), val(seq, fld(frame, ABI_FIELD(FRAME, prev))));
}

/* The checkpoint of a vertex that is not a call: entry, restart, return
 * site (ipp_abi.h, IPP_VERTEX_INSIDE). */
static int inside(ipp_id v)
{
	gcc_assert(v >= 0 && v < IPP_VERTEX_RESTART);
	return (int)v | IPP_VERTEX_INSIDE;
}

/* The vertex of the innermost frame (a frameless function's caller's):
 * top->vertex = v. */
static void emit_top_vertex(gimple_seq *seq, int v)
{
	tree top = val(seq, ABI_TLS(__ipp_top));
	tree ref = build2(MEM_REF, ABI_TYPE(FRAME), top,
			  build_int_cst(build_pointer_type(ABI_TYPE(FRAME)), 0));
	TREE_THIS_VOLATILE(ref) = 1;
	TREE_SIDE_EFFECTS(ref) = 1;
	emit_assign(seq, fld(ref, ABI_FIELD(FRAME, vertex)), build_int_cst(integer_type_node, v));
}

/* After recording the path before a call that never returns: nothing is
 * pending any more.  A frameless continuing function marks its caller's
 * frame, the innermost of its group (a function that calls a continuing
 * one has a frame: ipp_decide_frames), so that a walk at exit does not
 * record the group's path a second time. */
static void emit_recorded(gimple_seq *seq, struct fnstate *st)
{
	if (st->frame)
		emit_stand(seq, st, -1, false);
	else if (st->cont)
		emit_top_vertex(seq, -1);
	else
		/* a fresh activation without a frame: its caller's frame stands
		 * at the call, and must not make a crash walk record our entry
		 * again (ipp_abi.h, struct ipp_rt_callee); the body's own Entry
		 * region says whether that call is the one that entered us */
		gimple_seq_add_stmt(seq, gimple_build_call(ABI_FN(__ipp_callee_recorded_in), 1,
							   st->own->reg));
}

/* The number a path restarting at v starts with: pathNumOnEntry +
 * rho(Entry_P -> v)(nvc) (Figure 8). */
static tree restart_val(gimple_seq *seq, struct fnstate *st, ipp_id v)
{
	gcc_assert(st->restart_of[v] != IPP_NONE);
	return add_val(seq, st->onentry, rho_val(seq, st, st->restart_of[v]));
}

/* A removed edge w -> v (back edge or into a cut vertex): record the path
 * ending w -> GExit_P, restart at v. */
static void emit_split(gimple_seq *seq, struct fnstate *st, ipp_id w, ipp_id v)
{
	gcc_assert(st->exit_of[w] != IPP_NONE);
	emit_record(seq, st, st->exit_of[w], w);
	if (st->local)
		emit_local_set(seq, st, ipp_local_edge(st->local, st->restart_of[v]));
	/* the old checkpoint names a prefix of the path just recorded: the
	 * new one names v.  Every body and copy that records at a restart
	 * has a frame of its own (ipp_decide_frames).  Without r, the
	 * checkpoint stores v's restart value (loop-invariant: onentry and
	 * nvc are the clone's parameters) */
	gcc_assert(own_frame(st));
	if (st->lazy_r) {
		emit_assign(seq, fld(st->frame, ABI_FIELD(FRAME, path)), restart_val(seq, st, v));
		emit_stand(seq, st, inside(v), false);
		return;
	}
	emit_assign(seq, st->r, restart_val(seq, st, v));
	if (on_chords(st)) {
		/* on chords: the number after the restart is a constant,
		 * which the runtime takes from the module's restarts table
		 * (ipp_abi.h, IPP_VERTEX_RESTART): the vertex alone */
		st->u->restart_bare[v] = true;
		emit_stand(seq, st, inside(v) | IPP_VERTEX_RESTART, false);
		return;
	}
	emit_stand(seq, st, inside(v), true);
}

/* ------------------------------------------------------------------ */
/* Entry and return                                                     */
/* ------------------------------------------------------------------ */

/* After statement `after` of the entry's code (or an inlined copy's):
 * if (cond) { seq }. */
static void add_entry_cond(struct fnstate *st, gimple *after, tree cond, gimple_seq seq)
{
	struct cond_site c = { after, cond, seq };
	st->conds.safe_push(c);
}


/* Before the call through a pointer at call vertex v (context mode,
 * docs/PROTOCOL.md rule 7): count the arc (unit, v, target) in the site's
 * two-way cache (ipp_abi.h, struct ipp_rt_arc; runtime/rt_arcs.c):
 *   a = cache[0]; if (a->target == p) a->count += 1;
 *   else { b = cache[1]; if (b->target == p) b->count += 1;
 *          else __ipp_icall (module, v, p, cache); }
 * the branches made by finish_rows, as a row record's: a hit is four
 * instructions, seven in the second entry (a site that alternates
 * between two targets: SQLite's page parsers and record comparators). */
static void emit_arc_count(gimple_seq *seq, struct fnstate *st, gcall *call, ipp_id v)
{
	tree cache = ipp_abi_arc_cache(st->u->checksum, v);
	tree elt = TREE_TYPE(TREE_TYPE(cache));
	tree fn = gimple_call_fn(call), p = tmp_of(const_ptr_type_node), ca, target;
	tree module = build_fold_addr_expr(ipp_abi_trees[IPP_ABI_MODULE_VAR]);
	tree a[2], c[2];
	gimple *second;
	gcall *slow;

	if (TREE_CODE(fn) == OBJ_TYPE_REF)
		fn = OBJ_TYPE_REF_EXPR(fn);
	gimple_seq_add_stmt(seq, gimple_build_assign(p, NOP_EXPR, unshare_expr(fn)));
	for (int k = 0; k < 2; k++) {
		a[k] = tmp_of(elt);
		c[k] = create_tmp_var(boolean_type_node, "ipp_c");
		emit_assign(seq, a[k], build4(ARRAY_REF, elt, cache, size_int(k), NULL_TREE,
					      NULL_TREE));
		if (k == 1)
			second = gimple_seq_last_stmt(*seq);
		target = load_at(seq, const_ptr_type_node, a[k], offsetof(struct ipp_rt_arc, target));
		gimple_seq_add_stmt(seq, gimple_build_assign(c[k], EQ_EXPR, target, p));
	}
	/* a thread-local's address is no invariant: computed first */
	ca = tmp_of(build_pointer_type(elt));
	emit_assign(seq, ca, build_fold_addr_expr(build4(ARRAY_REF, elt, cache, size_int(0),
							 NULL_TREE, NULL_TREE)));
	slow = gimple_build_call(ABI_FN(__ipp_icall), 4, module,
				 build_int_cst(integer_type_node, v), p, ca);
	gimple_seq_add_stmt(seq, slow);
	push_check_pair(st, second, slow, c, a, offsetof(struct ipp_rt_arc, count) / 8, 0);
}

/* c = __ipp_counts (reg) as a call the function does not see, so that it
 * keeps its values in their registers (ipp_abi.h, __ipp_counts_keep): the
 * region in rax, where the result comes back (no argument comes in it).
 * With a slot, c = __ipp_counts_tls (reg, slot) the same way
 * (__ipp_counts_tls_keep), the slot's address in rcx.
 * No "memory" clobber: the runtime touches none of the program's memory
 * (its own state, the module's structs, mmap'd arrays) and the function
 * reads the counters only through the result; with the clobber, GCC's
 * warnings took the asm for a store to every object (gcc.dg
 * uninit-pr98578.c lost its -Wuninitialized, pr93582.c got a bogus
 * -Warray-bounds). */
static gasm *counts_keep_asm(tree c, tree reg, tree slot)
{
	vec<tree, va_gc> *in = NULL, *out = NULL, *clobbers = NULL;
	gasm *a;
	vec_safe_push(out, build_tree_list(build_tree_list(NULL_TREE, build_string(3, "=a")), c));
	vec_safe_push(in, build_tree_list(build_tree_list(NULL_TREE, build_string(2, "0")), reg));
	if (slot)
		vec_safe_push(in, build_tree_list(build_tree_list(NULL_TREE, build_string(2, "c")),
						  slot));
	vec_safe_push(clobbers, build_tree_list(NULL_TREE, build_string(3, "cc")));
	a = gimple_build_asm_vec(slot ? "lea -128(%%rsp), %%rsp\n\t"
					"call *__ipp_counts_tls_keep@GOTPCREL(%%rip)\n\t"
					"lea 128(%%rsp), %%rsp"
				      : "lea -128(%%rsp), %%rsp\n\t"
					"call *__ipp_counts_keep@GOTPCREL(%%rip)\n\t"
					"lea 128(%%rsp), %%rsp",
				 in, out, clobbers, NULL);
	gimple_asm_set_volatile(a, true);
	return a;
}

/* The counters of a region counted inline, for the activation (of the
 * body, or of a summarized inlined copy), in code for an executable: the
 * thread's, whose address the unit's thread-local __ipp_tcounts_N holds
 * once the thread has asked __ipp_counts_tls for them (the unit's own
 * static counters while the process is single-threaded): a load, a
 * compare and a branch on the common path, the call in a conditional
 * block (finish_entry), made once per thread and unit. */
static void emit_counts_tls(gimple_seq *seq, struct fnstate *st, const struct vproc *x,
			    tree tcounts, ipp_id first)
{
	tree base = tmp_of(TREE_TYPE(tcounts)), none = create_tmp_var(boolean_type_node, "ipp_c");
	tree c = tmp_of(TREE_TYPE(tcounts)), slot = tmp_of(build_pointer_type(TREE_TYPE(tcounts)));
	tree reg0 = ipp_abi_region_addr(first);
	gimple_seq call = NULL;
	gimple *test;
	gcall *gc;

	emit_assign(seq, base, tcounts);
	test = gimple_build_assign(none, EQ_EXPR, base, build_int_cst(TREE_TYPE(base), 0));
	gimple_seq_add_stmt(seq, test);
	/* the unit's counters themselves: each record adds its region's
	 * offset to its own address (emit_count), where GCC folds it into
	 * the displacement.  With counts = base + offset after the branch,
	 * GCC kept both in registers across the body's calls (a callee-saved
	 * register more, its push and pop, and the add: SQLite intra
	 * 148.62M -> 147.90M instructions). */
	gcc_assert(st->unit_base);
	emit_assign(seq, x->counts, base);
	/* a thread-local's address is no invariant: computed first */
	emit_assign(&call, slot, build_fold_addr_expr(tcounts));
	if (keep_asm_ok()) {
		tree r0 = tmp_of(TREE_TYPE(reg0));
		emit_assign(&call, r0, reg0);
		gimple_seq_add_stmt(&call, counts_keep_asm(c, r0, slot));
	} else {
		gc = gimple_build_call(ABI_FN(__ipp_counts_tls), 2, reg0, slot);
		gimple_call_set_lhs(gc, c);
		gimple_seq_add_stmt(&call, gc);
	}
	emit_assign(&call, base, c);
	add_entry_cond(st, test, none, call);
}

/* The counters of a region counted inline, for the activation (of the
 * body, or of a summarized inlined copy): single-threaded, the unit's
 * own; else the thread's, from the runtime (ipp_abi.h, gcounts): a load,
 * a compare and an address on the common path, the call in a conditional
 * block (finish_entry).  In code for an executable, emit_counts_tls. */
static void emit_counts_select(gimple_seq *seq, struct fnstate *st, const struct vproc *x)
{
	/* temporaries made here only, where a region is counted inline: a
	 * temporary more shifts the DECL_UIDs that name GCC's own symbols
	 * (CSWTCH.N) */
	ipp_id first = IPP_NONE;
	tree tcounts = ipp_abi_tcounts(st->u->checksum, &first), flag, many, c;
	gimple_seq call = NULL;
	gcall *gc;

	if (tcounts) {
		emit_counts_tls(seq, st, x, tcounts, first);
		return;
	}
	flag = tmp_of(char_type_node);
	many = create_tmp_var(boolean_type_node, "ipp_c");
	c = tmp_of(TREE_TYPE(x->counts));
	emit_assign(seq, flag, ipp_abi_trees[IPP_ABI_SINGLE_THREADED]);
	gimple_seq_add_stmt(seq, gimple_build_assign(many, EQ_EXPR, flag,
						     build_int_cst(char_type_node, 0)));
	emit_assign(seq, x->counts, ipp_abi_region_gcounts(x->region));
	if (keep_asm_ok()) {
		gimple_seq_add_stmt(&call, counts_keep_asm(c, x->reg, NULL_TREE));
	} else {
		gc = gimple_build_call(ABI_FN(__ipp_counts), 1, x->reg);
		gimple_call_set_lhs(gc, c);
		gimple_seq_add_stmt(&call, gc);
	}
	emit_assign(&call, x->counts, c);
	add_entry_cond(st, gimple_seq_last_stmt(*seq), many, call);
}

/* Function entry (docs/PROTOCOL.md rules 2 and 3). */
static void emit_entry(gimple_seq *seq, struct fnstate *st)
{
	tree fptr = build_pointer_type(ABI_TYPE(FRAME));
	if (st->frame)
		/* the first checkpoint: the Entry vertex, the number on entry */
		emit_push(seq, st->frame, st->cont ? NULL_TREE : st->reg, st->onentry,
			  inside(ipp_proc_entry(st->u->g, st->fi->proc)),
			  st->cont ? IPP_FRAME_CONTINUES : 0);
	if (st->saved_path)
		emit_assign(seq, st->saved_path, val(seq, ABI_TLS(__ipp_path)));
	/* the counters of its region, if counted inline (a summarized copy's
	 * are taken at the copy's entry, enter_copy) */
	if (st->own->counts)
		emit_counts_select(seq, st, st->own);
	if (st->anchor)
		emit_counts_select(seq, st, st->anchor);
	if (st->hslot && TREE_CODE(st->hslot) != INTEGER_CST) {
		/* a clone: its region's slot, (size_t) reg->hslot */
		tree k = tmp_of(TREE_TYPE(ABI_FIELD(REGION, hslot))), ks = tmp_of(sizetype);
		tree reg = build2(MEM_REF, ABI_TYPE(REGION), st->own->reg,
				  build_int_cst(TREE_TYPE(st->own->reg), 0));
		emit_assign(seq, k, fld(reg, ABI_FIELD(REGION, hslot)));
		gimple_seq_add_stmt(seq, gimple_build_assign(ks, NOP_EXPR, k));
		emit_assign(seq, st->hslot, ks);
	}
	emit_assign(seq, st->r, st->onentry);
	if (st->local) {
		emit_assign(seq, st->l, build_int_cstu(ipp_u64, 0));
		emit_assign(seq, st->row, build_int_cst(TREE_TYPE(st->row), 0));
	}
}

/* The entry's conditional blocks, once the entry's code is in its block:
 * after each recorded statement, `if (cond) { seq }` (insert_cond_bb),
 * taken unlikely: the arc check of a call through a pointer, the
 * runtime's counters of a multi-threaded process. */
static void finish_entry(struct fnstate *st)
{
	for (unsigned k = 0; k < st->conds.length(); k++) {
		struct cond_site *c = &st->conds[k];
		gcond *cond = gimple_build_cond(NE_EXPR, c->cond, boolean_false_node,
						NULL_TREE, NULL_TREE);
		basic_block bb = insert_cond_bb(gimple_bb(c->after), c->after,
						cond, profile_probability::unlikely());
		gimple_stmt_iterator gsi = gsi_start_bb(bb);
		gsi_insert_seq_after(&gsi, c->seq, GSI_NEW_STMT);
	}
	st->conds.release();
}

/* The fast paths of the records in rows (emit_row_record), now that the
 * code is in its blocks: each slow call gets a block of its own, and a
 * new block before it counts inline when the condition holds:
 *   bb:   ...; c = ...; if (c) goto fast; else goto slow;
 *   fast: t[idx] += 1;                                      -> join
 *   slow: t2 = __ipp_row (...); row = t2;                  -> join
 *   join: the rest of bb.
 * A hash record's (emit_hash_record) is the same with t[4] += 1, and
 * __ipp_record (...) alone in the slow block. */
static void finish_rows(struct fnstate *st)
{
	for (unsigned i = 0; i < st->sites.length(); i++) {
		struct row_site *rs = &st->sites[i];
		basic_block bb = gimple_bb(rs->slow), fast;
		gimple_stmt_iterator gsi = gsi_for_stmt(rs->slow);
		gimple_seq seq = NULL;
		edge to_slow, to_fast, e;
		tree off, nn, p, ref, c, c1;

		gsi_prev(&gsi);
		to_slow = gsi_end_p(gsi) ? split_block_after_labels(bb) : split_block(bb, gsi_stmt(gsi));
		e = split_block(to_slow->dest, rs->set);	/* slow | join */
		fast = create_empty_bb(bb);
		if (current_loops)
			add_bb_to_loop(fast, bb->loop_father);
		gsi = gsi_last_bb(bb);
		gsi_insert_after(&gsi, gimple_build_cond(NE_EXPR, rs->c, boolean_false_node,
							 NULL_TREE, NULL_TREE), GSI_NEW_STMT);
		to_slow->flags = (to_slow->flags & ~EDGE_FALLTHRU) | EDGE_FALSE_VALUE;
		to_fast = make_edge(bb, fast, EDGE_TRUE_VALUE);
		to_fast->probability = profile_probability::very_likely();
		to_slow->probability = to_fast->probability.invert();
		fast->count = bb->count;
		make_single_succ_edge(fast, e->dest, EDGE_FALLTHRU);

		nn = tmp_of(sizetype);
		gimple_seq_add_stmt(&seq, gimple_build_assign(nn, NOP_EXPR, rs->idx));
		off = tmp_of(sizetype);
		gimple_seq_add_stmt(&seq, gimple_build_assign(off, MULT_EXPR, nn, size_int(8)));
		p = tmp_of(TREE_TYPE(rs->t));
		gimple_seq_add_stmt(&seq, gimple_build_assign(p, POINTER_PLUS_EXPR, rs->t, off));
		ref = build2(MEM_REF, ipp_u64, p, build_int_cst(TREE_TYPE(rs->t), 0));
		c = tmp();
		c1 = tmp();
		emit_assign(&seq, c, ref);
		gimple_seq_add_stmt(&seq, gimple_build_assign(c1, PLUS_EXPR, c,
							      build_int_cstu(ipp_u64, 1)));
		emit_assign(&seq, unshare_expr(ref), c1);
		gsi = gsi_start_bb(fast);
		gsi_insert_seq_after(&gsi, seq, GSI_NEW_STMT);
	}
	if (st->sites.length())
		free_dominance_info(CDI_DOMINATORS);
	st->sites.release();
}

/* Return along an edge to Exit_P (rule 6): pop the frame, then a fresh
 * body restores the slots it saved and records; a continuing one hands
 * the number back. */
static void emit_return(gimple_seq *seq, struct fnstate *st)
{
	tree r;
	if (st->lazy_r && st->cont) {
		/* the number from the row tables: onentry + a[l] * nvc + b[l] */
		tree l = val(seq, st->l), ta = tmp(), tb = tmp(), m = tmp(), s = tmp();
		if (!st->fi->rows)
			st->fi->rows = ipp_abi_rows(st->local, st->u->checksum, st->fi->proc,
						    &st->fi->rows_a, &st->fi->rows_b);
		emit_assign(seq, ta, build4(ARRAY_REF, ipp_u64, st->fi->rows_a, l, NULL_TREE,
					    NULL_TREE));
		emit_assign(seq, tb, build4(ARRAY_REF, ipp_u64, st->fi->rows_b, l, NULL_TREE,
					    NULL_TREE));
		gimple_seq_add_stmt(seq, gimple_build_assign(m, MULT_EXPR, ta, st->nvc));
		gimple_seq_add_stmt(seq, gimple_build_assign(s, PLUS_EXPR, m, tb));
		emit_assign(seq, st->r, add_val(seq, st->onentry, s));
	}
	r = val(seq, st->r);
	if (st->frame)
		emit_pop(seq, st->frame);
	if (st->cont) {
		emit_assign(seq, ABI_TLS(__ipp_path), r);
		return;
	}
	if (st->saved_path)
		emit_assign(seq, ABI_TLS(__ipp_path), val(seq, st->saved_path));
	emit_record(seq, st, IPP_NONE, ipp_proc_exit(st->u->g, st->fi->proc));
}

/* ------------------------------------------------------------------ */
/* Calls                                                                */
/* ------------------------------------------------------------------ */

/* Where code that must run after a call goes: after it in its block, or on
 * its block's one normal out-edge if the call ends the block. */
static void insert_after_call(gcall *call, gimple_seq seq)
{
	basic_block bb = gimple_bb(call);
	if (stmt_ends_bb_p(call)) {
		edge e, ne = NULL;
		edge_iterator ei;
		FOR_EACH_EDGE(e, ei, bb->succs)
			if (ipp_normal_edge_p(e))
				ne = e;
		if (ne)
			gsi_insert_seq_on_edge(ne, seq);
		return;
	}
	gimple_stmt_iterator gsi = gsi_for_stmt(call);
	gsi_insert_seq_after(&gsi, seq, GSI_SAME_STMT);
}

/* Replaces call (to the procedure's original) by a call to its continuing
 * clone with the path state as the extra arguments (clone.cc). */
static void redirect_to_clone(struct fnstate *st, gcall *call, tree clone, tree r, tree nvc,
			      tree reg)
{
	unsigned n = gimple_call_num_args(call);
	auto_vec<tree> args(n + IPP_CLONE_NPARAMS);
	gcall *nc;
	gimple_stmt_iterator gsi = gsi_for_stmt(call);

	for (unsigned i = 0; i < n; i++)
		args.quick_push(gimple_call_arg(call, i));
	args.quick_push(r);		/* IPP_CLONE_PATH */
	args.quick_push(nvc);		/* IPP_CLONE_NVC */
	args.quick_push(reg);		/* IPP_CLONE_REGION */
	nc = gimple_build_call_vec(clone, args);
	gimple_call_set_lhs(nc, gimple_call_lhs(call));
	gimple_set_location(nc, gimple_location(call));
	gimple_set_block(nc, gimple_block(call));
	gimple_call_copy_flags(nc, call);
	gimple_call_set_tail(nc, false);
	gimple_move_vops(nc, call);
	gsi_replace(&gsi, nc, true);
	if (st->throwers->contains(call)) {
		st->throwers->remove(call);
		st->throwers->add(nc);
	}
}

/* The checkpoint at call vertex v (a real call or an inlined copy's):
 * unmarked, unless the path restarts at the call (a cut call vertex):
 * the runtime steps back to c - 1 from an unmarked call only (a stack
 * overflow in the callee's prologue). */
static int call_point(const struct fnstate *st, ipp_id v)
{
	return ipp_fin_is_cut_vertex(st->fin, v) ? inside(v) : (int)v;
}

/* Is the call at vertex v to a leaf function, with no checkpoint around
 * it (a leaf function returns to the unit only by returning)? */
static bool leaf_call(struct fnstate *st, ipp_id v)
{
	const ipp_graph *g = st->u->g;
	return ipp_fin_call_summary(st->fin, v) != IPP_SUM_NONE &&
	       (gimple_call_flags(body_call(st->b, v)) & ECF_LEAF) &&
	       !(ipp_call_flags(g, v) & IPP_CALL_INDIRECT) && !body_setjmp(st->b, v + 1);
}

/* May the checkpoints at summarized call vertex v and at its return site
 * be bare (unique_prefixes)?  Then they are: their vertices, and the one
 * before v, go to the module's restarts table, and the map flags the call
 * IPP_CALL_BARE (ipp_flag_bare_calls).  Only in a fresh body of intra
 * mode that keeps its register out of memory, at a call vertex that is
 * not cut. */
static bool bare_call(struct fnstate *st, ipp_id v)
{
	struct unit *u = st->u;
	if (st->ctx || st->cont || st->fi->in_memory || !own_frame(st) ||
	    ipp_fin_is_cut_vertex(st->fin, v) || body_setjmp(st->b, v + 1) ||
	    !u->pnum_known[v] || !u->pnum_known[v + 1] || !u->pnum_known[v - 1] ||
	    u->pnum[v - 1] != u->pnum[v] || u->pnum[v + 1] != u->pnum[v] ||
	    ipp_vertex_proc(u->g, v - 1) != ipp_vertex_proc(u->g, v))
		return false;
	u->bare_call[v - 1] = u->bare_call[v] = u->bare_call[v + 1] = true;
	return true;
}

void ipp_flag_bare_calls(struct unit *u)
{
	/* once, after every body: each change of a flag drops the graph's
	 * analyses (a DFS of the unit), which instrumenting queries */
	for (size_t v = 0; v < ipp_graph_nvertices(u->g); v++)
		if (u->bare_call[v] && ipp_vertex_kind(u->g, (ipp_id)v) == IPP_V_CALL)
			ipp_set_call_flags(u->g, (ipp_id)v,
					   ipp_call_flags(u->g, (ipp_id)v) | IPP_CALL_BARE);
}

/* The code around call vertex v (rules 1, 5, 7, 8). */
static void instrument_call(struct fnstate *st, ipp_id v)
{
	ipp_graph *g = st->u->g;
	const ipp_fin *fin = st->fin;
	struct body *b = st->b;
	gcall *call = body_call(b, v);
	gimple_seq seq = NULL;
	bool dead = body_dead(b, v + 1) == call;
	bool interproc = ipp_fin_call_summary(fin, v) == IPP_SUM_NONE;
	tree clone = NULL_TREE, r = NULL_TREE, nvc = NULL_TREE;

	int callpt = call_point(st, v);
	bool leaf = leaf_call(st, v);
	bool bare = false;

	/* a cut at the call vertex itself: the chain edge into it is removed */
	if (ipp_fin_is_cut_vertex(fin, v))
		emit_split(&seq, st, ipp_edge_src(g, st->u->chain_in[v]), v);
	if (tail_site(g, v)) {
		/* a tail call: the path goes on through the return (v + 1 ->
		 * Exit_P, the return of its own, tailcall.cc) and ends now, as
		 * the return would end it; nothing of ours runs after the call,
		 * and the frame, popped, is dead (tailc requires it).  Only in
		 * fresh bodies: a function that makes tail calls has no
		 * continuing clone (supergraph.cc). */
		ipp_id fe = ipp_fin_succ(fin, v + 1, 0);
		gcc_assert(!st->cont && !interproc && !dead &&
			   ipp_fin_edst(fin, fe) == ipp_proc_exit(g, st->fi->proc));
		emit_add(&seq, st, rho_val(&seq, st, fe));
		emit_local_add(&seq, st, fe);
		emit_return(&seq, st);
		if (st->frames)
			emit_assign(&seq, st->frames, build_clobber(TREE_TYPE(st->frames)));
		else if (st->frame)
			emit_assign(&seq, st->frame, build_clobber(TREE_TYPE(st->frame)));
		/* the arc of a tail call through a pointer: the count needs
		 * neither the frame nor anything after the call */
		if (st->ctx && (ipp_call_flags(g, v) & IPP_CALL_INDIRECT))
			emit_arc_count(&seq, st, call, v);
	} else if (interproc) {
		/* rule 1: the callee's clone continues the path */
		fninfo *q = ipp_fn_of_proc(st->u, ipp_call_callee(g, v));
		gcc_assert(q && q->clone);
		clone = q->clone->decl;
		emit_stand(&seq, st, callpt, true);
		r = val(&seq, st->r);
		nvc = psi_val(&seq, st, v + 1);
	} else if (dead && !ipp_is_unreachable_call(call)) {
		/* the call never returns: the path ends here */
		emit_record(&seq, st, ipp_fin_succ(fin, v + 1, 0), v + 1);
		emit_recorded(&seq, st);
		/* a call through a pointer counts its arc even so (rule 7):
		 * the callee runs, as gprof's mcount sees */
		if (st->ctx && (ipp_call_flags(g, v) & IPP_CALL_INDIRECT))
			emit_arc_count(&seq, st, call, v);
		if (ipp_is_longjmp_call(call))
			gimple_seq_add_stmt(&seq, gimple_build_call(ABI_FN(__ipp_longjmp_note), 1,
								    gimple_call_arg(call, 0)));
		if (gimple_call_builtin_p(call, BUILT_IN_NONLOCAL_GOTO))
			/* leaving for a parent function's label: every
			 * frame below the parent's save area is abandoned */
			gimple_seq_add_stmt(&seq, gimple_build_call(ABI_FN(__ipp_unwind_below), 1,
								    gimple_call_arg(call, 1)));
		if (gimple_call_builtin_p(call, BUILT_IN_LONGJMP))
			gimple_seq_add_stmt(&seq,
					    gimple_build_call(ABI_FN(__ipp_builtin_longjmp_note), 1,
							      gimple_call_arg(call, 0)));
	} else if (st->frame && !leaf) {
		/* a call to a leaf function returns, or the process dies in it
		 * (asynchronously): the checkpoint before it stands */
		if ((bare = bare_call(st, v)))
			emit_stand(&seq, st, (int)v | IPP_VERTEX_RESTART, false);
		else
			emit_stand(&seq, st, callpt, true);
		if (st->ctx && (ipp_call_flags(g, v) & IPP_CALL_INDIRECT))
			emit_arc_count(&seq, st, call, v);
	}
	gimple_stmt_iterator gsi = gsi_for_stmt(call);
	gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);
	if (interproc) {
		if (!dead) {
			/* the callee may have restarted the path (its loops) and
			 * handed back another number: checkpoint at the return site */
			gimple_seq after = NULL;
			emit_assign(&after, st->r, val(&after, ABI_TLS(__ipp_path)));
			if (st->local)
				emit_local_set(&after, st, ipp_local_retsite(st->local, v + 1));
			if (st->frame)
				emit_stand(&after, st, inside(v + 1), true);
			insert_after_call(call, after);
		}
		redirect_to_clone(st, call, clone, r, nvc, st->reg);
	} else if (!dead && st->frame && !leaf && !body_setjmp(b, v + 1) && !tail_site(g, v)) {
		/* returned: checkpoint at the return site (the number is the
		 * call's: the summary edge adds 0).  After setjmp, __ipp_receive
		 * must find the frame as it was; it checkpoints itself. */
		gimple_seq after = NULL;
		emit_stand(&after, st, inside(v + 1) | (bare ? IPP_VERTEX_RESTART : 0), false);
		insert_after_call(call, after);
	}
}

/* ------------------------------------------------------------------ */
/* Inlined copies: virtual procedures                                   */
/* ------------------------------------------------------------------ */

/* The kept copy of fi's body whose procedure is p, or -1 (the body's own
 * procedure). */
static int copy_of_proc(const fninfo *fi, ipp_id p)
{
	for (int k = 0; k < fi->inl.n; k++)
		if (!fi->inl.v[k].flat && fi->inl.v[k].proc == p)
			return k;
	return -1;
}

/* The code that follows is for procedure k of the body (-1: its own). */
static void use_proc(struct fnstate *st, int k)
{
	const struct vproc *x = k < 0 ? st->own : &st->vp[k];
	st->cur = k;
	st->r = x->r;
	st->nvc = x->nvc;
	st->onentry = x->onentry;
	st->reg = x->reg;
	st->counts = x->counts;
	st->counts_bias = st->unit_base && x->counts
				  ? ipp_abi_region_goffset(x->counts_region) * sizeof(uint64_t) : 0;
	st->hslot = x->hslot;
	st->frame = x->eframe;
}

/* The nearest of procedure a and the procedures around it that has
 * counters (an array region's), or NULL. */
static const struct vproc *counts_holder(const struct fnstate *st, const struct vproc *a)
{
	while (a && !a->counts) {
		int parent = a == st->own ? -2 : st->fi->inl.v[a - st->vp].parent;
		a = parent == -2 ? NULL : parent < 0 ? st->own : &st->vp[parent];
	}
	return a;
}

/* Element d of the function's frames (d = 0: its own frame). */
static tree frame_elt(const struct fnstate *st, unsigned d)
{
	tree t = build4(ARRAY_REF, ABI_TYPE(FRAME), st->frames, size_int(d), NULL_TREE, NULL_TREE);
	TREE_THIS_VOLATILE(t) = 1;	/* see fld() */
	TREE_SIDE_EFFECTS(t) = 1;
	return t;
}

/* The state of each kept copy (struct vproc), parents first (inl.v is in
 * preorder).  Its registers are SSA registers even in a function that
 * keeps its own in memory (state_var): they live from the copy's entry to
 * its exit, and no abnormal edge leaves a copy (inline.cc flattens a copy
 * that makes calls). */
static void setup_copies(struct fnstate *st)
{
	const struct inlines *in = &st->fi->inl;
	const ipp_graph *g = st->u->g;
	const struct body *b = st->b;
	unsigned nslots;

	st->vp = XCNEWVEC(struct vproc, in->n ? in->n : 1);
	nslots = 0;
	for (int k = 0; k < in->n; k++)
		nslots = MAX(nslots, in->v[k].slot);
	if (nslots) {
		/* the function's frame is element 0 of an array with its slots */
		st->frames = create_tmp_var(build_array_type_nelts(ABI_TYPE(FRAME), nslots + 1),
					    "ipp_frames");
		TREE_ADDRESSABLE(st->frames) = 1;
		TREE_THIS_VOLATILE(st->frames) = 1;	/* see fld() */
		TREE_SIDE_EFFECTS(st->frames) = 1;
		st->frame = frame_elt(st, 0);
	}
	st->own = XCNEW(struct vproc);
	st->own->r = st->r;
	st->own->nvc = st->nvc;
	st->own->onentry = st->onentry;
	st->own->reg = st->reg;
	st->own->counts = st->counts;
	st->own->counts_region = st->region;
	st->own->hslot = st->hslot;
	st->own->region = st->region;
	st->own->frame_path = true;
	st->own->frame = st->own->eframe = st->frame;
	st->cur = -1;
	for (int k = 0; k < in->n; k++) {
		const struct ipp_inl *c = &in->v[k];
		struct vproc *x = &st->vp[k], *p = c->parent < 0 ? st->own : &st->vp[c->parent];
		if (c->flat)
			continue;
		x->summarized = ipp_fin_call_summary(st->fin, c->call) != IPP_SUM_NONE;
		/* a summarized copy that keeps a checkpoint has a frame of
		 * its own (ipp_decide_frames: the function, and every copy
		 * around it, keep one too); a continuing one keeps its
		 * checkpoints in the frame around it (ipp_copy_runs) */
		if (c->framed && x->summarized && c->slot) {
			gcc_assert(p->eframe);
			x->frame = frame_elt(st, c->slot);
		} else if (c->framed && x->summarized) {
			gcc_assert(p->eframe);
			x->frame = create_tmp_var(ABI_TYPE(FRAME), "ipp_vframe");
			TREE_ADDRESSABLE(x->frame) = 1;
			TREE_THIS_VOLATILE(x->frame) = 1;	/* see fld() */
			TREE_SIDE_EFFECTS(x->frame) = 1;
		}
		x->eframe = x->frame ? x->frame : p->eframe;
		if (x->summarized) {
			x->frame_path = x->frame != NULL;
			ipp_id region = ipp_fin_region_find(st->fin, ipp_proc_asm(g, c->proc));
			mpz_t total;
			gcc_assert(region != IPP_NONE);
			x->region = region;
			x->r = create_tmp_var(ipp_u64, "ipp_vr");
			x->nvc = build_int_cstu(ipp_u64, 1);
			x->onentry = build_int_cstu(ipp_u64, 0);
			x->reg = ipp_abi_region_addr(region);
			/* a region small enough for an array: count inline, the
			 * counters taken at the copy's entry (enter_copy) */
			mpz_init(total);
			ipp_fin_region_total(st->fin, region, total);
			if (mpz_cmp_ui(total, IPP_ARRAY_MAX) <= 0 && !ipp_opts.last) {
				x->counts = state_var(st, build_pointer_type(ipp_u64), "ipp_vcounts");
				x->counts_region = region;
				/* the counters of the nearest procedure around it
				 * that counts in an array were selected at its
				 * entry, which dominates the copy's */
				x->counts_from = counts_holder(st, p);
			}
			/* a hash region: probed through its slot, as a fresh
			 * body's own (the region is a constant) */
			else if (!ipp_opts.last)
				x->hslot = size_int(ipp_abi_region_hslot(region));
			mpz_clear(total);
			continue;
		}
		x->r = p->r;
		x->reg = p->reg;
		x->counts = p->counts;
		x->counts_region = p->counts_region;
		x->frame_path = x->frame || p->frame_path;
		x->onentry = create_tmp_var(ipp_u64, "ipp_von");
		if (TREE_CODE(p->nvc) == INTEGER_CST) {
			gimple_seq none = NULL;
			use_proc(st, c->parent);
			x->nvc = psi_val(&none, st, c->call + 1);
			gcc_assert(!none && TREE_CODE(x->nvc) == INTEGER_CST);
		} else
			x->nvc = create_tmp_var(ipp_u64, "ipp_vnvc");
	}
	use_proc(st, -1);
	/* copies that would select their counters themselves: two or more
	 * in a fresh body take them from an anchor at its entry instead.
	 * Intra mode only: in context mode the anchor cost SQLite 1.15M
	 * instructions more than it saved (hot bodies whose copies are
	 * cold), where intra mode broke even with a smaller build */
	{
		int alone = 0;
		for (int k = 0; k < in->n; k++)
			alone += !in->v[k].flat && st->vp[k].counts && !st->vp[k].counts_from;
		if (alone >= 2 && !st->cont && !st->ctx) {
			struct vproc *a = st->anchor = XCNEW(struct vproc);
			for (int k = 0; k < in->n; k++) {
				struct vproc *x = &st->vp[k];
				if (in->v[k].flat || !x->counts || x->counts_from)
					continue;
				if (!a->counts) {
					a->counts = state_var(st, build_pointer_type(ipp_u64), "ipp_ucounts");
					a->region = a->counts_region = x->counts_region;
					a->reg = ipp_abi_region_addr(a->region);
				}
				x->counts_from = a;
			}
		}
	}
	/* which copies record at a restart (or hold one that does) */
	for (size_t i = 0; i < b->nv; i++) {
		ipp_id v = b->vbase + (ipp_id)i;
		int k = copy_of_proc(st->fi, ipp_vertex_proc(g, v));
		if (st->exit_of[v] == IPP_NONE)
			continue;
		for (; k >= 0; k = in->v[k].parent)
			st->vp[k].restarts = true;
	}
}

/* Control enters inlined copy k through its call vertex c (the caller's
 * state is current): its state on entry. */
static void enter_copy(gimple_seq *seq, struct fnstate *st, int k, ipp_id c)
{
	struct vproc *x = &st->vp[k];
	if (x->summarized) {
		emit_assign(seq, x->r, build_int_cstu(ipp_u64, 0));
		if (x->counts && x->counts_from && st->unit_base) {
			/* the same unit base: its own bias says where */
			emit_assign(seq, x->counts, val(seq, x->counts_from->counts));
		} else if (x->counts && x->counts_from) {
			/* the unit's counters are one array: the same
			 * distance apart in the thread's (ipp_abi.h) */
			const struct vproc *a = x->counts_from;
			int64_t d = (int64_t)(ipp_abi_region_goffset(x->counts_region) -
					      ipp_abi_region_goffset(a->counts_region));
			tree base = val(seq, a->counts), c = tmp_of(TREE_TYPE(base));
			gimple_seq_add_stmt(seq, gimple_build_assign(c, POINTER_PLUS_EXPR, base,
								     size_int(d * 8)));
			emit_assign(seq, x->counts, c);
		} else if (x->counts)
			emit_counts_select(seq, st, x);
	} else {
		if (TREE_CODE(x->nvc) != INTEGER_CST)
			emit_assign(seq, x->nvc, psi_val(seq, st, c + 1));
		emit_assign(seq, x->onentry, val(seq, st->r));
	}
	/* a continuing copy stores nothing here: the frame around it stands
	 * where it stood (a valid prefix) until the copy's first checkpoint,
	 * and stands at the return site again when the copy is left */
	if (x->frame && st->fi->inl.v[k].slot) {
		/* a slot (ipp_abi.h, struct ipp_rt_slot): its Entry
		 * checkpoint first (number 0: a summarized copy's; flags 0),
		 * then the frame around it stands at the call vertex, which
		 * the slots table names.  Nothing is pushed. */
		int v = inside(ipp_proc_entry(st->u->g, st->fi->inl.v[k].proc));
		gcc_assert(own_frame(st) && x->summarized && integer_zerop(x->onentry));
		emit_vertex_flags(seq, x->frame, v | IPP_VERTEX_PATH0, 0);
		emit_stand(seq, st, call_point(st, c), true);
	} else if (x->frame) {
		/* as at a real call (instrument_call): the caller stands at
		 * the call vertex (marked where the path restarted there, a
		 * cut), then the copy's frame stands at its Entry */
		gcc_assert(own_frame(st));
		emit_stand(seq, st, call_point(st, c), true);
		emit_push(seq, x->frame, x->reg, x->onentry,
			  inside(ipp_proc_entry(st->u->g, st->fi->inl.v[k].proc)),
			  x->summarized ? 0 : IPP_FRAME_CONTINUES);
	}
}

/* The code for one G* edge e of a CFG edge's route (supergraph.cc,
 * add_route): the increment in the state of the procedure e lies in, a
 * record and restart at a back edge or cut, the return at Exit_P; at an
 * inlined copy's exit, its record if it is summarized; at its call
 * vertex, its state on entry; at its return site, the frame's checkpoint
 * again (emit_split). */
static void emit_route_edge(gimple_seq *seq, struct fnstate *st, ipp_id e)
{
	const ipp_graph *g = st->u->g;
	const ipp_fin *fin = st->fin;
	ipp_id src = ipp_edge_src(g, e), dst = ipp_edge_dst(g, e);
	ipp_id p = ipp_vertex_proc(g, src);

	use_proc(st, copy_of_proc(st->fi, p));
	if (ipp_vertex_kind(g, src) == IPP_V_RETSITE &&
	    (ipp_call_flags(g, src - 1) & IPP_CALL_INLINED)) {
		int k = copy_of_proc(st->fi, ipp_call_callee(g, src - 1));
		if (st->vp[k].frame)
			/* back from a copy with a frame or a slot: as after a
			 * real call (instrument_call) */
			emit_stand(seq, st, inside(src), false);
		else if (st->fi->inl.v[k].framed)
			/* back from a continuing copy whose checkpoints went
			 * to our frame: it stands here again, with the
			 * number the copy brought */
			emit_stand(seq, st, inside(src), true);
	}
	if (ipp_graph_is_back_edge(g, e) || ipp_fin_is_cut_vertex(fin, dst)) {
		emit_split(seq, st, src, dst);
		if (ipp_vertex_kind(g, dst) == IPP_V_CALL && (ipp_call_flags(g, dst) & IPP_CALL_INLINED))
			enter_copy(seq, st, copy_of_proc(st->fi, ipp_call_callee(g, dst)), dst);
		return;
	}
	gcc_assert(st->fin_of[e] != IPP_NONE);
	emit_add(seq, st, rho_val(seq, st, st->fin_of[e]));
	emit_local_add(seq, st, st->fin_of[e]);
	if (dst == ipp_proc_exit(g, p)) {
		if (st->cur < 0)
			emit_return(seq, st);	/* Exit_P's out-edges add 0 */
		else {
			/* a copy returns: its frame popped first, as a real
			 * activation's (emit_return), then its path recorded if
			 * it is its own */
			if (st->vp[st->cur].frame && !st->fi->inl.v[st->cur].slot)
				emit_pop(seq, st->vp[st->cur].frame);
			if (st->vp[st->cur].summarized)
				emit_record(seq, st, IPP_NONE, dst);
		}
	} else if (ipp_vertex_kind(g, dst) == IPP_V_CALL &&
		   (ipp_call_flags(g, dst) & IPP_CALL_INLINED)) {
		enter_copy(seq, st, copy_of_proc(st->fi, ipp_call_callee(g, dst)), dst);
	}
}

/* ------------------------------------------------------------------ */
/* One body                                                             */
/* ------------------------------------------------------------------ */

/* Does the procedure make interprocedural (continuing) calls? */
static bool makes_continuing_calls(const ipp_graph *g, const ipp_fin *fin, const struct body *b)
{
	for (size_t k = 0; k < b->nv; k++)
		if (b->call_stmt[k] &&
		    ipp_fin_call_summary(fin, b->vbase + (ipp_id)k) == IPP_SUM_NONE)
			return true;
	return false;
}

/* Bare calls (intra mode).  Where a single path of G*fin leads from its
 * procedure's entry to a call vertex c and on to its return site, the
 * number at c is a constant: the partial sum along that path (rho with
 * nvc 1; a path that restarts begins with a surrogate entry edge, so
 * the paths from the entry are all the paths that reach c).  The
 * checkpoint at c then stores the vertex alone, marked
 * IPP_VERTEX_RESTART, and so does the one at c's return site; the
 * module's restarts table gives the number at c, at c - 1 (where the
 * runtime stops a path whose callee overflowed the stack: the same
 * number, docs/PROTOCOL.md) and at the return site (the summary edge adds
 * 0).  One store per checkpoint at the call instead of two.  Fills
 * u->pnum_known and u->pnum: a topological pass over G*fin (acyclic; a
 * vertex left unvisited is not known), counting paths up to two.  Only a
 * procedure's Entry starts a count: a vertex that a path from anywhere
 * else reaches (the global entry, a GEntry_P) counts as reached twice,
 * since its number there is not the Entry region's. */
static void unique_prefixes(struct unit *u, const ipp_fin *fin)
{
	size_t nfv = ipp_fin_nvertices(fin), nfe = ipp_fin_nedges(fin);
	size_t nv = ipp_graph_nvertices(u->g);
	unsigned char *npaths = XCNEWVEC(unsigned char, nfv + 1);	/* 0, 1, 2: more */
	uint64_t *sum = XCNEWVEC(uint64_t, nfv + 1);
	size_t *indeg = XCNEWVEC(size_t, nfv + 1);
	ipp_id *work = XNEWVEC(ipp_id, nfv + 1);
	size_t nwork = 0;
	mpz_t a, b;

	mpz_inits(a, b, NULL);
	for (size_t e = 0; e < nfe; e++)
		indeg[ipp_fin_edst(fin, (ipp_id)e)]++;
	for (size_t v = 0; v < nfv; v++)
		if (!indeg[v]) {
			npaths[v] = 2;	/* unless it is an Entry (below) */
			work[nwork++] = (ipp_id)v;
		}
	while (nwork) {
		ipp_id w = work[--nwork];
		if (ipp_fin_vkind(fin, w) == IPP_V_ENTRY) {
			npaths[w] = 1;	/* a region starts here */
			sum[w] = 0;
		}
		for (size_t i = 0; i < ipp_fin_nsucc(fin, w); i++) {
			ipp_id e = ipp_fin_succ(fin, w, i), d = ipp_fin_edst(fin, e);
			if (npaths[w] == 1 && !npaths[d]) {
				ipp_fin_rho(fin, e, a, b);
				mpz_add(a, a, b);
				mpz_add_ui(a, a, sum[w]);
				if (mpz_sizeinbase(a, 2) <= 64 && mpz_sgn(a) >= 0) {
					npaths[d] = 1;
					sum[d] = mpz_get_ui(a);
				} else
					npaths[d] = 2;
			} else if (npaths[w])
				npaths[d] = 2;
			if (--indeg[d] == 0)
				work[nwork++] = d;
		}
	}
	for (size_t v = 0; v < nv && v < nfv; v++) {
		gcc_assert(ipp_fin_vorigin(fin, (ipp_id)v) == (ipp_id)v);
		u->pnum_known[v] = npaths[v] == 1;
		u->pnum[v] = sum[v];
	}
	mpz_clears(a, b, NULL);
	XDELETEVEC(npaths);
	XDELETEVEC(sum);
	XDELETEVEC(indeg);
	XDELETEVEC(work);
}

void ipp_fin_maps(struct unit *u, const ipp_fin *fin)
{
	size_t nv = ipp_graph_nvertices(u->g), ne = ipp_graph_nedges(u->g);
	u->fin_of = XNEWVEC(ipp_id, ne);
	u->exit_of = XNEWVEC(ipp_id, nv);
	u->restart_of = XNEWVEC(ipp_id, nv);
	u->stands = XCNEWVEC(bool, nv + 1);
	u->restart_bare = XCNEWVEC(bool, nv + 1);
	u->slot_at = XCNEWVEC(unsigned, nv + 1);
	u->bare_call = XCNEWVEC(bool, nv + 1);
	u->pnum_known = XCNEWVEC(bool, nv + 1);
	u->pnum = XCNEWVEC(uint64_t, nv + 1);
	for (size_t i = 0; i < ne; i++)
		u->fin_of[i] = IPP_NONE;
	for (size_t i = 0; i < nv; i++)
		u->exit_of[i] = u->restart_of[i] = IPP_NONE;
	for (size_t e = 0; e < ipp_fin_nedges(fin); e++) {
		ipp_id src = ipp_fin_esrc(fin, (ipp_id)e), dst = ipp_fin_edst(fin, (ipp_id)e);
		switch (ipp_fin_ekind(fin, (ipp_id)e)) {
		case IPP_E_NORMAL:
			u->fin_of[ipp_fin_eorigin(fin, (ipp_id)e)] = (ipp_id)e;
			break;
		case IPP_E_SURR_EXIT:
			u->exit_of[src] = (ipp_id)e;
			break;
		case IPP_E_SURR_ENTRY:
			u->restart_of[dst] = (ipp_id)e;
			break;
		default:
			break;
		}
	}
	if (ipp_fin_mode(fin) == IPP_MODE_INTRA && ipp_opts.bare_calls)
		unique_prefixes(u, fin);
}

/* Is stmt a store to a frame's path field (frame.path = x)?  Then its frame. */
static tree frame_path_store(gimple *stmt)
{
	tree lhs;
	if (!gimple_assign_single_p(stmt))
		return NULL_TREE;
	lhs = gimple_assign_lhs(stmt);
	if (TREE_CODE(lhs) != COMPONENT_REF || TREE_OPERAND(lhs, 1) != ABI_FIELD(FRAME, path) ||
	    !VAR_P(TREE_OPERAND(lhs, 0)))
		return NULL_TREE;
	return TREE_OPERAND(lhs, 0);
}

/* v, or the register it is a copy of (the value of a checkpoint's store is
 * a copy of r taken where it is emitted, val()). */
static tree copy_root(tree v)
{
	while (TREE_CODE(v) == SSA_NAME && !SSA_NAME_IS_DEFAULT_DEF(v)) {
		gimple *d = SSA_NAME_DEF_STMT(v);
		if (!gimple_assign_ssa_name_copy_p(d) && !(gimple_assign_single_p(d) &&
							   TREE_CODE(gimple_assign_rhs1(d)) == INTEGER_CST))
			break;
		v = gimple_assign_rhs1(d);
	}
	return v;
}

/* Drops a store of a frame's path that stores the value the field already
 * holds: the same SSA register or constant as the last store to it in the
 * block, with no call, asm or store through a pointer in between (only
 * the function's own checkpoints write a frame's path, and a store to
 * another variable cannot reach it).  Checkpoints are volatile stores
 * (fld), which GCC keeps; back to back they repeat the number whenever
 * the path has not moved between two of them (a return site, then the
 * call vertex of an inlined copy, then the copy's entry).  The memory
 * holds the same value at every instruction with or without the second
 * store, so a signal handler cannot tell. */
static void drop_repeated_path_stores(function *fun)
{
	typedef auto_vec<std::pair<tree, tree>, 4> known_t;	/* frame, value */
	int *rpo = XNEWVEC(int, n_basic_blocks_for_fn(fun));
	int n = pre_and_rev_post_order_compute_fn(fun, NULL, rpo, false);
	/* what is known at the end of each block, by index (blocks in
	 * reverse postorder: a block's single predecessor comes first
	 * unless the edge is a back edge) */
	known_t *out = new known_t[last_basic_block_for_fn(fun)];
	auto_sbitmap done(last_basic_block_for_fn(fun));
	bitmap_clear(done);
	for (int i = 0; i < n; i++) {
		basic_block bb = BASIC_BLOCK_FOR_FN(fun, rpo[i]);
		known_t &known = out[bb->index];
		if (single_pred_p(bb) && !(single_pred_edge(bb)->flags & EDGE_ABNORMAL) &&
		    single_pred(bb)->index >= NUM_FIXED_BLOCKS &&
		    bitmap_bit_p(done, single_pred(bb)->index))
			known.safe_splice(out[single_pred(bb)->index]);
		for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);) {
			gimple *stmt = gsi_stmt(gsi);
			tree frame = frame_path_store(stmt), v;
			unsigned k;
			if (!frame) {
				tree lhs = gimple_get_lhs(stmt);
				if (is_gimple_call(stmt) || gimple_code(stmt) == GIMPLE_ASM ||
				    (gimple_vdef(stmt) && !(lhs && DECL_P(get_base_address(lhs)))))
					known.truncate(0);
				gsi_next(&gsi);
				continue;
			}
			v = copy_root(gimple_assign_rhs1(stmt));
			for (k = 0; k < known.length() && known[k].first != frame; k++)
				;
			if (k < known.length() && (TREE_CODE(v) == SSA_NAME || TREE_CODE(v) == INTEGER_CST) &&
			    operand_equal_p(known[k].second, v, 0)) {
				unlink_stmt_vdef(stmt);
				gsi_remove(&gsi, true);
				release_defs(stmt);
				continue;
			}
			if (k == known.length())
				known.safe_push(std::make_pair(frame, v));
			else
				known[k].second = v;
			gsi_next(&gsi);
		}
		bitmap_set_bit(done, bb->index);
	}
	delete[] out;
	XDELETEVEC(rpo);
}

void ipp_instrument(struct unit *u, fninfo *fi, struct body *b, const ipp_fin *fin)
{
	ipp_graph *g = u->g;
	struct fnstate st;
	ipp_id p = fi->proc;
	function *fun = b->fun;

	memset(&st, 0, sizeof(st));
	st.fin = fin;
	st.u = u;
	st.fi = fi;
	st.b = b;
	st.ctx = ipp_fin_mode(fin) == IPP_MODE_CONTEXT;
	st.cont = b->cont;
	st.region = ipp_fin_region_find(fin, ipp_proc_asm(g, p));
	gcc_assert(st.cont || st.region != IPP_NONE);
	st.fin_of = u->fin_of;
	st.exit_of = u->exit_of;
	st.restart_of = u->restart_of;

	push_cfun(fun);
	hash_set<gimple *> throwers;
	st.throwers = &throwers;
	ipp_unwind_collect(g, b, &throwers);
	/* With abnormal edges the register is a volatile local, not an SSA
	 * register: its value must survive them. */
	st.r = create_tmp_var(ipp_u64, "ipp_r");
	if (fi->in_memory) {
		TREE_ADDRESSABLE(st.r) = 1;
		TREE_THIS_VOLATILE(st.r) = 1;
		TREE_SIDE_EFFECTS(st.r) = 1;
	}
	if (st.cont) {
		st.onentry = get_or_create_ssa_default_def(fun, ipp_clone_param(b, IPP_CLONE_PATH));
		st.nvc = get_or_create_ssa_default_def(fun, ipp_clone_param(b, IPP_CLONE_NVC));
		st.reg = get_or_create_ssa_default_def(fun, ipp_clone_param(b, IPP_CLONE_REGION));
	} else {
		tree decl = b->decl;
		st.onentry = build_int_cstu(ipp_u64, 0);
		st.nvc = build_int_cstu(ipp_u64, 1);
		st.reg = ipp_abi_region_addr(st.region);
		/* Only code that can run between a clone's store of
		 * __ipp_path and its caller's load (a signal handler) must
		 * give it back: a function entered from outside the unit's
		 * instrumented code (the map's `entry` flag: externally
		 * visible, address taken, aliased, called by a skipped
		 * function, ...).  What it calls runs inside its save. */
		if (makes_continuing_calls(g, fin, b) &&
		    (ipp_proc_flags(g, fi->proc) & IPP_PROC_ENTRY))
			st.saved_path = state_var(&st, ipp_u64, "ipp_saved_path");
		/* a region small enough for an array: count inline */
		mpz_t total;
		mpz_init(total);
		ipp_fin_region_total(fin, st.region, total);
		if (mpz_cmp_ui(total, IPP_ARRAY_MAX) <= 0 && !ipp_opts.last)
			st.counts = state_var(&st, build_pointer_type(ipp_u64), "ipp_counts");
		mpz_clear(total);
	}

	/* two-level counting: where the path's region is not an array */
	if (fi->local && !st.counts && !fi->in_memory && !ipp_opts.last) {
		st.local = fi->local;
		st.l = create_tmp_var(ipp_u64, "ipp_l");
		st.row = create_tmp_var(build_pointer_type(ipp_u64), "ipp_row");
		/* Nothing needs r but the records, the checkpoints at the
		 * restarts (whose values are the restarts') and the return:
		 * no frame for calls, no continuing calls (no path starts at
		 * a return site).  Then r is not kept on the edges. */
		st.lazy_r = st.cont && !fi->calls_framed && !makes_continuing_calls(g, fin, b);
	}
	/* A body that counts in a hash region (no array, no rows) probes
	 * the thread's table inline at each record, found in its unit's
	 * slot of the region (ipp_abi.h, __ipp_hmiss): a fresh body's
	 * region is its own, a constant slot; a clone's is its caller's,
	 * whose slot it loads from the region once per activation if it
	 * records at its restarts (its loops), the only records of a
	 * continuing body.  A clone's region may be an array region: its
	 * slot 0 then holds the empty table, and every probe misses into
	 * __ipp_hmiss. */
	if (!st.counts && !st.local && !ipp_opts.last) {
		if (!st.cont) {
			gcc_assert(ipp_abi_region_hslot(st.region) != 0);
			st.hslot = size_int(ipp_abi_region_hslot(st.region));
		}
		else if (ipp_fin_proc_restarts(fin, fi->proc))
			st.hslot = state_var(&st, sizetype, "ipp_hslot");
	}

	/* The frame: for the calls that need one, and for a body that records
	 * at its restarts, whose checkpoint must move on with them
	 * (ipp_decide_frames; emit_split asserts it). */
	if (fi->framed) {
		st.frame = create_tmp_var(ABI_TYPE(FRAME), "ipp_frame");
		TREE_ADDRESSABLE(st.frame) = 1;
		TREE_THIS_VOLATILE(st.frame) = 1;	/* see fld() */
		TREE_SIDE_EFFECTS(st.frame) = 1;
	}

	/* In code for an executable the counters are the unit's, selected
	 * through its thread-local (emit_counts_tls); each procedure's
	 * region is a constant distance into them (use_proc). */
	st.unit_base = ipp_abi_tcounts_ok();
	setup_copies(&st);
	gcc_assert(!st.local || !ipp_inline_kept(&fi->inl));
	{
		gimple_seq seq = NULL;
		emit_entry(&seq, &st);
		gsi_insert_seq_on_edge(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)), seq);
	}

	/* inside blocks: around each call, in the state of the procedure it
	 * lies in (the body's own, or an inlined copy's) */
	for (size_t k = 0; k < b->nv; k++) {
		ipp_id v = b->vbase + (ipp_id)k;
		if (b->call_stmt[k] && ipp_vertex_kind(g, v) == IPP_V_CALL) {
			use_proc(&st, copy_of_proc(fi, ipp_vertex_proc(g, v)));
			instrument_call(&st, v);
		}
	}
	use_proc(&st, -1);
	/* dead ends that are not calls */
	for (int i = NUM_FIXED_BLOCKS; i < b->nbb; i++) {
		ipp_id t = b->tail[i];
		gimple *last;
		gimple_seq seq = NULL;
		if (t == IPP_NONE || !(last = body_dead(b, t)))
			continue;	/* not a dead end */
		if (ipp_vertex_kind(g, t) == IPP_V_RETSITE && body_call(b, t - 1) == last)
			continue;	/* a noreturn call: handled with the call */
		if (ipp_is_unreachable_call(last) ||
		    (is_gimple_call(last) && gimple_call_internal_p(last)))
			continue;	/* unreachable, or the abnormal dispatcher */
		emit_record(&seq, &st, ipp_fin_succ(fin, t, 0), t);
		emit_recorded(&seq, &st);
		if (ipp_is_computed_goto(last))
			emit_assign(&seq, st.r, build_int_cstu(ipp_u64, IPP_PATH_RESTART));
		gimple_stmt_iterator gsi = gsi_for_stmt(last);
		gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);
	}

	/* setjmp: note the receiver on the block's normal in-edges */
	for (size_t k = 0; k < b->nv; k++) {
		gcall *call = b->setjmp_call[k];
		tree buf;
		edge e;
		edge_iterator ei;
		if (!call)
			continue;
		buf = gimple_call_arg(call, 0);
		if (TREE_CODE(buf) == SSA_NAME && gimple_bb(SSA_NAME_DEF_STMT(buf)) == gimple_bb(call))
			continue;	/* defined by a PHI of the block: not available on the edges */
		FOR_EACH_EDGE(e, ei, gimple_bb(call)->preds) {
			gimple_seq seq = NULL;
			if (e->flags & EDGE_ABNORMAL)
				continue;
			gimple_seq_add_stmt(&seq, gimple_build_call(ABI_FN(__ipp_setjmp_note), 2,
								    unshare_expr(buf),
								    build_fold_addr_expr(unshare_expr(st.frame))));
			gsi_insert_seq_on_edge(e, seq);
		}
	}

	/* landing pads: an exception arrived, the path restarts (unwind.cc);
	 * on the EH in-edges if normal ones enter the pad too */
	for (int i = NUM_FIXED_BLOCKS; i < b->nbb; i++) {
		ipp_id h = b->head[i];
		basic_block bb = BASIC_BLOCK_FOR_FN(fun, i);
		bool only_eh = true;
		edge e;
		edge_iterator ei;
		if (h == IPP_NONE || !ipp_vertex_is_restart(g, h) || !landing_pad_p(bb))
			continue;
		FOR_EACH_EDGE(e, ei, bb->preds)
			only_eh &= (e->flags & EDGE_EH) != 0;
		FOR_EACH_EDGE(e, ei, bb->preds) {
			gimple_seq seq = NULL;
			if (!only_eh && !(e->flags & EDGE_EH))
				continue;
			gimple_seq_add_stmt(&seq, gimple_build_call(ABI_FN(__ipp_eh_land), 1,
								    build_fold_addr_expr(unshare_expr(st.frame))));
			emit_assign(&seq, st.r, restart_val(&seq, &st, h));
			emit_stand(&seq, &st, inside(h), true);	/* a restart */
			if (only_eh) {
				gimple_stmt_iterator gsi = gsi_after_labels(bb);
				gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);
				break;
			}
			gsi_insert_seq_on_edge(e, seq);
		}
	}

	/* computed-goto targets: restart if the path register says so */
	for (int i = NUM_FIXED_BLOCKS; i < b->nbb; i++) {
		ipp_id h = b->head[i];
		gimple_seq seq = NULL;
		tree t, c, t2, rs;
		if (h == IPP_NONE || !ipp_vertex_is_restart(g, h) ||
		    landing_pad_p(BASIC_BLOCK_FOR_FN(fun, i)))
			continue;
		c = create_tmp_var(boolean_type_node, "ipp_c");
		t2 = tmp();
		t = val(&seq, st.r);
		rs = restart_val(&seq, &st, h);
		gimple_seq_add_stmt(&seq, gimple_build_assign(c, EQ_EXPR, t,
							      build_int_cstu(ipp_u64, IPP_PATH_RESTART)));
		gimple_seq_add_stmt(&seq, gimple_build_assign(t2, COND_EXPR, c, rs, t));
		emit_assign(&seq, st.r, t2);
		emit_stand(&seq, &st, inside(h), true);	/* a restart */
		gimple_stmt_iterator gsi = gsi_after_labels(BASIC_BLOCK_FOR_FN(fun, i));
		gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);
	}

	/* on CFG edges: each stands for the route of G* edges that starts
	 * with its own (through the exits and entries of inlined copies) */
	for (size_t k = 0; k < b->ne; k++) {
		ipp_id e = b->ebase + (ipp_id)k, src = ipp_edge_src(g, e);
		edge ge = b->gedge[k];
		gimple_seq seq = NULL;
		gcall *sj;
		if (!ge)
			continue;
		if (ipp_vertex_kind(g, src) == IPP_V_RETSITE && tail_site(g, src - 1))
			continue;	/* done before the tail call */
		if ((sj = body_setjmp(b, src))) {
			/* the setjmp receiver: after a longjmp, restart at the return site */
			tree ret = gimple_call_lhs(sj), res = tmp(), rs, t;
			if (!ret) {
				ret = make_ssa_name(TREE_TYPE(TREE_TYPE(gimple_call_fndecl(sj))));
				gimple_call_set_lhs(sj, ret);
				update_stmt(sj);
			}
			t = val(&seq, st.r);
			rs = restart_val(&seq, &st, src);
			gimple_seq_add_stmt(&seq, gimple_build_call(ABI_FN(__ipp_receive), 4,
				build_fold_addr_expr(unshare_expr(st.frame)), fold_convert(integer_type_node, ret), t, rs));
			gimple_call_set_lhs(gimple_seq_last_stmt(seq), res);
			emit_assign(&seq, st.r, res);
			emit_stand(&seq, &st, inside(src), true);	/* a restart */
		}
		for (ipp_id x = e; x != IPP_NONE; x = u->rnext[x])
			emit_route_edge(&seq, &st, x);
		use_proc(&st, -1);
		if (seq)
			gsi_insert_seq_on_edge(ge, seq);
	}

	gsi_commit_edge_inserts();
	finish_entry(&st);
	finish_rows(&st);
	/* the unwinder's way out: pop the frame (unwind.cc) */
	if (st.frame)
		ipp_unwind_pad(fun, &throwers, st.frame);
	update_ssa(TODO_update_ssa);
	drop_repeated_path_stores(fun);
	pop_cfun();
	XDELETE(st.own);
	XDELETE(st.anchor);
	XDELETEVEC(st.vp);
}

/* An uninstrumented function that control re-enters abnormally (a
 * nonlocal-goto receiver, a __builtin_setjmp receiver) has no frame, but
 * the instrumented functions it called may have left theirs on the list
 * when a nonlocal goto or __builtin_longjmp came back out of them: dead
 * stack memory that the runtime would walk at exit.  Outside its calls,
 * the thread's top frame in such a function is always the one it found at
 * entry, so: save __ipp_top at entry, restore it at every block control
 * can reach abnormally (after __builtin_setjmp_receiver, which restores
 * the frame pointer the saved copy is addressed through).  The abandoned
 * frames' pending paths are dropped unread, as after a longjmp from
 * uninstrumented code (docs/PROTOCOL.md). */
void ipp_guard_receiver(fninfo *fi)
{
	function *fun = fi->fun;
	tree saved, ptype = build_pointer_type(ABI_TYPE(FRAME));
	basic_block bb;

	push_cfun(fun);
	saved = create_tmp_var(ptype, "ipp_saved_top");
	TREE_ADDRESSABLE(saved) = 1;
	TREE_THIS_VOLATILE(saved) = 1;
	TREE_SIDE_EFFECTS(saved) = 1;
	{
		gimple_seq seq = NULL;
		emit_assign(&seq, saved, val(&seq, ABI_TLS(__ipp_top)));
		gsi_insert_seq_on_edge(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)), seq);
	}
	FOR_EACH_BB_FN(bb, fun) {
		edge e;
		edge_iterator ei;
		bool abnormal = false;
		gimple_stmt_iterator gsi;
		gimple_seq seq = NULL;
		FOR_EACH_EDGE(e, ei, bb->preds)
			if (e->flags & EDGE_ABNORMAL)
				abnormal = true;
		if (!abnormal)
			continue;
		gsi = gsi_start_nondebug_after_labels_bb(bb);
		/* Not in the abnormal dispatcher: every edge out of it is
		 * abnormal (each successor restores), and the inliner finds
		 * the dispatcher only as its block's first statement
		 * (get_abnormal_succ_dispatcher): a statement before it left
		 * the calls of a body inlined here without their abnormal
		 * edges, and GCC then miscompiled the receiver (torture
		 * pr60003.c, bar() inlined into foo()). */
		if (!gsi_end_p(gsi) && gimple_call_internal_p(gsi_stmt(gsi), IFN_ABNORMAL_DISPATCHER))
			continue;
		gsi = gsi_after_labels(bb);
		if (!gsi_end_p(gsi) && gimple_call_builtin_p(gsi_stmt(gsi), BUILT_IN_SETJMP_RECEIVER))
			gsi_next(&gsi);
		emit_assign(&seq, ABI_TLS(__ipp_top), val(&seq, saved));
		gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);	/* at the end, appends */
	}
	gsi_commit_edge_inserts();
	update_ssa(TODO_update_ssa);
	/* the references to __ipp_top: without them, once the pass runs after
	 * the early inliner (-fplugin-arg-ipp-einline), the symbol table drops
	 * __ipp_top's node, and its TLS model with it (a non-TLS reference
	 * that the link rejects: torture built-in-setjmp.c) */
	cgraph_edge::rebuild_edges();
	pop_cfun();
}
