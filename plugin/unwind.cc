/* unwind.cc -- an activation the unwinder removes (docs/PROTOCOL.md,
 * "Exceptions and forced unwinds").
 *
 * With -fexceptions an instrumented C function can be unwound through: a
 * C++ exception, _Unwind_ForcedUnwind, pthread_exit and pthread_cancel
 * (glibc's forced unwind) remove its activation after running its
 * cleanups (__attribute__((cleanup)), pthread_cleanup_push).  Its frame
 * must then leave the thread's list and its pending path must be recorded
 * as a partial path, as a longjmp's abandoned frames are.  The unwinder
 * runs code of the activation only at a landing pad, so:
 *
 *  - a landing pad of the function's own (a cleanup) is a restart point
 *    (supergraph.cc): on arrival __ipp_eh_land(&frame) records the path
 *    the exception interrupted, stopped at the frame's checkpoint (the
 *    throwing call), and the pad starts a new path; the pad's resx, which
 *    leaves the function, is a dead end that records it (instrument.cc);
 *  - every framed function gets one more cleanup region, outermost, over
 *    every statement that could throw out of it (ipp_unwind_pad): its pad
 *    calls __ipp_eh_leave(&frame) -- the pending path, if any, is
 *    recorded as partial, the frame is popped -- and resumes unwinding.
 *
 * Only where GCC itself would give the function EH regions: without
 * -fexceptions (C's default) no statement can throw (stmt_could_throw_p)
 * and nothing is added.  The pads are cold code reached only by the
 * unwinder (table-driven EH): no instruction on the normal path.  Tail
 * calls are left out of the region (a call in an EH region with a pad
 * cannot be a sibling call; the frame is popped before it anyway), and so
 * is everything the pass inserts: the runtime is nothrow, and the
 * statements that may throw are collected before the pass inserts any.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include "gcc-common.h"
#include "ipp_plugin.h"
#include "except.h"
#include "tree-eh.h"
#include "langhooks.h"

/* Collects the statements of fun that could throw out of it (no landing
 * pad of its own catches them) into out: calls but tail call sites
 * (b's call vertices flagged tail), trapping assignments under
 * -fnon-call-exceptions, and the resx of the outermost regions.  Called
 * before the pass inserts anything. */
void ipp_unwind_collect(const ipp_graph *g, const struct body *b, hash_set<gimple *> *out)
{
	function *fun = b->fun;
	basic_block bb;
	hash_set<gimple *> tail;

	if (!opt_for_fn(fun->decl, flag_exceptions))
		return;
	for (size_t k = 0; k < b->nv; k++)
		if (b->call_stmt[k] && ipp_vertex_kind(g, b->vbase + (ipp_id)k) == IPP_V_CALL &&
		    (ipp_call_flags(g, b->vbase + (ipp_id)k) & IPP_CALL_TAIL))
			tail.add(b->call_stmt[k]);
	FOR_EACH_BB_FN(bb, fun) {
		for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
			gimple *s = gsi_stmt(gsi);
			switch (gimple_code(s)) {
			case GIMPLE_CALL:
			case GIMPLE_ASSIGN:
			case GIMPLE_RESX:
				break;
			default:
				continue;	/* a trapping comparison or asm: rare, left out */
			}
			if (tail.contains(s) || lookup_stmt_eh_lp_fn(fun, s) != 0 ||
			    !stmt_could_throw_p(fun, s))
				continue;
			out->add(s);
		}
	}
}

/* The outermost cleanup region of fun (cfun): its landing pad calls
 * __ipp_eh_leave(&frame) and resumes unwinding; every statement of
 * `throwers` (ipp_unwind_collect, still in the body) throws to it.  The
 * regions the function had become its children, so that their resx, which
 * left the function, now pass through the pad too. */
void ipp_unwind_pad(function *fun, hash_set<gimple *> *throwers, tree frame)
{
	eh_region region;
	eh_landing_pad lp;
	basic_block pad, bb;
	tree label;
	gimple_stmt_iterator gsi;
	auto_vec<gimple *> stmts;

	/* in the body's order, not the set's (addresses): the CFG made here
	 * must not depend on them (-fcompare-debug) */
	FOR_EACH_BB_FN(bb, fun)
		for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
			if (throwers->contains(gsi_stmt(gsi)))
				stmts.safe_push(gsi_stmt(gsi));
	if (stmts.is_empty())
		return;

	/* gen_eh_region puts a region without outer first among the roots:
	 * the old roots become its children */
	region = gen_eh_region_cleanup(NULL);
	gcc_assert(fun->eh->region_tree == region);
	region->inner = region->next_peer;
	region->next_peer = NULL;
	for (eh_region r = region->inner; r; r = r->next_peer)
		r->outer = region;
	lp = gen_eh_landing_pad(region);

	pad = create_empty_bb(EXIT_BLOCK_PTR_FOR_FN(fun)->prev_bb);
	pad->count = profile_count::zero();
	if (current_loops)
		add_bb_to_loop(pad, current_loops->tree_root);
	label = create_artificial_label(UNKNOWN_LOCATION);
	lp->post_landing_pad = label;
	EH_LANDING_PAD_NR(label) = lp->index;
	gsi = gsi_start_bb(pad);
	gsi_insert_after(&gsi, gimple_build_label(label), GSI_NEW_STMT);
	gsi_insert_after(&gsi, gimple_build_call(ABI_FN(__ipp_eh_leave), 1,
						 build_fold_addr_expr(unshare_expr(frame))), GSI_NEW_STMT);
	gsi_insert_after(&gsi, gimple_build_resx(region->index), GSI_NEW_STMT);

	/* a statement that throws inside the function ends its block.  Debug
	 * statements alone after it are dropped, not split off: last_stmt
	 * skips them, mark_reachable_handlers does not (-g
	 * -fnon-call-exceptions, gcc.dg/pr103837.c), and a block of its own
	 * would exist with -g only (-fcompare-debug) */
	for (unsigned i = 0; i < stmts.length(); i++) {
		gimple *s = stmts[i];
		edge e;
		add_stmt_to_eh_lp(s, lp->index);
		if (s != last_stmt(gimple_bb(s))) {
			split_block(gimple_bb(s), s);
		} else {
			gimple_stmt_iterator di = gsi_for_stmt(s);
			gsi_next(&di);
			while (!gsi_end_p(di))
				gsi_remove(&di, true);	/* only debug statements */
		}
		make_eh_edges(s);
		e = find_edge(gimple_bb(s), pad);
		e->probability = profile_probability::never();
	}
	if (!DECL_FUNCTION_PERSONALITY(fun->decl))
		DECL_FUNCTION_PERSONALITY(fun->decl) = lang_hooks.eh_personality();
	free_dominance_info(CDI_DOMINATORS);
	free_dominance_info(CDI_POST_DOMINATORS);
	mark_virtual_operands_for_renaming(fun);
}
