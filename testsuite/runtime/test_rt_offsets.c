/* test_rt_offsets.c -- partial paths of increments on chords (ABI 12,
 * ipp_abi.h struct ipp_rt_offset and struct ipp_rt_restart): the runtime
 * records the number a fresh frame stands with minus its vertex's offset,
 * modulo 2^64, a bare restart's or a bare call's (ABI 14) number from the
 * restarts table, and a continuing frame's (a context-mode clone's, which adds rho on every
 * edge) as it is.
 *
 * The module lists the offsets of four runs of vertices, and the numbers
 * of two bare restarts and of a bare call:
 *   10 .. 12  offset 5          (a block's chain: 10, call 11, return 12)
 *   20 .. 20  offset 2^64 - 3   (-3: the register lags the sum by 3)
 *   30 .. 31  offset 7
 *   70 .. 71  offset 4
 *   restart 40: number 17;  restart 50: number 0;  call 70: number 23
 * Frames at exit(3), one path each (intra mode: no groups):
 *   a  path 105 at call 11          -> 105 - 5        = 100
 *   b  path 4 at 20 | INSIDE        -> 4 + 3          = 7
 *   c  path 9 at 13 (past the run)  -> 9               (offset 0)
 *   d  path 99 (stale) at 40 | INSIDE | RESTART  -> 17 (the table's)
 *   e  path 1 at 50 | INSIDE | RESTART           -> 0
 *   f  path 8 at 60 | INSIDE | RESTART (not in the table): inconsistent,
 *      not recorded (counted as a bad frame)
 *   g  number 0 at entry 9 | INSIDE | PATH0      -> 0 (entries: offset 0)
 *   h  path 50 at call 30, then a frame continuing h's path, 60 at 31:
 *      one group, (h, 60, [30, 31]): the innermost frame is a clone's,
 *      its number is the partial sum already (31's offset, 7, is not
 *      taken)
 *   i  path 77 (stale) at call 70 | RESTART (a bare call, ABI 14)
 *                                                -> 23 (the table's; 70's
 *      offset, 4, is not taken)
 * The same exit with both tables empty records a, b, c, g and h with their
 * frames' own numbers and skips d, e and f (marked restarts with no
 * number): the corrections come from the tables.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct ipp_rt_module m;
#define REGION(NAME) { .name = NAME, .npaths = 1000, .module = &m }
static struct ipp_rt_region r[9] = {
	REGION("a"), REGION("b"), REGION("c"), REGION("d"), REGION("e"), REGION("f"), REGION("g"),
	REGION("h"), REGION("i"),
};
static const struct ipp_rt_offset offsets[] = {
	{ 10, 12, 5 },
	{ 20, 20, UINT64_MAX - 2 },
	{ 30, 31, 7 },
	{ 70, 71, 4 },
};
static const struct ipp_rt_restart restarts[] = {
	{ 40, 0, 17 },
	{ 50, 0, 0 },
	{ 70, 0, 23 },
};
static struct ipp_rt_module m = { .abi_version = IPP_ABI_VERSION, .nregions = 9,
				  .name = "offsets.c", .checksum = "0f0f0f0f0f0f0f0f",
				  .mode = "context", .regions = r };

#define NI __attribute__((noinline))
#define RESTART (IPP_VERTEX_INSIDE | IPP_VERTEX_RESTART)

static NI void stand_and_exit(void)
{
	struct ipp_rt_frame fa, fb, fc, fd, fe, ff, fg, fh, fh2, fi;
	__ipp_record(&r[0], 1);
	rtt_push(&fa, &r[0], 105, 11, 0);
	rtt_push(&fb, &r[1], 4, 20 | IPP_VERTEX_INSIDE, 0);
	rtt_push(&fc, &r[2], 9, 13, 0);
	rtt_push(&fi, &r[8], 77, 70 | IPP_VERTEX_RESTART, 0);
	rtt_push(&fd, &r[3], 99, 40 | RESTART, 0);
	rtt_push(&fe, &r[4], 1, 50 | RESTART, 0);
	rtt_push(&ff, &r[5], 8, 60 | RESTART, 0);
	rtt_push(&fg, &r[6], 12345, 9 | IPP_VERTEX_INSIDE | IPP_VERTEX_PATH0, 0);
	rtt_push(&fh, &r[7], 50, 30, 0);
	rtt_push(&fh2, &r[7], 60, 31, IPP_FRAME_CONTINUES);
	exit(3);
}

static int child(const char *role)
{
	if (strcmp(role, "tables") == 0) {
		m.noffsets = sizeof(offsets) / sizeof(offsets[0]);
		m.offsets = offsets;
		m.nrestarts = sizeof(restarts) / sizeof(restarts[0]);
		m.restarts = restarts;
	}
	stand_and_exit();
	return 0;
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_offsets");
	static const char *env[] = { "IPP_PROFILE=offsets.prof", NULL };
	static const int32_t s_a[] = { 11 }, s_b[] = { 20 }, s_c[] = { 13 }, s_d[] = { 40 };
	static const int32_t s_e[] = { 50 }, s_g[] = { 9 }, s_h[] = { 30, 31 }, s_i[] = { 70 };
	const ipp_prof_module *mm;
	ipp_profile *p;

	if (role)
		return child(role);

	CHECK_EXIT(rtt_run("tables", NULL, env, NULL), 3);
	p = rtt_read("offsets.prof");
	mm = rtt_module(p, "offsets.c", "0f0f0f0f0f0f0f0f");
	CHECK_U64(mm->npartials, 8);
	CHECK_U64(rtt_partial(mm, "a", "100", s_a, 1), 1);
	CHECK_U64(rtt_partial(mm, "b", "7", s_b, 1), 1);
	CHECK_U64(rtt_partial(mm, "c", "9", s_c, 1), 1);
	CHECK_U64(rtt_partial(mm, "d", "17", s_d, 1), 1);
	CHECK_U64(rtt_partial(mm, "e", "0", s_e, 1), 1);
	CHECK_U64(rtt_partial(mm, "g", "0", s_g, 1), 1);
	CHECK_U64(rtt_partial(mm, "h", "60", s_h, 2), 1);
	CHECK_U64(rtt_partial(mm, "i", "23", s_i, 1), 1);
	ipp_profile_free(p);
	remove("offsets.prof");

	/* no tables: the frames' own numbers; the marked restarts and the
	 * bare call find no number and are skipped */
	CHECK_EXIT(rtt_run("none", NULL, env, NULL), 3);
	p = rtt_read("offsets.prof");
	mm = rtt_module(p, "offsets.c", "0f0f0f0f0f0f0f0f");
	CHECK_U64(mm->npartials, 5);
	CHECK_U64(rtt_partial(mm, "a", "105", s_a, 1), 1);
	CHECK_U64(rtt_partial(mm, "b", "4", s_b, 1), 1);
	CHECK_U64(rtt_partial(mm, "c", "9", s_c, 1), 1);
	CHECK_U64(rtt_partial(mm, "g", "0", s_g, 1), 1);
	CHECK_U64(rtt_partial(mm, "h", "60", s_h, 2), 1);
	ipp_profile_free(p);
	remove("offsets.prof");
	rtt_done();
	return 0;
}
