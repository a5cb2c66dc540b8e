/* ipp.c -- the ipp command-line tool.
 *
 *   ipp [--help] [--version] [--quiet] COMMAND [ARGS...]
 *
 * Each command is one entry of the table 'commands' below: a name, a
 * one-line summary for --help, and a function that receives the command's
 * own argv (argv[0] is "ipp COMMAND") and returns the exit status.  Each
 * command lives in its own file (demo.c, cmd_report.c, cmd_decode.c,
 * cmd_map.c, cmd_counts.c, cmd_check.c; see cli.h).  To add one, write its cmd_*
 * function and add a line to the table.
 *
 * Exit status: 0 success, 1 failure, 2 usage error (unknown command or
 * option, missing or extra argument; the usage goes to stderr).
 *
 * The numbering and decoding live in the core (ippcore/ipp_core.h); this file
 * only dispatches.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ------------------------------------------------------------------ */
/* The command table                                                    */
/* ------------------------------------------------------------------ */
struct command {
	const char *name;
	const char *summary;	/* one line, shown by ipp --help */
	int (*run)(int argc, char **argv);
};

static const struct command commands[] = {
	{ "report", "rank and decode the paths recorded in a profile (or list the cuts)",
	  cmd_report },
	{ "decode", "decode one path from its number", cmd_decode },
	{ "counts", "function, call and line counts derived from a profile (gcov-style)",
	  cmd_counts },
	{ "check", "check a profile against the program's maps and flow conservation",
	  cmd_check },
	{ "map", "print the maps embedded in a program", cmd_map },
	{ "diff", "compare two profiles: where did the runs part?", cmd_diff },
	{ "merge", "sum several profiles into one", cmd_merge },
	{ "profile", "print a profile's records as text (YAML)", cmd_profile },
	{ "export", "the profile for other tools: lcov tracefile, folded stacks, JSON",
	  cmd_export },
	{ "callgraph", "gprof's flat profile and call graph, exact, and the cost per caller",
	  cmd_callgraph },
	{ "html", "static pages: source with line counts, hot paths, a flame graph", cmd_html },
	{ "demo", "print the decoded path profile of the paper's Figure 4 program", cmd_demo },
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* ------------------------------------------------------------------ */
/* Top-level usage and version                                          */
/* ------------------------------------------------------------------ */
static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ipp [--help] [--version] [--quiet] COMMAND [ARGS...]\n"
		"\n"
		"ipp is an interprocedural path profiler for C (Melski & Reps).\n"
		"\n"
		"Commands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f,
		"\n"
		"Options:\n"
		"  -h, --help     show this help and exit\n"
		"  -V, --version  show the version and exit\n"
		"  -q, --quiet    no warnings (ipp: warning: ...), only errors\n"
		"\n"
		"Run 'ipp COMMAND --help' for help on a command, 'man ipp' for more.\n"
		"\n"
		"A typical session: build with ipp-gcc, run the program (it writes\n"
		"prog.ipp.prof), then:\n"
		"  ipp report ./prog           the 10 most frequent paths, decoded\n");
}

static void version(void)
{
	printf("ipp %s\n"
	       "Copyright (C) 2026 the ipp authors.\n"
	       "License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\n"
	       "This is free software: you are free to change and redistribute it.\n"
	       "There is NO WARRANTY, to the extent permitted by law.\n",
	       PACKAGE_VERSION);
}

/* Prints "ipp: <message>" and the usage on stderr; returns EXIT_USAGE. */
__attribute__((format(printf, 1, 2)))
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("ipp: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n\n", stderr);
	usage(stderr);
	return EXIT_USAGE;
}

/* ------------------------------------------------------------------ */
/* main: global options, then dispatch to the command                   */
/* ------------------------------------------------------------------ */
int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	/* The leading '+' stops option parsing at the command name, so that
	 * the command's own options are left for the command. */
	while ((c = getopt_long(argc, argv, "+hVq", longopts, NULL)) != -1) {
		switch (c) {
		case 'q':
			cli_quiet = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_SUCCESS;
		case 'V':
			version();
			return EXIT_SUCCESS;
		default:	/* getopt_long has printed the error */
			fputc('\n', stderr);
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc)
		return usage_error("no command given");

	const char *name = argv[optind];
	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (strcmp(name, commands[i].name) != 0)
			continue;

		/* The command sees its own argv, starting at its name.  Its
		 * argv[0] reads "ipp NAME" so that getopt's messages name it. */
		char prog[64];
		snprintf(prog, sizeof prog, "ipp %s", name);
		char **sub_argv = argv + optind;
		int sub_argc = argc - optind;
		sub_argv[0] = prog;
		optind = 0;	/* glibc: restart getopt from scratch */
		return commands[i].run(sub_argc, sub_argv);
	}
	return usage_error("unknown command '%s'", name);
}
