/* test_rt_unwind.c -- activations a real forced unwind removes
 * (_Unwind_ForcedUnwind, as pthread_exit and pthread_cancel do), with the
 * landing pads the plugin gives them (docs/PROTOCOL.md, "Exceptions and
 * forced unwinds") played by cleanup attributes (this file is built with
 * -fexceptions):
 *
 *   child -> m_fn (frame M: fresh, region main, path 1 at call vertex 10;
 *                  a cleanup of its own that checks and exits)
 *         -> g_fn (frame G: continues M's path, 3 at vertex 30;
 *                  the outermost pad: __ipp_eh_leave)
 *         -> a_fn (frame A: fresh, region a, 5 at vertex 50; a cleanup
 *                  pad of its own: __ipp_eh_land, restart at 60 with 7,
 *                  the dead end records path 7; then __ipp_eh_leave)
 *         -> b_fn (frame S: no pad -- built without -fexceptions -- and a
 *                  region pointer that is garbage: never to be read)
 *         -> _Unwind_ForcedUnwind.
 *
 * Expected, one run: A's interrupted path is the partial (a, 5, [50]), its
 * restarted path 7 complete; the group {G, M} is one partial (main, 3,
 * [10, 30]), recorded at G's pad, which marks M recorded, so the walk at
 * exit records nothing more (no (main, 1, [10])); S is dropped unread (no
 * warning); __ipp_top is M's frame when M's cleanup runs.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unwind.h>

static struct ipp_rt_module m;
static struct ipp_rt_region r[2] = {
	{ "main", 100, &m, 0, 0 },
	{ "a", 100, &m, 0, 0 },
};
static struct ipp_rt_module m = { IPP_ABI_VERSION, 2, "uw.c", "2424242424242424", "context", r,
				  NULL, 0, 0 };

#define NI __attribute__((noinline))

static struct ipp_rt_frame *m_frame;

static _Unwind_Reason_Code stop(int version, _Unwind_Action actions, _Unwind_Exception_Class cls,
				struct _Unwind_Exception *exc, struct _Unwind_Context *ctx,
				void *arg)
{
	if (actions & _UA_END_OF_STACK)
		exit(90);	/* m_fn's cleanup should have exited */
	return _URC_NO_REASON;
}

/* the plugin's outermost pad */
static void pad_leave(struct ipp_rt_frame *f)
{
	__ipp_eh_leave(f);
}

static NI void b_fn(void)
{
	static struct _Unwind_Exception exc;
	struct ipp_rt_frame fr;
	rtt_push(&fr, (struct ipp_rt_region *)1, 9, 90, 0);
	memset(&exc, 0, sizeof(exc));
	_Unwind_ForcedUnwind(&exc, stop, NULL);
	exit(91);
}

static struct ipp_rt_frame *a_frame;

/* a_fn's own cleanup: the landing pad is a restart point */
static void a_pad(int *unused)
{
	__ipp_eh_land(a_frame);
	if (__ipp_top != a_frame)
		exit(92);
	a_frame->path = 7;
	a_frame->vertex = 60 | IPP_VERTEX_INSIDE;
	/* the pad's resx: a dead end */
	__ipp_record(&r[1], 7);
	a_frame->vertex = -1;
}

static NI void a_fn(void)
{
	struct ipp_rt_frame fr __attribute__((cleanup(pad_leave)));
	rtt_push(&fr, &r[1], 5, 50, 0);
	a_frame = &fr;
	{
		int scope __attribute__((cleanup(a_pad))) = 0;
		b_fn();
	}
}

static NI void g_fn(void)
{
	struct ipp_rt_frame fr __attribute__((cleanup(pad_leave)));
	rtt_push(&fr, NULL, 3, 30, IPP_FRAME_CONTINUES);
	a_fn();
}

static void m_done(int *unused)
{
	if (__ipp_top != m_frame)
		exit(93);
	if (m_frame->vertex != -1)
		exit(94);	/* G's pad marks the group recorded */
	exit(0);
}

static NI void m_fn(void)
{
	int done __attribute__((cleanup(m_done))) = 0;
	struct ipp_rt_frame fr;
	rtt_push(&fr, &r[0], 1, 10, 0);
	m_frame = &fr;
	g_fn();
}

static int child(const char *role)
{
	m_fn();
	return 95;
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_unwind");
	static const char *env[] = { "IPP_PROFILE=uw.prof", "IPP_VERBOSE=1", NULL };
	static const int32_t s50[] = { 50 }, s10_30[] = { 10, 30 }, s10[] = { 10 };
	ipp_profile *p;
	const ipp_prof_module *mm;

	if (role)
		return child(role);
	CHECK_EXIT(rtt_run("unwind", NULL, env, "uw.err"), 0);
	if (rtt_contains("uw.err", "ipp:"))
		rtt_fail(__FILE__, __LINE__, "the runtime complained (uw.err)");
	p = rtt_read("uw.prof");
	mm = rtt_module(p, "uw.c", "2424242424242424");
	CHECK_U64(rtt_partial(mm, "a", "5", s50, 1), 1);
	CHECK_U64(rtt_path(mm, "a", "7"), 1);
	CHECK_U64(rtt_partial(mm, "main", "3", s10_30, 2), 1);
	CHECK_U64(rtt_partial(mm, "main", "1", s10, 1), 0);
	CHECK_U64(mm->npartials, 2);
	CHECK_U64(rtt_total(mm), 1);
	ipp_profile_free(p);
	rtt_done();
	return 0;
}
