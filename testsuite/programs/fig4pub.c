/* The paper's Figure 4 with power externally visible (issue 4's
 * acceptance): power gets its own Entry region, with power's 4 paths
 * (2 from the entry and 2 from the loop header, each ending at the back
 * edge or the return), so the unit numbers 36 + 4 = 40 paths; the executed
 * paths are still Figure 9's (power is only called from main).  In intra
 * mode main has 10 paths and power 4.
 *
 * ipp-expect-total context: 40
 * ipp-expect context main: 1 9 9 3 3 3 6 3 3 3 5 1
 * ipp-expect-total intra: 14
 * ipp-expect intra main: 1 6 3 3 5 1
 * ipp-expect intra power: 15 15 15
 */
#include <stdio.h>

double power(double base, long exp)
{
	double value = 1.0;
	while (exp > 0) {
		value *= base;
		exp--;
	}
	return value;
}

int main(void)
{
	double t, result = 0.0;
	int i = 1;
	while (i <= 18) {
		if ((i % 2) == 0) {
			t = power(i, 2);
			result += t;
		}
		if ((i % 3) == 0) {
			t = power(i, 2);
			result += t;
		}
		i++;
	}
	printf("%g\n", result);
	return 0;
}
