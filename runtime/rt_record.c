/* rt_record.c -- the fast path of __ipp_record, alone in its file so that
 * nothing of the slow path can be inlined into it.
 *
 * For a region counted in an array (npaths <= RT_ARRAY_MAX) the work is:
 * load the region's index, two thread-local loads (the slot vector and its
 * size), a bounds check on the index, a bounds check on the path number,
 * and a saturating increment -- no lock, no atomic read-modify-write: each
 * thread counts in its own tables (rt_state.c).  Everything else (the
 * first record of a region or of a thread, hash regions, bad numbers) goes
 * to rt_record_slow().
 *
 * Invariant relied on: rt_tls_slots[i].limit is 0 unless counts[] has
 * limit entries, and slot 0 (index 0 = "not registered yet") always has
 * limit 0, so an unregistered region can never pass the test.
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

RT_API void __ipp_record(struct ipp_rt_region *r, uint64_t n)
{
	/* A relaxed load compiles to a plain load; it only keeps the
	 * registration's concurrent store from being a data race. */
	uint32_t i = __atomic_load_n(&r->index, __ATOMIC_RELAXED);
	if (RT_LIKELY(i < rt_tls_nslots)) {
		struct rt_slot *s = &rt_tls_slots[i];
		if (RT_LIKELY(n < s->limit)) {
			uint64_t *c = &s->counts[n];
			uint64_t v;
			/* Saturate at UINT64_MAX, never wrap. */
			if (__builtin_add_overflow(*c, 1, &v))
				v = UINT64_MAX;
			*c = v;
			return;
		}
	}
	rt_record_slow(r, n);
}
