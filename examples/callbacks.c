/* callbacks.c -- calls through function pointers, and callbacks from libc.
 *
 * qsort calls cmp_int from inside libc (uninstrumented): each callback
 * enters fresh in its own region.  apply() calls through a pointer: an
 * indirect call site, summarized in G*fin.
 */
#include <stdio.h>
#include <stdlib.h>

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	if (x < y)
		return -1;
	if (x > y)
		return 1;
	return 0;
}

static int twice(int x) { return 2 * x; }
static int square(int x) { return x * x; }

static int apply(int (*f)(int), int x)
{
	return f(x);
}

int main(void)
{
	int v[] = { 5, 3, 9, 1, 7, 3, 8 };
	size_t n = sizeof(v) / sizeof(v[0]);
	int sum = 0;

	qsort(v, n, sizeof(v[0]), cmp_int);
	for (size_t i = 0; i < n; i++) {
		int (*f)(int) = (v[i] % 2) ? twice : square;
		sum += apply(f, v[i]);
		printf("%d ", v[i]);
	}
	printf("\nsum = %d\n", sum);
	return 0;
}
