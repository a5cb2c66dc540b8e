/* Recursion.  sum(n) calls itself n times below the outer call: the
 * recursive call site is summarized, every activation records its own
 * path.  sum(4): activations n = 4, 3, 2, 1 take the recursive branch, n = 0
 * the base case.
 * intra: sum: 4, 1; main: 1.
 * context: the self-call is recursive (a call-graph DFS back edge), so
 * sum has its own region; main's path reaches sum's first activation
 * (n = 4) through an interprocedural call edge: main's region holds one path
 * (main, then sum(4)'s recursive branch up to... the summarized call, back,
 * and the return); sum's region holds the 4 fresh activations n = 3..0:
 * 3 recursive-branch paths and 1 base case.
 *
 * ipp-expect intra sum: 4 1
 * ipp-expect intra main: 1
 * ipp-expect context main: 1
 * ipp-expect context sum: 3 1
 */
#include <stdio.h>

static int sum(int n)
{
	if (n == 0)
		return 0;
	return n + sum(n - 1);
}

int main(void)
{
	printf("%d\n", sum(4));
	return 0;
}
