/* deep.c -- mutual tail recursion deep enough (a million calls by
 * default, the depth as argument) that only sibling calls survive a small
 * stack: testsuite/tailcall/run.sh runs it under `ulimit -s 256` (KiB),
 * where a build without sibling calls (-fno-optimize-sibling-calls, or ipp
 * before tail calls were kept) overflows.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include <stdio.h>
#include <stdlib.h>

static long __attribute__((noinline)) down_odd(long n, long acc);

static long __attribute__((noinline)) down_even(long n, long acc)
{
	if (n == 0)
		return acc;
	return down_odd(n - 1, acc + 2);
}

static long __attribute__((noinline)) down_odd(long n, long acc)
{
	if (n == 0)
		return acc;
	return down_even(n - 1, acc + 1);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	printf("%ld\n", down_even(n, 0));
	return 0;
}
