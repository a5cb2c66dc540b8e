/* rt_signal.c -- the profile at a fatal signal (opt-in: IPP_SIGNALS=1).
 *
 * With IPP_SIGNALS=1 in the environment at start-up, the runtime installs
 * handlers for SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT.  The handler
 * records the crashing thread's pending frames as partial paths, writes
 * the profile (rt_write.c: system calls, mmap'd memory and hand formatting
 * only), then restores the disposition that was there before (usually
 * SIG_DFL) and lets the signal take its course: a fault re-executes the
 * faulting instruction, a signal sent by kill() or abort() is raised
 * again.  The process dies of the same signal, with the same status (and
 * core dump) as without ipp.
 *
 * Opt-in, because installing handlers changes the program: its own
 * handlers for these signals (installed later) replace ours; code that
 * expects the default disposition (sigaction queries, debuggers, crash
 * reporters) sees a handler; every thread gets an alternate signal stack
 * (so that a stack overflow can be handled), which a program that manages
 * its own sigaltstack may not expect; and writing a profile after memory
 * corruption can itself fail.  Without it a crashing program writes no
 * profile (exactly as with gcov); call ipp_dump() where you can.
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

#define RT_ALTSTACK_SIZE (64u * 1024u)

static RT_NOINST void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
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
			rt_record_pending(__ipp_top, NULL, RT_WALK_ALL);
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

RT_HIDDEN void rt_signals_init(void)
{
	struct sigaction sa;
	rt_env_init();
	if (!rt_env.signals)
		return;
	if (pthread_key_create(&rt_altstack_key, rt_altstack_free) != 0)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = rt_crash;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (unsigned k = 0; k < RT_NSIGS; k++)
		sigaddset(&sa.sa_mask, rt_sigs[k]);
	/* The partial records and thread state the handler may need. */
	rt_crash_reserve(1u << 20);
	for (unsigned k = 0; k < RT_NSIGS; k++)
		sigaction(rt_sigs[k], &sa, &rt_old[k]);
	rt_signals_on = true;
}
