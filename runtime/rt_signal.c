/* rt_signal.c -- the profile at a fatal signal (on by default; see
 * docs/RUNTIME.md, section 6, for the decision).
 *
 * At initialisation the runtime installs a handler for SIGSEGV, SIGBUS,
 * SIGILL, SIGFPE and SIGABRT -- each one whose disposition is still the
 * default (a handler the program installed first is left alone), or each
 * one with IPP_SIGNALS=1; none with IPP_SIGNALS=0 or in a set-user-ID
 * process.  The handler records the crashing thread's pending frames as
 * partial paths (every frame is a checkpoint of its path, so a fault at
 * any instruction finds a prefix of the path in progress: docs/
 * PROTOCOL.md), writes the profile (rt_write.c), then restores the
 * disposition that was there before and lets the signal take its course:
 * a fault re-executes the faulting instruction, a signal sent by kill(),
 * raise() or abort() is raised again.  The process dies of the same
 * signal, with the same status (and core dump) as without ipp.  Every
 * thread that records gets an alternate signal stack (unless it has one),
 * so that a stack overflow can be handled.
 *
 * Async-signal-safety: what runs here uses system calls (open, read,
 * write, fcntl, rename, mmap, nanosleep, clock_gettime, getrandom), the
 * write's mmap'd arena and the crash reserve instead of malloc, hand
 * formatting instead of stdio, strerrordesc_np (a table) instead of
 * strerror, the environment as read at initialisation instead of getenv,
 * and trylock instead of lock on the runtime's mutexes.  Beyond POSIX's
 * list it calls pthread_mutex_trylock/unlock and mkostemps, which in glibc
 * take no lock and allocate nothing.
 *
 * Copyright (c) 2026 the ipp authors.
 * SPDX-License-Identifier: MIT (see runtime/LICENSE)
 *
 * Permission is hereby granted, free of charge, to any person obtaining a
 * copy of this software and associated documentation files (the "Software"),
 * to deal in the Software without restriction, including without limitation
 * the rights to use, copy, modify, merge, publish, distribute, sublicense,
 * and/or sell copies of the Software, and to permit persons to whom the
 * Software is furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in
 * all copies or substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 * IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 * FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT.  IN NO EVENT SHALL THE
 * AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 * LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING
 * FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS
 * IN THE SOFTWARE.
 */
#include "rt_internal.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

bool rt_signals_on;

static const int rt_sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
#define RT_NSIGS (sizeof(rt_sigs) / sizeof(rt_sigs[0]))
static struct sigaction rt_old[RT_NSIGS];
/* 0: no crash; 1: a thread is writing; 2: done. */
static volatile int rt_crashing;
static pthread_key_t rt_altstack_key;
static bool rt_altstack_key_made;

#define RT_ALTSTACK_SIZE (64u * 1024u)

static RT_NOINST void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* How far below the innermost frame a fault counts as a stack overflow in
 * a call it made: more than any one stack frame of the callee's prologue. */
#define RT_OVERFLOW_REACH ((uintptr_t)1 << 20)

/* The call site c of module m whose callee has no frame (ipp_abi.h,
 * struct ipp_rt_callee), or NULL. */
static RT_NOINST const struct ipp_rt_callee *frameless_callee(const struct ipp_rt_module *m,
							       int32_t c)
{
	struct ipp_rt_module mc;
	uint32_t lo = 0, hi;
	if (!m || !rt_safe_read(&mc, m, sizeof(mc)) || !mc.callees)
		return NULL;
	hi = mc.ncallees;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		struct ipp_rt_callee e;
		if (!rt_safe_read(&e, &mc.callees[mid], sizeof(e)))
			return NULL;
		if (e.call == c)
			return &mc.callees[mid];
		if (e.call < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The module of frame g's group: its fresh frame's region's. */
static RT_NOINST const struct ipp_rt_module *group_module(const struct ipp_rt_frame *g)
{
	struct ipp_rt_frame copy;
	struct ipp_rt_region rc;
	uint32_t steps = 0;
	while (rt_safe_read(&copy, g, sizeof(copy)) && (copy.flags & IPP_FRAME_CONTINUES) &&
	       copy.prev && copy.prev != g && steps++ < RT_MAX_FRAMES)
		g = copy.prev;
	if (!rt_safe_read(&copy, g, sizeof(copy)) || (copy.flags & IPP_FRAME_CONTINUES) ||
	    !copy.region || !rt_safe_read(&rc, copy.region, sizeof(rc)))
		return NULL;
	return rc.module;
}

/* The innermost frame 'top' stands at a call (an unmarked checkpoint:
 * docs/PROTOCOL.md) and the program died, or an exception left, inside
 * that call.  If the callee is an instrumented function of the unit that
 * has no frame (the module's callees table), it began: its activation is
 * recorded too, stopped at its entry -- as a continuation of the caller's
 * group (a frame `cont` standing at the callee's Entry vertex above the
 * caller's, returned for the walk to start from), or, if the callee
 * started a fresh path, as a path of its own region (recorded here).  The
 * callee recorded nothing before (a callee that records before a call
 * that never returns marks the caller's checkpoint: __ipp_callee_recorded),
 * so nothing is counted twice.  Otherwise (uninstrumented code, or a
 * checkpoint not at a call) the call stands as made.  Returns the frame
 * the walk starts from. */
RT_HIDDEN struct ipp_rt_frame *rt_callee_fixup(struct ipp_rt_frame *top, struct ipp_rt_frame *cont)
{
	struct ipp_rt_frame copy;
	const struct ipp_rt_callee *ce;
	struct ipp_rt_callee e;
	if (!top || !rt_safe_read(&copy, top, sizeof(copy)) || copy.vertex <= 0 ||
	    (copy.vertex & IPP_VERTEX_INSIDE))
		return top;
	/* a bare call (ipp_abi.h, IPP_VERTEX_RESTART) is its vertex id */
	ce = frameless_callee(group_module(top), IPP_VERTEX_ID(copy.vertex));
	if (!ce || !rt_safe_read(&e, ce, sizeof(e)))
		return top;
	if (!e.fresh && (copy.vertex & IPP_VERTEX_RESTART))
		return top;	/* never: bare calls are intra mode's, whose callees start fresh */
	if (!e.fresh) {
		cont->prev = top;
		cont->region = NULL;
		cont->path = copy.path;
		cont->vertex = e.entry | IPP_VERTEX_INSIDE;
		cont->flags = IPP_FRAME_CONTINUES;
		return cont;
	} else {
		struct ipp_rt_frame alone = { .region = e.fresh,
					      .vertex = e.entry | IPP_VERTEX_INSIDE };
		rt_record_pending(&alone, NULL, RT_WALK_ALL);
		return top;
	}
}

/* A fatal signal: the innermost frame stands at a call, in code with no
 * frame of its own.  A SIGSEGV just below the frame is a stack overflow in
 * the callee's prologue (or in uninstrumented code it runs): an
 * instrumented callee has not begun, and the caller's path stops at the
 * vertex before the call, c - 1, with the same number, so that the
 * profile shows no call whose callee never ran.  Otherwise the callee
 * began (rt_callee_fixup).  Returns the frame the walk starts from. */
static RT_NOINST struct ipp_rt_frame *call_fixup(int sig, const siginfo_t *si,
						  struct ipp_rt_frame *cont)
{
	struct ipp_rt_frame *top = __ipp_top, copy;
	uintptr_t a, f = (uintptr_t)top;
	if (!top || !rt_safe_read(&copy, top, sizeof(copy)) || copy.vertex <= 0 ||
	    (copy.vertex & IPP_VERTEX_INSIDE))
		return top;
	a = si ? (uintptr_t)si->si_addr : 0;
	if (sig == SIGSEGV && si && si->si_code > 0 && a < f && f - a < RT_OVERFLOW_REACH) {
		/* a bare call stays bare: its table has c - 1 (ipp_abi.h) */
		top->vertex = (copy.vertex - 1) | IPP_VERTEX_INSIDE;
		return top;
	}
	return rt_callee_fixup(top, cont);
}

static RT_NOINST void rt_crash(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;
	unsigned k;
	(void)uc;

	if (__atomic_exchange_n(&rt_crashing, 1, __ATOMIC_ACQ_REL) == 0) {
		rt_tls_crash = 1;
		if (rt_tls_in_dump) {
			rt_msg("warning: fatal signal while writing the profile; not written",
			       (const char *)NULL);
		} else {
			int tries = 0;
			struct ipp_rt_frame cont;
			rt_slots_link();
			rt_record_pending(call_fixup(sig, si, &cont), NULL, RT_WALK_ALL);
			/* Another thread may be in ipp_dump(): wait a little. */
			while (pthread_mutex_trylock(&rt_dump_lock) != 0 && ++tries < 2000)
				pause_ms(1);
			if (tries < 2000) {
				rt_tls_in_dump = 1;
				rt_write_profile(RT_WRITE_CRASH);
				rt_tls_in_dump = 0;
				pthread_mutex_unlock(&rt_dump_lock);
			} else {
				rt_msg("warning: fatal signal: the profile is busy in another thread; "
				       "not written", (const char *)NULL);
			}
		}
		__atomic_store_n(&rt_crashing, 2, __ATOMIC_RELEASE);
	} else {
		/* Another thread crashed first and is writing: let it finish
		 * (its signal then ends the process). */
		for (int i = 0; i < 10000 && __atomic_load_n(&rt_crashing, __ATOMIC_ACQUIRE) != 2;
		     i++)
			pause_ms(1);
	}

	for (k = 0; k < RT_NSIGS && rt_sigs[k] != sig; k++)
		;
	if (k < RT_NSIGS)
		sigaction(sig, &rt_old[k], NULL);
	else
		signal(sig, SIG_DFL);
	/* A fault (si_code > 0) recurs when the instruction re-executes; a
	 * signal from kill(), raise() or abort() must be sent again.  It is
	 * blocked until we return, then delivered with the old disposition. */
	if (!si || si->si_code <= 0)
		raise(sig);
	errno = saved;
}

static RT_NOINST void rt_altstack_free(void *p)
{
	struct rt_thread *t = p;
	stack_t ss, cur;
	memset(&ss, 0, sizeof(ss));
	ss.ss_flags = SS_DISABLE;
	if (sigaltstack(NULL, &cur) == 0 && cur.ss_sp == t->altstack && sigaltstack(&ss, NULL) == 0) {
		rt_unmap(t->altstack, t->altstack_size);
		t->altstack = NULL;
	}
}

RT_HIDDEN void rt_signals_thread(struct rt_thread *t)
{
	stack_t cur, ss;
	if (sigaltstack(NULL, &cur) < 0 || !(cur.ss_flags & SS_DISABLE))
		return;		/* the program has its own */
	ss.ss_sp = rt_map(RT_ALTSTACK_SIZE);
	if (!ss.ss_sp)
		return;
	ss.ss_size = RT_ALTSTACK_SIZE;
	ss.ss_flags = 0;
	if (sigaltstack(&ss, NULL) < 0) {
		rt_unmap(ss.ss_sp, RT_ALTSTACK_SIZE);
		return;
	}
	t->altstack = ss.ss_sp;
	t->altstack_size = RT_ALTSTACK_SIZE;
	pthread_setspecific(rt_altstack_key, t);
}

/* Our handler is installed for rt_sigs[k]. */
static bool rt_ours[RT_NSIGS];

RT_HIDDEN void rt_signals_init(bool early)
{
	struct sigaction sa;
	rt_env_init();
	if (rt_env.signals == 0 || rt_env.secure)
		return;
	/* Later: only IPP_SIGNALS=1 takes over a handler the program
	 * installed meanwhile (and calls it after ours). */
	if (!early && rt_env.signals != 1)
		return;
	if (!rt_altstack_key_made) {
		if (pthread_key_create(&rt_altstack_key, rt_altstack_free) != 0)
			return;
		rt_altstack_key_made = true;
		/* The partial records and thread state the handler may need. */
		rt_crash_reserve(1u << 20);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = rt_crash;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (unsigned k = 0; k < RT_NSIGS; k++)
		sigaddset(&sa.sa_mask, rt_sigs[k]);
	for (unsigned k = 0; k < RT_NSIGS; k++) {
		struct sigaction cur;
		if (sigaction(rt_sigs[k], NULL, &cur) < 0)
			continue;
		if ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == rt_crash)
			continue;	/* ours already */
		/* At start-up, a signal the program already handles (or
		 * ignores) is its own: a program that uses SIGSEGV on purpose
		 * (guard pages, a collector's write barrier) must not find a
		 * profile written and its frames recorded as abandoned at
		 * every fault. */
		if (early && rt_env.signals < 0 &&
		    ((cur.sa_flags & SA_SIGINFO) || cur.sa_handler != SIG_DFL))
			continue;
		rt_old[k] = cur;
		if (sigaction(rt_sigs[k], &sa, NULL) == 0)
			rt_ours[k] = true;
	}
	for (unsigned k = 0; k < RT_NSIGS; k++)
		if (rt_ours[k])
			rt_signals_on = true;
	if (rt_signals_on)
		rt_thread_hook = rt_signals_thread;
}

/* The activation of fresh region r has recorded its path before a call
 * that never returns (ipp_abi.h).  The innermost frame stands at call c
 * (vertex > 0, unmarked): if c enters r fresh, r's activation is c's
 * callee, and the mark keeps a walk from recording its entry a second
 * time.  If not, r was entered some other way while c's callee ran: a
 * signal handler interrupted it (testsuite/runtime/ends/handler_exit.c),
 * and the callee's entry is still to be recorded. */
RT_API void __ipp_callee_recorded_in(const struct ipp_rt_region *r)
{
	struct ipp_rt_frame *top;
	const struct ipp_rt_callee *ce;
	rt_slots_link();	/* the caller may be a copy's slot */
	top = __ipp_top;
	if (top && top->vertex > 0 && !(top->vertex & IPP_VERTEX_INSIDE) &&
	    (ce = frameless_callee(group_module(top), IPP_VERTEX_ID(top->vertex))) != NULL &&
	    ce->fresh == r)
		top->vertex |= IPP_VERTEX_INSIDE;
	rt_slots_unlink();
}

RT_API void __ipp_callee_recorded(void)
{
	struct ipp_rt_frame *top;
	rt_slots_link();	/* the caller may be a copy's slot */
	top = __ipp_top;
	if (top && top->vertex > 0)
		top->vertex |= IPP_VERTEX_INSIDE;
	rt_slots_unlink();
}
