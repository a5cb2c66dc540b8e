/* Two diamonds in a loop.  classify(i) takes one of 4 paths by the low two
 * bits of i; i = 0..7 gives each pattern twice.  main's loop: the first
 * iteration runs from the entry, the next 7 from the loop header, then the
 * exit path: 1, 7, 1.
 * context: classify is static, so its paths are part of main's: the first
 * iteration (i = 0, bits 00) from the entry; from the header bits 01 (i =
 * 1, 5), 10 (2, 6), 11 (3, 7), 00 (4); and the exit: 1, 2, 2, 2, 1, 1.
 *
 * ipp-expect intra classify: 2 2 2 2
 * ipp-expect intra main: 1 7 1
 * ipp-expect context main: 1 2 2 2 1 1
 */
#include <stdio.h>

static int classify(int x)
{
	int r = 0;
	if (x & 1)
		r += 1;
	if (x & 2)
		r += 2;
	return r;
}

int main(void)
{
	int s = 0;
	for (int i = 0; i < 8; i++)
		s += classify(i);
	printf("%d\n", s);
	return 0;
}
