/* rt_last.c -- the flight recorder: each thread's last completed paths.
 *
 * A program built with -fplugin-arg-ipp-last records every path through
 * __ipp_record_last (no inline counters, no rows), which counts it as
 * __ipp_record does and also keeps (region, number) in the thread's ring
 * of its last IPP_LAST paths (default 64, rounded up to a power of two,
 * at most 2^20; 0: off).  Builds without the option never call it and pay
 * nothing.  At the final writes -- exit and a fatal signal (IPP_SIGNALS) --
 * rt_last_write (rt_emit.c) writes every thread's ring, oldest first, to
 * P.last next to the profile P, which `ipp report --last` decodes: what ran just
 * before the crash, across calls (docs/RUNTIME.md, "Flight recorder").
 *
 * The file (text, one record per line, tab-separated; module last because
 * it is a path name):
 *
 *     ipp-last 1
 *     thread N [current]
 *     NUMBER CHECKSUM REGION MODULE
 *
 * "current" marks the thread that wrote (the one that crashed, or called
 * exit).  A ring belongs to its thread; the writer reads the others' while
 * they may still run, so their newest entry may be torn: an entry whose
 * number is not below its region's npaths is left out, and so is one whose
 * region can no longer be read (a dlclose'd library's).
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

/* Allocates t's ring (rt_env.last entries).  False if off or no memory. */
static RT_NOINST bool ring_new(struct rt_thread *t)
{
	struct rt_last *ring;
	if (!rt_env.last || rt_tls_busy)
		return false;
	ring = rt_alloc(rt_env.last * sizeof(*ring));
	if (!ring)
		return false;
	t->last_mask = rt_env.last - 1;
	__atomic_store_n(&t->last, ring, __ATOMIC_RELEASE);
	return true;
}

RT_API void __ipp_record_last(struct ipp_rt_region *r, uint64_t n)
{
	struct rt_thread *t;
	struct rt_last *e;
	__ipp_record(r, n);	/* registers, creates the thread state */
	t = rt_tls_self;
	if (RT_UNLIKELY(!t || !t->last) && (!t || !ring_new(t)))
		return;
	e = &t->last[t->last_next & t->last_mask];
	e->region = r;
	e->num = n;
	/* a handler that interrupts us sees the entry complete or not yet
	 * counted */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&t->last_next, t->last_next + 1, __ATOMIC_RELEASE);
}
