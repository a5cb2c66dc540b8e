/* test_rt_exit.c -- paths abandoned by exit(): every pending frame of the
 * exiting thread becomes a partial path (region, number so far, stop
 * stack), a run of IPP_FRAME_CONTINUES frames is one path, a group whose
 * innermost frame has vertex -1 was recorded already, inconsistent groups
 * and garbage frames are skipped, frames out of address order (inlining)
 * are walked, the exit status is the program's.  Also:
 * an entry checkpoint whose number 0 the frame does not hold
 * (IPP_VERTEX_PATH0: the plugin stores none at a fresh entry);
 * exit() before any record (the runtime was never initialised: the
 * destructor does it), exit() from another thread, and a normal return
 * (no partial path).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct ipp_rt_module m;
static struct ipp_rt_region r[7] = {
	{ "main", 100, &m, 0, 0 }, { "a", 100, &m, 0, 0 }, { "b", 100, &m, 0, 0 },
	{ "c", 100, &m, 0, 0 },    { "d", 100, &m, 0, 0 }, { "e", 100, &m, 0, 0 },
	{ "f", 100, &m, 0, 0 },
};
static struct ipp_rt_module m = { IPP_ABI_VERSION, 7, "exit.c", "e0e0e0e0e0e0e0e0", "context", r,
				  NULL, 0, 0 };

#define NI __attribute__((noinline))

/* The chain main -> a -> b -> c -> d -> e -> f -> exit(5):
 *   main  path 4,  at vertex 10                      pending
 *   a     path 7,  at vertex 20                      pending, starts a group
 *   b     path 9,  at vertex 30, continues a         } one path: (a, 11,
 *   c     path 11, at vertex 40, continues b         }  [20, 30, 40])
 *   d     path 5,  vertex -1 (recorded its path)     not pending
 *   e     path 13, vertex -1, continues d            group {e, d}: recorded
 *   f     path 6,  at vertex 60                      pending: (f, 6, [60])
 */
static NI void f(void)
{
	struct ipp_rt_frame fr;
	rtt_push(&fr, &r[6], 6, 60, 0);
	exit(5);
}

static NI void e(void)
{
	struct ipp_rt_frame fr;
	rtt_push(&fr, &r[5], 13, -1, IPP_FRAME_CONTINUES);
	f();
}

static NI void d(void)
{
	struct ipp_rt_frame fr;
	rtt_push(&fr, &r[4], 5, -1, 0);
	e();
}

static NI void c(void)
{
	struct ipp_rt_frame fr;
	rtt_push(&fr, &r[3], 11, 40, IPP_FRAME_CONTINUES);
	d();
}

static NI void b(void)
{
	struct ipp_rt_frame fr;
	rtt_push(&fr, &r[2], 9, 30, IPP_FRAME_CONTINUES);
	c();
}

static NI void a(void)
{
	struct ipp_rt_frame fr;
	rtt_push(&fr, &r[1], 7, 20, 0);
	b();
}

static NI int deep(bool record_first)
{
	struct ipp_rt_frame fr;
	if (record_first)
		__ipp_record(&r[0], 1);
	rtt_push(&fr, &r[0], 4, 10, 0);
	a();
	return 0;
}

/* A group whose innermost frame is pending but whose caller is not (the
 * plugin never makes one): skipped, reported. */
static NI void inconsistent(void)
{
	struct ipp_rt_frame outer, inner;
	__ipp_record(&r[0], 1);
	rtt_push(&outer, &r[1], 2, -1, 0);
	rtt_push(&inner, &r[2], 3, 33, IPP_FRAME_CONTINUES);
	exit(6);
}

/* A stale frame whose contents are garbage under a live one (what a
 * longjmp into uninstrumented code can leave): its region is not a
 * region, so it is not recorded (and reported), and its link leads
 * nowhere readable, so the walk stops there. */
static struct ipp_rt_frame stale = {
	.prev = (struct ipp_rt_frame *)8,
	.region = (struct ipp_rt_region *)0x10,
	.path = 99,
	.vertex = 99,
};
static NI void stale_frames(void)
{
	struct ipp_rt_frame live;
	__ipp_record(&r[0], 1);
	__ipp_top = &stale;
	rtt_push(&live, &r[4], 8, 80, 0);
	exit(7);
}

/* Frames out of address order, as when GCC inlines instrumented callees
 * into their caller: fr[0] is main's, fr[1] a's (called from main),
 * fr[2] b's (continuing a's path), all in one stack frame, callers at
 * lower addresses. */
static NI void inlined(void)
{
	struct ipp_rt_frame fr[3];
	__ipp_record(&r[0], 1);
	rtt_push(&fr[0], &r[0], 4, 10, 0);
	rtt_push(&fr[1], &r[1], 7, 20, 0);
	rtt_push(&fr[2], &r[2], 9, 30, IPP_FRAME_CONTINUES);
	exit(9);
}

/* Fresh frames pushed at their entries (vertices 3 and 5) as the plugin
 * pushes them: the number 0 is IPP_VERTEX_PATH0 in the vertex, the path
 * field is whatever the stack held (garbage here).  f has since reached
 * its call vertex 70, which stores number 2 and the vertex; g continues
 * f's path, standing at 71 with number 2; h (region e), called from g,
 * stands at its entry.  exit(11) -> (e, 0, [5]) for h alone, and
 * (f, 2, [70, 71]) for the group {g, f}. */
static NI void path0(void)
{
	struct ipp_rt_frame f, g, h;
	__ipp_record(&r[0], 1);
	rtt_push(&f, &r[6], 0x5a5a5a5a, 3 | IPP_VERTEX_INSIDE | IPP_VERTEX_PATH0, 0);
	f.path = 2;	/* f's call checkpoint stores number and vertex */
	f.vertex = 70;
	rtt_push(&g, &r[6], 2, 71, IPP_FRAME_CONTINUES);
	rtt_push(&h, &r[5], 0x6b6b6b6b, 5 | IPP_VERTEX_INSIDE | IPP_VERTEX_PATH0, 0);
	exit(11);
}

static void *thread_exit(void *arg)
{
	struct ipp_rt_frame fr;
	(void)arg;
	rtt_push(&fr, &r[5], 3, 50, 0);
	exit(8);
}

static NI int other_thread(void)
{
	struct ipp_rt_frame fr;
	pthread_t t;
	__ipp_record(&r[0], 1);
	rtt_push(&fr, &r[0], 2, 12, 0);	/* main's own frame: not recorded */
	pthread_create(&t, NULL, thread_exit, NULL);
	pthread_join(t, NULL);
	return 1;
}

static NI int normal(void)
{
	struct ipp_rt_frame fr;
	rtt_push(&fr, &r[0], 0, 10, 0);
	rtt_pop(&fr);
	__ipp_record(&r[0], 3);
	return 0;
}

static int child(const char *role)
{
	if (strcmp(role, "deep") == 0)
		return deep(true);
	if (strcmp(role, "lazy") == 0)
		return deep(false);
	if (strcmp(role, "inconsistent") == 0)
		inconsistent();
	if (strcmp(role, "stale") == 0)
		stale_frames();
	if (strcmp(role, "thread") == 0)
		return other_thread();
	if (strcmp(role, "inlined") == 0)
		inlined();
	if (strcmp(role, "path0") == 0)
		path0();
	return normal();
}

static const ipp_prof_module *module_of(ipp_profile *p)
{
	return rtt_module(p, "exit.c", "e0e0e0e0e0e0e0e0");
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_exit");
	static const char *env[] = { "IPP_PROFILE=exit.prof", NULL };
	static const char *venv[] = { "IPP_PROFILE=exit.prof", "IPP_VERBOSE=1", NULL };
	static const int32_t s60[] = { 60 }, s_a[] = { 20, 30, 40 }, s10[] = { 10 };
	static const int32_t s80[] = { 80 }, s50[] = { 50 }, s_ab[] = { 20, 30 };
	ipp_profile *p;
	const ipp_prof_module *mm;

	if (role)
		return child(role);

	CHECK_EXIT(rtt_run("deep", NULL, env, NULL), 5);
	p = rtt_read("exit.prof");
	mm = module_of(p);
	CHECK_U64(rtt_path(mm, "main", "1"), 1);
	CHECK_U64(mm->npartials, 3);
	CHECK_U64(rtt_partial(mm, "f", "6", s60, 1), 1);
	CHECK_U64(rtt_partial(mm, "a", "11", s_a, 3), 1);	/* region of a, number of c */
	CHECK_U64(rtt_partial(mm, "main", "4", s10, 1), 1);
	ipp_profile_free(p);
	remove("exit.prof");

	/* the same, but nothing recorded before exit(): the runtime starts
	 * in its destructor and still writes the three partial paths */
	CHECK_EXIT(rtt_run("lazy", NULL, env, NULL), 5);
	p = rtt_read("exit.prof");
	mm = module_of(p);
	CHECK_U64(mm->npaths, 0);
	CHECK_U64(mm->npartials, 3);
	CHECK_U64(rtt_partial(mm, "a", "11", s_a, 3), 1);
	ipp_profile_free(p);
	remove("exit.prof");

	/* quiet by default: the program's stderr stays its own */
	CHECK_EXIT(rtt_run("inconsistent", NULL, env, "err.txt"), 6);
	CHECK(!rtt_contains("err.txt", "inconsistent frames"));
	remove("exit.prof");
	CHECK_EXIT(rtt_run("inconsistent", NULL, venv, "err.txt"), 6);
	p = rtt_read("exit.prof");
	CHECK_U64(module_of(p)->npartials, 0);
	ipp_profile_free(p);
	CHECK(rtt_contains("err.txt", "1 abandoned paths had inconsistent frames"));
	remove("exit.prof");

	CHECK_EXIT(rtt_run("stale", NULL, venv, "err.txt"), 7);
	p = rtt_read("exit.prof");
	mm = module_of(p);
	CHECK_U64(mm->npartials, 1);
	CHECK_U64(rtt_partial(mm, "d", "8", s80, 1), 1);
	ipp_profile_free(p);
	CHECK(rtt_contains("err.txt", "1 abandoned paths had inconsistent frames"));
	remove("exit.prof");

	/* out of address order: (a, 9, [20, 30]) and (main, 4, [10]) */
	CHECK_EXIT(rtt_run("inlined", NULL, env, NULL), 9);
	p = rtt_read("exit.prof");
	mm = module_of(p);
	CHECK_U64(mm->npartials, 2);
	CHECK_U64(rtt_partial(mm, "a", "9", s_ab, 2), 1);
	CHECK_U64(rtt_partial(mm, "main", "4", s10, 1), 1);
	ipp_profile_free(p);
	remove("exit.prof");

	/* entry checkpoints without a stored number: (h, 0, [5]), and
	 * the group of f's call and g: (f, 2, [70, 71]) */
	CHECK_EXIT(rtt_run("path0", NULL, env, NULL), 11);
	p = rtt_read("exit.prof");
	mm = module_of(p);
	CHECK_U64(mm->npartials, 2);
	{
		static const int32_t s5[] = { 5 }, s_fg[] = { 70, 71 };
		CHECK_U64(rtt_partial(mm, "e", "0", s5, 1), 1);
		CHECK_U64(rtt_partial(mm, "f", "2", s_fg, 2), 1);
	}
	ipp_profile_free(p);
	remove("exit.prof");

	/* exit() in another thread: its frames, not main's */
	CHECK_EXIT(rtt_run("thread", NULL, env, NULL), 8);
	p = rtt_read("exit.prof");
	mm = module_of(p);
	CHECK_U64(mm->npartials, 1);
	CHECK_U64(rtt_partial(mm, "e", "3", s50, 1), 1);
	ipp_profile_free(p);
	remove("exit.prof");

	CHECK_EXIT(rtt_run("normal", NULL, env, NULL), 0);
	p = rtt_read("exit.prof");
	mm = module_of(p);
	CHECK_U64(mm->npartials, 0);
	CHECK_U64(rtt_path(mm, "main", "3"), 1);
	ipp_profile_free(p);
	rtt_done();
	return 0;
}
