/* test_rt_icalls.c -- the exact dynamic call graph of indirect calls
 * (docs/PROTOCOL.md rule 7, runtime/rt_arcs.c).  The test plays the
 * plugin: just before a call through a pointer, the caller checks the
 * site's arc cache and counts the arc (unit, call vertex, target address)
 * in place, or calls __ipp_icall when the cache holds another target
 * (rtt_icall).  The writer names the callee by the registered units'
 * entries (struct ipp_rt_entry): an arc to an address no unit lists is
 * counted but not written.
 *
 * One activation of P makes these calls (vertices of icall.c):
 *   30: F through a pointer, 3 times       -> arc (30, icall.c F) 3
 *   30: G through a pointer, 2 times       -> arc (30, icall.c G) 2
 *   31: L of another unit (lib.c), once    -> arc (31, lib.c L)   1
 *   32: U through a pointer; U is listed by no unit (not instrumented) and
 *       calls F directly                   -> no arc written
 *   33: F directly                         -> no arc
 *   34: F through a pointer, counted; then a "signal handler" H runs
 *       before the call: H calls F directly (no arc) and G through a
 *       pointer at its vertex 41           -> arc (41, icall.c G) 1
 *       then the call to F                 -> arc (34, icall.c F) 1
 * So per activation of P: 3 + 2 + 1 + 1 + 1 = 8 calls on 5 written arcs.
 * The roles check how the arcs add up: two threads, two runs merged into
 * one file, ipp_dump (the file after the dump, then at exit), ipp_reset,
 * and fork (the child starts from zero).  Role "continuing": the caller is
 * a continuing activation C (a clone, called by P's fresh frame) whose
 * frame's region is garbage, as on a real stack: F twice at its vertex 60,
 * G once at 61 -> arcs (60, F) 2 and (61, G) 1, filed under icall.c.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"
#include "rt_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NI __attribute__((noinline))
#define CKS "1c1c1c1c1c1c1c1c"
#define LIB_CKS "2b2b2b2b2b2b2b2b"

typedef int fn(int);
static fn F, G, L;
#define SELF(f) ((const void *)(uintptr_t)(f))

static struct ipp_rt_module m, lib;
static struct ipp_rt_region r[4] = {
	{ "P", 100, &m, 0, 0 },
	{ "F", 100, &m, 0, 0 },
	{ "G", 100, &m, 0, 0 },
	{ "H", 100, &m, 0, 0 },
};
/* the functions of icall.c callable through a pointer (H is not) */
static struct ipp_rt_entry ents[2];
static struct ipp_rt_module m = {
	.abi_version = IPP_ABI_VERSION, .nregions = 4, .name = "icall.c", .checksum = CKS,
	.mode = "context", .regions = r, .nentries = 2, .entries = ents,
};
static struct ipp_rt_region rl[1] = { { "L", 100, &lib, 0, 0 } };
static struct ipp_rt_entry lib_ents[1];
static struct ipp_rt_module lib = {
	.abi_version = IPP_ABI_VERSION, .nregions = 1, .name = "lib.c", .checksum = LIB_CKS,
	.mode = "context", .regions = rl, .nentries = 1, .entries = lib_ents,
};

/* The entries tables, as the plugin's static initializers would be. */
static void set_entries(void)
{
	ents[0].fn = SELF(F);
	ents[0].region = &r[1];
	ents[1].fn = SELF(G);
	ents[1].region = &r[2];
	lib_ents[0].fn = SELF(L);
	lib_ents[0].region = &rl[0];
}

/* An instrumented leaf with an Entry region: record path 0. */
#define LEAF(name, region) \
	static NI int name(int x) \
	{ \
		__ipp_record(region, 0); \
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

/* What the plugin emits around an indirect call at vertex v of icall.c
 * whose site cache is *cache. */
static NI int call_through(struct ipp_rt_frame *f, int32_t v, fn *p, int x,
			   const struct ipp_rt_arc **cache)
{
	f->vertex = v;
	rtt_icall(&m, v, SELF(p), cache);
	return p(x);
}

/* The same at a site without a cache of its own: every call goes through
 * __ipp_icall (the index is what roles "many" and "promote" test). */
static NI int call_slow(struct ipp_rt_frame *f, int32_t v, fn *p, int x)
{
	const struct ipp_rt_arc *none[2] = { &rtt_arc_none, &rtt_arc_none };
	return call_through(f, v, p, x, none);
}

static RTT_ARC_CACHE(site30);
static RTT_ARC_CACHE(site31);
static RTT_ARC_CACHE(site32);
static RTT_ARC_CACHE(site34);
static RTT_ARC_CACHE(site41);

/* An instrumented signal handler interrupting between a caller's count of
 * an arc and its call. */
static NI void H(void)
{
	struct rtt_fresh a;
	rtt_fresh_enter(&a, &r[3]);
	a.f.vertex = 40;
	F(1);
	call_through(&a.f, 41, G, 1, site41);
	rtt_fresh_leave(&a, 0);
}

static NI void P(void)
{
	struct rtt_fresh a;
	struct ipp_rt_frame *fp = &a.f;
	int x = 0;
	rtt_fresh_enter(&a, &r[0]);
	for (int i = 0; i < 3; i++)
		x = call_through(fp, 30, F, x, site30);
	for (int i = 0; i < 2; i++)
		x = call_through(fp, 30, G, x, site30);
	x = call_through(fp, 31, L, x, site31);
	x = call_through(fp, 32, U, x, site32);
	fp->vertex = 33;
	x = F(x);
	fp->vertex = 34;
	rtt_icall(&m, 34, SELF(F), site34);
	H();
	x = F(x);
	rtt_fresh_leave(&a, (uint64_t)x % 100);
}

/* Many arcs, counted unevenly in an interleaved order (role "many"): sites
 * 100 .. 100 + NSITES - 1, each calling F and G through a pointer.  In
 * round k (0 <= k < ROUNDS) site s calls F if k < f_calls(s) and G if
 * k < g_calls(s).  1000 arcs grow the index to 2048 slots (load 0.49), their keys
 * collide into probe runs, and hot arcs found beyond the inline probes
 * trade places with colder ones (rt_arcs.c, promote): every count must
 * still come out exact, each arc once. */
#define NSITES 500
#define ROUNDS 40
static unsigned f_calls(unsigned s) { return (s * 7) % ROUNDS + 1; }
static unsigned g_calls(unsigned s) { return (s * 13 + 5) % 9 + 1; }

static NI void Q(void)
{
	struct rtt_fresh a;
	int x = 0;
	rtt_fresh_enter(&a, &r[0]);
	for (unsigned k = 0; k < ROUNDS; k++)
		for (unsigned s = 0; s < NSITES; s++) {
			if (k < f_calls(s))
				x = call_slow(&a.f, 100 + (int32_t)s, F, x);
			if (k < g_calls(s))
				x = call_slow(&a.f, 100 + (int32_t)s, G, x);
		}
	rtt_fresh_leave(&a, (uint64_t)x % 100);
}

/* Role "promote", white box (rt_internal.h): seven arcs (site -> F) whose
 * keys share one home slot of the thread's first index (64 slots) take
 * the slots HOME .. HOME + 6 in the order they are first called.  The
 * last one, six slots past its home, is beyond __ipp_icall's four inline
 * probes: its first call after that goes to count_slow, which finds it
 * with count 2 and trades it for the arc at HOME (count 1): from then on
 * it is found at the first probe.  Then the first arc, now six slots on
 * with count 1, is called again: count 2 beats the arc at HOME (11) no
 * more, so it trades with the one at HOME + 1 (count 1).  Every count is
 * exact whatever the slots do.  The key is rt_arcs.c's arc_key: (target
 * ^ caller module) + (site << 40), first probe rt_htab_index(key, 58);
 * the child finds its sites from its own addresses. */
#define NCOLL 7
static int32_t coll_site[NCOLL];
static uint32_t coll_home;

static uint32_t home_of(int32_t site)
{
	uint64_t key = ((uintptr_t)SELF(F) ^ (uintptr_t)&m) + ((uint64_t)(uint32_t)site << 40);
	return (uint32_t)rt_htab_index(key, 64 - 6);
}

static void find_colliding_sites(void)
{
	int n = 0;
	coll_home = home_of(1000);
	/* the run HOME .. HOME + 6 must not wrap past slot 63 */
	for (int32_t s = 1000; n < NCOLL && s < 1000000; s++)
		if (home_of(s) == coll_home && coll_home + NCOLL <= 64)
			coll_site[n++] = s;
		else if (coll_home + NCOLL > 64)
			coll_home = home_of(s + 1);
	CHECK(n == NCOLL);
}

static int32_t slot_site(uint32_t i)
{
	const struct rt_arc *a = rt_tls_self->arcidx->slot[i];
	CHECK(a != NULL);
	return a->a.site;
}

static NI void R(void)
{
	struct rtt_fresh a;
	int x = 0;
	find_colliding_sites();
	rtt_fresh_enter(&a, &r[0]);
	for (int k = 0; k < NCOLL; k++)
		x = call_slow(&a.f, coll_site[k], F, x);
	CHECK(rt_tls_self->arcidx->cap == 64);
	for (int k = 0; k < NCOLL; k++)
		CHECK(slot_site(coll_home + (uint32_t)k) == coll_site[k]);
	for (int k = 0; k < 10; k++)
		x = call_slow(&a.f, coll_site[NCOLL - 1], F, x);
	CHECK(slot_site(coll_home) == coll_site[NCOLL - 1]);
	CHECK(slot_site(coll_home + NCOLL - 1) == coll_site[0]);
	x = call_slow(&a.f, coll_site[0], F, x);
	CHECK(slot_site(coll_home) == coll_site[NCOLL - 1]);
	CHECK(slot_site(coll_home + 1) == coll_site[0]);
	CHECK(slot_site(coll_home + NCOLL - 1) == coll_site[1]);
	rtt_fresh_leave(&a, (uint64_t)x % 100);
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

/* A continuing activation (rule 3) that calls through pointers: its frame
 * is flagged IPP_FRAME_CONTINUES and its region is garbage, as on a real
 * stack; the arcs are filed under the unit the call site names. */
static RTT_ARC_CACHE(site60);
static RTT_ARC_CACHE(site61);
static NI void C(void)
{
	struct ipp_rt_frame c;
	int x = 0;
	rtt_push(&c, (struct ipp_rt_region *)(uintptr_t)0x5a5a5a5a5a5a5a5aull, 7, 59,
		 IPP_FRAME_CONTINUES);
	for (int i = 0; i < 2; i++)
		x = call_through(&c, 60, F, x, site60);
	x = call_through(&c, 61, G, x, site61);
	rtt_pop(&c);
	CHECK(x == 3);
}

static NI void PC(void)
{
	struct rtt_fresh a;
	rtt_fresh_enter(&a, &r[0]);
	a.f.vertex = 50;	/* the continuing call to C */
	C();
	rtt_fresh_leave(&a, 1);
}

/* Role "cache": a site's two-way arc cache (ipp_abi.h, struct ipp_rt_arc)
 * hits when the site calls one of the two targets it counted last;
 * anything else calls __ipp_icall, which counts, makes the arc the first
 * entry and the first the second.  Site 30 calls (entries after the call)
 *   F     miss  [F -]      F F  hit hit      G  miss [G F]    G  hit
 *   F     hit (second)     L    miss [L G]   G  hit (second)  F  miss [F L]
 * arcs (30, F) 5, (30, G) 3, (30, lib.c L) 1 from 4 misses; site 31 (a
 * cache of its own) F F -> miss hit: arc (31, F) 2; site 32 U U U -> miss
 * hit hit: the arc to U is counted, never written, and U calls F directly
 * each time.  6 __ipp_icall calls in all; F entered 5 + 2 + 3 = 10 times,
 * G 3 times. */
static NI void K(void)
{
	struct rtt_fresh a;
	static fn *const targets[] = { F, F, F, G, G, F, L, G, F };
	int x = 0;
	rtt_fresh_enter(&a, &r[0]);
	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++)
		x = call_through(&a.f, 30, targets[i], x, site30);
	CHECK(rtt_icall_calls == 4);
	CHECK(site30[0]->target == SELF(F) && site30[0]->count == 5 && site30[0]->site == 30);
	CHECK(site30[1]->target == SELF(L) && site30[1]->count == 1);
	for (int i = 0; i < 2; i++)
		x = call_through(&a.f, 31, F, x, site31);
	CHECK(rtt_icall_calls == 5);
	for (int i = 0; i < 3; i++)
		x = call_through(&a.f, 32, U, x, site32);
	CHECK(rtt_icall_calls == 6);
	CHECK(site32[0]->target == SELF(U) && site32[0]->count == 3);
	CHECK(site32[1] == &rtt_arc_none);
	rtt_fresh_leave(&a, (uint64_t)x % 100);
	CHECK(__ipp_top == NULL);
}

static int role_main(const char *role)
{
	set_entries();
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
	} else if (strcmp(role, "cache") == 0) {
		K();
	} else if (strcmp(role, "promote") == 0) {
		R();
	} else if (strcmp(role, "many") == 0) {
		Q();
	} else if (strcmp(role, "continuing") == 0) {
		PC();
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

	/* the arc cache: hits and misses add up to the arcs' counts */
	{
		static const char *env_k[] = { "IPP_PROFILE=cache.prof", NULL };
		ipp_profile *p;
		const ipp_prof_module *mm;
		CHECK_EXIT(rtt_run("cache", NULL, env_k, NULL), 0);
		p = rtt_read("cache.prof");
		mm = rtt_module(p, "icall.c", CKS);
		CHECK_U64(mm->nicalls, 4);
		CHECK_U64(arc(mm, 30, "icall.c", CKS, "F"), 5);
		CHECK_U64(arc(mm, 30, "icall.c", CKS, "G"), 3);
		CHECK_U64(arc(mm, 30, "lib.c", LIB_CKS, "L"), 1);
		CHECK_U64(arc(mm, 31, "icall.c", CKS, "F"), 2);
		CHECK_U64(rtt_path(mm, "F", "0"), 10);
		CHECK_U64(rtt_path(mm, "G", "0"), 3);
		ipp_profile_free(p);
	}

	/* hot arcs move to the front of their probe run */
	{
		static const char *env_p[] = { "IPP_PROFILE=promote.prof", NULL };
		ipp_profile *p;
		const ipp_prof_module *mm;
		uint64_t ones = 0, twos = 0, elevens = 0;
		/* the child's sites depend on its addresses (ASLR): the counts
		 * are checked as a multiset, 11, 2 and five 1s */
		CHECK_EXIT(rtt_run("promote", NULL, env_p, NULL), 0);
		p = rtt_read("promote.prof");
		mm = rtt_module(p, "icall.c", CKS);
		CHECK_U64(mm->nicalls, NCOLL);
		for (size_t i = 0; i < mm->nicalls; i++) {
			CHECK(strcmp(mm->icalls[i].callee_region, "F") == 0);
			ones += mm->icalls[i].count == 1;
			twos += mm->icalls[i].count == 2;
			elevens += mm->icalls[i].count == 11;
		}
		CHECK_U64(ones, NCOLL - 2);
		CHECK_U64(twos, 1);
		CHECK_U64(elevens, 1);
		ipp_profile_free(p);
	}

	/* many arcs, uneven counts: each exact */
	{
		static const char *env_m[] = { "IPP_PROFILE=many.prof", NULL };
		ipp_profile *p;
		const ipp_prof_module *mm;
		uint64_t fsum = 0, gsum = 0;
		CHECK_EXIT(rtt_run("many", NULL, env_m, NULL), 0);
		p = rtt_read("many.prof");
		mm = rtt_module(p, "icall.c", CKS);
		CHECK_U64(mm->nicalls, 2 * NSITES);
		for (unsigned s = 0; s < NSITES; s++) {
			CHECK_U64(arc(mm, 100 + s, "icall.c", CKS, "F"), f_calls(s));
			CHECK_U64(arc(mm, 100 + s, "icall.c", CKS, "G"), g_calls(s));
			fsum += f_calls(s);
			gsum += g_calls(s);
		}
		CHECK_U64(rtt_path(mm, "F", "0"), fsum);
		CHECK_U64(rtt_path(mm, "G", "0"), gsum);
		ipp_profile_free(p);
	}

	/* a continuing caller: the arcs of its two sites, nothing else */
	{
		static const char *env_c[] = { "IPP_PROFILE=cont.prof", NULL };
		ipp_profile *p;
		const ipp_prof_module *mm;
		CHECK_EXIT(rtt_run("continuing", NULL, env_c, NULL), 0);
		p = rtt_read("cont.prof");
		mm = rtt_module(p, "icall.c", CKS);
		CHECK_U64(arc(mm, 60, "icall.c", CKS, "F"), 2);
		CHECK_U64(arc(mm, 61, "icall.c", CKS, "G"), 1);
		CHECK_U64(mm->nicalls, 2);
		ipp_profile_free(p);
	}

	/* fork after 1 activation: the parent has 2, the child (which writes
	 * child.prof) only its own 1 */
	CHECK_EXIT(rtt_run("fork", NULL, env_f, NULL), 0);
	check_arcs("fork.prof", 2, 1);
	check_arcs("child.prof", 1, 1);
	rtt_done();
	return 0;
}
