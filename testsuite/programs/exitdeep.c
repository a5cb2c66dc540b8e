/* exit() three calls deep.  i = 0, 1, 2 return normally; at i = 3 level3
 * calls exit(0), abandoning level2, level1 and main (partial paths).
 * intra: level3 returns 3 times and ends once at exit: 3, 1; level2 and
 * level1 complete 3 times, 1 partial each; main: the first iteration from
 * the entry (1), i = 1, 2 from the header (2), one partial (i = 3).
 * context: level1-3 are static, on main's path: iterations i = 0 (entry),
 * i = 1, 2 (header) complete, and i = 3 ends at exit() inside level3,
 * recorded there as a complete path: 1, 2, 1; no partial path.
 * At -O2 level1's and level2's calls are tail calls (docs/PROTOCOL.md,
 * "Tail calls"): each records its path, through its return, before the
 * call, as its frame is gone before the callee runs in the machine code;
 * so no level1 or level2 activation is left pending at exit().
 * intra: level1 and level2 complete 4 times; level3 and main as at -O0.
 * context: level1 and level2 make tail calls, so they start fresh paths
 * (a function that makes tail calls is not followed into), and level3 is
 * called from a tail site: each has its own region, with the counts of
 * intra mode; main's calls are summarized: main's paths as in intra mode.
 *
 * ipp-expect intra@-O2 level3: 3 1
 * ipp-expect intra@-O2 level2: 4
 * ipp-expect intra@-O2 level1: 4
 * ipp-expect intra@-O2 main: 1 2
 * ipp-expect-partial intra@-O2 main: 1
 * ipp-expect context@-O2 level3: 3 1
 * ipp-expect context@-O2 level2: 4
 * ipp-expect context@-O2 level1: 4
 * ipp-expect context@-O2 main: 1 2
 * ipp-expect-partial context@-O2 main: 1
 *
 * ipp-expect intra level3: 3 1
 * ipp-expect intra level2: 3
 * ipp-expect intra level1: 3
 * ipp-expect intra main: 1 2
 * ipp-expect-partial intra level2: 1
 * ipp-expect-partial intra level1: 1
 * ipp-expect-partial intra main: 1
 * ipp-expect context main: 1 2 1
 * ipp-expect-partial context main:
 */
#include <stdio.h>
#include <stdlib.h>

static void level3(int x)
{
	if (x == 3)
		exit(0);
}

static void level2(int x)
{
	level3(x);
}

static void level1(int x)
{
	level2(x);
}

int main(void)
{
	for (int i = 0; i < 5; i++) {
		level1(i);
		printf("%d\n", i);
	}
	return 0;
}
