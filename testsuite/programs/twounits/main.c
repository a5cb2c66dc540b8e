/* main.c -- a program of two units (main.c, lib.c) sharing a header with
 * a static inline function (lib.h), for ipp export and ipp html.
 *
 * main calls work() 3 times with n = 1 (cheap) from light() and 2 times
 * with n = 50 (expensive) from heavy(); clamp() runs once per iteration of
 * work's loop (3 * 1 + 2 * 50 = 103 times, in lib.c's unit) and 5 times
 * through checksum() (5 calls, in lib.c's unit) and once in main.c's unit.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <stdio.h>

#include "lib.h"

static int light(void)
{
	return work(1);
}

static int heavy(void)
{
	return work(50);
}

int main(void)
{
	int total = 0;
	for (int k = 0; k < 3; k++)
		total += checksum(light());
	for (int k = 0; k < 2; k++)
		total += checksum(heavy());
	printf("%d\n", clamp(total, 1 << 20));
	return 0;
}
