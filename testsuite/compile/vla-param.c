/* vla-param.c -- a parameter of variably modified type.
 *
 * foo's second parameter is a struct whose member is sized by the first
 * (GCC's gcc.dg/pr99122-3.c; the unprototyped declaration lets bar pass a
 * double for it).  In context mode the continuing clone of foo -- a copy
 * with more parameters -- could not gimplify that size once IPA-CP
 * specialized it: an ICE in force_constant_size at -O2.  Such a function
 * gets no clone (its callers' paths stop at the call); it is
 * instrumented.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */

/* ipp-expect-instrumented: foo */
/* ipp-expect-instrumented: bar */

static int foo();

int bar(int n)
{
	return foo(n, 2.0);
}

static inline int foo(int n, struct T { char a[n]; } b)
{
	int r = 0, i;

	for (i = 0; i < n; i++)
		r += b.a[i];
	return r;
}
