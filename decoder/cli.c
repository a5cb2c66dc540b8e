/* cli.c -- command-line helpers shared by the commands, and the counts
 * derived from a program and its profile (cli.h).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "cli.h"

#include <errno.h>
#include <getopt.h>
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

int cli_common_option(int c, const char *cmd, void (*usage)(FILE *), enum out_format *format,
		      const char **output)
{
	switch (c) {
	case 'f':
		if (format == NULL)
			break;
		if (parse_format(optarg, format) < 0)
			return cmd_usage_error(cmd, usage, "--format: unknown format '%s' (text, "
					       "yaml or json)", optarg);
		return CLI_CONTINUE;
	case 'o':
		if (output == NULL)
			break;
		*output = optarg;
		return CLI_CONTINUE;
	case 'h':
		usage(stdout);
		return finish_output(stdout, "stdout");
	}
	return cmd_bad_option(usage);
}

const char *cli_default_profile(const char *program)
{
	static char name[4096];
	char *real = realpath(program, NULL);
	const char *base = real ? real : program, *slash = strrchr(base, '/');
	snprintf(name, sizeof(name), "%s.ipp.prof", slash ? slash + 1 : base);
	free(real);
	return name;
}

int cli_program_profile(int argc, char **argv, const char *cmd, void (*usage)(FILE *),
			const char **program, const char **profile)
{
	if (optind >= argc)
		return cmd_usage_error(cmd, usage, "no PROGRAM given");
	*program = argv[optind++];
	*profile = cli_default_profile(*program);
	if (optind < argc)
		*profile = argv[optind++];
	if (optind < argc)
		return cmd_usage_error(cmd, usage, "unexpected argument '%s'", argv[optind]);
	return CLI_CONTINUE;
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

int derived_load(struct derived *d, const char *program, const char *profile)
{
	char err[1024];

	memset(d, 0, sizeof(*d));
	d->program = program;
	d->profile = profile;
	if (program_load(&d->prog, program, false, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		return -1;
	}
	d->prof = cli_read_profile(profile, program);
	if (d->prof == NULL)
		goto fail_prog;
	if (program_renumber_profile(&d->prog, d->prof, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		goto fail_prof;
	}
	/* Match and check the profile as `ipp report` does (no path shown). */
	if (report_from_profile(&d->r, &d->prog, d->prof, profile, 0, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		goto fail_prof;
	}
	d->units = xcalloc(d->prog.nmods ? d->prog.nmods : 1, sizeof(d->units[0]));
	for (; d->nunits < d->prog.nmods; d->nunits++) {
		struct unit *u = &d->units[d->nunits];
		const ipp_prof_module *pm = d->r.mods[d->nunits].pm;

		u->m = &d->prog.mods[d->nunits];
		u->g = u->m->map->graph;	/* fin is NULL if the unit never ran */
		if (pm == NULL)
			continue;
		if (ipp_derive(u->m->fin, pm, &u->c, err, sizeof(err)) < 0) {
			cli_error("%s: %s: %s", profile, u->m->map->module, err);
			derived_free(d);
			return -1;
		}
		u->ran = true;
		u->runs = pm->runs;
	}
	return 0;

fail_prof:
	ipp_profile_free(d->prof);
fail_prog:
	program_free(&d->prog);
	memset(d, 0, sizeof(*d));
	return -1;
}

void derived_free(struct derived *d)
{
	for (size_t i = 0; i < d->nunits; i++)
		if (d->units[i].ran)
			ipp_counts_free(&d->units[i].c);
	free(d->units);
	report_free(&d->r);
	ipp_profile_free(d->prof);
	program_free(&d->prog);
	memset(d, 0, sizeof(*d));
}
