/* A vfork() child that execs: it shares its parent's memory, so it must
 * not write the parent's profile nor record the parent's pending paths as
 * abandoned.  spawn() (not instrumented: it calls vfork) runs /bin/true
 * in a vfork child; main calls step() before and after.
 *
 * ipp-end: exit 0
 * ipp-entries: step 2, main 1
 * ipp-calls: main -> step 2
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) int step(int i)
{
	return 2 * i + 1;
}

static int spawn(void)
{
	int st;
	pid_t pid = vfork();
	if (pid == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return -1;
	return st;
}

int main(void)
{
	int s = step(0);
	s += spawn();
	s += step(1);
	printf("%d\n", s);
	return 0;
}
