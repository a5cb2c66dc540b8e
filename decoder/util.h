/* util.h -- small helpers shared by the files of the ipp tool: the core's
 * allocation under short names, and the tool's error and warning
 * messages ("ipp: <file>: <what>" on stderr).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_DECODER_UTIL_H
#define IPP_DECODER_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ipp_alloc.h"

/* Exit statuses of every command. */
#define EXIT_USAGE 2		/* unknown option, missing or extra argument */

/* Allocation and growable arrays are the core's (ipp_alloc.h: on failure,
 * "ipp: out of memory" and exit(1)), under short names. */
#define xmalloc ipp_xmalloc
#define xcalloc ipp_xcalloc
#define xrealloc ipp_xrealloc
#define xstrdup ipp_xstrdup
#define GROW IPP_ARRAY_GROW

/* snprintf into err[errlen], the convention of the core's messages. */
void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "ipp: <message>\n" on stderr.  The message usually starts with the file
 * it is about.  cli_error() returns EXIT_FAILURE for 'return cli_error(...)'. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* cli_warning() prints nothing when cli_quiet is set (ipp --quiet). */
extern bool cli_quiet;
void cli_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Flushes stdout (or the output file) and reports a write error. */
int finish_output(FILE *out, const char *name);

#endif
