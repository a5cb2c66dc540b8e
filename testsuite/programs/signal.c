/* A signal handler that runs while a path is in progress: step() raises
 * SIGUSR1 for i = 0, 3, 6; the handler calls bump().  The handler is
 * address-taken, so it enters fresh in its own region, saving and restoring
 * the context slots: the interrupted path must come out exactly as without
 * the signal.  Output "72 3".
 * intra: step raises 3 times, not 6 times; handler and bump 3 times each;
 * main: first iteration, 8 from the header, the exit.
 * context: handler's region: handler -> bump, 3 times.  main's region
 * (step is static, on main's paths): i = 0 from the entry (raising);
 * from the header raising (3, 6) and not (1, 2, 4, 5, 7, 8); the exit.
 *
 * ipp-expect intra step: 3 6
 * ipp-expect intra handler: 3
 * ipp-expect intra bump: 3
 * ipp-expect intra main: 1 8 1
 * ipp-expect context handler: 3
 * ipp-expect context main: 1 2 6 1
 */
#include <signal.h>
#include <stdio.h>

static volatile int hits;

static int bump(int x)
{
	return x + 1;
}

static void handler(int sig)
{
	(void)sig;
	hits = bump(hits);
}

static int step(int i)
{
	if (i % 3 == 0)
		raise(SIGUSR1);
	return i * 2;
}

int main(void)
{
	int s = 0;
	signal(SIGUSR1, handler);
	for (int i = 0; i < 9; i++)
		s += step(i);
	printf("%d %d\n", s, hits);
	return 0;
}
