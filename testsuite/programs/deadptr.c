/* A call through a pointer to a function that never returns (the
 * pointer's type says noreturn): main's path ends before the call (a dead
 * end), and in context mode the call site still counts the call's arc, as
 * it does at calls through pointers that return.  gprof's mcount counts
 * such a call like any other: gprof.sh compares the arc main -> fatal2
 * with it.
 *
 * pick(i) returns fatal2 for an odd i, else fatal1; main calls it for
 * i = 0 .. 3 (each branch twice), then calls what pick(3) returned,
 * fatal2, which prints "fatal2 7" and exits with status 8.
 *
 * intra: main's path from its entry through the first iteration (1), the
 * iterations from the loop header (i = 1, 2, 3: 3), and the path from the
 * header out of the loop to the dead end (1); pick's two paths twice
 * each; fatal2's one path, which ends at exit() (1).
 * context: pick continues main's paths: the first iteration from the
 * entry (even: 1), the iterations from the header through the odd branch
 * (i = 1, 3: 2) and the even one (i = 2: 1), and the way out to the dead
 * end (1); fatal2, reached through a pointer, starts a path of its own (1).
 *
 * ipp-expect intra main: 1 3 1
 * ipp-expect intra pick: 2 2
 * ipp-expect intra fatal2: 1
 * ipp-expect context main: 1 2 1 1
 * ipp-expect context fatal2: 1
 * ipp-expect-arc context: main -> pick 4
 * ipp-expect-arc context: main -> fatal2 1
 * ipp-expect-icall context: main -> fatal2 1
 * ipp-expect-arc intra: main -> pick 4
 */
#include <stdio.h>
#include <stdlib.h>

typedef void (*fatal_t)(int) __attribute__((noreturn));

__attribute__((noreturn, noinline)) static void fatal1(int c)
{
	printf("fatal1 %d\n", c);
	exit(c);
}

__attribute__((noreturn, noinline)) static void fatal2(int c)
{
	printf("fatal2 %d\n", c);
	exit(c + 1);
}

__attribute__((noinline)) static fatal_t pick(int i)
{
	if (i & 1)
		return fatal2;
	return fatal1;
}

int main(void)
{
	fatal_t f = fatal1;
	for (int i = 0; i < 4; i++)
		f = pick(i);
	f(7);
}
