/* pthread_exit from a nested instrumented call in code built without
 * -fexceptions (C's default): the forced unwind runs no code of the
 * activations it removes, so their paths are recorded before it, by
 * ipp-gcc's wrapper of pthread_exit (--wrap=pthread_exit,
 * runtime/rt_pthread.c).  worker -> run -> step -> finish, which calls
 * pthread_exit at run's fifth iteration (i = 4); main joins the thread
 * and gets 40.  gcov.sh and unwind.sh compare the derived line counts
 * with gcov's and require `ipp check` to pass.
 *
 * ipp-cflags: -pthread
 */
#include <pthread.h>
#include <stdio.h>

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
	printf("%ld\n", (long)res);
	return res == (void *)40L ? 0 : 1;
}
