/* cli.h -- what the commands of the ipp tool share: their entry points
 * (one file each: demo.c, cmd_report.c, cmd_decode.c, cmd_map.c,
 * cmd_counts.c; ipp.c dispatches) and the helpers for their command lines.
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

#include "ipp_format.h"
#include "util.h"

int cmd_demo(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_map(int argc, char **argv);
int cmd_counts(int argc, char **argv);

/* Prints "ipp CMD: <message>", a blank line and the usage on stderr;
 * returns EXIT_USAGE.  'cmd' is the command's argv[0]. */
int cmd_usage_error(const char *cmd, void (*usage)(FILE *), const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* For getopt's '?' (it printed the message itself): the usage on stderr. */
int cmd_bad_option(void (*usage)(FILE *));

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

#endif
