/* A fault inside a function entered through a dead-end call: main calls
 * first(), which prints and calls second() (at -O2 a tail call); second()
 * calls third() as a dead end (third never returns), and third() faults
 * before it aborts.  second's path is recorded, and its checkpoint marked
 * so, before third runs: no checkpoint stands at the call.  Until a
 * function entered through a dead-end call had a frame of its own
 * (ipp_decide_frames), third's activation was lost: `ipp check` found a
 * call of third and no entry (gcc.dg's cleanup-8.c, intra mode).
 *
 * ipp-end: signal SEGV
 * ipp-entries: third 1, second 1, first 1, main 1
 * ipp-calls: second -> third 1, first -> second 1, main -> first 1
 * ipp-stop: third:21
 */
#include <stdio.h>
#include <stdlib.h>

static volatile int *volatile bad;
volatile int sink;

__attribute__((noinline, noreturn)) static void third(int k)
{
	if (k > 2)
		*bad = k;	/* faults */
	abort();
}

__attribute__((noinline)) static int second(int k)
{
	if (k > 1)
		third(k + 1);
	return k;
}

__attribute__((noinline)) static int first(int k)
{
	printf("first %d\n", k);
	fflush(stdout);
	return second(k * 2);
}

int main(int argc, char **argv)
{
	(void)argv;
	sink = first(argc + 1);
	return 0;
}
