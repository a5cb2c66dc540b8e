/* cmd_report.c -- `ipp report PROGRAM [PROFILE]`: the paths recorded in a
 * profile, most frequent first, each decoded into its vertices; and
 * `ipp report --cuts PROGRAM`: the cuts and summarized call sites of every
 * unit.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cuts.h"
#include "text.h"
#include "program.h"
#include "report.h"
#include "writers.h"

#define DEFAULT_TOP 10

static void report_usage(FILE *f)
{
	fprintf(f,
		"Usage: ipp report [OPTIONS] PROGRAM [LIBRARY...] [PROFILE]\n"
		"       ipp report --cuts [OPTIONS] PROGRAM [LIBRARY...]\n"
		"\n"
		"Ranks the paths recorded in PROFILE (default: " DEFAULT_PROFILE ") by how often\n"
		"they ran and prints the most frequent ones, each decoded into the vertices\n"
		"it went through: function, source file and line, and the part the vertex\n"
		"plays in the path (entry, call, return site, loop back edge, ...).\n"
		"\n"
		"PROGRAM is the profiled executable (or shared object): the maps that\n"
		"decode its path numbers are embedded in it, in the .ipp_map section that\n"
		"ipp-gcc (-fplugin=ipp.so) adds to every object.  PROFILE must have been\n"
		"recorded by this very build of PROGRAM: a profile of another build of a\n"
		"unit is refused, never decoded with the wrong map.  Units of the profile\n"
		"that PROGRAM does not contain are left out with a warning.  Shared\n"
		"libraries built with ipp-gcc and named after PROGRAM (any ELF file: the\n"
		"operands that are not ELF files name the profile) report together with\n"
		"it: their units' paths are decoded with their own maps.\n"
		"\n"
		"Paths are sorted by count, most frequent first; ties by module, region\n"
		"and number.  Partial paths (abandoned by exit, longjmp or a signal) are\n"
		"ranked with the others.\n"
		"\n"
		"With --cuts, no profile is read: for every unit, prints its regions and\n"
		"their numbers of paths, the vertices and call sites that were cut to keep\n"
		"every region's path numbers within 64 bits, and every call site whose\n"
		"call is summarized (not followed into the callee) and why.\n"
		"\n"
		"Options:\n"
		"  -n, --top=N          print the N most frequent paths (default %d)\n"
		"  -a, --all            print every recorded path\n"
		"      --function=F     only the paths that execute code of function F (a\n"
		"                       vertex of F in the path's active suffix, the part it\n"
		"                       counts: not its context prefix)\n"
		"      --file=FILE      only the paths that execute code of FILE (the name\n"
		"                       in the map, or its base name)\n"
		"  -m, --module=UNIT    only the paths of unit UNIT (its name, or its base\n"
		"                       name)\n"
		"                       Filters keep each path's rank in the whole ranking\n"
		"  -w, --width=N        text: fit paths in N columns (0: no limit; default:\n"
		"                       the terminal's width, else $COLUMNS, else 0)\n"
		"  -f, --format=FORMAT  text (default), yaml or json; the YAML and JSON\n"
		"                       schema is stable (docs/REPORT.md); JSON writes\n"
		"                       path numbers, counts and totals as strings\n"
		"  -r, --regions        also print each unit's region table\n"
		"  -c, --cuts           print the cuts instead of a profile (see above)\n"
		"  -o, --output=FILE    write to FILE instead of standard output\n"
		"  -h, --help           show this help and exit\n"
		"\n"
		"Text output: one line per unit that ran (units that never ran are\n"
		"counted), then one line per path (rank, count, share of all recorded path\n"
		"executions, module, region, number within the region, 'partial'), then\n"
		"the path as function:line steps; a path too long for the width is folded\n"
		"into one piece per visit of a function (\"pow 20-25 (back edge)\": its\n"
		"lines in order, runs of lines as ranges) and broken into lines.  Two\n"
		"paths that would read alike get a note (branch to F:L) where they part.\n"
		"Notes in parentheses: (call) and\n"
		"(return); (summary: F) for a call into F that is not followed; (loop\n"
		"restart) where a path starts at a loop header and (back edge) where it\n"
		"ends at one; (cut restart) and (cut edge) likewise at a cut; (restart)\n"
		"after longjmp; (no return) before exit or abort; (stopped) where a\n"
		"partial path was abandoned.  In context modes the path's context prefix\n"
		"(how the function whose loop restarted was reached; an earlier path\n"
		"counted it) is in [brackets].  docs/REPORT.md describes every field.\n"
		"\n"
		"Exit status: 0 on success, 1 on error (unreadable or corrupt program or\n"
		"profile, profile of another build), 2 on a usage error.\n"
		"\n"
		"Examples:\n"
		"  ipp report ./prog                       top 10 paths of ./prog.ipp.prof\n"
		"  ipp report --function=parse ./prog      the top paths through parse\n"
		"  ipp report ./prog libz.so.1 run.prof    a program and its library\n"
		"  ipp report --all --format=json ./prog run2.prof > paths.json\n"
		"  ipp report --cuts ./prog\n",
		DEFAULT_TOP);
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "top", required_argument, NULL, 'n' },
		{ "all", no_argument, NULL, 'a' },
		{ "format", required_argument, NULL, 'f' },
		{ "regions", no_argument, NULL, 'r' },
		{ "cuts", no_argument, NULL, 'c' },
		{ "function", required_argument, NULL, 'U' },
		{ "file", required_argument, NULL, 'F' },
		{ "module", required_argument, NULL, 'm' },
		{ "width", required_argument, NULL, 'w' },
		CLI_COMMON_LONGOPTS,
	};
	const char *cmd = argv[0], *output = NULL, *program, *profile = DEFAULT_PROFILE;
	const char **objects;
	struct report_filter filter = { NULL, NULL, NULL };
	enum out_format format = FORMAT_TEXT;
	size_t top = DEFAULT_TOP, nobjects = 0, width = SIZE_MAX;
	bool regions = false, cuts = false;
	char err[1024];
	struct program prog;
	int c, status;
	FILE *out;

	while ((c = getopt_long(argc, argv, "n:af:rcm:w:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'U':
			filter.function = optarg;
			break;
		case 'F':
			filter.file = optarg;
			break;
		case 'm':
			filter.module = optarg;
			break;
		case 'w':
			if (parse_width(optarg, &width) < 0)
				return cmd_usage_error(cmd, report_usage, "--width: '%s' is not 0 "
						       "or a number of columns from 20", optarg);
			break;
		case 'n':
			if (parse_count(optarg, &top) < 0)
				return cmd_usage_error(cmd, report_usage, "--top: '%s' is not a "
						       "positive number", optarg);
			break;
		case 'a':
			top = SIZE_MAX;
			break;
		case 'r':
			regions = true;
			break;
		case 'c':
			cuts = true;
			break;
		default:
			status = cli_common_option(c, cmd, report_usage, &format, &output);
			if (status != CLI_CONTINUE)
				return status;
		}
	}
	if (optind >= argc)
		return cmd_usage_error(cmd, report_usage, "no PROGRAM given");
	program = argv[optind];
	profile = cli_default_profile(program);
	/* PROGRAM, then its libraries (ELF files), then the profile */
	objects = xmalloc((size_t)(argc - optind) * sizeof(objects[0]));
	objects[nobjects++] = argv[optind++];
	while (optind < argc && program_is_elf(argv[optind]))
		objects[nobjects++] = argv[optind++];
	if (optind < argc) {
		if (cuts) {
			free(objects);
			return cmd_usage_error(cmd, report_usage, "--cuts reads no profile: "
					       "unexpected argument '%s'", argv[optind]);
		}
		profile = argv[optind++];
	}
	if (optind < argc) {
		free(objects);
		return cmd_usage_error(cmd, report_usage, "unexpected argument '%s' (libraries "
				       "come before the profile)", argv[optind]);
	}

	/* --cuts and --regions show every unit's numbering; a report of a
	 * profile renumbers only the units the profile holds */
	status = program_load_objects(&prog, objects, nobjects, cuts || regions, err,
				      sizeof(err));
	free(objects);
	if (status < 0)
		return cli_error("%s", err);

	if (cuts) {
		struct cuts_report cr;
		cuts_report_build(&cr, &prog);
		out = open_output(output);
		if (out == NULL) {
			status = EXIT_FAILURE;
		} else {
			write_cuts(out, format, &cr);
			status = close_output(out, output);
		}
		cuts_report_free(&cr);
	} else {
		ipp_profile *prof = cli_read_profile(profile, program);
		struct report r;

		status = EXIT_FAILURE;
		if (prof != NULL && program_renumber_profile(&prog, prof, err, sizeof(err)) < 0) {
			cli_error("%s", err);
		} else if (prof != NULL) {
			if (report_from_profile(&r, &prog, prof, profile, 0, err,
						sizeof(err)) < 0) {
				cli_error("%s", err);
			} else if (report_select(&r, &filter, top, err, sizeof(err)) < 0) {
				cli_error("%s", err);
				report_free(&r);
			} else {
				r.show_regions = regions;
				out = open_output(output);
				r.width = width != SIZE_MAX ? width : text_width(out);
				if (out != NULL) {
					write_report(out, format, &r);
					status = close_output(out, output);
				}
				report_free(&r);
			}
			ipp_profile_free(prof);
		}
	}
	program_free(&prog);
	return status;
}
