/* A failed exec: main calls step() twice, tries to exec a program that
 * does not exist (the profile is written first, with main's pending path
 * as a partial path), and goes on: step() once more, then returns.  The
 * partial path written before the exec is taken back, so main is counted
 * once, not also as abandoned at the exec.
 *
 * ipp-end: exit 0
 * ipp-entries: step 3, main 1
 * ipp-calls: main -> step 3
 */
#include <stdio.h>
#include <unistd.h>

__attribute__((noinline)) int step(int i)
{
	return 2 * i + 1;
}

int main(void)
{
	int s = step(0) + step(1);
	char *argv[] = { "none", NULL };
	execv("/nonexistent/ipp-no-such-program", argv);
	s += step(2);
	printf("%d\n", s);
	return 0;
}
