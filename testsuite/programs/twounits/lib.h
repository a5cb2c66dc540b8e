/* lib.h -- the library half of the two-unit test program (main.c): a
 * static inline function both units compile, so that its lines belong to
 * two units and a tracefile must sum them.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef TWOUNITS_LIB_H
#define TWOUNITS_LIB_H

static inline int clamp(int x, int hi)
{
	if (x > hi)
		return hi;
	return x;
}

int work(int n);
int checksum(int x);

#endif
