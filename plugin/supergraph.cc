/* supergraph.cc -- step 1 of the pass: the unit's supergraph G* from GIMPLE.
 *
 * Which functions are instrumented, and for each one its procedure in G*:
 * each basic block becomes a head vertex followed by a call vertex and a
 * return-site vertex per call; abnormal edges are left out; a block with
 * no successors but EH ones (a call to exit/abort/longjmp, a trap, a resx)
 * gets an edge to GExit_P.  EH edges are left out too: an exception ends
 * the paths it interrupts (partial paths), and a landing pad is a restart
 * point where a new path starts (unwind.cc).  Also the map's x-lines key
 * (the source lines of each block segment, for the gcov oracle).
 *
 * Functions not instrumented (listed in the map with the reason): external
 * gnu_inline bodies, no_instrument_function, ifunc resolvers, the runtime's
 * own __ipp_* functions, nonlocal goto receivers and functions with
 * returns_twice calls other than setjmp.
 *
 * Abnormal control flow: a setjmp's return site and every computed-goto
 * target are restart points (a path may start there).
 *
 * Debug statements exist only with -g, and -g must not change the map or
 * the code (-fcompare-debug): every walk over a block's statements here
 * skips them.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include "gcc-common.h"
#include "ipp_plugin.h"

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
		u->rnext = (ipp_id *)xrealloc(u->rnext, u->cap_e * sizeof(ipp_id));
		for (size_t i = old; i < u->cap_e; i++) {
			u->gedge[i] = NULL;
			u->rnext[i] = IPP_NONE;
		}
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
bool ipp_is_setjmp_call(gimple *s)
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

bool ipp_is_longjmp_call(gimple *s)
{
	tree fn;
	if (!s || !is_gimple_call(s) || gimple_call_num_args(s) < 1)
		return false;
	fn = gimple_call_fndecl(s);
	if (!fn || fndecl_built_in_p(fn, BUILT_IN_LONGJMP))
		return false;
	return strstr(IDENTIFIER_POINTER(DECL_NAME(fn)), "longjmp") != NULL;
}

bool ipp_is_computed_goto(gimple *s)
{
	return s && gimple_code(s) == GIMPLE_GOTO &&
	       TREE_CODE(gimple_goto_dest(s)) != LABEL_DECL;
}

/* Why a function with abnormal control flow cannot be numbered, or NULL. */
const char *ipp_unsupported_flow(function *fun)
{
	basic_block bb;
	if (fun->has_nonlocal_label)
		return "nonlocal goto receiver";
	FOR_EACH_BB_FN(bb, fun) {
		for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
			gimple *s = gsi_stmt(gsi);
			if (is_gimple_call(s) && (gimple_call_flags(s) & ECF_RETURNS_TWICE) &&
			    !ipp_is_setjmp_call(s))
				return "returns_twice call other than setjmp(buf) (vfork, "
				       "__builtin_setjmp, getcontext, a setjmp without a buffer)";
			/* GCC types it noreturn, yet it returns from the
			 * function: the frame would stay on the list, and the
			 * code put before it breaks RTL expansion (an ICE in
			 * purge_dead_edges: gcc.dg builtin-return-1.c) */
			if (gimple_call_builtin_p(s, BUILT_IN_RETURN))
				return "__builtin_return (an untyped return)";
		}
	}
	return NULL;
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
	return ipp_unsupported_flow(DECL_STRUCT_FUNCTION(decl));
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
fninfo *ipp_fn_called(const struct unit *u, tree decl)
{
	if (!decl || fndecl_built_in_p(decl, BUILT_IN_NORMAL))
		return NULL;
	fninfo *fi = ipp_fn_of_decl(u, decl);
	if (!fi || fi->skip)
		return NULL;
	/* A definition the link may replace (weak, or interposable in a
	 * shared library with -fsemantic-interposition) is not the callee
	 * for sure: another unit's, or the executable's, may run instead.
	 * GCC does not inline it for that reason; the call is summarized,
	 * never sent to our clone (gcc.dg attr-weak-hidden-1.c).  Not the
	 * cgraph availability, which also calls noipa functions
	 * interposable: they are not replaced, only kept from IPA. */
	if (decl_replaceable_p(decl, opt_for_fn(decl, flag_semantic_interposition)))
		return NULL;
	return fi;
}

static ipp_id proc_of_decl(struct unit *u, tree decl)
{
	fninfo *fi = ipp_fn_called(u, decl);
	if (!fi || (!fi->cloneable && ipp_opts.mode == IPP_MODE_CONTEXT))
		return IPP_NONE;
	return fi->proc;
}

/* Does the call pass exactly the parameters DECL declares, each as the
 * parameter is passed (DECL_ARG_TYPE: a u16 or a K&R char parameter is
 * passed as an int)?  A continuing call appends the path state after them
 * (instrument.cc, redirect_to_clone) and the clone takes it after its
 * declared parameters, so the two must line up.  C lets an unprototyped
 * definition (`g(){}') be called with other arguments (torture
 * 921202-1.c, 921208-2.c): such a call is summarized. */
static bool call_matches_params(gcall *call, tree decl)
{
	unsigned i = 0, n = gimple_call_num_args(call);
	for (tree p = DECL_ARGUMENTS(decl); p; p = DECL_CHAIN(p), i++)
		if (i >= n || !useless_type_conversion_p(DECL_ARG_TYPE(p),
							 TREE_TYPE(gimple_call_arg(call, i))))
			return false;
	return i == n;
}

/* Whether DECL is a function of the unit that the pass instruments. */
bool ipp_unit_instruments(const struct unit *u, tree decl)
{
	const fninfo *fi = ipp_fn_of_decl(u, decl);
	return fi && !fi->skip;
}

bool ipp_is_unreachable_call(gimple *s)
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

/* The procedure of copy k of fi's body (-1: the function's own). */
static ipp_id inst_proc(const fninfo *fi, int k)
{
	return k < 0 ? fi->proc : fi->inl.v[k].proc;
}

/* The procedures of the inlined copies, and the call vertices of those
 * kept in the procedures they lie in, in preorder.  A copy's assembler
 * name extends its parent's: main/power:2 is the second copy of power
 * inlined into main itself (counting the flattened ones).  A flattened
 * copy is listed as a skipped procedure (IPP_PROC_INLINED |
 * IPP_PROC_SKIPPED) with the reason, and has no call site. */
static void add_inlined_procs(struct unit *u, fninfo *fi)
{
	struct inlines *in = &fi->inl;
	ipp_graph *g = u->g;
	for (int k = 0; k < in->n; k++) {
		struct ipp_inl *x = &in->v[k];
		ipp_id parent, c;
		const char *oasm = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(x->origin));
		const char *name = lang_hooks.decl_printable_name(x->origin, 0);
		int nth = 1;
		char *asm_name;
		expanded_location at = expand_location(x->site);
		x->cont_edge = IPP_NONE;
		if (x->flat == ipp_inline_empty)
			continue;
		for (int j = 0; j < k; j++)
			if (in->v[j].parent == x->parent && in->v[j].origin == x->origin &&
			    in->v[j].flat != ipp_inline_empty)
				nth++;
		parent = inst_proc(fi, x->parent);
		asm_name = xasprintf("%s/%s:%d", ipp_proc_asm(g, parent), oasm, nth);
		grow(u);
		if (x->flat) {
			x->proc = ipp_add_proc(g, name, asm_name, IPP_PROC_INLINED | IPP_PROC_SKIPPED);
			x->reason = xasprintf("inlined into %s at line %d; its blocks are %s's "
					      "own: %s", ipp_proc_name(g, parent), at.line,
					      ipp_proc_name(g, parent), x->flat);
			if (ipp_opts.verbose)
				inform(x->site, "ipp: %qs inlined here: left to the blocks of %qs (%s)",
				       name, ipp_proc_name(g, parent), x->flat);
			free(asm_name);
			grow(u);
			continue;
		}
		x->proc = ipp_add_proc(g, name, asm_name, IPP_PROC_INLINED);
		if (ipp_opts.verbose)
			inform(x->site, "ipp: %qs inlined here: virtual procedure %qs", name, asm_name);
		free(asm_name);
		grow(u);
		set_loc(g, ipp_proc_entry(g, x->proc), DECL_SOURCE_LOCATION(x->origin));
		c = x->call = ipp_add_call(g, parent, x->proc, IPP_CALL_INLINED);
		grow(u);
		set_loc(g, c, x->site);
		set_loc(g, c + 1, x->site);
	}
}

/* The G* edges of a CFG edge ge from vertex src, in copy a, to vertex dst
 * (a block's head, or Exit_P), in copy k: out of the copies a lies in and
 * k does not, through their Exit and return sites, then into those k lies
 * in, through their call vertices and Entry.  The first edge stands for
 * ge; the others follow it (u->rnext).  A copy's exits all go to one
 * place (inline.cc), so the part after its return site is added once and
 * shared.  Returns the first edge. */
static ipp_id add_route(struct unit *u, fninfo *fi, ipp_id src, int a, ipp_id dst, int k, edge ge)
{
	struct inlines *in = &fi->inl;
	ipp_graph *g = u->g;
	int l = ipp_inline_lca(in, a, k), cont = -1;
	ipp_id first = IPP_NONE, prev = IPP_NONE, cur = src, e;
	auto_vec<int> down;

	/* links e after the previous edge of the route; the first edge after
	 * a return site is the copy's shared continuation */
#define LINK(E) do {							\
		if (prev == IPP_NONE)					\
			first = (E);					\
		else							\
			u->rnext[prev] = (E);				\
		prev = (E);						\
		if (cont >= 0)						\
			in->v[cont].cont_edge = (E);			\
		cont = -1;						\
	} while (0)

	for (; a != l; a = in->v[a].parent) {
		e = add_edge(u, cur, ipp_proc_exit(g, in->v[a].proc), NULL);
		LINK(e);
		if (in->v[a].cont_edge != IPP_NONE) {
			u->rnext[e] = in->v[a].cont_edge;
			goto done;
		}
		cur = in->v[a].call + 1;
		cont = a;
	}
	for (int j = k; j != l; j = in->v[j].parent)
		down.safe_push(j);
	for (int i = (int)down.length() - 1; i >= 0; i--) {
		int j = down[i];
		e = add_edge(u, cur, in->v[j].call, NULL);
		LINK(e);
		cur = ipp_proc_entry(g, in->v[j].proc);
	}
	e = add_edge(u, cur, dst, NULL);
	LINK(e);
#undef LINK
done:
	u->gedge[first] = ge;
	return first;
}

static void build_body(struct unit *u, fninfo *fi)
{
	struct seglines sl;
	ipp_graph *g = u->g;
	function *fun = fi->fun;
	basic_block bb;
	ipp_id p = fi->proc;

	struct body *b = &fi->orig;

	memset(&sl, 0, sizeof(sl));
	b->fun = fun;
	b->decl = fun->decl;
	b->vbase = (ipp_id)ipp_graph_nvertices(g);
	b->ebase = (ipp_id)ipp_graph_nedges(g);
	b->nbb = last_basic_block_for_fn(fun);
	b->head = XNEWVEC(ipp_id, b->nbb);
	b->tail = XNEWVEC(ipp_id, b->nbb);
	for (int i = 0; i < b->nbb; i++)
		b->head[i] = b->tail[i] = IPP_NONE;
	add_inlined_procs(u, fi);

	/* vertices, block by block in index order */
	for (int i = NUM_FIXED_BLOCKS; i < b->nbb; i++) {
		ipp_id cur;
		bb = BASIC_BLOCK_FOR_FN(fun, i);
		if (!bb)
			continue;
		p = inst_proc(fi, fi->inl.bbinst[i]);
		grow(u);
		cur = b->head[i] = ipp_add_block(g, p);
		ipp_set_tag(g, cur, i);
		/* Debug statements exist only with -g, and -g must not change the
		 * map or the code (-fcompare-debug): every walk over a block's
		 * statements here skips them. */
		for (gimple_stmt_iterator gsi = gsi_start_nondebug_bb(bb); !gsi_end_p(gsi);
		     gsi_next_nondebug(&gsi)) {
			gimple *s = gsi_stmt(gsi);
			if (gimple_has_location(s)) {
				set_loc(g, b->head[i], gimple_location(s));
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
			/* summarized, but the callee is known: it is entered
			 * fresh here (its Entry region, its original body) */
			if (callee != IPP_NONE && ipp_opts.mode == IPP_MODE_CONTEXT &&
			    !call_matches_params(call, gimple_call_fndecl(call)))
				flags |= IPP_CALL_FORCE_SUMMARY;
			if (!gimple_call_fndecl(call))
				flags |= IPP_CALL_INDIRECT;
			if (gimple_call_flags(call) & ECF_NORETURN)
				flags |= IPP_CALL_NORETURN;
			if (gimple_call_fndecl(call) && (gimple_call_flags(call) & ECF_LEAF))
				flags |= IPP_CALL_LEAF;
			if (u->tail_calls->contains(call))
				flags |= IPP_CALL_TAIL | IPP_CALL_FORCE_SUMMARY;
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
			if (ipp_is_setjmp_call(call)) {
				ipp_set_restart(g, c + 1);
				u->setjmp_call[c + 1] = call;
			}
		}
		b->tail[i] = cur;
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
			seg_start(u, &sl, b->tail[bb->index]);
			seg_loc(u, &sl, loc);
			seg_flush(u, &sl);
		}
	}
	XDELETEVEC(sl.lines);

	/* edges: Entry_P -> first block, then each block's successors in order */
	{
		basic_block first = single_succ(ENTRY_BLOCK_PTR_FOR_FN(fun));
		add_route(u, fi, ipp_proc_entry(g, fi->proc), -1, b->head[first->index],
			  fi->inl.bbinst[first->index], single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)));
	}
	for (int i = NUM_FIXED_BLOCKS; i < b->nbb; i++) {
		edge e;
		edge_iterator ei;
		size_t n = 0;
		bb = BASIC_BLOCK_FOR_FN(fun, i);
		if (!bb)
			continue;
		FOR_EACH_EDGE(e, ei, bb->succs) {
			bool out = e->dest == EXIT_BLOCK_PTR_FOR_FN(fun);
			if (!ipp_normal_edge_p(e))
				continue;
			add_route(u, fi, b->tail[i], fi->inl.bbinst[i],
				  out ? ipp_proc_exit(g, fi->proc) : b->head[e->dest->index],
				  out ? -1 : fi->inl.bbinst[e->dest->index], e);
			n++;
		}
		FOR_EACH_EDGE(e, ei, bb->succs) {
			if ((e->flags & EDGE_ABNORMAL) && ipp_is_computed_goto(ipp_last_stmt(bb)))
				ipp_set_restart(g, b->head[e->dest->index]);
			/* an exception arrives at a landing pad: the paths it
			 * interrupted are partial, a new one starts (unwind.cc) */
			if (e->flags & EDGE_EH)
				ipp_set_restart(g, b->head[e->dest->index]);
		}
		if (n == 0) {
			/* a dead end: the path ends here (design notes) */
			gimple *last = ipp_last_stmt(bb);
			/* not a GIMPLE_NOP: a clone's copy has none (clone.cc) */
			if (last && gimple_code(last) == GIMPLE_NOP) {
				gimple_stmt_iterator gsi = gsi_for_stmt(last);
				do
					gsi_prev_nondebug(&gsi);
				while (!gsi_end_p(gsi) && gimple_code(gsi_stmt(gsi)) == GIMPLE_NOP);
				last = gsi_end_p(gsi) ? NULL : gsi_stmt(gsi);
			}
			add_edge(u, b->tail[i], ipp_proc_gexit(g, inst_proc(fi, fi->inl.bbinst[i])),
				 NULL);
			u->dead_stmt[b->tail[i]] = last;
		}
	}
	/* a copy that is never left (it calls exit, it loops forever): its
	 * return site is a dead end of the procedure it lies in */
	for (int k = 0; k < fi->inl.n; k++) {
		struct ipp_inl *x = &fi->inl.v[k];
		if (!x->flat && x->cont_edge == IPP_NONE)
			x->cont_edge = add_edge(u, x->call + 1,
						ipp_proc_gexit(g, inst_proc(fi, x->parent)), NULL);
	}

	/* the body's anchors: its slice of the unit's arrays (its vertices and
	 * edges are consecutive: nothing else adds any meanwhile) */
	b->nv = ipp_graph_nvertices(g) - b->vbase;
	b->ne = ipp_graph_nedges(g) - b->ebase;
	b->call_stmt = XNEWVEC(gcall *, b->nv);
	b->dead_stmt = XNEWVEC(gimple *, b->nv);
	b->setjmp_call = XNEWVEC(gcall *, b->nv);
	b->gedge = XNEWVEC(edge, b->ne);
	memcpy(b->call_stmt, u->call_stmt + b->vbase, b->nv * sizeof(gcall *));
	memcpy(b->dead_stmt, u->dead_stmt + b->vbase, b->nv * sizeof(gimple *));
	memcpy(b->setjmp_call, u->setjmp_call + b->vbase, b->nv * sizeof(gcall *));
	memcpy(b->gedge, u->gedge + b->ebase, b->ne * sizeof(edge));
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
	/* every call to it is summarized (proc_of_decl) */
	const fninfo *self = ipp_fn_of_decl(u, decl);
	if (self && !self->cloneable && ipp_opts.mode == IPP_MODE_CONTEXT)
		return true;
	for (cgraph_edge *e = node->callers; e; e = e->next_caller) {
		const fninfo *caller = ipp_fn_of_decl(u, e->caller->decl);
		if (!caller || caller->node != e->caller || caller->skip)
			return true;
	}
	return false;
}


bool ipp_build_supergraph(struct unit *u)
{
	cgraph_node *node;

	FOR_EACH_FUNCTION_WITH_GIMPLE_BODY(node) {
		if (DECL_EXTERNAL(node->decl) || node->inlined_to || node->clone_of)
			continue;
		u->fns = XRESIZEVEC(fninfo, u->fns, u->nfns + 1);
		memset(&u->fns[u->nfns], 0, sizeof(fninfo));
		u->fns[u->nfns].node = node;
		u->fns[u->nfns].fun = DECL_STRUCT_FUNCTION(node->decl);
		u->nfns++;
	}
	if (u->nfns == 0)
		return false;
	qsort(u->fns, u->nfns, sizeof(fninfo), cmp_order);
	u->fn_of_decl = new hash_map<tree, unsigned>;
	for (size_t i = 0; i < u->nfns; i++)
		u->fn_of_decl->put(u->fns[i].node->decl, (unsigned)i);

	/* procedures first (calls need their callees' ids), in source order */
	for (size_t i = 0; i < u->nfns; i++) {
		u->fns[i].skip = skip_reason(u->fns[i].node);
		u->fns[i].cloneable = !u->fns[i].skip && ipp_cloneable(u->fns[i].node);
	}
	/* a function with nested functions is not cloned (clone.cc) */
	for (size_t i = 0; i < u->nfns; i++) {
		tree outer = decl_function_context(u->fns[i].node->decl);
		fninfo *o = outer ? ipp_fn_of_decl(u, outer) : NULL;
		if (o)
			o->cloneable = false;
	}
	/* Tail calls (tailcall.cc) get their own returns before G* is built.
	 * A function that makes them is not cloned either: it starts fresh
	 * paths, recorded at its tail calls.  A continuing activation would
	 * hand its number back to a caller that, should the tail callee never
	 * return, never takes it: the caller's path would stop at its call,
	 * without our part, or (were the caller's checkpoint moved on to its
	 * return site) claim a return the caller never saw. */
	u->tail_calls = new hash_set<gimple *>;
	for (size_t i = 0; i < u->nfns; i++) {
		size_t before = u->tail_calls->elements();
		if (u->fns[i].skip)
			continue;
		ipp_isolate_tail_calls(u->fns[i].fun, u->tail_calls);
		if (u->tail_calls->elements() > before)
			u->fns[i].cloneable = false;
	}
	for (size_t i = 0; i < u->nfns; i++) {
		fninfo *fi = &u->fns[i];
		tree decl = fi->node->decl;
		unsigned flags = entered_from_outside(u, fi->node) ? IPP_PROC_ENTRY : 0;
		if (fi->skip)
			flags |= IPP_PROC_SKIPPED;
		grow(u);
		fi->proc = ipp_add_proc(u->g, lang_hooks.decl_printable_name(decl, 0),
					IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(decl)), flags);
		grow(u);
		set_loc(u->g, ipp_proc_entry(u->g, fi->proc), DECL_SOURCE_LOCATION(decl));
	}
	u->nfn_of_proc = ipp_graph_nprocs(u->g);
	u->fn_of_proc = XNEWVEC(unsigned, u->nfn_of_proc);
	for (size_t p = 0; p < u->nfn_of_proc; p++)
		u->fn_of_proc[p] = UINT_MAX;
	for (size_t i = 0; i < u->nfns; i++)
		u->fn_of_proc[u->fns[i].proc] = (unsigned)i;
	for (size_t i = 0; i < u->nfns; i++) {
		fninfo *fi = &u->fns[i];
		if (fi->skip)
			continue;
		push_cfun(fi->fun);
		if (fi->cloneable && ipp_opts.mode == IPP_MODE_CONTEXT)
			ipp_fold_before_cloning(fi->fun);
		ipp_inline_analyze(fi, u->tail_calls);
		free_dominance_info(CDI_DOMINATORS);
		build_body(u, fi);
		pop_cfun();
	}
	return true;
}

void ipp_body_free(struct body *b)
{
	XDELETEVEC(b->head);
	XDELETEVEC(b->tail);
	XDELETEVEC(b->call_stmt);
	XDELETEVEC(b->dead_stmt);
	XDELETEVEC(b->setjmp_call);
	XDELETEVEC(b->gedge);
}

void ipp_unit_free(struct unit *u)
{
	for (size_t i = 0; i < u->nfns; i++) {
		ipp_inline_free(&u->fns[i].inl);
		ipp_body_free(&u->fns[i].orig);
		if (u->fns[i].clone) {
			ipp_body_free(u->fns[i].clone);
			XDELETE(u->fns[i].clone);
		}
		ipp_local_free(u->fns[i].local);
	}
	free(u->fns);
	free(u->call_stmt);
	free(u->gedge);
	free(u->rnext);
	free(u->chain_in);
	free(u->dead_stmt);
	free(u->setjmp_call);
	free(u->xlines_text);
	delete u->tail_calls;
	delete u->fn_of_decl;
	XDELETEVEC(u->fn_of_proc);
	XDELETEVEC(u->fin_of);
	XDELETEVEC(u->exit_of);
	XDELETEVEC(u->restart_of);
	XDELETEVEC(u->stands);
	XDELETEVEC(u->restart_bare);
	XDELETEVEC(u->slot_at);
	XDELETEVEC(u->bare_call);
	XDELETEVEC(u->pnum_known);
	XDELETEVEC(u->pnum);
	XDELETEVEC(u->chorded);
}

fninfo *ipp_fn_of_proc(struct unit *u, ipp_id proc)
{
	if (proc == IPP_NONE || (size_t)proc >= u->nfn_of_proc ||
	    u->fn_of_proc[proc] == UINT_MAX)
		return NULL;
	return &u->fns[u->fn_of_proc[proc]];
}

fninfo *ipp_fn_of_decl(const struct unit *u, tree decl)
{
	unsigned *i = u->fn_of_decl ? u->fn_of_decl->get(decl) : NULL;
	return i ? &u->fns[*i] : NULL;
}
