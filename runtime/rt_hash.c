/* rt_hash.c -- the runtime's hash tables, in one file: the tables that
 * count the paths of big regions (npaths > RT_ARRAY_MAX), keyed by path
 * number + 1 (struct ipp_rt_htab), and the index of objects (struct rt_idx,
 * rt_internal.h) that every other lookup of the runtime uses: partial
 * paths, indirect-call arcs, rows, and equal records of a profile write.
 * Both probe linearly from rt_htab_index.
 *
 * The counters' table:
 *
 * Linear probing from rt_htab_index(key1, shift) (Fibonacci hashing: the
 * top log2(cap) bits of key1 * 2^64/phi), power-of-two capacity, doubled
 * before an insertion would pass a load of 1/4 (5/8 from
 * RT_HTAB_SPARSE_CAP entries on).  The fast path of
 * __ipp_record makes the first two probes itself (rt_record.c), so a
 * table must be laid out exactly as rt_htab_index says, and it has one
 * more entry than its capacity, e[cap], always empty: the fast path's
 * second probe e[i + 1] then needs no wrap-around (it misses, and the
 * slow path probes on from e[0]).
 *
 * Growth builds a complete new table and only then publishes it (release
 * store into *hp); the old table is left as it was and never freed, so a
 * dumper that loaded the old pointer reads a consistent (if slightly old)
 * table.  Within a table an entry's key is stored (release) after its
 * count, so a dumper that sees a key (acquire) sees a count that belongs
 * to it.
 *
 * The same tables hold dumpers' baselines (struct rt_table.bhash), where
 * the dumper is the only writer.
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

RT_HIDDEN struct ipp_rt_htab *rt_htab_new(uint64_t cap)
{
	/* e[0 .. cap]: e[cap] is never written (every probe index is
	 * masked to cap - 1), so it stays empty. */
	struct ipp_rt_htab *h = rt_alloc(sizeof(*h) + (cap + 1) * sizeof(h->e[0]));
	if (h) {
		h->cap = cap;
		h->shift = 64 - (uint64_t)__builtin_ctzll(cap);
	}
	return h;
}

RT_HIDDEN struct ipp_rt_hent *rt_htab_find(const struct ipp_rt_htab *h, uint64_t key1)
{
	uint64_t mask, i;
	if (!h)
		return NULL;
	mask = h->cap - 1;
	for (i = rt_htab_index(key1, h->shift);; i = (i + 1) & mask) {
		uint64_t k = __atomic_load_n(&h->e[i].key1, __ATOMIC_ACQUIRE);
		if (k == key1)
			return (struct ipp_rt_hent *)&h->e[i];
		if (!k)
			return NULL;
	}
}

/* Inserts (key1, count) into a table that has room and lacks key1. */
static RT_NOINST struct ipp_rt_hent *put(struct ipp_rt_htab *h, uint64_t key1, uint64_t count)
{
	uint64_t mask = h->cap - 1, i = rt_htab_index(key1, h->shift);
	while (h->e[i].key1)
		i = (i + 1) & mask;
	h->e[i].count = count;
	__atomic_store_n(&h->e[i].key1, key1, __ATOMIC_RELEASE);
	h->used++;
	return &h->e[i];
}

/* Would a table of capacity cap holding n keys be too full?  Most
 * probes of a hot path should hit its first probe, which instrumented
 * code and __ipp_record make inline: a table of fewer than
 * RT_HTAB_SPARSE_CAP entries is kept at most 1/4 full (linear probing
 * then finds a key at its first probe far more often than at 5/8:
 * SQLite's context build, callgrind, -6.6M instructions, 2.7%); a
 * bigger one, where memory counts more, at most 5/8. */
static inline RT_NOINST bool too_full(uint64_t n, uint64_t cap)
{
	return cap < RT_HTAB_SPARSE_CAP ? n * 4 > cap : n * 8 > cap * 5;
}

RT_HIDDEN struct ipp_rt_hent *rt_htab_get(struct ipp_rt_htab **hp, uint64_t key1)
{
	struct ipp_rt_htab *h = *hp;
	struct ipp_rt_hent *e = rt_htab_find(h, key1);
	if (e)
		return e;
	if (too_full(h->used + 1, h->cap)) {
		struct ipp_rt_htab *g = rt_htab_new(h->cap * 2);
		if (!g)
			return NULL;
		for (uint64_t k = 0; k < h->cap; k++)
			if (h->e[k].key1)
				put(g, h->e[k].key1, h->e[k].count);
		__atomic_store_n(hp, g, __ATOMIC_RELEASE);
		h = g;
	}
	return put(h, key1, 0);
}

RT_HIDDEN int rt_htab_reserve(struct ipp_rt_htab **hp, uint64_t extra)
{
	struct ipp_rt_htab *h = *hp, *g;
	uint64_t used = h ? h->used : 0, cap = h ? h->cap : RT_HTAB_INIT_CAP;
	while (too_full(used + extra + 1, cap))
		cap *= 2;
	if (h && cap == h->cap)
		return 0;
	g = rt_htab_new(cap);
	if (!g)
		return -1;
	for (uint64_t k = 0; h && k < h->cap; k++)
		if (h->e[k].key1)
			put(g, h->e[k].key1, h->e[k].count);
	__atomic_store_n(hp, g, __ATOMIC_RELEASE);
	return 0;
}

/* ------------------------------------------------------------------ */
/* The index of objects (struct rt_idx)                                 */
/* ------------------------------------------------------------------ */

static RT_NOINST struct rt_idx *idx_alloc(uint32_t cap, struct rt_arena *a)
{
	size_t bytes = sizeof(struct rt_idx) + (size_t)cap * sizeof(void *);
	struct rt_idx *x = a ? rt_arena_alloc(a, bytes) : rt_alloc(bytes);	/* zeroed */
	if (x) {
		x->cap = cap;
		x->shift = 64 - (uint32_t)__builtin_ctz(cap);
	}
	return x;
}

RT_HIDDEN uint32_t rt_idx_find(const struct rt_idx *x, uint64_t key,
			       bool (*is)(const void *obj, const void *want), const void *want)
{
	uint32_t mask = x->cap - 1, i = (uint32_t)rt_htab_index(key, x->shift);
	while (x->slot[i] && !is(x->slot[i], want))
		i = (i + 1) & mask;
	return i;
}

RT_HIDDEN struct rt_idx *rt_idx_room(struct rt_idx *x, uint64_t (*key_of)(const void *obj),
				     struct rt_arena *a)
{
	struct rt_idx *g;
	if (x && (x->used + 1) * 2 <= x->cap)
		return x;
	if (x && x->cap >= (1u << 31))
		return NULL;
	g = idx_alloc(x ? 2 * x->cap : 64, a);
	if (!g)
		return NULL;
	for (uint32_t i = 0; x && i < x->cap; i++) {
		void *o = x->slot[i];
		if (o) {
			uint32_t k = (uint32_t)rt_htab_index(key_of(o), g->shift);
			while (g->slot[k])
				k = (k + 1) & (g->cap - 1);
			g->slot[k] = o;
			g->used++;
		}
	}
	return g;
}

RT_HIDDEN struct rt_idx *rt_idx_new(uint64_t n, struct rt_arena *a)
{
	uint64_t cap = 64;
	while (cap < 2 * n + 2)
		cap *= 2;
	return cap > (1ull << 31) ? NULL : idx_alloc((uint32_t)cap, a);
}
