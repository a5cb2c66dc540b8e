/* cmd_merge.c -- `ipp merge OUT IN...`: the sum of several profiles.
 *
 * Profiles are read and summed only through the core (ipp_profile_read_file,
 * ipp_profile_merge, ipp_profile_write: docs/FORMAT.md section 3.3): runs
 * and counts of records with the same key add, saturating at 2^64 - 1 as
 * the runtime's do.  The sum is commutative and associative: records are
 * written in the core's canonical order and modules are sorted by (name,
 * checksum) before writing, so any order and any grouping of the same
 * inputs give the same bytes (a fleet's profiles reduce in any order).
 *
 * Profiles of different builds of one unit (the same module name with
 * another checksum, or the same module in another mode) cannot be summed:
 * the first input that holds such a module is refused, naming it and the
 * input the other build came from; with --keep-going it is skipped (so are
 * unreadable inputs) and the others are merged.
 *
 * OUT is written to a temporary file in its directory and renamed over
 * OUT, after every input was read: OUT may be one of the inputs.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static void merge_usage(FILE *f)
{
	fputs("Usage: ipp merge [OPTIONS] OUT IN...\n"
	      "\n"
	      "Writes to OUT the sum of the profiles IN...: the runs and the counts of\n"
	      "every path, partial path and indirect call add up, saturating at\n"
	      "2^64-1 as the runtime's counters do.  The profiles may come from several\n"
	      "runs of one program (IPP_PROFILE=run.%p.prof) or from several programs;\n"
	      "each unit must have been recorded from one build.  The sum is\n"
	      "commutative and associative: the same inputs in any order, merged in\n"
	      "one step or in several, give the same OUT, byte for byte.\n"
	      "\n"
	      "A profile holding a unit that an earlier input holds from another build\n"
	      "(another checksum, or another mode) is refused, naming both files.\n"
	      "OUT is written only when every input was read and summed; it may be one\n"
	      "of the inputs.\n"
	      "\n"
	      "Options:\n"
	      "  -k, --keep-going  skip the inputs that cannot be merged (another build,\n"
	      "                    unreadable), with a message each, and merge the rest\n"
	      "  -h, --help        show this help and exit\n"
	      "\n"
	      "Exit status: 0 when every input was merged, 1 on an error (or, with\n"
	      "--keep-going, when some input was skipped: OUT then holds the others),\n"
	      "2 on a usage error.\n"
	      "\n"
	      "Examples:\n"
	      "  ipp merge all.prof run.*.prof\n"
	      "  ipp merge --keep-going fleet.prof host1.prof host2.prof host3.prof\n",
	      f);
}

/* Which input each (module, checksum) of the sum came from first, to name
 * it when another input holds another build of the module. */
struct origin {
	const char *module;	/* borrowed from the sum */
	uint64_t checksum;
	const char *file;
};

struct sum {
	ipp_profile *prof;
	struct origin *orig;
	size_t norig, cap;
};

/* The input that brought module 'name' into the sum with another checksum
 * or mode than 'm' has; NULL if none (then m merges). */
static const struct origin *conflict(const struct sum *s, const ipp_prof_module *m)
{
	for (size_t i = 0; i < s->norig; i++) {
		const struct origin *o = &s->orig[i];
		const ipp_prof_module *d;

		if (strcmp(o->module, m->module) != 0)
			continue;
		if (o->checksum != m->checksum)
			return o;
		d = ipp_profile_find(s->prof, o->module, o->checksum);
		if (d != NULL && d->mode != m->mode)
			return o;
	}
	return NULL;
}

/* Adds profile 'p' read from 'file' to the sum.  Returns 0, or -1 after the
 * message (an error, or a warning when keep_going: p is then left out). */
static int add_profile(struct sum *s, const ipp_profile *p, const char *file, bool keep_going)
{
	char err[1024];

	for (size_t i = 0; i < p->nmodules; i++) {
		const ipp_prof_module *m = p->modules[i];
		const struct origin *o = conflict(s, m);
		const ipp_prof_module *d;
		char have[17], got[17];

		if (o == NULL)
			continue;
		d = ipp_profile_find(s->prof, o->module, o->checksum);
		ipp_hex64(o->checksum, have);
		ipp_hex64(m->checksum, got);
		if (o->checksum != m->checksum)
			snprintf(err, sizeof(err), "%s: holds %s from another build than %s "
				 "(checksum %s in %s, %s in %s)", file, m->module, o->file, got,
				 file, have, o->file);
		else
			snprintf(err, sizeof(err), "%s: holds %s (checksum %s) recorded in %s "
				 "mode, %s in %s mode", file, m->module, got,
				 ipp_mode_name(m->mode), o->file, ipp_mode_name(d->mode));
		if (keep_going)
			cli_warning("%s; skipped", err);
		else
			cli_error("%s", err);
		return -1;
	}
	if (ipp_profile_merge(s->prof, p, err, sizeof(err)) < 0) {
		/* conflict() checks what the core refuses; kept as a safety net */
		cli_error("%s: %s", file, err);
		return -1;
	}
	for (size_t i = 0; i < p->nmodules; i++) {
		const ipp_prof_module *m = p->modules[i];
		bool known = false;

		for (size_t k = 0; k < s->norig && !known; k++)
			known = s->orig[k].checksum == m->checksum &&
				strcmp(s->orig[k].module, m->module) == 0;
		if (known)
			continue;
		GROW(s->orig, s->norig, s->cap);
		s->orig[s->norig].module = ipp_profile_find(s->prof, m->module,
							    m->checksum)->module;
		s->orig[s->norig].checksum = m->checksum;
		s->orig[s->norig].file = file;
		s->norig++;
	}
	return 0;
}

static int module_cmp(const void *x, const void *y)
{
	const ipp_prof_module *a = *(ipp_prof_module *const *)x;
	const ipp_prof_module *b = *(ipp_prof_module *const *)y;
	int c = strcmp(a->module, b->module);

	if (c != 0)
		return c;
	return a->checksum < b->checksum ? -1 : a->checksum > b->checksum;
}

/* Writes p to 'path' through a temporary file renamed over it. */
static int write_profile(const ipp_profile *p, const char *path)
{
	size_t len = strlen(path);
	char *tmp = xmalloc(len + sizeof(".XXXXXX"));
	char err[1024];
	struct stat st;
	FILE *f;
	int fd;

	memcpy(tmp, path, len);
	memcpy(tmp + len, ".XXXXXX", sizeof(".XXXXXX"));
	fd = mkstemp(tmp);
	if (fd < 0) {
		cli_error("%s: cannot create a temporary file: %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	/* mkstemp creates 0600; a profile is as readable as any other file */
	if (stat(path, &st) == 0)
		(void)fchmod(fd, st.st_mode & 07777);
	else {
		mode_t mask = umask(0);
		umask(mask);
		(void)fchmod(fd, 0666 & ~mask);
	}
	f = fdopen(fd, "w");
	if (f == NULL) {
		cli_error("%s: %s", tmp, strerror(errno));
		close(fd);
		goto fail;
	}
	if (ipp_profile_write(f, p, err, sizeof(err)) < 0) {
		cli_error("%s: %s", tmp, err);
		fclose(f);
		goto fail;
	}
	if (fclose(f) != 0) {
		cli_error("%s: %s", tmp, strerror(errno));
		goto fail;
	}
	if (rename(tmp, path) != 0) {
		cli_error("%s: cannot rename %s over it: %s", path, tmp, strerror(errno));
		goto fail;
	}
	free(tmp);
	return 0;
fail:
	unlink(tmp);
	free(tmp);
	return -1;
}

int cmd_merge(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "keep-going", no_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd = argv[0], *out;
	bool keep_going = false;
	struct sum s = { 0 };
	size_t skipped = 0;
	int c, status;

	while ((c = getopt_long(argc, argv, "kh", longopts, NULL)) != -1) {
		if (c == 'k') {
			keep_going = true;
			continue;
		}
		status = cli_common_option(c, cmd, merge_usage, NULL, NULL);
		if (status != CLI_CONTINUE)
			return status;
	}
	if (optind >= argc)
		return cmd_usage_error(cmd, merge_usage, "no OUT given");
	if (optind + 1 >= argc)
		return cmd_usage_error(cmd, merge_usage, "no IN given: name the profiles to "
				       "merge");
	out = argv[optind++];

	s.prof = ipp_profile_new();
	for (int i = optind; i < argc; i++) {
		char err[1024];
		ipp_profile *p = ipp_profile_read_file(argv[i], err, sizeof(err));
		int rc;

		if (p == NULL) {
			if (!keep_going) {
				cli_error("%s", err);
				goto fail;
			}
			cli_warning("%s; skipped", err);
			skipped++;
			continue;
		}
		rc = add_profile(&s, p, argv[i], keep_going);
		ipp_profile_free(p);
		if (rc < 0) {
			if (!keep_going)
				goto fail;
			skipped++;
		}
	}
	qsort(s.prof->modules, s.prof->nmodules, sizeof(s.prof->modules[0]), module_cmp);
	ipp_profile_trim(s.prof);	/* nothing more is added: room for sorting */
	if (write_profile(s.prof, out) < 0)
		goto fail;
	status = skipped ? EXIT_FAILURE : EXIT_SUCCESS;
	if (skipped)
		cli_warning("%s: %zu of %d inputs skipped", out, skipped, argc - optind);
	free(s.orig);
	ipp_profile_free(s.prof);
	return status;
fail:
	free(s.orig);
	ipp_profile_free(s.prof);
	return EXIT_FAILURE;
}
