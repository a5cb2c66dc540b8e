/* pthread_exit from a nested instrumented call (-fexceptions): worker ->
 * run -> step -> finish, which calls pthread_exit at run's fifth
 * iteration (i = 4).  The forced unwind runs run's cleanup (released = 5)
 * and removes finish's, step's, run's and worker's activations; in context
 * mode step and finish continue run's path (static functions called once),
 * so the dead end in finish records the group's path and the frames are
 * only popped.  main joins the thread and gets its pthread_exit value, 40.
 * gcov.sh and unwind.sh compare the derived line counts with gcov's and
 * require `ipp check` to pass.
 *
 * ipp-cflags: -pthread -fexceptions
 */
#include <pthread.h>
#include <stdio.h>

static int released;

static void release(int *p)
{
	released += *p;
}

static void finish(int v)
{
	pthread_exit((void *)(long)v);
}

static int step(int i)
{
	if (i == 4)
		finish(i * 10);
	return i % 3;
}

static int run(int n)
{
	int token __attribute__((cleanup(release))) = 5;
	int s = 0, i;
	for (i = 0; i < n; i++)
		s += step(i);
	return s;
}

static void *worker(void *arg)
{
	return (void *)(long)run((int)(long)arg);
}

int main(void)
{
	pthread_t t;
	void *res;
	if (pthread_create(&t, NULL, worker, (void *)10L) || pthread_join(t, &res))
		return 2;
	printf("%ld, released %d\n", (long)res, released);
	return res == (void *)40L && released == 5 ? 0 : 1;
}
