/* cli.h -- what the commands of the ipp tool share: their entry points
 * (one file each: demo.c, cmd_report.c, cmd_decode.c, cmd_map.c,
 * cmd_counts.c, cmd_check.c; ipp.c dispatches), the helpers for their
 * command lines, and the counts derived from a program and its profile
 * (ipp counts, ipp check).
 *
 * Every command receives its own argv (argv[0] is "ipp COMMAND") and returns
 * the exit status: 0 success, 1 failure (a message "ipp: <file>: <what>" on
 * stderr), 2 usage error (the message and the command's usage on stderr).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_DECODER_CLI_H
#define IPP_DECODER_CLI_H

#include <stdio.h>

#include "ipp_derive.h"
#include "ipp_format.h"
#include "program.h"
#include "report.h"
#include "util.h"
#include "writers.h"

/* PROFILE when not given: what PROGRAM writes by default (runtime/
 * rt_name.c); cli_program_profile makes the name. */
#define DEFAULT_PROFILE "PROGRAM.ipp.prof"

int cmd_demo(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_map(int argc, char **argv);
int cmd_counts(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_profile(int argc, char **argv);		/* cmd_profile.c */
int cmd_export(int argc, char **argv);		/* cmd_export.c */
int cmd_callgraph(int argc, char **argv);	/* cmd_callgraph.c */
int cmd_html(int argc, char **argv);		/* cmd_html.c */

/* Prints "ipp CMD: <message>", a blank line and the usage on stderr;
 * returns EXIT_USAGE.  'cmd' is the command's argv[0]. */
int cmd_usage_error(const char *cmd, void (*usage)(FILE *), const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* For getopt's '?' (it printed the message itself): the usage on stderr. */
int cmd_bad_option(void (*usage)(FILE *));

/* The end of a command's getopt_long table: --format, --output, --help. */
#define CLI_COMMON_LONGOPTS						\
	{ "format", required_argument, NULL, 'f' },			\
	{ "output", required_argument, NULL, 'o' },			\
	{ "help", no_argument, NULL, 'h' },				\
	{ NULL, 0, NULL, 0 }

/* The options of several commands, for the 'default:' case of their getopt
 * loop after their own cases: -f/--format=FORMAT (when 'format' is not
 * NULL), -o/--output=FILE (when 'output' is not NULL), -h/--help, and
 * getopt's '?' for anything else.  Returns CLI_CONTINUE when parsing goes
 * on, else the status the command returns at once (0 after --help,
 * EXIT_USAGE after a bad option). */
#define CLI_CONTINUE (-1)
int cli_common_option(int c, const char *cmd, void (*usage)(FILE *), enum out_format *format,
		      const char **output);

/* The operands "PROGRAM [PROFILE]" after the options (argv[optind..]):
 * without PROFILE, *profile is PROGRAM's default profile, the base name of
 * its executable file (links resolved) + ".ipp.prof", in the working
 * directory (a static buffer).
 * Returns CLI_CONTINUE, or EXIT_USAGE after the message (no PROGRAM, an
 * extra operand). */
int cli_program_profile(int argc, char **argv, const char *cmd, void (*usage)(FILE *),
			const char **program, const char **profile);

/* The operands "PROGRAM [LIBRARY...] [PROFILE]" of the commands that read
 * a program and its profile: the operands after PROGRAM that are ELF files
 * are its libraries (shared objects built with ipp-gcc, whose units report
 * with the program's), the first one that is not names the profile
 * (default: PROGRAM's, cli_default_profile). */
struct operands {
	const char **objects;	/* PROGRAM, then its libraries; malloc'd */
	size_t nobjects;
	const char *program;	/* objects[0] */
	const char *profile;
	bool profile_given;	/* named on the command line */
};
/* Returns CLI_CONTINUE (then free o with cli_operands_free), or EXIT_USAGE
 * after the message (no PROGRAM, an operand after the profile). */
int cli_operands(int argc, char **argv, const char *cmd, void (*usage)(FILE *),
		 struct operands *o);
void cli_operands_free(struct operands *o);

/* The profile PROGRAM writes when nothing names another (runtime/
 * rt_name.c): "%e.ipp.prof" in the working directory, %e the base name of
 * the executable file (links resolved, as /proc/self/exe gives it).  A
 * static buffer. */
const char *cli_default_profile(const char *program);

/* Parses a positive decimal count (--top).  Returns 0, or -1. */
int parse_count(const char *s, size_t *out);

/* Opens FILE for --output ("-" and NULL mean stdout).  Returns NULL after
 * printing a message. */
FILE *open_output(const char *path);
/* Closes what open_output() returned; reports write errors.  Returns the
 * exit status. */
int close_output(FILE *f, const char *path);

/* Reads PROFILE for `ipp report` / `ipp counts`; a missing file gets a
 * hint to run PROGRAM first.  NULL (after cli_error) on failure. */
ipp_profile *cli_read_profile(const char *path, const char *program);

/* ------------------------------------------------------------------ */
/* Counts derived from a profile (ipp counts, ipp check)               */
/* ------------------------------------------------------------------ */

/* Derived counts of one unit of the program. */
struct unit {
	const struct prog_module *m;
	const ipp_graph *g;	/* NULL if not parsed (derived_load) */
	bool ran;		/* the profile holds the unit */
	uint64_t runs;		/* runs merged into its profile module */
	ipp_counts c;		/* if ran */
};

/* A program, its profile matched and checked as `ipp report` does it
 * (report_from_profile(): checksums, regions, numbers and stop stacks of
 * every record), and ipp_derive() of every unit that ran.  Invariant:
 * units[i].m == &prog.mods[i] for every i < nunits == prog.nmods. */
struct derived {
	const char *program, *profile;	/* as named on the command line */
	struct program prog;
	ipp_profile *prof;
	struct report r;
	struct unit *units;
	size_t nunits;
};

/* Opens the program and libraries of 'o' (program_load_objects: with
 * 'every_map' every unit's map is parsed, with 'renumber' every unit is
 * numbered), reads the profile, and parses and numbers the units it has
 * records of (with 'renumber_empty', every unit it holds a module of:
 * program_renumber_profile).  When the profile holds units that neither
 * the program nor the libraries named have, the program's DT_NEEDED
 * libraries that hold ipp maps are opened with them (found as the dynamic
 * linker finds them, needed.c).  Libraries loaded with dlopen() are not
 * DT_NEEDED: they must be named.
 * Returns 0, or -1 after printing the message; on failure nothing is
 * left to free. */
int cli_load(struct program *prog, ipp_profile **prof, const struct operands *o,
	     bool every_map, bool renumber, bool renumber_empty);

/* What derived_load() does besides matching, checking and deriving. */
enum {
	DL_EVERY_MAP = 1,	/* parse every unit's map */
	DL_DERIVE_EMPTY = 2,	/* number and derive units without records */
	DL_RECORDS = 4		/* rank every record in d->r */
};

/* Loads the program, its libraries and the profile named by 'o' into *d
 * and derives the counts of every unit that ran.  With DL_EVERY_MAP in
 * 'flags', every unit's map is parsed (units[i].g is its graph); else only
 * the maps of the units the profile has records of (units[i].g is NULL for
 * the others), which is all `ipp check` needs.  A unit whose profile
 * module holds no record is renumbered and derived only with
 * DL_DERIVE_EMPTY (its counts are all 0, but ipp_counts_lines and
 * ipp_counts_calls need its G*fin); else it ran, and its counts are all 0
 * with no arrays (c.vertex NULL).  The profile is checked as `ipp report`
 * checks it either way; d->r ranks every record with DL_RECORDS
 * (report_from_profile), else only the partial paths
 * (report_check_profile).  Returns 0, or -1 after printing the message
 * (cli_error); on failure *d holds nothing to free. */
int derived_load(struct derived *d, const struct operands *o, unsigned flags);
/* Frees what a successful derived_load() holds. */
void derived_free(struct derived *d);

/* (cmd_counts.c) A callee, named: a procedure of some unit (possibly not
 * in the program: then only its assembler name is known), or a function
 * the program calls directly whose unit is unknown (a library, a unit built
 * without ipp). */
struct callee {
	const char *name;	/* source name, or the assembler name */
	const char *asm_name;
	const char *module;	/* its unit; NULL if unknown */
	uint64_t checksum;	/* its unit's; 0 if unknown */
};

/* A caller/callee pair of a unit and its calls, summed over its call sites. */
struct arc {
	ipp_id caller;
	struct callee callee;
	uint64_t calls;
};

/* (cmd_counts.c) The source functions of a unit: every procedure counts
 * as origin[p] (ipp_proc_origins: an inlined copy as the function it is a
 * copy of), and a function's entries and returns, at its procedure's
 * index, are the sums over the procedures that count as it (0 elsewhere).
 * A function is listed at the procedures p with origin[p] == p that are
 * not skipped. */
struct fn_counts {
	ipp_id *origin;
	uint64_t *entries, *returns;
};
void fn_counts_init(const struct unit *u, struct fn_counts *f);
void fn_counts_free(struct fn_counts *f);

/* (cmd_counts.c) The arcs of unit i of d, as `ipp counts --calls` lists
 * them: the direct ones from its call sites (to every function a call
 * names), then the indirect ones the runtime counted (context mode), in
 * order of first appearance; names point into d.  A call from or into an
 * inlined copy is an arc of the function it is a copy of
 * (fn_counts).  Returns their number (malloc'd *out). */
size_t counts_unit_arcs(const struct derived *d, size_t i, struct arc **out);

/* (cmd_counts.c) The counts of unit i of d as keys of the mapping the
 * emitter is in: `functions`, `call_sites`, `indirect_calls`, `arcs` and
 * `vertices`, as in the counts document (docs/REPORT.md). */
void emit_unit_counts(emitter *e, const struct derived *d, size_t i);

/* (cmd_check.c) The flow-conservation check of every unit that ran
 * (ipp_check_flow), written in 'format' to 'output' (open_output()) -- docs/REPORT.md, "The
 * check document"; 'doc' is the document's first key ("ipp_check", or
 * "ipp_counts" for ipp counts --check).  Returns the exit status: 1 (and a
 * message on stderr) if flow is not conserved. */
int check_output(const struct derived *d, enum out_format format, const char *output,
		 const char *doc);

#endif
