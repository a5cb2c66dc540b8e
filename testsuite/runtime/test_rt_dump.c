/* test_rt_dump.c -- ipp_dump() writes and keeps counting from zero, so
 * dumps never count anything twice and the process is one run; a dump
 * does not record pending frames; ipp_reset() forgets counts (complete
 * and partial, array and hash); a final write with nothing new leaves the
 * file alone; ipp_set_profile() redirects later writes.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static struct ipp_rt_module m;
static struct ipp_rt_region r[2] = {
	{ "main", 8, &m, 0, 0 },
	{ "wide", 1ull << 40, &m, 0, 0 },
};
static struct ipp_rt_module m = { IPP_ABI_VERSION, 2, "dump.c", "d0d0d0d0d0d0d0d0", "intra", r,
				  NULL, 0, 0 };

static const ipp_prof_module *mod(ipp_profile *p)
{
	return rtt_module(p, "dump.c", "d0d0d0d0d0d0d0d0");
}

/* The child checks the file between its own dumps. */
static int twice(void)
{
	struct ipp_rt_frame fr;
	ipp_profile *p;
	for (int i = 0; i < 3; i++)
		__ipp_record(&r[0], 1);
	__ipp_record(&r[1], 5);
	rtt_push(&fr, &r[0], 6, 9, 0);		/* pending: a dump must not write it */
	ipp_dump();
	p = rtt_read("dump.prof");
	CHECK_U64(rtt_path(mod(p), "main", "1"), 3);
	CHECK_U64(rtt_path(mod(p), "wide", "5"), 1);
	CHECK_U64(mod(p)->npartials, 0);
	CHECK_U64(mod(p)->runs, 1);
	ipp_profile_free(p);
	for (int i = 0; i < 2; i++)
		__ipp_record(&r[0], 1);
	__ipp_record(&r[0], 2);
	ipp_dump();
	p = rtt_read("dump.prof");
	CHECK_U64(rtt_path(mod(p), "main", "1"), 5);	/* 3 + 2, not 3 + 5 */
	CHECK_U64(rtt_path(mod(p), "main", "2"), 1);
	CHECK_U64(rtt_path(mod(p), "wide", "5"), 1);
	CHECK_U64(mod(p)->runs, 1);			/* still one run */
	ipp_profile_free(p);
	ipp_dump();		/* nothing new: no change */
	rtt_pop(&fr);
	__ipp_record(&r[0], 6);		/* the pending path completes */
	for (int i = 0; i < 4; i++)
		__ipp_record(&r[0], 1);
	return 0;		/* the final write adds 4 and path 6 */
}

static int reset(void)
{
	struct ipp_rt_frame fr;
	for (int i = 0; i < 3; i++)
		__ipp_record(&r[0], 1);
	__ipp_record(&r[1], 5);
	rtt_push(&fr, &r[0], 6, 9, 0);
	__ipp_unwind_to(NULL);		/* a partial path (main, 6, [9]) */
	ipp_reset();			/* forgets all of it */
	__ipp_record(&r[0], 1);
	__ipp_record(&r[0], 1);
	__ipp_record(&r[1], 7);
	return 0;
}

static int unchanged(void)
{
	struct stat st;
	FILE *f;
	__ipp_record(&r[0], 3);
	ipp_dump();
	/* note the file's inode: the write at exit finds nothing new and
	 * must not replace the file */
	if (stat("dump.prof", &st) != 0 || !(f = fopen("ino.txt", "w")))
		return 2;
	fprintf(f, "%llu\n", (unsigned long long)st.st_ino);
	fclose(f);
	return 0;
}

static int redirect(void)
{
	__ipp_record(&r[0], 1);
	__ipp_record(&r[0], 1);
	ipp_dump();				/* dump.prof: 2 */
	if (ipp_set_profile("other.prof") != 0)
		return 2;
	for (int i = 0; i < 3; i++)
		__ipp_record(&r[0], 1);		/* other.prof: 3, at exit */
	return 0;
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_dump");
	static const char *env[] = { "IPP_PROFILE=dump.prof", NULL };
	ipp_profile *p;
	struct stat st;

	if (role) {
		if (strcmp(role, "twice") == 0)
			return twice();
		if (strcmp(role, "reset") == 0)
			return reset();
		if (strcmp(role, "unchanged") == 0)
			return unchanged();
		return redirect();
	}

	CHECK_EXIT(rtt_run("twice", NULL, env, NULL), 0);
	p = rtt_read("dump.prof");
	CHECK_U64(rtt_path(mod(p), "main", "1"), 9);	/* 3 + 2 + 4 */
	CHECK_U64(rtt_path(mod(p), "main", "2"), 1);
	CHECK_U64(rtt_path(mod(p), "main", "6"), 1);
	CHECK_U64(rtt_path(mod(p), "wide", "5"), 1);
	CHECK_U64(mod(p)->npartials, 0);
	CHECK_U64(mod(p)->runs, 1);
	ipp_profile_free(p);
	remove("dump.prof");

	CHECK_EXIT(rtt_run("reset", NULL, env, NULL), 0);
	p = rtt_read("dump.prof");
	CHECK_U64(rtt_path(mod(p), "main", "1"), 2);	/* the 3 before the reset are gone */
	CHECK_U64(rtt_path(mod(p), "wide", "5"), 0);
	CHECK_U64(rtt_path(mod(p), "wide", "7"), 1);
	CHECK_U64(mod(p)->npartials, 0);
	CHECK_U64(mod(p)->runs, 1);
	ipp_profile_free(p);
	remove("dump.prof");

	/* "writes once": the write at exit finds nothing new and does not
	 * replace the file (same inode) */
	for (int k = 0; k < 2; k++) {
		char *ino;
		CHECK_EXIT(rtt_run("unchanged", NULL, env, NULL), 0);
		CHECK(stat("dump.prof", &st) == 0);
		ino = rtt_slurp("ino.txt", NULL);
		CHECK(ino && strtoull(ino, NULL, 10) == (unsigned long long)st.st_ino);
		free(ino);
	}
	p = rtt_read("dump.prof");
	CHECK_U64(rtt_path(mod(p), "main", "3"), 2);
	CHECK_U64(mod(p)->runs, 2);
	ipp_profile_free(p);
	remove("dump.prof");

	CHECK_EXIT(rtt_run("redirect", NULL, env, NULL), 0);
	p = rtt_read("dump.prof");
	CHECK_U64(rtt_path(mod(p), "main", "1"), 2);
	CHECK_U64(mod(p)->runs, 1);
	ipp_profile_free(p);
	p = rtt_read("other.prof");
	CHECK_U64(rtt_path(mod(p), "main", "1"), 3);
	CHECK_U64(mod(p)->runs, 1);		/* a run of this file too */
	ipp_profile_free(p);
	rtt_done();
	return 0;
}
