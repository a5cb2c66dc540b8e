/* test_rt_counts.c -- counting complete paths: array regions (npaths <=
 * 4096) and hash regions (npaths 2^40), lazy registration by the first
 * record and registration by a constructor, two units sharing one module
 * of the profile, names that must be quoted, a module the runtime must
 * refuse, an out-of-range path number, and a byte-exact round trip of the
 * runtime's output through the core library's reader and writer.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#define _GNU_SOURCE 1
#include "rtt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Unit 1: counts.c, registered lazily (no constructor, as the plugin
 * emits it).  "main" counts in an array, "big#g" in a hash. */
static struct ipp_rt_module m1;
static struct ipp_rt_region r1[2] = {
	{ "main", 10, &m1, 0, 0 },
	{ "big#g", 1ull << 40, &m1, 0, 0 },
};
static struct ipp_rt_module m1 = { IPP_ABI_VERSION, 2, "counts.c", "00000000000000aa", "intra",
				   r1, NULL, 0, 0 };

/* Unit 2: the same source file, same checksum, another object: its counts
 * add into the same module of the profile. */
static struct ipp_rt_module m2;
static struct ipp_rt_region r2[1] = { { "main", 10, &m2, 0, 0 } };
static struct ipp_rt_module m2 = { IPP_ABI_VERSION, 1, "counts.c", "00000000000000aa", "intra",
				   r2, NULL, 0, 0 };

/* Unit 3: registered by a constructor; a name and a region name that the
 * format must quote. */
static struct ipp_rt_module m3;
static struct ipp_rt_region r3[2] = {
	{ "f", 5, &m3, 0, 0 },
	{ "g \"quoted\"", 5, &m3, 0, 0 },
};
static struct ipp_rt_module m3 = { IPP_ABI_VERSION, 2, "dir/my file.c", "00000000000000bb",
				   "context", r3, NULL, 0, 0 };

/* Unit 4: registered by a constructor, never records: a run with no
 * paths. */
static struct ipp_rt_module m4;
static struct ipp_rt_region r4[1] = { { "idle", 3, &m4, 0, 0 } };
static struct ipp_rt_module m4 = { IPP_ABI_VERSION, 1, "idle.c", "00000000000000cc", "intra",
				   r4, NULL, 0, 0 };

/* Unit 5: a bad checksum: refused with a warning, never written. */
static struct ipp_rt_module m5;
static struct ipp_rt_region r5[1] = { { "bad", 3, &m5, 0, 0 } };
static struct ipp_rt_module m5 = { IPP_ABI_VERSION, 1, "bad.c", "NOT-HEX", "intra", r5, NULL, 0,
				   0 };

__attribute__((constructor)) static void ctor(void)
{
	__ipp_register(&m3);
	__ipp_register(&m4);
	__ipp_register(&m5);
}

static int child(void)
{
	/* array region: paths 0, 3, 3 */
	__ipp_record(&r1[0], 0);
	__ipp_record(&r1[0], 3);
	__ipp_record(&r1[0], 3);
	/* hash region: paths 0, 3, 3, 2^40 - 1 (its last path) */
	__ipp_record(&r1[1], 0);
	__ipp_record(&r1[1], 3);
	__ipp_record(&r1[1], 3);
	__ipp_record(&r1[1], (1ull << 40) - 1);
	/* unit 2: main 3 once more (3 in all) and main 9 */
	__ipp_record(&r2[0], 3);
	__ipp_record(&r2[0], 9);
	/* unit 3 */
	__ipp_record(&r3[0], 4);
	__ipp_record(&r3[0], 4);
	__ipp_record(&r3[1], 0);
	/* out of range (10 paths: 0..9): not counted, reported at exit */
	__ipp_record(&r1[0], 10);
	/* unit 5 was refused: its records are dropped */
	__ipp_record(&r5[0], 1);
	/* many hash paths, to grow the hash table several times: paths
	 * 2^30 + k for k < 1000, path 2^30 + k counted k % 3 + 1 times */
	for (uint64_t k = 0; k < 1000; k++)
		for (uint64_t j = 0; j <= k % 3; j++)
			__ipp_record(&r1[1], (1ull << 30) + k);
	return 0;
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_counts");
	static const char *env[] = { "IPP_PROFILE=counts.prof", NULL };
	ipp_profile *p;
	const ipp_prof_module *m;
	char *text;
	uint64_t sum;

	if (role)
		return child();

	CHECK_EXIT(rtt_run("child", NULL, env, "err.txt"), 0);
	p = rtt_read("counts.prof");
	CHECK_U64(p->nmodules, 3);	/* counts.c, dir/my file.c, idle.c; not bad.c */

	m = rtt_module(p, "counts.c", "00000000000000aa");
	CHECK_U64(m->runs, 1);
	CHECK_U64(rtt_path(m, "main", "0"), 1);
	CHECK_U64(rtt_path(m, "main", "3"), 3);		/* 2 from unit 1 + 1 from unit 2 */
	CHECK_U64(rtt_path(m, "main", "9"), 1);
	CHECK_U64(rtt_path(m, "main", "10"), 0);		/* out of range: dropped */
	CHECK_U64(rtt_path(m, "big#g", "0"), 1);
	CHECK_U64(rtt_path(m, "big#g", "3"), 2);
	CHECK_U64(rtt_path(m, "big#g", "1099511627775"), 1);	/* 2^40 - 1 */
	CHECK_U64(rtt_path(m, "big#g", "1073741824"), 1);	/* 2^30 + 0: 0 % 3 + 1 */
	CHECK_U64(rtt_path(m, "big#g", "1073742823"), 1);	/* 2^30 + 999: 999 % 3 + 1 */
	CHECK_U64(rtt_path(m, "big#g", "1073742822"), 3);	/* 2^30 + 998: 998 % 3 + 1 */
	/* 1000 values k, k % 3 + 1 each: 334 * 1 + 333 * 2 + 333 * 3 = 1999 */
	sum = 0;
	for (size_t i = 0; i < m->npaths; i++)
		sum += m->paths[i].count;
	CHECK_U64(sum, 1 + 3 + 1 + 1 + 2 + 1 + 1999);
	CHECK_U64(m->npaths, 3 + 3 + 1000);

	m = rtt_module(p, "dir/my file.c", "00000000000000bb");
	CHECK_U64(m->runs, 1);
	CHECK(m->mode == IPP_MODE_CONTEXT);
	CHECK_U64(rtt_path(m, "f", "4"), 2);
	CHECK_U64(rtt_path(m, "g \"quoted\"", "0"), 1);

	m = rtt_module(p, "idle.c", "00000000000000cc");
	CHECK_U64(m->runs, 1);
	CHECK_U64(m->npaths, 0);

	/* Warnings: the refused module and the out-of-range record. */
	CHECK(rtt_contains("err.txt", "ipp: warning: a module is not profiled: bad.c"));
	CHECK(rtt_contains("err.txt", "ipp: warning: 1 records had a path number beyond"));

	/* A name that is not simple is kept as it is. */
	text = rtt_profile_text("counts.prof");
	CHECK(strstr(text, "- module: \"dir/my file.c\"\n") != NULL);
	free(text);
	ipp_profile_free(p);

	/* A second run merges: every count doubles, runs = 2. */
	CHECK_EXIT(rtt_run("child", NULL, env, "err.txt"), 0);
	p = rtt_read("counts.prof");
	m = rtt_module(p, "counts.c", "00000000000000aa");
	CHECK_U64(m->runs, 2);
	CHECK_U64(rtt_path(m, "main", "3"), 6);
	CHECK_U64(rtt_path(m, "big#g", "1099511627775"), 2);
	ipp_profile_free(p);
	rtt_done();
	return 0;
}
