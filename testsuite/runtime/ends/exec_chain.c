/* The exec family: image 0 (no argument) calls step() once and execs this
 * program again with the argument "1" through execl; image k calls step()
 * k + 1 times and execs image k + 1 through the next function: execl,
 * execle, execlp, execv, execve, execvp, execvpe, fexecve; image 8 calls
 * step() nine times and returns 0.  Each image writes its counts before
 * its exec, all into one profile:
 *   main 9 (one per image), step 1 + 2 + ... + 9 = 45, next 8.
 *
 * ipp-end: exit 0
 * ipp-entries: step 45, next 8, main 9
 * ipp-calls: main -> step 45, main -> next 8
 */
#define _GNU_SOURCE 1
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern char **environ;
static char self[4096];

static int step(int i)
{
	return 2 * i + 1;
}

/* execs image k through the k-th function */
__attribute__((noinline)) static void next(int k)
{
	char arg[16];
	char *argv[] = { self, arg, NULL };
	snprintf(arg, sizeof(arg), "%d", k);
	switch (k) {
	case 1: execl(self, self, arg, (char *)NULL); break;
	case 2: execle(self, self, arg, (char *)NULL, environ); break;
	case 3: execlp(self, self, arg, (char *)NULL); break;
	case 4: execv(self, argv); break;
	case 5: execve(self, argv, environ); break;
	case 6: execvp(self, argv); break;
	case 7: execvpe(self, argv, environ); break;
	case 8: {
		int fd = open(self, O_RDONLY);
		fexecve(fd, argv, environ);
		break;
	}
	}
}

int main(int argc, char **argv)
{
	int stage = argc > 1 ? atoi(argv[1]) : 0, s = 0;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 2;
	self[n] = '\0';
	for (int i = 0; i <= stage; i++)
		s += step(i);
	printf("image %d: %d\n", stage, s);
	fflush(stdout);
	if (stage == 8)
		return 0;
	next(stage + 1);
	return 1;	/* the exec failed */
}
