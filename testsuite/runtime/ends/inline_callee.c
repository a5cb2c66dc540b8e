/* A fault in a static callee that continues its caller's path in context
 * mode (issue 12's reproduction): main calls work(100) once, then
 * crash(k) for k = 0, 1, 2, 3; crash(3) dereferences a null pointer.
 * Every activation is pending at the fault: main at its call of crash,
 * crash at its entry (its last checkpoint: it has made no call).  crash is
 * noinline: inlined into main (context mode instruments after the early
 * inliner), it would be a copy without a frame, whose entry is no
 * checkpoint (docs/PROTOCOL.md, "Inlined copies"): the fault would stop
 * main's path at main's last checkpoint instead.
 *
 * ipp-end: signal SEGV
 * ipp-entries: work 1, crash 4, main 1
 * ipp-calls: main -> work 1, main -> crash 4
 * ipp-stop: crash:28
 */
#include <stdio.h>

static volatile int *volatile bad;

static int work(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += i % 3;
	return s;
}

static __attribute__((noinline)) int crash(int k)
{
	if (k > 2)
		return *bad;
	return k;
}

int main(void)
{
	int s = work(100);
	printf("s=%d\n", s);
	for (int k = 0; k < 5; k++)
		s += crash(k);
	return s & 1;
}
