/* test_rt_fork.c -- fork: the child starts counting from zero (the parent
 * writes what it counted before the fork), so nothing is counted twice;
 * both are runs of their own.  With IPP_PROFILE=fork.%p.prof each writes
 * its own file; with one file the counts add up exactly.  A frame pending
 * at the fork belongs to both: the child, exiting inside it, records it as
 * a partial path; the parent completes it.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct ipp_rt_module m;
static struct ipp_rt_region r[2] = {
	{ "main", 16, &m, 0, 0 },
	{ "wide", 1ull << 40, &m, 0, 0 },
};
static struct ipp_rt_module m = { IPP_ABI_VERSION, 2, "fork.c", "9999999999999999", "intra", r,
				  NULL, 0, 0 };

static int child(void)
{
	struct ipp_rt_frame f;
	pid_t pid;
	for (int i = 0; i < 10; i++)
		__ipp_record(&r[0], 1);
	__ipp_record(&r[1], 1ull << 39);
	rtt_push(&f, &r[0], 4, 7, 0);	/* main stands at vertex 7, path 4 so far */
	pid = fork();
	if (pid == 0) {
		for (int i = 0; i < 3; i++)
			__ipp_record(&r[0], 2);
		exit(0);	/* inside f: a partial path (main, 4, [7]) */
	}
	CHECK_EXIT(rtt_wait(pid), 0);
	rtt_pop(&f);
	__ipp_record(&r[0], 4);		/* the parent completes the path */
	__ipp_record(&r[0], 1);
	return 0;
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_fork");
	static const char *env1[] = { "IPP_PROFILE=fork.%p.prof", NULL };
	static const char *env2[] = { "IPP_PROFILE=shared.prof", NULL };
	static const int32_t at7[] = { 7 };
	char mine[64], theirs[300] = "";
	pid_t pid;
	ipp_profile *p;
	const ipp_prof_module *mm;
	struct dirent *e;
	DIR *d;

	if (role)
		return child();

	pid = rtt_start("child", NULL, env1, NULL);
	CHECK_EXIT(rtt_wait(pid), 0);
	snprintf(mine, sizeof(mine), "fork.%d.prof", (int)pid);
	d = opendir(".");
	while ((e = readdir(d)) != NULL)
		if (strncmp(e->d_name, "fork.", 5) == 0 && strcmp(e->d_name, mine) != 0 &&
		    !strstr(e->d_name, ".lock"))
			snprintf(theirs, sizeof(theirs), "%s", e->d_name);
	closedir(d);
	CHECK(theirs[0]);

	/* the parent: 10 + 1 of path 1, the completed path 4, no partial */
	p = rtt_read(mine);
	mm = rtt_module(p, "fork.c", "9999999999999999");
	CHECK_U64(rtt_path(mm, "main", "1"), 11);
	CHECK_U64(rtt_path(mm, "main", "2"), 0);
	CHECK_U64(rtt_path(mm, "main", "4"), 1);
	CHECK_U64(rtt_path(mm, "wide", "549755813888"), 1);	/* 2^39 */
	CHECK_U64(mm->npartials, 0);
	CHECK_U64(mm->runs, 1);
	ipp_profile_free(p);

	/* the child: 3 of path 2 only -- not the parent's 10 of path 1 nor
	 * its hash path -- and the pending frame as a partial path */
	p = rtt_read(theirs);
	mm = rtt_module(p, "fork.c", "9999999999999999");
	CHECK_U64(rtt_path(mm, "main", "1"), 0);
	CHECK_U64(rtt_path(mm, "main", "2"), 3);
	CHECK_U64(rtt_path(mm, "wide", "549755813888"), 0);
	CHECK_U64(rtt_partial(mm, "main", "4", at7, 1), 1);
	CHECK_U64(mm->runs, 1);
	ipp_profile_free(p);

	/* one file: 11 + 0, 0 + 3, runs 2 */
	CHECK_EXIT(rtt_run("child", NULL, env2, NULL), 0);
	p = rtt_read("shared.prof");
	mm = rtt_module(p, "fork.c", "9999999999999999");
	CHECK_U64(rtt_path(mm, "main", "1"), 11);
	CHECK_U64(rtt_path(mm, "main", "2"), 3);
	CHECK_U64(rtt_path(mm, "wide", "549755813888"), 1);
	CHECK_U64(rtt_partial(mm, "main", "4", at7, 1), 1);
	CHECK_U64(mm->runs, 2);
	ipp_profile_free(p);
	rtt_done();
	return 0;
}
