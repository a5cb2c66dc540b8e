/* fig4.c -- the example program of Melski & Reps, "Interprocedural Path
 * Profiling", Figure 4.
 *
 * It computes (sum_{j=1..9} (2j)^2) + (sum_{k=1..6} (3k)^2) = 1959.
 * Changes from the paper:
 *  - 'pow' is renamed 'power' (it would clash with the C library's pow),
 *    and its local variable 'power' becomes 'value';
 *  - 'power' is static: it can then only be entered through main's two
 *    call sites, so it gets no entry region of its own and the program has
 *    the paper's 36 paths, all in main's region;
 *  - main prints the result, so that a profiled run can be compared with a
 *    plain one.
 * The control flow is otherwise the paper's, line for line: profiling this
 * program should give the counts of the paper's Figure 9.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <stdio.h>

static double power(double base, long exp)
{
	double value = 1.0;
	while (exp > 0) {
		value *= base;
		exp--;
	}
	return value;
}

int main(void)
{
	double t, result = 0.0;
	int i = 1;
	while (i <= 18) {
		if ((i % 2) == 0) {
			t = power(i, 2);
			result += t;
		}
		if ((i % 3) == 0) {
			t = power(i, 2);
			result += t;
		}
		i++;
	}
	printf("%g\n", result);
	return 0;
}
