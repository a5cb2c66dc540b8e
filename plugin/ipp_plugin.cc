/* ipp_plugin.cc -- plugin entry point: version check, options, registering
 * the instrumentation pass, and writing the unit's map into the object.
 *
 * Usage: gcc -fplugin=/path/to/ipp.so [-fplugin-arg-ipp-mode=intra]
 *            [-fplugin-arg-ipp-verbose] [-fplugin-arg-ipp-limit=N] ...
 * and link with -lipprt (ipp-gcc does both).
 *
 * The map goes into a non-allocated section .ipp_map (no .debug prefix, so
 * strip keeps it); the linker concatenates the documents of all units.
 * The other files of the plugin are listed in ipp_plugin.h.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include "gcc-common.h"
#include "ipp_plugin.h"

int plugin_is_GPL_compatible;

struct ipp_options ipp_opts;

static struct plugin_info ipp_info = {
	IPP_VERSION,
	"ipp: interprocedural path profiling (Melski & Reps).\n"
	"  -fplugin-arg-ipp-mode=intra|context  numbering (default: context)\n"
	"  -fplugin-arg-ipp-verbose             report paths and cuts per function\n"
	"  -fplugin-arg-ipp-limit=N             paths per region (default 2^64-1)\n"
	"  -fplugin-arg-ipp-last                flight recorder: each thread keeps its last\n"
	"                                       paths (IPP_LAST), written at exit and crash\n"
	"  -fplugin-arg-ipp-einline[=yes|no]    instrument after early inlining, inlined\n"
	"                                       copies as virtual procedures (default: yes)\n"
	"  -fplugin-arg-ipp-chords[=yes|no]     increment the path register on the chords of a\n"
	"                                       spanning tree where paths start (default: yes)\n"
	"  -fplugin-arg-ipp-slots[=yes|no]      intra mode: inlined copies keep their checkpoints\n"
	"                                       in slots of the function's frame (default: yes)\n"
	"  -fplugin-arg-ipp-bare-calls[=yes|no] intra mode: a checkpoint at a call whose path\n"
	"                                       number is a constant stores the vertex alone\n"
	"                                       (default: yes)\n"
	"  -fplugin-arg-ipp-inline-as-plain     let GCC's IPA inliner see the program's sizes,\n"
	"                                       not the instrumented ones (faster program,\n"
	"                                       slower compile: README)\n"
};

/* -fplugin-arg-ipp-K, an option without a value: sets *field, or reports
 * a value given to it (with hint appended) and returns false. */
static bool flag_arg(const char *k, const char *v, bool *field, const char *hint)
{
	if (v) {
		error("ipp: %<-fplugin-arg-ipp-%s%> takes no value%s", k, hint);
		return false;
	}
	*field = true;
	return true;
}

/* -fplugin-arg-ipp-K[=yes|no]: sets *field (no value: yes), or reports
 * another value and returns false. */
static bool yesno_arg(const char *k, const char *v, bool *field)
{
	if (!v || strcmp(v, "yes") == 0) {
		*field = true;
		return true;
	}
	if (strcmp(v, "no") == 0) {
		*field = false;
		return true;
	}
	error("ipp: %<-fplugin-arg-ipp-%s=%> takes %<yes%> or %<no%>, not %qs", k, v);
	return false;
}

/* Emits the map as the contents of section .ipp_map: non-allocated
 * (SECTION_DEBUG, though its name has no .debug prefix, so strip keeps
 * it), written with GCC's own assemble_string. */
static void emit_map(void *, void *)
{
	section *sec;
	if (!ipp_unit_map || !asm_out_file)
		return;
	sec = get_section(IPP_MAP_SECTION, SECTION_DEBUG, NULL);
	switch_to_section(sec);
	assemble_string(ipp_unit_map, ipp_unit_map_len);
	free(ipp_unit_map);
	ipp_unit_map = NULL;
}

/* The map as a variable (-flto): char[len], alignment 1 so that the
 * linker concatenates the units' documents with nothing between them,
 * kept although nothing refers to it.  Its section is allocated (a
 * variable's is), which the readers accept as they accept the
 * non-allocated one. */
void ipp_map_as_variable(void)
{
	tree type, str, var;
	char name[32];
	static unsigned count;

	type = build_array_type_nelts(char_type_node, ipp_unit_map_len);
	str = build_string(ipp_unit_map_len, ipp_unit_map);
	TREE_TYPE(str) = type;
	snprintf(name, sizeof(name), "__ipp_map_%u", count++);
	var = build_decl(UNKNOWN_LOCATION, VAR_DECL, get_identifier(name), type);
	TREE_STATIC(var) = 1;
	TREE_READONLY(var) = 1;
	TREE_USED(var) = 1;
	DECL_ARTIFICIAL(var) = 1;
	DECL_IGNORED_P(var) = 1;
	DECL_PRESERVE_P(var) = 1;
	SET_DECL_ALIGN(var, BITS_PER_UNIT);
	DECL_USER_ALIGN(var) = 1;
	DECL_INITIAL(var) = str;
	set_decl_section_name(var, IPP_MAP_SECTION);
	varpool_node::finalize_decl(var);
	free(ipp_unit_map);
	ipp_unit_map = NULL;
}

static void finish(void *, void *)
{
	mpz_clear(ipp_opts.limit);
}

int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *version)
{
	struct register_pass_info pass;

	if (!plugin_default_version_check(version, &gcc_version)) {
		error("ipp: this plugin was built for GCC %s and cannot run in GCC %s",
		      gcc_version.basever, version->basever);
		return 1;
	}
	ipp_opts.mode = IPP_MODE_CONTEXT;
	ipp_opts.verbose = false;
	ipp_opts.last = false;
	int einline = -1;	/* not given: on */
	ipp_opts.inline_as_plain = false;
	ipp_opts.chords = true;
	ipp_opts.slots = true;
	ipp_opts.bare_calls = true;
	mpz_init_set_str(ipp_opts.limit, "18446744073709551615", 10);
	for (int i = 0; i < info->argc; i++) {
		const char *k = info->argv[i].key, *v = info->argv[i].value;
		if (strcmp(k, "mode") == 0) {
			if (!v || ipp_mode_parse(v, &ipp_opts.mode) < 0) {
				error("ipp: unknown mode %qs in %<-fplugin-arg-ipp-mode=%> "
				      "(expected %<intra%> or %<context%>)", v ? v : "");
				return 1;
			}
			if (ipp_opts.mode != IPP_MODE_INTRA && ipp_opts.mode != IPP_MODE_CONTEXT) {
				error("ipp: mode %qs is numbered by the core and decoder but the "
				      "plugin does not instrument it (use %<intra%> or %<context%>)", v);
				return 1;
			}
		} else if (strcmp(k, "verbose") == 0) {
			if (!flag_arg(k, v, &ipp_opts.verbose, ""))
				return 1;
		} else if (strcmp(k, "last") == 0) {
			if (!flag_arg(k, v, &ipp_opts.last,
				      " (the number of paths kept is set when the program runs: "
				      "IPP_LAST)"))
				return 1;
		} else if (strcmp(k, "einline") == 0) {
			bool on;
			if (!yesno_arg(k, v, &on))
				return 1;
			einline = on;
		} else if (strcmp(k, "chords") == 0) {
			if (!yesno_arg(k, v, &ipp_opts.chords))
				return 1;
		} else if (strcmp(k, "slots") == 0) {
			if (!yesno_arg(k, v, &ipp_opts.slots))
				return 1;
		} else if (strcmp(k, "bare-calls") == 0) {
			if (!yesno_arg(k, v, &ipp_opts.bare_calls))
				return 1;
		} else if (strcmp(k, "inline-as-plain") == 0) {
			if (!flag_arg(k, v, &ipp_opts.inline_as_plain, ""))
				return 1;
		} else if (strcmp(k, "limit") == 0) {
			if (!v || mpz_set_str(ipp_opts.limit, v, 10) < 0 ||
			    mpz_cmp_ui(ipp_opts.limit, 2) < 0 ||
			    mpz_sizeinbase(ipp_opts.limit, 2) > 64) {
				error("ipp: %<-fplugin-arg-ipp-limit=%> takes a number from 2 to "
				      "2^64-1, not %qs", v ? v : "");
				return 1;
			}
		} else {
			error("ipp: unknown option %<-fplugin-arg-ipp-%s%> (known: %<mode%>, "
			      "%<verbose%>, %<limit%>, %<last%>, %<einline%>, %<chords%>, %<slots%>, "
			      "%<bare-calls%>, %<inline-as-plain%>)", k);
			return 1;
		}
	}
	/* Both modes instrument after the early inliner by default: the
	 * program keeps the plain build's early inlining decisions.  An
	 * inlined copy counts as the call it was in context mode; in intra
	 * mode it counts in a region of its own, which `ipp report` counts
	 * as its function's when the two number alike (docs/NUMBERING.md,
	 * section 8; ippcore/twins.c). */
	ipp_opts.einline = einline != 0;

	register_callback(info->base_name, PLUGIN_INFO, NULL, &ipp_info);
	/* The runtime ABI's trees (abi.cc) survive garbage collections. */
	register_callback(info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
			  (void *)ipp_abi_gc_roots);
	/* Where the pass goes: with einline (the default) where gcov's pass
	 * is, after "profile" (the small IPA pass that follows the early
	 * inliner and the early optimizations), so that the program keeps the
	 * plain build's early inlining decisions and each inlined copy
	 * becomes a virtual procedure (inline.cc); with einline=no right after
	 * build_ssa_passes, where every body of the unit is in SSA with a CFG
	 * and nothing is inlined yet (docs/PROTOCOL.md, the design notes). */
	pass.pass = ipp_make_pass(g);
	pass.reference_pass_name = ipp_opts.einline ? "profile" : "build_ssa_passes";
	pass.ref_pass_instance_number = 1;
	pass.pos_op = PASS_POS_INSERT_AFTER;
	register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass);
	if (ipp_opts.inline_as_plain)
		ipp_sizes_register(info->base_name);
	register_callback(info->base_name, PLUGIN_FINISH_UNIT, emit_map, NULL);
	register_callback(info->base_name, PLUGIN_FINISH, finish, NULL);
	return 0;
}
