/* Indirect calls: the exact dynamic call graph (docs/PROTOCOL.md rule 7).
 * dispatch(k) calls ops[k] through a pointer at one call site: add 5
 * times, sub 3 times, mul 2 times (the three loops of main); main also
 * calls mul once through a pointer and add once directly, and dispatch 10
 * times directly.  qsort calls cmp (libc calls it: no caller in the
 * program, so no arc, and gprof lists cmp as <spontaneous>), and main
 * calls strlen through a pointer (not instrumented: the site executes
 * once, no arc).  The tables are volatile so that no -O2 pass turns an
 * indirect call into a direct one.
 *
 * context: every arc is exact, the indirect ones credited by the callees'
 *   entries (and the direct calls of libc functions named as the calls
 *   name them: qsort and printf, once each):
 * ipp-expect-arc context: main -> dispatch 10
 * ipp-expect-arc context: main -> add 1
 * ipp-expect-arc context: main -> qsort 1
 * ipp-expect-arc context: main -> printf 1
 * ipp-expect-arc context: main -> mul 1
 * ipp-expect-arc context: dispatch -> add 5
 * ipp-expect-arc context: dispatch -> sub 3
 * ipp-expect-arc context: dispatch -> mul 2
 * ipp-expect-icall context: main -> mul 1
 * ipp-expect-icall context: dispatch -> add 5
 * ipp-expect-icall context: dispatch -> sub 3
 * ipp-expect-icall context: dispatch -> mul 2
 * intra: only the direct arcs (indirect callees are not recorded in this
 *   mode; dispatch then has no arc at all):
 * ipp-expect-arc intra: main -> dispatch 10
 * ipp-expect-arc intra: main -> add 1
 * ipp-expect-arc intra: main -> qsort 1
 * ipp-expect-arc intra: main -> printf 1
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOIPA __attribute__((noipa))

NOIPA static int add(int a, int b)
{
	return a + b;
}

NOIPA static int sub(int a, int b)
{
	return a - b;
}

NOIPA static int mul(int a, int b)
{
	return a * b;
}

int (*volatile ops[3])(int, int) = { add, sub, mul };
size_t (*volatile length)(const char *) = strlen;

static int cmp(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;
	return (a > b) - (a < b);
}

NOIPA static int dispatch(int k, int acc)
{
	return ops[k](acc, k + 2);
}

int main(void)
{
	int v[6] = { 4, 1, 5, 9, 2, 6 };
	int acc = 1;
	for (int i = 0; i < 5; i++)
		acc = dispatch(0, acc);
	for (int i = 0; i < 3; i++)
		acc = dispatch(1, acc);
	for (int i = 0; i < 2; i++)
		acc = dispatch(2, acc);
	acc = ops[2](acc, 3);
	acc = add(acc, (int)length("indirect"));
	qsort(v, 6, sizeof(v[0]), cmp);
	printf("%d %d %d\n", acc, v[0], v[5]);
	return 0;
}
