/* Tail calls (docs/PROTOCOL.md, "Tail calls"): at -O2 a call in tail
 * position stays a sibling call.  It is summarized (its callee starts a
 * fresh path in its own region), and its caller's path, through the
 * return after it, is recorded before it.  At -O0 GCC makes no sibling
 * calls and neither does ipp: the calls are ordinary ones.
 *
 * Runs: step(0..3); is_even(10) (evens 10..0, odds 9..1); is_odd(7) (odds
 * 7..1, evens 6..0).
 * intra (the same at -O0 and -O2: each activation is a path of its own):
 * main 1; step: odd n twice, even n twice; tick 4 activations; is_even 10
 * activations, 2 of them the base case (0), 8 tail calls; is_odd 9, every
 * one a tail call.
 * context at -O2: a function that makes tail calls starts fresh paths
 * (its callers do not follow into it: its path ends at its tail call,
 * which it could not hand back to a caller that may never see the return)
 * and tick is called from a tail site: every function has its own region,
 * and the counts are intra mode's.
 * (context at -O0 is not annotated: which of the two mutually recursive
 * call sites is the call graph's back edge is the numbering's choice.)
 *
 * ipp-expect intra main: 1
 * ipp-expect intra step: 2 2
 * ipp-expect intra tick: 4
 * ipp-expect intra is_even: 8 2
 * ipp-expect intra is_odd: 9
 * ipp-expect context@-O2 main: 1
 * ipp-expect context@-O2 step: 2 2
 * ipp-expect context@-O2 tick: 4
 * ipp-expect context@-O2 is_even: 8 2
 * ipp-expect context@-O2 is_odd: 9
 */
#include <stdio.h>

static unsigned ticks;

static int __attribute__((noinline)) is_odd(unsigned n);

static int __attribute__((noinline)) is_even(unsigned n)
{
	if (n == 0)
		return 1;
	return is_odd(n - 1);
}

static int __attribute__((noinline)) is_odd(unsigned n)
{
	if (n == 0)
		return 0;
	return is_even(n - 1);
}

static void __attribute__((noinline)) tick(unsigned n)
{
	ticks += n;
}

/* a void tail call */
static void __attribute__((noinline)) step(unsigned n)
{
	if (n & 1)
		ticks++;
	tick(n);
}

int main(void)
{
	int a, b;
	step(0);
	step(1);
	step(2);
	step(3);
	a = is_even(10);
	b = is_odd(7);
	printf("%d %d %u\n", a, b, ticks);
	return 0;
}
