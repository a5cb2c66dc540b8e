/* A fault in a function without a frame that context mode does not clone
 * (noclone): a call to it is summarized as a call out of the unit (no
 * callee procedure in G*), so the runtime's table of frameless callees
 * names it by the call's declaration (ipp_frameless_callees).  main calls
 * probe(0), which returns, then probe(2), which faults: probe's second
 * activation stops at its entry.  Before, in context mode, it was lost:
 * probe had one entry.
 *
 * ipp-end: signal SEGV
 * ipp-entries: probe 2, main 1
 * ipp-calls: main -> probe 2
 * ipp-stop: probe:19
 */
#include <stdio.h>

static volatile int *volatile bad;
volatile int sink;

__attribute__((noinline, noclone)) static int probe(int k)
{
	if (k > 1)
		*bad = k;	/* faults */
	return k + 1;
}

int main(int argc, char **argv)
{
	(void)argv;
	sink = probe(0);
	printf("%d\n", sink);
	fflush(stdout);
	sink = probe(argc + 1);
	return 0;
}
