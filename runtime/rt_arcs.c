/* rt_arcs.c -- the exact dynamic call graph of indirect calls
 * (docs/PROTOCOL.md, rule 7): counters of arcs (caller's unit, call
 * vertex, target address), one per arc and thread, and the writer's map
 * from a target address to the function's Entry region.
 *
 * Context-mode code counts an indirect call at the call site, before the
 * call: the site's thread-local cache holds the arc it counted last, and
 * a hit (same target) counts inline (ipp_abi.h, struct ipp_rt_arc); a miss
 * calls __ipp_icall here with the unit, the call vertex and the target.
 * The callee is not known then and need not be: the writer maps the
 * target to a region through the entries of the registered modules
 * (rt_entmap), and leaves out arcs to functions no instrumented unit
 * lists (a library's, an intra-mode unit's).  Until ABI version 7 the
 * callee counted the arc at its fresh entry, which cost every fresh
 * activation of a function callable through a pointer a check of a
 * thread-local target (SQLite: 1.58M checks for 360k indirect calls).
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

#include <string.h>

/* The arc's key, for rt_htab_index (Fibonacci hashing spreads every bit
 * of it into the top bits that index). */
static inline RT_NOINST uint64_t arc_key(const struct ipp_rt_module *caller, int32_t site,
					 const void *target)
{
	return ((uintptr_t)target ^ (uintptr_t)caller) + ((uint64_t)(uint32_t)site << 40);
}

/* How many slots __ipp_icall's fast path probes before count_slow. */
#define ICALL_PROBES 4

/* What an arc is looked up by. */
struct arc_want {
	const struct ipp_rt_module *m;
	int32_t site;
	const void *target;
};

static RT_NOINST bool arc_is(const void *obj, const void *want)
{
	const struct rt_arc *a = obj;
	const struct arc_want *w = want;
	return a->a.site == w->site && a->a.caller == w->m && a->a.target == w->target;
}

static RT_NOINST uint64_t arc_key_of(const void *obj)
{
	return ((const struct rt_arc *)obj)->key;
}

/* The arc's record in idx, or NULL; *slot: where it is or would go. */
static RT_NOINST struct rt_arc *find(const struct rt_idx *idx, const struct ipp_rt_module *m,
				     int32_t site, const void *target, uint64_t key,
				     uint32_t *slot)
{
	struct arc_want w = { m, site, target };
	*slot = rt_idx_find(idx, key, arc_is, &w);
	return idx->slot[*slot];
}

/* The site's two-way cache (ipp_abi.h, struct ipp_rt_arc) takes a, just
 * counted, as its first entry; the first moves to the second.  A handler
 * that runs between the stores finds the old first arc in both entries:
 * an arc of this site either way. */
static inline RT_NOINST void cache_set(const struct ipp_rt_arc **cache, struct rt_arc *a)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (cache && cache[0] != &a->a) {
		cache[1] = cache[0];
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		cache[0] = &a->a;
	}
}

/* The first occurrence of an arc in this thread (or a thread's first
 * arc): registers the caller's unit, makes the record.  Needs
 * rt_tls_busy. */
static RT_NOINST void insert(struct ipp_rt_module *m, int32_t site, const void *target,
			     uint64_t key, const struct ipp_rt_arc **cache)
{
	struct rt_thread *t;
	struct rt_idx *idx;
	struct rt_arc *a;
	uint32_t i;

	if (!m || m->abi_version != IPP_ABI_VERSION)
		return;		/* another layout: not ours to read */
	/* The caller's unit must be registered for a dump to file the arc
	 * under it. */
	__ipp_register(m);
	if (!__atomic_load_n(&m->registered, __ATOMIC_ACQUIRE))
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
	a = find(idx, m, site, target, key, &i);
	if (a) {
		/* a handler inserted it after the caller looked */
		a->a.count = rt_sat_add(a->a.count, 1);
		cache_set(cache, a);
		return;
	}
	a = rt_alloc(sizeof(*a));
	if (!a)
		return;
	a->a.caller = m;
	a->a.target = target;
	a->a.site = site;
	a->key = key;
	a->a.count = 1;
	a->next = t->arcs;
	__atomic_store_n(&t->arcs, a, __ATOMIC_RELEASE);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	idx->slot[i] = a;
	idx->used++;
	cache_set(cache, a);
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
							   const void *target, uint64_t key,
							   const struct ipp_rt_arc **cache)
{
	if (t && t->arcidx) {
		uint32_t i;
		struct rt_arc *a = find(t->arcidx, m, site, target, key, &i);
		if (a) {
			a->a.count = rt_sat_add(a->a.count, 1);
			cache_set(cache, a);
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
	insert(m, site, target, key, cache);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	rt_tls_busy = 0;
}

/* The site's inline check of its cache missed (ipp_abi.h, struct
 * ipp_rt_arc): a new arc, or a known one the cache does not hold (the site
 * called another target since). */
RT_API void __ipp_icall(struct ipp_rt_module *m, int32_t site, const void *target,
			const struct ipp_rt_arc **cache)
{
	struct rt_thread *t = rt_tls_self;
	uint64_t key;

	RT_STAT(icall);
	if (!m)
		return;
	key = arc_key(m, site, target);
	if (RT_LIKELY(t != NULL)) {
		const struct rt_idx *idx = t->arcidx;
		if (RT_LIKELY(idx != NULL)) {
			/* The first ICALL_PROBES probes of rt_idx_find, inline: at
			 * the index's load of up to 1/2, one probe missed 19% of
			 * SQLite's 360k indirect calls into count_slow (112
			 * instructions each) when every call came here. */
			uint32_t mask = idx->cap - 1, i = (uint32_t)rt_htab_index(key, idx->shift);
			for (int p = 0; p < ICALL_PROBES; p++, i = (i + 1) & mask) {
				struct rt_arc *a = idx->slot[i];
				if (!a)
					break;	/* not in the index: count_slow inserts */
				if (a->a.site == site && a->a.caller == m && a->a.target == target) {
					a->a.count = rt_sat_add(a->a.count, 1);
					cache_set(cache, a);
					RT_STAT(icall_hit);
					return;
				}
			}
		}
	}
	RT_STAT(icall_slow);
	count_slow(t, m, site, target, key, cache);
}

/* ------------------------------------------------------------------ */
/* The writer's map: target address -> Entry region                    */
/* ------------------------------------------------------------------ */

/* Builds the map from the entries of the registered modules mods[0 ..
 * n-1] (registration order), in the write's arena.  Two units can list
 * the same address only when a shared object's function is interposed
 * (another object defines the same symbol, and both take its address
 * through it): the unit registered later wins, which is the one earlier
 * in the dynamic linker's search order for objects loaded at start-up
 * (constructors run dependencies first).  Returns 0, or -1 without
 * memory. */
int rt_entmap_build(struct rt_entmap *em, struct rt_modinfo *const *mods, uint32_t n,
		    struct rt_arena *a)
{
	uint64_t total = 0, cap = 8;

	em->cap = 0;
	em->slot = NULL;
	for (uint32_t i = 0; i < n; i++)
		total += mods[i]->m->nentries;
	if (!total)
		return 0;
	while (cap < 2 * total)
		cap *= 2;
	em->slot = rt_arena_alloc(a, cap * sizeof(*em->slot));
	if (!em->slot)
		return -1;
	memset(em->slot, 0, cap * sizeof(*em->slot));
	em->cap = cap;
	for (uint32_t i = 0; i < n; i++) {
		const struct ipp_rt_module *m = mods[i]->m;
		for (uint32_t k = 0; k < m->nentries; k++) {
			const struct ipp_rt_entry *e = &m->entries[k];
			uint64_t j = rt_hash64((uintptr_t)e->fn) & (cap - 1);
			while (em->slot[j] && em->slot[j]->fn != e->fn)
				j = (j + 1) & (cap - 1);
			em->slot[j] = e;	/* a later unit replaces */
		}
	}
	return 0;
}

const struct ipp_rt_region *rt_entmap_find(const struct rt_entmap *em, const void *fn)
{
	if (!em->cap)
		return NULL;
	for (uint64_t j = rt_hash64((uintptr_t)fn) & (em->cap - 1); em->slot[j];
	     j = (j + 1) & (em->cap - 1))
		if (em->slot[j]->fn == fn)
			return em->slot[j]->region;
	return NULL;
}
