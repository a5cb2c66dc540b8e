/* test_rt_rows.c -- two-level counting (runtime/rt_rows.c, ipp_abi.h
 * __ipp_row): rows keyed by (region, procedure, base, nvc), counted inline
 * by the caller, turned back into path numbers when the profile is
 * written.
 *
 * Procedure Q (descriptor dq) has n = 4 local paths with the tables
 *   a = {0, 1, 2, 0},  b = {3, 5, 7, 0}:
 * local path l of an activation entered with (base, nvc) is path
 * base + a[l] * nvc + b[l] of region R (10^6 paths).  Local path 3 ends at
 * a call: never counted.
 *
 * One "activation" act(base, nvc, k) counts local path 0 once, local path
 * 1 k times and local path 2 once, as the plugin's code does: the first
 * record through __ipp_row (which counts it and returns the row), the
 * others inline.  Then a record of a path that started at a return site
 * (idx 7 >= n) goes through __ipp_row to __ipp_record with its own number.
 *
 * Role "basic": act(100, 1, 3); act(100, 1, 2); act(1000, 10, 1) and the
 * return-site record of path 555555.  Rows (R, dq, 100, 1) and (R, dq,
 * 1000, 10).  Paths: 103 (l 0) 2, 106 (l 1) 3+2 = 5, 109 (l 2) 2;
 * 1003 1, 1015 1, 1027 1; 555555 1.
 * Role "threads": act(100, 1, 3) in main and in 3 threads: 103 and 109
 *   4 each, 106 12 (one row per thread, summed).
 * Role "reset": act(100, 1, 3), ipp_reset(), act(100, 1, 2): 103 1, 106 2,
 *   109 1.
 * Role "fork": act(100, 1, 1); fork; the child (its own profile) acts
 *   (100, 1, 2): 103 1, 106 2, 109 1 in the child; the parent acts
 *   (100, 1, 1) once more: 103 2, 106 2, 109 2.
 * Role "budget": IPP_ROW_BYTES=1 leaves no room for rows: every record
 *   goes through __ipp_row to __ipp_record, which counts the number the
 *   runtime computes from the tables: the same counts as "basic".
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct ipp_rt_module m;
static struct ipp_rt_region r[1] = { { "R", 1000000, &m, 0, 0 } };
static struct ipp_rt_module m = { IPP_ABI_VERSION, 1, "rows.c", "00000000000000ee", "context",
				  r, NULL, 0, 0 };
static const uint64_t qa[4] = { 0, 1, 2, 0 }, qb[4] = { 3, 5, 7, 0 };
static const struct ipp_rt_rows dq = { 4, qa, qb };

/* One record of local path l, as the plugin emits it. */
static void rec(uint64_t **row, uint64_t base, uint64_t nvc, uint64_t l)
{
	if (*row)
		(*row)[l]++;
	else
		*row = __ipp_row(&r[0], &dq, base, nvc, l, 0);
}

static __attribute__((noinline)) void act(uint64_t base, uint64_t nvc, int k)
{
	uint64_t *row = NULL;
	rec(&row, base, nvc, 0);
	for (int i = 0; i < k; i++)
		rec(&row, base, nvc, 1);
	rec(&row, base, nvc, 2);
}

static void *thread_main(void *arg)
{
	(void)arg;
	act(100, 1, 3);
	return NULL;
}

static int role_main(const char *role)
{
	if (strcmp(role, "basic") == 0 || strcmp(role, "budget") == 0) {
		uint64_t *row;
		act(100, 1, 3);
		act(100, 1, 2);
		act(1000, 10, 1);
		/* a path that started at a return site: counted by number */
		row = __ipp_row(&r[0], &dq, 100, 1, 7, 555555);
		if (strcmp(role, "basic") == 0)
			CHECK(row != NULL);
		else
			CHECK(row == NULL);
	} else if (strcmp(role, "threads") == 0) {
		pthread_t t[3];
		act(100, 1, 3);
		for (int i = 0; i < 3; i++)
			CHECK(pthread_create(&t[i], NULL, thread_main, NULL) == 0);
		for (int i = 0; i < 3; i++)
			CHECK(pthread_join(t[i], NULL) == 0);
	} else if (strcmp(role, "reset") == 0) {
		act(100, 1, 3);
		ipp_reset();
		act(100, 1, 2);
	} else if (strcmp(role, "fork") == 0) {
		pid_t pid;
		act(100, 1, 1);
		pid = fork();
		if (pid == 0) {
			ipp_set_profile("child.prof");
			act(100, 1, 2);
			exit(0);
		}
		CHECK_EXIT(rtt_wait(pid), 0);
		act(100, 1, 1);
	}
	return 0;
}

struct want {
	const char *num;
	uint64_t count;
};

static void check_paths(const char *path, const struct want *w, size_t n)
{
	ipp_profile *p = rtt_read(path);
	const ipp_prof_module *mm = rtt_module(p, "rows.c", "00000000000000ee");
	for (size_t i = 0; i < n; i++)
		CHECK_U64(rtt_path(mm, "R", w[i].num), w[i].count);
	CHECK_U64(mm->npaths, n);
	ipp_profile_free(p);
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_rows");
	static const char *env[] = { "IPP_PROFILE=rows.prof", NULL };
	static const char *env_budget[] = { "IPP_PROFILE=rows.prof", "IPP_ROW_BYTES=1", NULL };
	static const struct want basic[] = { { "103", 2 }, { "106", 5 }, { "109", 2 },
					     { "1003", 1 }, { "1015", 1 }, { "1027", 1 },
					     { "555555", 1 } };
	static const struct want threads[] = { { "103", 4 }, { "106", 12 }, { "109", 4 } };
	static const struct want reset[] = { { "103", 1 }, { "106", 2 }, { "109", 1 } };
	static const struct want parent[] = { { "103", 2 }, { "106", 2 }, { "109", 2 } };

	if (role)
		return role_main(role);

	CHECK_EXIT(rtt_run("basic", NULL, env, NULL), 0);
	check_paths("rows.prof", basic, 7);
	remove("rows.prof");

	CHECK_EXIT(rtt_run("threads", NULL, env, NULL), 0);
	check_paths("rows.prof", threads, 3);
	remove("rows.prof");

	CHECK_EXIT(rtt_run("reset", NULL, env, NULL), 0);
	check_paths("rows.prof", reset, 3);
	remove("rows.prof");

	CHECK_EXIT(rtt_run("fork", NULL, env, NULL), 0);
	check_paths("rows.prof", parent, 3);
	check_paths("child.prof", reset, 3);	/* the child: 1, 2, 1 too */
	remove("rows.prof");
	remove("child.prof");

	CHECK_EXIT(rtt_run("budget", NULL, env_budget, NULL), 0);
	check_paths("rows.prof", basic, 7);
	rtt_done();
	return 0;
}
