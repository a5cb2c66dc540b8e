/* routes.c -- every way a record is counted (docs/PROTOCOL.md, "Events"):
 * in context mode main's region is too big for an array (wide has 2^13
 * paths), so main counts in rows; mixed's back edge is reached from a
 * restart and from the return site of a continuing call (rows, some paths
 * by number); tail's back edge only from a return site (__ipp_record);
 * mix and step keep no path register (lazy r); in intra mode wide's region
 * is a hash region.  testsuite/programs/events.sh checks the routes
 * against the runtime's counts; the other harnesses check the rest. */
#include <stdio.h>

static unsigned step(unsigned x)
{
	return x * 1103515245u + 12345u;
}

static unsigned mix(unsigned x)
{
	for (unsigned i = 0; i < 3; i++)
		x = ((x >> 3) ^ (x * 7u)) + i;
	return x;
}

static unsigned wide(unsigned x)
{
	unsigned s = 0;
	if (x & 0x1) s += 1;
	if (x & 0x2) s += 3;
	if (x & 0x4) s ^= 5;
	if (x & 0x8) s += 7;
	if (x & 0x10) s ^= 11;
	if (x & 0x20) s += 13;
	if (x & 0x40) s ^= 17;
	if (x & 0x80) s += 19;
	if (x & 0x100) s ^= 23;
	if (x & 0x200) s += 29;
	if (x & 0x400) s ^= 31;
	if (x & 0x800) s += 37;
	if (x & 0x1000) s ^= 41;
	return s;
}

static unsigned mixed(unsigned n, unsigned seed)
{
	unsigned s = 0;
	for (unsigned i = 0; i < n; i++) {
		if ((seed >> (i & 15)) & 1)
			s += mix(seed + i);
		else
			s ^= i;
	}
	return s;
}

static unsigned tail(unsigned n, unsigned x)
{
	for (unsigned i = 0; i < n; i++)
		x = mix(x);
	return x;
}

int main(void)
{
	unsigned t = 0, x = 12345;
	for (int k = 0; k < 200; k++) {
		x = step(x);
		t += wide(x) + mixed((unsigned)k % 20, x) + tail((unsigned)k % 7, x);
	}
	printf("%u\n", t);
	return 0;
}
