/* test_rt_icalls.c -- the exact dynamic call graph of indirect calls
 * (docs/PROTOCOL.md rule 7, runtime/rt_arcs.c).  The test plays the
 * plugin: before a call through a pointer, the caller stores its call
 * vertex in its frame and the pointer in __ipp_itgt; a callee entering
 * fresh with self == __ipp_itgt credits the arc (caller's unit, vertex,
 * callee's region) through __ipp_icall (rtt_fresh_enter plays the entry
 * the plugin emits).
 *
 * One activation of P makes these calls (vertices of icall.c):
 *   30: F through a pointer, 3 times       -> arc (30, icall.c F) 3
 *   30: G through a pointer, 2 times       -> arc (30, icall.c G) 2
 *   31: L of another unit (lib.c), once    -> arc (31, lib.c L)   1
 *   32: U through a pointer; U is not instrumented and calls F directly:
 *       F finds __ipp_itgt == U, not itself -> no arc
 *   33: F directly, with U's stale target still in __ipp_itgt -> no arc
 *   34: __ipp_itgt = F, then a "signal handler" H runs before the call
 *       (H enters fresh, so it saves the pending target and clears it):
 *       H calls F directly (no arc: without the save, this call would be
 *       credited to H's vertex 40) and G through a pointer at its vertex
 *       41 (arc (41, icall.c G) 1); H's leave restores the target; then
 *       the call to F                       -> arc (34, icall.c F) 1
 * So per activation of P: 3 + 2 + 1 + 1 + 1 = 8 calls on 5 arcs, and
 * no others.  The roles check how the arcs add up: two threads, two runs
 * merged into one file, ipp_dump (the file after the dump, then at exit),
 * ipp_reset, and fork (the child starts from zero).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NI __attribute__((noinline))
#define CKS "1c1c1c1c1c1c1c1c"
#define LIB_CKS "2b2b2b2b2b2b2b2b"

static struct ipp_rt_module m, lib;
static struct ipp_rt_region r[4] = {
	{ "P", 100, &m, 0, 0 },
	{ "F", 100, &m, 0, 0 },
	{ "G", 100, &m, 0, 0 },
	{ "H", 100, &m, 0, 0 },
};
static struct ipp_rt_module m = { IPP_ABI_VERSION, 4, "icall.c", CKS, "context", r, NULL, 0, 0 };
static struct ipp_rt_region rl[1] = { { "L", 100, &lib, 0, 0 } };
static struct ipp_rt_module lib = { IPP_ABI_VERSION, 1, "lib.c", LIB_CKS, "context", rl, NULL,
				    0, 0 };

typedef int fn(int);
#define SELF(f) ((const void *)(uintptr_t)(f))

/* An instrumented leaf with an Entry region: enter, record path 0, leave. */
#define LEAF(name, region) \
	static NI int name(int x) \
	{ \
		struct rtt_fresh a; \
		rtt_fresh_enter(&a, region, SELF(name)); \
		rtt_fresh_leave(&a, SELF(name), 0); \
		return x + 1; \
	}
LEAF(F, &r[1])
LEAF(G, &r[2])
LEAF(L, &rl[0])

/* Not instrumented: calls F directly. */
static NI int U(int x)
{
	return F(x);
}

/* What the plugin emits around an indirect call at vertex v. */
static NI int call_through(struct ipp_rt_frame *f, int32_t v, fn *p, int x)
{
	f->vertex = v;
	__ipp_itgt = SELF(p);
	return p(x);
}

/* An instrumented signal handler interrupting between a caller's store
 * of __ipp_itgt and its call. */
static NI void H(void)
{
	struct rtt_fresh a;
	rtt_fresh_enter(&a, &r[3], SELF(H));
	CHECK(__ipp_itgt == NULL);	/* saved in a, not visible to H's calls */
	a.f.vertex = 40;
	F(1);
	call_through(&a.f, 41, G, 1);
	rtt_fresh_leave(&a, SELF(H), 0);
}

static NI void P(void)
{
	struct rtt_fresh a;
	struct ipp_rt_frame *fp = &a.f;
	int x = 0;
	rtt_fresh_enter(&a, &r[0], NULL);
	for (int i = 0; i < 3; i++)
		x = call_through(fp, 30, F, x);
	for (int i = 0; i < 2; i++)
		x = call_through(fp, 30, G, x);
	x = call_through(fp, 31, L, x);
	x = call_through(fp, 32, U, x);
	CHECK(__ipp_itgt == SELF(U));	/* stale: U never consumed it */
	fp->vertex = 33;
	x = F(x);
	fp->vertex = 34;
	__ipp_itgt = SELF(F);
	H();
	CHECK(__ipp_itgt == SELF(F));	/* H gave the pending target back */
	x = F(x);
	CHECK(__ipp_itgt == NULL);
	rtt_fresh_leave(&a, NULL, (uint64_t)x % 100);
}

static void *thread_main(void *arg)
{
	(void)arg;
	P();
	return NULL;
}

static void copy_file(const char *from, const char *to)
{
	size_t len;
	char *text = rtt_slurp(from, &len);
	CHECK(text != NULL);
	rtt_write_bytes(to, text, len);
	free(text);
}

static int role_main(const char *role)
{
	if (strcmp(role, "threads") == 0) {
		pthread_t t;
		P();
		CHECK(pthread_create(&t, NULL, thread_main, NULL) == 0);
		CHECK(pthread_join(t, NULL) == 0);
	} else if (strcmp(role, "dump") == 0) {
		P();
		ipp_dump();
		copy_file("dump.prof", "mid.prof");
		P();
		P();
	} else if (strcmp(role, "reset") == 0) {
		P();
		P();
		ipp_reset();
		P();
	} else if (strcmp(role, "fork") == 0) {
		pid_t pid;
		P();
		pid = fork();
		if (pid == 0) {
			ipp_set_profile("child.prof");
			P();
			exit(0);
		}
		CHECK_EXIT(rtt_wait(pid), 0);
		P();
	}
	return 0;
}

/* The count of the arc (site -> region of module cmod), 0 if absent. */
static uint64_t arc(const ipp_prof_module *mm, ipp_id site, const char *cmod, const char *cks,
		    const char *region)
{
	char hex[17];
	for (size_t i = 0; i < mm->nicalls; i++) {
		const ipp_prof_icall *c = &mm->icalls[i];
		if (c->site == site && strcmp(c->callee_module, cmod) == 0 &&
		    strcmp(ipp_hex64(c->callee_checksum, hex), cks) == 0 &&
		    strcmp(c->callee_region, region) == 0)
			return c->count;
	}
	return 0;
}

/* The profile holds k activations of P: the 5 arcs times k, no others
 * (also none in lib.c, which calls nobody). */
static void check_arcs(const char *path, uint64_t k, uint64_t runs)
{
	ipp_profile *p = rtt_read(path);
	const ipp_prof_module *mm = rtt_module(p, "icall.c", CKS);
	CHECK_U64(arc(mm, 30, "icall.c", CKS, "F"), 3 * k);
	CHECK_U64(arc(mm, 30, "icall.c", CKS, "G"), 2 * k);
	CHECK_U64(arc(mm, 31, "lib.c", LIB_CKS, "L"), k);
	CHECK_U64(arc(mm, 34, "icall.c", CKS, "F"), k);
	CHECK_U64(arc(mm, 41, "icall.c", CKS, "G"), k);
	CHECK_U64(mm->nicalls, 5);
	CHECK_U64(mm->runs, runs);
	/* F ran 3 (site 30) + 1 (from U) + 1 (site 33) + 1 (from H) + 1 (site
	 * 34) = 7 times per P, each a fresh path 0 */
	CHECK_U64(rtt_path(mm, "F", "0"), 7 * k);
	CHECK_U64(rtt_module(p, "lib.c", LIB_CKS)->nicalls, 0);
	ipp_profile_free(p);
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_icalls");
	static const char *env_t[] = { "IPP_PROFILE=threads.prof", NULL };
	static const char *env_d[] = { "IPP_PROFILE=dump.prof", NULL };
	static const char *env_r[] = { "IPP_PROFILE=reset.prof", NULL };
	static const char *env_f[] = { "IPP_PROFILE=fork.prof", NULL };
	char *text;

	if (role)
		return role_main(role);

	/* two threads: 2 activations; a second run merges into the file */
	CHECK_EXIT(rtt_run("threads", NULL, env_t, NULL), 0);
	check_arcs("threads.prof", 2, 1);
	text = rtt_profile_text("threads.prof");
	CHECK(strstr(text, "  indirect-calls:\n"
			   "  - [30, icall.c, \"" CKS "\", F, 6]\n"
			   "  - [30, icall.c, \"" CKS "\", G, 4]\n"
			   "  - [31, lib.c, \"" LIB_CKS "\", L, 2]\n"
			   "  - [34, icall.c, \"" CKS "\", F, 2]\n"
			   "  - [41, icall.c, \"" CKS "\", G, 2]\n") != NULL);
	free(text);
	CHECK_EXIT(rtt_run("threads", NULL, env_t, NULL), 0);
	check_arcs("threads.prof", 4, 2);

	/* ipp_dump after 1 activation, 2 more by exit: 1 then 1 + 2 */
	CHECK_EXIT(rtt_run("dump", NULL, env_d, NULL), 0);
	check_arcs("mid.prof", 1, 1);
	check_arcs("dump.prof", 3, 1);

	/* ipp_reset forgets the first 2 activations */
	CHECK_EXIT(rtt_run("reset", NULL, env_r, NULL), 0);
	check_arcs("reset.prof", 1, 1);

	/* fork after 1 activation: the parent has 2, the child (which writes
	 * child.prof) only its own 1 */
	CHECK_EXIT(rtt_run("fork", NULL, env_f, NULL), 0);
	check_arcs("fork.prof", 2, 1);
	check_arcs("child.prof", 1, 1);
	rtt_done();
	return 0;
}
