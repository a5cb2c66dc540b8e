/* slots.c -- inlined copies that keep checkpoints, left every way a run
 * can leave them.  inner() (a loop and a call) is inlined into outer()
 * twice, side by side, and outer() into work() three times: in intra mode
 * each copy keeps its checkpoints in a slot of work's frames (ipp_abi.h,
 * struct ipp_rt_slot), inner's copies in slot 2, outer's in slot 1.
 *
 *   ./slots HOW WHEN   the WHEN-th call of stop() (from inside the copies)
 *                      ends the run: HOW = 0 never, 1 exit(), 2 abort(),
 *                      3 raise(SIGSEGV), 4 longjmp() to main, 5 a failed
 *                      execv() and the run goes on, 6 exit() from die(),
 *                      a function without a frame that records its path
 *                      before (__ipp_callee_recorded), 7 abort() from
 *                      die(): the signal's walk must not find die()
 *                      pending again, 8 pthread_exit() (the wrapper
 *                      records every pending path before the unwind),
 *                      9 exit() from quit(), which has no frame (its
 *                      only call never returns): it records its path and
 *                      marks its caller's checkpoint, the copy's slot
 *                      (__ipp_callee_recorded), 10 abort() from quit():
 *                      the signal's walk must find the mark, or it would
 *                      record quit's entry a second time
 *
 * run.sh (part 9) builds it with and without
 * -fplugin-arg-ipp-slots=no and requires the same profile, byte for byte,
 * for each way: the partial paths of the copies abandoned inside, found
 * in slots, are those of the frames pushed without slots.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int how, when, calls;
static jmp_buf env;

__attribute__((noinline)) static void die(int k)
{
	if (how == 7)
		abort();
	exit(k & 63);
}

__attribute__((noinline)) static void stop(int k)
{
	char *argv[] = { (char *)"/nonexistent/ipp-slots", NULL };
	if (++calls != when)
		return;
	printf("stop %d at call %d\n", k, calls);
	fflush(stdout);
	switch (how) {
	case 1:
		exit(k & 63);
	case 2:
		abort();
	case 3:
		raise(SIGSEGV);
		break;
	case 4:
		longjmp(env, 1);
	case 5:
		execv(argv[0], argv);
		puts("execv failed");
		break;
	case 6:
	case 7:
		die(k);
		break;
	case 8:
		pthread_exit(NULL);
	}
}

/* No frame: its only call never returns. */
__attribute__((noinline)) static void quit(int k)
{
	if (how == 10 && calls == when)
		abort();
	if (how == 9 && calls == when)
		exit(k & 63);
}

static inline __attribute__((always_inline)) int inner(int x)
{
	int s = 0;
	for (int i = 0; i < x % 4; i++) {
		s += i * x;
		stop(i);
		quit(i);
	}
	return s;
}

static inline __attribute__((always_inline)) int outer(int x)
{
	int s = inner(x);
	if (x & 1)
		s += inner(x + 1);
	stop(-x);
	return s;
}

__attribute__((noinline)) static int work(int x)
{
	int t = 0;
	for (int j = 0; j < 3; j++)
		t += outer(x + j);
	return t;
}

int main(int argc, char **argv)
{
	volatile long total = 0;
	if (argc > 2) {
		how = atoi(argv[1]);
		when = atoi(argv[2]);
	}
	if (setjmp(env) == 0) {
		for (int k = 0; k < 6; k++)
			total += work(k);
	} else {
		puts("jumped back");
	}
	printf("total %ld after %d calls\n", (long)total, calls);
	return 0;
}
