/* util.c -- error messages and output checks for the ipp tool.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

int cli_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("ipp: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_FAILURE;
}

bool cli_quiet;

void cli_warning(const char *fmt, ...)
{
	va_list ap;

	if (cli_quiet)
		return;
	fflush(stdout);
	fputs("ipp: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int finish_output(FILE *out, const char *name)
{
	if (fflush(out) != 0 || ferror(out))
		return cli_error("%s: write error: %s", name, strerror(errno));
	return EXIT_SUCCESS;
}
