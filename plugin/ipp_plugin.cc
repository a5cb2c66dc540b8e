/* ipp_plugin.cc -- plugin entry point: version check, options, registering
 * the instrumentation pass, and writing the unit's map into the object.
 *
 * Usage: gcc -fplugin=/path/to/ipp.so [-fplugin-arg-ipp-mode=intra]
 *            [-fplugin-arg-ipp-verbose] [-fplugin-arg-ipp-limit=N] ...
 * and link with -lipprt (ipp-gcc does both).
 *
 * The map goes into a non-allocated section .ipp_map (no .debug prefix, so
 * strip keeps it); the linker concatenates the documents of all units.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include "gcc-common.h"
#include "ipp_plugin.h"

int plugin_is_GPL_compatible;

struct ipp_options ipp_opts;
char *ipp_unit_map;
size_t ipp_unit_map_len;

static struct plugin_info ipp_info = {
	IPP_VERSION,
	"ipp: interprocedural path profiling (Melski & Reps).\n"
	"  -fplugin-arg-ipp-mode=intra|context  numbering (default: context)\n"
	"  -fplugin-arg-ipp-verbose             report paths and cuts per function\n"
	"  -fplugin-arg-ipp-limit=N             paths per region (default 2^64-1)\n"
};

/* Emits the map as the contents of section .ipp_map. */
static void emit_map(void *, void *)
{
	if (!ipp_unit_map || !asm_out_file)
		return;
	fprintf(asm_out_file, "\t.section\t%s,\"\",@progbits\n", IPP_MAP_SECTION);
	for (size_t i = 0; i < ipp_unit_map_len;) {
		size_t n = 0;
		fputs("\t.ascii\t\"", asm_out_file);
		for (; i < ipp_unit_map_len && n < 64; i++, n++) {
			unsigned char c = (unsigned char)ipp_unit_map[i];
			if (c == '"' || c == '\\')
				fprintf(asm_out_file, "\\%c", c);
			else if (c >= 32 && c < 127)
				fputc(c, asm_out_file);
			else
				fprintf(asm_out_file, "\\%03o", c);
		}
		fputs("\"\n", asm_out_file);
	}
	fputs("\t.previous\n", asm_out_file);
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
			if (v) {
				error("ipp: %<-fplugin-arg-ipp-verbose%> takes no value");
				return 1;
			}
			ipp_opts.verbose = true;
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
			      "%<verbose%>, %<limit%>)", k);
			return 1;
		}
	}

	register_callback(info->base_name, PLUGIN_INFO, NULL, &ipp_info);
	pass.pass = ipp_make_pass(g);
	pass.reference_pass_name = "build_ssa_passes";
	pass.ref_pass_instance_number = 1;
	pass.pos_op = PASS_POS_INSERT_AFTER;
	register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass);
	register_callback(info->base_name, PLUGIN_FINISH_UNIT, emit_map, NULL);
	register_callback(info->base_name, PLUGIN_FINISH, finish, NULL);
	return 0;
}
