/* rt_stats.h -- event counters of the runtime's statistics build, for
 * bench/ only (bench/README, "The per-event table").
 *
 * The bench links each ipp variant a second time with libipprt-stats.a:
 * the same sources compiled with -DIPP_RT_STATS.  There, RT_STAT(name)
 * adds one to the counter 'name' (a relaxed atomic add), the write timer
 * measures the wall time of the exit-time profile writes, and
 * RT_STAT_WRITE() (the last thing rt_fini does) writes every counter, one
 * "name value" line each, to the file named by the environment variable
 * IPP_RT_STATS (nothing if it is unset).  Only the runtime knows some of
 * these events (which probe of the hash table hit); the others let the
 * bench check its counts derived from the profile (ipp counts --events)
 * against the runtime's own.
 *
 * In the normal build (no IPP_RT_STATS) every macro expands to nothing, so
 * libipprt.a's code is byte for byte what it is without them: hot-path
 * files use the macros only as whole statements of one line, and nothing
 * else of this header exists there.
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
#ifndef IPP_RT_STATS_H
#define IPP_RT_STATS_H

#ifdef IPP_RT_STATS
#include <stdint.h>

/* The counters: X(name, what it counts). */
#define RT_STATS_LIST(X)                                                        \
	X(record_array, "__ipp_record: counted in an array region")           \
	X(record_probe1, "__ipp_record: hash region, hit at the first probe")  \
	X(record_probe2, "__ipp_record: hash region, hit at the second probe") \
	X(record_slow, "__ipp_record: went to rt_record_slow")                 \
	X(slow_probe, "rt_record_slow: hit further along the probe sequence")  \
	X(counts, "__ipp_counts calls")                                        \
	X(counts_slow, "__ipp_counts: went to rt_counts_slow")                 \
	X(hmiss, "__ipp_hmiss calls (inline probes that missed)")              \
	X(hmiss_publish, "__ipp_hmiss: published the table in the unit's slot") \
	X(row, "__ipp_row calls")                                              \
	X(row_found, "__ipp_row: the row was in the thread's index")           \
	X(row_inserted, "__ipp_row: a new row")                                \
	X(row_none, "__ipp_row: no row (budget, busy, in a partial path)")     \
	X(row_number, "__ipp_row: a path from a return site (idx >= n)")       \
	X(row_record, "__ipp_row: passed to __ipp_record (idx >= n or no row)") \
	X(icall, "__ipp_icall calls")                                          \
	X(icall_hit, "__ipp_icall: arc counted within the first probes")      \
	X(icall_slow, "__ipp_icall: arc counted by count_slow")                \
	X(writes, "exit-time profile writes (rt_write_profile calls)")         \
	X(write_ns, "their wall time, nanoseconds")                            \
	X(write_cpu_ns, "their CPU time (the writing thread's), nanoseconds")

#define RT_STAT_ID(name, what) RT_STAT_##name,
enum rt_stat_id { RT_STATS_LIST(RT_STAT_ID) RT_STAT_COUNT };
#undef RT_STAT_ID

extern uint64_t rt_stat_count[RT_STAT_COUNT] __attribute__((visibility("hidden")));

#define RT_STAT(name) __atomic_fetch_add(&rt_stat_count[RT_STAT_##name], 1, __ATOMIC_RELAXED)
/* Counts 'name' if cond holds (cond is not evaluated in the normal build). */
#define RT_STAT_IF(cond, name) ((cond) ? (void)RT_STAT(name) : (void)0)
/* Around an exit-time write: counts it and adds its wall time. */
#define RT_STAT_WRITE_BEGIN() rt_stat_timer(0)
#define RT_STAT_WRITE_END() rt_stat_timer(1)
/* Writes the counters to $IPP_RT_STATS. */
#define RT_STAT_WRITE() rt_stat_write()

void rt_stat_timer(int stop) __attribute__((visibility("hidden"), no_instrument_function));
void rt_stat_write(void) __attribute__((visibility("hidden"), no_instrument_function));

#else /* the normal build: nothing */

#define RT_STAT(name) ((void)0)
#define RT_STAT_IF(cond, name) ((void)0)
#define RT_STAT_WRITE_BEGIN() ((void)0)
#define RT_STAT_WRITE_END() ((void)0)
#define RT_STAT_WRITE() ((void)0)

#endif
#endif /* IPP_RT_STATS_H */
