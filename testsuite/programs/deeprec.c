/* Deep recursion: depth(20000).  Instrumentation adds a frame to every
 * activation and defeats tail calls, so recursion needs more stack than the
 * plain build (README, Limitations); 20000 levels fit the default 8 MiB.
 * intra: 20000 recursive activations, 1 base case; main 1.
 * context: the self-call is recursive, so depth has a region: main's path
 * takes depth(20000)'s recursive branch (a continuing call); the 19999
 * inner recursive activations and the base case start fresh in depth's
 * region.
 *
 * ipp-expect intra depth: 20000 1
 * ipp-expect intra main: 1
 * ipp-expect context main: 1
 * ipp-expect context depth: 19999 1
 */
#include <stdio.h>

static long depth(long n)
{
	if (n == 0)
		return 0;
	return 1 + depth(n - 1);
}

int main(void)
{
	printf("%ld\n", depth(20000));
	return 0;
}
