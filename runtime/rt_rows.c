/* rt_rows.c -- rows: two-level counting (ipp_abi.h, __ipp_row;
 * docs/NUMBERING.md, "Two-level counting").
 *
 * A row holds the counts of one activation context of one procedure: the
 * key is (region, procedure's descriptor, base, nvc) and counts[l] is how
 * often the procedure's local path l ended there.  The instrumented
 * function finds its row at its first record (here) and counts the next
 * ones inline; when the profile is written, rt_rows_take turns each count
 * back into a path record: number base + a[l] * nvc + b[l] of the region.
 *
 * Ownership is that of the arcs (rt_arcs.c) and partial paths
 * (rt_internal.h): a thread's rows are records on a list that dumpers read
 * (published with a release store, never moved or freed), found by the
 * owner through an owner-only open-addressing index replaced whole when it
 * grows.  The found row is the common case (SQLite's context build
 * finds 99.4% of its rows): __ipp_row makes the first ROW_PROBES probes
 * itself, reading rt_tls_self without creating the thread's state, and
 * leaves everything else to rt_row_slow, as __ipp_icall does for arcs
 * (the out-of-line parts are named rt_*: the benchmark counts their calls
 * of __ipp_record as the runtime's, bench/run.sh).
 * Only the owner writes counts (here or inline); dumpers move the
 * baselines (`bases`, allocated by the first dump that moves one).  A
 * signal handler that would have to insert a row while its thread is in a
 * slow path (rt_tls_busy) gets NULL and records through __ipp_record.
 *
 * Memory: a row is n + 1 words and a header; a thread spends at most
 * RT_ROW_BYTES on rows (then it records through __ipp_record: exact, only
 * slower), so a procedure called in very many contexts cannot exhaust
 * memory.
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

/* How many slots __ipp_row's fast path probes before rt_row_slow. */
#define ROW_PROBES 4

static inline RT_NOINST bool row_is(const struct rt_row *w, const struct ipp_rt_region *r,
				    const struct ipp_rt_rows *d, uint64_t base, uint64_t nvc)
{
	return w->base == base && w->nvc == nvc && w->desc == d && w->region == r;
}

/* What a row is looked up by. */
struct row_want {
	const struct ipp_rt_region *r;
	const struct ipp_rt_rows *d;
	uint64_t base, nvc;
};

static RT_NOINST bool row_is_obj(const void *obj, const void *want)
{
	const struct row_want *k = want;
	return row_is(obj, k->r, k->d, k->base, k->nvc);
}

static RT_NOINST uint64_t row_key_of(const void *obj)
{
	return ((const struct rt_row *)obj)->key;
}

static RT_NOINST struct rt_row *find(const struct rt_idx *idx, const struct ipp_rt_region *r,
				     const struct ipp_rt_rows *d, uint64_t base, uint64_t nvc,
				     uint64_t key, uint32_t *slot)
{
	struct row_want k = { r, d, base, nvc };
	*slot = rt_idx_find(idx, key, row_is_obj, &k);
	return idx->slot[*slot];
}

/* The thread's new row for the key, or NULL.  Needs rt_tls_busy. */
static RT_NOINST struct rt_row *insert(struct rt_thread *t, struct ipp_rt_region *r,
				       const struct ipp_rt_rows *d, uint64_t base, uint64_t nvc,
				       uint64_t key)
{
	struct rt_idx *idx;
	struct rt_row *w;
	uint32_t i;
	size_t bytes;

	if (!d->n || d->n > IPP_ROW_MAX || !rt_region_ready(r))
		return NULL;
	bytes = sizeof(*w) + d->n * sizeof(uint64_t);
	rt_env_init();
	if (t->row_bytes + bytes > rt_env.row_bytes)
		return NULL;
	idx = rt_idx_room(t->rowidx, row_key_of, NULL);
	if (!idx)
		return NULL;
	if (idx != t->rowidx) {
		/* complete before it is visible to a handler */
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		t->rowidx = idx;
	}
	if ((w = find(idx, r, d, base, nvc, key, &i)) != NULL)
		return w;	/* a handler inserted it meanwhile */
	w = rt_alloc(bytes);
	if (!w)
		return NULL;
	t->row_bytes += bytes;
	w->region = r;
	w->desc = d;
	w->base = base;
	w->nvc = nvc;
	w->key = key;
	w->next = t->rows;
	__atomic_store_n(&t->rows, w, __ATOMIC_RELEASE);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	idx->slot[i] = w;
	idx->used++;
	return w;
}

/* Everything but a row found within the first ROW_PROBES probes: the
 * thread's first row, a probe run longer than the inline probes, an
 * insertion, no row.  Kept out of line and called with __ipp_row's own
 * arguments (it computes the key again), so that the fast path calls it
 * as a tail call and needs no stack frame. */
static __attribute__((noinline)) RT_NOINST uint64_t *
rt_row_slow(struct ipp_rt_region *r, const struct ipp_rt_rows *d, uint64_t base, uint64_t nvc,
	    uint64_t idx, uint64_t n)
{
	struct rt_thread *t = rt_thread_self();
	uint64_t key = rt_row_key(r, d, base, nvc);
	struct rt_row *w = NULL;
	uint32_t slot;

	if (t && t->rowidx)
		w = find(t->rowidx, r, d, base, nvc, key, &slot);
	RT_STAT_IF(w, row_found);
	if (!w && t && !rt_tls_busy && !t->in_partial) {
		rt_tls_busy = 1;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		w = insert(t, r, d, base, nvc, key);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		rt_tls_busy = 0;
		RT_STAT_IF(w, row_inserted);
	}
	RT_STAT_IF(!w, row_none);
	RT_STAT_IF(idx >= d->n, row_number);
	if (idx < d->n) {
		if (w) {
			w->counts[idx]++;
			return w->counts;
		}
		/* no row: the number from the tables (the caller may not
		 * have it: ipp_abi.h) */
		n = base + d->a[idx] * nvc + d->b[idx];
	}
	RT_STAT(row_record);
	__ipp_record(r, n);
	return w ? w->counts : NULL;
}

/* A record of a path from a return site (idx >= n) in an activation whose
 * row __ipp_row found: by number.  Out of line, so that __ipp_row calls
 * nothing but in tail position and needs no stack frame. */
static __attribute__((noinline)) RT_NOINST uint64_t *
rt_row_forward(struct ipp_rt_region *r, uint64_t n, uint64_t *counts)
{
	RT_STAT(row_number);
	RT_STAT(row_record);
	__ipp_record(r, n);
	return counts;
}

RT_API uint64_t *__ipp_row(struct ipp_rt_region *r, const struct ipp_rt_rows *d, uint64_t base,
			   uint64_t nvc, uint64_t idx, uint64_t n)
{
	/* The fast path reads the thread's state without creating it
	 * (rt_thread_self does that, in rt_row_slow) and its own index only
	 * (owner-only: a signal handler that interrupts us here is the
	 * owner too, and an insertion it makes publishes a complete row
	 * and index before their slot and pointer, as seen from here). */
	struct rt_thread *t = rt_tls_self;
	uint64_t key = rt_row_key(r, d, base, nvc);

	RT_STAT(row);
	if (RT_LIKELY(t != NULL)) {
		const struct rt_idx *x = t->rowidx;
		if (RT_LIKELY(x != NULL)) {
			/* The first ROW_PROBES probes of rt_idx_find, inline
			 * and with row_is written out (no call through a
			 * pointer per probe). */
			uint32_t mask = x->cap - 1, i = (uint32_t)rt_htab_index(key, x->shift);
			for (int p = 0; p < ROW_PROBES; p++, i = (i + 1) & mask) {
				struct rt_row *w = x->slot[i];
				if (!w)
					break;	/* not in the index: rt_row_slow inserts */
				if (row_is(w, r, d, base, nvc)) {
					RT_STAT(row_found);
					if (RT_LIKELY(idx < d->n)) {
						w->counts[idx]++;
						return w->counts;
					}
					return rt_row_forward(r, n, w->counts);
				}
			}
		}
	}
	return rt_row_slow(r, d, base, nvc, idx, n);
}

/* ------------------------------------------------------------------ */
/* Dumps, resets, fork                                                  */
/* ------------------------------------------------------------------ */


RT_HIDDEN int rt_rows_reset(struct rt_thread *t)
{
	int rc = 0;
	for (struct rt_row *w = __atomic_load_n(&t->rows, __ATOMIC_ACQUIRE); w; w = w->next) {
		if (!w->bases)
			w->bases = rt_alloc(w->desc->n * sizeof(uint64_t));
		if (!w->bases) {
			rc = -1;
			continue;
		}
		for (uint64_t l = 0; l < w->desc->n; l++)
			w->bases[l] = __atomic_load_n(&w->counts[l], __ATOMIC_RELAXED);
	}
	return rc;
}
