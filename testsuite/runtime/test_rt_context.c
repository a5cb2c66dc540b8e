/* test_rt_context.c -- context mode's frames and the __ipp_path out-slot
 * (docs/PROTOCOL.md rules 1, 2, 3, 6, 8, 9).  The test plays the plugin:
 * P is a fresh activation (a frame with its region), Qc the continuing
 * clone of Q (path number, nvc and region as arguments, a frame flagged
 * IPP_FRAME_CONTINUES whose region the runtime must never read: it is
 * poisoned here), Q the fresh original.
 *
 * Per run of role "normal":
 *   P: path 0, +100, calls Qc at vertex 20 (Qc adds 5, hands 105 back),
 *      calls Q fresh at vertex 21 (Q records (Q, 5)), +1, records (P, 106);
 *      between Qc's store to __ipp_path and P's load, a "signal handler"
 *      H runs: a fresh activation that makes a continuing call itself and
 *      restores __ipp_path when it returns, so P still reads 105; H
 *      records (P region, 7) once.
 * Role "exit": exit(4) inside Qc standing at vertex 50: one partial path
 *   for the group {Qc, P}, in P's region (the group's fresh frame), with
 *   Qc's number so far and the stack [20, 50]; no complete path.
 * Role "deadend": a frameless continuing Qf records the group's path
 *   (P, 105 + 2) before calling exit(5) and marks the top frame (P's, the
 *   innermost of its group) recorded: the walk at exit records nothing
 *   more, so the path counts once.
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
/* a continuing frame's region is never read: make a read crash */
#define POISON ((struct ipp_rt_region *)(uintptr_t)0x8)

static int failures;
#define EXPECT(c) do { if (!(c)) { fprintf(stderr, "line %d: %s\n", __LINE__, #c); failures++; } } while (0)

static void push(struct ipp_rt_frame *f, struct ipp_rt_region *reg, uint32_t flags)
{
	f->prev = __ipp_top;
	f->region = reg;
	f->vertex = -1;
	f->flags = flags;
	__ipp_top = f;
}

static void pop(struct ipp_rt_frame *f)
{
	__ipp_top = f->prev;
}

/* The continuing clone of Q: adds 5.  exit_inside: exit(4) at vertex 50. */
static NI void Qc(uint64_t path, uint64_t nvc, struct ipp_rt_region *reg, bool exit_inside)
{
	struct ipp_rt_frame f;
	uint64_t n = path;
	push(&f, POISON, IPP_FRAME_CONTINUES);
	EXPECT(nvc == 7 && reg == &r[0]);
	n += 5;
	if (exit_inside) {
		f.path = n;
		f.vertex = 50;
		exit(failures ? 100 : 4);
	}
	pop(&f);
	__ipp_path = n;		/* rule 6: hand the number back */
}

/* A frameless continuing function whose path ends in exit(5): it records
 * the group's path and marks the top frame recorded (rule 8). */
static NI void Qf(uint64_t path, struct ipp_rt_region *reg)
{
	__ipp_record(reg, path + 2);
	__ipp_top->vertex = -1;
	exit(failures ? 100 : 5);
}

/* The fresh original Q. */
static NI uint64_t Q(void)
{
	struct ipp_rt_frame f;
	uint64_t n = 0;
	push(&f, &r[1], 0);
	n += 5;
	pop(&f);
	__ipp_record(&r[1], n);
	return n;
}

/* A "signal handler": fresh, makes a continuing call, so it saves
 * __ipp_path at entry and restores it at its return. */
static NI void H(void)
{
	struct ipp_rt_frame f;
	uint64_t saved = __ipp_path, n = 0;
	push(&f, &r[0], 0);
	f.path = n;
	f.vertex = 60;
	Qc(n, 7, &r[0], false);
	n = __ipp_path + 2;	/* 7 */
	pop(&f);
	__ipp_path = saved;
	__ipp_record(&r[0], n);
}

static NI int P(const char *role)
{
	struct ipp_rt_frame f;
	uint64_t n = 0, saved = __ipp_path;
	push(&f, &r[0], 0);
	n += 100;
	/* an interprocedural call to Q at call vertex 20 (rule 1) */
	f.path = n;
	f.vertex = 20;
	if (strcmp(role, "deadend") == 0)
		Qf(n + 5, &r[0]);
	Qc(n, 7, &r[0], strcmp(role, "exit") == 0);
	H();			/* interrupts between Qc's store and our load */
	n = __ipp_path;
	EXPECT(n == 105);
	/* a summarized call to Q at vertex 21: Q starts fresh */
	f.path = n;
	f.vertex = 21;
	EXPECT(Q() == 5);
	pop(&f);
	__ipp_path = saved;
	__ipp_record(&r[0], n + 1);	/* (P, 106) */
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
		return P(role);

	CHECK_EXIT(rtt_run("normal", NULL, env, NULL), 0);
	p = rtt_read("ctx.prof");
	mm = rtt_module(p, "ctx.c", "c0c0c0c0c0c0c0c0");
	CHECK_U64(rtt_path(mm, "P", "106"), 1);	/* P's path, through Qc and back */
	CHECK_U64(rtt_path(mm, "P", "7"), 1);		/* H's, through Qc and back */
	CHECK_U64(rtt_path(mm, "Q", "5"), 1);		/* the fresh Q's own path */
	CHECK_U64(mm->npaths, 3);			/* Qc records nothing */
	CHECK_U64(mm->npartials, 0);
	ipp_profile_free(p);
	remove("ctx.prof");

	/* exit() in the continued Q: one path for the group {Qc, P}, in P's
	 * region, with Qc's number so far and the stack [20, 50] */
	CHECK_EXIT(rtt_run("exit", NULL, env, NULL), 4);
	p = rtt_read("ctx.prof");
	mm = rtt_module(p, "ctx.c", "c0c0c0c0c0c0c0c0");
	CHECK_U64(mm->npartials, 1);
	CHECK_U64(rtt_partial(mm, "P", "105", s20_50, 2), 1);
	CHECK_U64(mm->npaths, 0);
	ipp_profile_free(p);
	remove("ctx.prof");

	/* a frameless continuing dead end: the path counts once */
	CHECK_EXIT(rtt_run("deadend", NULL, env, NULL), 5);
	p = rtt_read("ctx.prof");
	mm = rtt_module(p, "ctx.c", "c0c0c0c0c0c0c0c0");
	CHECK_U64(rtt_path(mm, "P", "107"), 1);
	CHECK_U64(mm->npaths, 1);
	CHECK_U64(mm->npartials, 0);
	ipp_profile_free(p);
	rtt_done();
	return 0;
}
