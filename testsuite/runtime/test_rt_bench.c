/* test_rt_bench.c -- the cost of __ipp_record, and that a long loop counts
 * exactly.  Prints nanoseconds per record for an array region, a hash
 * region, and the bare loop, measured with clock_gettime (informative:
 * never a failure, machines differ), then checks the counts in the
 * profile: 10^7 array records over 8 paths and 10^6 hash records over 64.
 *
 * For instruction counts: valgrind --tool=callgrind on this program with
 * the role "loop" (it runs only the 10^7-record array loop) or "hashloop"
 * (only the 10^6-record hash loop over 64 keys).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static struct ipp_rt_module m;
static struct ipp_rt_region r[2] = {
	{ "loop", 8, &m, 0, 0 },
	{ "wide", 1ull << 50, &m, 0, 0 },
};
static struct ipp_rt_module m = { IPP_ABI_VERSION, 2, "bench.c", "beefbeefbeefbeef", "intra", r,
				  NULL, 0, 0 };

#define N_ARRAY 10000000ull
#define N_HASH 1000000ull

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* noinline + the asm barrier: the loop calls the real function each time,
 * as instrumented code does. */
/* i = 1 .. n (the warm-up record was path 0) */
static __attribute__((noinline)) void loop_array(uint64_t n)
{
	for (uint64_t i = 1; i <= n; i++) {
		__ipp_record(&r[0], i & 7);
		__asm__ volatile("" ::: "memory");
	}
}

static __attribute__((noinline)) void loop_hash(uint64_t n)
{
	for (uint64_t i = 1; i <= n; i++) {
		__ipp_record(&r[1], (i & 63) << 40);
		__asm__ volatile("" ::: "memory");
	}
}

static __attribute__((noinline)) void loop_empty(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		__asm__ volatile("" ::: "memory");
}

static int child(const char *role)
{
	double t0, t1, t2, t3;
	__ipp_record(&r[0], 0);		/* warm up: registration, tables */
	__ipp_record(&r[1], 0);
	if (strcmp(role, "loop") == 0) {
		loop_array(N_ARRAY - 1);
		return 0;
	}
	if (strcmp(role, "hashloop") == 0) {
		loop_hash(N_HASH - 1);
		return 0;
	}
	t0 = now();
	loop_array(N_ARRAY - 1);
	t1 = now();
	loop_hash(N_HASH - 1);
	t2 = now();
	loop_empty(N_ARRAY);
	t3 = now();
	printf("__ipp_record, array region: %.2f ns/record\n", (t1 - t0) * 1e9 / N_ARRAY);
	printf("__ipp_record, hash region:  %.2f ns/record\n", (t2 - t1) * 1e9 / N_HASH);
	printf("the loop alone:             %.2f ns/iteration\n", (t3 - t2) * 1e9 / N_ARRAY);
	return 0;
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_bench");
	static const char *env[] = { "IPP_PROFILE=bench.prof", NULL };
	ipp_profile *p;
	const ipp_prof_module *mm;

	if (role)
		return child(role);
	CHECK_EXIT(rtt_run("time", NULL, env, NULL), 0);
	p = rtt_read("bench.prof");
	mm = rtt_module(p, "bench.c", "beefbeefbeefbeef");
	/* 10^7 records cycling over paths 0..7 (the warm-up, then i & 7 for
	 * i = 1 .. 10^7 - 1): 1.25 * 10^6 each */
	CHECK_U64(rtt_path(mm, "loop", "0"), N_ARRAY / 8);
	CHECK_U64(rtt_path(mm, "loop", "7"), N_ARRAY / 8);
	/* 10^6 records cycling over 64 paths k * 2^40 (the same way):
	 * 15625 each */
	CHECK_U64(rtt_path(mm, "wide", "0"), N_HASH / 64);
	CHECK_U64(rtt_path(mm, "wide", "69269232549888"), N_HASH / 64);	/* 63 * 2^40 */
	CHECK_U64(rtt_total(mm), N_ARRAY + N_HASH);
	ipp_profile_free(p);
	rtt_done();
	return 0;
}
