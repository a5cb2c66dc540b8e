/* A fault in a function entered fresh (through a pointer) inside the loop
 * of another: main calls outer(), whose loop calls inner(i) through a
 * pointer for i = 0..3; inner(3) faults inside its own loop, at its
 * third iteration.  Pending: main (at its call of outer), outer (at the
 * indirect call), inner (at its loop header).
 *
 * ipp-end: signal SEGV
 * ipp-entries: inner 4, outer 1, main 1
 * ipp-calls: main -> outer 1
 */
#include <stddef.h>

static volatile int *volatile bad;
int (*volatile fp)(int);

int inner(int k)
{
	int s = 0;
	for (int j = 0; j < 4; j++) {
		if (k == 3 && j == 2)
			s += *bad;
		s += j;
	}
	return s;
}

__attribute__((noinline)) static int outer(void)
{
	int s = 0;
	for (int i = 0; i < 4; i++)
		s += fp(i);
	return s;
}

int main(void)
{
	fp = inner;
	return outer() & 1;
}
