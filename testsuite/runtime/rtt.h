/* rtt.h -- helpers shared by the runtime tests (testsuite/runtime/).
 *
 * The tests play the plugin's part: each declares its module and regions
 * as the plugin emits them (static structs, registered lazily by the first
 * record or by __ipp_register), pushes frames, records paths in known
 * patterns, and checks the profile the runtime wrote by reading it back
 * with the core library's reader (ipp_profile_read_file), which is
 * independent code.
 *
 * A test is one program.  Run without arguments it is the driver: it
 * makes a fresh directory, and runs itself with a role argument (and an
 * environment) as the program under test, checking exit statuses, stderr
 * and profiles.  Checks print "file:line: ..." and exit 1.  On success the
 * directory is removed; on failure it is left for inspection.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef RTT_H
#define RTT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "ipp_abi.h"
#include "ipp.h"
#include "ipp_format.h"

#define CHECK(c) \
	do { if (!(c)) rtt_fail(__FILE__, __LINE__, "check failed: %s", #c); } while (0)
#define CHECK_U64(a, b) \
	do { uint64_t a_ = (a), b_ = (b); \
	     if (a_ != b_) rtt_fail(__FILE__, __LINE__, "%s is %llu, expected %llu", #a, \
				    (unsigned long long)a_, (unsigned long long)b_); } while (0)

void rtt_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 3, 4)));

/* Driver mode (argc == 1): makes and enters a fresh directory, clears
 * IPP_* from the environment.  Role mode: nothing.  Returns the role, or
 * NULL in driver mode. */
const char *rtt_init(int argc, char **argv, const char *name);
/* The driver's directory (absolute). */
const char *rtt_dir(void);
/* Runs this program with 'role' (and extra argument arg, may be NULL),
 * the environment additions env ("NAME=value", NULL-terminated, may be
 * NULL) and stderr into the file errfile (NULL: inherit).  rtt_start
 * returns the pid, rtt_wait its raw wait status, rtt_run both. */
pid_t rtt_start(const char *role, const char *arg, const char *const *env, const char *errfile);
int rtt_wait(pid_t pid);
int rtt_run(const char *role, const char *arg, const char *const *env, const char *errfile);
/* Exit status checks. */
#define CHECK_EXIT(st, code) \
	do { int s_ = (st); \
	     if (!WIFEXITED(s_) || WEXITSTATUS(s_) != (code)) \
		     rtt_fail(__FILE__, __LINE__, "the program ended with status 0x%x, expected exit(%d)", \
			      s_, (code)); } while (0)

/* Files. */
char *rtt_slurp(const char *path, size_t *len);	/* NULL if absent; free() it */
void rtt_write_file(const char *path, const char *text);
void rtt_write_bytes(const char *path, const void *buf, size_t len);
/* A profile given as text (the form `ipp profile` prints), written as the
 * binary file the runtime reads, through the core library. */
void rtt_write_profile(const char *path, const char *text);
/* The profile at path (which must read) as text, records sorted
 * (ipp_profile_write_text); free() it. */
char *rtt_profile_text(const char *path);
bool rtt_exists(const char *path);
bool rtt_contains(const char *path, const char *needle);
/* Removes the directory (on success), prints "PASS name" and ends the
 * driver with status 0, writing no profile of its own (rtt.c). */
void rtt_done(void) __attribute__((noreturn));

/* The profile, read with the core library (the test fails if it does
 * not parse). */
ipp_profile *rtt_read(const char *path);
const ipp_prof_module *rtt_module(const ipp_profile *p, const char *name, const char *checksum);
/* The count of a path, partial path or forked prefix (0 if absent); num
 * in decimal. */
uint64_t rtt_path(const ipp_prof_module *m, const char *region, const char *num);
uint64_t rtt_partial(const ipp_prof_module *m, const char *region, const char *num,
		     const int32_t *stack, size_t nstack);
uint64_t rtt_forked(const ipp_prof_module *m, const char *region, const char *num,
		    const int32_t *stack, size_t nstack);
/* Sum of all path counts of a module. */
uint64_t rtt_total(const ipp_prof_module *m);

/* Frames, as the plugin pushes and pops them (without __ipp_enter). */
static inline void rtt_push(struct ipp_rt_frame *f, struct ipp_rt_region *r, uint64_t path,
			    int32_t vertex, uint32_t flags)
{
	f->prev = __ipp_top;
	f->region = r;
	f->path = path;
	f->vertex = vertex;
	f->flags = flags;
	__ipp_top = f;
	/* The runtime reads frames asynchronously (fatal signals): keep the
	 * compiler from deleting these stores when it can prove that no code
	 * it sees reads them (a function that only calls itself, say). */
	__asm__ volatile("" ::: "memory");
}

static inline void rtt_pop(struct ipp_rt_frame *f)
{
	__ipp_top = f->prev;
}

/* The entry and return of a fresh activation of a function that makes
 * continuing calls, as the plugin emits them (docs/PROTOCOL.md rules 2
 * and 6): push a fresh frame, keep __ipp_path; at the return pop it,
 * restore __ipp_path, record. */
struct rtt_fresh {
	struct ipp_rt_frame f;
	uint64_t saved_path;
};

/* The constant the plugin emits per unit (ipp_abi.h, struct ipp_rt_arc):
 * the arc no cache hit can match, every site cache's first value. */
static const struct ipp_rt_arc rtt_arc_none = { 0, IPP_ARC_TARGET_NONE, NULL, 0, 0 };

/* __ipp_icall calls: the misses of the inline check */
static unsigned long rtt_icall_calls;

/* An indirect call site's two-way arc cache:
 * `static RTT_ARC_CACHE(name);` */
#define RTT_ARC_CACHE(name) \
	__thread const struct ipp_rt_arc *name[2] = { &rtt_arc_none, &rtt_arc_none }

/* What the plugin emits just before a call through pointer p at call
 * vertex `site` of unit m, whose cache is cache[0..1] (after the
 * checkpoint f.vertex = site): count the arc in place if the cache holds
 * it. */
static inline void rtt_icall(struct ipp_rt_module *m, int32_t site, const void *p,
			     const struct ipp_rt_arc **cache)
{
	if (cache[0]->target == p) {
		((struct ipp_rt_arc *)cache[0])->count += 1;
	} else if (cache[1]->target == p) {
		((struct ipp_rt_arc *)cache[1])->count += 1;
	} else {
		rtt_icall_calls++;
		__ipp_icall(m, site, p, cache);
	}
}

static inline void rtt_fresh_enter(struct rtt_fresh *a, struct ipp_rt_region *r)
{
	rtt_push(&a->f, r, 0, -1, 0);
	a->saved_path = __ipp_path;
}

static inline void rtt_fresh_leave(struct rtt_fresh *a, uint64_t n)
{
	rtt_pop(&a->f);
	__ipp_path = a->saved_path;
	__ipp_record(a->f.region, n);
}

#endif
