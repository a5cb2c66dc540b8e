/* deepptr.c -- deep.c's mutual tail recursion, each call through a
 * pointer: a million indirect tail calls that only sibling calls survive
 * under `ulimit -s 256` (KiB).  In context mode ipp kept such calls as
 * ordinary calls until ABI 7 (the callee counted the arc from its
 * caller's frame, which a tail call pops), and the program overflowed;
 * now the call site counts the arc before the jump, and
 * testsuite/tailcall/run.sh also checks the arcs: 500000 from down_even
 * to down_odd and 500000 back, for the default depth.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>

typedef long step(long n, long acc);
static step down_even, down_odd;
/* volatile: GCC must call through the pointer, not the known function */
static step *volatile next[2] = { down_even, down_odd };

static long __attribute__((noinline)) down_even(long n, long acc)
{
	if (n == 0)
		return acc;
	return next[1](n - 1, acc + 2);
}

static long __attribute__((noinline)) down_odd(long n, long acc)
{
	if (n == 0)
		return acc;
	return next[0](n - 1, acc + 1);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	printf("%ld\n", down_even(n, 0));
	return 0;
}
