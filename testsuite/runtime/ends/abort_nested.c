/* SIGABRT from abort() three calls deep: main -> a -> b -> c, and c
 * aborts in its second call (b calls c twice).  abort() is a dead end:
 * c records its path first; a and b are pending at their calls.
 *
 * ipp-end: signal ABRT
 * ipp-entries: c 2, b 1, a 1, main 1
 * ipp-calls: b -> c 2, a -> b 1, main -> a 1
 */
#include <stdlib.h>

volatile int sink;

__attribute__((noinline)) void c(int k)
{
	if (k)
		abort();
	sink = k;
}

__attribute__((noinline)) void b(void)
{
	c(0);
	c(1);
}

__attribute__((noinline)) void a(void)
{
	b();
}

int main(void)
{
	a();
	return 0;
}
