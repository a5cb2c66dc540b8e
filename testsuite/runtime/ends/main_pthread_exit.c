/* pthread_exit from the main thread, inside nested calls: main -> outer ->
 * inner, whose third call ends the thread.  The wrapper records the three
 * pending paths (main at its call of outer, outer at its loop's call of
 * inner, inner at its call of pthread_exit); glibc then unwinds the main
 * thread and calls exit(0).  scrub(), registered after the runtime's exit
 * handler and so run before it, writes over the stack the frames lived on:
 * the runtime's walk at exit must not read them (it did: the list still
 * held them, and exit crashed in rt_slots_link once the dead stack held
 * other bytes).
 *
 * ipp-end: exit 0
 * ipp-entries: inner 3, outer 1, main 1
 * ipp-calls: main -> outer 1, outer -> inner 3
 * ipp-cflags: -pthread
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static volatile int sink;

__attribute__((noinline)) static void scrub(void)
{
	volatile char junk[1 << 16];
	memset((char *)junk, 0xa5, sizeof(junk));
	sink = junk[123];
}

__attribute__((noinline)) static int inner(int i)
{
	if (i == 2)
		pthread_exit(NULL);
	return i * 3;
}

__attribute__((noinline)) static int outer(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += inner(i);
	return s;
}

int main(void)
{
	atexit(scrub);
	return outer(5) & 1;
}
