/* cli.c -- command-line helpers shared by the commands, and the counts
 * derived from a program and its profile (cli.h).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "cli.h"
#include "elfsec.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

int cli_operands(int argc, char **argv, const char *cmd, void (*usage)(FILE *),
		 struct operands *o)
{
	memset(o, 0, sizeof(*o));
	if (optind >= argc)
		return cmd_usage_error(cmd, usage, "no PROGRAM given");
	o->objects = xmalloc((size_t)(argc - optind) * sizeof(o->objects[0]));
	o->program = o->objects[o->nobjects++] = argv[optind++];
	o->profile = cli_default_profile(o->program);
	while (optind < argc && program_is_elf(argv[optind]))
		o->objects[o->nobjects++] = argv[optind++];
	if (optind < argc) {
		o->profile = argv[optind++];
		o->profile_given = true;
	}
	if (optind < argc) {
		cli_operands_free(o);
		return cmd_usage_error(cmd, usage, "unexpected argument '%s' (libraries come "
				       "before the profile)", argv[optind]);
	}
	return CLI_CONTINUE;
}

void cli_operands_free(struct operands *o)
{
	free(o->objects);
	memset(o, 0, sizeof(*o));
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

/* Does the profile hold a unit whose name the program has not? */
static bool profile_has_other_units(const struct program *prog, const ipp_profile *prof)
{
	for (size_t k = 0; k < prof->nmodules; k++) {
		bool found = false;
		for (size_t i = 0; i < prog->nmods && !found; i++)
			found = strcmp(prog->mods[i].name, prof->modules[k]->module) == 0;
		if (!found)
			return true;
	}
	return false;
}

/* Is 'path' the same file as one of paths[0..n-1]? */
static bool same_file_in(const char *path, const char *const *paths, size_t n)
{
	struct stat a, b;

	if (stat(path, &a) != 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (stat(paths[i], &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			return true;
	return false;
}

/* Reopens *prog with, besides the objects of 'o', the DT_NEEDED libraries
 * of o->program that hold ipp maps, if there are any.  Returns 0 (*prog
 * as it was if none), or -1. */
static int add_needed_libraries(struct program *prog, const struct operands *o, bool every_map,
				char *err, size_t errlen)
{
	char **libs;
	size_t nlibs, n;
	const char **objects;
	int rc = 0;

	if (elfsec_needed_libraries(o->program, &libs, &nlibs) < 0 || nlibs == 0)
		return 0;
	objects = xmalloc((o->nobjects + nlibs) * sizeof(objects[0]));
	memcpy(objects, o->objects, o->nobjects * sizeof(objects[0]));
	n = o->nobjects;
	for (size_t i = 0; i < nlibs; i++) {
		struct elfsec_chunk *chunks;
		size_t nchunks;
		char ignored[256];
		if (same_file_in(libs[i], objects, n))
			continue;
		if (elfsec_read(libs[i], IPP_MAP_SECTION, &chunks, &nchunks, ignored,
				sizeof(ignored)) == 0 && nchunks > 0)
			objects[n++] = libs[i];
		elfsec_free(chunks, nchunks);
	}
	if (n > o->nobjects) {
		program_free(prog);
		rc = program_load_objects(prog, objects, n, every_map, false, err, errlen);
	}
	free(objects);
	for (size_t i = 0; i < nlibs; i++)
		free(libs[i]);
	free(libs);
	return rc;
}

int cli_load(struct program *prog, ipp_profile **prof, const struct operands *o,
	     bool every_map, bool renumber, bool renumber_empty)
{
	char err[1024];

	*prof = NULL;
	if (program_load_objects(prog, o->objects, o->nobjects, every_map, renumber, err,
				 sizeof(err)) < 0) {
		cli_error("%s", err);
		return -1;
	}
	*prof = cli_read_profile(o->profile, o->program);
	if (*prof == NULL)
		goto fail;
	if (profile_has_other_units(prog, *prof) &&
	    (add_needed_libraries(prog, o, every_map, err, sizeof(err)) < 0 ||
	     (renumber && program_renumber_all(prog, err, sizeof(err)) < 0))) {
		cli_error("%s", err);
		goto fail;
	}
	if (program_renumber_profile(prog, *prof, renumber_empty, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		goto fail;
	}
	return 0;
fail:
	ipp_profile_free(*prof);
	*prof = NULL;
	program_free(prog);
	return -1;
}

int derived_load(struct derived *d, const struct operands *o, unsigned flags)
{
	char err[1024];

	memset(d, 0, sizeof(*d));
	d->program = o->program;
	d->profile = o->profile;
	if (cli_load(&d->prog, &d->prof, o, flags & DL_EVERY_MAP, false,
		     flags & DL_DERIVE_EMPTY) < 0)
		return -1;
	/* Match and check the profile as `ipp report` does (no path shown). */
	if ((flags & DL_RECORDS ?
	     report_from_profile(&d->r, &d->prog, d->prof, o->profile, 0, err, sizeof(err)) :
	     report_check_profile(&d->r, &d->prog, d->prof, o->profile, err, sizeof(err))) < 0) {
		cli_error("%s", err);
		goto fail_prof;
	}
	d->units = xcalloc(d->prog.nmods ? d->prog.nmods : 1, sizeof(d->units[0]));
	for (; d->nunits < d->prog.nmods; d->nunits++) {
		struct unit *u = &d->units[d->nunits];
		const ipp_prof_module *pm = d->r.mods[d->nunits].pm;

		u->m = &d->prog.mods[d->nunits];
		/* fin is NULL if the unit never ran, map if not parsed */
		u->g = u->m->map != NULL ? u->m->map->graph : NULL;
		if (pm == NULL)
			continue;
		/* not renumbered: pm holds no record (program_renumber_profile),
		 * every count is 0 */
		if (u->m->fin != NULL && ipp_derive(u->m->fin, pm, &u->c, err, sizeof(err)) < 0) {
			cli_error("%s: %s: %s", o->profile, u->m->name, err);
			derived_free(d);
			return -1;
		}
		u->ran = true;
		u->runs = pm->runs;
	}
	return 0;

fail_prof:
	ipp_profile_free(d->prof);
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
