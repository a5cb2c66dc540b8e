/* pass.cc -- the instrumentation pass: drives the plugin's steps over one
 * compilation unit.
 *
 * A SIMPLE_IPA_PASS.  By default right after "profile", where gcov's pass
 * is: the early inliner has run, the program keeps the plain build's early
 * inlining decisions, and each inlined copy becomes a virtual procedure
 * (inline.cc).  With -fplugin-arg-ipp-einline=no right after
 * build_ssa_passes: every function body of the unit is in GIMPLE/SSA with
 * a CFG and nothing has been inlined yet.  Paths are in terms of source
 * functions either way.
 *
 *  1. Build the unit's supergraph G* (supergraph.cc).
 *  2. Let the core choose cuts (ipp_autocut) and number G*fin.
 *  3. Clone every procedure an interprocedural call site enters
 *     (clone.cc), then instrument each body from G*fin (instrument.cc).
 *  4. Serialize the map (ippcore/ipp_format.h); ipp_plugin.cc emits it into
 *     .ipp_map at the end of the unit.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include "gcc-common.h"
#include "ipp_plugin.h"
#include "ipp_format.h"

char *ipp_unit_map;
size_t ipp_unit_map_len;

/* The decl's flags are not the only place a call learns that its callee is
 * const: C gives the address of a const function a pointer to a
 * const-qualified function type, and gimple_call_flags() reads the call's
 * fntype too.  A call to an instrumented function whose value is unused
 * would then still be dropped (at RTL expansion even at -O0), while the
 * caller's path goes through its call vertex: the map would count calls
 * the callee never saw (ipp check: entries < calls).  So every call to an
 * instrumented procedure of the unit gets the unqualified type, and the
 * virtual operands it now needs: a definition of memory, which a call to
 * a const function had not and a call to a pure one had not either (only
 * a use). */
static void drop_const_call_types(struct unit *u)
{
	for (size_t i = 0; i < u->nfns; i++) {
		function *fun = u->fns[i].fun;
		bool changed = false;
		basic_block bb;
		if (!fun || !gimple_has_body_p(u->fns[i].node->decl))
			continue;
		push_cfun(fun);
		FOR_EACH_BB_FN(bb, fun) {
			for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);
			     gsi_next(&gsi)) {
				gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi));
				tree fn, fntype;
				if (!call || gimple_call_internal_p(call))
					continue;
				fn = gimple_call_fndecl(call);
				fntype = gimple_call_fntype(call);
				if (!fn || !ipp_unit_instruments(u, fn))
					continue;
				if (fntype && TYPE_READONLY(fntype))
					gimple_call_set_fntype(call, build_qualified_type(
						fntype, TYPE_QUALS(fntype) & ~TYPE_QUAL_CONST));
				else if (gimple_vdef(call))
					continue;
				/* const (no vops) or pure (a VUSE only) before */
				update_stmt(call);
				changed = true;
			}
		}
		/* the calls now define memory: rename the virtual operands
		 * (-fchecking: "virtual definition of statement not up to
		 * date" otherwise) */
		if (changed) {
			mark_virtual_operands_for_renaming(fun);
			update_ssa(TODO_update_ssa_only_virtuals);
		}
		pop_cfun();
	}
}

/* Can a pointer reach node's body through an alias of it: a public alias
 * (another unit takes its address), or one whose address is taken here?
 * Then, as for the node itself, its body exists anyway. */
static bool alias_reachable(symtab_node *node)
{
	ipa_ref *ref;
	for (unsigned i = 0; node->iterate_direct_aliases(i, ref); i++) {
		symtab_node *a = ref->referring;
		if (TREE_PUBLIC(a->decl) || a->address_taken || alias_reachable(a))
			return true;
	}
	return false;
}

static unsigned int execute_ipp_1(void)
{
	struct unit u;
	ipp_fin *fin;
	ipp_cuts cuts;
	char err[512], cks[17];
	const char *module = main_input_filename;
	int *base_size = NULL;
	uint64_t checksum;

	/* The runtime is built for the LP64 ABI only (runtime/ipp_abi.h's
	 * structs; ipp_abi_init would report each as a mismatch). */
	if (POINTER_SIZE != 64 || TYPE_PRECISION(long_integer_type_node) != 64) {
		error("ipp: only 64-bit (LP64) code can be profiled: the ipp runtime "
		      "is built for x86-64; drop %<-m32%> or %<-mx32%>");
		return 0;
	}
	memset(&u, 0, sizeof(u));
	u.g = ipp_graph_new();
	if (!ipp_build_supergraph(&u)) {
		ipp_unit_free(&u);
		ipp_graph_free(u.g);
		return 0;
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
	drop_const_call_types(&u);
	if (!ipp_abi_init())
		goto out;
	ipp_abi_module_data(fin, module, cks);
	ipp_abi_register_ctor();
	u.checksum = cks;
	ipp_fin_maps(&u, fin);
	ipp_decide_frames(&u, fin);
	ipp_prepare_rows(&u, fin);
	ipp_place_chords(&u, fin);
	/* with -fplugin-arg-ipp-inline-as-plain: the size of each body before
	 * the pass adds to it (sizes.cc); a clone starts as a copy of its
	 * original */
	if (ipp_opts.inline_as_plain) {
		base_size = XNEWVEC(int, u.nfns);
		for (size_t i = 0; i < u.nfns; i++)
			base_size[i] = u.fns[i].skip ? 0 : ipp_sizes_body(u.fns[i].fun);
	}
	if (!ipp_make_clones(&u, fin))
		goto out;
	for (size_t i = 0; i < u.nfns; i++) {
		fninfo *fi = &u.fns[i];
		if (fi->skip) {
			if (ipp_unsupported_flow(fi->fun))
				ipp_guard_receiver(fi);
			continue;
		}
		/* The original starts fresh paths in the procedure's Entry
		 * region.  Without one, every caller is a continuing call site
		 * that now calls the clone: the original is unreachable, and
		 * GCC removes it. */
		if (ipp_fin_region_find(fin, ipp_proc_asm(u.g, fi->proc)) != IPP_NONE)
			ipp_instrument(&u, fi, &fi->orig, fin);
		if (fi->clone)
			ipp_instrument(&u, fi, fi->clone, fin);
	}
	ipp_flag_bare_calls(&u);
	{
		/* The functions a call through a pointer can reach, for the
		 * writer to name the callees of the arcs the call sites count
		 * (context mode, docs/PROTOCOL.md rule 7).  Taking the
		 * address is harmless only where the body exists anyway
		 * (design notes): externally visible, address-taken, or
		 * the target of an alias that is. */
		struct ipp_entry *ents = XNEWVEC(struct ipp_entry, u.nfns ? u.nfns : 1);
		size_t nents = 0;
		for (size_t i = 0; ipp_fin_mode(fin) == IPP_MODE_CONTEXT && i < u.nfns; i++) {
			fninfo *fi = &u.fns[i];
			tree decl = fi->node->decl;
			ipp_id reg = ipp_fin_region_find(fin, ipp_proc_asm(u.g, fi->proc));
			if (!fi->skip && reg != IPP_NONE &&
			    (TREE_PUBLIC(decl) || fi->node->address_taken ||
			     alias_reachable(fi->node))) {
				ents[nents].decl = decl;
				ents[nents].region = reg;
				nents++;
			}
		}
		ipp_abi_module_entries(ents, nents, cks);
		XDELETEVEC(ents);
	}
	{
		struct ipp_copy_run *runs;
		size_t nruns;
		ipp_copy_runs(&u, fin, &runs, &nruns);
		ipp_abi_module_copies(runs, nruns, cks);
		XDELETEVEC(runs);
	}
	{
		struct ipp_offset_run *runs;
		struct ipp_restart_point *pts;
		size_t nruns, npts;
		ipp_offset_runs(&u, fin, &runs, &nruns);
		ipp_abi_module_offsets(runs, nruns, cks);
		XDELETEVEC(runs);
		ipp_restart_points(&u, fin, &pts, &npts);
		ipp_abi_module_restarts(pts, npts, cks);
		XDELETEVEC(pts);
		struct ipp_slot_point *spts;
		ipp_slot_points(&u, fin, &spts, &npts);
		ipp_abi_module_slots(spts, npts, cks);
		XDELETEVEC(spts);
	}
	{
		struct ipp_callee_site *sites;
		size_t nsites;
		ipp_frameless_callees(&u, fin, &sites, &nsites);
		ipp_abi_module_callees(sites, nsites, cks);
		XDELETEVEC(sites);
	}
	for (size_t i = 0; i < u.nfns; i++) {
		/* the new calls need call-graph edges before IPA */
		fninfo *fi = &u.fns[i];
		if (fi->skip)
			continue;
		push_cfun(fi->fun);
		cgraph_edge::rebuild_edges();
		pop_cfun();
		if (base_size)
			ipp_sizes_note(fi->node->decl, base_size[i], fi->fun);
		if (fi->clone) {
			push_cfun(fi->clone->fun);
			cgraph_edge::rebuild_edges();
			pop_cfun();
			if (base_size)
				ipp_sizes_note(fi->clone->decl, base_size[i], fi->clone->fun);
		}
	}

	/* step 4: the map */
	{
		/* per procedure: inlined copies are procedures too */
		const char **reasons = XCNEWVEC(const char *, ipp_graph_nprocs(u.g) + 1);
		ipp_map_meta meta;
		FILE *mem;
		for (size_t i = 0; i < u.nfns; i++) {
			const struct inlines *in = &u.fns[i].inl;
			reasons[u.fns[i].proc] = u.fns[i].skip;
			for (int k = 0; k < in->n; k++)
				if (in->v[k].flat && in->v[k].proc != IPP_NONE)
					reasons[in->v[k].proc] = in->v[k].reason;
		}
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
	if (ipp_unit_map && flag_generate_lto)
		ipp_map_as_variable();
out:
	XDELETEVEC(base_size);
	ipp_fin_free(fin);
	ipp_cuts_free(&cuts);
	ipp_unit_free(&u);
	ipp_graph_free(u.g);
	return 0;
}

/* -Wlarger-than=N is checked in layout_decl (stor-layout.cc), which
 * build_decl calls, and it looks at no suppression flag: the pass's own
 * variables (frames, the region table, the rows, the map) would be
 * reported as if the user had written them.  Everything the pass builds
 * is laid out while the limit is off, and its strings are variables of
 * its own (abi.cc, str_var), not constants that GCC lays out later. */
static unsigned int execute_ipp(void)
{
	unsigned HOST_WIDE_INT limit = warn_larger_than_size;
	unsigned int todo;

	warn_larger_than_size = HOST_WIDE_INT_MAX;
	todo = execute_ipp_1();
	warn_larger_than_size = limit;
	return todo;
}

namespace {
const pass_data ipp_pass_data = {
	SIMPLE_IPA_PASS, "ipp", OPTGROUP_NONE, TV_PLUGIN_RUN,
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
