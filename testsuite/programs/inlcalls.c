/* Inlined callees that make calls.  At -O2 GCC's early inliner inlines
 * step into twice and twice into main; with -fplugin-arg-ipp-einline each
 * copy is a virtual procedure (docs/NUMBERING.md, section 8), and the
 * copies of step call leaf_add, a function of the unit, out of line:
 * those copies push frames of their own.  Paths stay source paths: in
 * context mode main's paths go through twice, both steps and leaf_add
 * exactly as without einline (testsuite/programs/einline.sh checks these
 * annotations with it, and that the copies are there).  No call is in
 * tail position, so nothing is a sibling call at -O2.
 *
 * Iteration i of main's loop computes step(step(i)); step takes its odd
 * branch (leaf_add(x) + 1 = x + 1, even) for an odd argument, else halves
 * it:
 *   i:        0    1    2    3    4    5
 *   branches  E,E  O,E  E,O  O,E  E,E  O,E     (the second on step(i))
 * context: main's paths are the first iteration from the entry (E,E),
 * the iterations restarted at the loop head, (O,E) 3 times, (E,O) once,
 * (E,E) once, and the exit: 1 1 1 1 3.
 * intra: main runs its entry path, its loop body 5 times from the loop
 * head and its exit path once; twice one path 6 times; step's odd path 4
 * times and its even path 8 times (12 calls); leaf_add 4 times.
 * It prints the sum of twice(i) = 2 * step(step(i)): 0+2+4+4+2+6 = 18.
 *
 * ipp-expect context main: 1 1 1 1 3
 * ipp-expect intra main: 1 1 5
 * ipp-expect intra twice: 6
 * ipp-expect intra step: 4 8
 * ipp-expect intra leaf_add: 4
 */
#include <stdio.h>

int bias;

__attribute__((noinline)) int leaf_add(int x)
{
	return x + bias;
}

static inline int step(int x)
{
	if (x & 1)
		return leaf_add(x) + 1;
	return x / 2;
}

static inline int twice(int x)
{
	return step(step(x)) * 2;
}

int main(void)
{
	int s = 0;
	for (int i = 0; i < 6; i++)
		s += twice(i);
	printf("%d\n", s);
	return 0;
}
