/* test_rt_threads.c -- per-thread counters: 4 threads x 1000 records, one
 * of them exiting (and joined) before the others start, give exactly
 * 4000; and 4 threads recording 2 million paths each while the main thread
 * calls ipp_dump() over and over give exactly 8 million in the end (dumps
 * move baselines, never other threads' counters: nothing is lost or
 * counted twice), with runs = 1.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct ipp_rt_module m;
static struct ipp_rt_region r[2] = {
	{ "main", 4, &m, 0, 0 },
	{ "wide", 1ull << 36, &m, 0, 0 },
};
static struct ipp_rt_module m = { IPP_ABI_VERSION, 2, "threads.c", "7777777777777777", "intra",
				  r, NULL, 0, 0 };

static uint64_t per_thread = 1000;
static int finished;

/* Thread t: path t % 2 of main, per_thread times; and the hash region's
 * path 2^35 + t (per_thread / 10 times). */
static void *work(void *arg)
{
	uintptr_t t = (uintptr_t)arg;
	for (uint64_t i = 0; i < per_thread; i++) {
		__ipp_record(&r[0], t % 2);
		if (i % 10 == 0)
			__ipp_record(&r[1], (1ull << 35) + t);
	}
	__atomic_add_fetch(&finished, 1, __ATOMIC_RELEASE);
	return NULL;
}

static int child_early(void)
{
	pthread_t th[4];
	/* thread 0 runs and exits first; its state must survive it */
	pthread_create(&th[0], NULL, work, (void *)0);
	pthread_join(th[0], NULL);
	for (uintptr_t t = 1; t < 4; t++)
		pthread_create(&th[t], NULL, work, (void *)t);
	for (int t = 1; t < 4; t++)
		pthread_join(th[t], NULL);
	return 0;
}

static int child_dumps(void)
{
	pthread_t th[4];
	int dumps = 0;
	per_thread = 2000000;
	for (uintptr_t t = 0; t < 4; t++)
		pthread_create(&th[t], NULL, work, (void *)t);
	/* dump as long as they run */
	while (__atomic_load_n(&finished, __ATOMIC_ACQUIRE) < 4) {
		ipp_dump();
		dumps++;
	}
	for (int t = 0; t < 4; t++)
		pthread_join(th[t], NULL);
	fprintf(stderr, "%d dumps while the threads ran\n", dumps);
	return 0;
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_threads");
	static const char *env1[] = { "IPP_PROFILE=early.prof", NULL };
	static const char *env2[] = { "IPP_PROFILE=dumps.prof", NULL };
	ipp_profile *p;
	const ipp_prof_module *mm;

	if (role)
		return strcmp(role, "early") == 0 ? child_early() : child_dumps();

	CHECK_EXIT(rtt_run("early", NULL, env1, NULL), 0);
	p = rtt_read("early.prof");
	mm = rtt_module(p, "threads.c", "7777777777777777");
	/* threads 0, 2 on path 0 and 1, 3 on path 1: 2 x 1000 each */
	CHECK_U64(rtt_path(mm, "main", "0"), 2000);
	CHECK_U64(rtt_path(mm, "main", "1"), 2000);
	/* 1000 / 10 = 100 hash records per thread, paths 2^35 + t */
	CHECK_U64(rtt_path(mm, "wide", "34359738368"), 100);
	CHECK_U64(rtt_path(mm, "wide", "34359738371"), 100);
	CHECK_U64(rtt_total(mm), 4000 + 400);
	CHECK_U64(mm->runs, 1);
	ipp_profile_free(p);

	CHECK_EXIT(rtt_run("dumps", NULL, env2, "dumps.txt"), 0);
	{
		char *t = rtt_slurp("dumps.txt", NULL);
		printf("%s", t ? t : "");
		free(t);
	}
	p = rtt_read("dumps.prof");
	mm = rtt_module(p, "threads.c", "7777777777777777");
	CHECK_U64(rtt_path(mm, "main", "0"), 4000000);	/* threads 0, 2: 2 x 2 million */
	CHECK_U64(rtt_path(mm, "main", "1"), 4000000);
	CHECK_U64(rtt_path(mm, "wide", "34359738369"), 200000);	/* 2 million / 10 */
	CHECK_U64(rtt_total(mm), 8000000 + 800000);
	CHECK_U64(mm->runs, 1);		/* one process, however many dumps */
	ipp_profile_free(p);
	rtt_done();
	return 0;
}
