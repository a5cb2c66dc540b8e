/* test_rt_fork.c -- fork: the child starts counting from zero (the parent
 * writes what it counted before the fork), so nothing is counted twice;
 * both are runs of their own.  With IPP_PROFILE=fork.%p.prof each writes
 * its own file; with one file the counts add up exactly.  A frame pending
 * at the fork goes on in both: the child, exiting inside it, records it as
 * a partial path; the parent completes it; and the child records its
 * prefix as a forked prefix (main, 4, [7]), which ipp subtracts, so the
 * prefix counts once.  Role "nested": three frames pending at the fork,
 * an intra one (main, 4, [7]) and a context group of two ((wide, 6,
 * [9, 11]): the outer frame's region, the inner frame's number): two
 * forked prefixes, written at exit and not by an ipp_dump() before it,
 * nor forgotten by ipp_reset(); a grandchild forked by the child records
 * its own and not its parent's.
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

/* Frames pending at the fork: see the file comment. */
static int nested(void)
{
	struct ipp_rt_frame a, b, c;
	pid_t pid;
	rtt_push(&a, &r[0], 4, 7, 0);
	rtt_push(&b, &r[1], 5, 9, 0);
	rtt_push(&c, NULL, 6, 11, IPP_FRAME_CONTINUES);
	pid = fork();
	if (pid == 0) {
		size_t len;
		char *text, name[64];
		__ipp_record(&r[0], 2);
		ipp_dump();	/* no forked prefix yet: the paths are pending */
		snprintf(name, sizeof(name), "fork.%d.prof", (int)getpid());
		text = rtt_slurp(name, &len);
		CHECK(text != NULL);
		rtt_write_bytes("dumped.prof", text, len);
		free(text);
		ipp_reset();	/* forgets counts, not the prefixes */
		c.vertex = 13 | IPP_VERTEX_INSIDE;	/* the group went on */
		pid = fork();	/* a grandchild: its own prefixes, not ours */
		if (pid == 0)
			exit(0);
		CHECK_EXIT(rtt_wait(pid), 0);
		exit(0);
	}
	CHECK_EXIT(rtt_wait(pid), 0);
	rtt_pop(&c);
	rtt_pop(&b);
	rtt_pop(&a);
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
		return strcmp(role, "nested") == 0 ? nested() : child();

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
	CHECK_U64(mm->nforked, 0);
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
	CHECK_U64(rtt_forked(mm, "main", "4", at7, 1), 1);
	CHECK_U64(mm->nforked, 1);
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
	CHECK_U64(rtt_forked(mm, "main", "4", at7, 1), 1);
	CHECK_U64(mm->runs, 2);
	ipp_profile_free(p);

	/* nested: the child's file (%p) after its exit, and after its dump */
	pid = rtt_start("nested", NULL, env1, NULL);
	CHECK_EXIT(rtt_wait(pid), 0);
	{
		static const int32_t at9_11[] = { 9, 11 }, at9_13[] = { 9, 13 };
		char kid[300] = "", grandkid[300] = "", nest[64];
		/* the nested process itself records nothing: no file */
		snprintf(nest, sizeof(nest), "fork.%d.prof", (int)pid);
		CHECK(!rtt_exists(nest));
		d = opendir(".");
		while ((e = readdir(d)) != NULL) {
			int q;
			if (sscanf(e->d_name, "fork.%d.prof", &q) != 1 || strstr(e->d_name, ".lock") ||
			    /* the first part's parent and child */
			    strcmp(e->d_name, mine) == 0 || strcmp(e->d_name, theirs) == 0 ||
			    strstr(e->d_name, ".prof."))
				continue;
			/* the child's pid is the smaller of the two new ones,
			 * unless pids wrapped: tell them by content below */
			snprintf(kid[0] ? grandkid : kid, sizeof(kid), "%s", e->d_name);
		}
		closedir(d);
		CHECK(kid[0] && grandkid[0]);
		p = rtt_read(kid);
		mm = rtt_module(p, "fork.c", "9999999999999999");
		if (rtt_forked(mm, "wide", "6", at9_13, 2)) {	/* the grandchild's */
			char t[300];
			memcpy(t, kid, sizeof(t));
			memcpy(kid, grandkid, sizeof(t));
			memcpy(grandkid, t, sizeof(t));
			ipp_profile_free(p);
			p = rtt_read(kid);
			mm = rtt_module(p, "fork.c", "9999999999999999");
		}
		/* the child: its two prefixes, once, kept across ipp_reset */
		CHECK_U64(mm->nforked, 2);
		CHECK_U64(rtt_forked(mm, "main", "4", at7, 1), 1);
		CHECK_U64(rtt_forked(mm, "wide", "6", at9_11, 2), 1);
		CHECK_U64(rtt_partial(mm, "main", "4", at7, 1), 1);
		CHECK_U64(rtt_partial(mm, "wide", "6", at9_13, 2), 1);
		ipp_profile_free(p);
		/* the grandchild: the prefixes pending at its own fork */
		p = rtt_read(grandkid);
		mm = rtt_module(p, "fork.c", "9999999999999999");
		CHECK_U64(mm->nforked, 2);
		CHECK_U64(rtt_forked(mm, "main", "4", at7, 1), 1);
		CHECK_U64(rtt_forked(mm, "wide", "6", at9_13, 2), 1);
		ipp_profile_free(p);
		/* the child's dump: its path 2, no forked prefix */
		p = rtt_read("dumped.prof");
		mm = rtt_module(p, "fork.c", "9999999999999999");
		CHECK_U64(rtt_path(mm, "main", "2"), 1);
		CHECK_U64(mm->nforked, 0);
		ipp_profile_free(p);
	}
	rtt_done();
	return 0;
}
