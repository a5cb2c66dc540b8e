/* test_rt_htab.c -- the inline first probe of a hash region (__ipp_htab,
 * struct ipp_rt_htab, ipp_abi.h): a function asks once per activation
 * where the thread's table of its region is published, and at each record
 * loads the table, probes e[((n + 1) * IPP_HTAB_FIB) >> shift] and adds
 * one there if the key is n + 1, else calls __ipp_record (probe() below is
 * the code the plugin emits, written in C).
 *
 * Region H has 2^40 paths (a hash region).  The roles:
 *   "loop":    one activation records path 5 ten times: the first is a
 *              miss (the thread's table is empty), the 9 others hit the
 *              first probe (a key inserted into a table with nothing in
 *              its probe run lands at its first probe).  Then 300
 *              distinct paths k * 2^30 + 1 once each, which grows the
 *              table (64 entries at first, doubled before passing 1/4
 *              load: 2048 for 301 keys): the location __ipp_htab
 *              gave still holds the current table (another call gives the
 *              same location, and the table it holds is bigger).  Then
 *              path 5 five times more, all hits in the grown table: the
 *              profile has path 5 = 15 and every other path once, 301
 *              paths;
 *   "threads": 3 threads and main each make 100 records of path 7 from
 *              one activation: four distinct locations, path 7 = 400, and
 *              each thread's first record its only miss (99 hits each);
 *   "reset":   3 records of path 5, ipp_reset(), 2 more: path 5 = 2, and
 *              the location and table did not move;
 *   "fork":    2 records of path 5, fork; the child (its own profile)
 *              makes 1: path 5 = 1 there; the parent 2 more: 4;
 *   "none":    region U's unit cannot register (it names no module): the
 *              location holds the empty table (shift 63, three empty
 *              entries) and every probe misses; nothing is written.
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
static struct ipp_rt_region r[2] = {
	{ "H", 1ull << 40, &m, 0, 0, NULL },
	{ "U", 1ull << 40, NULL, 0, 0, NULL },
};
static struct ipp_rt_module m = { IPP_ABI_VERSION, 1, "htab.c", "00000000000000ee", "intra",
				  r, NULL, 0, 0 };

static __thread uint64_t hits, misses;

/* One record of path n of region rg through the location hp. */
static __attribute__((noinline)) void probe(struct ipp_rt_htab *const *hp,
					    struct ipp_rt_region *rg, uint64_t n)
{
	struct ipp_rt_htab *h = *hp;
	uint64_t k1 = n + 1;
	struct ipp_rt_hent *e = &h->e[(k1 * IPP_HTAB_FIB) >> h->shift];
	if (e->key1 == k1) {
		e->count++;
		hits++;
	} else {
		__ipp_record(rg, n);
		misses++;
	}
}

static void *thread_main(void *arg)
{
	struct ipp_rt_htab *const *hp = __ipp_htab(&r[0]);
	*(struct ipp_rt_htab *const **)arg = hp;
	for (int i = 0; i < 100; i++)
		probe(hp, &r[0], 7);
	CHECK_U64(misses, 1);
	CHECK_U64(hits, 99);
	return NULL;
}

static int role_main(const char *role)
{
	if (strcmp(role, "loop") == 0) {
		struct ipp_rt_htab *const *hp = __ipp_htab(&r[0]);
		struct ipp_rt_htab *h0 = *hp;
		CHECK_U64(h0->cap, 64);
		CHECK_U64(h0->shift, 64 - 6);
		for (int i = 0; i < 10; i++)
			probe(hp, &r[0], 5);
		CHECK_U64(misses, 1);
		CHECK_U64(hits, 9);
		for (uint64_t k = 0; k < 300; k++)
			probe(hp, &r[0], (k << 30) + 1);
		CHECK(__ipp_htab(&r[0]) == hp);
		CHECK(*hp != h0);
		CHECK_U64((*hp)->cap, 2048);
		CHECK_U64((*hp)->shift, 64 - (uint64_t)__builtin_ctzll((*hp)->cap));
		hits = misses = 0;
		for (int i = 0; i < 5; i++)
			probe(hp, &r[0], 5);
		CHECK_U64(hits, 5);
	} else if (strcmp(role, "threads") == 0) {
		struct ipp_rt_htab *const *loc[4];
		pthread_t t[3];
		for (int i = 0; i < 3; i++)
			CHECK(pthread_create(&t[i], NULL, thread_main, &loc[i]) == 0);
		for (int i = 0; i < 3; i++)
			CHECK(pthread_join(t[i], NULL) == 0);
		thread_main(&loc[3]);
		for (int i = 0; i < 4; i++)
			for (int j = i + 1; j < 4; j++)
				CHECK(loc[i] != loc[j]);
	} else if (strcmp(role, "reset") == 0) {
		struct ipp_rt_htab *const *hp = __ipp_htab(&r[0]);
		struct ipp_rt_htab *h0;
		for (int i = 0; i < 3; i++)
			probe(hp, &r[0], 5);
		h0 = *hp;
		ipp_reset();
		CHECK(__ipp_htab(&r[0]) == hp);	/* reset works in place */
		CHECK(*hp == h0);
		probe(hp, &r[0], 5);
		probe(hp, &r[0], 5);
		CHECK_U64(hits, 4);
	} else if (strcmp(role, "fork") == 0) {
		struct ipp_rt_htab *const *hp = __ipp_htab(&r[0]);
		pid_t pid;
		probe(hp, &r[0], 5);
		probe(hp, &r[0], 5);
		pid = fork();
		if (pid == 0) {
			ipp_set_profile("child.prof");
			probe(hp, &r[0], 5);
			exit(0);
		}
		CHECK_EXIT(rtt_wait(pid), 0);
		probe(hp, &r[0], 5);
		probe(hp, &r[0], 5);
	} else if (strcmp(role, "none") == 0) {
		struct ipp_rt_htab *const *hp = __ipp_htab(&r[1]);
		const struct ipp_rt_htab *h = *hp;
		CHECK(h != NULL);
		CHECK_U64(h->shift, 63);
		for (int i = 0; i < 3; i++)
			CHECK_U64(h->e[i].key1, 0);
		for (int i = 0; i < 4; i++)
			probe(hp, &r[1], 5);
		CHECK_U64(misses, 4);
		CHECK(__ipp_htab(&r[1]) == hp);
	}
	return 0;
}

/* Path n of H in the profile at path, and the module's path count. */
static void check_h(const char *path, const char *n, uint64_t count, uint64_t npaths)
{
	ipp_profile *p = rtt_read(path);
	const ipp_prof_module *mm = rtt_module(p, "htab.c", "00000000000000ee");
	CHECK_U64(rtt_path(mm, "H", n), count);
	CHECK_U64(mm->npaths, npaths);
	ipp_profile_free(p);
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_htab");
	static const char *env[] = { "IPP_PROFILE=htab.prof", NULL };

	if (role)
		return role_main(role);

	CHECK_EXIT(rtt_run("loop", NULL, env, NULL), 0);
	check_h("htab.prof", "5", 15, 301);
	check_h("htab.prof", "1", 1, 301);			/* k = 0 */
	check_h("htab.prof", "321048805377", 1, 301);		/* k = 299 */
	remove("htab.prof");

	CHECK_EXIT(rtt_run("threads", NULL, env, NULL), 0);
	check_h("htab.prof", "7", 400, 1);
	remove("htab.prof");

	CHECK_EXIT(rtt_run("reset", NULL, env, NULL), 0);
	check_h("htab.prof", "5", 2, 1);
	remove("htab.prof");

	CHECK_EXIT(rtt_run("fork", NULL, env, NULL), 0);
	check_h("htab.prof", "5", 4, 1);
	check_h("child.prof", "5", 1, 1);
	remove("htab.prof");
	remove("child.prof");

	CHECK_EXIT(rtt_run("none", NULL, env, NULL), 0);
	CHECK(access("htab.prof", F_OK) != 0);
	rtt_done();
	return 0;
}
