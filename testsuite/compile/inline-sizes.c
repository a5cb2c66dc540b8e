/* inline-sizes.c -- small functions GCC's IPA inliner takes at -O2 in a plain
 * build: each is too big for the early inliner's limit, small enough for
 * max-inline-insns-auto, and called from more than one place.
 * testsuite/compile/run.sh, part 5: the ipp build with
 * -fplugin-arg-ipp-inline-as-plain inlines exactly these call sites too
 * (plugin/sizes.cc); with the instrumented sizes GCC keeps digits() out of
 * line. */
#include <stdio.h>
#include <stdlib.h>

static int clamp(int v, int lo, int hi)
{
	if (v < lo)
		return lo;
	if (v > hi)
		return hi;
	return v;
}

static unsigned mix(unsigned h, unsigned v)
{
	h ^= v;
	h *= 0x9e3779b1u;
	if (h & 1)
		h ^= h >> 15;
	return h;
}

static int digits(unsigned v)
{
	int n = 1;
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

static int sign3(long a, long b)
{
	if (a < b)
		return -1;
	if (a > b)
		return 1;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned h = 0;
	long s = 0;
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	for (int i = 0; i < n; i++) {
		h = mix(h, (unsigned)i);
		s += clamp(i - n / 2, -100, 100) + digits(h);
		s += sign3(s, (long)h) + sign3((long)i, 500);
		h = mix(h, (unsigned)clamp((int)s, 0, 1 << 20));
		s += digits((unsigned)s & 0xffff);
	}
	printf("%u %ld\n", h, s);
	return 0;
}
