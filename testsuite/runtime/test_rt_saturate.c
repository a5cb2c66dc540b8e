/* test_rt_saturate.c -- 64-bit counters saturate at UINT64_MAX and never
 * wrap: in the thread's array and hash tables (set close to the top by
 * reaching into the runtime's tables, since 2^64 increments would take
 * centuries), and when merging into a profile that already holds counts
 * and runs close to the top.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"
#include "rt_internal.h"

#include <stdio.h>
#include <stdlib.h>

static struct ipp_rt_module m;
static struct ipp_rt_region r[2] = {
	{ "small", 4, &m, 0, 0 },
	{ "huge", UINT64_MAX, &m, 0, 0 },	/* the most paths a region can have */
};
static struct ipp_rt_module m = { IPP_ABI_VERSION, 2, "sat.c", "5a5a5a5a5a5a5a5a", "intra", r,
				  NULL, 0, 0 };

#define MAX "18446744073709551615"

static int child_memory(void)
{
	struct ipp_rt_hent *e;
	/* array: one record creates the table; then put the counter at
	 * UINT64_MAX - 2 and record 5 more: 2 fit, 3 saturate. */
	__ipp_record(&r[0], 2);
	rt_tls_view.slots[r[0].index].counts[2] = UINT64_MAX - 2;
	for (int i = 0; i < 5; i++)
		__ipp_record(&r[0], 2);
	/* hash: the last path of the biggest region (2^64 - 2) */
	__ipp_record(&r[1], UINT64_MAX - 1);
	e = rt_htab_find(rt_tls_self->vec->t[r[1].index]->htab, UINT64_MAX);
	if (!e)
		return 2;
	e->count = UINT64_MAX - 1;
	for (int i = 0; i < 3; i++)
		__ipp_record(&r[1], UINT64_MAX - 1);
	return 0;
}

static int child_merge(void)
{
	for (int i = 0; i < 5; i++)
		__ipp_record(&r[0], 1);
	__ipp_record(&r[0], 3);
	return 0;
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_saturate");
	static const char *env1[] = { "IPP_PROFILE=mem.prof", NULL };
	static const char *env2[] = { "IPP_PROFILE=merge.prof", NULL };
	ipp_profile *p;
	const ipp_prof_module *mm;

	if (role)
		return role[0] == 'm' && role[1] == 'e' && role[2] == 'm' ? child_memory()
									  : child_merge();

	CHECK_EXIT(rtt_run("memory", NULL, env1, NULL), 0);
	p = rtt_read("mem.prof");
	mm = rtt_module(p, "sat.c", "5a5a5a5a5a5a5a5a");
	CHECK_U64(rtt_path(mm, "small", "2"), UINT64_MAX);
	CHECK_U64(rtt_path(mm, "huge", "18446744073709551614"), UINT64_MAX);
	ipp_profile_free(p);

	/* The file holds small 1 at UINT64_MAX - 1 and runs at UINT64_MAX;
	 * the run adds 5 to small 1 (saturates), 1 to small 3, 1 run. */
	rtt_write_profile("merge.prof",
			  "%YAML 1.1\n---\nipp-profile: 1\nmodules:\n"
			  "- module: sat.c\n  checksum: \"5a5a5a5a5a5a5a5a\"\n  mode: intra\n"
			  "  runs: " MAX "\n  paths:\n"
			  "  - [small, 1, 18446744073709551614]\n"
			  "  - [small, 3, 18446744073709551615]\n"
			  "  partial: []\n...\n");
	CHECK_EXIT(rtt_run("merge", NULL, env2, NULL), 0);
	p = rtt_read("merge.prof");
	mm = rtt_module(p, "sat.c", "5a5a5a5a5a5a5a5a");
	CHECK_U64(mm->runs, UINT64_MAX);
	CHECK_U64(rtt_path(mm, "small", "1"), UINT64_MAX);	/* (2^64 - 2) + 5 */
	CHECK_U64(rtt_path(mm, "small", "3"), UINT64_MAX);	/* (2^64 - 1) + 1 */
	ipp_profile_free(p);
	rtt_done();
	return 0;
}
