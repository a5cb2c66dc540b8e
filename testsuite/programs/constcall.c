/* Calls to functions declared const and pure.  GCC may merge two calls
 * of a const function with equal arguments (FRE at -O2) and drop one whose
 * value is unused; once instrumented, these functions write the path
 * state, so every call of the source must stay a call, or the caller's
 * path would go through call vertices whose callee never ran.  (C gives a
 * call of a const function a const-qualified function type as well as the
 * const decl: both must be cleared, plugin/pass.cc.)
 *
 * (The front end itself folds sq(2) + sq(2) into one call times 2: a and
 * b keep two calls in the source's GIMPLE, which FRE merges at -O2.)
 *
 * intra: sq runs its one path 4 times (twice for s, twice in the loop);
 * weight its one path 2 times (the two equal pure calls); main: one path
 * with the loop's body, taken twice, plus the entry and the exit paths.
 *
 * ipp-expect intra sq: 4
 * ipp-expect intra weight: 2
 * ipp-expect intra main: 1 1 1
 * ipp-expect context main: 1 1 1
 */
#include <stdio.h>

int sq(int) __attribute__((const));
int weight(const int *) __attribute__((pure));

int table[4] = { 3, 1, 4, 1 };

int main(void)
{
	int a = 2, b = 2;
	int s = sq(a) + sq(b);
	int w = weight(table) + weight(table);
	for (int i = 0; i < 2; i++)
		s += sq(i);
	printf("%d %d\n", s, w);
	return 0;
}

int sq(int x)
{
	return x * x;
}

int weight(const int *t)
{
	return t[0] + t[1] + t[2] + t[3];
}
