/* _Unwind_ForcedUnwind through instrumented frames with cleanup
 * attributes (-fexceptions), as GCC's gcc.dg/cleanup-12.c does: main ->
 * top -> middle -> deep -> unwind_now, which unwinds the whole stack.
 * deep's cleanup adds 2, middle has none (only the plugin's own landing
 * pad removes its frame), top's adds 1, and main's cleanup, done(), exits
 * with status 0 if both ran (cleaned 3).  Every removed activation's path
 * is partial, each pad starts a new path (docs/PROTOCOL.md, "Exceptions
 * and forced unwinds"): gcov.sh and unwind.sh compare the derived line
 * counts with gcov's and require `ipp check` to pass.
 *
 * ipp-cflags: -fexceptions
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unwind.h>

static int cleaned;

/* Not instrumented: libgcc calls a stop function again for the frame
 * that resumes unwinding after each landing pad, and the plugin gives
 * every framed activation one (middle, unwind_now), so the instrumented
 * build calls it more often (README, Limitations); its lines would differ
 * from gcov's. */
__attribute__((no_instrument_function))
static _Unwind_Reason_Code stop(int version, _Unwind_Action actions,
				_Unwind_Exception_Class cls, struct _Unwind_Exception *exc,
				struct _Unwind_Context *ctx, void *arg)
{
	if (actions & _UA_END_OF_STACK)
		abort();	/* main's cleanup exits before the end */
	return _URC_NO_REASON;
}

static void unwind_now(void)
{
	static struct _Unwind_Exception exc;
	memset(&exc, 0, sizeof(exc));
	_Unwind_ForcedUnwind(&exc, stop, 0);
	abort();
}

static void count_cleanup(int *p)
{
	cleaned += *p;
}

static void done(int *p)
{
	printf("cleaned %d\n", cleaned + *p);
	exit(cleaned == 3 ? 0 : 1);
}

static int odd_ones(int n)
{
	int i, s = 0;
	for (i = 0; i < n; i++)
		s += i & 1;
	return s;
}

__attribute__((noinline)) static int deep(int n)
{
	int a __attribute__((cleanup(count_cleanup))) = 2;
	if (n > odd_ones(n))
		unwind_now();
	return n;
}

__attribute__((noinline)) static int middle(int n)
{
	int i, s = 0;
	for (i = 0; i < n; i++)
		s += i;
	return s + deep(n);
}

__attribute__((noinline)) static int top(int n)
{
	int a __attribute__((cleanup(count_cleanup))) = 1;
	return middle(n);
}

int main(void)
{
	int z __attribute__((cleanup(done))) = 0;
	return top(4);
}
