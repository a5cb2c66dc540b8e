/* forkmain.c -- fork() directly in main, with work before it and after it
 * in both processes.  The path main has pending at the fork goes on in
 * both processes, so each records it; its prefix (main's entry, the call
 * of work(1000)) ran once and must count once: main entered 1 time, the
 * work(1000) call once, the calls after the fork twice (once per process).
 * gcov (gcc resets the child's counters at fork) is the oracle in gcov.sh
 * and fork.sh.  Both processes end by returning from main (the parent
 * waits), so both write their profile.
 *
 * work(n)'s loop runs n times: work is entered 1 (before) + 1 (parent) +
 * 1 (child) = 3 times.
 *
 * fork() is called once (and returns twice); printf and waitpid run in the
 * parent only.
 *
 * ipp-gprof: no fork (gmon.out keeps one process's arcs)
 * ipp-expect-arc intra: main -> work 3
 * ipp-expect-arc intra: main -> fork 1
 * ipp-expect-arc intra: main -> printf 1
 * ipp-expect-arc intra: main -> waitpid 1
 * ipp-expect-arc context: main -> work 3
 * ipp-expect-arc context: main -> fork 1
 * ipp-expect-arc context: main -> printf 1
 * ipp-expect-arc context: main -> waitpid 1
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int sink;

static int work(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += i % 7 == 3 ? 2 : 1;
	return s;
}

int main(void)
{
	int s = work(1000);
	pid_t pid = fork();
	if (pid < 0)
		return 1;
	s += work(pid == 0 ? 10 : 20);
	sink = s;
	if (pid == 0)
		return 0;
	waitpid(pid, NULL, 0);
	printf("%d\n", s);
	return 0;
}
