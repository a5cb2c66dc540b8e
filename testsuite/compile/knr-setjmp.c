/* knr-setjmp.c -- a K&R call `setjmp();` without arguments.
 *
 * GCC marks a call returns_twice by its name, so this call reaches the
 * plugin's setjmp handling although it has no jump buffer to note; reading
 * its missing first argument crashed the pass (GCC's c-torture
 * compile/951222-1.c).  The caller must compile and be left uninstrumented,
 * with the reason in the map.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */

/* ipp-expect-skipped: sub1: returns_twice */
/* ipp-expect-instrumented: helper */

int setjmp();			/* no prototype: any call is accepted */
extern long foo();

long helper(long x)
{
	return x > 0 ? x : -x;
}

long sub1()
{
	long a, b;

	b = foo();
	setjmp();
	a = foo();
	return helper(a - b);
}
