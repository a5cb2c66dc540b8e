/* test_rt_htab.c -- the inline probes of a hash region (__ipp_hmiss,
 * struct ipp_rt_htab, region.hslot, ipp_abi.h): a unit has a thread-local
 * slot per hash region, initially pointing at the unit's constant empty
 * table; at each record of path n a function loads the table from its
 * region's slot, probes e[i] and e[i + 1] with i = ((n + 1) * IPP_HTAB_FIB)
 * >> shift and adds one where the key is n + 1, else calls __ipp_hmiss with
 * that key (ABI 10), which counts path n and publishes the thread's table
 * in the slot (probe() below is the code the plugin emits, written in C).
 *
 * Region H has 2^40 paths (a hash region, slot 1), A 10 (an array region,
 * slot 0: a continuing body in an array region probes the empty table).
 * The roles:
 *   "loop":    ten records of path 5: the first is a miss (the slot holds
 *              the unit's empty table) that publishes the thread's table
 *              (64 entries), the 9 others hit the first probe (a key
 *              inserted into a table with nothing in its probe run lands
 *              there).  Then 300 distinct paths k * 2^30 + 1 through
 *              __ipp_record, not the probe: the runtime grows the table
 *              (doubled before passing 1/4 load: 2048 entries for 301 keys)
 *              and the slot follows it, whichever route grew it.  Then
 *              each of the 300 once more through the probe: a key found
 *              at e[i] by reading the table must be a first-probe hit, at
 *              e[i + 1] a second-probe hit, further on a miss; and path 5
 *              five times more, all hits: the profile has path 5 = 15 and
 *              every other path twice, 301 paths;
 *   "threads": 3 threads and main each make 100 records of path 7: four
 *              distinct slots (thread-locals), path 7 = 400, and each
 *              thread's first record its only miss (99 hits each);
 *   "reset":   3 records of path 5, ipp_reset(), 2 more: path 5 = 2, and
 *              the slot and table did not move;
 *   "fork":    2 records of path 5, fork; the child (its own profile)
 *              makes 1: path 5 = 1 there; the parent 2 more: 4;
 *   "array":   3 records of path 2 of A: all miss (slot 0 keeps the empty
 *              table, nothing is published there), path 2 of A = 3;
 *   "none":    region U's unit cannot register (it names no module): its
 *              slot keeps the empty table (shift 63, three empty entries)
 *              and every probe misses; nothing is written.
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
static struct ipp_rt_region r[3] = {
	{ "H", 1ull << 40, &m, 0, 0, NULL, 1 },
	{ "A", 10, &m, 0, 0, NULL, 0 },
	{ "U", 1ull << 40, NULL, 0, 0, NULL, 1 },
};
static struct ipp_rt_module m = { IPP_ABI_VERSION, 2, "htab.c", "00000000000000ee", "intra",
				  r, NULL, 0, 0 };

/* The unit's empty table (cap 2, shift 63, three empty entries) and
 * slots, as the plugin makes them; U's unit has its own. */
static const struct {
	struct ipp_rt_htab h;
	struct ipp_rt_hent e[3];
} none = { { 2, 0, 63 }, { { 0, 0 }, { 0, 0 }, { 0, 0 } } };
static __thread const struct ipp_rt_htab *slots[2] = { &none.h, &none.h };
static __thread const struct ipp_rt_htab *uslots[2] = { &none.h, &none.h };

static __thread uint64_t hits1, hits2, misses;

/* One record of path n of region rg, whose unit's slots are s. */
static __attribute__((noinline)) void probe(const struct ipp_rt_htab **s,
					    struct ipp_rt_region *rg, uint64_t n)
{
	struct ipp_rt_htab *h = (struct ipp_rt_htab *)s[rg->hslot];
	uint64_t k1 = n + 1;
	struct ipp_rt_hent *e = &h->e[(k1 * IPP_HTAB_FIB) >> h->shift];
	if (e[0].key1 == k1) {
		e[0].count++;
		hits1++;
	} else if (e[1].key1 == k1) {
		e[1].count++;
		hits2++;
	} else {
		__ipp_hmiss(rg, k1, s);	/* the key, not n (ABI 10) */
		misses++;
	}
}

static void *thread_main(void *arg)
{
	*(const struct ipp_rt_htab ***)arg = &slots[1];
	for (int i = 0; i < 100; i++)
		probe(slots, &r[0], 7);
	CHECK_U64(misses, 1);
	CHECK_U64(hits1, 99);
	return NULL;
}

/* Where key1 sits in h: 0 at its first probe, 1 at its second, 2 later. */
static int place(const struct ipp_rt_htab *h, uint64_t key1)
{
	uint64_t i = (key1 * IPP_HTAB_FIB) >> h->shift;
	for (uint64_t k = 0; k < h->cap; k++)
		if (h->e[(i + k) & (h->cap - 1)].key1 == key1)
			return k < 2 ? (int)k : 2;
	CHECK(!"key not in the table");
	return -1;
}

static int role_main(const char *role)
{
	if (strcmp(role, "loop") == 0) {
		const struct ipp_rt_htab *h0;
		uint64_t at[3] = { 0, 0, 0 };
		CHECK(slots[1] == &none.h);
		for (int i = 0; i < 10; i++)
			probe(slots, &r[0], 5);
		CHECK_U64(misses, 1);
		CHECK_U64(hits1, 9);
		h0 = slots[1];
		CHECK(h0 != &none.h);
		CHECK_U64(h0->cap, 64);
		CHECK_U64(h0->shift, 64 - 6);
		for (uint64_t k = 0; k < 300; k++)
			__ipp_record(&r[0], (k << 30) + 1);
		CHECK(slots[1] != h0);
		CHECK_U64(slots[1]->cap, 2048);
		CHECK_U64(slots[1]->shift, 64 - (uint64_t)__builtin_ctzll(slots[1]->cap));
		CHECK(slots[0] == &none.h);
		for (uint64_t k = 0; k < 300; k++)
			at[place(slots[1], (k << 30) + 2)]++;
		hits1 = hits2 = misses = 0;
		for (uint64_t k = 0; k < 300; k++)
			probe(slots, &r[0], (k << 30) + 1);
		CHECK_U64(hits1, at[0]);
		CHECK_U64(hits2, at[1]);
		CHECK_U64(misses, at[2]);
		hits1 = hits2 = misses = 0;
		for (int i = 0; i < 5; i++)
			probe(slots, &r[0], 5);
		CHECK_U64(hits1 + hits2, 5);
	} else if (strcmp(role, "threads") == 0) {
		const struct ipp_rt_htab **loc[4];
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
		const struct ipp_rt_htab *h0;
		for (int i = 0; i < 3; i++)
			probe(slots, &r[0], 5);
		h0 = slots[1];
		ipp_reset();
		CHECK(slots[1] == h0);	/* reset works in place */
		probe(slots, &r[0], 5);
		probe(slots, &r[0], 5);
		CHECK_U64(hits1, 4);
	} else if (strcmp(role, "fork") == 0) {
		pid_t pid;
		probe(slots, &r[0], 5);
		probe(slots, &r[0], 5);
		pid = fork();
		if (pid == 0) {
			ipp_set_profile("child.prof");
			probe(slots, &r[0], 5);
			exit(0);
		}
		CHECK_EXIT(rtt_wait(pid), 0);
		probe(slots, &r[0], 5);
		probe(slots, &r[0], 5);
	} else if (strcmp(role, "array") == 0) {
		for (int i = 0; i < 3; i++)
			probe(slots, &r[1], 2);
		CHECK_U64(misses, 3);
		CHECK(slots[0] == &none.h);
		CHECK(slots[1] == &none.h);
	} else if (strcmp(role, "none") == 0) {
		for (int i = 0; i < 4; i++)
			probe(uslots, &r[2], 5);
		CHECK_U64(misses, 4);
		CHECK(uslots[1] == &none.h);
	}
	return 0;
}

/* Path n of region rg in the profile at path, and the module's path count. */
static void check_p(const char *path, const char *rg, const char *n, uint64_t count,
		    uint64_t npaths)
{
	ipp_profile *p = rtt_read(path);
	const ipp_prof_module *mm = rtt_module(p, "htab.c", "00000000000000ee");
	CHECK_U64(rtt_path(mm, rg, n), count);
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
	check_p("htab.prof", "H", "5", 15, 301);
	check_p("htab.prof", "H", "1", 2, 301);			/* k = 0 */
	check_p("htab.prof", "H", "321048805377", 2, 301);	/* k = 299 */
	remove("htab.prof");

	CHECK_EXIT(rtt_run("threads", NULL, env, NULL), 0);
	check_p("htab.prof", "H", "7", 400, 1);
	remove("htab.prof");

	CHECK_EXIT(rtt_run("reset", NULL, env, NULL), 0);
	check_p("htab.prof", "H", "5", 2, 1);
	remove("htab.prof");

	CHECK_EXIT(rtt_run("fork", NULL, env, NULL), 0);
	check_p("htab.prof", "H", "5", 4, 1);
	check_p("child.prof", "H", "5", 1, 1);
	remove("htab.prof");
	remove("child.prof");

	CHECK_EXIT(rtt_run("array", NULL, env, NULL), 0);
	check_p("htab.prof", "A", "2", 3, 1);
	remove("htab.prof");

	CHECK_EXIT(rtt_run("none", NULL, env, NULL), 0);
	CHECK(access("htab.prof", F_OK) != 0);
	rtt_done();
	return 0;
}
