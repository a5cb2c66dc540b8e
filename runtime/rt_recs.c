/* rt_recs.c -- the records of a profile write (struct rt_rec): their
 * equality, and adding up the records of one key.  The snapshot takes
 * every thread's tables as they are, and the existing profile adds its
 * records to them (rt_merge.c); rt_recs_dedup then leaves one record per
 * key, in the order of their first occurrence, in time linear in their
 * number (the runtime's index, struct rt_idx, in the write's arena),
 * without sorting: the profile
 * keeps no order (docs/FORMAT.md, "Keys may repeat"), so that the exit
 * write costs what taking the counters costs.
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

RT_HIDDEN bool rt_rec_eq(const struct rt_rec *a, const struct rt_rec *b)
{
	if (a->num != b->num || a->nstack != b->nstack || !a->cmod != !b->cmod)
		return false;
	if (a->region != b->region && strcmp(a->region, b->region) != 0)
		return false;
	if (a->cmod && ((a->cmod != b->cmod && strcmp(a->cmod, b->cmod) != 0) ||
			memcmp(a->ccs, b->ccs, 16) != 0))
		return false;
	return a->nstack == 0 || memcmp(a->stack, b->stack, a->nstack * sizeof(*a->stack)) == 0;
}

/* The hash of a name, remembered for the last pointer seen (a table's
 * records share their region's name). */
struct name_hash {
	const char *last;
	uint64_t h;
};

static RT_NOINST uint64_t hash_name(struct name_hash *c, const char *s)
{
	if (s != c->last) {
		c->last = s;
		c->h = XXH64(s, strlen(s), 0);
	}
	return c->h;
}

static RT_NOINST uint64_t rec_hash(struct name_hash *rc, struct name_hash *mc,
				   const struct rt_rec *r)
{
	uint64_t h = rt_hash64(hash_name(rc, r->region) ^ rt_hash64(r->num + RT_FIB));
	for (uint32_t i = 0; i < r->nstack; i++)
		h = rt_hash64(h ^ (uint32_t)r->stack[i]);
	if (r->cmod)
		h = rt_hash64(h ^ hash_name(mc, r->cmod) ^ XXH64(r->ccs, 16, 0));
	return h;
}

/* The index's view of a record. */
struct rec_want {
	const struct rt_rec *r;
};

static RT_NOINST bool rec_is(const void *obj, const void *want)
{
	return rt_rec_eq(obj, ((const struct rec_want *)want)->r);
}

RT_HIDDEN size_t rt_recs_dedup(struct rt_rec *recs, size_t n, struct rt_arena *a)
{
	struct name_hash rc = { NULL, 0 }, mc = { NULL, 0 };
	struct rt_idx *x;
	size_t out = 0;

	if (n < 2)
		return n;
	x = rt_idx_new(n, a);
	if (!x)
		return (size_t)-1;
	for (size_t i = 0; i < n; i++) {
		struct rec_want w = { &recs[i] };
		uint32_t k = rt_idx_find(x, rec_hash(&rc, &mc, &recs[i]), rec_is, &w);
		struct rt_rec *e = x->slot[k];
		if (e) {
			e->count = rt_sat_add(e->count, recs[i].count);
		} else {
			/* out <= i: the record moves down, never over one indexed */
			recs[out] = recs[i];
			x->slot[k] = &recs[out++];
		}
	}
	return out;
}
