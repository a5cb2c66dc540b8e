/* SIGBUS: a read of a file mapping beyond the end of the (empty) file,
 * inside touch(), called twice (the first time on the stack).
 *
 * ipp-end: signal BUS
 * ipp-entries: touch 2, main 1
 * ipp-calls: main -> touch 2
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

__attribute__((noinline)) int touch(volatile char *p)
{
	return p[0];
}

int main(void)
{
	char name[] = "/tmp/ipp-bus-XXXXXX";
	int fd = mkstemp(name);
	char local = 1;
	volatile char *map;
	if (fd < 0)
		return 2;
	unlink(name);
	map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return 3;
	touch(&local);
	return touch(map);
}
