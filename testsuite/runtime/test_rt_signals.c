/* test_rt_signals.c -- fatal signals.  By default (and with
 * IPP_SIGNALS=1) a SIGSEGV, a SIGFPE, a SIGILL (__builtin_trap), an abort()
 * (SIGABRT), a SIGBUS sent by kill() and a stack overflow still kill the
 * program with the same signal, and the profile is written first, with the
 * crashing thread's pending frames as partial paths.  A SIGSEGV handler
 * the program installed before the runtime started is left alone by
 * default (it runs, nothing is written), and with IPP_SIGNALS=1 is called
 * after ours.  With IPP_SIGNALS=0 nothing is written and nothing changes.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static struct ipp_rt_module m;
static struct ipp_rt_region r[4] = {
	{ "main", 100, &m, 0, 0 },
	{ "crash", 100, &m, 0, 0 },
	{ "rec", 100, &m, 0, 0 },
	{ "callee", 100, &m, 0, 0 },
};
static struct ipp_rt_module m = { IPP_ABI_VERSION, 4, "sig.c", "5151515151515151", "intra", r,
				  NULL, 0, 0 };

#define NI __attribute__((noinline))

static volatile int *volatile null_ptr;
static volatile int zero, one = 1;
static volatile unsigned long depth;
static int bare;	/* "overflow-bare": rec's checkpoints are bare calls */

/* A bare call's number (ipp_abi.h, IPP_VERTEX_RESTART) at the call 5, at
 * the vertex before it, 4, and at its return site, 6: 1. */
static const struct ipp_rt_restart rec_numbers[] = {
	{ 4, 0, 1 },
	{ 5, 0, 1 },
	{ 6, 0, 1 },
};

/* "segv-bare": crash's checkpoint is the bare call 20 (number 6), whose
 * callee (Entry 30, region "callee") has no frame: the fault is taken for
 * one inside it, whose entry is recorded too (rt_callee_fixup). */
static const struct ipp_rt_restart crash_numbers[] = {
	{ 19, 0, 6 },
	{ 20, 0, 6 },
	{ 21, 0, 6 },
};
static const struct ipp_rt_callee crash_callees[] = {
	{ 20, 30, &r[3] },
};

static NI void crash(const char *how)
{
	struct ipp_rt_frame fr;
	if (strcmp(how, "segv-bare") == 0) {
		m.restarts = crash_numbers;
		m.nrestarts = sizeof(crash_numbers) / sizeof(crash_numbers[0]);
		m.callees = crash_callees;
		m.ncallees = 1;
		rtt_push(&fr, &r[1], 77, 20 | IPP_VERTEX_RESTART, 0);	/* 77: stale */
	} else
		rtt_push(&fr, &r[1], 6, 20, 0);
	if (strcmp(how, "segv") == 0 || strcmp(how, "segv-bare") == 0 || strcmp(how, "chain") == 0 || strcmp(how, "nosig") == 0 ||
	    strcmp(how, "mine") == 0)
		*null_ptr = 1;
	else if (strcmp(how, "abort") == 0)
		abort();
	else if (strcmp(how, "kill") == 0)
		kill(getpid(), SIGBUS);
	else if (strcmp(how, "fpe") == 0)
		zero = one / zero;	/* (1 / zero would be folded) */
	else if (strcmp(how, "ill") == 0)
		__builtin_trap();
	rtt_pop(&fr);
}

/* Infinite recursion, one frame per level: the overflow's SIGSEGV runs
 * on the alternate stack. */
#pragma GCC diagnostic ignored "-Winfinite-recursion"
static NI void recurse(void)
{
	struct ipp_rt_frame fr;
	volatile char pad[64];
	pad[0] = 1;
	if (bare)	/* the vertex alone: the frame's number is stale */
		rtt_push(&fr, &r[2], 99, 5 | IPP_VERTEX_RESTART, 0);
	else
		rtt_push(&fr, &r[2], 1, 5, 0);
	depth++;
	recurse();
	rtt_pop(&fr);
	(void)pad[0];
}

static void user_handler(int sig)
{
	(void)sig;
	_exit(42);
}

static int child(const char *how)
{
	struct ipp_rt_frame fr;
	struct rlimit no_core = { 0, 0 }, stack;
	setrlimit(RLIMIT_CORE, &no_core);	/* no core files in the test directory */
	/* the overflow must come soon, even under `ulimit -s unlimited` */
	if (getrlimit(RLIMIT_STACK, &stack) == 0 &&
	    (stack.rlim_cur == RLIM_INFINITY || stack.rlim_cur > (8u << 20))) {
		stack.rlim_cur = 8u << 20;
		setrlimit(RLIMIT_STACK, &stack);
	}
	if (strcmp(how, "chain") == 0 || strcmp(how, "mine") == 0)
		signal(SIGSEGV, user_handler);	/* before the runtime starts */
	__ipp_record(&r[0], 1);
	__ipp_record(&r[0], 1);
	rtt_push(&fr, &r[0], 4, 10, 0);
	if (strcmp(how, "overflow-bare") == 0) {
		m.restarts = rec_numbers;
		m.nrestarts = sizeof(rec_numbers) / sizeof(rec_numbers[0]);
		bare = 1;
	}
	if (strncmp(how, "overflow", 8) == 0)
		recurse();
	else
		crash(how);
	return 0;
}

static void check_profile(void)
{
	static const int32_t s20[] = { 20 }, s10[] = { 10 };
	ipp_profile *p = rtt_read("sig.prof");
	const ipp_prof_module *mm = rtt_module(p, "sig.c", "5151515151515151");
	CHECK_U64(rtt_path(mm, "main", "1"), 2);
	CHECK_U64(rtt_partial(mm, "crash", "6", s20, 1), 1);
	CHECK_U64(rtt_partial(mm, "main", "4", s10, 1), 1);
	CHECK_U64(mm->npartials, 2);
	ipp_profile_free(p);
	remove("sig.prof");
}

static void check_signal(int st, int sig)
{
	if (!WIFSIGNALED(st) || WTERMSIG(st) != sig)
		rtt_fail(__FILE__, __LINE__, "status 0x%x, expected death by signal %d", st, sig);
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_signals");
	static const char *on[] = { "IPP_PROFILE=sig.prof", "IPP_SIGNALS=1", NULL };
	static const char *dflt[] = { "IPP_PROFILE=sig.prof", NULL };
	static const char *off[] = { "IPP_PROFILE=sig.prof", "IPP_SIGNALS=0", NULL };
	static const int32_t s5[] = { 5 }, s4[] = { 4 };

	if (role)
		return child(role);

	/* on by default */
	check_signal(rtt_run("segv", NULL, dflt, NULL), SIGSEGV);
	check_profile();
	check_signal(rtt_run("fpe", NULL, dflt, NULL), SIGFPE);
	check_profile();
	check_signal(rtt_run("ill", NULL, dflt, NULL), SIGILL);
	check_profile();
	check_signal(rtt_run("abort", NULL, dflt, NULL), SIGABRT);
	check_profile();
	check_signal(rtt_run("kill", NULL, dflt, NULL), SIGBUS);
	check_profile();
	check_signal(rtt_run("segv", NULL, on, NULL), SIGSEGV);
	check_profile();

	/* the program's own handler, installed first: by default it is left
	 * alone (it exits with 42 through _exit: nothing written); with
	 * IPP_SIGNALS=1 ours runs first, then it */
	CHECK_EXIT(rtt_run("mine", NULL, dflt, NULL), 42);
	CHECK(!rtt_exists("sig.prof"));
	CHECK_EXIT(rtt_run("chain", NULL, on, NULL), 42);
	check_profile();

	/* IPP_SIGNALS=0: the same death, no profile */
	check_signal(rtt_run("nosig", NULL, off, NULL), SIGSEGV);
	CHECK(!rtt_exists("sig.prof"));

	/* stack overflow: thousands of pending frames of the same path,
	 * one partial record with their count; the innermost frame stands at
	 * its call (vertex 5) and the fault is just below it, in the callee
	 * that never began: its path stops before the call, at vertex 4 */
	check_signal(rtt_run("overflow", NULL, dflt, NULL), SIGSEGV);
	{
		ipp_profile *p = rtt_read("sig.prof");
		const ipp_prof_module *mm = rtt_module(p, "sig.c", "5151515151515151");
		CHECK(rtt_partial(mm, "rec", "1", s5, 1) > 1000);
		CHECK_U64(rtt_partial(mm, "rec", "1", s4, 1), 1);
		ipp_profile_free(p);
		remove("sig.prof");
	}
	/* a fault at a bare call to a frameless callee (ABI 14): the call
	 * stops at 20 with the table's number, and the callee's entry is
	 * recorded too */
	check_signal(rtt_run("segv-bare", NULL, dflt, NULL), SIGSEGV);
	{
		static const int32_t s20[] = { 20 }, s30[] = { 30 }, s10[] = { 10 };
		ipp_profile *p = rtt_read("sig.prof");
		const ipp_prof_module *mm = rtt_module(p, "sig.c", "5151515151515151");
		CHECK_U64(rtt_partial(mm, "crash", "6", s20, 1), 1);
		CHECK_U64(rtt_partial(mm, "callee", "0", s30, 1), 1);
		CHECK_U64(rtt_partial(mm, "main", "4", s10, 1), 1);
		CHECK_U64(mm->npartials, 3);
		ipp_profile_free(p);
		remove("sig.prof");
	}
	/* the same with bare calls (ABI 14): every frame at 5 | RESTART
	 * stored no number (99 is stale); the table gives 1 at 5, and at 4,
	 * where the innermost one stops, still bare */
	check_signal(rtt_run("overflow-bare", NULL, dflt, NULL), SIGSEGV);
	{
		ipp_profile *p = rtt_read("sig.prof");
		const ipp_prof_module *mm = rtt_module(p, "sig.c", "5151515151515151");
		CHECK(rtt_partial(mm, "rec", "1", s5, 1) > 1000);
		CHECK_U64(rtt_partial(mm, "rec", "1", s4, 1), 1);
		CHECK_U64(rtt_partial(mm, "rec", "99", s5, 1), 0);
		CHECK_U64(rtt_partial(mm, "rec", "99", s4, 1), 0);
		ipp_profile_free(p);
		remove("sig.prof");
	}
	rtt_done();
	return 0;
}
