/* pthread_cancel of a thread inside instrumented frames (-fexceptions:
 * glibc's pthread_cleanup_push is then a cleanup attribute, and the
 * cancellation a forced unwind that runs it).  worker sums a loop, then
 * nest(2) -> nest(1) -> nest(0) each push a cleanup handler, and nest(0)
 * tells main it is ready (sem_post, not a cancellation point: glibc 2.36
 * can cancel a write() that has completed) and blocks in read(), a
 * cancellation point, where main's cancellation takes effect.  The three handlers run (cleanups = 3) and the thread
 * ends cancelled.  Every activation the unwinder removes must leave a
 * partial path and its frame (docs/PROTOCOL.md, "Exceptions and forced
 * unwinds"): gcov.sh and unwind.sh compare the derived line counts with
 * gcov's and require `ipp check` to pass.
 *
 * ipp-cflags: -pthread -fexceptions
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <unistd.h>

static int work[2];
static sem_t ready;
static int cleanups;

static void note_cleanup(void *arg)
{
	cleanups += (int)(long)arg;
}

static int wait_forever(void)
{
	char c;
	return (int)read(work[0], &c, 1);	/* cancelled in here */
}

static int nest(int depth)
{
	int r;
	pthread_cleanup_push(note_cleanup, (void *)1L);
	if (depth > 0) {
		r = nest(depth - 1);
	} else {
		sem_post(&ready);
		r = wait_forever();
	}
	pthread_cleanup_pop(0);
	return r;
}

static void *worker(void *arg)
{
	int i, s = 0;
	for (i = 0; i < 3; i++)
		s += (i & 1) ? 2 : 1;
	s += nest((int)(long)arg);
	return (void *)(long)s;
}

int main(void)
{
	pthread_t t;
	void *res;
	if (pipe(work) || sem_init(&ready, 0, 0) ||
	    pthread_create(&t, NULL, worker, (void *)2L))
		return 2;
	while (sem_wait(&ready) != 0)
		;
	pthread_cancel(t);
	pthread_join(t, &res);
	printf("%s, %d cleanups\n", res == PTHREAD_CANCELED ? "cancelled" : "returned", cleanups);
	return res == PTHREAD_CANCELED && cleanups == 3 ? 0 : 1;
}
