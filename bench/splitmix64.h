/* splitmix64.h -- the benchmark drivers' fixed 64-bit PRNG (splitmix64,
 * Steele, Lea & Flood 2014): the same sequence on every machine, so that
 * a driver's output depends only on its size argument.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef BENCH_SPLITMIX64_H
#define BENCH_SPLITMIX64_H

/* The next number of the sequence whose state is *s. */
static unsigned long long splitmix64(unsigned long long *s)
{
	unsigned long long z = (*s += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

#endif
