/* forkhelper.c -- fork() two calls deep: main -> outer -> spawn -> fork.
 * At the fork, spawn, outer and main all have a path pending (in context
 * mode one path through the three); each goes on in both processes, so
 * every prefix must count once: main, outer and spawn entered once each,
 * the calls after the fork twice.  gcov (which resets the child's counters
 * at fork) is the oracle in gcov.sh and fork.sh.  The child returns from
 * main as the parent does (after waiting), so both write their profile.
 *
 * work: 1 (main, before) + 1 (spawn, before) + 2 (spawn, after: one per
 * process) + 2 (outer, after) + 2 (main, after) = 8 calls.  fork() is
 * called once; printf and waitpid run in the parent only.
 *
 * ipp-gprof: no fork (gmon.out keeps one process's arcs)
 * ipp-expect-arc intra: spawn -> fork 1
 * ipp-expect-arc intra: main -> printf 1
 * ipp-expect-arc intra: main -> waitpid 1
 * ipp-expect-arc context: spawn -> fork 1
 * ipp-expect-arc context: main -> printf 1
 * ipp-expect-arc context: main -> waitpid 1
 * ipp-expect-arc intra: main -> outer 1
 * ipp-expect-arc intra: main -> work 3
 * ipp-expect-arc intra: outer -> spawn 1
 * ipp-expect-arc intra: outer -> work 2
 * ipp-expect-arc intra: spawn -> work 3
 * ipp-expect-arc context: main -> outer 1
 * ipp-expect-arc context: main -> work 3
 * ipp-expect-arc context: outer -> spawn 1
 * ipp-expect-arc context: outer -> work 2
 * ipp-expect-arc context: spawn -> work 3
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int sink;

static int work(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += i % 5 == 1 ? 3 : 1;
	return s;
}

static __attribute__((noinline)) pid_t spawn(int k)
{
	int t = work(k);
	pid_t p = fork();
	if (p == 0)
		t += work(3);
	else
		t += work(4);
	sink = t;
	return p;
}

static __attribute__((noinline)) pid_t outer(int k)
{
	pid_t p;
	if (k > 100)
		k /= 2;
	p = spawn(k);
	sink += work(p == 0 ? 2 : 5);
	return p;
}

int main(void)
{
	int s = work(100);
	pid_t pid = outer(200);
	if (pid < 0)
		return 1;
	s += work(7);
	sink += s;
	if (pid == 0)
		return 0;
	waitpid(pid, NULL, 0);
	printf("%d\n", s);
	return 0;
}
