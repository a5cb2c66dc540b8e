/* inline.cc -- the inlined copies of a function body, as virtual
 * procedures (docs/NUMBERING.md, section 8).
 *
 * By default the pass runs after early inlining, so that the program keeps
 * the plain build's inlining decisions (before it, with
 * -fplugin-arg-ipp-einline=no, nothing is inlined yet and there is nothing
 * to find here).  Paths stay source paths: each copy of
 * a callee that GCC inlined into a body becomes a procedure of G* of its
 * own (IPP_PROC_INLINED), entered through one call vertex of the
 * procedure it was inlined into and left through that call's return site,
 * exactly as if the call had stayed a call.
 *
 * Which statements belong to which copy: a statement's lexical BLOCK, up
 * its BLOCK_SUPERCONTEXT chain to the first block that is the outer scope
 * of an inlined function (inlined_function_outer_scope_p: its
 * BLOCK_ABSTRACT_ORIGIN is the inlined FUNCTION_DECL, its
 * BLOCK_SOURCE_LOCATION the call).  GCC keeps those blocks even at -g0.
 * Debug statements are never looked at (they exist only with -g); a
 * statement without a block (labels, statements the optimizers made)
 * belongs to the copy of the statements around it, and the function's
 * return statement always to the function.
 *
 *  1. Blocks are split where the copy changes (after early inlining at
 *     -O2, the call's argument set-up and the inlined entry share a block),
 *     so that every basic block belongs to one copy, or to the function;
 *     never after a tail call (tailcall.cc: its return site must go to
 *     Exit_P).
 *  2. A block with no statement that says (an empty forwarder, a latch)
 *     belongs to the innermost copy that contains all its neighbours'.
 *  3. A copy must be a single-entry region with one continuation: exactly
 *     one CFG edge enters its blocks (and those of the copies inside it)
 *     from outside, and every edge that leaves them goes to one block.
 *     GCC's early passes can break that (jump threading across a copy, a
 *     statement of the caller moved into it); such a copy is *flattened*:
 *     its blocks are treated as the enclosing procedure's own, the map
 *     lists it with the reason (a procedure flagged inlined and skipped,
 *     supergraph.cc), and its own inlined copies are checked on their
 *     own.  A copy with a restart point (a setjmp receiver, a
 *     computed-goto target: GCC inlines neither) is flattened too, and so
 *     is a copy whose own blocks end a path (a dead end), make a tail
 *     call or make a call that may throw.  A copy that makes other calls
 *     is kept and pushes a frame of its own, as a real activation would,
 *     so that the stop stacks of partial paths name its call sites
 *     (docs/NUMBERING.md, section 8).  A copy none of whose code is left
 *     is not listed.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include "gcc-common.h"
#include "ipp_plugin.h"
#include "tree-eh.h"

/* The reason of a copy none of whose code is left: not listed in the map */
const char ipp_inline_empty[] = "no code of it is left";

#define INL_UNKNOWN (-2)	/* a statement or block that does not say */
#define INL_ROOT (-1)		/* the function itself */

/* The copy whose outer scope is block b or encloses it, or INL_ROOT. */
static int inst_of_block(hash_map<tree, int> *byblock, tree b)
{
	tree start = b;
	int k = INL_ROOT;
	while (b && TREE_CODE(b) == BLOCK) {
		int *hit = byblock->get(b);
		if (hit) {
			k = *hit;
			break;
		}
		b = BLOCK_SUPERCONTEXT(b);
	}
	/* memoize the walk's start (inner blocks are looked up often) */
	if (start && TREE_CODE(start) == BLOCK && start != b)
		byblock->put(start, k);
	return k;
}

/* The copy statement s belongs to, or INL_UNKNOWN. */
static int inst_of_stmt(hash_map<tree, int> *byblock, gimple *s)
{
	tree b;
	if (gimple_code(s) == GIMPLE_RETURN)
		return INL_ROOT;
	if (gimple_code(s) == GIMPLE_LABEL || gimple_code(s) == GIMPLE_NOP)
		return INL_UNKNOWN;
	b = gimple_block(s);
	if (!b)
		return INL_UNKNOWN;
	return inst_of_block(byblock, b);
}

/* Collects the copies below block b, whose enclosing copy is parent. */
static void collect(struct inlines *in, hash_map<tree, int> *byblock, tree b, int parent)
{
	for (; b; b = BLOCK_CHAIN(b)) {
		int here = parent;
		if (inlined_function_outer_scope_p(b)) {
			tree origin = block_ultimate_origin(b);
			if (origin && TREE_CODE(origin) == FUNCTION_DECL) {
				struct ipp_inl x;
				memset(&x, 0, sizeof(x));
				x.block = b;
				x.parent = parent;
				x.origin = origin;
				x.site = BLOCK_SOURCE_LOCATION(b);
				x.proc = x.call = IPP_NONE;
				in->v = XRESIZEVEC(struct ipp_inl, in->v, in->n + 1);
				in->v[in->n] = x;
				here = in->n++;
				byblock->put(b, here);
			}
		}
		collect(in, byblock, BLOCK_SUBBLOCKS(b), here);
	}
}

static int depth(const struct inlines *in, int k)
{
	int d = 0;
	for (; k >= 0; k = in->v[k].parent)
		d++;
	return d;
}

/* The innermost copy (or the root) containing both a and b. */
static int lca(const struct inlines *in, int a, int b)
{
	int da = depth(in, a), db = depth(in, b);
	for (; da > db; da--)
		a = in->v[a].parent;
	for (; db > da; db--)
		b = in->v[b].parent;
	while (a != b) {
		a = in->v[a].parent;
		b = in->v[b].parent;
	}
	return a;
}

/* Is copy k the copy a or one of a's ancestors? */
static bool encloses(const struct inlines *in, int k, int a)
{
	if (k == INL_ROOT)
		return true;
	for (; a >= 0; a = in->v[a].parent)
		if (a == k)
			return true;
	return false;
}

/* Step 1: splits the blocks of the current function where the copy
 * changes.  Returns the number of splits. */
static unsigned split_blocks(hash_map<tree, int> *byblock, hash_set<gimple *> *tails)
{
	unsigned nsplit = 0;
	/* blocks made by a split are appended and scanned in turn */
	for (int i = NUM_FIXED_BLOCKS; i < last_basic_block_for_fn(cfun); i++) {
		basic_block bb = BASIC_BLOCK_FOR_FN(cfun, i);
		gimple *prev = NULL;
		int cur = INL_UNKNOWN;
		if (!bb)
			continue;
		for (gimple_stmt_iterator gsi = gsi_start_nondebug_bb(bb); !gsi_end_p(gsi);
		     gsi_next_nondebug(&gsi)) {
			gimple *s = gsi_stmt(gsi);
			int k = inst_of_stmt(byblock, s);
			/* a tail call and what follows it stay in one block
			 * (tailcall.cc: the call's return site goes to
			 * Exit_P); a copy making the call is flattened anyway */
			if (prev && is_gimple_call(prev) && tails->contains(prev))
				break;
			if (k != INL_UNKNOWN) {
				if (cur != INL_UNKNOWN && k != cur && prev) {
					/* the rest of bb goes to a new block,
					 * scanned when the loop reaches it */
					split_block(bb, prev);
					nsplit++;
					break;
				}
				cur = k;
			}
			prev = s;
		}
	}
	return nsplit;
}

/* Step 2: the copy of every block. */
static void assign_blocks(struct inlines *in, hash_map<tree, int> *byblock)
{
	basic_block bb;
	bool changed;
	in->nbb = last_basic_block_for_fn(cfun);
	in->bbinst = XNEWVEC(int, in->nbb);
	for (int i = 0; i < in->nbb; i++)
		in->bbinst[i] = INL_UNKNOWN;
	FOR_EACH_BB_FN(bb, cfun) {
		for (gimple_stmt_iterator gsi = gsi_start_nondebug_bb(bb); !gsi_end_p(gsi);
		     gsi_next_nondebug(&gsi)) {
			int k = inst_of_stmt(byblock, gsi_stmt(gsi));
			if (k != INL_UNKNOWN) {
				in->bbinst[bb->index] = k;
				break;
			}
		}
	}
	/* the blocks that do not say: the innermost copy around all the
	 * neighbours that do (the entry and exit are the function's) */
	do {
		changed = false;
		FOR_EACH_BB_FN(bb, cfun) {
			edge e;
			edge_iterator ei;
			int k = INL_UNKNOWN;
			if (in->bbinst[bb->index] != INL_UNKNOWN)
				continue;
			FOR_EACH_EDGE(e, ei, bb->preds) {
				int n = e->src->index < in->nbb && e->src->index >= NUM_FIXED_BLOCKS
						? in->bbinst[e->src->index] : INL_ROOT;
				if (n != INL_UNKNOWN)
					k = k == INL_UNKNOWN ? n : lca(in, k, n);
			}
			FOR_EACH_EDGE(e, ei, bb->succs) {
				int n = e->dest->index < in->nbb && e->dest->index >= NUM_FIXED_BLOCKS
						? in->bbinst[e->dest->index] : INL_ROOT;
				if (n != INL_UNKNOWN)
					k = k == INL_UNKNOWN ? n : lca(in, k, n);
			}
			if (k != INL_UNKNOWN) {
				in->bbinst[bb->index] = k;
				changed = true;
			}
		}
	} while (changed);
	FOR_EACH_BB_FN(bb, cfun)
		if (in->bbinst[bb->index] == INL_UNKNOWN)
			in->bbinst[bb->index] = INL_ROOT;
}

static int bb_inst(const struct inlines *in, basic_block bb)
{
	if (bb->index < NUM_FIXED_BLOCKS || bb->index >= in->nbb)
		return INL_ROOT;
	return in->bbinst[bb->index];
}

/* Why a copy whose blocks include bb cannot be kept, or NULL: bb is a
 * dead end (no successors: the path would end in the copy, and its
 * record and the marks of a call that never returns are the function's
 * business), or makes a tail call (its return site goes to the
 * function's Exit_P, tailcall.cc) or a call that may throw (the unwinder
 * pops the function's frame, unwind.cc, not a copy's).  Other calls are
 * kept: a copy that makes them pushes a frame of its own
 * (ipp_decide_frames). */
static const char *block_unkept(basic_block bb, hash_set<gimple *> *tails)
{
	edge e;
	edge_iterator ei;
	bool normal = false;
	/* a dead end as supergraph.cc sees one: no normal successor (a call
	 * that may longjmp to the function's setjmp has an edge to the
	 * abnormal dispatcher, and nothing else) */
	FOR_EACH_EDGE(e, ei, bb->succs)
		normal |= ipp_normal_edge_p(e);
	if (!normal)
		return "it ends a path (a dead end)";
	for (gimple_stmt_iterator gsi = gsi_start_nondebug_bb(bb); !gsi_end_p(gsi);
	     gsi_next_nondebug(&gsi)) {
		gimple *s = gsi_stmt(gsi);
		if (!is_gimple_call(s) || gimple_call_internal_p(s))
			continue;
		if (tails->contains(s))
			return "it makes a tail call";
		if (stmt_could_throw_p(cfun, s))
			return "it makes a call that may throw";
	}
	return NULL;
}

/* The blocks of a flattened copy are its parent's (the nearest kept
 * copy's, or the function's); so are the copies inside it. */
static void reassign(struct inlines *in)
{
	for (int i = 0; i < in->nbb; i++) {
		int k = in->bbinst[i];
		while (k >= 0 && in->v[k].flat)
			k = in->v[k].parent;
		in->bbinst[i] = k;
	}
	for (int k = 0; k < in->n; k++) {
		int p = in->v[k].parent;
		while (p >= 0 && in->v[p].flat)
			p = in->v[p].parent;
		in->v[k].parent = p;
	}
}

/* Step 3: flattens the copies that are not single-entry regions with one
 * continuation. */
static void check_regions(struct inlines *in, hash_set<gimple *> *tails)
{
	int *nentry = XCNEWVEC(int, in->n), *cont = XNEWVEC(int, in->n);
	bool *restart = XCNEWVEC(bool, in->n);
	basic_block bb;

	for (int k = 0; k < in->n; k++)
		cont[k] = -1;
	FOR_ALL_BB_FN(bb, cfun) {
		edge e;
		edge_iterator ei;
		int a = bb_inst(in, bb);
		FOR_EACH_EDGE(e, ei, bb->succs) {
			int d = bb_inst(in, e->dest);
			if (e->flags & EDGE_FAKE)
				continue;
			if (e->flags & EDGE_ABNORMAL) {
				for (int k = d; k >= 0; k = in->v[k].parent)
					restart[k] = true;
				continue;
			}
			/* the copies e leaves (those around a, not around d) */
			for (int k = a; k >= 0; k = in->v[k].parent) {
				if (encloses(in, k, d))
					break;
				if (e->dest == EXIT_BLOCK_PTR_FOR_FN(cfun))
					cont[k] = -2;	/* leaves the function */
				else if (cont[k] == -1)
					cont[k] = e->dest->index;
				else if (cont[k] != e->dest->index)
					cont[k] = -2;	/* two continuations */
			}
			/* the copies e enters */
			for (int k = d; k >= 0; k = in->v[k].parent) {
				if (encloses(in, k, a))
					break;
				nentry[k]++;
			}
		}
	}
	/* a setjmp's return site is a restart point without an abnormal
	 * in-edge of its own (the dispatcher's) */
	FOR_EACH_BB_FN(bb, cfun) {
		gimple_stmt_iterator gsi = gsi_start_nondebug_after_labels_bb(bb);
		if (!gsi_end_p(gsi) && ipp_is_setjmp_call(gsi_stmt(gsi)))
			for (int k = bb_inst(in, bb); k >= 0; k = in->v[k].parent)
				restart[k] = true;
	}
	for (int k = 0; k < in->n; k++) {
		if (nentry[k] == 0)
			in->v[k].flat = ipp_inline_empty;
		else if (nentry[k] != 1)
			in->v[k].flat = "entered by more than one edge";
		else if (cont[k] == -2)
			in->v[k].flat = "its exits lead to more than one place";
		else if (restart[k])
			in->v[k].flat = "control arrives in it abnormally";
	}
	reassign(in);
	/* then the copies whose own blocks cannot be kept (after flattening
	 * the copies inside them that cannot) */
	for (bool changed = true; changed;) {
		changed = false;
		FOR_EACH_BB_FN(bb, cfun) {
			int k = bb_inst(in, bb);
			const char *why;
			if (k >= 0 && (why = block_unkept(bb, tails))) {
				in->v[k].flat = why;
				changed = true;
			}
		}
		if (changed)
			reassign(in);
	}
	XDELETEVEC(nentry);
	XDELETEVEC(cont);
	XDELETEVEC(restart);
}

void ipp_inline_analyze(fninfo *fi, hash_set<gimple *> *tails)
{
	struct inlines *in = &fi->inl;
	hash_map<tree, int> byblock;

	memset(in, 0, sizeof(*in));
	if (ipp_opts.einline && DECL_INITIAL(fi->fun->decl) && TREE_CODE(DECL_INITIAL(fi->fun->decl)) == BLOCK)
		collect(in, &byblock, BLOCK_SUBBLOCKS(DECL_INITIAL(fi->fun->decl)), INL_ROOT);
	if (in->n > 0)
		in->nsplit = split_blocks(&byblock, tails);
	assign_blocks(in, &byblock);
	if (in->n > 0)
		check_regions(in, tails);
}

void ipp_inline_free(struct inlines *in)
{
	for (int k = 0; k < in->n; k++)
		free(in->v[k].reason);
	XDELETEVEC(in->v);
	XDELETEVEC(in->bbinst);
	memset(in, 0, sizeof(*in));
}

int ipp_inline_lca(const struct inlines *in, int a, int b)
{
	return lca(in, a, b);
}

bool ipp_inline_kept(const struct inlines *in)
{
	for (int k = 0; k < in->n; k++)
		if (!in->v[k].flat)
			return true;
	return false;
}
