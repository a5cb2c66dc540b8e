/* ipp_pass.cc -- the instrumentation pass.
 *
 * A SIMPLE_IPA_PASS right after build_ssa_passes: every function body of the
 * unit is in GIMPLE/SSA with a CFG, and nothing has been inlined yet, so
 * paths are in terms of source functions at -O0 and -O2 alike.
 *
 *  1. Build the unit's supergraph G* through the core (ippcore/ipp_core.h):
 *     each basic block becomes a head vertex followed by a call vertex and a
 *     return-site vertex per call; abnormal edges are left out; a block with
 *     no successors (a call to exit/abort/longjmp, a trap, a resx) gets an
 *     edge to GExit_P.
 *  2. Let the core choose cuts (ipp_autocut) and number G*fin.
 *  3. Instrument each function from G*fin (Ball-Larus protocol, docs/
 *     PROTOCOL.md): a frame pushed on the thread's list at entry; path
 *     register updates on edges; at a back edge or a cut, record and restart;
 *     at a return, pop and record; before a call, store the path number and
 *     call vertex in the frame (partial paths), and in context mode before
 *     a call through a pointer also the pointer (__ipp_itgt: the callee's
 *     entry credits the arc); before a call that never returns, record.
 *     The frame is a *checkpoint* of the path (docs/PROTOCOL.md, "The
 *     checkpoint"): its (path, vertex) is stored again wherever the path
 *     leaves what it says behind -- at entry (the Entry vertex), after a
 *     restart (the restart vertex) and after a call returns (the return
 *     site) -- so that a fatal signal anywhere finds a prefix of the path
 *     in progress.
 *  4. Serialize the map (ippcore/ipp_format.h) for emission into .ipp_map.
 *
 * Functions not instrumented (listed in the map with the reason): external
 * gnu_inline bodies, no_instrument_function, ifunc resolvers, the runtime's
 * own __ipp_* functions, nonlocal goto receivers and functions with
 * returns_twice calls other than setjmp.
 *
 * Abnormal control flow: a setjmp's return site and every computed-goto
 * target are restart points (a path may start there); the computed goto
 * records its path and leaves IPP_PATH_RESTART in the path register, and a
 * longjmp's arrival is detected from setjmp's return value (__ipp_receive).
 * Such functions keep the path register in a volatile local, not in SSA.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include "gcc-common.h"
#include "ipp_plugin.h"
#include "ipp_format.h"


/* ------------------------------------------------------------------ */
/* Per-function bookkeeping                                             */
/* ------------------------------------------------------------------ */

struct fninfo {
	cgraph_node *node;
	function *fun;
	ipp_id proc;
	const char *skip;	/* reason, or NULL if instrumented */
	int nbb;		/* last_basic_block_for_fn at build time */
	ipp_id *head;		/* per bb index: head vertex, IPP_NONE if none */
	ipp_id *tail;		/* per bb index: last vertex of the chain */
	bool in_memory;		/* the path register is a volatile local */
};

struct unit {
	ipp_graph *g;
	fninfo *fns;
	size_t nfns;
	/* per G* vertex */
	gcall **call_stmt;
	/* per G* edge: the GIMPLE edge it stands for (NULL inside a block) */
	edge *gedge;
	size_t cap_v, cap_e;
	/* per G* vertex: the G* edge entering it inside a block chain */
	ipp_id *chain_in;
	/* a block with no successors: its last statement, per tail vertex */
	gimple **dead_stmt;
	/* per G* vertex: setjmp's return site (the call) */
	gcall **setjmp_call;
	/* the entries of the map's x-lines key (seg_flush), NULL if none */
	FILE *xlines;
	char *xlines_text;
	size_t xlines_len;
};

static void grow(struct unit *u)
{
	size_t nv = ipp_graph_nvertices(u->g), ne = ipp_graph_nedges(u->g);
	if (nv + 2 > u->cap_v) {
		size_t old = u->cap_v;
		u->cap_v = 2 * (nv + 2);
		u->call_stmt = (gcall **)xrealloc(u->call_stmt, u->cap_v * sizeof(gcall *));
		u->chain_in = (ipp_id *)xrealloc(u->chain_in, u->cap_v * sizeof(ipp_id));
		u->dead_stmt = (gimple **)xrealloc(u->dead_stmt, u->cap_v * sizeof(gimple *));
		u->setjmp_call = (gcall **)xrealloc(u->setjmp_call, u->cap_v * sizeof(gcall *));
		for (size_t i = old; i < u->cap_v; i++) {
			u->setjmp_call[i] = NULL;
			u->call_stmt[i] = NULL;
			u->chain_in[i] = IPP_NONE;
			u->dead_stmt[i] = NULL;
		}
	}
	if (ne + 2 > u->cap_e) {
		size_t old = u->cap_e;
		u->cap_e = 2 * (ne + 2);
		u->gedge = (edge *)xrealloc(u->gedge, u->cap_e * sizeof(edge));
		for (size_t i = old; i < u->cap_e; i++)
			u->gedge[i] = NULL;
	}
}

static ipp_id add_edge(struct unit *u, ipp_id s, ipp_id d, edge ge)
{
	ipp_id id;
	grow(u);
	id = ipp_add_edge(u->g, s, d);
	grow(u);
	u->gedge[id] = ge;
	return id;
}

/* ------------------------------------------------------------------ */
/* Which functions are instrumented                                     */
/* ------------------------------------------------------------------ */

static bool is_ifunc_resolver(tree decl)
{
	symtab_node *s;
	FOR_EACH_SYMBOL(s) {
		tree a = lookup_attribute("ifunc", DECL_ATTRIBUTES(s->decl));
		if (a && TREE_VALUE(a)) {
			tree name = TREE_VALUE(TREE_VALUE(a));
			if (TREE_CODE(name) == STRING_CST &&
			    strcmp(TREE_STRING_POINTER(name),
				   IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(decl))) == 0)
				return true;
		}
	}
	return false;
}

/* setjmp and its relatives: returns_twice calls whose second return comes
 * from a longjmp, and whose first argument is the jump buffer the plugin
 * notes (__ipp_setjmp_note).  GCC sets ECF_RETURNS_TWICE partly by name,
 * so a call named setjmp may have no argument at all (a K&R `setjmp();`,
 * a user function `int _setjmp(void)`): such a call is another
 * returns_twice call, which makes its caller uninstrumented
 * (unsupported_flow), never a buffer read that is not there.  Other
 * returns_twice calls (vfork, getcontext) are not handled either. */
static bool is_setjmp_call(gimple *s)
{
	tree fn;
	const char *n;
	if (!is_gimple_call(s) || !(gimple_call_flags(s) & ECF_RETURNS_TWICE))
		return false;
	fn = gimple_call_fndecl(s);
	if (!fn || fndecl_built_in_p(fn, BUILT_IN_SETJMP))
		return false;
	n = IDENTIFIER_POINTER(DECL_NAME(fn));
	if (strstr(n, "setjmp") == NULL || gimple_call_num_args(s) < 1)
		return false;
	return POINTER_TYPE_P(TREE_TYPE(gimple_call_arg(s, 0)));
}

static bool is_longjmp_call(gimple *s)
{
	tree fn;
	if (!s || !is_gimple_call(s) || gimple_call_num_args(s) < 1)
		return false;
	fn = gimple_call_fndecl(s);
	if (!fn || fndecl_built_in_p(fn, BUILT_IN_LONGJMP))
		return false;
	return strstr(IDENTIFIER_POINTER(DECL_NAME(fn)), "longjmp") != NULL;
}

static bool is_computed_goto(gimple *s)
{
	return s && gimple_code(s) == GIMPLE_GOTO &&
	       TREE_CODE(gimple_goto_dest(s)) != LABEL_DECL;
}

/* Why a function with abnormal control flow cannot be numbered, or NULL. */
static const char *unsupported_flow(function *fun)
{
	basic_block bb;
	if (fun->has_nonlocal_label)
		return "nonlocal goto receiver";
	FOR_EACH_BB_FN(bb, fun) {
		for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
			gimple *s = gsi_stmt(gsi);
			if (is_gimple_call(s) && (gimple_call_flags(s) & ECF_RETURNS_TWICE) &&
			    !is_setjmp_call(s))
				return "returns_twice call other than setjmp(buf) (vfork, "
				       "__builtin_setjmp, getcontext, a setjmp without a buffer)";
		}
	}
	return NULL;
}

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

static const char *skip_reason(cgraph_node *node)
{
	tree decl = node->decl;
	const char *asm_name = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(decl));
	if (lookup_attribute("no_instrument_function", DECL_ATTRIBUTES(decl)))
		return "no_instrument_function";
	if (strncmp(asm_name, "__ipp_", 6) == 0)
		return "ipp runtime";
	if (is_ifunc_resolver(decl))
		return "ifunc resolver";
	return unsupported_flow(DECL_STRUCT_FUNCTION(decl));
}

/* ------------------------------------------------------------------ */
/* Step 1: G* from GIMPLE                                               */
/* ------------------------------------------------------------------ */

static void set_loc(ipp_graph *g, ipp_id v, location_t loc)
{
	if (loc == UNKNOWN_LOCATION)
		return;
	expanded_location x = expand_location(loc);
	if (x.file)
		ipp_set_loc(g, v, x.file, x.line, x.column);
}

/* The procedure a direct call enters, or IPP_NONE (summarized: the callee
 * starts its own path).  A call to a normal built-in (floor, memcpy, ...)
 * is summarized even when the unit defines that function: after this pass
 * GCC may fold it into a call to another function ((float)floor(x) becomes
 * floorf(x)) or expand it inline, and a caller that handed its path to a
 * callee that never runs would lose it. */
static ipp_id proc_of_decl(struct unit *u, tree decl)
{
	if (!decl || fndecl_built_in_p(decl, BUILT_IN_NORMAL))
		return IPP_NONE;
	for (size_t i = 0; i < u->nfns; i++)
		if (u->fns[i].node->decl == decl)
			return u->fns[i].skip ? IPP_NONE : u->fns[i].proc;
	return IPP_NONE;
}

static bool is_unreachable_call(gimple *s)
{
	return s && is_gimple_call(s) &&
	       gimple_call_builtin_p(s, BUILT_IN_UNREACHABLE);
}

/* The map's x-lines key (docs/FORMAT.md): the source lines of every
 * *segment* of a basic block -- the statements from the block's head
 * vertex to its first call, from each call's return site to the next call,
 * and so on -- recorded as gcov records a block's lines (profile.cc): every
 * statement whose location is not reserved (debug statements excepted:
 * gcov counts their lines with -g, but the map must not depend on -g, so a
 * line that only a debug statement holds is not in x-lines and the gcov
 * oracle does not compare it), each (file, line) once per
 * segment, in statement order; and the line of a goto eliminated into the
 * lone out-edge of a block (a break, a continue) for the block's last
 * segment, unless a statement of the function had that very location
 * before (gcov's "seen_locations", in the order of the block chain).  One
 * entry "- [VERTEX, FILE, [LINE, ...]]" per run of statements of the same
 * file; VERTEX is the head vertex or the return site that starts the
 * segment.  The decoder ignores the key;
 * testsuite/programs/gcov.sh uses it to find the lines that lie in a single
 * basic block. */
struct seglines {
	ipp_id v;		/* the segment's first vertex */
	const char *file;	/* of the current run */
	int *lines;
	size_t n, cap;
};

/* s as a YAML double-quoted scalar. */
static void yaml_quoted(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* Writes the current run of the segment as an x-lines entry. */
static void seg_flush(struct unit *u, struct seglines *sl)
{
	if (sl->n == 0)
		return;
	if (!u->xlines)
		u->xlines = open_memstream(&u->xlines_text, &u->xlines_len);
	if (!u->xlines)
		return;
	fprintf(u->xlines, "- [%d, ", (int)sl->v);
	yaml_quoted(u->xlines, sl->file);
	for (size_t i = 0; i < sl->n; i++)
		fprintf(u->xlines, "%s%d", i ? ", " : ", [", sl->lines[i]);
	fputs("]]\n", u->xlines);
	sl->n = 0;
}

/* Ends the current segment; the next starts at vertex v. */
static void seg_start(struct unit *u, struct seglines *sl, ipp_id v)
{
	seg_flush(u, sl);
	sl->v = v;
	sl->file = NULL;
}

/* Adds the line of loc to the segment (a new run if its file differs). */
static void seg_loc(struct unit *u, struct seglines *sl, location_t loc)
{
	expanded_location x;

	if (RESERVED_LOCATION_P(loc))
		return;
	x = expand_location(loc);
	if (!x.file)
		return;
	if (sl->file && strcmp(sl->file, x.file) != 0)
		seg_flush(u, sl);
	sl->file = x.file;
	for (size_t i = 0; i < sl->n; i++)
		if (sl->lines[i] == x.line)
			return;
	if (sl->n == sl->cap) {
		sl->cap = sl->cap ? 2 * sl->cap : 16;
		sl->lines = XRESIZEVEC(int, sl->lines, sl->cap);
	}
	sl->lines[sl->n++] = x.line;
}

static void build_body(struct unit *u, fninfo *fi)
{
	struct seglines sl;
	ipp_graph *g = u->g;
	function *fun = fi->fun;
	basic_block bb;
	ipp_id p = fi->proc;

	memset(&sl, 0, sizeof(sl));
	fi->nbb = last_basic_block_for_fn(fun);
	fi->head = XNEWVEC(ipp_id, fi->nbb);
	fi->tail = XNEWVEC(ipp_id, fi->nbb);
	for (int i = 0; i < fi->nbb; i++)
		fi->head[i] = fi->tail[i] = IPP_NONE;

	/* vertices, block by block in index order */
	for (int i = NUM_FIXED_BLOCKS; i < fi->nbb; i++) {
		ipp_id cur;
		bb = BASIC_BLOCK_FOR_FN(fun, i);
		if (!bb)
			continue;
		grow(u);
		cur = fi->head[i] = ipp_add_block(g, p);
		ipp_set_tag(g, cur, i);
		/* Debug statements exist only with -g, and -g must not change the
		 * map or the code (-fcompare-debug): every walk over a block's
		 * statements here skips them. */
		for (gimple_stmt_iterator gsi = gsi_start_nondebug_bb(bb); !gsi_end_p(gsi);
		     gsi_next_nondebug(&gsi)) {
			gimple *s = gsi_stmt(gsi);
			if (gimple_has_location(s)) {
				set_loc(g, fi->head[i], gimple_location(s));
				break;
			}
		}
		seg_start(u, &sl, cur);
		for (gimple_stmt_iterator gsi = gsi_start_nondebug_bb(bb); !gsi_end_p(gsi);
		     gsi_next_nondebug(&gsi)) {
			gimple *s = gsi_stmt(gsi);
			gcall *call;
			ipp_id c, callee;
			unsigned flags = 0;
			seg_loc(u, &sl, gimple_location(s));
			if (!is_gimple_call(s) || gimple_call_internal_p(s))
				continue;
			call = as_a<gcall *>(s);
			callee = proc_of_decl(u, gimple_call_fndecl(call));
			if (!gimple_call_fndecl(call))
				flags |= IPP_CALL_INDIRECT;
			if (gimple_call_flags(call) & ECF_NORETURN)
				flags |= IPP_CALL_NORETURN;
			grow(u);
			c = ipp_add_call(g, p, callee, flags);
			/* docs/PROTOCOL.md relies on it: the vertex before a call
			 * vertex in its chain is c - 1 (same path number) */
			gcc_assert(cur == c - 1);
			/* the decoder names every direct callee, in the unit or not */
			if (tree fn = gimple_call_fndecl(call))
				ipp_set_call_target(g, c, IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fn)),
						    lang_hooks.decl_printable_name(fn, 0));
			grow(u);
			ipp_set_tag(g, c, i);
			ipp_set_tag(g, c + 1, i);
			set_loc(g, c, gimple_location(s));
			set_loc(g, c + 1, gimple_location(s));
			u->call_stmt[c] = call;
			u->chain_in[c] = add_edge(u, cur, c, NULL);
			cur = c + 1;
			seg_start(u, &sl, cur);
			if (is_setjmp_call(call)) {
				ipp_set_restart(g, c + 1);
				u->setjmp_call[c + 1] = call;
			}
		}
		fi->tail[i] = cur;
	}
	seg_flush(u, &sl);
	{
		hash_set<location_hash> seen;
		location_t loc = DECL_SOURCE_LOCATION(fun->decl);
		if (!RESERVED_LOCATION_P(loc))
			seen.add(loc);
		FOR_EACH_BB_FN(bb, fun) {
			for (gimple_stmt_iterator gsi = gsi_start_nondebug_bb(bb); !gsi_end_p(gsi);
			     gsi_next_nondebug(&gsi)) {
				loc = gimple_location(gsi_stmt(gsi));
				if (!RESERVED_LOCATION_P(loc))
					seen.add(loc);
			}
			if (!single_succ_p(bb))
				continue;
			loc = single_succ_edge(bb)->goto_locus;
			if (RESERVED_LOCATION_P(loc) || seen.contains(loc))
				continue;
			seg_start(u, &sl, fi->tail[bb->index]);
			seg_loc(u, &sl, loc);
			seg_flush(u, &sl);
		}
	}
	XDELETEVEC(sl.lines);

	/* edges: Entry_P -> first block, then each block's successors in order */
	add_edge(u, ipp_proc_entry(g, p),
		 fi->head[single_succ(ENTRY_BLOCK_PTR_FOR_FN(fun))->index],
		 single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)));
	for (int i = NUM_FIXED_BLOCKS; i < fi->nbb; i++) {
		edge e;
		edge_iterator ei;
		size_t n = 0;
		bb = BASIC_BLOCK_FOR_FN(fun, i);
		if (!bb)
			continue;
		FOR_EACH_EDGE(e, ei, bb->succs) {
			ipp_id d;
			if (e->flags & (EDGE_ABNORMAL | EDGE_FAKE))
				continue;
			d = e->dest == EXIT_BLOCK_PTR_FOR_FN(fun) ? ipp_proc_exit(g, p)
								  : fi->head[e->dest->index];
			add_edge(u, fi->tail[i], d, e);
			n++;
		}
		FOR_EACH_EDGE(e, ei, bb->succs)
			if ((e->flags & EDGE_ABNORMAL) && is_computed_goto(last_stmt(bb)))
				ipp_set_restart(g, fi->head[e->dest->index]);
		if (n == 0) {
			/* a dead end: the path ends here (design notes) */
			gimple *last = last_stmt(bb);
			add_edge(u, fi->tail[i], ipp_proc_gexit(g, p), NULL);
			u->dead_stmt[fi->tail[i]] = last;
		}
	}
}

/* ------------------------------------------------------------------ */
/* Step 3: instrumentation                                              */
/* ------------------------------------------------------------------ */

/* Trees shared by all functions of the unit. */
static tree frame_type, frame_prev, frame_region, frame_path, frame_vertex, frame_flags;
static tree frame_nvc;
static tree region_type, module_type, top_var, record_fn, receive_fn, regions_var, module_var;
static tree setjmp_note_fn, longjmp_note_fn, enter_fn, leave_fn, unwind_below_fn, bjmp_note_fn;
static tree tok_var, path_var, nvc_var, reg_var, itgt_var;
static tree u64;
static uint64_t unit_checksum;

static tree add_field(tree type, const char *name, tree ftype, tree *chain)
{
	tree f = build_decl(BUILTINS_LOCATION, FIELD_DECL, get_identifier(name), ftype);
	DECL_CONTEXT(f) = type;
	DECL_CHAIN(f) = *chain;
	*chain = f;
	return f;
}

/* extern __thread TYPE NAME;  (defined in the runtime) */
static tree tls_var(const char *name, tree type)
{
	tree v = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier(name), type);
	TREE_PUBLIC(v) = 1;
	DECL_EXTERNAL(v) = 1;
	DECL_ARTIFICIAL(v) = 1;
	TREE_USED(v) = 1;
	set_decl_tls_model(v, decl_default_tls_model(v));
	varpool_node::get_create(v);
	return v;
}

static tree rt_fn(const char *name, tree type)
{
	tree f = build_fn_decl(name, type);
	DECL_ATTRIBUTES(f) = tree_cons(get_identifier("leaf"), NULL_TREE, NULL_TREE);
	return f;
}

static void make_types(void)
{
	tree fields = NULL_TREE;
	u64 = long_long_unsigned_type_node;

	/* struct ipp_rt_frame (runtime/ipp_abi.h).  add_field prepends, and
	 * finish_builtin_struct reverses the chain: add in declaration order. */
	frame_type = make_node(RECORD_TYPE);
	frame_prev = add_field(frame_type, "prev", ptr_type_node, &fields);
	frame_region = add_field(frame_type, "region", ptr_type_node, &fields);
	frame_path = add_field(frame_type, "path", u64, &fields);
	frame_vertex = add_field(frame_type, "vertex", integer_type_node, &fields);
	frame_flags = add_field(frame_type, "flags", unsigned_type_node, &fields);
	frame_nvc = add_field(frame_type, "nvc", u64, &fields);
	add_field(frame_type, "saved_tok", u64, &fields);
	add_field(frame_type, "saved_path", u64, &fields);
	add_field(frame_type, "saved_nvc", u64, &fields);
	add_field(frame_type, "saved_reg", ptr_type_node, &fields);
	add_field(frame_type, "saved_itgt", const_ptr_type_node, &fields);
	finish_builtin_struct(frame_type, "ipp_rt_frame", fields, NULL_TREE);

	/* struct ipp_rt_region */
	fields = NULL_TREE;
	region_type = make_node(RECORD_TYPE);
	add_field(region_type, "name", const_ptr_type_node, &fields);
	add_field(region_type, "npaths", u64, &fields);
	add_field(region_type, "module", ptr_type_node, &fields);
	add_field(region_type, "index", unsigned_type_node, &fields);
	add_field(region_type, "flags", unsigned_type_node, &fields);
	finish_builtin_struct(region_type, "ipp_rt_region", fields, NULL_TREE);

	/* struct ipp_rt_module */
	fields = NULL_TREE;
	module_type = make_node(RECORD_TYPE);
	add_field(module_type, "abi_version", unsigned_type_node, &fields);
	add_field(module_type, "nregions", unsigned_type_node, &fields);
	add_field(module_type, "name", const_ptr_type_node, &fields);
	add_field(module_type, "checksum", const_ptr_type_node, &fields);
	add_field(module_type, "mode", const_ptr_type_node, &fields);
	add_field(module_type, "regions", ptr_type_node, &fields);
	add_field(module_type, "next", ptr_type_node, &fields);
	add_field(module_type, "registered", unsigned_type_node, &fields);
	add_field(module_type, "reserved", unsigned_type_node, &fields);
	finish_builtin_struct(module_type, "ipp_rt_module", fields, NULL_TREE);

	top_var = tls_var("__ipp_top", build_pointer_type(frame_type));
	/* Volatile, like the frame (see fld()): a fatal-signal handler walks
	 * the list at any instruction, so a push must neither be deleted (GCC
	 * drops the store as dead when an inlined callee's pop or a trap
	 * follows it without a call between) nor be moved before the stores
	 * that fill the frame. */
	TREE_THIS_VOLATILE(top_var) = 1;
	TREE_SIDE_EFFECTS(top_var) = 1;
	tok_var = tls_var("__ipp_tok", u64);
	path_var = tls_var("__ipp_path", u64);
	nvc_var = tls_var("__ipp_nvc", u64);
	reg_var = tls_var("__ipp_reg", ptr_type_node);
	itgt_var = tls_var("__ipp_itgt", const_ptr_type_node);

	record_fn = rt_fn("__ipp_record",
			  build_function_type_list(void_type_node, ptr_type_node, u64, NULL_TREE));
	receive_fn = rt_fn("__ipp_receive",
			   build_function_type_list(u64, ptr_type_node, integer_type_node, u64, u64,
						    NULL_TREE));
	setjmp_note_fn = rt_fn("__ipp_setjmp_note",
			       build_function_type_list(void_type_node, const_ptr_type_node,
							ptr_type_node, NULL_TREE));
	longjmp_note_fn = rt_fn("__ipp_longjmp_note",
				build_function_type_list(void_type_node, const_ptr_type_node,
							 NULL_TREE));
	unwind_below_fn = rt_fn("__ipp_unwind_below",
				build_function_type_list(unsigned_type_node, const_ptr_type_node,
							 NULL_TREE));
	bjmp_note_fn = rt_fn("__ipp_builtin_longjmp_note",
			     build_function_type_list(void_type_node, const_ptr_type_node,
						      NULL_TREE));
	enter_fn = rt_fn("__ipp_enter",
			 build_function_type_list(void_type_node, ptr_type_node, ptr_type_node, u64,
						  const_ptr_type_node, NULL_TREE));
	leave_fn = rt_fn("__ipp_leave",
			 build_function_type_list(void_type_node, ptr_type_node, u64, NULL_TREE));
}

static tree str_cst(const char *s)
{
	return build_string_literal(strlen(s) + 1, s);
}

/* The unit's static struct ipp_rt_module and region array. */
static void make_module_data(const ipp_fin *fin, const char *module, const char *checksum)
{
	size_t nr = ipp_fin_nregions(fin);
	char name[64];
	tree arr_type = build_array_type(region_type, build_index_type(size_int(nr ? nr - 1 : 0)));
	vec<constructor_elt, va_gc> *elts = NULL;
	mpz_t t;

	snprintf(name, sizeof(name), "__ipp_regions_%s", checksum);
	regions_var = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier(name), arr_type);
	snprintf(name, sizeof(name), "__ipp_module_%s", checksum);
	module_var = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier(name), module_type);
	tree both[2] = { regions_var, module_var };
	for (int k = 0; k < 2; k++) {
		tree v = both[k];
		TREE_STATIC(v) = 1;
		TREE_PUBLIC(v) = 0;
		DECL_ARTIFICIAL(v) = 1;
		TREE_USED(v) = 1;
		TREE_ADDRESSABLE(v) = 1;
	}

	mpz_init(t);
	for (size_t r = 0; r < nr; r++) {
		ipp_region_info ri;
		vec<constructor_elt, va_gc> *fe = NULL;
		tree f = TYPE_FIELDS(region_type);
		ipp_fin_region(fin, (ipp_id)r, &ri);
		ipp_fin_region_total(fin, (ipp_id)r, t);
		CONSTRUCTOR_APPEND_ELT(fe, f, str_cst(ri.name));
		f = DECL_CHAIN(f);
		CONSTRUCTOR_APPEND_ELT(fe, f, build_int_cstu(u64, mpz_get_ui(t)));
		f = DECL_CHAIN(f);
		CONSTRUCTOR_APPEND_ELT(fe, f, build_fold_addr_expr(module_var));
		f = DECL_CHAIN(f);
		CONSTRUCTOR_APPEND_ELT(fe, f, build_int_cst(unsigned_type_node, 0));
		f = DECL_CHAIN(f);
		CONSTRUCTOR_APPEND_ELT(fe, f, build_int_cst(unsigned_type_node, 0));
		CONSTRUCTOR_APPEND_ELT(elts, size_int(r), build_constructor(region_type, fe));
	}
	mpz_clear(t);
	DECL_INITIAL(regions_var) = build_constructor(arr_type, elts);

	{
		vec<constructor_elt, va_gc> *me = NULL;
		tree f = TYPE_FIELDS(module_type);
		CONSTRUCTOR_APPEND_ELT(me, f, build_int_cst(unsigned_type_node, 3));	/* IPP_ABI_VERSION */
		f = DECL_CHAIN(f);
		CONSTRUCTOR_APPEND_ELT(me, f, build_int_cst(unsigned_type_node, nr));
		f = DECL_CHAIN(f);
		CONSTRUCTOR_APPEND_ELT(me, f, str_cst(module));
		f = DECL_CHAIN(f);
		CONSTRUCTOR_APPEND_ELT(me, f, str_cst(checksum));
		f = DECL_CHAIN(f);
		CONSTRUCTOR_APPEND_ELT(me, f, str_cst(ipp_mode_name(ipp_fin_mode(fin))));
		f = DECL_CHAIN(f);
		CONSTRUCTOR_APPEND_ELT(me, f, build_fold_addr_expr(regions_var));
		DECL_INITIAL(module_var) = build_constructor(module_type, me);
	}
	varpool_node::finalize_decl(regions_var);
	varpool_node::finalize_decl(module_var);
}

static tree region_addr(ipp_id r)
{
	tree ref = build4(ARRAY_REF, region_type, regions_var, size_int(r), NULL_TREE, NULL_TREE);
	return build_fold_addr_expr(ref);
}

/* The token naming procedure q of this unit: unique in the program with
 * overwhelming probability, never 0 (0 means "no callee expected"). */
static uint64_t token_of(ipp_id q)
{
	return ipp_hash_u64(ipp_hash_u64(IPP_HASH_INIT, unit_checksum), (uint64_t)q) | 1;
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
	return create_tmp_var(u64, "ipp_t");
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
		return build_int_cstu(u64, v);
	}
	gcc_assert(mpz_sizeinbase(a, 2) <= 64 && mpz_sizeinbase(b, 2) <= 64);
	if (mpz_sgn(a) == 0)
		return build_int_cstu(u64, mpz_get_ui(b));
	t = tmp();
	gimple_seq_add_stmt(seq, gimple_build_assign(t, MULT_EXPR, st->nvc,
						     build_int_cstu(u64, mpz_get_ui(a))));
	if (mpz_sgn(b) == 0)
		return t;
	t2 = tmp();
	gimple_seq_add_stmt(seq, gimple_build_assign(t2, PLUS_EXPR, t,
						     build_int_cstu(u64, mpz_get_ui(b))));
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
	gimple_seq_add_stmt(seq, gimple_build_call(record_fn, 2, st->reg, t));
}

/* A checkpoint that is not a call (runtime/ipp_abi.h, IPP_VERTEX_INSIDE):
 * the runtime masks the bit off; it tells it that the activation stands
 * in its own code, so that a stack overflow there is not taken for one in
 * a callee's prologue. */
#define IPP_VERTEX_INSIDE 0x40000000

/* frame.vertex = v (and frame.path = r first if store_path) */
static void emit_stand(gimple_seq *seq, struct fnstate *st, int v, bool store_path)
{
	if (store_path) {
		tree t = tmp();
		emit_assign(seq, t, st->r);
		emit_assign(seq, fld(st->frame, frame_path), t);
	}
	emit_assign(seq, fld(st->frame, frame_vertex), build_int_cst(integer_type_node, v));
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
	emit_assign(seq, itgt_var, t);
}

/* The number a path restarting at v starts with: pathNumOnEntry +
 * rho(Entry_P -> v)(nvc) (Figure 8). */
static tree restart_val(gimple_seq *seq, struct fnstate *st, ipp_id v)
{
	gcc_assert(st->restart_of[v] != IPP_NONE);
	return add_val(seq, st->onentry, rho_val(seq, st, st->restart_of[v]));
}

/* A removed edge w -> v (back edge or into a cut vertex): record the path
 * ending w -> GExit_P, restart at v, and checkpoint the new path there
 * (the frame's old checkpoint names a prefix of the path just recorded). */
static void emit_split(gimple_seq *seq, struct fnstate *st, ipp_id w, ipp_id v)
{
	gcc_assert(st->exit_of[w] != IPP_NONE);
	emit_record(seq, st, rho_val(seq, st, st->exit_of[w]));
	emit_assign(seq, st->r, restart_val(seq, st, v));
	emit_stand(seq, st, (int)v | IPP_VERTEX_INSIDE, true);
}

/* Function entry (docs/PROTOCOL.md): push the frame and set r, nvc,
 * onentry and the path's region.  The frame's first checkpoint is the
 * Entry vertex with the number the path has there (0, or the caller's). */
static void emit_entry(gimple_seq *seq, struct fnstate *st, tree self)
{
	tree fa = build_fold_addr_expr(st->frame);
	tree entry = build_int_cst(integer_type_node,
				   ipp_proc_entry(ipp_fin_graph(st->fin), st->fi->proc) |
				   IPP_VERTEX_INSIDE);
	if (!st->ctx) {
		tree t = create_tmp_var(build_pointer_type(frame_type), "ipp_p");
		emit_assign(seq, t, top_var);
		emit_assign(seq, fld(st->frame, frame_prev), t);
		emit_assign(seq, fld(st->frame, frame_region), st->reg);
		emit_assign(seq, fld(st->frame, frame_path), build_int_cstu(u64, 0));
		emit_assign(seq, fld(st->frame, frame_vertex), entry);
		emit_assign(seq, fld(st->frame, frame_flags), build_int_cst(unsigned_type_node, 0));
		emit_assign(seq, top_var, fa);
		emit_assign(seq, st->r, build_int_cstu(u64, 0));
		return;
	}
	if (st->region_fn) {
		/* may continue the caller's path or start fresh: the runtime
		 * decides, and fills in path, nvc and region; the vertex is ours
		 * (stored first, so the frame is whole when it is pushed) */
		tree t = tmp();
		emit_assign(seq, fld(st->frame, frame_vertex), entry);
		gimple_seq_add_stmt(seq, gimple_build_call(enter_fn, 4, fa, region_addr(st->region),
							   build_int_cstu(u64, token_of(st->fi->proc)),
							   self));
		emit_assign(seq, t, fld(st->frame, frame_path));
		emit_assign(seq, st->r, t);
		emit_assign(seq, st->nvc, fld(st->frame, frame_nvc));
		emit_assign(seq, st->reg, fld(st->frame, frame_region));
	} else {
		/* only ever entered through the unit's interprocedural call edges */
		tree t = create_tmp_var(build_pointer_type(frame_type), "ipp_p");
		tree pth = tmp();
		emit_assign(seq, t, top_var);
		emit_assign(seq, fld(st->frame, frame_prev), t);
		emit_assign(seq, st->reg, reg_var);
		emit_assign(seq, fld(st->frame, frame_region), st->reg);
		emit_assign(seq, pth, path_var);
		emit_assign(seq, fld(st->frame, frame_path), pth);
		emit_assign(seq, fld(st->frame, frame_vertex), entry);
		emit_assign(seq, fld(st->frame, frame_flags), build_int_cst(unsigned_type_node, 1));
		emit_assign(seq, st->nvc, nvc_var);
		emit_assign(seq, fld(st->frame, frame_nvc), st->nvc);
		emit_assign(seq, tok_var, build_int_cstu(u64, 0));
		emit_assign(seq, top_var, fa);
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
		gimple_seq_add_stmt(seq, gimple_build_call(leave_fn, 2,
							   build_fold_addr_expr(st->frame), t));
		return;
	}
	tree pv = create_tmp_var(build_pointer_type(frame_type), "ipp_p");
	emit_assign(seq, pv, fld(st->frame, frame_prev));
	emit_assign(seq, top_var, pv);
	if (st->ctx)
		emit_assign(seq, path_var, t);	/* hand the path back to the caller */
	else
		gimple_seq_add_stmt(seq, gimple_build_call(record_fn, 2, st->reg, t));
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

static void instrument(struct unit *u, fninfo *fi, const ipp_fin *fin)
{
	ipp_graph *g = u->g;
	struct fnstate st;
	size_t nv = ipp_graph_nvertices(g), ne = ipp_graph_nedges(g);
	ipp_id p = fi->proc;
	function *fun = fi->fun;
	tree decl = fi->node->decl, self;

	memset(&st, 0, sizeof(st));
	st.fin = fin;
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
	st.frame = create_tmp_var(frame_type, "ipp_frame");
	TREE_ADDRESSABLE(st.frame) = 1;
	TREE_THIS_VOLATILE(st.frame) = 1;	/* see fld() */
	TREE_SIDE_EFFECTS(st.frame) = 1;
	fi->in_memory = has_abnormal_edges(fun);
	if (fi->in_memory) {
		/* not an SSA register: its value must survive abnormal edges */
		st.r = create_tmp_var(u64, "ipp_rm");
		TREE_ADDRESSABLE(st.r) = 1;
		TREE_THIS_VOLATILE(st.r) = 1;
		TREE_SIDE_EFFECTS(st.r) = 1;
	} else {
		st.r = create_tmp_var(u64, "ipp_r");
	}
	if (st.ctx) {
		st.nvc = create_tmp_var(u64, "ipp_nvc");
		st.onentry = create_tmp_var(u64, "ipp_onentry");
		st.reg = create_tmp_var(ptr_type_node, "ipp_reg");
	} else {
		st.nvc = build_int_cstu(u64, 1);
		st.onentry = build_int_cstu(u64, 0);
		st.reg = region_addr(st.region);
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
		/* a cut at the call vertex itself: the chain edge into it is removed,
		 * and the path restarts at the call: it has no vertex before the
		 * call (the runtime steps back to v - 1 after a stack overflow
		 * only from an unmarked call checkpoint) */
		int callpt = (int)v;
		if (ipp_fin_is_cut_vertex(fin, v)) {
			emit_split(&seq, &st, ipp_edge_src(g, u->chain_in[v]), v);
			callpt |= IPP_VERTEX_INSIDE;
		}
		if (interproc) {
			/* rule 1: hand the path to the callee, take it back after */
			tree t = tmp();
			emit_stand(&seq, &st, callpt, true);
			emit_assign(&seq, t, st.r);
			emit_assign(&seq, path_var, t);
			emit_assign(&seq, nvc_var, psi_val(&seq, &st, v + 1));
			emit_assign(&seq, reg_var, st.reg);
			emit_assign(&seq, tok_var,
				    build_int_cstu(u64, token_of(ipp_call_callee(g, v))));
			if (!dead) {
				/* the callee may have restarted the path (a loop):
				 * checkpoint at the return site */
				gimple_seq after = NULL;
				tree t2 = tmp();
				emit_assign(&after, t2, path_var);
				emit_assign(&after, st.r, t2);
				emit_stand(&after, &st, ((int)v + 1) | IPP_VERTEX_INSIDE, true);
				insert_after_call(call, after);
			}
		} else if (dead && !is_unreachable_call(call)) {
			/* the call never returns: the path ends here */
			emit_record(&seq, &st, rho_val(&seq, &st, ipp_fin_succ(fin, v + 1, 0)));
			emit_stand(&seq, &st, -1, false);
			if (is_longjmp_call(call))
				gimple_seq_add_stmt(&seq, gimple_build_call(longjmp_note_fn, 1,
									    gimple_call_arg(call, 0)));
			if (gimple_call_builtin_p(call, BUILT_IN_NONLOCAL_GOTO))
				/* leaving for a parent function's label: every
				 * frame below the parent's save area is abandoned */
				gimple_seq_add_stmt(&seq, gimple_build_call(unwind_below_fn, 1,
									    gimple_call_arg(call, 1)));
			if (gimple_call_builtin_p(call, BUILT_IN_LONGJMP))
				gimple_seq_add_stmt(&seq, gimple_build_call(bjmp_note_fn, 1,
									    gimple_call_arg(call, 0)));
		} else {
			emit_stand(&seq, &st, callpt, true);
			if (st.ctx && (ipp_call_flags(g, v) & IPP_CALL_INDIRECT))
				emit_itgt(&seq, call);
			if (!dead && !u->setjmp_call[v + 1]) {
				/* returned: checkpoint at the return site (the
				 * number is the call's: the summary edge adds 0).
				 * (After setjmp, __ipp_receive must find the frame
				 * as it was; its own code checkpoints.) */
				gimple_seq after = NULL;
				emit_stand(&after, &st, ((int)v + 1) | IPP_VERTEX_INSIDE, false);
				insert_after_call(call, after);
			}
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
		if (is_unreachable_call(last) ||
		    (is_gimple_call(last) && gimple_call_internal_p(last)))
			continue;	/* unreachable, or the abnormal dispatcher */
		emit_record(&seq, &st, rho_val(&seq, &st, ipp_fin_succ(fin, t, 0)));
		emit_stand(&seq, &st, -1, false);
		if (is_computed_goto(last))
			emit_assign(&seq, st.r, build_int_cstu(u64, HOST_WIDE_INT_M1U));
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
			gimple_seq_add_stmt(&seq, gimple_build_call(setjmp_note_fn, 2, unshare_expr(buf),
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
							      build_int_cstu(u64, HOST_WIDE_INT_M1U)));
		gimple_seq_add_stmt(&seq, gimple_build_assign(t2, COND_EXPR, c, rs, t));
		emit_assign(&seq, st.r, t2);
		emit_stand(&seq, &st, (int)h | IPP_VERTEX_INSIDE, true);	/* a restart */
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
			gimple_seq_add_stmt(&seq, gimple_build_call(receive_fn, 4,
				build_fold_addr_expr(st.frame), fold_convert(integer_type_node, ret), t, rs));
			gimple_call_set_lhs(gimple_seq_last_stmt(seq), res);
			emit_assign(&seq, st.r, res);
			emit_stand(&seq, &st, (int)src | IPP_VERTEX_INSIDE, true);	/* a restart */
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
static void guard_receiver(fninfo *fi)
{
	function *fun = fi->fun;
	tree saved, ptype = build_pointer_type(frame_type);
	basic_block bb;

	push_cfun(fun);
	saved = create_tmp_var(ptype, "ipp_saved_top");
	TREE_ADDRESSABLE(saved) = 1;
	TREE_THIS_VOLATILE(saved) = 1;
	TREE_SIDE_EFFECTS(saved) = 1;
	{
		gimple_seq seq = NULL;
		tree t = create_tmp_var(ptype, "ipp_p");
		emit_assign(&seq, t, top_var);
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
		emit_assign(&seq, top_var, t);
		gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);	/* at the end, appends */
	}
	gsi_commit_edge_inserts();
	update_ssa(TODO_update_ssa);
	pop_cfun();
}

/* ------------------------------------------------------------------ */
/* The pass                                                             */
/* ------------------------------------------------------------------ */

static int cmp_order(const void *a, const void *b)
{
	const fninfo *x = (const fninfo *)a, *y = (const fninfo *)b;
	return x->node->order - y->node->order;
}

/* Does the function need an Entry region: can it be entered other than
 * through the interprocedural call edges of this unit's G*?  The design
 * notes' ways in from outside: main, externally visible or address-taken
 * functions, constructors, destructors and `used` functions (with
 * -fwhole-program the visibility pass has already made every function but
 * main local, which gives the paper's whole-program model).  Besides
 * those, a function needs one when a caller is not
 * instrumented (its calls are not in G*: a nested function called from a
 * nonlocal-goto receiver) and when no caller is known at all (a dead
 * static function GCC has not removed yet, or one called from asm): such
 * a function must start its own path, never read a caller's slots, and its
 * numbers must fit like any region's.  Needs every fninfo's skip reason. */
static bool entered_from_outside(struct unit *u, cgraph_node *node)
{
	tree decl = node->decl;
	const char *n = IDENTIFIER_POINTER(DECL_NAME(decl));
	if (node->externally_visible || node->address_taken || node->has_aliases_p() ||
	    DECL_STATIC_CONSTRUCTOR(decl) || DECL_STATIC_DESTRUCTOR(decl) ||
	    lookup_attribute("used", DECL_ATTRIBUTES(decl)) || strcmp(n, "main") == 0)
		return true;
	if (!node->callers)
		return true;
	for (cgraph_edge *e = node->callers; e; e = e->next_caller) {
		size_t i;
		for (i = 0; i < u->nfns; i++)
			if (u->fns[i].node == e->caller)
				break;
		if (i == u->nfns || u->fns[i].skip)
			return true;
	}
	return false;
}

static unsigned int execute_ipp(void)
{
	struct unit u;
	cgraph_node *node;
	ipp_fin *fin;
	ipp_cuts cuts;
	char err[512], cks[17];
	const char *module = main_input_filename;
	uint64_t checksum;

	memset(&u, 0, sizeof(u));
	u.g = ipp_graph_new();

	FOR_EACH_FUNCTION_WITH_GIMPLE_BODY(node) {
		if (DECL_EXTERNAL(node->decl) || node->inlined_to || node->clone_of)
			continue;
		u.fns = XRESIZEVEC(fninfo, u.fns, u.nfns + 1);
		memset(&u.fns[u.nfns], 0, sizeof(fninfo));
		u.fns[u.nfns].node = node;
		u.fns[u.nfns].fun = DECL_STRUCT_FUNCTION(node->decl);
		u.nfns++;
	}
	if (u.nfns == 0) {
		ipp_graph_free(u.g);
		return 0;
	}
	qsort(u.fns, u.nfns, sizeof(fninfo), cmp_order);

	/* procedures first (calls need their callees' ids), in source order */
	for (size_t i = 0; i < u.nfns; i++)
		u.fns[i].skip = skip_reason(u.fns[i].node);
	for (size_t i = 0; i < u.nfns; i++) {
		fninfo *fi = &u.fns[i];
		tree decl = fi->node->decl;
		unsigned flags = entered_from_outside(&u, fi->node) ? IPP_PROC_ENTRY : 0;
		if (fi->skip)
			flags |= IPP_PROC_SKIPPED;
		grow(&u);
		fi->proc = ipp_add_proc(u.g, lang_hooks.decl_printable_name(decl, 0),
					IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(decl)), flags);
		grow(&u);
		set_loc(u.g, ipp_proc_entry(u.g, fi->proc), DECL_SOURCE_LOCATION(decl));
	}
	for (size_t i = 0; i < u.nfns; i++) {
		fninfo *fi = &u.fns[i];
		if (fi->skip)
			continue;
		push_cfun(fi->fun);
		build_body(&u, fi);
		pop_cfun();
	}
	if (ipp_graph_check(u.g, err, sizeof(err)) < 0) {
		error("ipp: internal error building the supergraph of %s: %s", module, err);
		return 0;
	}

	/* step 2: cuts and numbering */
	ipp_cuts_init(&cuts);
	if (ipp_autocut(u.g, ipp_opts.mode, ipp_opts.limit, &cuts, err, sizeof(err)) < 0) {
		error("ipp: cannot number %s within the path limit: %s", module, err);
		return 0;
	}
	fin = ipp_fin_new(u.g, ipp_opts.mode, &cuts, err, sizeof(err));
	if (!fin) {
		error("ipp: internal error numbering %s: %s", module, err);
		return 0;
	}
	checksum = ipp_map_checksum(u.g, ipp_opts.mode, &cuts, module);
	unit_checksum = checksum;
	ipp_hex64(checksum, cks);

	if (ipp_opts.verbose) {
		mpz_t t;
		mpz_init(t);
		for (size_t r = 0; r < ipp_fin_nregions(fin); r++) {
			ipp_region_info ri;
			ipp_fin_region(fin, (ipp_id)r, &ri);
			ipp_fin_region_total(fin, (ipp_id)r, t);
			char *s = mpz_get_str(NULL, 10, t);
			location_t loc = UNKNOWN_LOCATION;
			for (size_t i = 0; i < u.nfns; i++)
				if (u.fns[i].proc == ri.proc)
					loc = DECL_SOURCE_LOCATION(u.fns[i].node->decl);
			inform(loc, "ipp: region %s: %s paths", ri.name, s);
			free(s);
		}
		for (size_t i = 0; i < cuts.nvertices; i++) {
			ipp_id v = cuts.vertices[i];
			inform(UNKNOWN_LOCATION, "ipp: cut in %s at vertex %d (%s:%d)",
			       ipp_proc_asm(u.g, ipp_vertex_proc(u.g, v)), (int)v,
			       ipp_vertex_file(u.g, v) ? ipp_vertex_file(u.g, v) : "?",
			       ipp_vertex_line(u.g, v));
		}
		for (size_t i = 0; i < cuts.ncalls; i++) {
			ipp_id c = cuts.calls[i];
			inform(UNKNOWN_LOCATION, "ipp: call site cut (summarized to fit) in %s at vertex %d (%s:%d)",
			       ipp_proc_asm(u.g, ipp_vertex_proc(u.g, c)), (int)c,
			       ipp_vertex_file(u.g, c) ? ipp_vertex_file(u.g, c) : "?",
			       ipp_vertex_line(u.g, c));
		}
		for (size_t i = 0; i < u.nfns; i++)
			if (u.fns[i].skip)
				inform(DECL_SOURCE_LOCATION(u.fns[i].node->decl),
				       "ipp: %s not instrumented: %s",
				       ipp_proc_asm(u.g, u.fns[i].proc), u.fns[i].skip);
		mpz_clear(t);
	}

	/* step 3.  Instrumented functions now write thread-local state: a call
	 * GCC merged or deleted as const/pure would lose a path. */
	for (size_t i = 0; i < u.nfns; i++) {
		tree decl = u.fns[i].node->decl;
		if (u.fns[i].skip)
			continue;
		TREE_READONLY(decl) = 0;
		DECL_PURE_P(decl) = 0;
		DECL_LOOPING_CONST_OR_PURE_P(decl) = 0;
	}
	make_types();
	make_module_data(fin, module, cks);
	for (size_t i = 0; i < u.nfns; i++) {
		if (!u.fns[i].skip)
			instrument(&u, &u.fns[i], fin);
		else if (unsupported_flow(u.fns[i].fun))
			guard_receiver(&u.fns[i]);
	}
	for (size_t i = 0; i < u.nfns; i++) {
		/* the new calls need call-graph edges before IPA */
		if (u.fns[i].skip)
			continue;
		push_cfun(u.fns[i].fun);
		cgraph_edge::rebuild_edges();
		pop_cfun();
	}

	/* step 4: the map */
	{
		const char **reasons = XCNEWVEC(const char *, u.nfns + 1);
		ipp_map_meta meta;
		FILE *mem;
		for (size_t i = 0; i < u.nfns; i++)
			reasons[u.fns[i].proc] = u.fns[i].skip;
		memset(&meta, 0, sizeof(meta));
		meta.module = module;
		meta.ipp_version = IPP_VERSION;
		meta.gcc_version = version_string;
		meta.skip_reason = reasons;
		mem = open_memstream(&ipp_unit_map, &ipp_unit_map_len);
		if (!mem || ipp_map_write(mem, fin, &cuts, &meta, ipp_opts.limit, err,
					  sizeof(err)) < 0)
			error("ipp: cannot write the map of %s: %s", module, err);
		if (mem)
			fclose(mem);
		XDELETEVEC(reasons);
	}
	/* the x-lines key goes last, before the end of the document "...\n" */
	if (u.xlines && fclose(u.xlines) == 0 && ipp_unit_map && ipp_unit_map_len >= 4 &&
	    memcmp(ipp_unit_map + ipp_unit_map_len - 4, "...\n", 4) == 0) {
		static const char key[] = "x-lines:\n", end[] = "...\n";
		size_t at = ipp_unit_map_len - 4;
		ipp_unit_map_len = at + strlen(key) + u.xlines_len + strlen(end);
		ipp_unit_map = (char *)xrealloc(ipp_unit_map, ipp_unit_map_len + 1);
		memcpy(ipp_unit_map + at, key, strlen(key));
		at += strlen(key);
		memcpy(ipp_unit_map + at, u.xlines_text, u.xlines_len);
		at += u.xlines_len;
		memcpy(ipp_unit_map + at, end, strlen(end) + 1);
	}
	free(u.xlines_text);

	for (size_t i = 0; i < u.nfns; i++) {
		XDELETEVEC(u.fns[i].head);
		XDELETEVEC(u.fns[i].tail);
	}
	free(u.fns);
	free(u.call_stmt);
	free(u.gedge);
	free(u.chain_in);
	free(u.dead_stmt);
	ipp_fin_free(fin);
	ipp_cuts_free(&cuts);
	ipp_graph_free(u.g);
	return 0;
}

namespace {
const pass_data ipp_pass_data = {
	SIMPLE_IPA_PASS, "ipp", OPTGROUP_NONE, TV_NONE,
	PROP_cfg | PROP_ssa, 0, 0, 0, 0
};

struct ipp_pass : simple_ipa_opt_pass {
	ipp_pass(gcc::context *ctxt) : simple_ipa_opt_pass(ipp_pass_data, ctxt) {}
	unsigned int execute(function *) final override { return execute_ipp(); }
};
}

opt_pass *ipp_make_pass(gcc::context *ctxt)
{
	return new ipp_pass(ctxt);
}
