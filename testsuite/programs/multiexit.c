/* A loop with two exits (the early return), called with keys 0..5 on
 * {3, 1, 4, 1, 5}.  find's paths:
 *   A  entry, i = 0 found              k = 3                      1
 *   B  entry, i = 0 not found          k = 0, 1, 2, 4, 5          5
 *   C  header, found                   k = 1 (i=1), 4 (2), 5 (4)  3
 *   D  header, not found, next i       k = 0: 4, 2: 4, 4: 1, 5: 3 12
 *   E  header, exhausted (return -1)   k = 0, 2                   2
 * main: the first iteration (k = 0, not found) from the entry; from the
 * header: found k = 1, 3, 4, 5 (4), not found k = 2 (1); the exit (1).
 *
 * ipp-expect intra find: 1 5 3 12 2
 * ipp-expect intra main: 1 4 1 1
 */
#include <stdio.h>

static int find(const int *a, int n, int key)
{
	for (int i = 0; i < n; i++)
		if (a[i] == key)
			return i;
	return -1;
}

int main(void)
{
	int a[] = { 3, 1, 4, 1, 5 };
	int hits = 0;
	for (int k = 0; k < 6; k++)
		if (find(a, 5, k) >= 0)
			hits++;
	printf("%d\n", hits);
	return 0;
}
