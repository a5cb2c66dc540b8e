/* last.c -- `ipp report --last`: the flight recorder's file PROFILE.last
 * (runtime/rt_last.c writes it: each thread's last completed paths, oldest
 * first), every path decoded with the program's maps, newest last: what
 * ran just before the crash or the exit, across calls.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "cli.h"
#include "last.h"
#include "util.h"
#include "report.h"
#include "text.h"

/* One path line "NUMBER\tCHECKSUM\tREGION\tMODULE" of file 'name' (line
 * 'ln'), decoded and printed. */
static int print_path(FILE *out, struct program *prog, char *line, const char *name, long ln,
		      unsigned k)
{
	char *f[4], *save = NULL, err[1024];
	uint64_t cs;
	long mod;
	mpz_t num;
	struct report r;
	int rc = -1;

	f[0] = strtok_r(line, "\t", &save);
	f[1] = strtok_r(NULL, "\t", &save);
	f[2] = strtok_r(NULL, "\t", &save);
	f[3] = strtok_r(NULL, "", &save);	/* the module: the rest of the line */
	mpz_init(num);
	if (!f[3] || mpz_set_str(num, f[0], 10) < 0 || strlen(f[1]) != 16 ||
	    sscanf(f[1], "%" SCNx64, &cs) != 1) {
		cli_error("%s:%ld: not a path line (NUMBER, CHECKSUM, REGION, MODULE)", name, ln);
		goto out;
	}
	mod = program_find(prog, f[3], cs);
	if (mod < 0) {
		fprintf(out, "  %3u. %s path %s of module %s (checksum %s): not a unit of %s\n", k,
			f[2], f[0], f[3], f[1], prog->path);
		rc = 0;
		goto out;
	}
	if (program_renumber(prog, (size_t)mod, err, sizeof(err)) < 0 ||
	    report_single(&r, prog, (size_t)mod, f[2], num, NULL, 0, err, sizeof(err)) < 0) {
		cli_error("%s:%ld: %s", name, ln, err);
		goto out;
	}
	{
		char *text = path_compact(&prog->mods[mod], &r.shown[0]->steps);
		fprintf(out, "  %3u. %s path %s: %s\n", k, f[2], f[0], text);
		free(text);
	}
	report_free(&r);
	rc = 0;
out:
	mpz_clear(num);
	return rc;
}

int report_last(FILE *out, struct program *prog, const char *profile)
{
	size_t n = strlen(profile), cap = 0;
	char *name = xmalloc(n + sizeof(".last")), *line = NULL;
	FILE *in;
	long ln = 0;
	unsigned k = 0;
	ssize_t len;
	int status = EXIT_SUCCESS;

	memcpy(name, profile, n);
	memcpy(name + n, ".last", sizeof(".last"));
	in = fopen(name, "r");
	if (!in) {
		cli_error("cannot read %s: %s (run a program built with -fplugin-arg-ipp-last; "
			  "the last paths are written at exit and at a crash)", name,
			  strerror(errno));
		free(name);
		return EXIT_FAILURE;
	}
	fprintf(out, "The last paths of each thread, oldest first (%s):\n", name);
	while ((len = getline(&line, &cap, in)) > 0) {
		ln++;
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (ln == 1) {
			if (strcmp(line, "ipp-last 1") != 0) {
				cli_error("%s:1: not a file of last paths (expected 'ipp-last 1')", name);
				status = EXIT_FAILURE;
				break;
			}
		} else if (strncmp(line, "thread\t", 7) == 0) {
			bool cur = strstr(line + 7, "\tcurrent") != NULL;
			fprintf(out, "thread %ld%s:\n", strtol(line + 7, NULL, 10),
				cur ? " (the thread that crashed or exited)" : "");
			k = 0;
		} else if (print_path(out, prog, line, name, ln, ++k) < 0) {
			status = EXIT_FAILURE;
			break;
		}
	}
	if (ln == 0) {
		cli_error("%s: empty", name);
		status = EXIT_FAILURE;
	}
	free(line);
	fclose(in);
	free(name);
	return status;
}
