/* rt_snapshot.c -- what a profile write takes from the counters: for each
 * module of the program, every record whose count moved since the last
 * dump (count - baseline), summed over all threads, in canonical order:
 * paths, partial paths, and the indirect call arcs (rt_arcs.c) filed under
 * the caller's module.
 *
 * Modules of the program are grouped by (name, checksum): two units with
 * the same source path and the same checksum (one file compiled into two
 * objects the same way) are one module of the profile; their counts add.
 *
 * The snapshot reads other threads' counters while they may be counting
 * (ipp_dump() in a running program).  Each 64-bit counter is read with one
 * aligned load, so the value is one the counter really had; increments
 * that land after the read are taken by the next write, because only the
 * baseline moves, by exactly what this write took (rt_snapshot_commit,
 * after the write succeeded).  Nothing is lost or counted twice.
 *
 * All memory comes from the write's arena (rt_arena.c), except the
 * baselines themselves (rt_alloc), which are allocated while taking, so
 * that the commit cannot fail halfway -- never on the crash path, which
 * does not commit.
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


/* ------------------------------------------------------------------ */
/* Growing arrays in the arena                                          */
/* ------------------------------------------------------------------ */

/* old (n elements of *cap) with room for extra more. */
static RT_NOINST void *grow(struct rt_arena *a, void *old, size_t n, size_t extra, size_t *cap,
			    size_t elt)
{
	size_t ncap = *cap ? 2 * *cap : 64;
	void *p;
	if (n + extra <= *cap)
		return old;
	if (ncap < n + extra)
		ncap = n + extra;
	p = rt_arena_grow(a, old, n * elt, ncap * elt);
	if (!p)
		return NULL;
	*cap = ncap;
	return p;
}

enum rec_kind { REC_PATH, REC_PARTIAL, REC_ICALL, REC_FORKED };

static RT_NOINST int add_rec(struct rt_arena *a, struct rt_pmod *pm, enum rec_kind k,
			     const struct rt_rec *r)
{
	struct rt_rec **v = k == REC_PATH ? &pm->paths : k == REC_PARTIAL ? &pm->partials :
			    k == REC_FORKED ? &pm->forked : &pm->icalls;
	size_t *n = k == REC_PATH ? &pm->npaths : k == REC_PARTIAL ? &pm->npartials :
		    k == REC_FORKED ? &pm->nforked : &pm->nicalls;
	size_t *cap = k == REC_PATH ? &pm->cap_paths : k == REC_PARTIAL ? &pm->cap_partials :
		      k == REC_FORKED ? &pm->cap_forked : &pm->cap_icalls;
	struct rt_rec *g = grow(a, *v, *n, 1, cap, sizeof(**v));
	if (!g)
		return -1;
	*v = g;
	g[(*n)++] = *r;
	return 0;
}

static RT_NOINST int add_commit(struct rt_snapshot *s, struct rt_arena *a,
				const struct rt_commit *c)
{
	struct rt_commit *g;
	if (!s->commits && s->cap_commits == (size_t)-1)
		return 0;	/* final or crash: no commits */
	g = grow(a, s->commits, s->ncommits, 1, &s->cap_commits, sizeof(*g));
	if (!g)
		return -1;
	s->commits = g;
	g[s->ncommits++] = *c;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Grouping modules                                                     */
/* ------------------------------------------------------------------ */

static RT_NOINST int mod_cmp(const struct rt_modinfo *x, const struct rt_modinfo *y)
{
	int c = strcmp(x->m->name, y->m->name);
	return c ? c : strcmp(x->m->checksum, y->m->checksum);
}

static RT_NOINST void sort_mods(struct rt_modinfo **v, size_t n)
{
	/* insertion sort: a few hundred units at most, usually */
	for (size_t i = 1; i < n; i++) {
		struct rt_modinfo *x = v[i];
		size_t j = i;
		while (j && mod_cmp(v[j - 1], x) > 0) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
}

/* ------------------------------------------------------------------ */
/* Taking the deltas                                                    */
/* ------------------------------------------------------------------ */

static RT_NOINST uint64_t load64(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* Zeros to compare counters without a baseline with (never written). */
static uint64_t zeros[IPP_ARRAY_MAX];

/* Are the n counters v[] all at their baselines base[] (0 without one)?
 * Counters never fall below their baselines, so this is "none moved".
 * Most regions of a unit never ran, and a write scans every counter of
 * every array region: memcmp does it a vector at a time, where the
 * element loop cost SQLite's exit 16 instructions a counter (141k
 * counters, two writes).  A counter that another thread moves during the
 * comparison may be seen either way, as by the element loop: a delta not
 * taken now stays above its baseline for the next write. */
static RT_NOINST bool counters_unmoved(const uint64_t *v, const uint64_t *base, uint64_t n)
{
	for (uint64_t p = 0; p < n;) {
		uint64_t k = n - p < IPP_ARRAY_MAX ? n - p : IPP_ARRAY_MAX;
		if (memcmp(&v[p], base ? &base[p] : zeros, k * sizeof(uint64_t)) != 0)
			return false;
		p += k;
	}
	return true;
}

/* The first p' >= p from which counters may have moved, or from which
 * fewer than `block` remain: skips blocks of `block` counters at their
 * baselines with one memcmp each (inlined where block is a constant, as
 * memcmp then is).  The same caveat as counters_unmoved. */
static inline __attribute__((always_inline)) RT_NOINST uint64_t
skip_unmoved(const uint64_t *v, const uint64_t *base, uint64_t p, uint64_t n, uint64_t block)
{
	while (n - p >= block && memcmp(&v[p], base ? &base[p] : zeros, block * sizeof(uint64_t)) == 0)
		p += block;
	return p;
}

/* The first p' in p .. n-1 from which counters may have moved, or n:
 * blocks of eight.  A region that ran usually ran few of its paths: the
 * element loop below it costs 9 instructions a counter (SQLite: 80k
 * counters in the regions that moved). */
#define RT_SKIP_BLOCK 8u
static RT_NOINST uint64_t next_moved(const uint64_t *v, const uint64_t *base, uint64_t p,
				     uint64_t n)
{
	return skip_unmoved(v, base, p, n, RT_SKIP_BLOCK);
}

/* Path records of pm come from src (a thread's tables, or the units'
 * single-threaded counters): from a second source, or from rows, the
 * same key may come twice, and the records are added up by key before
 * they are written (rt_recs_dedup); when every region's paths come from
 * one source, each key comes once and they are written as they are. */
static RT_NOINST void note_source(struct rt_snapshot *s, struct rt_pmod *pm,
				  const struct ipp_rt_region *r, const void *src)
{
	uint32_t i = __atomic_load_n(&r->index, __ATOMIC_ACQUIRE);
	if (i >= s->nsrc || (s->src[i] && s->src[i] != src))
		pm->repeat = true;
	else
		s->src[i] = src;
}

static RT_NOINST int take_table(struct rt_snapshot *s, struct rt_arena *a, struct rt_pmod *pm,
				struct rt_table *tb, const struct rt_thread *t)
{
	struct ipp_rt_region *r = tb->region;
	struct rt_rec rec = { r->name, 0, 0, NULL, 0, 0, NULL, NULL, 0 };
	struct rt_commit c = { NULL, tb, 0, 0 };

	bool commit = s->cap_commits != (size_t)-1;
	uint64_t moved = 0;

	if (tb->counts && !counters_unmoved(tb->counts, tb->base, r->npaths)) {
		for (uint64_t p = 0; (p = next_moved(tb->counts, tb->base, p, r->npaths)) < r->npaths;
		     p++) {
			uint64_t v = load64(&tb->counts[p]), b = tb->base ? tb->base[p] : 0;
			if (v <= b)
				continue;
			rec.num = p;
			rec.count = v - b;
			c.key1 = p + 1;
			c.delta = v - b;
			if (add_rec(a, pm, REC_PATH, &rec) < 0 || add_commit(s, a, &c) < 0)
				return -1;
			moved++;
		}
		/* The baselines the commit will move must exist beforehand,
		 * so that a commit cannot fail halfway. */
		if (moved)
			note_source(s, pm, r, t);
		if (commit && moved && !tb->base) {
			tb->base = rt_alloc(r->npaths * sizeof(uint64_t));
			if (!tb->base)
				return -1;
		}
	} else {
		struct ipp_rt_htab *h = __atomic_load_n(&tb->htab, __ATOMIC_ACQUIRE);
		/* room for every key at once, rather than doubling (a snapshot
		 * of 10^5 paths: a fifth of the exit write's page faults) */
		if (h && h->used && !(pm->paths = grow(a, pm->paths, pm->npaths, h->used, &pm->cap_paths,
					    sizeof(rec))))
			return -1;
		if (h && h->used && commit && !(s->commits = grow(a, s->commits, s->ncommits, h->used,
						       &s->cap_commits, sizeof(c))))
			return -1;
		for (uint64_t k = 0; h && k < h->cap; k++) {
			uint64_t key1 = __atomic_load_n(&h->e[k].key1, __ATOMIC_ACQUIRE), v, b;
			struct ipp_rt_hent *be;
			if (!key1)
				continue;
			v = load64(&h->e[k].count);
			be = rt_htab_find(tb->bhash, key1);
			b = be ? be->count : 0;
			if (v <= b)
				continue;
			rec.num = key1 - 1;
			rec.count = v - b;
			c.key1 = key1;
			c.delta = v - b;
			if (add_rec(a, pm, REC_PATH, &rec) < 0 || add_commit(s, a, &c) < 0)
				return -1;
			moved++;
		}
		if (moved)
			note_source(s, pm, r, t);
		if (commit && moved && rt_htab_reserve(&tb->bhash, moved) < 0)
			return -1;
	}
	return 0;
}

/* The first p' in p .. n-1 from which counters may have moved, or n,
 * over a stretch that spans regions: skips blocks of RT_SKIP_FAR counters
 * at their baselines with one memcmp each, then next_moved's blocks of
 * eight.  Most regions of a unit never ran: SQLite's 6571 regions cost
 * each write 0.46M instructions when every one was compared by itself. */
#define RT_SKIP_FAR 512u
static RT_NOINST uint64_t next_moved_far(const uint64_t *v, const uint64_t *base, uint64_t p,
					 uint64_t n)
{
	return next_moved(v, base, skip_unmoved(v, base, p, n, RT_SKIP_FAR), n);
}

/* The moved counts of a unit's single-threaded counters (gcounts,
 * ipp_abi.h: one array, in region order, info->gfirst .. + gtotal), as
 * path records of their regions.  Their baselines are one array of the
 * same layout (info->gbase), allocated by the first commit that moves
 * one: until then every baseline is 0.  The scan runs over the whole
 * array and finds the region of each stretch that moved. */
static RT_NOINST int take_globals(struct rt_snapshot *s, struct rt_arena *a, struct rt_pmod *pm,
				  struct rt_modinfo *info)
{
	const struct ipp_rt_module *m = info->m;
	const uint64_t *g0 = info->gfirst;
	uint64_t n = info->gtotal;
	bool commit = s->cap_commits != (size_t)-1;
	uint32_t i = 0;

	if (!g0)
		return 0;
	for (uint64_t p = 0; (p = next_moved_far(g0, info->gbase, p, n)) < n;) {
		const struct ipp_rt_region *r;
		struct rt_rec rec;
		uint64_t at, *base;
		bool noted = false;
		/* the region of counter p: regions are in the array's order */
		while (i < m->nregions &&
		       (!m->regions[i].gcounts ||
			(uint64_t)(m->regions[i].gcounts - g0) + m->regions[i].npaths <= p))
			i++;
		if (i == m->nregions)
			break;	/* past the last region: never, from the plugin */
		r = &m->regions[i];
		at = (uint64_t)(r->gcounts - g0);
		if (p < at) {
			p = at;	/* a gap between regions: never, from the plugin */
			continue;
		}
		rec = (struct rt_rec){ r->name, 0, 0, NULL, 0, 0, NULL, NULL, 0 };
		for (uint64_t q = p - at;
		     (q = next_moved(r->gcounts, info->gbase ? info->gbase + at : NULL, q,
				     r->npaths)) < r->npaths;
		     q++) {
			uint64_t v = load64(&r->gcounts[q]), b = info->gbase ? info->gbase[at + q] : 0;
			struct rt_commit c = { NULL, NULL, 0, 0 };
			if (v <= b)
				continue;
			if (!noted) {
				note_source(s, pm, r, s);	/* the units' counters: one source */
				noted = true;
			}
			/* The baselines the commit will move must exist
			 * beforehand, so that a commit cannot fail halfway. */
			if (commit && !info->gbase &&
			    !(info->gbase = rt_alloc(n * sizeof(uint64_t))))
				return -1;
			base = info->gbase;
			c.base = commit ? &base[at + q] : NULL;
			rec.num = q;
			rec.count = c.delta = v - b;
			if (add_rec(a, pm, REC_PATH, &rec) < 0 || (commit && add_commit(s, a, &c) < 0))
				return -1;
		}
		p = at + r->npaths;
		i++;
	}
	return 0;
}

/* The moved counts of a row (rt_rows.c), as path records of its region:
 * local path l counts for path base + a[l] * nvc + b[l].  A number past
 * the region (never, from the plugin) is a bad record, not counted. */
static RT_NOINST int take_row(struct rt_snapshot *s, struct rt_arena *a, struct rt_pmod *pm,
			      struct rt_row *w)
{
	struct ipp_rt_region *r = w->region;
	struct rt_rec rec = { r->name, 0, 0, NULL, 0, 0, NULL, NULL, 0 };
	bool commit = s->cap_commits != (size_t)-1;
	uint64_t n = w->desc->n;
	bool moved = false;

	for (uint64_t l = 0; l < n && !moved; l++)
		moved = load64(&w->counts[l]) > (w->bases ? w->bases[l] : 0);
	if (!moved)
		return 0;
	pm->repeat = true;	/* a row's paths may also be its thread's table's */
	/* The baselines the commit will move must exist beforehand, so that
	 * a commit cannot fail halfway. */
	if (commit && !w->bases) {
		w->bases = rt_alloc(n * sizeof(uint64_t));
		if (!w->bases)
			return -1;
	}
	for (uint64_t l = 0; l < n; l++) {
		uint64_t v = load64(&w->counts[l]), b = w->bases ? w->bases[l] : 0;
		struct rt_commit c = { commit ? &w->bases[l] : NULL, NULL, 0, 0 };
		if (v <= b)
			continue;
		rec.num = rt_row_number(w, l);
		if (rec.num >= r->npaths) {
			s->bad_records += v - b;
			continue;
		}
		rec.count = c.delta = v - b;
		if (add_rec(a, pm, REC_PATH, &rec) < 0 || (commit && add_commit(s, a, &c) < 0))
			return -1;
	}
	return 0;
}

/* A record counted by its owner in *count, whose baseline *base only
 * dumpers move (partial paths, arcs): rec with the delta since the last
 * dump, filed under the unit registered as `registered` (its sequence
 * number + 1; units registered after the snapshot began wait for the next
 * one). */
static RT_NOINST int take_counter(struct rt_snapshot *s, struct rt_arena *a, struct rt_rec *rec,
				  enum rec_kind k, uint32_t registered, const uint32_t *group,
				  const uint64_t *count, uint64_t *base)
{
	uint64_t v = load64(count);
	uint32_t seq = registered - 1;
	struct rt_commit c = { base, NULL, 0, 0 };
	if (v <= *base || seq >= s->nmods)
		return 0;
	rec->count = c.delta = v - *base;
	if (add_rec(a, &s->pmods[group[seq]], k, rec) < 0 || add_commit(s, a, &c) < 0)
		return -1;
	return 0;
}

/* The records of a thread's list l (partial paths or forked prefixes). */
static RT_NOINST int take_plist(struct rt_snapshot *s, struct rt_arena *a, struct rt_plist *l,
				enum rec_kind k, const uint32_t *group)
{
	for (struct rt_pent *p = __atomic_load_n(&l->head, __ATOMIC_ACQUIRE); p; p = p->next) {
		struct rt_rec rec = { p->region->name, p->num, 0, p->stack, p->nstack, 0,
				      NULL, NULL, 0 };
		if (take_counter(s, a, &rec, k, p->region->module->registered, group, &p->count,
				 &p->base) < 0)
			return -1;
	}
	return 0;
}

RT_HIDDEN int rt_snapshot_take(struct rt_snapshot *s, struct rt_arena *a, bool commit,
			       bool forked)
{
	uint32_t n = __atomic_load_n(&rt_nmods, __ATOMIC_ACQUIRE);
	struct rt_modinfo **mods = __atomic_load_n(&rt_mods, __ATOMIC_ACQUIRE);
	struct rt_modinfo **sorted;
	struct rt_entmap em;
	bool em_built = false;
	uint32_t *group;
	size_t ng = 0;

	memset(s, 0, sizeof(*s));
	if (!commit)
		s->cap_commits = (size_t)-1;
	s->mods = mods;
	s->nmods = n;
	if (!n)
		return 0;
	sorted = rt_arena_alloc(a, n * sizeof(*sorted));
	group = rt_arena_alloc(a, n * sizeof(*group));
	s->pmods = rt_arena_alloc(a, n * sizeof(*s->pmods));
	if (!sorted || !group || !s->pmods)
		return -1;
	memcpy(sorted, mods, n * sizeof(*sorted));
	sort_mods(sorted, n);

	/* One pmod per (name, checksum). */
	for (uint32_t i = 0; i < n; i++) {
		struct rt_pmod *pm;
		if (!ng || mod_cmp(sorted[i], s->pmods[ng - 1].mods[0]) != 0) {
			pm = &s->pmods[ng++];
			pm->name = sorted[i]->m->name;
			memcpy(pm->checksum, sorted[i]->m->checksum, 17);
			pm->mode = sorted[i]->m->mode;
			pm->mods = &sorted[i];
		}
		pm = &s->pmods[ng - 1];
		pm->nmods++;
		if (!sorted[i]->run_counted)
			pm->runs = 1;
		group[sorted[i]->seq] = (uint32_t)(ng - 1);
	}
	s->npmods = ng;
	/* every region's source (note_source), by region index */
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t k = 0; k < mods[i]->m->nregions; k++) {
			uint32_t x = __atomic_load_n(&mods[i]->m->regions[k].index, __ATOMIC_ACQUIRE);
			if (x >= s->nsrc)
				s->nsrc = x + 1;
		}
	s->src = rt_arena_alloc(a, (s->nsrc + 1) * sizeof(*s->src));
	if (!s->src)
		return -1;

	for (uint32_t i = 0; i < n; i++)
		if (take_globals(s, a, &s->pmods[group[mods[i]->seq]], mods[i]) < 0)
			return -1;
	for (struct rt_thread *t = __atomic_load_n(&rt_threads, __ATOMIC_ACQUIRE); t;
	     t = t->next) {
		struct rt_vec *v = __atomic_load_n(&t->vec, __ATOMIC_ACQUIRE);
		s->bad_records += t->bad_records;
		s->bad_frames += t->bad_frames;
		for (uint32_t i = 1; v && i < v->cap; i++) {
			struct rt_table *tb = __atomic_load_n(&v->t[i], __ATOMIC_ACQUIRE);
			uint32_t seq;
			if (!tb)
				continue;
			seq = tb->region->module->registered - 1;
			if (seq >= n)
				continue;	/* registered after we looked */
			if (take_table(s, a, &s->pmods[group[seq]], tb, t) < 0)
				return -1;
		}
		for (struct rt_row *w = __atomic_load_n(&t->rows, __ATOMIC_ACQUIRE); w;
		     w = w->next) {
			uint32_t seq = w->region->module->registered - 1;
			if (seq >= n)
				continue;	/* registered after we looked */
			if (take_row(s, a, &s->pmods[group[seq]], w) < 0)
				return -1;
		}
		if (take_plist(s, a, &t->partials, REC_PARTIAL, group) < 0 ||
		    (forked && take_plist(s, a, &t->forked, REC_FORKED, group) < 0))
			return -1;
		for (struct rt_arc *ar = __atomic_load_n(&t->arcs, __ATOMIC_ACQUIRE); ar;
		     ar = ar->next) {
			/* the caller's unit registered at the arc's first
			 * occurrence; the callee is the function at the
			 * target, if an instrumented unit lists it */
			const struct ipp_rt_region *cr;
			/* built at the first arc: most writes have none */
			if (!em_built && rt_entmap_build(&em, mods, n, a) < 0)
				return -1;
			em_built = true;
			cr = rt_entmap_find(&em, ar->a.target);
			if (!cr)
				continue;
			struct rt_rec rec = { cr->name, (uint64_t)ar->a.site, 0, NULL, 0, 0,
					      cr->module->name, cr->module->checksum, 0 };
			if (take_counter(s, a, &rec, REC_ICALL, ar->a.caller->registered, group,
					 &ar->a.count, &ar->base) < 0)
				return -1;
		}
	}

	for (size_t i = 0; i < ng; i++) {
		struct rt_pmod *pm = &s->pmods[i];
		if (pm->npaths || pm->npartials || pm->nicalls || pm->nforked || pm->runs)
			s->any = true;
		/* From this process alone, keys can repeat (threads, units
		 * sharing a module). */
		/* (units that share a module have regions of the same names) */
		if ((pm->repeat || pm->nmods > 1) &&
		    (pm->npaths = rt_recs_dedup(pm->paths, pm->npaths, a)) == (size_t)-1)
			return -1;
		if ((pm->npartials = rt_recs_dedup(pm->partials, pm->npartials, a)) == (size_t)-1 ||
		    (pm->nforked = rt_recs_dedup(pm->forked, pm->nforked, a)) == (size_t)-1 ||
		    (pm->nicalls = rt_recs_dedup(pm->icalls, pm->nicalls, a)) == (size_t)-1)
			return -1;
	}
	return 0;
}

RT_HIDDEN void rt_snapshot_commit(struct rt_snapshot *s)
{
	for (size_t i = 0; i < s->ncommits; i++) {
		struct rt_commit *c = &s->commits[i];
		if (c->base) {
			*c->base += c->delta;	/* a partial record's baseline */
		} else if (c->t->counts) {
			c->t->base[c->key1 - 1] += c->delta;	/* allocated by take */
		} else {
			/* reserved by take: cannot fail or grow */
			struct ipp_rt_hent *e = rt_htab_get(&c->t->bhash, c->key1);
			e->count += c->delta;
		}
	}
}

RT_HIDDEN int rt_reset_baselines(void)
{
	int rc = 0;
	for (struct rt_thread *t = __atomic_load_n(&rt_threads, __ATOMIC_ACQUIRE); t;
	     t = t->next) {
		struct rt_vec *v = __atomic_load_n(&t->vec, __ATOMIC_ACQUIRE);
		for (uint32_t i = 1; v && i < v->cap; i++) {
			struct rt_table *tb = __atomic_load_n(&v->t[i], __ATOMIC_ACQUIRE);
			if (!tb)
				continue;
			if (tb->counts) {
				uint64_t np = tb->region->npaths;
				if (!tb->base)
					tb->base = rt_alloc(np * sizeof(uint64_t));
				if (!tb->base) {
					rc = -1;
					continue;
				}
				for (uint64_t p = 0; p < np; p++)
					tb->base[p] = load64(&tb->counts[p]);
			} else {
				struct ipp_rt_htab *h = __atomic_load_n(&tb->htab, __ATOMIC_ACQUIRE);
				if (!h)
					continue;
				/* at most h->used new keys */
				if (rt_htab_reserve(&tb->bhash, h->used) < 0) {
					rc = -1;
					continue;
				}
				for (uint64_t k = 0; k < h->cap; k++) {
					uint64_t key1 = __atomic_load_n(&h->e[k].key1, __ATOMIC_ACQUIRE);
					if (key1)
						rt_htab_get(&tb->bhash, key1)->count = load64(&h->e[k].count);
				}
			}
		}
		for (struct rt_pent *p = __atomic_load_n(&t->partials.head, __ATOMIC_ACQUIRE); p;
		     p = p->next)
			p->base = load64(&p->count);
		/* Forked prefixes stay: the paths they begin will be recorded
		 * whole, the prefix run before the fork included. */
		for (struct rt_arc *ar = __atomic_load_n(&t->arcs, __ATOMIC_ACQUIRE); ar;
		     ar = ar->next)
			ar->base = load64(&ar->a.count);
		if (rt_rows_reset(t) < 0)
			rc = -1;
	}
	/* the units' single-threaded counters */
	{
		uint32_t n = __atomic_load_n(&rt_nmods, __ATOMIC_ACQUIRE);
		struct rt_modinfo **mods = __atomic_load_n(&rt_mods, __ATOMIC_ACQUIRE);
		for (uint32_t k = 0; k < n; k++) {
			struct rt_modinfo *info = mods[k];
			if (!info->gfirst)
				continue;
			if (!info->gbase && !(info->gbase = rt_alloc(info->gtotal * sizeof(uint64_t)))) {
				rc = -1;
				continue;
			}
			for (uint64_t p = 0; p < info->gtotal; p++)
				info->gbase[p] = load64(&info->gfirst[p]);
		}
	}
	return rc;
}
