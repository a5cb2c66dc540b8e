/* cmd_counts.c -- `ipp counts PROGRAM [PROFILE]`: what gcov and gprof would
 * have counted, derived exactly from the path profile (ippcore/ipp_derive.h,
 * docs/DERIVE.md): function entries (--functions, the default), call counts
 * per site and per caller/callee pair (--calls), line counts (--lines), or
 * the flow-conservation check (--check).
 *
 * The profile is matched to the program exactly as `ipp report` matches it
 * (report_from_profile(), which also checks every record); then every
 * matched unit is derived with ipp_derive().  Units the profile does not
 * hold (they never ran) count 0 everywhere.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "ipp_derive.h"
#include "program.h"
#include "report.h"
#include "writers.h"

#define DEFAULT_PROFILE "ipp.prof"

enum what { WHAT_FUNCTIONS, WHAT_CALLS, WHAT_LINES, WHAT_CHECK };

static void counts_usage(FILE *f)
{
	fprintf(f,
		"Usage: ipp counts [OPTIONS] PROGRAM [PROFILE]\n"
		"\n"
		"Prints the counts a gcov or gprof build would have reported, derived\n"
		"exactly from the paths recorded in PROFILE (default: " DEFAULT_PROFILE "):\n"
		"only the part of each path executed since its last restart is counted\n"
		"(docs/DERIVE.md).  PROGRAM and PROFILE are matched as by 'ipp report'.\n"
		"\n"
		"What to print (one of):\n"
		"  -F, --functions      one line per instrumented function: FUNCTION ENTRIES\n"
		"                       (times it was entered), in source order (default)\n"
		"  -C, --calls          per call site: CALLER -> CALLEE COUNT FILE:LINE;\n"
		"                       CALLEE is (indirect) or (external) when the unit\n"
		"                       does not name it; then per caller/callee pair of\n"
		"                       the unit: CALLER -> CALLEE COUNT, summed over sites\n"
		"  -L, --lines          FILE:LINE COUNT: per line, the largest count of a\n"
		"                       basic block starting there (an approximation of\n"
		"                       gcov's line counts, docs/DERIVE.md section 3)\n"
		"  -k, --check          check flow conservation (Kirchhoff's law) at every\n"
		"                       vertex; prints the violations and exits 1 if there\n"
		"                       are any, else prints 'flow conserved'\n"
		"\n"
		"Options:\n"
		"  -f, --format=FORMAT  text (default), yaml or json (counts as strings)\n"
		"  -o, --output=FILE    write to FILE instead of standard output\n"
		"  -h, --help           show this help and exit\n"
		"\n"
		"Text output: when PROGRAM has more than one unit, each unit's lines\n"
		"follow a line '# module NAME'.\n"
		"\n"
		"Exit status: 0 on success, 1 on error (or a flow violation with --check),\n"
		"2 on a usage error.\n");
}

/* Derived counts of every unit of the program. */
struct unit {
	const struct prog_module *m;
	const ipp_graph *g;
	bool ran;		/* the profile holds the unit */
	uint64_t runs;		/* runs merged into its profile module */
	ipp_counts c;		/* if ran */
};

static uint64_t vcount(const struct unit *u, ipp_id v)
{
	return u->ran ? u->c.vertex[v] : 0;
}

static void add_sat(uint64_t *acc, uint64_t v)
{
	*acc = *acc > UINT64_MAX - v ? UINT64_MAX : *acc + v;
}

/* ------------------------------------------------------------------ */
/* --calls: per site and per pair                                       */
/* ------------------------------------------------------------------ */

struct arc {
	ipp_id caller, callee;
	uint64_t calls;
};

/* The direct arcs of the unit, summed per (caller, callee), in order of
 * first appearance. */
static size_t sum_arcs(const ipp_call_count *cc, size_t n, struct arc **out)
{
	struct arc *a = NULL;
	size_t na = 0, cap = 0;

	for (size_t i = 0; i < n; i++) {
		size_t k;
		if (cc[i].callee == IPP_NONE)
			continue;
		for (k = 0; k < na; k++)
			if (a[k].caller == cc[i].caller && a[k].callee == cc[i].callee)
				break;
		if (k == na) {
			GROW(a, na, cap);
			a[na].caller = cc[i].caller;
			a[na].callee = cc[i].callee;
			a[na].calls = 0;
			na++;
		}
		add_sat(&a[k].calls, cc[i].calls);
	}
	*out = a;
	return na;
}

static const char *callee_name(const ipp_graph *g, const ipp_call_count *cc)
{
	if (cc->callee != IPP_NONE)
		return ipp_proc_name(g, cc->callee);
	return cc->indirect ? "(indirect)" : "(external)";
}

/* Call sites of a unit that did not run: every count 0. */
static size_t unit_calls(const struct unit *u, ipp_call_count **out)
{
	if (u->ran)
		return ipp_counts_calls(u->m->fin, &u->c, out);

	ipp_call_count *cc = NULL;
	size_t n = 0, cap = 0;
	for (size_t v = 0; v < ipp_graph_nvertices(u->g); v++) {
		if (ipp_vertex_kind(u->g, (ipp_id)v) != IPP_V_CALL)
			continue;
		GROW(cc, n, cap);
		memset(&cc[n], 0, sizeof(cc[n]));
		cc[n].site = (ipp_id)v;
		cc[n].caller = ipp_vertex_proc(u->g, (ipp_id)v);
		cc[n].callee = ipp_call_callee(u->g, (ipp_id)v);
		cc[n].indirect = (ipp_call_flags(u->g, (ipp_id)v) & IPP_CALL_INDIRECT) != 0;
		cc[n].why = ipp_fin_call_summary(u->m->fin, (ipp_id)v);
		n++;
	}
	*out = cc;
	return n;
}

/* ------------------------------------------------------------------ */
/* Text                                                                 */
/* ------------------------------------------------------------------ */

static void text_unit(FILE *out, enum what what, const struct unit *u, bool header)
{
	const ipp_graph *g = u->g;

	if (header)
		fprintf(out, "# module %s\n", u->m->map->module);
	if (what == WHAT_FUNCTIONS) {
		for (size_t p = 0; p < ipp_graph_nprocs(g); p++) {
			if (ipp_proc_flags(g, (ipp_id)p) & IPP_PROC_SKIPPED)
				continue;
			fprintf(out, "%s %" PRIu64 "\n", ipp_proc_name(g, (ipp_id)p),
				vcount(u, ipp_proc_entry(g, (ipp_id)p)));
		}
	} else if (what == WHAT_CALLS) {
		ipp_call_count *cc;
		struct arc *a;
		size_t n = unit_calls(u, &cc), na = sum_arcs(cc, n, &a);

		fprintf(out, "# call sites\n");
		for (size_t i = 0; i < n; i++) {
			const char *file = ipp_vertex_file(g, cc[i].site);
			fprintf(out, "%s -> %s %" PRIu64 " %s:%d\n", ipp_proc_name(g, cc[i].caller),
				callee_name(g, &cc[i]), cc[i].calls, file ? file : "?",
				ipp_vertex_line(g, cc[i].site));
		}
		fprintf(out, "# arcs\n");
		for (size_t k = 0; k < na; k++)
			fprintf(out, "%s -> %s %" PRIu64 "\n", ipp_proc_name(g, a[k].caller),
				ipp_proc_name(g, a[k].callee), a[k].calls);
		free(cc);
		free(a);
	} else if (what == WHAT_LINES && u->ran) {
		ipp_line_count *lc;
		size_t n = ipp_counts_lines(u->m->fin, &u->c, &lc);
		for (size_t i = 0; i < n; i++)
			fprintf(out, "%s:%d %" PRIu64 "\n", lc[i].file ? lc[i].file : "?",
				lc[i].line, lc[i].count);
		free(lc);
	}
}

/* ------------------------------------------------------------------ */
/* YAML / JSON                                                          */
/* ------------------------------------------------------------------ */

static void key_str(emitter *e, const char *k, const char *v)
{
	emit_key(e, k);
	emit_str(e, v);
}

static void key_int(emitter *e, const char *k, long long v)
{
	emit_key(e, k);
	emit_int(e, v);
}

static void key_u64(emitter *e, const char *k, uint64_t v)
{
	emit_key(e, k);
	emit_big_u64(e, v);
}

static void key_line(emitter *e, const ipp_graph *g, ipp_id v)
{
	emit_key(e, "file");
	emit_str(e, ipp_vertex_file(g, v));
	emit_key(e, "line");
	if (ipp_vertex_line(g, v) > 0)
		emit_int(e, ipp_vertex_line(g, v));
	else
		emit_null(e);
}

static void struct_unit(emitter *e, enum what what, const struct unit *u)
{
	const ipp_graph *g = u->g;

	if (what == WHAT_FUNCTIONS) {
		emit_key(e, "functions");
		emit_begin_seq(e);
		for (size_t p = 0; p < ipp_graph_nprocs(g); p++) {
			ipp_id entry = ipp_proc_entry(g, (ipp_id)p);
			if (ipp_proc_flags(g, (ipp_id)p) & IPP_PROC_SKIPPED)
				continue;
			emit_begin_map_flow(e);
			key_str(e, "function", ipp_proc_name(g, (ipp_id)p));
			key_str(e, "asm_name", ipp_proc_asm(g, (ipp_id)p));
			key_line(e, g, entry);
			key_u64(e, "entries", vcount(u, entry));
			key_u64(e, "returns", vcount(u, ipp_proc_exit(g, (ipp_id)p)));
			emit_end(e);
		}
		emit_end(e);
	} else if (what == WHAT_CALLS) {
		ipp_call_count *cc;
		struct arc *a;
		size_t n = unit_calls(u, &cc), na = sum_arcs(cc, n, &a);

		emit_key(e, "call_sites");
		emit_begin_seq(e);
		for (size_t i = 0; i < n; i++) {
			emit_begin_map_flow(e);
			key_str(e, "caller", ipp_proc_name(g, cc[i].caller));
			emit_key(e, "callee");
			emit_str(e, cc[i].callee != IPP_NONE ? ipp_proc_name(g, cc[i].callee) : NULL);
			key_str(e, "kind", cc[i].callee != IPP_NONE ? "direct" :
				cc[i].indirect ? "indirect" : "external");
			key_line(e, g, cc[i].site);
			key_u64(e, "calls", cc[i].calls);
			key_u64(e, "returns", cc[i].returns);
			key_int(e, "vertex", cc[i].site);
			emit_end(e);
		}
		emit_end(e);
		emit_key(e, "arcs");
		emit_begin_seq(e);
		for (size_t k = 0; k < na; k++) {
			emit_begin_map_flow(e);
			key_str(e, "caller", ipp_proc_name(g, a[k].caller));
			key_str(e, "callee", ipp_proc_name(g, a[k].callee));
			key_u64(e, "calls", a[k].calls);
			emit_end(e);
		}
		emit_end(e);
		free(cc);
		free(a);
	} else if (what == WHAT_LINES) {
		ipp_line_count *lc = NULL;
		size_t n = u->ran ? ipp_counts_lines(u->m->fin, &u->c, &lc) : 0;

		emit_key(e, "lines");
		emit_begin_seq(e);
		for (size_t i = 0; i < n; i++) {
			emit_begin_map_flow(e);
			key_str(e, "file", lc[i].file);
			key_int(e, "line", lc[i].line);
			key_u64(e, "count", lc[i].count);
			emit_end(e);
		}
		emit_end(e);
		free(lc);
	}
}

/* ------------------------------------------------------------------ */
/* --check                                                              */
/* ------------------------------------------------------------------ */

/* Checks every unit that ran; prints the messages.  Returns the number of
 * violations. */
static size_t check_units(FILE *out, enum out_format format, const char *program,
			  const char *profile, struct unit *units, size_t nunits)
{
	size_t total = 0;
	emitter *e = NULL;

	if (format != FORMAT_TEXT) {
		e = emit_new(out, format == FORMAT_JSON ? EMIT_JSON : EMIT_YAML);
		emit_begin_map(e);
		key_int(e, "ipp_counts", REPORT_SCHEMA_VERSION);
		key_str(e, "program", program);
		key_str(e, "profile", profile);
		emit_key(e, "modules");
		emit_begin_seq(e);
	}
	for (size_t i = 0; i < nunits; i++) {
		char **msgs = NULL;
		size_t n = 0;
		int nviol = 0;

		if (units[i].ran)
			nviol = ipp_check_flow(units[i].m->fin, &units[i].c, &msgs, &n);
		total += (size_t)nviol;
		if (e != NULL) {
			emit_begin_map(e);
			key_str(e, "name", units[i].m->map->module);
			emit_key(e, "checksum");
			emit_str_quoted(e, units[i].m->checksum);
			key_int(e, "violations", nviol);
			emit_key(e, "messages");
			emit_begin_seq(e);
			for (size_t k = 0; k < n; k++)
				emit_str(e, msgs[k]);
			emit_end(e);
			emit_end(e);
		} else {
			for (size_t k = 0; k < n; k++)
				fprintf(out, "%s: %s\n", units[i].m->map->module, msgs[k]);
		}
		ipp_flow_free(msgs, n);
	}
	if (e != NULL) {
		emit_end(e);
		emit_key(e, "conserved");
		emit_bool(e, total == 0);
		emit_end(e);
		emit_finish(e);
	} else if (total == 0) {
		fprintf(out, "flow conserved\n");
	} else {
		fprintf(out, "%zu flow violation%s\n", total, total == 1 ? "" : "s");
	}
	return total;
}

/* ------------------------------------------------------------------ */
/* The command                                                          */
/* ------------------------------------------------------------------ */

static void write_counts(FILE *out, enum out_format format, enum what what,
			 const char *program, const char *profile, const struct unit *units,
			 size_t nunits)
{
	if (format == FORMAT_TEXT) {
		for (size_t i = 0; i < nunits; i++)
			text_unit(out, what, &units[i], nunits > 1);
		return;
	}

	emitter *e = emit_new(out, format == FORMAT_JSON ? EMIT_JSON : EMIT_YAML);
	emit_begin_map(e);
	key_int(e, "ipp_counts", REPORT_SCHEMA_VERSION);
	key_str(e, "program", program);
	key_str(e, "profile", profile);
	emit_key(e, "modules");
	emit_begin_seq(e);
	for (size_t i = 0; i < nunits; i++) {
		const struct unit *u = &units[i];
		emit_begin_map(e);
		key_str(e, "name", u->m->map->module);
		emit_key(e, "checksum");
		emit_str_quoted(e, u->m->checksum);
		key_str(e, "mode", ipp_mode_name(ipp_fin_mode(u->m->fin)));
		key_u64(e, "runs", u->runs);
		struct_unit(e, what, u);
		emit_end(e);
	}
	emit_end(e);
	emit_end(e);
	emit_finish(e);
}

int cmd_counts(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "functions", no_argument, NULL, 'F' },
		{ "calls", no_argument, NULL, 'C' },
		{ "lines", no_argument, NULL, 'L' },
		{ "check", no_argument, NULL, 'k' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd = argv[0], *output = NULL, *program, *profile = DEFAULT_PROFILE;
	static const char *const what_opt[] = { "--functions", "--calls", "--lines", "--check" };
	enum out_format format = FORMAT_TEXT;
	enum what what = WHAT_FUNCTIONS;
	bool what_given = false;
	char err[1024];
	struct program prog;
	struct report r;
	ipp_profile *prof;
	struct unit *units;
	size_t nunits = 0;
	int c, status = EXIT_FAILURE;
	FILE *out;

	while ((c = getopt_long(argc, argv, "FCLkf:o:h", longopts, NULL)) != -1) {
		enum what w;
		switch (c) {
		case 'F': w = WHAT_FUNCTIONS; goto set_what;
		case 'C': w = WHAT_CALLS; goto set_what;
		case 'L': w = WHAT_LINES; goto set_what;
		case 'k': w = WHAT_CHECK;
		set_what:
			if (what_given && w != what)
				return cmd_usage_error(cmd, counts_usage, "%s and %s: choose one",
						       what_opt[what], what_opt[w]);
			what = w;
			what_given = true;
			break;
		case 'f':
			if (parse_format(optarg, &format) < 0)
				return cmd_usage_error(cmd, counts_usage, "--format: unknown format "
						       "'%s' (text, yaml or json)", optarg);
			break;
		case 'o':
			output = optarg;
			break;
		case 'h':
			counts_usage(stdout);
			return finish_output(stdout, "stdout");
		default:
			return cmd_bad_option(counts_usage);
		}
	}
	if (optind >= argc)
		return cmd_usage_error(cmd, counts_usage, "no PROGRAM given");
	program = argv[optind++];
	if (optind < argc)
		profile = argv[optind++];
	if (optind < argc)
		return cmd_usage_error(cmd, counts_usage, "unexpected argument '%s'",
				       argv[optind]);

	if (program_load(&prog, program, true, err, sizeof(err)) < 0)
		return cli_error("%s", err);
	prof = cli_read_profile(profile, program);
	if (prof == NULL) {
		program_free(&prog);
		return EXIT_FAILURE;
	}
	/* Match and check the profile as `ipp report` does (no path shown). */
	if (report_from_profile(&r, &prog, prof, profile, 0, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		goto out_prof;
	}

	units = xcalloc(prog.nmods ? prog.nmods : 1, sizeof(units[0]));
	for (size_t i = 0; i < prog.nmods; i++, nunits++) {
		struct unit *u = &units[i];
		u->m = &prog.mods[i];
		u->g = ipp_fin_graph(u->m->fin);
		if (r.mods[i].pm == NULL)
			continue;
		if (ipp_derive(u->m->fin, r.mods[i].pm, &u->c, err, sizeof(err)) < 0) {
			cli_error("%s: %s: %s", profile, u->m->map->module, err);
			goto out_units;
		}
		u->ran = true;
		u->runs = r.mods[i].pm->runs;
	}

	out = open_output(output);
	if (out != NULL) {
		if (what == WHAT_CHECK) {
			size_t nviol = check_units(out, format, program, profile, units, nunits);
			status = close_output(out, output);
			if (nviol > 0)
				status = EXIT_FAILURE;
		} else {
			write_counts(out, format, what, program, profile, units, nunits);
			status = close_output(out, output);
		}
	}
out_units:
	for (size_t i = 0; i < nunits; i++)
		if (units[i].ran)
			ipp_counts_free(&units[i].c);
	free(units);
	report_free(&r);
out_prof:
	ipp_profile_free(prof);
	program_free(&prog);
	return status;
}
