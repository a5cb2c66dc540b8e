/* A switch with fall-through.  classify(c) has 4 paths, by c % 4: case 0
 * falls into case 1, case 2 into default.  i = 0..9 gives c % 4 =
 * 0,1,2,3,0,1,2,3,0,1: case 0 three times, 1 three times, 2 and 3 twice.
 * main's loop: the first iteration from the entry, 9 from the header, the
 * exit.  context (classify is static): the first iteration (case 0), then
 * from the header case 0 (i = 4, 8), 1 (1, 5, 9), 2 (2, 6), 3 (3, 7), and
 * the exit.
 *
 * ipp-expect intra classify: 3 3 2 2
 * ipp-expect intra main: 1 9 1
 * ipp-expect context main: 1 2 3 2 2 1
 */
#include <stdio.h>

static int classify(int c)
{
	int s = 0;
	switch (c % 4) {
	case 0:
		s += 1;
		/* fall through */
	case 1:
		s += 2;
		break;
	case 2:
		s += 4;
		/* fall through */
	default:
		s += 8;
	}
	return s;
}

int main(void)
{
	int t = 0;
	for (int i = 0; i < 10; i++)
		t += classify(i);
	printf("%d\n", t);
	return 0;
}
