/* test_rt_copies.c -- frames that stand in inlined copies without frames
 * of their own (ABI 9, ipp_abi.h struct ipp_rt_copy): the stop stack of a
 * partial path names each copy's call vertex before the vertex the frame
 * stands at, as a frame of the copy's own would have.
 *
 * The module lists three runs of copy vertices:
 *   21 .. 24  copy X, inlined at call vertex 20 (the function's own);
 *   25 .. 26  copy Y, inlined at call vertex 22, which lies in X;
 *   40 .. 40  copy Z, inlined at call vertex 33.
 * Frames at exit(12), innermost last:
 *   main  region main, path 4, at 25 (in Y, in X)  -> (main, 4, [20, 22, 25])
 *   a     region a, path 7, at 24 (X's last)       } one group, continuing:
 *   b     path 9, at 40 (Z), continues a           } (a, 9, [20, 24, 33, 40])
 *   f     region f, path 6, at 20 (a call vertex,   -> (f, 6, [20])
 *         in no copy: the run before 21 ends
 *         nothing)
 *   g     region g, path 2, at 27 (just past Y)    -> (g, 2, [27])
 *   h     region h, path 3, at 21 | INSIDE (X's    -> (h, 3, [20, 21])
 *         first vertex, marked)
 * The same exit with the table removed (ncopies 0) gives each frame's own
 * vertex alone: the stacks come from the table, not the frames.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct ipp_rt_module m;
#define REGION(NAME) { .name = NAME, .npaths = 100, .module = &m }
static struct ipp_rt_region r[5] = {
	REGION("main"), REGION("a"), REGION("f"), REGION("g"), REGION("h"),
};
static const struct ipp_rt_copy copies[] = {
	{ 21, 24, 20 },
	{ 25, 26, 22 },
	{ 40, 40, 33 },
};
static struct ipp_rt_module m = { .abi_version = IPP_ABI_VERSION, .nregions = 5,
				  .name = "copies.c", .checksum = "c0c0c0c0c0c0c0c0",
				  .mode = "context", .regions = r };

#define NI __attribute__((noinline))

static NI void stand_and_exit(void)
{
	struct ipp_rt_frame fm, fa, fb, ff, fg, fh;
	__ipp_record(&r[0], 1);
	rtt_push(&fm, &r[0], 4, 25, 0);
	rtt_push(&fa, &r[1], 7, 24, 0);
	rtt_push(&fb, &r[1], 9, 40, IPP_FRAME_CONTINUES);
	rtt_push(&ff, &r[2], 6, 20, 0);
	rtt_push(&fg, &r[3], 2, 27, 0);
	rtt_push(&fh, &r[4], 3, 21 | IPP_VERTEX_INSIDE, 0);
	exit(12);
}

static int child(const char *role)
{
	if (strcmp(role, "table") == 0) {
		m.ncopies = sizeof(copies) / sizeof(copies[0]);
		m.copies = copies;
	}
	stand_and_exit();
	return 0;
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_copies");
	static const char *env[] = { "IPP_PROFILE=copies.prof", NULL };
	static const int32_t s_main[] = { 20, 22, 25 }, s_ab[] = { 20, 24, 33, 40 };
	static const int32_t s_f[] = { 20 }, s_g[] = { 27 }, s_h[] = { 20, 21 };
	static const int32_t t_main[] = { 25 }, t_ab[] = { 24, 40 }, t_h[] = { 21 };
	const ipp_prof_module *mm;
	ipp_profile *p;

	if (role)
		return child(role);

	CHECK_EXIT(rtt_run("table", NULL, env, NULL), 12);
	p = rtt_read("copies.prof");
	mm = rtt_module(p, "copies.c", "c0c0c0c0c0c0c0c0");
	CHECK_U64(mm->npartials, 5);
	CHECK_U64(rtt_partial(mm, "main", "4", s_main, 3), 1);
	CHECK_U64(rtt_partial(mm, "a", "9", s_ab, 4), 1);
	CHECK_U64(rtt_partial(mm, "f", "6", s_f, 1), 1);
	CHECK_U64(rtt_partial(mm, "g", "2", s_g, 1), 1);
	CHECK_U64(rtt_partial(mm, "h", "3", s_h, 2), 1);
	ipp_profile_free(p);
	remove("copies.prof");

	CHECK_EXIT(rtt_run("none", NULL, env, NULL), 12);
	p = rtt_read("copies.prof");
	mm = rtt_module(p, "copies.c", "c0c0c0c0c0c0c0c0");
	CHECK_U64(mm->npartials, 5);
	CHECK_U64(rtt_partial(mm, "main", "4", t_main, 1), 1);
	CHECK_U64(rtt_partial(mm, "a", "9", t_ab, 2), 1);
	CHECK_U64(rtt_partial(mm, "h", "3", t_h, 1), 1);
	ipp_profile_free(p);
	remove("copies.prof");
	rtt_done();
	return 0;
}
