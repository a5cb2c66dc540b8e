/* rt_arcs.c -- the exact dynamic call graph of indirect calls
 * (docs/PROTOCOL.md, rule 7): counters of arcs (caller's unit, call
 * vertex, callee's Entry region), one per arc and thread.
 *
 * Before an indirect call, context-mode code stores the call vertex in its
 * frame (as before every call) and the function pointer in __ipp_itgt.
 * If the callee is instrumented in context mode, its fresh entry finds its
 * own address there and calls __ipp_icall with the previous top frame,
 * which is the caller's: that frame's vertex is the call vertex (G* vertex
 * ids are unique within a unit) and its region is one of the caller's
 * unit (a fresh frame's is set at entry; a continuing frame sets its
 * path's region before each indirect call, ABI version 5, so the caller's
 * unit is one load away rather than a walk to the group's fresh frame:
 * 3.9M fewer instructions for SQLite's 360k indirect calls).  Calls to
 * uninstrumented functions
 * are not counted (the target never equals an instrumented function's
 * address).
 *
 * Ownership is that of partial paths (rt_internal.h): the arcs of a thread
 * are struct rt_arc records on a list that dumpers read (published with a
 * release store, never moved or freed), found by the owner through an
 * owner-only index.  Only the owner writes `count`; dumpers move `base`.
 * The index is replaced as a whole when it grows, so a signal handler that
 * counts while the owner is between two stores sees a consistent index; a
 * handler that would have to *insert* while the owner is inside a slow path
 * (rt_tls_busy) is dropped, as in __ipp_record.
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

/* The arc's key, for rt_htab_index (Fibonacci hashing spreads every bit
 * of it into the top bits that index). */
static inline RT_NOINST uint64_t arc_key(const struct ipp_rt_module *caller, int32_t site,
					 const struct ipp_rt_region *callee)
{
	return ((uintptr_t)callee ^ (uintptr_t)caller) + ((uint64_t)(uint32_t)site << 40);
}

/* How many slots __ipp_icall's fast path probes before count_slow. */
#define ICALL_PROBES 4

/* What an arc is looked up by. */
struct arc_want {
	const struct ipp_rt_module *m;
	int32_t site;
	const struct ipp_rt_region *callee;
};

static RT_NOINST bool arc_is(const void *obj, const void *want)
{
	const struct rt_arc *a = obj;
	const struct arc_want *w = want;
	return a->a.site == w->site && a->a.caller == w->m && a->a.callee == w->callee;
}

static RT_NOINST uint64_t arc_key_of(const void *obj)
{
	return ((const struct rt_arc *)obj)->key;
}

/* The arc's record in idx, or NULL; *slot: where it is or would go. */
static RT_NOINST struct rt_arc *find(const struct rt_idx *idx, const struct ipp_rt_module *m,
				     int32_t site, const struct ipp_rt_region *callee, uint64_t key,
				     uint32_t *slot)
{
	struct arc_want w = { m, site, callee };
	*slot = rt_idx_find(idx, key, arc_is, &w);
	return idx->slot[*slot];
}

/* The callee's arc cache (ipp_abi.h, struct ipp_rt_arc) points at a, just
 * counted for a frame whose region is `seen`: seen first, so that the
 * cache never names an arc whose seen is not yet a region of its caller's
 * unit (every value seen takes is one). */
static inline RT_NOINST void cache_set(const struct ipp_rt_arc **cache, struct rt_arc *a,
				       const struct ipp_rt_region *seen)
{
	a->a.seen = seen;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (cache)
		*cache = &a->a;
}

/* The first occurrence of an arc in this thread (or a thread's first
 * arc): registers both units, makes the record.  Needs rt_tls_busy. */
static RT_NOINST void insert(struct ipp_rt_module *m, int32_t site,
			     struct ipp_rt_region *callee, uint64_t key,
			     const struct ipp_rt_region *seen, const struct ipp_rt_arc **cache)
{
	struct rt_thread *t;
	struct rt_idx *idx;
	struct rt_arc *a;
	uint32_t i;

	if (!m || !callee->module || m->abi_version != IPP_ABI_VERSION ||
	    callee->module->abi_version != IPP_ABI_VERSION)
		return;		/* another layout: not ours to read */
	/* The caller's unit must be registered for a dump to file the arc
	 * under it; the callee's, so that its name and checksum are known
	 * valid when the arc is written. */
	__ipp_register(m);
	__ipp_register(callee->module);
	if (!__atomic_load_n(&m->registered, __ATOMIC_ACQUIRE) ||
	    !__atomic_load_n(&callee->module->registered, __ATOMIC_ACQUIRE))
		return;		/* rejected (reported once by registration) */
	t = rt_thread_self();
	if (!t)
		return;
	idx = rt_idx_room(t->arcidx, arc_key_of, NULL);
	if (!idx)
		return;
	if (idx != t->arcidx) {
		/* complete before it is visible to a handler */
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		t->arcidx = idx;
	}
	a = find(idx, m, site, callee, key, &i);
	if (a) {
		/* a handler inserted it after the caller looked */
		a->a.count = rt_sat_add(a->a.count, 1);
		cache_set(cache, a, seen);
		return;
	}
	a = rt_alloc(sizeof(*a));
	if (!a)
		return;
	a->a.caller = m;
	a->a.callee = callee;
	a->a.site = site;
	a->a.seen = seen;
	a->key = key;
	a->a.count = 1;
	a->next = t->arcs;
	__atomic_store_n(&t->arcs, a, __ATOMIC_RELEASE);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	idx->slot[i] = a;
	idx->used++;
	cache_set(cache, a, seen);
}

/* a, found at slot i of idx (beyond the first ICALL_PROBES probes from its
 * home slot), trades places with the first arc of its probe run that has
 * been counted less often, so that the hot arcs of a run come first
 * whatever the addresses their keys are made of (the bench's SQLite build
 * once sent 60k of its 360k indirect calls here, another link of the same
 * objects 217).  Valid for linear probing: every slot from the home slot
 * h to i is taken, and an arc at slot p of that run has its own home at or
 * before p, so moved to i it is still found (the run from its home to i
 * has no hole), and a at p is found from h.  Needs rt_tls_busy: between
 * the two stores the other arc is in no slot, and a handler that looks it
 * up then goes the insert's way and is dropped (as during an insertion). */
static RT_NOINST void promote(struct rt_idx *idx, struct rt_arc *a, uint32_t i, uint64_t key)
{
	uint32_t mask = idx->cap - 1, p = (uint32_t)rt_htab_index(key, idx->shift);
	for (; p != i; p = (p + 1) & mask) {
		struct rt_arc *b = idx->slot[p];
		if (b->a.count < a->a.count) {
			idx->slot[p] = a;
			__atomic_signal_fence(__ATOMIC_SEQ_CST);
			idx->slot[i] = b;
			return;
		}
	}
}

/* Everything but a hit within the first ICALL_PROBES probes: kept out of
 * line, so that the fast path needs no stack frame. */
static __attribute__((noinline)) RT_NOINST void count_slow(struct rt_thread *t,
							   struct ipp_rt_module *m, int32_t site,
							   struct ipp_rt_region *callee,
							   uint64_t key,
							   const struct ipp_rt_region *seen,
							   const struct ipp_rt_arc **cache)
{
	if (t && t->arcidx) {
		uint32_t i;
		struct rt_arc *a = find(t->arcidx, m, site, callee, key, &i);
		if (a) {
			a->a.count = rt_sat_add(a->a.count, 1);
			cache_set(cache, a, seen);
			if (!rt_tls_busy && !t->in_partial) {
				rt_tls_busy = 1;
				__atomic_signal_fence(__ATOMIC_SEQ_CST);
				promote(t->arcidx, a, i, key);
				__atomic_signal_fence(__ATOMIC_SEQ_CST);
				rt_tls_busy = 0;
			}
			return;
		}
	}
	if (rt_tls_busy || (t && t->in_partial))
		return;		/* a handler interrupted a slow path: dropped */
	rt_tls_busy = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	insert(m, site, callee, key, seen, cache);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	rt_tls_busy = 0;
}

/* The callee's inline check of its cache missed (ipp_abi.h, struct
 * ipp_rt_arc): a new arc, a known one not last counted there, or the same
 * arc for a frame of another region of the caller's unit. */
RT_API void __ipp_icall(const struct ipp_rt_frame *caller, struct ipp_rt_region *callee,
			const struct ipp_rt_arc **cache)
{
	struct rt_thread *t = rt_tls_self;
	struct ipp_rt_module *m;
	int32_t site;
	uint64_t key;

	RT_STAT(icall);
	/* A function pointer called from the thread's first frame (the
	 * caller is uninstrumented), or by a dead-end call (vertex -1, the
	 * path recorded before the call): no site to credit. */
	if (!caller || caller->vertex < 0)
		return;
	/* The caller's unit: the module of the region its frame holds at an
	 * indirect call (ipp_abi.h, struct ipp_rt_frame).  The frame is live
	 * and the caller's own here: we are called from the callee's entry,
	 * on the caller's thread, and a signal handler that ran between the
	 * caller's stores and its call pushed and popped frames of its own. */
	if (!caller->region)
		return;
	m = caller->region->module;
	site = caller->vertex & ~IPP_VERTEX_INSIDE;	/* (a cut call vertex is marked) */
	key = arc_key(m, site, callee);
	if (RT_LIKELY(t != NULL)) {
		const struct rt_idx *idx = t->arcidx;
		if (RT_LIKELY(idx != NULL)) {
			/* The first ICALL_PROBES probes of rt_idx_find, inline: at
			 * the index's load of up to 1/2, one probe missed 19% of
			 * SQLite's 360k indirect calls into count_slow (112
			 * instructions each). */
			uint32_t mask = idx->cap - 1, i = (uint32_t)rt_htab_index(key, idx->shift);
			for (int p = 0; p < ICALL_PROBES; p++, i = (i + 1) & mask) {
				struct rt_arc *a = idx->slot[i];
				if (!a)
					break;	/* not in the index: count_slow inserts */
				if (a->a.site == site && a->a.caller == m && a->a.callee == callee) {
					a->a.count = rt_sat_add(a->a.count, 1);
					cache_set(cache, a, caller->region);
					RT_STAT(icall_hit);
					return;
				}
			}
		}
	}
	RT_STAT(icall_slow);
	count_slow(t, m, site, callee, key, caller->region, cache);
}
