/* A function with setjmp keeps its path register in memory: run() sets a
 * jump buffer, calls step(i) for i = 0..4 in a loop; step(2) longjmps back
 * (run restarts its path at setjmp's return site and resumes at i = 3);
 * step(4) faults.
 *
 * ipp-end: signal SEGV
 * ipp-entries: step 5, run 1, main 1
 * ipp-calls: run -> step 5, main -> run 1
 */
#include <setjmp.h>

static jmp_buf env;
static volatile int *volatile bad;
volatile int sink;

__attribute__((noinline)) void step(int i)
{
	if (i == 2)
		longjmp(env, 1);
	if (i == 4)
		sink = *bad;
	sink = i;
}

__attribute__((noinline)) int run(void)
{
	volatile int i = 0;
	if (setjmp(env))
		i = 3;
	for (; i < 5; i++)
		step(i);
	return i;
}

int main(void)
{
	return run() & 1;
}
