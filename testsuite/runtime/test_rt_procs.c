/* test_rt_procs.c -- many processes, one profile: 8 processes started
 * together, each adding 100 to the same path in 10 writes (ipp_dump()
 * after every 10 records, then the write at exit), give exactly 800 and
 * runs = 8, in a file that parses, with no temporary file left behind.
 * Without the lock (or with a lock on the renamed file) merges would be
 * lost.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>

static struct ipp_rt_module m;
static struct ipp_rt_region r[1] = { { "main", 16, &m, 0, 0 } };
static struct ipp_rt_module m = { IPP_ABI_VERSION, 1, "procs.c", "8888888888888888", "intra", r,
				  NULL, 0, 0 };

#define NPROC 8

static int child(void)
{
	for (int k = 0; k < 10; k++) {
		for (int i = 0; i < 10; i++)
			__ipp_record(&r[0], 5);
		if (k < 9)
			ipp_dump();
	}
	return 0;	/* the last 10 are written at exit */
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_procs");
	static const char *env[] = { "IPP_PROFILE=shared.prof", NULL };
	pid_t pid[NPROC];
	ipp_profile *p;
	const ipp_prof_module *mm;
	struct dirent *e;
	DIR *d;
	int files = 0;

	if (role)
		return child();
	for (int i = 0; i < NPROC; i++)
		pid[i] = rtt_start("child", NULL, env, NULL);
	for (int i = 0; i < NPROC; i++)
		CHECK_EXIT(rtt_wait(pid[i]), 0);
	p = rtt_read("shared.prof");
	mm = rtt_module(p, "procs.c", "8888888888888888");
	CHECK_U64(rtt_path(mm, "main", "5"), NPROC * 100);	/* 8 x 10 writes x 10 */
	CHECK_U64(mm->runs, NPROC);				/* one per process */
	ipp_profile_free(p);
	/* only shared.prof and shared.prof.lock */
	d = opendir(".");
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		CHECK(strcmp(e->d_name, "shared.prof") == 0 ||
		      strcmp(e->d_name, "shared.prof.lock") == 0);
		files++;
	}
	closedir(d);
	CHECK(files == 2);
	rtt_done();
	return 0;
}
