/* tailcall.cc -- which calls of a function are in tail position, the way
 * GCC's tail-call pass (tree-tailcall.cc, find_tail_calls) would see them,
 * and the one change to the CFG that lets them stay sibling calls once
 * instrumented (docs/PROTOCOL.md, "Tail calls").
 *
 * A tail call site is summarized (its callee starts a fresh path) and its
 * caller's path is recorded, or handed back, and the frame popped *before*
 * the call: nothing of ours runs after it, so GCC's tailc pass can still
 * turn it into a jump.  A candidate must be a call that GCC would make a
 * sibling call in the plain build; the test here is conservative (it may
 * refuse a call GCC would accept, never the other way round except for the
 * target's own checks at expansion, see ipp_tail_call_p):
 *  - the function: -O1 or more and -foptimize-sibling-calls, not stdarg, no alloca, no
 *    setjmp, no __builtin_eh_return, no nonlocal label, no parameter whose
 *    address is taken (suitable_for_tail_call_opt_p);
 *  - the call: not to a function of the unit declared inline (GCC means
 *    to inline it); last in its block but for labels, nops, predictions,
 *    clobbers and copies of its result, followed along single successor
 *    edges (through PHIs of the result) only by those and a return of its
 *    result, or a return of nothing; not internal, not a built-in, not
 *    returns_twice or noreturn, not throwing inside the function, its
 *    result (if returned) an SSA register (through a pointer too: since
 *    ABI 7 the call site counts its arc before the jump, PROTOCOL.md rule
 *    7; the callee used to count it from the caller's frame, which a tail
 *    call pops);
 *  - no local variable whose address may be taken is live at the call
 *    (compute_live_vars, as tree-tailcall.cc), and the return slot is not
 *    passed to it.
 *
 * The change to the CFG (ipp_isolate_tail_calls): a tail call whose return
 * is in another block (the function's one return block, shared by its other
 * returns) gets a return of its own right after it, so that the code the
 * shared return block gets for the other paths (the frame's pop, the
 * record) never runs after the tail call.  The blocks this leaves
 * unreachable are deleted.  This runs before G* is built: the map and the
 * continuing clone see the isolated returns.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include "gcc-common.h"
#include "ipp_plugin.h"
#include "cfgcleanup.h"
#include "tree-eh.h"

/* From GCC's tree-ssa-live.h, which the plugin headers cannot include
 * (it needs libiberty's partition.h, not installed with them): the live
 * variable analysis tree-tailcall.cc uses. */
typedef hash_map<int_hash<unsigned int, -1U>, unsigned int> live_vars_map;
extern vec<bitmap_head> compute_live_vars(struct function *, live_vars_map *);
extern bitmap live_vars_at_stmt(vec<bitmap_head> &, live_vars_map *, gimple *);
extern void destroy_live_vars(vec<bitmap_head> &);

/* May this function make sibling calls at all (tree-tailcall.cc,
 * suitable_for_tail_opt_p and suitable_for_tail_call_opt_p)? */
static bool function_allows_tail_calls(function *fun)
{
	basic_block bb;
	if (!opt_for_fn(fun->decl, optimize) || !opt_for_fn(fun->decl, flag_optimize_sibling_calls))
		return false;
	if (fun->stdarg || fun->calls_alloca || fun->calls_setjmp || fun->calls_eh_return ||
	    fun->has_nonlocal_label)
		return false;
	for (tree p = DECL_ARGUMENTS(fun->decl); p; p = DECL_CHAIN(p))
		if (TREE_ADDRESSABLE(p))
			return false;
	/* calls_alloca is set only later (at expansion): look for it here */
	FOR_EACH_BB_FN(bb, fun)
		for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
			gimple *s = gsi_stmt(gsi);
			if (is_gimple_call(s) && (gimple_maybe_alloca_call_p(s) ||
						  (gimple_call_flags(s) & ECF_RETURNS_TWICE)))
				return false;
		}
	return true;
}

/* Statements tailc lets stand between a tail call and its return. */
static bool ignorable(gimple *s)
{
	return gimple_code(s) == GIMPLE_LABEL || gimple_code(s) == GIMPLE_NOP ||
	       gimple_code(s) == GIMPLE_PREDICT || gimple_clobber_p(s) || is_gimple_debug(s);
}

/* The return that follows call in tail position, or NULL: *res is the value
 * it returns (the call's result, or NULL_TREE). */
static greturn *tail_return(function *fun, gcall *call)
{
	basic_block bb = gimple_bb(call);
	tree res = gimple_call_lhs(call);
	gimple_stmt_iterator gsi = gsi_for_stmt(call);
	int steps = 0;

	if (res && TREE_CODE(res) != SSA_NAME)
		return NULL;	/* an aggregate or memory result: "*p = f ()" */
	for (gsi_next(&gsi);; gsi_next(&gsi)) {
		gimple *s;
		/* at a block's end, on into its one successor (an empty one,
		 * such as the self-loop of `for (;;) ;`, included: the loop's
		 * gsi_next must never step past an end) */
		while (gsi_end_p(gsi)) {
			edge e;
			if (!single_succ_p(bb) || ++steps > 16)
				return NULL;
			e = single_succ_edge(bb);
			if ((e->flags & (EDGE_ABNORMAL | EDGE_EH | EDGE_FAKE)) ||
			    e->dest == EXIT_BLOCK_PTR_FOR_FN(fun))
				return NULL;
			bb = e->dest;
			/* the result through the PHIs of the successor */
			{
				tree through = NULL_TREE;
				for (gphi_iterator pi = gsi_start_phis(bb); !gsi_end_p(pi);
				     gsi_next(&pi)) {
					gphi *phi = pi.phi();
					if (virtual_operand_p(gimple_phi_result(phi)))
						continue;
					if (res && PHI_ARG_DEF_FROM_EDGE(phi, e) == res)
						through = gimple_phi_result(phi);
				}
				if (res)
					res = through ? through : res;
			}
			gsi = gsi_start_bb(bb);
		}
		s = gsi_stmt(gsi);
		if (gimple_code(s) == GIMPLE_RETURN) {
			greturn *ret = as_a<greturn *>(s);
			tree rv = gimple_return_retval(ret);
			if (rv && rv != res)
				return NULL;
			return ret;
		}
		if (ignorable(s))
			continue;
		/* a copy of the result: x = res */
		if (res && gimple_assign_single_p(s) && gimple_assign_rhs1(s) == res &&
		    TREE_CODE(gimple_assign_lhs(s)) == SSA_NAME &&
		    useless_type_conversion_p(TREE_TYPE(gimple_assign_lhs(s)), TREE_TYPE(res))) {
			res = gimple_assign_lhs(s);
			continue;
		}
		return NULL;
	}
}

/* Is a local variable whose address may be taken live at the call
 * (tree-tailcall.cc: the callee might refer to it)?  Also the return slot. */
static bool locals_live_at(function *fun, gcall *call)
{
	live_vars_map vars;
	unsigned cnt = 0, ix;
	tree var, res = DECL_RESULT(fun->decl);
	bool live = false;

	if (res && may_be_aliased(res) && ref_maybe_used_by_stmt_p(call, res, false))
		return true;
	FOR_EACH_LOCAL_DECL(fun, ix, var)
		if (VAR_P(var) && auto_var_in_fn_p(var, fun->decl) && may_be_aliased(var))
			vars.put(DECL_UID(var), cnt++);
	if (cnt == 0)
		return false;
	{
		vec<bitmap_head> lv = compute_live_vars(fun, &vars);
		bitmap at = live_vars_at_stmt(lv, &vars, call);
		FOR_EACH_LOCAL_DECL(fun, ix, var) {
			unsigned *v;
			if (!VAR_P(var) || !auto_var_in_fn_p(var, fun->decl) || !may_be_aliased(var))
				continue;
			if (!ref_maybe_used_by_stmt_p(call, var, false) &&
			    !call_may_clobber_ref_p(call, var, false))
				continue;
			v = vars.get(DECL_UID(var));
			if (v && bitmap_bit_p(at, *v))
				live = true;
		}
		BITMAP_FREE(at);
		destroy_live_vars(lv);
	}
	return live;
}

/* Is call (of an instrumented function, current_function_decl) a tail
 * call GCC would make a sibling call?  *ret: its return.  The target may
 * still refuse at expansion (x86-64: a callee that needs more stack for
 * its arguments than the caller was given); the call is then an ordinary
 * summarized call whose caller's path was recorded before it. */
static bool tail_call_p(function *fun, gcall *call, greturn **ret)
{
	tree fn = gimple_call_fndecl(call);
	int flags = gimple_call_flags(call);
	if (gimple_call_internal_p(call) || (flags & (ECF_RETURNS_TWICE | ECF_NORETURN)))
		return false;
	if (fn && fndecl_built_in_p(fn))
		return false;
	/* a function of the unit declared inline: GCC's inliners are meant to
	 * make the call go away in the plain build, and a tail call site's
	 * callee gets an Entry region, whose larger body may keep it from
	 * being inlined (torture 990208-1.c depends on that inlining) */
	if (fn && (DECL_DECLARED_INLINE_P(fn) ||
		   lookup_attribute("always_inline", DECL_ATTRIBUTES(fn))) &&
	    cgraph_node::get(fn) && cgraph_node::get(fn)->has_gimple_body_p())
		return false;
	if (stmt_could_throw_p(fun, call) && !stmt_can_throw_external(fun, call))
		return false;
	if (!(*ret = tail_return(fun, call)))
		return false;
	return !locals_live_at(fun, call);
}

/* Gives each tail call whose return is in another block a return of its
 * own (see the top of the file) and returns the tail calls of fun in *out
 * (a hash set of statements). */
void ipp_isolate_tail_calls(function *fun, hash_set<gimple *> *out)
{
	basic_block bb;
	auto_vec<gcall *> calls;
	auto_vec<greturn *> rets;
	bool changed = false;

	if (!function_allows_tail_calls(fun))
		return;
	push_cfun(fun);
	FOR_EACH_BB_FN(bb, fun) {
		gcall *call = NULL;
		greturn *ret;
		/* the last call of the block, if nothing but ignorable
		 * statements, copies and a return follow it */
		for (gimple_stmt_iterator gsi = gsi_last_nondebug_bb(bb); !gsi_end_p(gsi);
		     gsi_prev_nondebug(&gsi)) {
			gimple *s = gsi_stmt(gsi);
			if (is_gimple_call(s))
				call = as_a<gcall *>(s);
			else if (ignorable(s) || gimple_code(s) == GIMPLE_RETURN ||
				 gimple_assign_single_p(s))
				continue;
			break;
		}
		if (call && tail_call_p(fun, call, &ret)) {
			calls.safe_push(call);
			rets.safe_push(ret);
		}
	}
	for (unsigned i = 0; i < calls.length(); i++) {
		gcall *call = calls[i];
		greturn *ret = rets[i], *own;
		basic_block cb = gimple_bb(call);
		out->add(call);
		if (gimple_bb(ret) == cb)
			continue;	/* call; ...; return in one block */
		/* cb: ...; call | the rest, if any, in a block of its own */
		if (!stmt_ends_bb_p(call) && gsi_stmt(gsi_last_bb(cb)) != call)
			split_block(cb, call);
		remove_edge(single_succ_edge(cb));
		own = gimple_build_return(gimple_return_retval(ret) ? gimple_call_lhs(call)
								    : NULL_TREE);
		gimple_set_location(own, gimple_location(ret));
		gimple_set_vuse(own, gimple_vdef(call) ? gimple_vdef(call) : gimple_vuse(call));
		{
			gimple_stmt_iterator gsi = gsi_for_stmt(call);
			gsi_insert_after(&gsi, own, GSI_NEW_STMT);
		}
		make_edge(cb, EXIT_BLOCK_PTR_FOR_FN(fun), 0)->probability =
			profile_probability::always();
		changed = true;
	}
	if (changed) {
		free_dominance_info(CDI_DOMINATORS);
		free_dominance_info(CDI_POST_DOMINATORS);
		delete_unreachable_blocks();
		if (current_loops)
			loops_state_set(LOOPS_NEED_FIXUP);
	}
	pop_cfun();
}
