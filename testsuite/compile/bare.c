/* bare.c -- bare calls (ABI 14): a call that one path alone reaches from
 * its function's entry has a constant number there, and its checkpoints
 * store the vertex alone (docs/PROTOCOL.md, "Bare calls").  Every way a
 * run can stop at such a call must give the partial paths that the
 * checkpoints with their numbers give.
 *
 *   ./bare HOW WHEN   the WHEN-th call of stop() ends the run: HOW = 0
 *                     never, 1 exit(), 2 abort(), 3 raise(SIGSEGV),
 *                     4 longjmp() to main; or, WHEN unused: 5 a fault
 *                     inside peek(), a function without a frame called
 *                     at a bare call (the runtime records its entry,
 *                     found from the bare checkpoint), 6 a stack overflow
 *                     in deep()'s bare recursive call (the path stops
 *                     before the call, at the vertex before it); or, once
 *                     stop() ran WHEN times: 7 exit() from quit(), which
 *                     has no frame: it records its path and marks its
 *                     caller's bare checkpoint, 8 abort() from quit():
 *                     the signal's walk must find the mark
 *
 * stop()'s calls from work() are bare (the first, at entry) and not bare
 * (inside the loop: two paths reach its header); deep() calls itself at a
 * bare call.  run.sh (part 10) builds it with and without
 * -fplugin-arg-ipp-bare-calls=no and requires the same profile, byte for
 * byte, for each way.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

static int how, when, calls;
static jmp_buf env;
static volatile int *volatile nowhere;

__attribute__((noinline)) static int quit(int k)
{
	if (how == 8)
		abort();
	exit(k & 63);
}

__attribute__((noinline)) static int peek(int k)
{
	if (how == 5)
		return *nowhere + k;	/* a fault in a function without a frame */
	return k * 3;
}

__attribute__((noinline)) static int stop(int k)
{
	if (++calls != when)
		return k;
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
		longjmp(env, k);
	default:
		break;
	}
	return k;
}

#pragma GCC diagnostic ignored "-Winfinite-recursion"
__attribute__((noinline)) static int deep(int d)
{
	volatile char pad[512];
	pad[0] = (char)d;
	if (how == 6)
		return deep(d + 1) + pad[0];	/* one path reaches it: bare */
	return pad[0];
}

__attribute__((noinline)) static int work(int n)
{
	int s = stop(1);		/* bare: the entry's only path */
	s += peek(n);			/* bare, to a function without a frame */
	for (int i = 0; i < n; i++) {
		s += stop(10 + i);	/* not bare: the loop header has two */
		if (i & 1)
			s += i;
	}
	if (s & 1)
		s += stop(100);
	else
		s += stop(200);
	if (how >= 7 && calls >= when)
		quit(s);		/* a dead end: quit() records itself */
	s += deep(s);
	return s;
}

int main(int argc, char **argv)
{
	struct rlimit stack = { 8u << 20, 8u << 20 };
	long t = 0;
	if (argc > 2) {
		how = atoi(argv[1]);
		when = atoi(argv[2]);
	}
	/* the overflow must come soon, even under `ulimit -s unlimited` */
	if (how == 6)
		setrlimit(RLIMIT_STACK, &stack);
	if (setjmp(env)) {
		printf("longjmp\n");
		return 3;
	}
	for (int r = 0; r < 3; r++)
		t += work(4 + r);
	printf("%ld\n", t);
	return 0;
}
