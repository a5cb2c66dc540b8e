/* cmd_check.c -- `ipp check PROGRAM [PROFILE]`: is PROFILE a valid profile
 * of PROGRAM?
 *
 * Valid means (docs/REPORT.md, "ipp check"):
 *   1. the profile is matched to the program's maps as `ipp report` matches
 *      it: every module recorded from this very build (checksums), every
 *      record in range (region names, numbers below their region's total,
 *      stop stacks of call vertices) and decodable -- derived_load(), whose
 *      first failure is reported as an error;
 *   2. the counts derived from it (ippcore/ipp_derive.h) conserve flow at
 *      every vertex (Kirchhoff's law, Ball & Larus TOPLAS 1994 Section 2,
 *      with the conventions of docs/DERIVE.md section 4): ipp_check_flow()
 *      names each violation.
 * The profile of complete runs (every run returned from main or called
 * exit, no other thread still running) is valid; a violation means a lost
 * or corrupt record, or a bug in the instrumentation or the numbering.
 *
 * `ipp counts --check` is the same check (check_write(), also used there).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void check_usage(FILE *f)
{
	fprintf(f,
		"Usage: ipp check [OPTIONS] PROGRAM [LIBRARY...] [PROFILE]\n"
		"\n"
		"Checks that PROFILE (default: " DEFAULT_PROFILE ") is a valid profile of\n"
		"PROGRAM and its LIBRARY files (as 'ipp report' reads them):\n"
		"  - it was recorded from this very build of every unit (checksums), and\n"
		"    every record is in range and decodes (as 'ipp report' checks it);\n"
		"  - the vertex and edge counts derived from its paths conserve flow at\n"
		"    every vertex (Kirchhoff's law; docs/DERIVE.md section 4).\n"
		"The profile of complete runs (each run returned from main or called exit,\n"
		"with no other thread still running) is always valid.\n"
		"\n"
		"Prints one line per violation (MODULE: violation: ...), a summary line\n"
		"per unit, then 'flow conserved' or 'N flow violations'.  Checks that\n"
		"involve a saturated count are reported as 'inconclusive', not as\n"
		"violations (the verdict is then 'no flow violation (N checks\n"
		"inconclusive...)', and the profile counts as valid).\n"
		"\n"
		"Options:\n"
		"  -f, --format=FORMAT  text (default), yaml or json (docs/REPORT.md)\n"
		"  -o, --output=FILE    write to FILE instead of standard output\n"
		"  -h, --help           show this help and exit\n"
		"\n"
		"Exit status: 0 if the profile is valid, 1 if it is not (a flow\n"
		"violation, or an error: unreadable or corrupt program or profile,\n"
		"profile of another build, record out of range), 2 on a usage error.\n");
}

/* The messages of ipp_check_flow() start with "violation: " or
 * "inconclusive: ". */
static size_t count_inconclusive(char *const *msgs, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += strncmp(msgs[i], "inconclusive: ", 14) == 0;
	return k;
}

static const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* The verdict: "flow conserved", "N flow violations", or when checks were
 * inconclusive and none failed, "no flow violation (N checks
 * inconclusive: counts saturated)". */
static void text_verdict(FILE *out, size_t nviol, size_t ninc)
{
	if (nviol > 0)
		fprintf(out, "%zu flow %s", nviol, plural(nviol, "violation", "violations"));
	else if (ninc == 0)
		fputs("flow conserved", out);
	else
		fprintf(out, "no flow violation (%zu %s inconclusive: counts saturated)", ninc,
			plural(ninc, "check", "checks"));
	fputc('\n', out);
}

/* "MODULE: 1 run, 12 paths, 1 partial path, 51 executions: flow conserved" */
static void text_summary(FILE *out, const struct unit *u, size_t nviol, size_t ninc)
{
	const char *name = u->m->name;

	if (!u->ran) {
		fprintf(out, "%s: not in the profile (never ran)\n", name);
		return;
	}
	fprintf(out, "%s: %" PRIu64 " %s, %" PRIu64 " %s, %" PRIu64 " %s, ", name, u->runs,
		plural(u->runs, "run", "runs"), u->c.npaths, plural(u->c.npaths, "path", "paths"),
		u->c.npartials, plural(u->c.npartials, "partial path", "partial paths"));
	/* only when a process forked with paths pending (docs/DERIVE.md) */
	if (u->c.nforked)
		fprintf(out, "%" PRIu64 " %s, ", u->c.nforked,
			plural(u->c.nforked, "forked prefix", "forked prefixes"));
	fprintf(out, "%" PRIu64 " %s: ", u->c.observations,
		plural(u->c.observations, "execution", "executions"));
	text_verdict(out, nviol, ninc);
}

static void struct_module(emitter *e, const struct unit *u, int nviol, size_t ninc,
			  char *const *msgs, size_t n)
{
	emit_begin_map(e);
	emit_key(e, "name");
	emit_str(e, u->m->name);
	emit_key(e, "checksum");
	emit_str_quoted(e, u->m->checksum);
	emit_key(e, "mode");
	emit_str(e, ipp_mode_name(u->m->mode));
	emit_key(e, "ran");
	emit_bool(e, u->ran);
	emit_key(e, "runs");
	emit_big_u64(e, u->runs);
	emit_key(e, "paths");
	emit_big_u64(e, u->ran ? u->c.npaths : 0);
	emit_key(e, "partial_paths");
	emit_big_u64(e, u->ran ? u->c.npartials : 0);
	emit_key(e, "executions");
	emit_big_u64(e, u->ran ? u->c.observations : 0);
	emit_key(e, "violations");
	emit_int(e, nviol);
	emit_key(e, "inconclusive");
	emit_int(e, (long long)ninc);
	emit_key(e, "messages");
	emit_begin_seq(e);
	for (size_t k = 0; k < n; k++)
		emit_str(e, msgs[k]);
	emit_end(e);
	emit_end(e);
}

/* Writes the check; returns the number of violations. */
static size_t check_write(FILE *out, enum out_format format, const char *doc,
			  const struct derived *d)
{
	size_t total = 0, total_inc = 0;
	emitter *e = NULL;

	if (format != FORMAT_TEXT) {
		e = emit_new(out, format == FORMAT_JSON ? EMIT_JSON : EMIT_YAML);
		emit_begin_map(e);
		emit_key(e, doc);
		emit_int(e, REPORT_SCHEMA_VERSION);
		emit_key(e, "program");
		emit_str(e, d->program);
		emit_key(e, "profile");
		emit_str(e, d->profile);
		emit_key(e, "modules");
		emit_begin_seq(e);
	}
	for (size_t i = 0; i < d->nunits; i++) {
		const struct unit *u = &d->units[i];
		char **msgs = NULL;
		size_t n = 0, ninc;
		int nviol = 0;

		if (u->ran && u->m->fin != NULL)	/* else no record: nothing flows */
			nviol = ipp_check_flow(u->m->fin, &u->c, &msgs, &n);
		ninc = count_inconclusive(msgs, n);
		total += (size_t)nviol;
		total_inc += ninc;
		if (e != NULL) {
			struct_module(e, u, nviol, ninc, msgs, n);
		} else {
			for (size_t k = 0; k < n; k++)
				fprintf(out, "%s: %s\n", u->m->name, msgs[k]);
			text_summary(out, u, (size_t)nviol, ninc);
		}
		ipp_flow_free(msgs, n);
	}
	if (e != NULL) {
		emit_end(e);
		emit_key(e, "conserved");
		emit_bool(e, total == 0);
		emit_end(e);
		emit_finish(e);
	} else {
		text_verdict(out, total, total_inc);
	}
	return total;
}

int check_output(const struct derived *d, enum out_format format, const char *output,
		 const char *doc)
{
	FILE *out = open_output(output);
	size_t nviol;
	int status;

	if (out == NULL)
		return EXIT_FAILURE;
	nviol = check_write(out, format, doc, d);
	status = close_output(out, output);
	if (nviol > 0 && status == EXIT_SUCCESS)
		status = cli_error("%s: flow is not conserved (%zu %s)", d->profile, nviol,
				   plural(nviol, "violation", "violations"));
	return status;
}

int cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = { CLI_COMMON_LONGOPTS };
	const char *cmd = argv[0], *output = NULL;
	enum out_format format = FORMAT_TEXT;
	struct derived d;
	struct operands ops;
	int c, status;

	while ((c = getopt_long(argc, argv, "f:o:h", longopts, NULL)) != -1)
		if ((status = cli_common_option(c, cmd, check_usage, &format, &output)) !=
		    CLI_CONTINUE)
			return status;
	status = cli_operands(argc, argv, cmd, check_usage, &ops);
	if (status != CLI_CONTINUE)
		return status;

	status = derived_load(&d, &ops, 0);
	cli_operands_free(&ops);
	if (status < 0)
		return EXIT_FAILURE;
	status = check_output(&d, format, output, "ipp_check");
	derived_free(&d);
	return status;
}
