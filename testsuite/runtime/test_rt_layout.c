/* test_rt_layout.c -- the two layouts of a thread's counters and their
 * boundaries (docs/RUNTIME.md, section 2): a region of exactly
 * RT_ARRAY_MAX paths counts in an array, one of RT_ARRAY_MAX + 1 in a hash
 * table; the last path of each counts, the number after it does not; both
 * saturate.  In a hash table, __ipp_record makes the first two probes
 * itself and leaves the rest to the slow path: keys chosen to collide sit
 * at their home entry, at the next one, two entries on, and wrapped
 * around from the last entry to e[0], and each one counts exactly,
 * saturating too.  A table that grows is mirrored by the thread's slot,
 * and a second thread starts from the empty table rt_hent_none.
 *
 * White box: the child reads the runtime's tables (rt_internal.h) to
 * check where keys landed, and to put counters near UINT64_MAX (2^64
 * increments would take centuries).  The profile is read back with the
 * core library's reader.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"
#include "rt_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static struct ipp_rt_module m;
static struct ipp_rt_region r[4] = {
	{ "at_max", RT_ARRAY_MAX, &m, 0, 0 },		/* 4096 paths: an array */
	{ "past_max", RT_ARRAY_MAX + 1, &m, 0, 0 },	/* 4097 paths: a hash table */
	{ "probe", 1ull << 40, &m, 0, 0 },
	{ "grow", 1ull << 40, &m, 0, 0 },
};
static struct ipp_rt_module m = { IPP_ABI_VERSION, 4, "layout.c", "1a1a1a1a1a1a1a1a", "intra", r,
				  NULL, 0, 0 };

/* The probe keys (path numbers), found the same way by the child and the
 * driver (find_keys): a, b, c share the home entry HOME of a 64-entry
 * table; d and e have home 63, its last entry. */
#define HOME 20u
/* The arithmetic below (63, 17 keys, 128 entries) is for tables that
 * start with 64 entries and grow past 1/4 load. */
_Static_assert(RT_HTAB_INIT_CAP == 64, "test_rt_layout assumes 64-entry tables");
_Static_assert(RT_HTAB_SPARSE_CAP > 128, "test_rt_layout assumes tables kept 1/4 full");
static uint64_t ka, kb, kc, kd, ke;

static struct rt_table *table(const struct ipp_rt_region *rg)
{
	return rt_tls_self->vec->t[rg->index];
}

static struct ipp_rt_hent *entry(const struct ipp_rt_region *rg, uint64_t n)
{
	return rt_htab_find(table(rg)->htab, n + 1);
}

/* The path numbers n >= 1 whose key1 = n + 1 has home h in a table of
 * RT_HTAB_INIT_CAP entries: the first 'count' of them, in order. */
static void keys_with_home(uint64_t h, uint64_t *out, int count)
{
	uint64_t shift = 64 - (uint64_t)__builtin_ctzll(RT_HTAB_INIT_CAP);
	int got = 0;
	for (uint64_t n = 1; got < count; n++)
		if (rt_htab_index(n + 1, shift) == h)
			out[got++] = n;
}

static void find_keys(void)
{
	uint64_t abc[3], de[2];
	keys_with_home(HOME, abc, 3);
	keys_with_home(RT_HTAB_INIT_CAP - 1, de, 2);
	ka = abc[0], kb = abc[1], kc = abc[2], kd = de[0], ke = de[1];
}

static void *second_thread(void *arg)
{
	(void)arg;
	CHECK_U64(rt_tls_view.nslots, 0);	/* nothing recorded yet */
	/* Its first record of 'probe': a miss on rt_hent_none, then the slow
	 * path creates the thread's table; 3 records of c. */
	for (int i = 0; i < 3; i++)
		__ipp_record(&r[2], kc);
	/* A slot of a region this thread never recorded: the empty table. */
	CHECK(rt_tls_view.nslots > r[3].index);
	CHECK(rt_tls_view.slots[r[3].index].hent == rt_hent_none);
	CHECK_U64(rt_tls_view.slots[r[3].index].shift, RT_SHIFT_NONE);
	CHECK(rt_tls_view.slots[r[2].index].hent == table(&r[2])->htab->e);
	return NULL;
}

static int child(void)
{
	struct ipp_rt_htab *h;
	pthread_t th;

	/* --- the threshold: 4096 paths in an array, 4097 in a hash table */
	__ipp_record(&r[0], 0);
	__ipp_record(&r[0], RT_ARRAY_MAX - 1);		/* the last path, 4095 */
	__ipp_record(&r[0], RT_ARRAY_MAX);		/* 4096: beyond, bad */
	CHECK(table(&r[0])->counts != NULL && table(&r[0])->htab == NULL);
	CHECK_U64(rt_tls_view.slots[r[0].index].limit, RT_ARRAY_MAX);
	__ipp_record(&r[1], 0);
	__ipp_record(&r[1], RT_ARRAY_MAX - 1);		/* 4095 */
	__ipp_record(&r[1], RT_ARRAY_MAX);		/* the last path, 4096 */
	__ipp_record(&r[1], RT_ARRAY_MAX + 1);		/* 4097: beyond, bad */
	CHECK(table(&r[1])->counts == NULL && table(&r[1])->htab != NULL);
	CHECK_U64(rt_tls_view.slots[r[1].index].limit, 0);
	/* 2^64 - 1 is never a path number: bad in both layouts (in a hash
	 * region key1 = n + 1 would wrap to 0, the mark of an empty entry) */
	__ipp_record(&r[0], UINT64_MAX);
	__ipp_record(&r[1], UINT64_MAX);
	/* saturation: each last path was counted once; from 2^64 - 2, three
	 * more records: the first gives 2^64 - 1, the others stay there */
	table(&r[0])->counts[RT_ARRAY_MAX - 1] = UINT64_MAX - 2;
	entry(&r[1], RT_ARRAY_MAX)->count = UINT64_MAX - 2;
	for (int i = 0; i < 3; i++) {
		__ipp_record(&r[0], RT_ARRAY_MAX - 1);
		__ipp_record(&r[1], RT_ARRAY_MAX);
	}

	/* --- probes: a, b, c with one home; d, e with home 63.  Inserted
	 * in this order: a at HOME, b at HOME + 1, c at HOME + 2, d at 63, e
	 * wraps around to 0 */
	find_keys();
	__ipp_record(&r[2], ka);
	__ipp_record(&r[2], kb);
	__ipp_record(&r[2], kc);
	__ipp_record(&r[2], kd);
	__ipp_record(&r[2], ke);
	h = table(&r[2])->htab;
	CHECK_U64(h->cap, RT_HTAB_INIT_CAP);
	CHECK_U64(h->e[HOME].key1, ka + 1);		/* __ipp_record's first probe */
	CHECK_U64(h->e[HOME + 1].key1, kb + 1);	/* its second probe */
	CHECK_U64(h->e[HOME + 2].key1, kc + 1);	/* the slow path's */
	CHECK_U64(h->e[RT_HTAB_INIT_CAP - 1].key1, kd + 1);
	CHECK_U64(h->e[0].key1, ke + 1);	/* after e[63] and e[64]: the slow path */
	CHECK_U64(h->e[RT_HTAB_INIT_CAP].key1, 0);	/* e[cap]: always empty */
	/* more records: a 1 + 4 = 5, b 1 + 5 = 6, c 1 + 6 = 7, d 1 + 7 = 8,
	 * e 1 + 8 = 9 */
	for (int i = 0; i < 4; i++)
		__ipp_record(&r[2], ka);
	for (int i = 0; i < 5; i++)
		__ipp_record(&r[2], kb);
	for (int i = 0; i < 6; i++)
		__ipp_record(&r[2], kc);
	for (int i = 0; i < 7; i++)
		__ipp_record(&r[2], kd);
	for (int i = 0; i < 8; i++)
		__ipp_record(&r[2], ke);
	/* 2^64 - 1 with e[0] full and e[1] empty (key1 0 would match e[1]):
	 * bad, and nothing counted in e[1] */
	CHECK_U64(h->e[1].key1, 0);
	__ipp_record(&r[2], UINT64_MAX);
	CHECK_U64(h->e[1].count, 0);
	/* saturation at the first probe (a), the second (b) and after the
	 * wrap (e): from 2^64 - 2, three more records give 2^64 - 1 */
	entry(&r[2], ka)->count = UINT64_MAX - 2;
	entry(&r[2], kb)->count = UINT64_MAX - 2;
	entry(&r[2], ke)->count = UINT64_MAX - 2;
	for (int i = 0; i < 3; i++) {
		__ipp_record(&r[2], ka);
		__ipp_record(&r[2], kb);
		__ipp_record(&r[2], ke);
	}

	/* --- growth: 17 keys k * 2^30 (k = 0 .. 16) pass 1/4 of 64 entries
	 * (16) at the 17th, which doubles the table; the slot follows it.
	 * Each key is recorded twice: once to insert it, once after. */
	for (uint64_t k = 0; k <= 16; k++)
		__ipp_record(&r[3], k << 30);
	h = table(&r[3])->htab;
	CHECK_U64(h->cap, 2 * RT_HTAB_INIT_CAP);
	CHECK_U64(h->used, 17);
	CHECK(rt_tls_view.slots[r[3].index].hent == h->e);
	CHECK_U64(rt_tls_view.slots[r[3].index].shift, 64 - 7);	/* 128 = 2^7 */
	for (uint64_t k = 0; k <= 16; k++)
		__ipp_record(&r[3], k << 30);

	/* --- a second thread: 3 more records of c (7 + 3 = 10) */
	CHECK(pthread_create(&th, NULL, second_thread, NULL) == 0);
	CHECK(pthread_join(th, NULL) == 0);
	return 0;
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_layout");
	static const char *env[] = { "IPP_PROFILE=layout.prof", NULL };
	char num[5][24];
	ipp_profile *p;
	const ipp_prof_module *mm;

	if (role)
		return child();

	CHECK_EXIT(rtt_run("child", NULL, env, "err.txt"), 0);
	find_keys();
	CHECK(ka != kb && kb != kc && kc != ka && kd != ke);
	snprintf(num[0], sizeof(num[0]), "%llu", (unsigned long long)ka);
	snprintf(num[1], sizeof(num[1]), "%llu", (unsigned long long)kb);
	snprintf(num[2], sizeof(num[2]), "%llu", (unsigned long long)kc);
	snprintf(num[3], sizeof(num[3]), "%llu", (unsigned long long)kd);
	snprintf(num[4], sizeof(num[4]), "%llu", (unsigned long long)ke);

	p = rtt_read("layout.prof");
	mm = rtt_module(p, "layout.c", "1a1a1a1a1a1a1a1a");
	CHECK_U64(rtt_path(mm, "at_max", "0"), 1);
	CHECK_U64(rtt_path(mm, "at_max", "4095"), UINT64_MAX);	/* 2^64 - 2 + 3 */
	CHECK_U64(rtt_path(mm, "at_max", "4096"), 0);		/* beyond */
	CHECK_U64(rtt_path(mm, "past_max", "0"), 1);
	CHECK_U64(rtt_path(mm, "past_max", "4095"), 1);
	CHECK_U64(rtt_path(mm, "past_max", "4096"), UINT64_MAX);
	CHECK_U64(rtt_path(mm, "past_max", "4097"), 0);		/* beyond */
	CHECK_U64(rtt_path(mm, "probe", num[0]), UINT64_MAX);	/* a: first probe */
	CHECK_U64(rtt_path(mm, "probe", num[1]), UINT64_MAX);	/* b: second probe */
	CHECK_U64(rtt_path(mm, "probe", num[2]), 7 + 3);	/* c: slow path; 2 threads */
	CHECK_U64(rtt_path(mm, "probe", num[3]), 8);		/* d: home 63 */
	CHECK_U64(rtt_path(mm, "probe", num[4]), UINT64_MAX);	/* e: wrapped */
	/* grow: 17 paths, 2 each */
	CHECK_U64(rtt_path(mm, "grow", "0"), 2);
	CHECK_U64(rtt_path(mm, "grow", "17179869184"), 2);	/* 16 * 2^30 */
	{
		uint64_t grow = 0, paths = 0;
		for (size_t i = 0; i < mm->npaths; i++)
			if (strcmp(mm->regions[mm->paths[i].region], "grow") == 0) {
				grow += mm->paths[i].count;
				paths++;
			}
		CHECK_U64(paths, 17);
		CHECK_U64(grow, 34);
	}
	/* bad: at_max 4096 and 2^64 - 1, past_max 4097 and 2^64 - 1, probe
	 * 2^64 - 1: 5 records */
	CHECK(rtt_contains("err.txt", "ipp: warning: 5 records had a path number beyond"));
	ipp_profile_free(p);
	rtt_done();
	return 0;
}
