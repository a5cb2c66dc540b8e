/* debug.c -- inlining, loops and calls, for the -g tests of run.sh: the
 * same source built with and without -g must give byte-identical .ipp_map
 * sections, and -fcompare-debug (which compiles with and without -g and
 * compares the generated code) must pass with the plugin.  Debug
 * statements exist only with -g; the plugin's graph must not see them.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */

#include <stdio.h>

/* Inlined at every level, -O0 included. */
static inline __attribute__((always_inline)) int square(int x)
{
	return x * x;
}

/* Inlined at -O2 only. */
static int sum_squares(const int *a, int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += square(a[i]);
	return s;
}

/* Never inlined: a real call. */
__attribute__((noinline)) int classify(int v)
{
	switch (v % 4) {
	case 0:
		return v / 4;
	case 1:
		return -v;
	default:
		return v + 1;
	}
}

int work(int *a, int n)
{
	int total = 0;

	for (int round = 0; round < 3; round++) {
		if (round & 1)
			total += sum_squares(a, n);
		else
			for (int i = 0; i < n; i++)
				total -= classify(a[i]);
	}
	return total;
}

int main(void)
{
	int a[] = { 3, 1, 4, 1, 5, 9, 2, 6 };

	printf("%d\n", work(a, 8));
	return 0;
}
