/* Four threads, each calling work() 100 times with x = i + id.  Counters
 * are per thread and summed at exit; threads start fresh paths.
 * intra: work's two paths (odd, even) 200 times each (50 of each per
 * thread); worker: 4 first iterations, 4 x 99 from the header, 4 exits;
 * main: its create loop (1 first iteration, 3 from the header), its join
 * loop (entered from the first loop's exit: 1, then 3), and the exit.
 * context: work is static, on worker's paths.  First iterations: x = id,
 * even for id 0, 2 and odd for 1, 3.  From the header (i = 1..99, x =
 * i + id): odd 50 + 49 + 50 + 49 = 198, even 198.  Exits: 4.
 *
 * ipp-cflags: -pthread
 * ipp-expect intra work: 200 200
 * ipp-expect intra worker: 4 396 4
 * ipp-expect intra main: 1 3 1 3 1
 * ipp-expect context worker: 2 2 198 198 4
 * ipp-expect context main: 1 3 1 3 1
 */
#include <pthread.h>
#include <stdio.h>

static int work(int x)
{
	if (x & 1)
		return x * 3;
	return x + 1;
}

static void *worker(void *arg)
{
	long id = (long)arg, s = 0;
	for (int i = 0; i < 100; i++)
		s += work(i + (int)id);
	return (void *)s;
}

int main(void)
{
	pthread_t t[4];
	long total = 0;
	for (long k = 0; k < 4; k++)
		pthread_create(&t[k], NULL, worker, (void *)k);
	for (int k = 0; k < 4; k++) {
		void *r;
		pthread_join(t[k], &r);
		total += (long)r;
	}
	printf("%ld\n", total);
	return 0;
}
