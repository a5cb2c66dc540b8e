/* fig4pub.c under -fwhole-program: GCC's visibility pass makes power
 * local, so only main is entered from outside: the paper's whole-program
 * model, 36 paths, Figure 9's counts.
 *
 * ipp-cflags: -fwhole-program
 * ipp-expect-total context: 36
 * ipp-expect context main: 1 9 9 3 3 3 6 3 3 3 5 1
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
