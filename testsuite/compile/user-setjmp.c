/* user-setjmp.c -- a user function `int _setjmp(void)`, called in a
 * condition.
 *
 * It is not the C library's _setjmp, but GCC marks calls to it
 * returns_twice by its name; the call has no argument, so it is no jump
 * buffer the plugin could note (the pass used to crash reading it: GCC's
 * gcc.dg/pr71084.c).  Its caller must be left uninstrumented, with the
 * reason in the map; _setjmp itself is an ordinary function and is
 * instrumented.  It is noinline: inlined (context mode instruments after
 * the early inliner), no call would be left to test.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */

/* ipp-expect-skipped: pick: returns_twice */
/* ipp-expect-instrumented: _setjmp */

static int toggles;

__attribute__((noinline)) int _setjmp(void)
{
	return toggles++ & 1;
}

int pick(int x)
{
	if (_setjmp())
		return x * 2;
	for (int i = 0; i < x; i++)
		toggles += i;
	return x + 1;
}
