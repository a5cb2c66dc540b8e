/* test_rt_inline.c -- inline counting in array regions (__ipp_counts,
 * ipp_abi.h): a function asks once per activation for the thread's
 * counters of its region and increments counts[n] itself.
 *
 * Per activation of F (region "F", 10 paths): paths 3, 3, 7 (a loop), so
 * after A activations path 3 counts 2A and path 7 counts A.  The roles:
 *   "threads": 5 activations in main, 4 in each of 3 threads: A = 17
 *              (each thread gets an array of its own, all summed);
 *   "reset":   3 activations, ipp_reset(), 2 more: A = 2 (the counts
 *              before the reset are not written; the array did not move);
 *   "fork":    2 activations, fork; the child (its own profile) makes 1:
 *              it starts from zero, A = 1; the parent 2 more: A = 4;
 *   "mixed":   __ipp_record and inline counts of one region add up: 2
 *              activations and __ipp_record(F, 3) twice: path 3 counts 6;
 *   "global":  region "G" (5 paths) has the unit's static counters
 *              (gcounts): what the plugin's code counts there while the
 *              process is single-threaded, 3 on path 1 and 2 on path 4,
 *              adds to what goes through the runtime, path 1 once by
 *              __ipp_record and once in the thread's array: path 1 5,
 *              path 4 2.  Then a fork: the child (its own profile) starts
 *              from zero in the static counters too, counts path 4 once;
 *              and ipp_reset() in the parent, then path 1 once: the
 *              parent's profile has path 1 1 (the reset dropped the rest).
 *   "big":     a region of 2^40 paths is never counted inline; asking
 *              for its counters gives a scratch array (not NULL), and
 *              nothing of it is written (the unit never registers: no
 *              profile at all).
 *   "unit":    a unit's counters are one array, in every thread too: a
 *              function of region U1 (4 paths) with an inlined copy of
 *              region U3 (6 paths; U2 between them is a hash region)
 *              takes its counters once and the copy's at the distance of
 *              U3's gcounts from U1's (+4), as the plugin's code does;
 *              which must be U3's own (__ipp_counts; checked at the
 *              end, not before: asking for U3's would give it a table).
 *              Each thread first records U1's path 1 through the runtime
 *              (__ipp_record: U1's table alone, in the thread's block of
 *              the unit; the runtime must still give U3 a table before
 *              it hands U1's counters to inline code), then runs U: 2
 *              activations in main, 3 in each of 3 threads: U1 path 1
 *              counts 4, path 2 11, U3 path 5 11.
 *   "unit-bad": a unit whose counters are not one array in region order
 *              is not registered (a warning); asking for its counters
 *              gives its own static ones, which nothing reads: no
 *              profile.
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
static uint64_t gcounts[5];
static struct ipp_rt_region r[3] = {
	{ "F", 10, &m, 0, 0, NULL },
	{ "big#g", 1ull << 40, &m, 0, 0, NULL },
	{ "G", 5, &m, 0, 0, gcounts },
};
static struct ipp_rt_module m = { IPP_ABI_VERSION, 3, "inline.c", "00000000000000dd", "intra",
				  r, NULL, 0, 0 };

static struct ipp_rt_module mu;
static uint64_t ugcounts[4 + 6];
static struct ipp_rt_region ru[3] = {
	{ "U1", 4, &mu, 0, 0, ugcounts },
	{ "U2#g", 1ull << 40, &mu, 0, 0, NULL },
	{ "U3", 6, &mu, 0, 0, ugcounts + 4 },
};
static struct ipp_rt_module mu = { IPP_ABI_VERSION, 3, "unit.c", "00000000000000ee", "intra",
				   ru, NULL, 0, 0 };

static struct ipp_rt_module mb;
static uint64_t bgcounts[3 + 3];
static struct ipp_rt_region rb[2] = {
	{ "B1", 3, &mb, 0, 0, bgcounts + 3 },
	{ "B2", 3, &mb, 0, 0, bgcounts },
};
static struct ipp_rt_module mb = { IPP_ABI_VERSION, 2, "bad.c", "00000000000000ff", "intra",
				   rb, NULL, 0, 0 };

/* What the plugin emits for U1 with an inlined copy counting in U3. */
static __attribute__((noinline)) void U(void)
{
	uint64_t *c = __ipp_counts(&ru[0]);
	uint64_t *c3 = c + (ru[2].gcounts - ru[0].gcounts);
	c3[5]++;
	c[2]++;
}

static void *unit_thread(void *arg)
{
	(void)arg;
	__ipp_record(&ru[0], 1);
	for (int i = 0; i < 3; i++)
		U();
	return NULL;
}

/* What the plugin emits for F: the counters once, then three paths. */
static __attribute__((noinline)) void F(void)
{
	uint64_t *c = __ipp_counts(&r[0]);
	c[3]++;
	c[3]++;
	c[7]++;
}

static void *thread_main(void *arg)
{
	(void)arg;
	for (int i = 0; i < 4; i++)
		F();
	return NULL;
}

static int role_main(const char *role)
{
	if (strcmp(role, "threads") == 0) {
		pthread_t t[3];
		for (int i = 0; i < 5; i++)
			F();
		for (int i = 0; i < 3; i++)
			CHECK(pthread_create(&t[i], NULL, thread_main, NULL) == 0);
		for (int i = 0; i < 3; i++)
			CHECK(pthread_join(t[i], NULL) == 0);
	} else if (strcmp(role, "reset") == 0) {
		uint64_t *before;
		for (int i = 0; i < 3; i++)
			F();
		before = __ipp_counts(&r[0]);
		ipp_reset();
		CHECK(__ipp_counts(&r[0]) == before);	/* reset works in place */
		F();
		F();
	} else if (strcmp(role, "fork") == 0) {
		pid_t pid;
		F();
		F();
		pid = fork();
		if (pid == 0) {
			ipp_set_profile("child.prof");
			F();
			exit(0);
		}
		CHECK_EXIT(rtt_wait(pid), 0);
		F();
		F();
	} else if (strcmp(role, "mixed") == 0) {
		F();
		__ipp_record(&r[0], 3);
		F();
		__ipp_record(&r[0], 3);
	} else if (strcmp(role, "global") == 0) {
		pid_t pid;
		__ipp_register(&m);	/* the unit's constructor */
		gcounts[1] += 3;
		gcounts[4] += 2;
		__ipp_record(&r[2], 1);
		__ipp_counts(&r[2])[1]++;
		ipp_dump();		/* the profile: 1 5, 4 2 */
		pid = fork();
		if (pid == 0) {
			ipp_set_profile("child.prof");
			CHECK(gcounts[1] == 0 && gcounts[4] == 0);
			gcounts[4]++;
			exit(0);
		}
		CHECK_EXIT(rtt_wait(pid), 0);
		ipp_reset();
		gcounts[1]++;
		ipp_set_profile("after.prof");
	} else if (strcmp(role, "unit") == 0) {
		pthread_t t[3];
		__ipp_record(&ru[0], 1);
		U();
		U();
		for (int i = 0; i < 3; i++)
			CHECK(pthread_create(&t[i], NULL, unit_thread, NULL) == 0);
		for (int i = 0; i < 3; i++)
			CHECK(pthread_join(t[i], NULL) == 0);
		CHECK(__ipp_counts(&ru[0]) + (ru[2].gcounts - ru[0].gcounts) ==
		      __ipp_counts(&ru[2]));
	} else if (strcmp(role, "unit-bad") == 0) {
		uint64_t *c = __ipp_counts(&rb[0]);
		CHECK(c == rb[0].gcounts);
		c[1]++;
	} else if (strcmp(role, "big") == 0) {
		uint64_t *c = __ipp_counts(&r[1]);
		CHECK(c != NULL);
		c[1] = 12345;	/* scratch: never read */
	}
	return 0;
}

/* Path 3 and path 7 of F in the profile at path, and its path count. */
static void check_f(const char *path, uint64_t n3, uint64_t n7, uint64_t npaths)
{
	ipp_profile *p = rtt_read(path);
	const ipp_prof_module *mm = rtt_module(p, "inline.c", "00000000000000dd");
	CHECK_U64(rtt_path(mm, "F", "3"), n3);
	CHECK_U64(rtt_path(mm, "F", "7"), n7);
	CHECK_U64(mm->npaths, npaths);
	ipp_profile_free(p);
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_inline");
	static const char *env[] = { "IPP_PROFILE=inline.prof", NULL };

	if (role)
		return role_main(role);

	CHECK_EXIT(rtt_run("threads", NULL, env, NULL), 0);
	check_f("inline.prof", 2 * 17, 17, 2);
	remove("inline.prof");

	CHECK_EXIT(rtt_run("reset", NULL, env, NULL), 0);
	check_f("inline.prof", 2 * 2, 2, 2);
	remove("inline.prof");

	CHECK_EXIT(rtt_run("fork", NULL, env, NULL), 0);
	check_f("inline.prof", 2 * 4, 4, 2);
	check_f("child.prof", 2 * 1, 1, 2);
	remove("inline.prof");
	remove("child.prof");

	CHECK_EXIT(rtt_run("mixed", NULL, env, NULL), 0);
	check_f("inline.prof", 2 * 2 + 2, 2, 2);
	remove("inline.prof");

	CHECK_EXIT(rtt_run("global", NULL, env, NULL), 0);
	{
		ipp_profile *p = rtt_read("inline.prof");
		const ipp_prof_module *mm = rtt_module(p, "inline.c", "00000000000000dd");
		CHECK_U64(rtt_path(mm, "G", "1"), 5);
		CHECK_U64(rtt_path(mm, "G", "4"), 2);
		CHECK_U64(mm->npaths, 2);
		ipp_profile_free(p);
		p = rtt_read("child.prof");
		mm = rtt_module(p, "inline.c", "00000000000000dd");
		CHECK_U64(rtt_path(mm, "G", "4"), 1);
		CHECK_U64(mm->npaths, 1);
		ipp_profile_free(p);
		p = rtt_read("after.prof");
		mm = rtt_module(p, "inline.c", "00000000000000dd");
		CHECK_U64(rtt_path(mm, "G", "1"), 1);
		CHECK_U64(mm->npaths, 1);
		ipp_profile_free(p);
	}
	remove("inline.prof");
	remove("child.prof");
	remove("after.prof");

	CHECK_EXIT(rtt_run("unit", NULL, env, NULL), 0);
	{
		ipp_profile *p = rtt_read("inline.prof");
		const ipp_prof_module *mm = rtt_module(p, "unit.c", "00000000000000ee");
		CHECK_U64(rtt_path(mm, "U1", "2"), 11);
		CHECK_U64(rtt_path(mm, "U1", "1"), 4);
		CHECK_U64(rtt_path(mm, "U3", "5"), 11);
		CHECK_U64(mm->npaths, 3);
		ipp_profile_free(p);
	}
	remove("inline.prof");

	CHECK_EXIT(rtt_run("unit-bad", NULL, env, NULL), 0);
	CHECK(access("inline.prof", F_OK) != 0);

	CHECK_EXIT(rtt_run("big", NULL, env, NULL), 0);
	CHECK(access("inline.prof", F_OK) != 0);
	rtt_done();
	return 0;
}
