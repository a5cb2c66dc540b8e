/* rt_api.c -- the public API (<ipp.h>) and the life cycle of the runtime:
 * initialisation, the end of the process, fork.
 *
 * Initialisation runs once, at the first registration (which is lazy: the
 * first record of any region, possibly before any constructor): the
 * profile name, an atexit handler, fork handlers and, with IPP_SIGNALS=1,
 * fatal-signal handlers.
 *
 * End of the process.  Two hooks, and the file is normally written once:
 *   - the atexit handler records the exiting thread's pending frames as
 *     partial paths (exit() called deep in a call chain) and writes the
 *     profile;
 *   - a destructor of the lowest priority (101: it runs after every other
 *     destructor of the program, and after all atexit handlers) records the
 *     pending frames if the atexit handler did not run, and writes again
 *     only if something was counted since.
 * Because atexit handlers run in reverse order of registration and ours is
 * registered lazily, it may run *before* handlers the program registered
 * earlier; paths those handlers (and destructors) record are picked up by
 * the destructor's write.  Writes only add what was counted since the last
 * one (baselines), so nothing is counted twice.
 *
 * ipp_dump() writes and then keeps counting from zero (like gcov's
 * __gcov_dump + __gcov_reset): a later dump or the final write adds only
 * what was counted since.  ipp_reset() forgets what was counted so far.
 * Neither touches the pending frames: a dump while the program runs does
 * not record paths that are still going to complete.
 *
 * Fork: see rt_state.c (the child starts from zero).
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
#include "ipp.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool rt_exiting;		/* the destructor has started */
pid_t rt_pid;			/* this process's, after every fork() */


/* ------------------------------------------------------------------ */
/* The public API                                                       */
/* ------------------------------------------------------------------ */

RT_API void ipp_dump(void)
{
	rt_dump_lock_acquire();
	rt_write_profile(RT_WRITE_DUMP);
	rt_dump_lock_release();
}

RT_API void ipp_reset(void)
{
	rt_dump_lock_acquire();
	if (rt_reset_baselines() < 0)
		rt_msg("warning: ipp_reset: out of memory; some counts were not reset",
		       (const char *)NULL);
	rt_dump_lock_release();
}

RT_API int ipp_set_profile(const char *path)
{
	int rc;
	rt_dump_lock_acquire();
	if (path) {
		rc = rt_name_set(path);
	} else {
		rt_name_init();
		rc = 0;
	}
	rt_dump_lock_release();
	return rc;
}

/* ------------------------------------------------------------------ */
/* The end of the process                                               */
/* ------------------------------------------------------------------ */

/* The atexit handler's write failed: the destructor does not try again
 * (the same path would fail the same way, and one message is enough). */
static bool rt_final_failed;

static RT_NOINST void rt_atexit(void)
{
	rt_record_exit_frames();
	rt_dump_lock_acquire();
	RT_STAT_WRITE_BEGIN();
	rt_final_failed = rt_write_profile(RT_WRITE_FINAL) < 0;
	RT_STAT_WRITE_END();
	rt_dump_lock_release();
}

__attribute__((destructor(101))) static RT_NOINST void rt_fini(void)
{
	rt_exiting = true;
	rt_record_exit_frames();
	rt_dump_lock_acquire();
	RT_STAT_WRITE_BEGIN();
	if (!rt_final_failed)
		rt_write_profile(RT_WRITE_FINAL);
	RT_STAT_WRITE_END();
	rt_dump_lock_release();
	RT_STAT_WRITE();
}

/* ------------------------------------------------------------------ */
/* Fork                                                                 */
/* ------------------------------------------------------------------ */

static RT_NOINST void rt_fork_prepare(void)
{
	pthread_mutex_lock(&rt_dump_lock);
	pthread_mutex_lock(&rt_lock);
}

static RT_NOINST void rt_fork_parent(void)
{
	pthread_mutex_unlock(&rt_lock);
	pthread_mutex_unlock(&rt_dump_lock);
}

static RT_NOINST void rt_fork_child(void)
{
	uint32_t n = rt_nmods;
	rt_pid = getpid();
	pthread_mutex_unlock(&rt_lock);
	pthread_mutex_unlock(&rt_dump_lock);
	/* The parent writes what it counted before the fork; the child counts
	 * from zero and is a run of its own.  The paths pending here go on in
	 * both: the child notes their prefixes as counted by the parent
	 * (forked prefixes, rt_partial.c). */
	rt_zero_all();
	rt_record_forked();
	for (uint32_t i = 0; i < n; i++)
		rt_mods[i]->run_counted = false;
	rt_run_target[0] = '\0';
}

/* The fork handlers, once: before main (so that rt_pid follows every
 * fork), or at the first registration if the constructor did not run. */
static RT_NOINST void rt_fork_handlers(void)
{
	static bool done;
	if (!done && pthread_atfork(rt_fork_prepare, rt_fork_parent, rt_fork_child) == 0)
		done = true;
}

/* ------------------------------------------------------------------ */
/* Initialisation (rt_lock held, once)                                  */
/* ------------------------------------------------------------------ */

RT_HIDDEN void rt_init_locked(void)
{
	rt_env_init();
	/* Keep a name already chosen: by ipp_set_profile(), or by an
	 * ipp_dump() that ran before the first record (rt_name_expand). */
	if (!rt_pattern_set())
		rt_name_init();
	/* First registered by a fatal-signal handler (a crash before any
	 * record): the process is dying; atexit and pthread_atfork may
	 * allocate and lock, so they are not called. */
	if (rt_tls_crash)
		return;
	if (!rt_exiting && atexit(rt_atexit) != 0)
		rt_msg("warning: atexit failed; the profile is written by the destructor only",
		       (const char *)NULL);
	rt_fork_handlers();
	rt_signals_init(false);
}

/* Before main: the fatal-signal handlers and the main thread's alternate
 * signal stack, because a program may crash before it records any path
 * (a recursion that overflows the stack records nothing).  Priority 101:
 * before the program's own constructors, so a handler one of them
 * installs is the program's choice and replaces ours. */
__attribute__((constructor(101))) static RT_NOINST void rt_start(void)
{
	rt_pid = getpid();
	rt_fork_handlers();
	rt_env_init();
	rt_signals_init(true);
	if (rt_signals_on)
		rt_thread_self();	/* its alternate stack */
}
