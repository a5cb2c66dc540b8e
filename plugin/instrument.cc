/* instrument.cc -- step 3 of the pass: the code inserted into each
 * instrumented function, from its procedure's numbering in G*fin
 * (Ball-Larus protocol; docs/PROTOCOL.md rule by rule):
 *  - a frame pushed on the thread's list at entry (in context mode through
 *    __ipp_enter where the function has an Entry region);
 *  - path register updates on edges (r += rho_e(nvc));
 *  - at a back edge or a cut, record and restart;
 *  - at a return, pop and record (or hand the path back to the caller);
 *  - before a call, store the path number and call vertex in the frame
 *    (partial paths), and in context mode before a call through a pointer
 *    also the pointer (__ipp_itgt: the callee's entry credits the arc);
 *  - before a call that never returns, record;
 *  - setjmp, longjmp, computed goto and nonlocal goto: the receiver's
 *    restart and the abandoned frames (ipp_abi.h).
 * Functions with abnormal edges keep the path register in the frame, not in
 * SSA.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include "gcc-common.h"
#include "ipp_plugin.h"
#define IPP_ABI_TYPES_ONLY
#include "ipp_abi.h"

/* The type of path numbers, nvc and the ABI's 64-bit fields. */
#define ipp_u64 long_long_unsigned_type_node

/* The path register lives in memory (the frame) in functions with abnormal
 * edges: SSA values must not flow across them. */
static bool has_abnormal_edges(function *fun)
{
	basic_block bb;
	FOR_EACH_BB_FN(bb, fun) {
		edge e;
		edge_iterator ei;
		FOR_EACH_EDGE(e, ei, bb->succs)
			if (e->flags & EDGE_ABNORMAL)
				return true;
	}
	return false;
}

struct fnstate {
	const ipp_fin *fin;
	fninfo *fi;
	bool ctx;		/* context mode: nvc, onentry and the region vary */
	bool region_fn;		/* has an Entry region (may start fresh) */
	tree frame;		/* the activation's struct ipp_rt_frame */
	tree r;			/* the path register */
	tree nvc, onentry, reg;	/* context mode: set once at entry */
	ipp_id region;
	uint64_t checksum;	/* the unit's, for tokens */
	ipp_id *fin_of;		/* G* edge -> kept NORMAL fin edge, or IPP_NONE */
	ipp_id *exit_of;	/* G* vertex -> its SURR_EXIT fin edge, or IPP_NONE */
	ipp_id *restart_of;	/* G* vertex -> SURR_ENTRY fin edge into it, or IPP_NONE */
};

/* obj.field; volatile if obj is: the frame is read behind GCC's back (by
 * the runtime at exit, in signal handlers and at longjmp), so its stores
 * must survive even where mod/ref analysis proves no callee reads them. */
static tree fld(tree obj, tree field)
{
	tree t = build3(COMPONENT_REF, TREE_TYPE(field), obj, field, NULL_TREE);
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

static tree tmp(void)
{
	return create_tmp_var(ipp_u64, "ipp_t");
}

/* <a,b> applied to nvc: a constant when a is 0 or nvc is known to be 1
 * (intra mode), else a*nvc + b computed into a temporary.  The cuts
 * guarantee every value fits in 64 bits. */
static tree lin_val(gimple_seq *seq, struct fnstate *st, mpz_t a, mpz_t b)
{
	tree t, t2;
	if (!st->ctx) {
		mpz_t s;
		unsigned HOST_WIDE_INT v;
		mpz_init(s);
		mpz_add(s, a, b);
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

/* rho_e(nvc) of G*fin edge e */
static tree rho_val(gimple_seq *seq, struct fnstate *st, ipp_id e)
{
	mpz_t a, b;
	tree v;
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

/* x + y as a gimple value */
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

/* r = r + v (through temporaries: r may be a memory reference) */
static void emit_add(gimple_seq *seq, struct fnstate *st, tree v)
{
	tree t;
	if (integer_zerop(v))
		return;
	t = tmp();
	emit_assign(seq, t, st->r);
	emit_assign(seq, st->r, add_val(seq, t, v));
}

/* __ipp_record(region of the path, r + extra) */
static void emit_record(gimple_seq *seq, struct fnstate *st, tree extra)
{
	tree t = tmp();
	emit_assign(seq, t, st->r);
	t = add_val(seq, t, extra);
	gimple_seq_add_stmt(seq, gimple_build_call(ABI_FN(__ipp_record), 2, st->reg, t));
}

/* frame.vertex = v (and frame.path = r first if store_path) */
static void emit_stand(gimple_seq *seq, struct fnstate *st, int v, bool store_path)
{
	if (store_path && !st->fi->in_memory) {
		tree t = tmp();
		emit_assign(seq, t, st->r);
		emit_assign(seq, fld(st->frame, ABI_FIELD(FRAME, path)), t);
	}
	emit_assign(seq, fld(st->frame, ABI_FIELD(FRAME, vertex)), build_int_cst(integer_type_node, v));
}

/* Before an indirect call (context mode, docs/PROTOCOL.md rule 7), after
 * frame.vertex = the call vertex: __ipp_itgt = the pointer called through.
 * The callee's fresh entry compares it with its own address and credits
 * the arc from our frame's vertex; nothing clears it after the call (a
 * target that is not instrumented never matches). */
static void emit_itgt(gimple_seq *seq, gcall *call)
{
	tree fn = gimple_call_fn(call), t;
	if (TREE_CODE(fn) == OBJ_TYPE_REF)
		fn = OBJ_TYPE_REF_EXPR(fn);
	t = create_tmp_var(const_ptr_type_node, "ipp_tgt");
	gimple_seq_add_stmt(seq, gimple_build_assign(t, NOP_EXPR, unshare_expr(fn)));
	emit_assign(seq, ABI_TLS(__ipp_itgt), t);
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
	emit_record(seq, st, rho_val(seq, st, st->exit_of[w]));
	emit_assign(seq, st->r, restart_val(seq, st, v));
}

/* Function entry (docs/PROTOCOL.md): push the frame and set r, nvc,
 * onentry and the path's region. */
static void emit_entry(gimple_seq *seq, struct fnstate *st, tree self)
{
	tree fa = build_fold_addr_expr(st->frame);
	if (!st->ctx) {
		tree t = create_tmp_var(build_pointer_type(ABI_TYPE(FRAME)), "ipp_p");
		emit_assign(seq, t, ABI_TLS(__ipp_top));
		emit_assign(seq, fld(st->frame, ABI_FIELD(FRAME, prev)), t);
		emit_assign(seq, fld(st->frame, ABI_FIELD(FRAME, region)), st->reg);
		emit_assign(seq, fld(st->frame, ABI_FIELD(FRAME, path)), build_int_cstu(ipp_u64, 0));
		emit_assign(seq, fld(st->frame, ABI_FIELD(FRAME, vertex)), build_int_cst(integer_type_node, -1));
		emit_assign(seq, fld(st->frame, ABI_FIELD(FRAME, flags)), build_int_cst(unsigned_type_node, 0));
		emit_assign(seq, ABI_TLS(__ipp_top), fa);
		if (!st->fi->in_memory)
			emit_assign(seq, st->r, build_int_cstu(ipp_u64, 0));
		return;
	}
	if (st->region_fn) {
		/* may continue the caller's path or start fresh: the runtime decides */
		gimple_seq_add_stmt(seq, gimple_build_call(ABI_FN(__ipp_enter), 4, fa, ipp_abi_region_addr(st->region),
							   build_int_cstu(ipp_u64, ipp_abi_token(st->checksum, st->fi->proc)),
							   self));
		if (!st->fi->in_memory)
			emit_assign(seq, st->r, fld(st->frame, ABI_FIELD(FRAME, path)));
		emit_assign(seq, st->nvc, fld(st->frame, ABI_FIELD(FRAME, nvc)));
		emit_assign(seq, st->reg, fld(st->frame, ABI_FIELD(FRAME, region)));
	} else {
		/* only ever entered through the unit's interprocedural call edges */
		tree t = create_tmp_var(build_pointer_type(ABI_TYPE(FRAME)), "ipp_p");
		tree pth = tmp();
		emit_assign(seq, t, ABI_TLS(__ipp_top));
		emit_assign(seq, fld(st->frame, ABI_FIELD(FRAME, prev)), t);
		emit_assign(seq, st->reg, ABI_TLS(__ipp_reg));
		emit_assign(seq, fld(st->frame, ABI_FIELD(FRAME, region)), st->reg);
		emit_assign(seq, pth, ABI_TLS(__ipp_path));
		emit_assign(seq, fld(st->frame, ABI_FIELD(FRAME, path)), pth);
		emit_assign(seq, fld(st->frame, ABI_FIELD(FRAME, vertex)), build_int_cst(integer_type_node, -1));
		emit_assign(seq, fld(st->frame, ABI_FIELD(FRAME, flags)),
			    build_int_cst(unsigned_type_node, IPP_FRAME_CONTINUES));
		emit_assign(seq, st->nvc, ABI_TLS(__ipp_nvc));
		emit_assign(seq, fld(st->frame, ABI_FIELD(FRAME, nvc)), st->nvc);
		emit_assign(seq, ABI_TLS(__ipp_tok), build_int_cstu(ipp_u64, 0));
		emit_assign(seq, ABI_TLS(__ipp_top), fa);
		if (!st->fi->in_memory)
			emit_assign(seq, st->r, pth);
	}
	{
		tree t = tmp();
		emit_assign(seq, t, st->r);
		emit_assign(seq, st->onentry, t);
	}
}

/* Return along an edge to Exit_P. */
static void emit_return(gimple_seq *seq, struct fnstate *st)
{
	tree t = tmp();
	emit_assign(seq, t, st->r);
	if (st->ctx && st->region_fn) {
		gimple_seq_add_stmt(seq, gimple_build_call(ABI_FN(__ipp_leave), 2,
							   build_fold_addr_expr(st->frame), t));
		return;
	}
	tree pv = create_tmp_var(build_pointer_type(ABI_TYPE(FRAME)), "ipp_p");
	emit_assign(seq, pv, fld(st->frame, ABI_FIELD(FRAME, prev)));
	emit_assign(seq, ABI_TLS(__ipp_top), pv);
	if (st->ctx)
		emit_assign(seq, ABI_TLS(__ipp_path), t);	/* hand the path back to the caller */
	else
		gimple_seq_add_stmt(seq, gimple_build_call(ABI_FN(__ipp_record), 2, st->reg, t));
}

/* Where code that must run after a call goes: after it in its block, or on
 * its block's one normal out-edge if the call ends the block. */
static void insert_after_call(gcall *call, gimple_seq seq)
{
	basic_block bb = gimple_bb(call);
	if (stmt_ends_bb_p(call)) {
		edge e, ne = NULL;
		edge_iterator ei;
		FOR_EACH_EDGE(e, ei, bb->succs)
			if (!(e->flags & (EDGE_EH | EDGE_ABNORMAL | EDGE_FAKE)))
				ne = e;
		if (ne)
			gsi_insert_seq_on_edge(ne, seq);
		return;
	}
	gimple_stmt_iterator gsi = gsi_for_stmt(call);
	gsi_insert_seq_after(&gsi, seq, GSI_SAME_STMT);
}

void ipp_instrument(struct unit *u, fninfo *fi, const ipp_fin *fin, uint64_t unit_checksum)
{
	ipp_graph *g = u->g;
	struct fnstate st;
	size_t nv = ipp_graph_nvertices(g), ne = ipp_graph_nedges(g);
	ipp_id p = fi->proc;
	function *fun = fi->fun;
	tree decl = fi->node->decl, self;

	memset(&st, 0, sizeof(st));
	st.fin = fin;
	st.checksum = unit_checksum;
	st.fi = fi;
	st.ctx = ipp_fin_mode(fin) == IPP_MODE_CONTEXT;
	st.region = ipp_fin_region_find(fin, ipp_proc_asm(g, p));
	st.region_fn = st.region != IPP_NONE;
	gcc_assert(st.region_fn || st.ctx);
	st.fin_of = XNEWVEC(ipp_id, ne);
	st.exit_of = XNEWVEC(ipp_id, nv);
	st.restart_of = XNEWVEC(ipp_id, nv);
	for (size_t i = 0; i < ne; i++)
		st.fin_of[i] = IPP_NONE;
	for (size_t i = 0; i < nv; i++)
		st.exit_of[i] = st.restart_of[i] = IPP_NONE;
	for (size_t e = 0; e < ipp_fin_nedges(fin); e++) {
		ipp_id src = ipp_fin_esrc(fin, (ipp_id)e), dst = ipp_fin_edst(fin, (ipp_id)e);
		if (ipp_fin_vproc(fin, src) != p)
			continue;
		switch (ipp_fin_ekind(fin, (ipp_id)e)) {
		case IPP_E_NORMAL:
			st.fin_of[ipp_fin_eorigin(fin, (ipp_id)e)] = (ipp_id)e;
			break;
		case IPP_E_SURR_EXIT:
			st.exit_of[src] = (ipp_id)e;
			break;
		case IPP_E_SURR_ENTRY:
			st.restart_of[dst] = (ipp_id)e;
			break;
		default:
			break;
		}
	}

	push_cfun(fun);
	st.frame = create_tmp_var(ABI_TYPE(FRAME), "ipp_frame");
	TREE_ADDRESSABLE(st.frame) = 1;
	TREE_THIS_VOLATILE(st.frame) = 1;	/* see fld() */
	TREE_SIDE_EFFECTS(st.frame) = 1;
	fi->in_memory = has_abnormal_edges(fun);
	st.r = fi->in_memory ? fld(st.frame, ABI_FIELD(FRAME, path)) : create_tmp_var(ipp_u64, "ipp_r");
	if (st.ctx) {
		st.nvc = create_tmp_var(ipp_u64, "ipp_nvc");
		st.onentry = create_tmp_var(ipp_u64, "ipp_onentry");
		st.reg = create_tmp_var(ptr_type_node, "ipp_reg");
	} else {
		st.nvc = build_int_cstu(ipp_u64, 1);
		st.onentry = build_int_cstu(ipp_u64, 0);
		st.reg = ipp_abi_region_addr(st.region);
	}
	/* Comparing against one's own address is harmless only where the body
	 * exists anyway (design notes): externally visible or address-taken. */
	self = (TREE_PUBLIC(decl) || fi->node->address_taken) ?
	       build_fold_addr_expr(decl) : null_pointer_node;

	{
		gimple_seq seq = NULL;
		emit_entry(&seq, &st, self);
		gsi_insert_seq_on_edge(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)), seq);
	}

	/* inside blocks: before (and after) each call, and at dead ends */
	for (size_t k = 0; k < nv; k++) {
		ipp_id v = (ipp_id)k;
		gcall *call;
		gimple_seq seq = NULL;
		bool dead, interproc;
		if (ipp_vertex_proc(g, v) != p || ipp_vertex_kind(g, v) != IPP_V_CALL)
			continue;
		call = u->call_stmt[v];
		dead = u->dead_stmt[v + 1] == call;
		interproc = ipp_fin_call_summary(fin, v) == IPP_SUM_NONE;
		/* a cut at the call vertex itself: the chain edge into it is removed */
		if (ipp_fin_is_cut_vertex(fin, v))
			emit_split(&seq, &st, ipp_edge_src(g, u->chain_in[v]), v);
		if (interproc) {
			/* rule 1: hand the path to the callee, take it back after */
			tree t = tmp();
			emit_stand(&seq, &st, (int)v, true);
			emit_assign(&seq, t, st.r);
			emit_assign(&seq, ABI_TLS(__ipp_path), t);
			emit_assign(&seq, ABI_TLS(__ipp_nvc), psi_val(&seq, &st, v + 1));
			emit_assign(&seq, ABI_TLS(__ipp_reg), st.reg);
			emit_assign(&seq, ABI_TLS(__ipp_tok),
				    build_int_cstu(ipp_u64, ipp_abi_token(st.checksum, ipp_call_callee(g, v))));
			if (!dead) {
				gimple_seq after = NULL;
				tree t2 = tmp();
				emit_assign(&after, t2, ABI_TLS(__ipp_path));
				emit_assign(&after, st.r, t2);
				insert_after_call(call, after);
			}
		} else if (dead && !ipp_is_unreachable_call(call)) {
			/* the call never returns: the path ends here */
			emit_record(&seq, &st, rho_val(&seq, &st, ipp_fin_succ(fin, v + 1, 0)));
			emit_stand(&seq, &st, -1, false);
			if (ipp_is_longjmp_call(call))
				gimple_seq_add_stmt(&seq, gimple_build_call(ABI_FN(__ipp_longjmp_note), 1,
									    gimple_call_arg(call, 0)));
			if (gimple_call_builtin_p(call, BUILT_IN_NONLOCAL_GOTO))
				/* leaving for a parent function's label: every
				 * frame below the parent's save area is abandoned */
				gimple_seq_add_stmt(&seq, gimple_build_call(ABI_FN(__ipp_unwind_below), 1,
									    gimple_call_arg(call, 1)));
			if (gimple_call_builtin_p(call, BUILT_IN_LONGJMP))
				gimple_seq_add_stmt(&seq, gimple_build_call(ABI_FN(__ipp_builtin_longjmp_note), 1,
									    gimple_call_arg(call, 0)));
		} else {
			emit_stand(&seq, &st, (int)v, true);
			if (st.ctx && (ipp_call_flags(g, v) & IPP_CALL_INDIRECT))
				emit_itgt(&seq, call);
		}
		gimple_stmt_iterator gsi = gsi_for_stmt(call);
		gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);
	}
	for (int i = NUM_FIXED_BLOCKS; i < fi->nbb; i++) {
		ipp_id t = fi->tail[i];
		gimple *last;
		gimple_seq seq = NULL;
		if (t == IPP_NONE || !(last = u->dead_stmt[t]))
			continue;	/* not a dead end */
		if (ipp_vertex_kind(g, t) == IPP_V_RETSITE && u->call_stmt[t - 1] == last)
			continue;	/* a noreturn call: handled with the call */
		if (ipp_is_unreachable_call(last) ||
		    (is_gimple_call(last) && gimple_call_internal_p(last)))
			continue;	/* unreachable, or the abnormal dispatcher */
		emit_record(&seq, &st, rho_val(&seq, &st, ipp_fin_succ(fin, t, 0)));
		emit_stand(&seq, &st, -1, false);
		if (ipp_is_computed_goto(last))
			emit_assign(&seq, st.r, build_int_cstu(ipp_u64, IPP_PATH_RESTART));
		gimple_stmt_iterator gsi = gsi_for_stmt(last);
		gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);
	}

	/* setjmp: note the receiver on the block's normal in-edges */
	for (size_t k = 0; k < nv; k++) {
		gcall *call = u->setjmp_call[k];
		tree buf;
		edge e;
		edge_iterator ei;
		if (!call || ipp_vertex_proc(g, (ipp_id)k) != p)
			continue;
		buf = gimple_call_arg(call, 0);
		if (TREE_CODE(buf) == SSA_NAME && gimple_bb(SSA_NAME_DEF_STMT(buf)) == gimple_bb(call))
			continue;	/* defined by a PHI of the block: not available on the edges */
		FOR_EACH_EDGE(e, ei, gimple_bb(call)->preds) {
			gimple_seq seq = NULL;
			if (e->flags & EDGE_ABNORMAL)
				continue;
			gimple_seq_add_stmt(&seq, gimple_build_call(ABI_FN(__ipp_setjmp_note), 2, unshare_expr(buf),
								    build_fold_addr_expr(st.frame)));
			gsi_insert_seq_on_edge(e, seq);
		}
	}

	/* computed-goto targets: restart if the path register says so */
	for (int i = NUM_FIXED_BLOCKS; i < fi->nbb; i++) {
		ipp_id h = fi->head[i];
		gimple_seq seq = NULL;
		tree t, c, t2, rs;
		if (h == IPP_NONE || !ipp_vertex_is_restart(g, h))
			continue;
		t = tmp();
		c = create_tmp_var(boolean_type_node, "ipp_c");
		t2 = tmp();
		emit_assign(&seq, t, st.r);
		rs = restart_val(&seq, &st, h);
		gimple_seq_add_stmt(&seq, gimple_build_assign(c, EQ_EXPR, t,
							      build_int_cstu(ipp_u64, IPP_PATH_RESTART)));
		gimple_seq_add_stmt(&seq, gimple_build_assign(t2, COND_EXPR, c, rs, t));
		emit_assign(&seq, st.r, t2);
		gimple_stmt_iterator gsi = gsi_after_labels(BASIC_BLOCK_FOR_FN(fun, i));
		gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);
	}

	/* on CFG edges */
	for (size_t k = 0; k < ne; k++) {
		ipp_id e = (ipp_id)k, src = ipp_edge_src(g, e), dst = ipp_edge_dst(g, e);
		edge ge = u->gedge[e];
		gimple_seq seq = NULL;
		if (ipp_vertex_proc(g, src) != p || !ge)
			continue;
		if (u->setjmp_call[src]) {
			/* the setjmp receiver: after a longjmp, restart at the return site */
			gcall *call = u->setjmp_call[src];
			tree ret = gimple_call_lhs(call), t = tmp(), res = tmp(), rs;
			if (!ret) {
				ret = make_ssa_name(TREE_TYPE(TREE_TYPE(gimple_call_fndecl(call))));
				gimple_call_set_lhs(call, ret);
				update_stmt(call);
			}
			emit_assign(&seq, t, st.r);
			rs = restart_val(&seq, &st, src);
			gimple_seq_add_stmt(&seq, gimple_build_call(ABI_FN(__ipp_receive), 4,
				build_fold_addr_expr(st.frame), fold_convert(integer_type_node, ret), t, rs));
			gimple_call_set_lhs(gimple_seq_last_stmt(seq), res);
			emit_assign(&seq, st.r, res);
		}
		if (ipp_graph_is_back_edge(g, e) || ipp_fin_is_cut_vertex(fin, dst)) {
			emit_split(&seq, &st, src, dst);
		} else {
			gcc_assert(st.fin_of[e] != IPP_NONE);
			emit_add(&seq, &st, rho_val(&seq, &st, st.fin_of[e]));
			if (dst == ipp_proc_exit(g, p))
				emit_return(&seq, &st);	/* Exit_P's out-edges add 0 */
		}
		if (seq)
			gsi_insert_seq_on_edge(ge, seq);
	}

	gsi_commit_edge_inserts();
	update_ssa(TODO_update_ssa);
	pop_cfun();
	XDELETEVEC(st.fin_of);
	XDELETEVEC(st.exit_of);
	XDELETEVEC(st.restart_of);
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
		tree t = create_tmp_var(ptype, "ipp_p");
		emit_assign(&seq, t, ABI_TLS(__ipp_top));
		emit_assign(&seq, saved, t);
		gsi_insert_seq_on_edge(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)), seq);
	}
	FOR_EACH_BB_FN(bb, fun) {
		edge e;
		edge_iterator ei;
		bool abnormal = false;
		gimple_stmt_iterator gsi;
		gimple_seq seq = NULL;
		tree t;
		FOR_EACH_EDGE(e, ei, bb->preds)
			if (e->flags & EDGE_ABNORMAL)
				abnormal = true;
		if (!abnormal)
			continue;
		gsi = gsi_after_labels(bb);
		if (!gsi_end_p(gsi) && gimple_call_builtin_p(gsi_stmt(gsi), BUILT_IN_SETJMP_RECEIVER))
			gsi_next(&gsi);
		t = create_tmp_var(ptype, "ipp_p");
		emit_assign(&seq, t, saved);
		emit_assign(&seq, ABI_TLS(__ipp_top), t);
		gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);	/* at the end, appends */
	}
	gsi_commit_edge_inserts();
	update_ssa(TODO_update_ssa);
	pop_cfun();
}

