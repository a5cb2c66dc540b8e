/* named-setjmp.c -- a user function named setjmp, with no parameters.
 *
 * GCC marks calls to any function named setjmp returns_twice; this one
 * takes no jump buffer (GCC's gcc.dg/pr84956.c crashed the pass the same
 * way).  Its callers must be left uninstrumented, with the reason in the
 * map; setjmp itself is an ordinary function and is instrumented.  It is
 * noinline: inlined (context mode instruments after the early inliner),
 * no call would be left to test.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */

/* ipp-expect-skipped: twice: returns_twice */
/* ipp-expect-instrumented: setjmp */

static int calls;

__attribute__((noinline)) unsigned setjmp(void)
{
	return calls++ % 3;
}

int twice(int x)
{
	int r = 0;

	if (x > 0)
		r = setjmp();
	if (x > 1)
		r += setjmp();
	return r;
}
