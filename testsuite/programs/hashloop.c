/* A loop whose body has 2^13 paths: its function's region (more than
 * IPP_ARRAY_MAX paths) counts in a hash table, and since it records at
 * its back edge it probes the table inline (ipp_abi.h, __ipp_hmiss).
 * work(20): iteration i takes the path of the 13 low bits of
 * v = (i % 5) * 0x3ff, five distinct paths.  The first iteration (i = 0,
 * pattern 0) runs from the entry; the next 19 from the loop header:
 * pattern 0 at i = 5, 10, 15 (3), patterns 1-4 four times each; then the
 * exit path from the header: 1, 3, 4, 4, 4, 4, 1.
 * main calls work twice, through a pointer and directly.  intra: work's
 * region counts both, main has one path.  context: the call through the
 * pointer runs work's original body, in a region of its own; the direct
 * call continues main's path into work's clone, which probes main's
 * table: main's first path runs from its entry through the first
 * iteration, its last from work's loop header through work's return to
 * main's exit, so main has work's counts too.
 *
 * ipp-expect intra work: 2 6 8 8 8 8 2
 * ipp-expect intra main: 1
 * ipp-expect context work: 1 3 4 4 4 4 1
 * ipp-expect context main: 1 3 4 4 4 4 1
 */
#include <stdio.h>

#define D(k)                           \
	if (v & (1u << (k)))           \
		s = s * 3 + (k);       \
	else                           \
		s ^= (unsigned)(k) << 4;

unsigned work(unsigned n)
{
	unsigned s = 0;
	for (unsigned i = 0; i < n; i++) {
		unsigned v = (i % 5) * 0x3ffu;
		D(0) D(1) D(2) D(3) D(4) D(5) D(6) D(7) D(8) D(9) D(10) D(11) D(12)
	}
	return s;
}

unsigned (*volatile fp)(unsigned) = work;

int main(void)
{
	unsigned a = fp(20);
	printf("%u %u\n", a, work(20));
	return 0;
}
