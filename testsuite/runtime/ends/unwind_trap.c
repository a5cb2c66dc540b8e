/* An exception out of a function without a frame: with
 * -fnon-call-exceptions a faulting store may throw.  main calls outer(),
 * which has a cleanup and calls trap(); trap() faults, and the SIGSEGV
 * handler unwinds the stack (_Unwind_ForcedUnwind, as gcc.dg's
 * cleanup-8.c does) through the signal frame, trap() (which has no pad)
 * and into outer's cleanup, which exits.  At outer's landing pad outer's
 * frame stands at its call of trap(), which has no frame of its own: the
 * pad records trap's activation stopped at its entry, as a fatal signal
 * would (runtime/rt_unwind.c).  Until it did, trap's activation was lost
 * and `ipp check` found a call of trap and no entry (cleanup-8.c, intra
 * mode).
 *
 * ipp-cflags: -fexceptions -fnon-call-exceptions
 * ipp-end: exit 0
 * ipp-entries: trap 1, outer 1, main 1
 * ipp-calls: outer -> trap 1, main -> outer 1
 * ipp-stop: trap:49
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unwind.h>

static volatile int *volatile bad;
volatile int sink;

static _Unwind_Reason_Code stop(int version, _Unwind_Action actions, _Unwind_Exception_Class cls,
				struct _Unwind_Exception *exc, struct _Unwind_Context *ctx,
				void *arg)
{
	if (actions & _UA_END_OF_STACK)
		abort();	/* outer's cleanup should have exited */
	return _URC_NO_REASON;
}

static void unwind(int sig)
{
	static struct _Unwind_Exception exc;
	memset(&exc, 0, sizeof(exc));
	_Unwind_ForcedUnwind(&exc, stop, 0);
	abort();
}

static void leave(int *p)
{
	exit(0);
}

__attribute__((noinline)) static int trap(int k)
{
	if (k > 1)
		*bad = k;	/* faults, and throws */
	return k;
}

__attribute__((noinline)) static int outer(int k)
{
	int guard __attribute__((cleanup(leave))) = 0;
	sink = trap(k + 1);
	return guard;
}

int main(int argc, char **argv)
{
	(void)argv;
	signal(SIGSEGV, unwind);
	signal(SIGBUS, unwind);
	return outer(argc);
}
