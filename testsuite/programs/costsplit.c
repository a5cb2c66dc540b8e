/* costsplit.c -- a routine cheap from one caller and expensive from
 * another, and a recursive cycle, for ipp callgraph (testsuite/programs/
 * callgraph.sh) next to gprof.
 *
 * work(n) loops n times.  light() calls it 3 times with n = 1, heavy() 2
 * times with n = 40: 5 calls in all, so gprof charges 3/5 of work's time to
 * light and 2/5 to heavy, while heavy's calls do 80 of the 83 iterations.
 * is_even and is_odd call each other (a cycle): is_even(6) makes 6 calls
 * inside the cycle (is_odd(5), is_even(4), ..., is_even(0)), twice.
 * An argument "light" or "heavy" makes only that caller run (callgraph.sh
 * measures each caller's cost with gcov that way).
 *
 * (strcmp is never called: the program runs without arguments.)
 * Paths in intra mode: work: 5 first iterations from its entry (3 + 2),
 * 5 loop exits from the header, 78 more iterations of heavy's calls
 * (2 * 39); light: 3, heavy: 2 (no branch); is_even: 6 calls of is_odd and
 * 2 base cases; is_odd: 6; main: the first iteration of its first loop
 * from the entry (1), 2 more, the first loop's exit into the second loop's
 * first iteration (1), 1 more, and the exit (1).
 *
 * ipp-expect intra main: 1 2 1 1 1
 * ipp-expect intra light: 3
 * ipp-expect intra heavy: 2
 * ipp-expect intra work: 5 5 78
 * ipp-expect intra is_even: 6 2
 * ipp-expect intra is_odd: 6
 * ipp-expect-arc context: main -> light 3
 * ipp-expect-arc context: main -> heavy 2
 * ipp-expect-arc context: main -> is_even 2
 * ipp-expect-arc context: main -> printf 1
 * ipp-expect-arc context: main -> strcmp 0
 * ipp-expect-arc context: light -> work 3
 * ipp-expect-arc context: heavy -> work 2
 * ipp-expect-arc context: is_even -> is_odd 6
 * ipp-expect-arc context: is_odd -> is_even 6
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <stdio.h>
#include <string.h>

static int work(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += i & 3;
	return s;
}

static int light(void)
{
	return work(1);
}

static int heavy(void)
{
	return work(40);
}

static int is_odd(int n);

static int is_even(int n)
{
	if (n == 0)
		return 1;
	return is_odd(n - 1);
}

static int is_odd(int n)
{
	if (n == 0)
		return 0;
	return is_even(n - 1);
}

int main(int argc, char **argv)
{
	int total = 0;
	int only_light = argc > 1 && strcmp(argv[1], "light") == 0;
	int only_heavy = argc > 1 && strcmp(argv[1], "heavy") == 0;

	for (int k = 0; k < 3 && !only_heavy; k++)
		total += light();
	for (int k = 0; k < 2 && !only_light; k++)
		total += heavy();
	total += is_even(6) + is_even(6);
	printf("%d\n", total);
	return 0;
}
