/* cmd_export.c -- `ipp export --lcov|--folded|--json PROGRAM [PROFILE]`:
 * the profile in formats other tools read (export.h).  This file parses
 * the command line, loads and derives the profile as `ipp counts` does
 * (derived_load(): every record checked against the maps), decodes every
 * recorded path and hands over to the format's writer.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"

enum format { EXPORT_NONE, EXPORT_LCOV, EXPORT_FOLDED, EXPORT_JSON };

static void export_usage(FILE *f)
{
	fprintf(f,
		"Usage: ipp export --lcov|--folded|--json [OPTIONS] PROGRAM [LIBRARY...] [PROFILE]\n"
		"\n"
		"Writes the profile PROFILE (default: " DEFAULT_PROFILE ") of PROGRAM in a format\n"
		"other tools read.  PROGRAM and PROFILE are matched as by 'ipp report'.\n"
		"\n"
		"Formats (one of):\n"
		"      --lcov           lcov's tracefile (genhtml, lcov; geninfo(1) describes\n"
		"                       it): per source file, function entries (FN, FNDA),\n"
		"                       branches (BRDA) and line counts (DA), computed from\n"
		"                       the paths with gcov's own line rule\n"
		"      --folded         one line per recorded path: its frames joined by ';',\n"
		"                       a space and its count (flamegraph.pl, speedscope).\n"
		"                       A frame is a maximal run of the path's vertices in\n"
		"                       one activation of one function, named after the\n"
		"                       function; a run after a return into the caller is\n"
		"                       named 'FUNCTION (return)'\n"
		"      --json           the whole decoded profile: every path decoded, the\n"
		"                       counts derived from them (docs/REPORT.md, \"The export\n"
		"                       document\"); counts are strings\n"
		"\n"
		"Options:\n"
		"  -b, --base-directory=DIR  --lcov: take relative source names from DIR\n"
		"                       (default: the current directory), as geninfo -b\n"
		"      --relative=DIR   --lcov: write the names of files below DIR relative\n"
		"                       to DIR (default: every name absolute)\n"
		"  -t, --test-name=NAME --lcov: the tracefile's test name (TN:)\n"
		"  -l, --lines          --folded: frames name their lines: FUNCTION:FIRST-LAST\n"
		"  -o, --output=FILE    write to FILE instead of standard output\n"
		"  -h, --help           show this help and exit\n"
		"\n"
		"Exit status: 0 on success, 1 on error, 2 on a usage error.\n");
}

int export_decode_all(struct derived *d)
{
	char err[1024];

	for (size_t i = 0; i < d->r.nrecs; i++)
		if (report_decode(&d->r, &d->r.recs[i], err, sizeof(err)) < 0) {
			cli_error("%s", err);
			return -1;
		}
	return 0;
}

int cmd_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "lcov", no_argument, NULL, 'L' },
		{ "folded", no_argument, NULL, 'F' },
		{ "json", no_argument, NULL, 'J' },
		{ "base-directory", required_argument, NULL, 'b' },
		{ "relative", required_argument, NULL, 'R' },
		{ "test-name", required_argument, NULL, 't' },
		{ "lines", no_argument, NULL, 'l' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const names[] = { "", "--lcov", "--folded", "--json" };
	const char *cmd = argv[0], *output = NULL;
	struct export_opts o = { "", NULL, NULL, false };
	enum format fmt = EXPORT_NONE;
	struct derived d;
	struct operands ops;
	int c, status;
	FILE *out;

	while ((c = getopt_long(argc, argv, "b:t:lo:h", longopts, NULL)) != -1) {
		enum format f = EXPORT_NONE;
		switch (c) {
		case 'L': f = EXPORT_LCOV; break;
		case 'F': f = EXPORT_FOLDED; break;
		case 'J': f = EXPORT_JSON; break;
		case 'b': o.base_dir = optarg; break;
		case 'R': o.relative_to = optarg; break;
		case 't': o.test_name = optarg; break;
		case 'l': o.lines = true; break;
		default:
			status = cli_common_option(c, cmd, export_usage, NULL, &output);
			if (status != CLI_CONTINUE)
				return status;
		}
		if (f != EXPORT_NONE) {
			if (fmt != EXPORT_NONE && fmt != f)
				return cmd_usage_error(cmd, export_usage, "%s and %s: choose one",
						       names[fmt], names[f]);
			fmt = f;
		}
	}
	if (fmt == EXPORT_NONE)
		return cmd_usage_error(cmd, export_usage, "no format given: --lcov, --folded "
				       "or --json");
	if (o.test_name[strcspn(o.test_name, "\n")] != '\0')
		return cmd_usage_error(cmd, export_usage, "--test-name: a name on one line");
	status = cli_operands(argc, argv, cmd, export_usage, &ops);
	if (status != CLI_CONTINUE)
		return status;

	status = derived_load(&d, &ops, DL_EVERY_MAP | DL_DERIVE_EMPTY | DL_RECORDS);
	cli_operands_free(&ops);
	if (status < 0)
		return EXIT_FAILURE;
	status = EXIT_FAILURE;
	if ((fmt == EXPORT_LCOV || export_decode_all(&d) == 0) &&
	    (out = open_output(output)) != NULL) {
		int rc = fmt == EXPORT_LCOV ? export_lcov(out, &d, &o) :
			 fmt == EXPORT_FOLDED ? export_folded(out, &d, &o) :
			 export_json(out, &d, &o);
		status = close_output(out, output);
		if (rc < 0)
			status = EXIT_FAILURE;
	}
	derived_free(&d);
	return status;
}
