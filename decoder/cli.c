/* cli.c -- command-line helpers shared by the commands (cli.h).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cmd_usage_error(const char *cmd, void (*usage)(FILE *), const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n\n", stderr);
	usage(stderr);
	return EXIT_USAGE;
}

int cmd_bad_option(void (*usage)(FILE *))
{
	fputc('\n', stderr);
	usage(stderr);
	return EXIT_USAGE;
}

int parse_count(const char *s, size_t *out)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v == 0 || v > SIZE_MAX)
		return -1;
	*out = (size_t)v;
	return 0;
}

FILE *open_output(const char *path)
{
	FILE *f;

	if (path == NULL || strcmp(path, "-") == 0)
		return stdout;
	f = fopen(path, "w");
	if (f == NULL)
		cli_error("%s: %s", path, strerror(errno));
	return f;
}

int close_output(FILE *f, const char *path)
{
	int status;

	if (f == stdout)
		return finish_output(stdout, "stdout");
	status = finish_output(f, path);
	if (fclose(f) != 0 && status == EXIT_SUCCESS)
		status = cli_error("%s: %s", path, strerror(errno));
	return status;
}

ipp_profile *cli_read_profile(const char *path, const char *program)
{
	char err[1024];
	ipp_profile *p;

	if (access(path, F_OK) != 0 && errno == ENOENT) {
		cli_error("%s: no such file: run %s first to record a profile, or name the "
			  "profile", path, program);
		return NULL;
	}
	p = ipp_profile_read_file(path, err, sizeof(err));
	if (p == NULL)
		cli_error("%s", err);
	return p;
}
