/* Straight-line code: one path per function.
 * intra: f runs its only path 3 times; main its only path once.
 * context: f is reached only through main's three call sites, so the one
 * run is one path of main's region, through all three calls of f.
 *
 * ipp-expect intra f: 3
 * ipp-expect intra main: 1
 * ipp-expect context main: 1
 */
#include <stdio.h>

int f(int x)
{
	return x * 2 + 1;
}

int main(void)
{
	int s = 0;
	s += f(1);
	s += f(2);
	s += f(3);
	printf("%d\n", s);
	return 0;
}
