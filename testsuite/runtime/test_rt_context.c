/* test_rt_context.c -- context mode's __ipp_enter/__ipp_leave
 * (docs/PROTOCOL.md rules 1, 2, 6, 9): a callee whose token the caller
 * stored continues the caller's path (flag, path, nvc, region from the
 * slots) and hands the number back; any other entry starts a fresh path
 * in its own region, records it at the end and restores the slots it
 * found; exit() inside a continued call records one partial path for the
 * group, in the caller's region, with both vertices.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct ipp_rt_module m;
static struct ipp_rt_region r[2] = {
	{ "P", 1000, &m, 0, 0 },
	{ "Q", 1000, &m, 0, 0 },
};
static struct ipp_rt_module m = { IPP_ABI_VERSION, 2, "ctx.c", "c0c0c0c0c0c0c0c0", "context", r,
				  NULL, 0, 0 };

#define NI __attribute__((noinline))
#define TOK_P 0x5151ull
#define TOK_Q 0x7171ull

static int failures;
#define EXPECT(c) do { if (!(c)) { fprintf(stderr, "line %d: %s\n", __LINE__, #c); failures++; } } while (0)

/* Q adds 5 to the path.  exit_inside: exit(4) standing at vertex 50. */
static NI uint64_t Q(bool continuing, bool exit_inside)
{
	struct ipp_rt_frame f;
	uint64_t n;
	f.vertex = 1;		/* Q's Entry vertex: the plugin stores it first */
	__ipp_enter(&f, &r[1], TOK_Q, NULL);
	EXPECT(__ipp_top == &f && __ipp_tok == 0 && f.vertex == 1);
	if (continuing) {
		EXPECT(f.flags == IPP_FRAME_CONTINUES && f.region == &r[0] && f.nvc == 7 &&
		       f.path == 100);
	} else {
		EXPECT(f.flags == 0 && f.region == &r[1] && f.nvc == 1 && f.path == 0);
	}
	n = f.path + 5;
	if (exit_inside) {
		f.path = n;
		f.vertex = 50;
		exit(failures ? 100 : 4);
	}
	__ipp_leave(&f, n);
	return n;
}

static NI int P(bool exit_inside)
{
	struct ipp_rt_frame f;
	uint64_t n;
	f.vertex = 0;		/* P's Entry vertex */
	__ipp_enter(&f, &r[0], TOK_P, NULL);	/* no token stored: fresh */
	EXPECT(f.flags == 0 && f.region == &r[0] && f.path == 0);
	n = f.path + 100;
	/* an interprocedural call to Q at call vertex 20 (rule 1) */
	__ipp_path = n;
	__ipp_nvc = 7;
	__ipp_reg = f.region;
	__ipp_tok = TOK_Q;
	f.path = n;
	f.vertex = 20;
	Q(true, exit_inside);
	n = __ipp_path;		/* 105: Q handed the path back */
	EXPECT(n == 105);
	/* a summarized call to Q at vertex 21: Q starts fresh, records (Q, 5)
	 * and restores the slots as it found them */
	__ipp_path = 777;
	__ipp_nvc = 8;
	__ipp_reg = &r[0];
	f.path = n;
	f.vertex = 21;
	EXPECT(Q(false, false) == 5);
	EXPECT(__ipp_path == 777 && __ipp_nvc == 8 && __ipp_reg == &r[0] && __ipp_tok == 0);
	__ipp_leave(&f, n + 1);		/* P records (P, 106) */
	EXPECT(__ipp_top == NULL);
	return failures ? 100 : 0;
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_context");
	static const char *env[] = { "IPP_PROFILE=ctx.prof", NULL };
	static const int32_t s20_50[] = { 20, 50 };
	ipp_profile *p;
	const ipp_prof_module *mm;

	if (role)
		return P(strcmp(role, "exit") == 0);

	CHECK_EXIT(rtt_run("normal", NULL, env, NULL), 0);
	p = rtt_read("ctx.prof");
	mm = rtt_module(p, "ctx.c", "c0c0c0c0c0c0c0c0");
	CHECK_U64(rtt_path(mm, "P", "106"), 1);	/* P's path, through Q and back */
	CHECK_U64(rtt_path(mm, "Q", "5"), 1);		/* the fresh Q's own path */
	CHECK_U64(mm->npaths, 2);			/* the continued Q records nothing */
	CHECK_U64(mm->npartials, 0);
	ipp_profile_free(p);
	remove("ctx.prof");

	/* exit() in the continued Q: one path for the group {Q, P}, in P's
	 * region, with Q's number so far and the stack [20, 50] */
	CHECK_EXIT(rtt_run("exit", NULL, env, NULL), 4);
	p = rtt_read("ctx.prof");
	mm = rtt_module(p, "ctx.c", "c0c0c0c0c0c0c0c0");
	CHECK_U64(mm->npartials, 1);
	CHECK_U64(rtt_partial(mm, "P", "105", s20_50, 2), 1);
	CHECK_U64(mm->npaths, 0);
	ipp_profile_free(p);
	rtt_done();
	return 0;
}
