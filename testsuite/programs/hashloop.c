/* A loop whose body has 2^13 paths: its function's region (more than
 * IPP_ARRAY_MAX paths) counts in a hash table, and since it records at
 * its back edge it probes the table inline (ipp_abi.h, __ipp_htab).
 * work(20): iteration i takes the path of the 13 low bits of
 * v = (i % 5) * 0x3ff, five distinct paths.  The first iteration (i = 0,
 * pattern 0) runs from the entry; the next 19 from the loop header:
 * pattern 0 at i = 5, 10, 15 (3), patterns 1-4 four times each; then the
 * exit path from the header: 1, 3, 4, 4, 4, 4, 1.  work is called through
 * a pointer, so that in context mode too its original body runs, with a
 * region of its own (and the same paths); main has one path.
 *
 * ipp-expect intra work: 1 3 4 4 4 4 1
 * ipp-expect intra main: 1
 * ipp-expect context work: 1 3 4 4 4 4 1
 * ipp-expect context main: 1
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
	printf("%u\n", fp(20));
	return 0;
}
