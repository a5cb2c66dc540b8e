/* A nonlocal goto out of a recursion of nested functions (GNU C), and
 * __builtin_setjmp / __builtin_longjmp out of a recursion.  The functions
 * that receive the jumps (outer, catcher) cannot be numbered (abnormal
 * entry) and are not instrumented.  Before jumping, the jumper records its
 * own path and then the pending paths of every frame below the receiver
 * (__ipp_unwind_below: the nonlocal goto's save area, __builtin_setjmp's
 * saved stack pointer); the receiver restores the frame list when control
 * comes back, so no dead frame is ever walked.  In every mode:
 *   rec (region rec.0, its assembler name; called from the uninstrumented
 *   outer, so it has its own region, and every recursive call starts a
 *   fresh path): rec(0) ends its path at the goto, twice (outer(3),
 *   outer(1)): one complete path, count 2.  The activations abandoned
 *   mid-call, rec(3), rec(2), rec(1) and then rec(1) again, each leave the
 *   same prefix (entry, k != 0, the recursive call): one partial path,
 *   count 4.  So rec is entered 2 + 4 = 6 times, as gcov counts.
 *   down: likewise with __builtin_longjmp: 2 complete, 4 partial.
 *   main: one path from entry to return (the calls of outer and catcher
 *   are summarized: their callees are not instrumented).
 * The run is checked with IPP_VERBOSE=1 too: no "inconsistent frames".
 * At -O2 the recursive calls rec(k - 1) and down(n - 1) are tail calls
 * (docs/PROTOCOL.md, "Tail calls"): each activation records its path,
 * through its return, before the call, and no frame is left below the
 * receiver: rec.0 and down complete 2 (the jump) and 4 (the tail call)
 * times, no partial path; main as at -O0.
 *
 * ipp-expect intra@-O2 rec.0: 2 4
 * ipp-expect intra@-O2 down: 2 4
 * ipp-expect intra@-O2 main: 1
 * ipp-expect context@-O2 rec.0: 2 4
 * ipp-expect context@-O2 down: 2 4
 * ipp-expect context@-O2 main: 1
 *
 * ipp-expect intra rec.0: 2
 * ipp-expect-partial intra rec.0: 4
 * ipp-expect intra down: 2
 * ipp-expect-partial intra down: 4
 * ipp-expect intra main: 1
 * ipp-expect context rec.0: 2
 * ipp-expect-partial context rec.0: 4
 * ipp-expect context down: 2
 * ipp-expect-partial context down: 4
 * ipp-expect context main: 1
 */
#include <stdio.h>

static int calls;

static int outer(int n)
{
	__label__ out;
	void rec(int k)
	{
		calls++;
		if (k == 0)
			goto out;
		rec(k - 1);
	}
	rec(n);
	return -1;
out:
	return calls;
}

static void *buf[5];

static void __attribute__((noinline)) down(int n)
{
	calls++;
	if (n == 0)
		__builtin_longjmp(buf, 1);
	down(n - 1);
}

static int __attribute__((noinline)) catcher(int n)
{
	if (__builtin_setjmp(buf))
		return calls;
	down(n);
	return -1;
}

int main(void)
{
	int a = outer(3);
	int b = outer(1);
	int c = catcher(3);
	int d = catcher(1);
	printf("%d %d %d %d\n", a, b, c, d);
	return 0;
}
