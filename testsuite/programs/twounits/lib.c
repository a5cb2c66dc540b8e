/* lib.c -- the second unit of the two-unit test program (main.c).
 * work(n) loops n times: cheap when main calls it with n = 1, expensive
 * with n = 50 (see main.c for the counts).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "lib.h"

int work(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += clamp(i, 7);
	return s;
}

int checksum(int x)
{
	return clamp(x, 1000) * 3;
}
