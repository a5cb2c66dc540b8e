/* profile.c -- the profile: per module (source path + map checksum + mode),
 * the counts of complete paths (region, number), of partial paths
 * (region, number so far, stop stack), of indirect call arcs (site,
 * callee) and of forked prefixes (as partial paths, to subtract), and the
 * number of runs merged.
 *
 * The file is the binary layout of runtime/ipp_profile.h (docs/FORMAT.md
 * section 3), read and written through that header's one reader and
 * writer; its text form (version 1, what `ipp profile` prints) is read
 * with libyaml and written here.  This file also merges profiles and
 * checks a profile module against a map.
 *
 * In memory, a module keeps its records unique by key -- (region, number)
 * for paths, (region, number, stack) for partial paths, (site, callee
 * module, checksum, callee region) for indirect calls -- through a hash
 * index (struct ipp_prof_index), so adding a record that exists adds to its
 * count.  Counts saturate at UINT64_MAX instead of wrapping.  A number is
 * an ipp_pnum: 8 bytes in the record, no allocation, unless it passes
 * 2^64 (only a text profile can hold such a number).  The index is needed
 * only while records are added: the readers drop it when they return a
 * profile, and the next addition rebuilds it.  The binary reader appends
 * paths without it and folds repeated keys once the file's image is freed
 * (fold_paths), so that the two never take memory at once.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "internal.h"
#include "format_internal.h"
#include "ipp_profile.h"

#include <errno.h>
#include <xxhash.h>
#include <inttypes.h>
#include <limits.h>

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* ================================================================== */
/* The record index                                                    */
/* ================================================================== */

/* An open-addressing set of record indices; slot value 0 is empty, else
 * index + 1.  Load factor <= 1/2; cap is 0 (no index: rebuilt on the next
 * addition) or a power of two.  (Tagging the slots with hash bits, so that
 * a probe seldom reads a record, took twice the memory for no measurable
 * gain on 10^6 records.) */
struct rtab {
	uint32_t *slot;
	size_t cap;
};

/* The four record lists of a module (the order of the module keys
 * "paths", "partial", "indirect-calls", "forked": see module_key_names). */
enum rkind { RK_PATH, RK_PARTIAL, RK_ICALL, RK_FORKED, RK_COUNT };

struct ipp_prof_index {
	ipp_strtab regions;	/* names[] is the module's regions[] */
	struct rtab tab[RK_COUNT];	/* by enum rkind */
};

/* The list of a kind of stop-stack records: partial paths or forked
 * prefixes. */
struct plist {
	ipp_prof_partial **v;
	size_t *n, *cap;
};

static struct plist plist_of(ipp_prof_module *m, enum rkind kind)
{
	struct plist l;
	if (kind == RK_FORKED) {
		l.v = &m->forked;
		l.n = &m->nforked;
		l.cap = &m->cap_forked;
	} else {
		l.v = &m->partials;
		l.n = &m->npartials;
		l.cap = &m->cap_partials;
	}
	return l;
}

/* The key of a record, for lookups. */
struct rkey {
	uint32_t region;
	const ipp_pnum *num;
	const ipp_id *stack;	/* NULL for complete paths */
	size_t nstack;
	const ipp_prof_icall *call;	/* indirect calls: only this (not its count) */
};

/* XXH3 (libxxhash, header only) of the key's fields: a table hash, never
 * written anywhere. */
static uint64_t hash_key(const struct rkey *k)
{
	uint64_t h;
	if (k->call) {
		uint64_t w[2] = { (uint64_t)(uint32_t)k->call->site, k->call->callee_checksum };
		h = XXH3_64bits(w, sizeof(w));
		h = XXH3_64bits_withSeed(k->call->callee_module, strlen(k->call->callee_module), h);
		return XXH3_64bits_withSeed(k->call->callee_region,
					    strlen(k->call->callee_region), h);
	}
	{
		uint64_t w[2] = { k->num->u, k->region };
		h = XXH3_64bits(w, sizeof(w));
	}
	if (k->num->big) {
		size_t n = mpz_size(k->num->big);
		for (size_t i = 0; i < n; i++) {
			uint64_t limb = (uint64_t)mpz_getlimbn(k->num->big, (mp_size_t)i);
			h = XXH3_64bits_withSeed(&limb, sizeof(limb), h);
		}
	}
	if (k->stack)
		h = XXH3_64bits_withSeed(k->stack, k->nstack * sizeof(ipp_id), h ^ k->nstack);
	return h;
}

static struct rkey key_of(const ipp_prof_module *m, enum rkind kind, size_t i)
{
	struct rkey k = { 0, NULL, NULL, 0, NULL };
	if (kind == RK_ICALL) {
		k.call = &m->icalls[i];
	} else if (kind == RK_PARTIAL || kind == RK_FORKED) {
		const ipp_prof_partial *r = kind == RK_FORKED ? &m->forked[i] : &m->partials[i];
		k.region = r->region;
		k.num = &r->num;
		k.stack = r->stack;
		k.nstack = r->nstack;
	} else {
		k.region = m->paths[i].region;
		k.num = &m->paths[i].num;
	}
	return k;
}

static bool key_eq(const struct rkey *a, const struct rkey *b)
{
	if (a->call)
		return a->call->site == b->call->site &&
		       a->call->callee_checksum == b->call->callee_checksum &&
		       strcmp(a->call->callee_module, b->call->callee_module) == 0 &&
		       strcmp(a->call->callee_region, b->call->callee_region) == 0;
	return a->region == b->region && a->num->u == b->num->u &&
	       (!a->num->big == !b->num->big) &&
	       (!a->num->big || mpz_cmp(a->num->big, b->num->big) == 0) &&
	       a->nstack == b->nstack &&
	       (!a->nstack || memcmp(a->stack, b->stack, a->nstack * sizeof(ipp_id)) == 0);
}

/* The slot holding key k, or the empty slot where it would go. */
static size_t rtab_slot(const ipp_prof_module *m, enum rkind kind, const struct rtab *t,
			const struct rkey *k)
{
	size_t mask = t->cap - 1, i = (size_t)hash_key(k) & mask;
	while (t->slot[i]) {
		struct rkey other = key_of(m, kind, t->slot[i] - 1);
		if (key_eq(k, &other))
			break;
		i = (i + 1) & mask;
	}
	return i;
}

/* Makes room in t for 'room' records, (re)building it from the n records
 * there are. */
static void rtab_reserve(const ipp_prof_module *m, enum rkind kind, struct rtab *t, size_t n,
			 size_t room)
{
	size_t cap = 64;
	if (2 * room <= t->cap)
		return;
	while (cap < 2 * room)
		cap *= 2;
	free(t->slot);
	t->cap = cap;
	t->slot = ipp_xcalloc(t->cap, sizeof(*t->slot));
	for (size_t i = 0; i < n; i++) {
		struct rkey k = key_of(m, kind, i);
		t->slot[rtab_slot(m, kind, t, &k)] = (uint32_t)i + 1;
	}
}

/* Makes room in t for an (n+1)th record. */
static void rtab_grow(const ipp_prof_module *m, enum rkind kind, struct rtab *t, size_t n)
{
	rtab_reserve(m, kind, t, n, n + 1);
}

/* Makes room in m's array for 'more' path records. */
static void reserve_path_array(ipp_prof_module *m, size_t more)
{
	if (m->npaths + more > m->cap_paths) {
		/* at least doubling: merging many small profiles stays linear */
		m->cap_paths = m->npaths + more > 2 * m->cap_paths ? m->npaths + more :
			       2 * m->cap_paths;
		m->paths = ipp_xrealloc(m->paths, m->cap_paths * sizeof(*m->paths));
	}
}

/* Makes room in m for 'more' path records: the array and the index. */
static void reserve_paths(ipp_prof_module *m, size_t more)
{
	reserve_path_array(m, more);
	rtab_reserve(m, RK_PATH, &m->index->tab[RK_PATH], m->npaths, m->npaths + more);
}

/* Adds up the path records of m that have the same key, into the first of
 * them (saturating), and closes the gaps: what adding the records one by
 * one would have made, for records appended without their index (a
 * binary profile's, read before its file's image is freed: the image and
 * the index are never held at once). */
static void fold_paths(ipp_prof_module *m)
{
	struct rtab *t = &m->index->tab[RK_PATH];
	size_t n = m->npaths, kept = 0;

	free(t->slot);			/* a new, empty index with room for n */
	t->slot = NULL;
	t->cap = 0;
	rtab_reserve(m, RK_PATH, t, 0, n);
	for (size_t i = 0; i < n; i++) {
		struct rkey k = key_of(m, RK_PATH, i);
		size_t s = rtab_slot(m, RK_PATH, t, &k);	/* among paths[0 .. kept-1] */
		if (t->slot[s]) {
			ipp_prof_path *first = &m->paths[t->slot[s] - 1];
			first->count = sat_add(first->count, m->paths[i].count);
			ipp_pnum_clear(&m->paths[i].num);
		} else {
			m->paths[kept] = m->paths[i];
			t->slot[s] = (uint32_t)++kept;
		}
	}
	m->npaths = kept;
}

void ipp_profile_trim(ipp_profile *p)
{
	for (size_t i = 0; i < p->nmodules; i++)
		for (int k = 0; k < RK_COUNT; k++) {
			struct rtab *t = &p->modules[i]->index->tab[k];
			free(t->slot);
			t->slot = NULL;
			t->cap = 0;
		}
}

/* ================================================================== */
/* Building profiles                                                   */
/* ================================================================== */

static ipp_prof_module *module_new(const char *module, uint64_t checksum, enum ipp_mode mode)
{
	ipp_prof_module *m = ipp_xcalloc(1, sizeof(*m));
	m->module = module ? ipp_xstrdup(module) : NULL;
	m->checksum = checksum;
	m->mode = mode;
	m->index = ipp_xcalloc(1, sizeof(*m->index));
	return m;
}

static void module_free(ipp_prof_module *m)
{
	if (!m)
		return;
	free(m->module);
	for (size_t i = 0; i < m->npaths; i++)
		ipp_pnum_clear(&m->paths[i].num);
	free(m->paths);
	for (size_t i = 0; i < m->npartials; i++) {
		ipp_pnum_clear(&m->partials[i].num);
		free(m->partials[i].stack);
	}
	free(m->partials);
	for (size_t i = 0; i < m->nforked; i++) {
		ipp_pnum_clear(&m->forked[i].num);
		free(m->forked[i].stack);
	}
	free(m->forked);
	for (size_t i = 0; i < m->nicalls; i++) {
		free(m->icalls[i].callee_module);
		free(m->icalls[i].callee_region);
	}
	free(m->icalls);
	ipp_strtab_free(&m->index->regions);	/* frees the names in m->regions too */
	for (int k = 0; k < RK_COUNT; k++)
		free(m->index->tab[k].slot);
	free(m->index);
	free(m);
}

ipp_profile *ipp_profile_new(void)
{
	return ipp_xcalloc(1, sizeof(ipp_profile));
}

void ipp_profile_free(ipp_profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nmodules; i++)
		module_free(p->modules[i]);
	free(p->modules);
	free(p);
}

ipp_prof_module *ipp_profile_find(const ipp_profile *p, const char *module, uint64_t checksum)
{
	for (size_t i = 0; i < p->nmodules; i++)
		if (p->modules[i]->checksum == checksum &&
		    strcmp(p->modules[i]->module, module) == 0)
			return p->modules[i];
	return NULL;
}

static void append_module(ipp_profile *p, ipp_prof_module *m)
{
	IPP_ARRAY_GROW(p->modules, p->nmodules, p->cap_modules);
	p->modules[p->nmodules++] = m;
}

ipp_prof_module *ipp_profile_add_module(ipp_profile *p, const char *module,
					uint64_t checksum, enum ipp_mode mode)
{
	ipp_prof_module *m;
	if (ipp_profile_find(p, module, checksum))
		return NULL;
	m = module_new(module, checksum, mode);
	append_module(p, m);
	return m;
}

static uint32_t intern_region(ipp_prof_module *m, const char *region)
{
	ipp_strtab *t = &m->index->regions;
	uint32_t i = ipp_strtab_intern(t, region, NULL);
	m->regions = t->names;
	m->nregions = t->n;
	return i;
}

/* The index of the path record with key (region, num), created with count 0
 * if absent (*created tells which). */
static size_t path_get(ipp_prof_module *m, uint32_t region, const ipp_pnum *num, bool *created)
{
	struct rkey k = { region, num, NULL, 0, NULL };
	struct rtab *t = &m->index->tab[RK_PATH];
	size_t s;
	rtab_grow(m, RK_PATH, t, m->npaths);
	s = rtab_slot(m, RK_PATH, t, &k);
	*created = !t->slot[s];
	if (*created) {
		ipp_prof_path *r;
		IPP_ARRAY_GROW(m->paths, m->npaths, m->cap_paths);
		r = &m->paths[m->npaths];
		r->region = region;
		ipp_pnum_copy(&r->num, num);
		r->count = 0;
		t->slot[s] = (uint32_t)++m->npaths;
	}
	return t->slot[s] - 1;
}

/* The same for a partial path or forked prefix (kind RK_PARTIAL or
 * RK_FORKED) with key (region, num, stack). */
static size_t partial_get(ipp_prof_module *m, enum rkind kind, uint32_t region,
			  const ipp_pnum *num, const ipp_id *stack, size_t nstack, bool *created)
{
	struct rkey k = { region, num, stack, nstack, NULL };
	struct rtab *t = &m->index->tab[kind];
	struct plist l = plist_of(m, kind);
	size_t s;
	rtab_grow(m, kind, t, *l.n);
	s = rtab_slot(m, kind, t, &k);
	*created = !t->slot[s];
	if (*created) {
		ipp_prof_partial *r;
		IPP_ARRAY_GROW(*l.v, *l.n, *l.cap);
		r = &(*l.v)[*l.n];
		r->region = region;
		ipp_pnum_copy(&r->num, num);
		r->stack = ipp_xmalloc(nstack * sizeof(ipp_id));
		memcpy(r->stack, stack, nstack * sizeof(ipp_id));
		r->nstack = nstack;
		r->count = 0;
		t->slot[s] = (uint32_t)++*l.n;
	}
	return t->slot[s] - 1;
}

/* The index of the indirect-call record with the key of *key (its count
 * unused), created with count 0 if absent. */
static size_t icall_get(ipp_prof_module *m, const ipp_prof_icall *key, bool *created)
{
	struct rkey k = { 0, NULL, NULL, 0, key };
	struct rtab *t = &m->index->tab[RK_ICALL];
	size_t s;
	rtab_grow(m, RK_ICALL, t, m->nicalls);
	s = rtab_slot(m, RK_ICALL, t, &k);
	*created = !t->slot[s];
	if (*created) {
		ipp_prof_icall *r;
		IPP_ARRAY_GROW(m->icalls, m->nicalls, m->cap_icalls);
		r = &m->icalls[m->nicalls];
		r->site = key->site;
		r->callee_module = ipp_xstrdup(key->callee_module);
		r->callee_checksum = key->callee_checksum;
		r->callee_region = ipp_xstrdup(key->callee_region);
		r->count = 0;
		t->slot[s] = (uint32_t)++m->nicalls;
	}
	return t->slot[s] - 1;
}

/* Adds count to the path record (region index, num). */
static size_t add_path(ipp_prof_module *m, uint32_t region, const ipp_pnum *num, uint64_t count)
{
	bool created;
	size_t i = path_get(m, region, num, &created);
	m->paths[i].count = sat_add(m->paths[i].count, count);
	return i;
}

size_t ipp_prof_add_path(ipp_prof_module *m, const char *region, const mpz_t num,
			 uint64_t count)
{
	ipp_pnum n;
	size_t i;
	ipp_pnum_set(&n, num);
	i = add_path(m, intern_region(m, region), &n, count);
	ipp_pnum_clear(&n);
	return i;
}

/* Adds count to the stop record (region index, num, stack) of kind. */
static size_t add_stop(ipp_prof_module *m, enum rkind kind, uint32_t region, const ipp_pnum *num,
		       const ipp_id *stack, size_t nstack, uint64_t count)
{
	bool created;
	size_t i = partial_get(m, kind, region, num, stack, nstack, &created);
	ipp_prof_partial *r = &(*plist_of(m, kind).v)[i];
	r->count = sat_add(r->count, count);
	return i;
}

static size_t add_stop_record(ipp_prof_module *m, enum rkind kind, const char *region,
			      const mpz_t num, const ipp_id *stack, size_t nstack, uint64_t count)
{
	ipp_pnum n;
	size_t i;
	ipp_pnum_set(&n, num);
	i = add_stop(m, kind, intern_region(m, region), &n, stack, nstack, count);
	ipp_pnum_clear(&n);
	return i;
}

size_t ipp_prof_add_partial(ipp_prof_module *m, const char *region, const mpz_t num,
			    const ipp_id *stack, size_t nstack, uint64_t count)
{
	return add_stop_record(m, RK_PARTIAL, region, num, stack, nstack, count);
}

size_t ipp_prof_add_forked(ipp_prof_module *m, const char *region, const mpz_t num,
			   const ipp_id *stack, size_t nstack, uint64_t count)
{
	return add_stop_record(m, RK_FORKED, region, num, stack, nstack, count);
}

size_t ipp_prof_add_icall(ipp_prof_module *m, ipp_id site, const char *callee_module,
			  uint64_t callee_checksum, const char *callee_region, uint64_t count)
{
	ipp_prof_icall key = { site, (char *)callee_module, callee_checksum,
			       (char *)callee_region, 0 };
	bool created;
	size_t i = icall_get(m, &key, &created);
	m->icalls[i].count = sat_add(m->icalls[i].count, count);
	return i;
}

/* ================================================================== */
/* Merging                                                             */
/* ================================================================== */

static const ipp_prof_module *find_by_name(const ipp_profile *p, const char *module)
{
	for (size_t i = 0; i < p->nmodules; i++)
		if (strcmp(p->modules[i]->module, module) == 0)
			return p->modules[i];
	return NULL;
}

/* The regions of a source module s as regions of d, interned when a record
 * first uses them (so d's regions come in the order of first use, as if
 * each record were added by name). */
struct region_xlat {
	const ipp_prof_module *s;
	ipp_prof_module *d;
	uint32_t *to;		/* per region of s: d's, or UINT32_MAX */
};

static uint32_t xlat(struct region_xlat *x, uint32_t region)
{
	if (x->to[region] == UINT32_MAX)
		x->to[region] = intern_region(x->d, x->s->regions[region]);
	return x->to[region];
}

int ipp_profile_merge(ipp_profile *dst, const ipp_profile *src, char *err, size_t errlen)
{
	char h1[17], h2[17];
	/* Check everything first, so that a failed merge leaves dst unchanged. */
	for (size_t i = 0; i < src->nmodules; i++) {
		const ipp_prof_module *s = src->modules[i];
		const ipp_prof_module *d = ipp_profile_find(dst, s->module, s->checksum);
		const ipp_prof_module *other = d ? NULL : find_by_name(dst, s->module);
		if (other) {
			ipp_seterr(err, errlen, "cannot merge profiles of different builds of %s "
				   "(checksums %s and %s)", s->module,
				   ipp_hex64(other->checksum, h1), ipp_hex64(s->checksum, h2));
			return -1;
		}
		if (d && d->mode != s->mode) {
			ipp_seterr(err, errlen, "cannot merge profiles of %s (checksum %s) "
				   "recorded in modes %s and %s", s->module,
				   ipp_hex64(s->checksum, h1), ipp_mode_name(d->mode),
				   ipp_mode_name(s->mode));
			return -1;
		}
	}
	for (size_t i = 0; i < src->nmodules; i++) {
		const ipp_prof_module *s = src->modules[i];
		ipp_prof_module *d = ipp_profile_find(dst, s->module, s->checksum);
		if (!d)
			d = ipp_profile_add_module(dst, s->module, s->checksum, s->mode);
		struct region_xlat x = { s, d, ipp_xmalloc((s->nregions + 1) * sizeof(*x.to)) };
		d->runs = sat_add(d->runs, s->runs);
		for (size_t k = 0; k < s->nregions; k++)
			x.to[k] = UINT32_MAX;
		reserve_paths(d, s->npaths);
		for (size_t k = 0; k < s->npaths; k++)
			add_path(d, xlat(&x, s->paths[k].region), &s->paths[k].num,
				 s->paths[k].count);
		for (size_t k = 0; k < s->npartials; k++) {
			const ipp_prof_partial *q = &s->partials[k];
			add_stop(d, RK_PARTIAL, xlat(&x, q->region), &q->num, q->stack, q->nstack,
				 q->count);
		}
		for (size_t k = 0; k < s->nforked; k++) {
			const ipp_prof_partial *q = &s->forked[k];
			add_stop(d, RK_FORKED, xlat(&x, q->region), &q->num, q->stack, q->nstack,
				 q->count);
		}
		free(x.to);
		for (size_t k = 0; k < s->nicalls; k++) {
			const ipp_prof_icall *c = &s->icalls[k];
			ipp_prof_add_icall(d, c->site, c->callee_module, c->callee_checksum,
					   c->callee_region, c->count);
		}
	}
	return 0;
}

/* ================================================================== */
/* Writing                                                             */
/* ================================================================== */

/* Records are written in canonical order: region name, number, stack.
 * sort_records sorts 16-byte keys (region rank, number, record index)
 * with integer comparisons only, then puts the rare runs of keys that
 * these do not order -- numbers past 2^64, and stop records of one number
 * -- in order with the full comparison. */
struct sort_key {
	uint64_t num;		/* the number if it fits 64 bits, else 0 */
	uint32_t rank;		/* 2 x the region's rank by name, + 1 if big */
	uint32_t index;
};

static int sort_key_cmp(const void *x, const void *y)
{
	const struct sort_key *a = x, *b = y;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->num != b->num)
		return a->num < b->num ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* A record as the full comparison sees it (region equal). */
struct full_key {
	const ipp_pnum *num;
	const ipp_id *stack;
	size_t nstack;
	uint32_t index;
};

static int full_key_cmp(const void *x, const void *y)
{
	const struct full_key *a = x, *b = y;
	int c = ipp_pnum_cmp(a->num, b->num);
	if (c)
		return c;
	for (size_t i = 0; i < a->nstack && i < b->nstack; i++)
		if (a->stack[i] != b->stack[i])
			return a->stack[i] < b->stack[i] ? -1 : 1;
	return a->nstack < b->nstack ? -1 : a->nstack > b->nstack;
}

struct name_index {
	const char *name;
	uint32_t index;
};

static int name_index_cmp(const void *x, const void *y)
{
	return strcmp(((const struct name_index *)x)->name, ((const struct name_index *)y)->name);
}

/* The rank of each region of m in the order of their names. */
static uint32_t *region_ranks(const ipp_prof_module *m)
{
	struct name_index *v = ipp_xmalloc((m->nregions + 1) * sizeof(*v));
	uint32_t *rank = ipp_xmalloc((m->nregions + 1) * sizeof(*rank));
	for (uint32_t i = 0; i < m->nregions; i++)
		v[i] = (struct name_index){ m->regions[i], i };
	qsort(v, m->nregions, sizeof(*v), name_index_cmp);
	for (uint32_t i = 0; i < m->nregions; i++)
		rank[v[i].index] = i;
	free(v);
	return rank;
}

/* The indices of m's records of kind (not RK_ICALL) in canonical order
 * (malloc'd, *n of them). */
static uint32_t *sort_records(const ipp_prof_module *m, enum rkind kind, size_t *n)
{
	uint32_t *rank = region_ranks(m), *out;
	struct sort_key *v;
	*n = kind == RK_PARTIAL ? m->npartials : kind == RK_FORKED ? m->nforked : m->npaths;
	v = ipp_xmalloc((*n ? *n : 1) * sizeof(*v));
	for (size_t i = 0; i < *n; i++) {
		struct rkey k = key_of(m, kind, i);
		v[i].num = k.num->u;
		v[i].rank = 2 * rank[k.region] + (k.num->big != NULL);
		v[i].index = (uint32_t)i;
	}
	qsort(v, *n, sizeof(*v), sort_key_cmp);
	for (size_t i = 0, j; i < *n; i = j) {
		for (j = i + 1; j < *n && v[j].rank == v[i].rank && v[j].num == v[i].num; j++)
			;
		if (j - i > 1) {	/* a run the integers do not order */
			struct full_key *f = ipp_xmalloc((j - i) * sizeof(*f));
			for (size_t k = i; k < j; k++) {
				struct rkey rk = key_of(m, kind, v[k].index);
				f[k - i] = (struct full_key){ rk.num, rk.stack, rk.nstack, v[k].index };
			}
			qsort(f, j - i, sizeof(*f), full_key_cmp);
			for (size_t k = i; k < j; k++)
				v[k].index = f[k - i].index;
			free(f);
		}
	}
	out = ipp_xmalloc((*n ? *n : 1) * sizeof(*out));
	for (size_t i = 0; i < *n; i++)
		out[i] = v[i].index;
	free(v);
	free(rank);
	return out;
}

/* Indirect calls in canonical order: site, callee module, checksum,
 * callee region. */
static int icall_cmp(const void *x, const void *y)
{
	const ipp_prof_icall *a = *(const ipp_prof_icall *const *)x;
	const ipp_prof_icall *b = *(const ipp_prof_icall *const *)y;
	int c;
	if (a->site != b->site)
		return a->site < b->site ? -1 : 1;
	if ((c = strcmp(a->callee_module, b->callee_module)) != 0)
		return c;
	if (a->callee_checksum != b->callee_checksum)
		return a->callee_checksum < b->callee_checksum ? -1 : 1;
	return strcmp(a->callee_region, b->callee_region);
}

const ipp_prof_icall **ipp_prof_icalls_sorted(const ipp_prof_module *m)
{
	const ipp_prof_icall **v = ipp_xmalloc((m->nicalls ? m->nicalls : 1) * sizeof(*v));
	for (size_t i = 0; i < m->nicalls; i++)
		v[i] = &m->icalls[i];
	qsort(v, m->nicalls, sizeof(*v), icall_cmp);
	return v;
}

/* "indirect-calls:" and its records; nothing if there are none (the key
 * is optional: profiles without indirect calls look as they always did). */
static void write_icalls(FILE *out, const ipp_prof_module *m)
{
	const ipp_prof_icall **v;
	char hex[17];
	if (!m->nicalls)
		return;
	v = ipp_prof_icalls_sorted(m);
	fputs("  indirect-calls:\n", out);
	for (size_t i = 0; i < m->nicalls; i++) {
		fprintf(out, "  - [%" PRId32 ", ", v[i]->site);
		ipp_yw_str(out, v[i]->callee_module);
		fprintf(out, ", \"%s\", ", ipp_hex64(v[i]->callee_checksum, hex));
		ipp_yw_str(out, v[i]->callee_region);
		fprintf(out, ", %" PRIu64 "]\n", v[i]->count);
	}
	free(v);
}

/* The records of a stop-stack list (partial paths or forked prefixes),
 * one "  - [region, number, [stack], count]" line each. */
static void write_pnum(FILE *out, const ipp_pnum *n)
{
	if (n->big)
		mpz_out_str(out, 10, n->big);
	else
		fprintf(out, "%" PRIu64, n->u);
}

static void write_stop_records(FILE *out, const ipp_prof_module *m, enum rkind kind)
{
	size_t n;
	uint32_t *v = sort_records(m, kind, &n);
	const ipp_prof_partial *recs = kind == RK_FORKED ? m->forked : m->partials;
	for (size_t i = 0; i < n; i++) {
		const ipp_prof_partial *r = &recs[v[i]];
		fputs("  - [", out);
		ipp_yw_str(out, m->regions[r->region]);
		fputs(", ", out);
		write_pnum(out, &r->num);
		fputs(", [", out);
		for (size_t k = 0; k < r->nstack; k++)
			fprintf(out, "%s%" PRId32, k ? ", " : "", r->stack[k]);
		fprintf(out, "], %" PRIu64 "]\n", r->count);
	}
	free(v);
}

static void write_module(FILE *out, const ipp_prof_module *m)
{
	uint32_t *v;
	size_t n;
	char hex[17];

	fputs("- module: ", out);
	ipp_yw_str(out, m->module);
	fprintf(out, "\n  checksum: \"%s\"\n  mode: %s\n  runs: %" PRIu64 "\n",
		ipp_hex64(m->checksum, hex), ipp_mode_name(m->mode), m->runs);

	v = sort_records(m, RK_PATH, &n);
	fputs(n ? "  paths:\n" : "  paths: []\n", out);
	for (size_t i = 0; i < n; i++) {
		const ipp_prof_path *r = &m->paths[v[i]];
		fputs("  - [", out);
		ipp_yw_str(out, m->regions[r->region]);
		fputs(", ", out);
		write_pnum(out, &r->num);
		fprintf(out, ", %" PRIu64 "]\n", r->count);
	}
	free(v);

	fputs(m->npartials ? "  partial:\n" : "  partial: []\n", out);
	write_stop_records(out, m, RK_PARTIAL);
	/* optional, as indirect-calls: profiles without forks are unchanged */
	if (m->nforked) {
		fputs("  forked:\n", out);
		write_stop_records(out, m, RK_FORKED);
	}
	write_icalls(out, m);
}

/* The names of p's modules are non-empty UTF-8, stop stacks non-empty,
 * sites non-negative: what both writers require. */
static int check_writable(const ipp_profile *p, char *err, size_t errlen)
{
	for (size_t i = 0; i < p->nmodules; i++) {
		const ipp_prof_module *m = p->modules[i];
		bool ok = ipp_yw_utf8_ok(m->module) && *m->module;
		for (size_t k = 0; ok && k < m->nregions; k++)
			ok = ipp_yw_utf8_ok(m->regions[k]) && *m->regions[k];
		if (!ok) {
			ipp_seterr(err, errlen, "profile: module %zu has an empty name or a name "
				   "that is not valid UTF-8", i);
			return -1;
		}
		for (size_t k = 0; k < m->npartials + m->nforked; k++)
			if (!(k < m->npartials ? m->partials[k] : m->forked[k - m->npartials]).nstack) {
				ipp_seterr(err, errlen, "profile: a partial path or forked prefix of "
					   "%s has an empty stop stack", m->module);
				return -1;
			}
		for (size_t k = 0; k < m->nicalls; k++) {
			const ipp_prof_icall *c = &m->icalls[k];
			if (c->site < 0 || !*c->callee_module || !*c->callee_region ||
			    !ipp_yw_utf8_ok(c->callee_module) || !ipp_yw_utf8_ok(c->callee_region)) {
				ipp_seterr(err, errlen, "profile: an indirect call of %s has a "
					   "negative site or an empty or invalid callee name",
					   m->module);
				return -1;
			}
		}
	}
	return 0;
}

int ipp_profile_write_text(FILE *out, const ipp_profile *p, char *err, size_t errlen)
{
	FILE *body;
	char *text = NULL, hex[17];
	size_t len = 0;

	if (check_writable(p, err, errlen) < 0)
		return -1;
	/* the text in memory first, for its digest (docs/FORMAT.md) */
	body = open_memstream(&text, &len);
	if (!body) {
		ipp_seterr(err, errlen, "profile: out of memory");
		return -1;
	}
	fprintf(body, "%%YAML 1.1\n---\nipp-profile: %d\n", IPP_PROFILE_VERSION);
	fputs(p->nmodules ? "modules:\n" : "modules: []\n", body);
	for (size_t i = 0; i < p->nmodules; i++)
		write_module(body, p->modules[i]);
	if (fclose(body) != 0) {
		free(text);
		ipp_seterr(err, errlen, "profile: out of memory");
		return -1;
	}
	fwrite(text, 1, len, out);
	fprintf(out, "digest: \"%s\"\n...\n", ipp_hex64(ipp_profile_digest(text, len), hex));
	free(text);
	if (fflush(out) != 0 || ferror(out)) {
		ipp_seterr(err, errlen, "profile: write error: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static ipp_profile *read_text(const char *buf, size_t len, const char *name, char *err,
			      size_t errlen);

/* The binary profile (runtime/ipp_profile.h): the layout the runtime
 * writes, through the same writer.  A module's name table is its name,
 * its regions (region i is name 1 + i), then the callee unit and region of
 * each indirect call; records in canonical order. */

static int file_sink(void *ctx, const void *p, size_t n)
{
	return fwrite(p, 1, n, ctx) == n ? 0 : errno ? errno : EIO;
}

struct bin_names {
	const ipp_prof_module *m;
	const ipp_prof_icall **icalls;	/* sorted */
};

static const char *bin_name(void *ctx, uint32_t i)
{
	const struct bin_names *b = ctx;
	if (i == 0)
		return b->m->module;
	if (i <= b->m->nregions)
		return b->m->regions[i - 1];
	i -= (uint32_t)b->m->nregions + 1;
	return i % 2 ? b->icalls[i / 2]->callee_region : b->icalls[i / 2]->callee_module;
}

static uint64_t bin_names_size(const struct bin_names *b, uint32_t *nnames)
{
	uint64_t tlen = 0;
	*nnames = (uint32_t)(1 + b->m->nregions + 2 * b->m->nicalls);
	for (uint32_t i = 0; i < *nnames; i++)
		tlen += strlen(bin_name((void *)b, i)) + 1;
	return ipp_pf_names_size(*nnames, tlen);
}

/* Every number of m fits 64 bits (the ABI's limit on a region's paths). */
static int bin_numbers_fit(const ipp_prof_module *m, char *err, size_t errlen)
{
	for (int kind = 0; kind < RK_COUNT; kind++) {
		size_t n = kind == RK_PATH ? m->npaths : kind == RK_PARTIAL ? m->npartials :
			   kind == RK_FORKED ? m->nforked : 0;
		for (size_t i = 0; i < n; i++) {
			struct rkey k = key_of(m, (enum rkind)kind, i);
			if (k.num->big) {
				/* the names cut short, so that a long one cannot
				 * push out what the message says */
				ipp_seterr(err, errlen, "profile: %.120s: path number of region "
					   "%.120s does not fit in 64 bits (no region has more "
					   "than 2^64 - 1 paths)", m->module, m->regions[k.region]);
				return -1;
			}
		}
	}
	return 0;
}

static uint64_t stop_bytes(const ipp_prof_partial *v, size_t n)
{
	uint64_t b = 0;
	for (size_t i = 0; i < n; i++)
		b += ipp_pf_stop_size(v[i].nstack);
	return b;
}

static void bin_stops(struct ipp_pf_out *o, const ipp_prof_module *m, enum rkind kind)
{
	size_t n;
	uint32_t *v = sort_records(m, kind, &n);
	const ipp_prof_partial *recs = kind == RK_FORKED ? m->forked : m->partials;
	for (size_t i = 0; i < n; i++) {
		const ipp_prof_partial *r = &recs[v[i]];
		ipp_pf_put_stop(o, 1 + r->region, r->num.u, r->count, r->stack,
				(uint32_t)r->nstack);
	}
	free(v);
}

static uint64_t bin_pgroups(const ipp_prof_module *m);
static uint64_t bin_module_size(const ipp_prof_module *m);

static void bin_module(struct ipp_pf_out *o, const ipp_prof_module *m)
{
	struct bin_names b = { m, ipp_prof_icalls_sorted(m) };
	struct ipp_pf_module h;
	uint32_t *v;
	size_t n;

	memset(&h, 0, sizeof(h));
	h.checksum = m->checksum;
	h.runs = m->runs;
	h.mode = (uint32_t)m->mode;
	h.names_size = bin_names_size(&b, &h.nnames);
	h.npgroups = bin_pgroups(m);
	h.npaths = m->npaths;
	h.npartials = m->npartials;
	h.nforked = m->nforked;
	h.nicalls = m->nicalls;
	h.size = bin_module_size(m);
	ipp_pf_put(o, &h, sizeof(h));
	ipp_pf_put_names(o, h.nnames, bin_name, &b);
	/* sorted by region, so a region's paths are one group */
	v = sort_records(m, RK_PATH, &n);
	for (size_t i = 0, j; i < n; i = j) {
		uint32_t region = m->paths[v[i]].region;
		for (j = i + 1; j < n && m->paths[v[j]].region == region; j++)
			;
		ipp_pf_put_pgroup(o, 1 + region, j - i);
		for (size_t k = i; k < j; k++) {
			const ipp_prof_path *r = &m->paths[v[k]];
			struct ipp_pf_path rec = { r->num.u, r->count };
			ipp_pf_put(o, &rec, sizeof(rec));
		}
	}
	free(v);
	bin_stops(o, m, RK_PARTIAL);
	bin_stops(o, m, RK_FORKED);
	for (size_t i = 0; i < m->nicalls; i++) {
		uint32_t base = (uint32_t)(1 + m->nregions + 2 * i);
		struct ipp_pf_icall c = { b.icalls[i]->site, base, b.icalls[i]->callee_checksum,
					  base + 1, 0, b.icalls[i]->count };
		ipp_pf_put(o, &c, sizeof(c));
	}
	free(b.icalls);
}

/* The groups of paths: one per region that has paths. */
static uint64_t bin_pgroups(const ipp_prof_module *m)
{
	uint64_t n = 0;
	bool *seen = ipp_xcalloc(m->nregions + 1, sizeof(*seen));
	for (size_t i = 0; i < m->npaths; i++)
		if (!seen[m->paths[i].region]) {
			seen[m->paths[i].region] = true;
			n++;
		}
	free(seen);
	return n;
}

static uint64_t bin_module_size(const ipp_prof_module *m)
{
	uint32_t nnames;
	uint64_t tlen = 0;
	/* the names' text without sorting the indirect calls */
	nnames = (uint32_t)(1 + m->nregions + 2 * m->nicalls);
	tlen += strlen(m->module) + 1;
	for (size_t i = 0; i < m->nregions; i++)
		tlen += strlen(m->regions[i]) + 1;
	for (size_t i = 0; i < m->nicalls; i++)
		tlen += strlen(m->icalls[i].callee_module) + strlen(m->icalls[i].callee_region) + 2;
	return ipp_pf_module_size(ipp_pf_names_size(nnames, tlen), bin_pgroups(m), m->npaths,
				  stop_bytes(m->partials, m->npartials) +
				  stop_bytes(m->forked, m->nforked), m->nicalls);
}

int ipp_profile_write(FILE *out, const ipp_profile *p, char *err, size_t errlen)
{
	struct ipp_pf_out *o;
	uint64_t bytes = 0;

	if (check_writable(p, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < p->nmodules; i++) {
		if (bin_numbers_fit(p->modules[i], err, errlen) < 0)
			return -1;
		bytes += bin_module_size(p->modules[i]);
	}
	o = ipp_xmalloc(sizeof(*o));
	errno = 0;
	ipp_pf_out_init(o, file_sink, out);
	ipp_pf_put_header(o, (uint32_t)p->nmodules, bytes);
	for (size_t i = 0; i < p->nmodules; i++)
		bin_module(o, p->modules[i]);
	if (ipp_pf_put_digest(o) < 0 || fflush(out) != 0 || ferror(out)) {
		ipp_seterr(err, errlen, "profile: write error: %s",
			   strerror(o->err ? o->err : errno ? errno : EIO));
		free(o);
		return -1;
	}
	free(o);
	return 0;
}

/* Reads the binary profile buf[0, len), 8-byte aligned. */
static ipp_profile *read_binary(const char *buf, size_t len, const char *name, char *err,
				size_t errlen)
{
	struct ipp_pf_reader r;
	struct ipp_pf_mview v;
	ipp_profile *p;

	if (ipp_pf_open(&r, buf, len, name, err, errlen) < 0)
		return NULL;
	p = ipp_profile_new();
	while (ipp_pf_next(&r, &v)) {
		const struct ipp_pf_module *h = v.h;
		ipp_prof_module *m = ipp_profile_add_module(p, ipp_pf_name(&v, 0), h->checksum,
							    (enum ipp_mode)h->mode);
		const unsigned char *s;
		m->runs = h->runs;
		/* every path as it is (repeated keys are folded by read_done) */
		reserve_path_array(m, (size_t)h->npaths);
		s = v.pgroups;
		for (uint64_t i = 0; i < h->npgroups; i++) {
			const struct ipp_pf_path *q;
			const struct ipp_pf_pgroup *g = ipp_pf_pgroup_next(&s, &q);
			uint32_t region = intern_region(m, ipp_pf_name(&v, g->name));
			for (uint64_t j = 0; j < g->n; j++) {
				ipp_prof_path *r = &m->paths[m->npaths++];
				r->region = region;
				r->num = (ipp_pnum){ q[j].num, NULL };
				r->count = q[j].count;
			}
		}
		/* partial paths, then forked prefixes: both stop records */
		for (int forked = 0; forked < 2; forked++) {
			uint64_t n = forked ? h->nforked : h->npartials;
			s = forked ? v.forked : v.partials;
			for (uint64_t i = 0; i < n; i++) {
				const struct ipp_pf_stop *st = ipp_pf_stop_next(&s);
				ipp_pnum num = { st->num, NULL };
				add_stop(m, forked ? RK_FORKED : RK_PARTIAL,
					 intern_region(m, ipp_pf_name(&v, st->name)), &num,
					 ipp_pf_stack(st), st->nstack, st->count);
			}
		}
		for (uint64_t i = 0; i < h->nicalls; i++) {
			const struct ipp_pf_icall *c = &v.icalls[i];
			ipp_prof_add_icall(m, c->site, ipp_pf_name(&v, c->cmod), c->ccs,
					   ipp_pf_name(&v, c->cregion), c->count);
		}
	}
	return p;
}

/* ================================================================== */
/* Reading                                                             */
/* ================================================================== */

/* The record lists follow the order of enum rkind (PK_PATHS + kind). */
enum { PK_MODULE, PK_CHECKSUM, PK_MODE, PK_RUNS, PK_PATHS, PK_PARTIAL, PK_ICALLS, PK_FORKED,
       PK_COUNT };
static const char *const module_key_names[PK_COUNT] = {
	"module", "checksum", "mode", "runs", "paths", "partial", "indirect-calls", "forked"
};

/* [region, number, count] */
static int read_path(ipp_yreader *r, ipp_prof_module *m, mpz_t num)
{
	const ipp_yitem *it;
	const char *region;
	ipp_pnum pn;
	uint64_t count;
	size_t n, i;
	bool created;
	if (ipp_yr_tuple(r, "a path record", &n) < 0)
		return -1;
	if (ipp_yr_arity(r, n, 3, "a path record [region, number, count]") < 0)
		return -1;
	it = r->items;
	if (ipp_yr_nonempty_str(r, &it[0], "region name", &region) < 0 ||
	    ipp_yr_mpz(r, &it[1], "path number", num) < 0 ||
	    ipp_yr_u64(r, &it[2], "count", &count) < 0)
		return -1;
	ipp_pnum_set(&pn, num);
	i = path_get(m, intern_region(m, region), &pn, &created);
	ipp_pnum_clear(&pn);
	if (!created)
		return ipp_yr_fail(r, r->tline, r->tcol, "duplicate record for path %.60s of "
				   "region %.60s", ipp_yr_text(r, &it[1]), region);
	m->paths[i].count = count;
	return 0;
}

/* [region, number, [stack...], count]: a partial path or (kind
 * RK_FORKED) a forked prefix */
static int read_partial(ipp_yreader *r, ipp_prof_module *m, enum rkind kind, mpz_t num)
{
	const ipp_yitem *it, *st;
	const char *region;
	ipp_pnum pn;
	ipp_id *stack;
	uint64_t count;
	size_t n, i;
	bool created;
	const char *what = kind == RK_FORKED ? "a forked-prefix record" : "a partial-path record";
	char full[80];
	snprintf(full, sizeof(full), "%s [region, number, [stack], count]", what);
	if (ipp_yr_tuple(r, what, &n) < 0)
		return -1;
	if (ipp_yr_arity(r, n, 4, full) < 0)
		return -1;
	it = r->items;
	st = &it[2];
	if (ipp_yr_nonempty_str(r, &it[0], "region name", &region) < 0 ||
	    ipp_yr_mpz(r, &it[1], "path number", num) < 0 ||
	    ipp_yr_u64(r, &it[3], "count", &count) < 0)
		return -1;
	if (st->type != IPP_YI_LIST || st->n == 0)
		return ipp_yr_fail(r, st->line, st->col, "stop stack: expected a non-empty list "
				   "of vertex ids");
	stack = ipp_xmalloc(st->n * sizeof(ipp_id));
	for (size_t k = 0; k < st->n; k++) {
		int64_t v;
		if (ipp_yr_int(r, &r->sub[st->first + k], "stop stack vertex", 0, INT32_MAX - 1,
			       &v) < 0) {
			free(stack);
			return -1;
		}
		stack[k] = (ipp_id)v;
	}
	ipp_pnum_set(&pn, num);
	i = partial_get(m, kind, intern_region(m, region), &pn, stack, st->n, &created);
	ipp_pnum_clear(&pn);
	free(stack);
	if (!created)
		return ipp_yr_fail(r, r->tline, r->tcol, "duplicate record for %s %.60s "
				   "of region %.60s", kind == RK_FORKED ? "forked prefix" :
				   "partial path", ipp_yr_text(r, &it[1]), region);
	(*plist_of(m, kind).v)[i].count = count;
	return 0;
}

/* [site, callee module, callee checksum, callee region, count] */
static int read_icall(ipp_yreader *r, ipp_prof_module *m)
{
	const ipp_yitem *it;
	ipp_prof_icall key;
	const char *cmod, *creg;
	int64_t site;
	size_t n, i;
	bool created;
	if (ipp_yr_tuple(r, "an indirect-call record", &n) < 0)
		return -1;
	if (ipp_yr_arity(r, n, 5, "an indirect-call record [site, callee module, checksum, "
			 "callee region, count]") < 0)
		return -1;
	it = r->items;
	if (ipp_yr_int(r, &it[0], "call site", 0, INT32_MAX - 1, &site) < 0 ||
	    ipp_yr_str(r, &it[1], "callee module", &cmod) < 0 ||
	    ipp_yr_hex64(r, &it[2], "callee checksum", &key.callee_checksum) < 0 ||
	    ipp_yr_str(r, &it[3], "callee region", &creg) < 0 ||
	    ipp_yr_u64(r, &it[4], "count", &key.count) < 0)
		return -1;
	if (!*cmod)
		return ipp_yr_fail(r, it[1].line, it[1].col, "callee module: must not be empty");
	if (!*creg)
		return ipp_yr_fail(r, it[3].line, it[3].col, "callee region: must not be empty");
	key.site = (ipp_id)site;
	key.callee_module = (char *)cmod;
	key.callee_region = (char *)creg;
	i = icall_get(m, &key, &created);
	if (!created)
		return ipp_yr_fail(r, r->tline, r->tcol, "duplicate record for the indirect call "
				   "at vertex %" PRId64 " to %.60s (module %.60s)", site, creg, cmod);
	m->icalls[i].count = key.count;
	return 0;
}

static int read_record_list(ipp_yreader *r, ipp_prof_module *m, enum rkind kind)
{
	static const char *const what[RK_COUNT] = { "a list of path records",
		"a list of partial-path records", "a list of indirect-call records",
		"a list of forked-prefix records" };
	mpz_t num;
	int more, rc = ipp_yr_begin_list(r, what[kind]);
	mpz_init(num);
	while (rc > 0 && (more = ipp_yr_more(r)) != 0)
		if (more < 0 || (kind == RK_ICALL ? read_icall(r, m) : kind == RK_PATH ?
				 read_path(r, m, num) : read_partial(r, m, kind, num)) < 0) {
			rc = -1;
			break;
		}
	mpz_clear(num);
	return rc < 0 ? -1 : 0;
}

static int read_module_key(ipp_yreader *r, ipp_prof_module *m, int k)
{
	const ipp_yitem *it;
	const char *s;
	if (k >= PK_PATHS)
		return read_record_list(r, m, (enum rkind)(k - PK_PATHS));
	if (ipp_yr_value(r, module_key_names[k]) < 0)
		return -1;
	it = &r->items[0];
	switch (k) {
	case PK_MODULE:
		if (ipp_yr_nonempty_str(r, it, "module", &s) < 0)
			return -1;
		m->module = ipp_xstrdup(s);
		return 0;
	case PK_CHECKSUM:
		return ipp_yr_hex64(r, it, "checksum", &m->checksum);
	case PK_MODE:
		return ipp_yr_mode(r, it, "mode", &m->mode);
	default:
		return ipp_yr_u64(r, it, "runs", &m->runs);
	}
}

/* One "- module: ..." mapping; appended to p on success. */
static int read_module(ipp_yreader *r, ipp_profile *p)
{
	ipp_prof_module *m = module_new(NULL, 0, IPP_MODE_CONTEXT);
	bool seen[PK_COUNT] = { false };
	char h[17];
	int k, line, col, rc, mline, mcol;

	mline = ipp_yr_line(r);
	mcol = ipp_yr_col(r);
	if (ipp_yr_expect(r, YAML_MAPPING_START_EVENT, "a module mapping (module: ...)") < 0)
		goto fail;
	while ((rc = ipp_yr_known_key(r, module_key_names, PK_COUNT, "a profile module", seen,
				      &k, &line, &col)) > 0)
		if (read_module_key(r, m, k) < 0)
			goto fail;
	if (rc < 0)
		goto fail;
	for (k = 0; k < PK_PATHS; k++)
		if (!seen[k]) {
			ipp_yr_fail(r, mline, mcol, "profile module lacks the key '%s'",
				    module_key_names[k]);
			goto fail;
		}
	if (ipp_profile_find(p, m->module, m->checksum)) {
		ipp_yr_fail(r, mline, mcol, "module %.60s (checksum %s) is listed twice",
			    m->module, ipp_hex64(m->checksum, h));
		goto fail;
	}
	append_module(p, m);
	return 0;
fail:
	module_free(m);
	return -1;
}

/* The top-level keys.  digest_line: the line of the digest, already
 * checked against the text (ipp_profile_digest_check), or 0. */
static int read_profile_keys(ipp_yreader *r, ipp_profile *p, int dline, size_t digest_line)
{
	static const char *const names[] = { "modules", "digest" };
	int k, line, col, rc, more;
	bool seen[2] = { false, false };
	uint64_t d;
	while ((rc = ipp_yr_known_key(r, names, 2, "a profile", seen, &k, &line, &col)) > 0) {
		if (k == 1) {
			if ((size_t)line != digest_line)
				return ipp_yr_fail(r, line, col, "the key 'digest' must be the "
						   "last line before '...', written as 'digest: "
						   "\"<16 hex digits>\"'");
			if (ipp_yr_value(r, "digest") < 0 ||
			    ipp_yr_hex64(r, &r->items[0], "digest", &d) < 0)
				return -1;
			continue;
		}
		rc = ipp_yr_begin_list(r, "a list of modules");
		while (rc > 0 && (more = ipp_yr_more(r)) != 0)
			if (more < 0 || read_module(r, p) < 0)
				return -1;
		if (rc < 0)
			return -1;
	}
	if (rc == 0 && !seen[0])
		return ipp_yr_fail(r, dline, 0, "profile lacks the key 'modules'");
	return rc;
}

/* What ipp_profile_read_buffer reads, before read_done. */
static ipp_profile *read_any(const char *buf, size_t len, const char *name, char *err,
			     size_t errlen)
{
	if (len >= IPP_PF_MAGIC_LEN && memcmp(buf, IPP_PF_MAGIC, IPP_PF_MAGIC_LEN) == 0) {
		ipp_profile *p;
		char *copy;
		if ((uintptr_t)buf % 8 == 0)
			return read_binary(buf, len, name, err, errlen);
		copy = ipp_xmalloc(len);	/* the reader wants 8-byte alignment */
		memcpy(copy, buf, len);
		p = read_binary(copy, len, name, err, errlen);
		free(copy);
		return p;
	}
	return read_text(buf, len, name, err, errlen);
}

/* Finishes a profile read_any read (once the input is freed): repeated
 * path keys folded, the record index dropped. */
static ipp_profile *read_done(ipp_profile *p)
{
	for (size_t i = 0; p && i < p->nmodules; i++)
		fold_paths(p->modules[i]);
	if (p)
		ipp_profile_trim(p);
	return p;
}

ipp_profile *ipp_profile_read_buffer(const char *buf, size_t len, const char *name,
				     char *err, size_t errlen)
{
	return read_done(read_any(buf, len, name, err, errlen));
}

/* The text form (version 1, what ipp_profile_write_text prints). */
static ipp_profile *read_text(const char *buf, size_t len, const char *name, char *err,
			      size_t errlen)
{
	ipp_yreader r;
	ipp_profile *p;
	const yaml_event_t *ev;
	size_t digest_line;
	int dline;

	/* the digest first: an edited file is refused for that, whatever
	 * else is wrong with it */
	if (ipp_profile_digest_check(buf, len, name, &digest_line, err, errlen) < 0)
		return NULL;
	p = ipp_profile_new();
	ipp_yr_init(&r, buf, len, name, err, errlen);
	if (ipp_yr_expect(&r, YAML_STREAM_START_EVENT, "the start of the input") < 0)
		goto fail;
	ev = ipp_yr_peek(&r);
	if (!ev)
		goto fail;
	if (ev->type == YAML_STREAM_END_EVENT) {
		ipp_yr_fail(&r, 0, 0, "no profile document (the input is empty)");
		goto fail;
	}
	if (ipp_yr_begin_document(&r, "ipp-profile", IPP_PROFILE_VERSION, "a profile", "profile",
				  &dline) < 0)
		goto fail;
	if (read_profile_keys(&r, p, dline, digest_line) < 0 || ipp_yr_end_document(&r) < 0 ||
	    ipp_yr_expect(&r, YAML_STREAM_END_EVENT, "the end of the input (a profile is one "
			  "document)") < 0)
		goto fail;
	ipp_yr_fini(&r);
	return p;
fail:
	ipp_yr_fini(&r);
	ipp_profile_free(p);
	return NULL;
}

ipp_profile *ipp_profile_read_file(const char *path, char *err, size_t errlen)
{
	size_t len;
	char *buf = ipp_read_whole_file(path, &len, err, errlen);
	ipp_profile *p;
	if (!buf)
		return NULL;
	p = read_any(buf, len, path, err, errlen);
	free(buf);
	return read_done(p);
}

/* ================================================================== */
/* Checking against a map                                              */
/* ================================================================== */

static void different_build(const char *profname, const char *module, uint64_t pcs,
			    uint64_t mcs, char *err, size_t errlen)
{
	char h1[17], h2[17];
	ipp_seterr(err, errlen, "profile %s was recorded from a different build of %s (profile "
		   "checksum %s, binary has %s)", profname, module, ipp_hex64(pcs, h1),
		   ipp_hex64(mcs, h2));
}

int ipp_profile_match_unit(const ipp_profile *p, const char *profname, const char *module,
			   uint64_t checksum, const ipp_prof_module **out, char *err,
			   size_t errlen)
{
	const ipp_prof_module *other;
	*out = ipp_profile_find(p, module, checksum);
	if (*out)
		return 0;
	other = find_by_name(p, module);
	if (other) {
		different_build(profname, module, other->checksum, checksum, err, errlen);
		return -1;
	}
	return 0;
}

int ipp_profile_match(const ipp_profile *p, const char *profname, const ipp_map *map,
		      const ipp_prof_module **out, char *err, size_t errlen)
{
	return ipp_profile_match_unit(p, profname, map->module, map->checksum, out, err, errlen);
}

bool ipp_prof_module_has_records(const ipp_prof_module *pm)
{
	return pm->npaths + pm->npartials + pm->nicalls > 0;
}

/* The G*fin region of each region of a profile module, looked up when a
 * record first needs it (so the first record naming a region the map does
 * not have is the one reported). */
struct region_map {
	ipp_id *rid;		/* per profile region; IPP_NONE - 1 until looked up */
};

static int check_number(const ipp_prof_module *pm, const char *profname, const ipp_fin *fin,
			struct region_map *rm, uint32_t region, const ipp_pnum *num,
			char *err, size_t errlen)
{
	const char *name = pm->regions[region];
	ipp_id *rid = &rm->rid[region];
	if (*rid == IPP_NONE - 1)
		*rid = ipp_fin_region_find(fin, name);
	if (*rid == IPP_NONE) {
		ipp_seterr(err, errlen, "profile %s: %s: region '%s' is not in the map", profname,
			   pm->module, name);
		return -1;
	}
	if (!ipp_fin_region_has(fin, *rid, num)) {
		char *n = ipp_pnum_str(num), *t;
		mpz_t total;
		mpz_init(total);
		ipp_fin_region_total(fin, *rid, total);
		t = mpz_get_str(NULL, 10, total);
		ipp_seterr(err, errlen, "profile %s: %s: path number %.60s of region %s is out of "
			   "range (the region has %.60s paths)", profname, pm->module, n, name, t);
		free(n);
		free(t);
		mpz_clear(total);
		return -1;
	}
	return 0;
}

int ipp_profile_check(const ipp_prof_module *pm, const char *profname, const ipp_map *map,
		      const ipp_fin *fin, char *err, size_t errlen)
{
	size_t nv = ipp_fin_nvertices(fin);
	struct region_map rm;
	int rc = -1;

	if (strcmp(pm->module, map->module) != 0) {
		ipp_seterr(err, errlen, "profile %s: module %s is not the module of the map (%s)",
			   profname, pm->module, map->module);
		return -1;
	}
	if (pm->checksum != map->checksum) {
		different_build(profname, map->module, pm->checksum, map->checksum, err, errlen);
		return -1;
	}
	if (pm->mode != map->mode || ipp_fin_mode(fin) != map->mode) {
		ipp_seterr(err, errlen, "profile %s: %s was recorded in %s mode, the map says %s",
			   profname, pm->module, ipp_mode_name(pm->mode), ipp_mode_name(map->mode));
		return -1;
	}
	for (size_t i = 0; i < pm->nicalls; i++) {
		const ipp_graph *g = ipp_fin_graph(fin);
		ipp_id v = pm->icalls[i].site;
		if ((size_t)v >= ipp_graph_nvertices(g) || ipp_vertex_kind(g, v) != IPP_V_CALL ||
		    !(ipp_call_flags(g, v) & IPP_CALL_INDIRECT)) {
			ipp_seterr(err, errlen, "profile %s: %s: indirect call record at vertex "
				   "%" PRId32 ", which is not an indirect call site", profname,
				   pm->module, v);
			return -1;
		}
	}
	rm.rid = ipp_xmalloc((pm->nregions + 1) * sizeof(*rm.rid));
	for (size_t i = 0; i < pm->nregions; i++)
		rm.rid[i] = IPP_NONE - 1;
	for (size_t i = 0; i < pm->npaths; i++)
		if (check_number(pm, profname, fin, &rm, pm->paths[i].region, &pm->paths[i].num,
				 err, errlen) < 0)
			goto out;
	for (size_t i = 0; i < pm->npartials + pm->nforked; i++) {
		const ipp_prof_partial *q = i < pm->npartials ? &pm->partials[i] :
					    &pm->forked[i - pm->npartials];
		const char *what = i < pm->npartials ? "partial path" : "forked prefix";
		if (check_number(pm, profname, fin, &rm, q->region, &q->num, err, errlen) < 0)
			goto out;
		for (size_t k = 0; k < q->nstack; k++) {
			ipp_id v = q->stack[k];
			if (v < 0 || (size_t)v >= nv) {
				ipp_seterr(err, errlen, "profile %s: %s: %s in region "
					   "%s stops at vertex %" PRId32 ", which does not exist",
					   profname, pm->module, what, pm->regions[q->region], v);
				goto out;
			}
			if (k + 1 < q->nstack && ipp_fin_vkind(fin, v) != IPP_V_CALL) {
				ipp_seterr(err, errlen, "profile %s: %s: %s in region "
					   "%s: stop stack entry %" PRId32 " is not a call vertex",
					   profname, pm->module, what, pm->regions[q->region], v);
				goto out;
			}
		}
	}
	rc = 0;
out:
	free(rm.rid);
	return rc;
}
