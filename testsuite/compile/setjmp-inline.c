/* setjmp-inline.c -- a body inlined into a function that calls
 * __builtin_setjmp keeps the abnormal edges of its calls.
 *
 * foo() is not instrumented (__builtin_setjmp), but the plugin guards its
 * abnormal entries, restoring the thread's top frame.  That restore once
 * went into the abnormal dispatcher block too, ahead of the dispatcher
 * call, where GCC's inliner no longer found the dispatcher: the calls of
 * hop() inlined into foo() (always_inline, or GCC's own choice since
 * plugin/sizes.cc) got no abnormal edge, and GCC took `a` to be 0 after
 * the __builtin_longjmp (torture pr60003.c): the program printed "a=0"
 * and exited 1 at -O2 in both modes.  Checked by run.sh (part 6): the
 * same output and exit status as the plain build.  Not in
 * testsuite/programs: hop()'s path, pending when jump() leaves by
 * __builtin_longjmp to an uninstrumented receiver, is dropped (README,
 * "Limitations"), so gcov's and gprof's counts would not match. */
#include <stdio.h>

static void *buf[5];
static int depth;

__attribute__((noinline, noclone)) static void jump(void)
{
	depth++;
	__builtin_longjmp(buf, 1);
}

static inline __attribute__((always_inline)) void hop(void)
{
	depth++;
	jump();
}

__attribute__((noinline, noclone)) static int foo(int x)
{
	int a = 0;

	if (__builtin_setjmp(buf) == 0) {
		for (;;) {
			a = 1;
			hop();
		}
	}
	printf("a=%d depth=%d\n", a, depth);
	return a ? x : 0;
}

int main(void)
{
	return foo(7) == 7 ? 0 : 1;
}
