/* loops.c -- nested loops and a switch with fall-through.
 *
 * classify() runs a switch whose cases fall through; count() nests two
 * loops, the inner one with an early exit.  The path counts follow from
 * the loop bounds: the outer loop runs 4 times, the inner loop 0..3 times.
 */
#include <stdio.h>

static int classify(int c)
{
	int score = 0;
	switch (c % 4) {
	case 0:
		score += 1;
		/* fall through */
	case 1:
		score += 2;
		break;
	case 2:
		score += 4;
		/* fall through */
	default:
		score += 8;
	}
	return score;
}

static int count(int n)
{
	int total = 0;
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < i; j++) {
			if (i + j == 5)
				break;
			total += classify(i * j);
		}
	}
	return total;
}

int main(void)
{
	printf("count(4) = %d\n", count(4));
	return 0;
}
