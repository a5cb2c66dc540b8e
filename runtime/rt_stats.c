/* rt_stats.c -- the counters of the runtime's statistics build
 * (rt_stats.h): their storage, the exit-time write timer, and the file
 * they are written to.  Compiled into libipprt-stats.a only (with
 * -DIPP_RT_STATS); in libipprt.a this file is not built.
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
#include "rt_stats.h"

#ifdef IPP_RT_STATS
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/single_threaded.h>
#include <unistd.h>

uint64_t rt_stat_count[RT_STAT_COUNT];

/* Instrumented code takes an array body's counts inline while glibc says
 * the process is single-threaded, and through __ipp_counts otherwise
 * (ipp_abi.h): only the calls are the runtime's to count.  So that every
 * array activation is a call the derivation of `counts_calls` can be
 * checked against (testsuite/programs/events.sh, bench/run.sh), a
 * statistics run says it may be multi-threaded from the start: glibc only
 * ever clears the flag, and clearing it early only takes its slower,
 * always-correct paths (stdio locks, ...). */
__attribute__((constructor(101))) static void rt_stat_all_counts_calls(void)
{
	const char *file = getenv("IPP_RT_STATS");
	if (file && *file)
		__libc_single_threaded = 0;
}

static uint64_t timer_start, cpu_start;	/* exit path: one thread */

/* Wall time (CLOCK_MONOTONIC), or this thread's CPU time, which a loaded
 * machine does not inflate. */
static RT_NOINST uint64_t now_ns(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

RT_HIDDEN void rt_stat_timer(int stop)
{
	if (!stop) {
		timer_start = now_ns(CLOCK_MONOTONIC);
		cpu_start = now_ns(CLOCK_THREAD_CPUTIME_ID);
		return;
	}
	rt_stat_count[RT_STAT_writes]++;
	rt_stat_count[RT_STAT_write_ns] += now_ns(CLOCK_MONOTONIC) - timer_start;
	rt_stat_count[RT_STAT_write_cpu_ns] += now_ns(CLOCK_THREAD_CPUTIME_ID) - cpu_start;
}

RT_HIDDEN void rt_stat_write(void)
{
#define RT_STAT_NAME(name, what) #name,
	static const char *const names[RT_STAT_COUNT] = { RT_STATS_LIST(RT_STAT_NAME) };
#undef RT_STAT_NAME
	const char *file = getenv("IPP_RT_STATS");
	char line[128];
	int fd;
	if (!file || !*file)
		return;
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		rt_msg("cannot write the statistics to ", file, (const char *)NULL);
		return;
	}
	for (int i = 0; i < RT_STAT_COUNT; i++) {
		int n = snprintf(line, sizeof(line), "%s %" PRIu64 "\n", names[i],
				 __atomic_load_n(&rt_stat_count[i], __ATOMIC_RELAXED));
		if (write(fd, line, (size_t)n) != n)
			rt_msg("cannot write the statistics to ", file, (const char *)NULL);
	}
	close(fd);
}
#endif
