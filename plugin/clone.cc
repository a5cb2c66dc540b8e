/* clone.cc -- continuing clones: the paper's extra parameters.
 *
 * Melski & Reps pass pathNum by reference and numValidCompsFromExit by
 * value to every callee (Figure 8).  A function's own signature cannot
 * change (callers in other units, calls through pointers, callbacks from
 * libc), so every procedure that an interprocedural call site of G*fin
 * enters gets a *continuing clone*: a copy of its body
 * (create_version_clone_with_body, as ipa-split and IPA-SRA make theirs)
 * that takes three more parameters after its own (IPP_CLONE_PATH, _NVC,
 * _REGION) and hands the path number back through __ipp_path.  Continuing
 * call sites of the unit call the clone; the original body is left to the
 * callers G* cannot see (other units, pointers, recursive and cut sites),
 * which start a fresh path in its Entry region.  A procedure without an
 * Entry region is only ever entered continuing: its original loses every
 * caller and GCC removes it.
 *
 * The clone is made from the body the supergraph was built from, before
 * anything is instrumented, so the two bodies are the same CFG: the
 * clone's blocks are the original's, copied in layout order with their
 * edges and statements in order.  map_body() checks exactly that, block
 * by block, edge by edge and statement by statement, and translates the
 * original's anchors (struct body) into the clone's; a mismatch is an
 * internal error, never a guess.
 *
 * Functions that cannot be cloned (ipp_cloneable) are entered fresh from
 * every call site: the supergraph summarizes calls to them.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include "gcc-common.h"
#include "ipp_plugin.h"
#include "ipa-param-manipulation.h"
#include "gimple-fold.h"
#include "tree-eh.h"
#include "tree-cfgcleanup.h"

/* tree_function_versioning folds every statement it copies
 * (tree-inline.cc, fold_marked_statements) and purges the EH edges of the
 * ones that can no longer throw.  A body fresh from build_ssa_passes has
 * never been folded, so its clone would not be a copy of it: a
 * __builtin_strlen of a known string becomes a constant (gcc.dg/pr38902.c,
 * binutils' sframe-dump.c), and map_body stops the build.  So a body that
 * may be cloned is folded the same way before its graph is built (to a
 * fixpoint: the copy folds in another order); folding the copy then
 * changes nothing, which map_body checks.  fold_stmt only does what GCC's
 * next folding pass would do to the body anyway. */
void ipp_fold_before_cloning(function *fun)
{
	auto_bitmap to_purge;
	bool any = false;
	gcc_assert(cfun == fun);
	for (int round = 0; round < 4; round++) {
		bool changed = false;
		basic_block bb;
		FOR_EACH_BB_FN(bb, fun) {
			for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
			     gsi_next(&gsi)) {
				gimple *old = gsi_stmt(gsi);
				if (is_gimple_debug(old) || !fold_stmt(&gsi))
					continue;
				update_stmt(gsi_stmt(gsi));
				if (maybe_clean_or_replace_eh_stmt(old, gsi_stmt(gsi)))
					bitmap_set_bit(to_purge, bb->index);
				changed = true;
			}
		}
		if (!changed)
			break;
		any = true;
	}
	if (!any)
		return;
	if (gimple_purge_all_dead_eh_edges(to_purge))
		cleanup_tree_cfg();
	update_ssa(TODO_update_ssa);
	/* calls replaced or gone: the clone's edges are copied from these */
	cgraph_edge::rebuild_edges();
}

bool ipp_cloneable(cgraph_node *node)
{
	tree decl = node->decl;
	/* noclone, a nonlocal goto receiver, a label address saved in a
	 * static (tree_versionable_function_p); noipa, which promises no
	 * interprocedural transformation at all. */
	if (!tree_versionable_function_p(decl) ||
	    lookup_attribute("noipa", DECL_ATTRIBUTES(decl)))
		return false;
	/* Variadic functions: the extra parameters would have to go between
	 * the named ones and the variable ones; they start fresh instead. */
	if (stdarg_p(TREE_TYPE(decl)))
		return false;
	/* Nested functions (a static chain), their parents (which set up the
	 * nested functions' frame: supergraph.cc checks, it sees them all),
	 * multiversioned functions. */
	if (decl_function_context(decl) || DECL_STATIC_CHAIN(decl) ||
	    lookup_attribute("target_clones", DECL_ATTRIBUTES(decl)) ||
	    lookup_attribute("target", DECL_ATTRIBUTES(decl)))
		return false;
	/* A parameter of variably modified type (a struct with a VLA member
	 * sized by an earlier parameter): a copy of the function with other
	 * parameters cannot gimplify its size (an ICE in force_constant_size
	 * once IPA-CP specialized the clone: gcc.dg pr99122-3.c). */
	for (tree p = DECL_ARGUMENTS(decl); p; p = DECL_CHAIN(p))
		if (variably_modified_type_p(TREE_TYPE(p), NULL_TREE))
			return false;
	return true;
}

/* The clone's parameter types (ipp_abi.def's types). */
static tree clone_param_type(int k)
{
	switch (k) {
	case IPP_CLONE_PATH:
	case IPP_CLONE_NVC:
		return long_long_unsigned_type_node;
	default:
		return build_pointer_type(ABI_TYPE(REGION));
	}
}

tree ipp_clone_param(const struct body *b, int k)
{
	tree p = DECL_ARGUMENTS(b->decl);
	int n = 0;
	for (tree q = p; q; q = DECL_CHAIN(q))
		n++;
	gcc_assert(b->cont && n >= IPP_CLONE_NPARAMS);
	for (int i = 0; i < n - IPP_CLONE_NPARAMS + k; i++)
		p = DECL_CHAIN(p);
	return p;
}

/* The statements that a copy keeps: not debug statements (they exist only
 * with -g), not GIMPLE_NOPs (copy_bb drops them). */
static void next_kept(gimple_stmt_iterator *gsi)
{
	while (!gsi_end_p(*gsi) && gimple_code(gsi_stmt(*gsi)) == GIMPLE_NOP)
		gsi_next_nondebug(gsi);
}

static gimple_stmt_iterator start_kept(basic_block bb)
{
	gimple_stmt_iterator gsi = gsi_start_nondebug_bb(bb);
	next_kept(&gsi);
	return gsi;
}

static void step_kept(gimple_stmt_iterator *gsi)
{
	gsi_next_nondebug(gsi);
	next_kept(gsi);
}

/* The k-th kept statement of bb (k from 0), or NULL. */
static gimple *nth_stmt(basic_block bb, int k)
{
	for (gimple_stmt_iterator gsi = start_kept(bb); !gsi_end_p(gsi); step_kept(&gsi))
		if (k-- == 0)
			return gsi_stmt(gsi);
	return NULL;
}

/* The position of s among bb's kept statements (s is one: the supergraph
 * anchors calls and the last statements of dead ends, never a NOP). */
static int stmt_pos(gimple *s)
{
	int k = 0;
	for (gimple_stmt_iterator gsi = start_kept(gimple_bb(s)); !gsi_end_p(gsi);
	     step_kept(&gsi), k++)
		if (gsi_stmt(gsi) == s)
			return k;
	gcc_unreachable();
}

/* The position of e among its source's successors. */
#define COPY_EDGE_FLAGS (EDGE_EH | EDGE_ABNORMAL | EDGE_TRUE_VALUE | EDGE_FALSE_VALUE)

/* The copy in cb (the clone's block of e->src) of the original's edge e:
 * the successor with e's destination's copy and e's kind, or NULL.  Not by
 * position: copy_edges_for_bb copies a block's normal edges first and makes
 * its EH edges after them, whatever order the original had.  (A CFG has at
 * most one edge from a block to another.) */
static edge copy_edge(basic_block cb, edge e, basic_block *cmap)
{
	edge ce;
	edge_iterator ei;
	FOR_EACH_EDGE(ce, ei, cb->succs)
		if (ce->dest == cmap[e->dest->index])
			return (ce->flags & COPY_EDGE_FLAGS) == (e->flags & COPY_EDGE_FLAGS) ? ce
											   : NULL;
	return NULL;
}

/* Do two statements of the original and the clone correspond? */
static bool same_stmt(gimple *o, gimple *c)
{
	if (gimple_code(o) != gimple_code(c))
		return false;
	if (is_gimple_call(o))
		return gimple_call_internal_p(o) == gimple_call_internal_p(c) &&
		       gimple_call_fndecl(o) == gimple_call_fndecl(c) &&
		       gimple_call_num_args(o) == gimple_call_num_args(c);
	return true;
}

/* The clone's anchors b from the original's o (see the file's comment).
 * Returns false, with the reason in why, if the bodies differ. */
static bool map_body(const struct body *o, struct body *b, const char **why)
{
	function *of = o->fun, *cf = b->fun;
	int n = n_basic_blocks_for_fn(of);
	basic_block *cmap = XCNEWVEC(basic_block, last_basic_block_for_fn(of));
	basic_block ob, cb;
	bool ok = true;

	*why = NULL;
	/* tree_function_versioning puts an empty block between the clone's
	 * entry and its first block (for parameter set-up it did not need):
	 * it stands in for ENTRY's successor edge. */
	basic_block pad = single_succ(ENTRY_BLOCK_PTR_FOR_FN(cf));
	if (n + 1 == n_basic_blocks_for_fn(cf) && single_succ_p(pad) &&
	    gsi_end_p(gsi_start_nondebug_bb(pad)) && !phi_nodes(pad))
		;
	else
		pad = NULL;
	if (n + (pad != NULL) != n_basic_blocks_for_fn(cf)) {
		*why = "the block counts differ";
		XDELETEVEC(cmap);
		return false;
	}
	/* blocks by layout position */
	for (ob = ENTRY_BLOCK_PTR_FOR_FN(of), cb = ENTRY_BLOCK_PTR_FOR_FN(cf); ob && cb;
	     ob = ob->next_bb, cb = cb->next_bb) {
		if (cb == pad)
			cb = cb->next_bb;
		cmap[ob->index] = cb;
	}
	if (ob || cb) {
		*why = "the block chains differ";
		XDELETEVEC(cmap);
		return false;
	}
	/* every edge and statement in order */
	FOR_ALL_BB_FN(ob, of) {
		edge e;
		edge_iterator ei;
		cb = cmap[ob->index];
		if (pad && ob == ENTRY_BLOCK_PTR_FOR_FN(of))
			cb = pad;
		if (EDGE_COUNT(ob->succs) != EDGE_COUNT(cb->succs)) {
			*why = "a block's successor counts differ";
			ok = false;
			break;
		}
		FOR_EACH_EDGE(e, ei, ob->succs) {
			if (!copy_edge(cb, e, cmap)) {
				*why = "a block's successors differ";
				ok = false;
			}
		}
		if (!ok)
			break;
		if (ob->index < NUM_FIXED_BLOCKS)
			continue;
		gimple_stmt_iterator oi = start_kept(ob), ci = start_kept(cb);
		for (; !gsi_end_p(oi) && !gsi_end_p(ci); step_kept(&oi), step_kept(&ci))
			if (!same_stmt(gsi_stmt(oi), gsi_stmt(ci))) {
				*why = "a statement differs";
				ok = false;
				break;
			}
		if (ok && (!gsi_end_p(oi) || !gsi_end_p(ci))) {
			*why = "a block's statement counts differ";
			ok = false;
		}
		if (!ok)
			break;
	}
	if (ok) {
		b->vbase = o->vbase;
		b->ebase = o->ebase;
		b->nv = o->nv;
		b->ne = o->ne;
		b->nbb = last_basic_block_for_fn(cf);
		b->head = XNEWVEC(ipp_id, b->nbb);
		b->tail = XNEWVEC(ipp_id, b->nbb);
		for (int i = 0; i < b->nbb; i++)
			b->head[i] = b->tail[i] = IPP_NONE;
		for (int i = 0; i < o->nbb; i++)
			if (cmap[i]) {
				b->head[cmap[i]->index] = o->head[i];
				b->tail[cmap[i]->index] = o->tail[i];
			}
		b->call_stmt = XCNEWVEC(gcall *, b->nv);
		b->dead_stmt = XCNEWVEC(gimple *, b->nv);
		b->setjmp_call = XCNEWVEC(gcall *, b->nv);
		b->gedge = XCNEWVEC(edge, b->ne);
		for (size_t i = 0; i < o->nv; i++) {
			gimple *s;
			if ((s = o->call_stmt[i]))
				b->call_stmt[i] = as_a<gcall *>(
					nth_stmt(cmap[gimple_bb(s)->index], stmt_pos(s)));
			if ((s = o->dead_stmt[i]))
				b->dead_stmt[i] = nth_stmt(cmap[gimple_bb(s)->index], stmt_pos(s));
			if ((s = o->setjmp_call[i]))
				b->setjmp_call[i] = as_a<gcall *>(
					nth_stmt(cmap[gimple_bb(s)->index], stmt_pos(s)));
		}
		for (size_t i = 0; i < o->ne; i++)
			if (edge e = o->gedge[i])
				b->gedge[i] = copy_edge(pad && e->src == ENTRY_BLOCK_PTR_FOR_FN(of)
								? pad : cmap[e->src->index],
							e, cmap);
	}
	XDELETEVEC(cmap);
	return ok;
}

/* entered[p]: does some interprocedural call site of G*fin enter
 * procedure p?  (One pass over the vertices; XDELETEVEC the result.) */
static bool *entered_continuing(const ipp_graph *g, const ipp_fin *fin)
{
	size_t np = ipp_graph_nprocs(g);
	bool *entered = XCNEWVEC(bool, np ? np : 1);
	for (size_t v = 0; v < ipp_graph_nvertices(g); v++)
		if (ipp_vertex_kind(g, (ipp_id)v) == IPP_V_CALL &&
		    ipp_call_callee(g, (ipp_id)v) != IPP_NONE &&
		    ipp_fin_call_summary(fin, (ipp_id)v) == IPP_SUM_NONE)
			entered[ipp_call_callee(g, (ipp_id)v)] = true;
	return entered;
}

bool ipp_make_clones(struct unit *u, const ipp_fin *fin)
{
	bool *entered, ok = false;

	if (ipp_fin_mode(fin) != IPP_MODE_CONTEXT)
		return true;	/* every call site is summarized */
	entered = entered_continuing(u->g, fin);
	for (size_t i = 0; i < u->nfns; i++) {
		fninfo *fi = &u->fns[i];
		vec<ipa_adjusted_param, va_gc> *params = NULL;
		ipa_param_adjustments *adj;
		cgraph_node *cn;
		const char *why;
		int nargs = 0;

		if (fi->skip || !entered[fi->proc])
			continue;
		gcc_assert(fi->cloneable);
		/* the function's own parameters, then ours */
		for (tree p = DECL_ARGUMENTS(fi->node->decl); p; p = DECL_CHAIN(p)) {
			ipa_adjusted_param a;
			memset(&a, 0, sizeof(a));
			a.op = IPA_PARAM_OP_COPY;
			a.base_index = a.prev_clone_index = nargs++;
			vec_safe_push(params, a);
		}
		for (int k = 0; k < IPP_CLONE_NPARAMS; k++) {
			ipa_adjusted_param a;
			memset(&a, 0, sizeof(a));
			a.op = IPA_PARAM_OP_NEW;
			a.type = clone_param_type(k);
			a.param_prefix_index = IPA_PARAM_PREFIX_SYNTH;
			vec_safe_push(params, a);
		}
		adj = new ipa_param_adjustments(params, nargs, false);
		push_cfun(fi->fun);
		cn = fi->node->create_version_clone_with_body(vNULL, NULL, adj, NULL, NULL, "ipp",
							       NULL);
		pop_cfun();
		delete adj;
		if (!cn) {
			error("ipp: internal error: cannot clone %qD for continuing calls",
			      fi->node->decl);
			goto out;
		}
		/* The clone is local: only the unit's continuing call sites
		 * call it.  Where the original is not (externally visible,
		 * address-taken), IPA must not know the clone's callers any
		 * better than the original's, or it optimizes the clone for
		 * them where the plain build cannot: IPA-CP propagated a
		 * caller's constant argument into it, and
		 * __builtin_object_size then answered from one branch instead
		 * of the maximum over both (gcc.dg/builtin-object-size-1..4.c,
		 * testsuite/programs/objsize.c).  GCC made the clone local
		 * (cgraph_node::local, which IPA-CP reads: a local function
		 * is specialized for its callers' constants at -O2, others
		 * only with -fipa-cp-clone), and recomputes the flag from
		 * local_p(): force_output keeps that false.  Even so IPA-CP
		 * versioned such a clone for all its callers where the
		 * original stays whole: our three parameters are constants
		 * it can remove at every call, which made the copy look
		 * smaller, and a version without its unused size parameter
		 * loses the `access' attribute __builtin_dynamic_object_size
		 * reads (gcc.dg/builtin-dynamic-object-size-0.c).  So without
		 * -fipa-cp-clone the clone is not versioned at all
		 * (noclone; it may still be inlined).  Doing so only for
		 * the clones that ask __builtin_object_size or
		 * __builtin_constant_p, directly or through a callee, and
		 * leaving the others to IPA made SQLite's context build
		 * slower, not faster (270.0M instructions -> 273.9M). */
		if (!fi->node->local_p()) {
			cn->local = false;
			cn->force_output = 1;
			if (!opt_for_fn(fi->node->decl, flag_ipa_cp_clone))
				DECL_ATTRIBUTES(cn->decl) =
					tree_cons(get_identifier("noclone"), NULL_TREE,
						  DECL_ATTRIBUTES(cn->decl));
		}
		fi->clone_node = cn;
		fi->clone = XCNEW(struct body);
		fi->clone->fun = DECL_STRUCT_FUNCTION(cn->decl);
		fi->clone->decl = cn->decl;
		fi->clone->cont = true;
		if (!map_body(&fi->orig, fi->clone, &why)) {
			error("ipp: internal error: the clone of %qD is not a copy of it (%s)",
			      fi->node->decl, why);
			goto out;
		}
	}
	ok = true;
out:
	XDELETEVEC(entered);
	return ok;
}
