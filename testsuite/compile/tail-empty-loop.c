/* tail-empty-loop.c -- a call followed by an empty infinite loop.
 *
 * After `foo (0)` the path goes on into the empty block of `for (;;) ;`,
 * which loops to itself.  Looking for a return that would make the call
 * a tail call, the pass stepped into that block and then past its end:
 * a segfault in gsi_next at -O2, in every mode (GCC's
 * gcc.c-torture/compile/pr49710.c, after tail calls were kept).  The
 * call is not in tail position; bar is instrumented.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */

/* ipp-expect-instrumented: bar */
/* ipp-expect-instrumented: baz */

int a, c;

static void foo(int *x)
{
	c = 0;
	while (1) {
		if (*x)
			break;
		if (c) {
			foo(x);
			return;
		}
	}
}

static void bar(void)
{
	foo(0);
	foo(0);
	for (;;)
		;
}

void baz(void)
{
	for (; a;)
		bar();
}
