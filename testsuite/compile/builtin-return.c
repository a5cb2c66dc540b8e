/* builtin-return.c -- a function that returns through __builtin_return.
 *
 * GCC types __builtin_return noreturn, yet it returns from the function
 * that calls it: instrumenting that function left its frame on the
 * thread's list, and the code put before the call crashed GCC at RTL
 * expansion (an ICE in purge_dead_edges: gcc.dg/builtin-return-1.c,
 * builtin-apply4.c).  Such a function is left uninstrumented, with the
 * reason in the map; its callers and the function it applies are
 * instrumented.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */

/* ipp-expect-skipped: relay: __builtin_return */
/* ipp-expect-instrumented: add1 */
/* ipp-expect-instrumented: main */

int add1(int n)
{
	return n + 1;
}

int relay(int n)
{
	(void)n;
	__builtin_return(__builtin_apply((void (*)(void))add1, __builtin_apply_args(), 64));
}

int main(void)
{
	int s = 0;

	for (int i = 0; i < 3; i++)
		s += relay(i);
	return s == 6 ? 0 : 1;
}
