/* test_rt_longjmp.c -- setjmp/longjmp with real jumps, as the plugin
 * instruments them (ipp_abi.h): __ipp_setjmp_note before setjmp,
 * __ipp_longjmp_note (or __ipp_unwind_to) before an instrumented longjmp,
 * __ipp_receive after setjmp returns.  The abandoned frames become partial
 * paths, recorded while they are alive; the receiver's own pending path
 * too; after an uninstrumented longjmp the dead frames are discarded
 * without being read; a group that continues into the receiver is one
 * partial path.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>

static struct ipp_rt_module m;
static struct ipp_rt_region r[4] = {
	{ "main", 100, &m, 0, 0 },
	{ "recv", 100, &m, 0, 0 },
	{ "deep", 100, &m, 0, 0 },
	{ "deeper", 100, &m, 0, 0 },
};
static struct ipp_rt_module m = { IPP_ABI_VERSION, 4, "lj.c", "1313131313131313", "context", r,
				  NULL, 0, 0 };

#define NI __attribute__((noinline))

enum how { NOTE, UNWIND, UNINSTRUMENTED, CONTINUES };
static jmp_buf jb;
static enum how how;
static unsigned unwound;

/* deeper: records its own path (a dead end), then jumps */
static NI void deeper(struct ipp_rt_frame *receiver)
{
	struct ipp_rt_frame fr;
	rtt_push(&fr, &r[3], 4, 40, 0);
	__ipp_record(&r[3], 4);
	fr.vertex = -1;
	if (how == NOTE)
		__ipp_longjmp_note(&jb);
	else if (how == UNWIND || how == CONTINUES)
		unwound = __ipp_unwind_to(receiver);
	longjmp(jb, 1);
}

static NI void deep(struct ipp_rt_frame *receiver)
{
	struct ipp_rt_frame fr;
	/* In the CONTINUES case deep continues recv's path: the group {deep,
	 * recv} is one path. */
	rtt_push(&fr, how == UNINSTRUMENTED ? (struct ipp_rt_region *)1 : &r[2], 3, 30,
		 how == CONTINUES ? IPP_FRAME_CONTINUES : 0);
	fr.vertex = 31;		/* before calling deeper */
	deeper(receiver);
}

/* recv: the setjmp receiver.  Restart number 99. */
static NI uint64_t recv_fn(void)
{
	struct ipp_rt_frame fr;
	volatile uint64_t path = 2;
	int ret;
	rtt_push(&fr, &r[1], 2, 20, 0);
	__ipp_setjmp_note(&jb, &fr);
	ret = setjmp(jb);
	path = __ipp_receive(&fr, ret, path, 99);
	if (ret == 0) {
		fr.path = path;
		fr.vertex = 21;		/* before calling deep */
		deep(&fr);
	}
	/* back after the longjmp */
	if (__ipp_top != &fr || fr.vertex != -1)
		return 1000;
	rtt_pop(&fr);
	__ipp_record(&r[1], path);	/* the restarted path ends */
	return path;
}

static int child(const char *role)
{
	struct ipp_rt_frame fr;
	uint64_t got;
	how = strcmp(role, "note") == 0 ? NOTE : strcmp(role, "unwind") == 0 ? UNWIND :
	      strcmp(role, "continues") == 0 ? CONTINUES : UNINSTRUMENTED;
	rtt_push(&fr, &r[0], 1, 10, 0);
	for (int i = 0; i < 3; i++) {
		got = recv_fn();
		if (got != 99)
			return 10 + (int)got;
	}
	rtt_pop(&fr);
	__ipp_record(&r[0], 1);
	if ((how == UNWIND && unwound != 2) || (how == CONTINUES && unwound != 1))
		return 3;
	return 0;
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_longjmp");
	static const char *env[] = { "IPP_PROFILE=lj.prof", NULL };
	static const int32_t s31[] = { 31 }, s21[] = { 21 }, s21_31[] = { 21, 31 };
	static const char *const roles[] = { "note", "unwind" };
	ipp_profile *p;
	const ipp_prof_module *mm;

	if (role)
		return child(role);

	/* Each role runs the jump 3 times.  Instrumented longjmp: deeper's
	 * path is complete (3), deep's pending path at 31 is partial (3), and
	 * recv's own pending path at 21 too (3); recv's restarted path 99
	 * completes (3); main is untouched (complete path 1, once). */
	for (int k = 0; k < 2; k++) {
		CHECK_EXIT(rtt_run(roles[k], NULL, env, NULL), 0);
		p = rtt_read("lj.prof");
		mm = rtt_module(p, "lj.c", "1313131313131313");
		CHECK_U64(rtt_path(mm, "deeper", "4"), 3);
		CHECK_U64(rtt_partial(mm, "deep", "3", s31, 1), 3);
		CHECK_U64(rtt_partial(mm, "recv", "2", s21, 1), 3);
		CHECK_U64(rtt_path(mm, "recv", "99"), 3);
		CHECK_U64(rtt_path(mm, "main", "1"), 1);
		CHECK_U64(mm->npartials, 2);
		ipp_profile_free(p);
		remove("lj.prof");
	}

	/* Uninstrumented longjmp: deep's frame (whose region pointer is
	 * garbage) is never read; recv's own path is recorded. */
	CHECK_EXIT(rtt_run("uninstrumented", NULL, env, NULL), 0);
	p = rtt_read("lj.prof");
	mm = rtt_module(p, "lj.c", "1313131313131313");
	CHECK_U64(rtt_partial(mm, "recv", "2", s21, 1), 3);
	CHECK_U64(mm->npartials, 1);
	CHECK_U64(rtt_path(mm, "recv", "99"), 3);
	ipp_profile_free(p);
	remove("lj.prof");

	/* deep continues recv's path: one partial path per jump, in recv's
	 * region, with deep's number and the stack [21, 31]. */
	CHECK_EXIT(rtt_run("continues", NULL, env, NULL), 0);
	p = rtt_read("lj.prof");
	mm = rtt_module(p, "lj.c", "1313131313131313");
	CHECK_U64(rtt_partial(mm, "recv", "3", s21_31, 2), 3);
	CHECK_U64(mm->npartials, 1);
	ipp_profile_free(p);
	rtt_done();
	return 0;
}
