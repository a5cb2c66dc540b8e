/* exit() from a signal handler that interrupted a function without a
 * frame: main -> g, whose loop calls f (no calls: no frame); f's first
 * division by zero raises SIGFPE, and the handler, onfpe (instrumented,
 * without a frame: its only call is exit), records its own path and
 * calls exit(0).  The walk at exit finds g's frame standing at the call
 * of f and records f's entry (the callees table), as after a fatal
 * signal; onfpe must not mark g's checkpoint as if it were g's callee
 * (__ipp_callee_recorded_in): before, f's activation was lost and, in
 * intra mode, `ipp check` found g's call of f without f's entry.  f
 * branches on the quotient, so that its record cannot run before the
 * division (GCC may move a trapping division after a record that does
 * not depend on it: docs/PROTOCOL.md, "The checkpoint").
 *
 * ipp-end: exit 0
 * ipp-entries: f 1, g 1, main 1, onfpe 1
 * ipp-calls: main -> g 1, g -> f 1
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static volatile int zero;

static void onfpe(int s)
{
	(void)s;
	exit(0);
}

__attribute__((noinline)) static int f(int x)
{
	int q = x / zero;
	if (q & 1)
		return q * 3;
	return q - 1;
}

__attribute__((noinline)) static int g(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += f(i + 7);
	return s;
}

int main(void)
{
	signal(SIGFPE, onfpe);
	printf("%d\n", g(3));
	return 0;
}
