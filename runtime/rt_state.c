/* rt_state.c -- the runtime's global and per-thread state: module
 * registration (__ipp_register), the thread-local tables and the slow path
 * of __ipp_record, one-time initialisation, and the fork child's reset.
 *
 * Registration.  A module registers on its constructor's call to
 * __ipp_register() or, if one of its paths ends before that constructor
 * ran (constructors of other units run first), on the first record of one
 * of its regions.  Under rt_lock it gets a sequence number and its regions
 * get dense global indices 1, 2, 3, ... (0 means "not registered"), and it
 * is appended to rt_mods.  The first registration also initialises the
 * runtime (rt_init_locked): profile name, atexit handler, fork handlers,
 * fatal-signal handlers.
 *
 * Threads.  A thread's first record creates its struct rt_thread and
 * pushes it on rt_threads (the only time a recording thread takes a
 * lock).  The thread then owns a vector of tables indexed by region index
 * (struct rt_vec, for dumpers) mirrored by the fast path's slot vector in
 * TLS (rt_tls_view).  A table is created on the region's first record in
 * the thread: a zeroed array of npaths counters when npaths <=
 * RT_ARRAY_MAX, else a hash table (rt_hash.c), whose current entries and
 * shift the slot mirrors, so that __ipp_record can make the first probes
 * itself.  Vectors and tables are never freed, so the counts of a thread
 * that exits stay for the dump.
 *
 * Fork.  The child must not count again what the parent counted before
 * the fork (the parent writes it): its fork handler zeroes every counter
 * and baseline, as libgcov does since GCC 11.  The handlers also hold both
 * locks across fork() so the child never inherits a lock taken by a thread
 * that does not exist in the child.
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

/* The thread-local variables of the ABI (ipp_abi.h): the thread's
 * innermost instrumented frame and the out-slot of continuing calls. */
RT_ABI_TLS struct ipp_rt_frame *__ipp_top;
RT_ABI_TLS uint64_t __ipp_path;

RT_TLS struct rt_view rt_tls_view;
RT_TLS struct rt_thread *rt_tls_self;
/* The empty table of slots without one (rt_internal.h). */
const struct ipp_rt_htab rt_htab_none = { 2, 0, RT_SHIFT_NONE,
					  { { 0, 0 }, { 0, 0 }, { 0, 0 } } };
/* rt_internal.h */
RT_TLS int rt_tls_busy;

pthread_mutex_t rt_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t rt_dump_lock = PTHREAD_MUTEX_INITIALIZER;
struct rt_modinfo **volatile rt_mods;
volatile uint32_t rt_nmods;
struct rt_thread *volatile rt_threads;

/* This thread holds rt_dump_lock (the crash path must not wait for it). */
RT_TLS int rt_tls_in_dump;

RT_HIDDEN void rt_dump_lock_acquire(void)
{
	pthread_mutex_lock(&rt_dump_lock);
	rt_tls_in_dump = 1;
}

RT_HIDDEN void rt_dump_lock_release(void)
{
	rt_tls_in_dump = 0;
	pthread_mutex_unlock(&rt_dump_lock);
}

static uint32_t rt_capmods;	/* rt_lock */
static uint32_t rt_nregions;	/* rt_lock: the last region index given out */
static bool rt_inited;		/* rt_lock */
void (*rt_thread_hook)(struct rt_thread *t);

/* ------------------------------------------------------------------ */
/* Registration                                                         */
/* ------------------------------------------------------------------ */

static RT_NOINST bool hex16(const char *s)
{
	for (int i = 0; i < 16; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return s[16] == '\0';
}

static RT_NOINST bool known_mode(const char *s)
{
	static const char *const modes[] = { "context", "piecewise", "intra", "intra-context" };
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strcmp(s, modes[i]) == 0)
			return true;
	return false;
}

/* The unit's counters (ipp_abi.h, gcounts): its array regions' counters
 * one after another, in region order -- one array.  Inline code relies on
 * it: a summarized inlined copy finds its counters at a fixed distance
 * from those of the function around it, in the unit's array and in every
 * thread's block (unit_block).  The first region's counters in *first,
 * their number in *n; false if they are not one array. */
static RT_NOINST bool unit_counters(const struct ipp_rt_module *m, uint64_t **first, uint64_t *n)
{
	uint64_t *next = NULL;
	*first = NULL;
	*n = 0;
	for (uint32_t i = 0; i < m->nregions; i++) {
		const struct ipp_rt_region *r = &m->regions[i];
		if (!r->gcounts)
			continue;
		if (next && r->gcounts != next)
			return false;
		if (!*first)
			*first = r->gcounts;
		next = r->gcounts + r->npaths;
		*n += r->npaths;
	}
	return true;
}

/* Where the counts of a thread that could not have its counters go
 * (rt_record.c, __ipp_counts): at least as many as the largest registered
 * unit has, so that inline code may reach any of that unit's regions from
 * the one it asked for.  Grown at registration, before the unit's regions
 * get their indices (readers load an index, then this); never freed: a
 * thread may still write into an older one.  Never read. */
static uint64_t rt_scratch0[RT_ARRAY_MAX];
static uint64_t *rt_scratch = rt_scratch0;
static uint64_t rt_scratch_n = RT_ARRAY_MAX;

RT_HIDDEN uint64_t *rt_counts_scratch(struct ipp_rt_region *r)
{
	uint64_t *first, n;
	if (r && r->gcounts && __atomic_load_n(&r->index, __ATOMIC_ACQUIRE)) {
		unit_counters(r->module, &first, &n);
		return __atomic_load_n(&rt_scratch, __ATOMIC_ACQUIRE) + (r->gcounts - first);
	}
	/* a unit that is not registered: nothing reads its counters */
	return r && r->gcounts ? r->gcounts : rt_scratch0;
}

/* The scratch block holds n counters, a unit's. */
static RT_NOINST bool scratch_fits(uint64_t n)
{
	uint64_t *p;
	if (n <= rt_scratch_n)
		return true;
	p = rt_map(n * sizeof(uint64_t));
	if (!p)
		return false;
	__atomic_store_n(&rt_scratch, p, __ATOMIC_RELEASE);
	rt_scratch_n = n;
	return true;
}

/* Why m cannot be registered, or NULL.  Checked before anything is
 * written into m (with another ABI version, its layout may differ). */
static RT_NOINST const char *invalid_module(const struct ipp_rt_module *m)
{
	uint64_t *first, n;
	if (m->abi_version != IPP_ABI_VERSION)
		return "it was compiled for another version of the runtime ABI "
		       "(rebuild it with this ipp)";
	if (!m->name || !*m->name || !ipp_pf_utf8_ok(m->name, strlen(m->name)))
		return "its name is missing or not valid UTF-8";
	if (!m->checksum || !hex16(m->checksum))
		return "its checksum is not 16 lower-case hex digits";
	if (!m->mode || !known_mode(m->mode))
		return "its mode is unknown";
	if (m->nregions && !m->regions)
		return "it has no region array";
	for (uint32_t i = 0; i < m->nregions; i++) {
		const struct ipp_rt_region *r = &m->regions[i];
		if (!r->name || !*r->name || !ipp_pf_utf8_ok(r->name, strlen(r->name)))
			return "a region name is missing or not valid UTF-8";
		if (r->module && r->module != m)
			return "a region points to another module";
		if (r->gcounts && r->npaths > RT_ARRAY_MAX)
			return "a region too large for counters has counters";
	}
	if (!unit_counters(m, &first, &n))
		return "its regions' counters are not one array in region order";
	return NULL;
}

/* Warns once per rejected module (a few of them; then silently). */
static RT_NOINST void reject(const struct ipp_rt_module *m, const char *why)
{
	static const struct ipp_rt_module *seen[16];
	static unsigned nseen;
	for (unsigned i = 0; i < nseen; i++)
		if (seen[i] == m)
			return;
	if (nseen < sizeof(seen) / sizeof(seen[0]))
		seen[nseen++] = m;
	else
		return;
	rt_msg("warning: a module is not profiled: ",
	       m->abi_version == IPP_ABI_VERSION && m->name ? m->name : "(unnamed)", ": ", why,
	       (const char *)NULL);
}

static RT_NOINST void register_locked(struct ipp_rt_module *m)
{
	struct rt_modinfo *info;
	const char *why;

	if (!rt_inited) {
		rt_inited = true;
		rt_init_locked();
	}
	if (m->abi_version == IPP_ABI_VERSION && m->registered)
		return;
	why = invalid_module(m);
	if (why) {
		reject(m, why);
		return;
	}
	if (rt_nmods == UINT32_MAX || m->nregions > UINT32_MAX - 1 - rt_nregions) {
		reject(m, "too many regions");
		return;
	}
	info = rt_alloc(sizeof(*info));
	if (info)
		unit_counters(m, &info->gfirst, &info->gtotal);
	if (!info || !scratch_fits(info->gtotal)) {
		reject(m, "out of memory");
		return;
	}
	if (rt_nmods == rt_capmods) {
		/* Replace the array; the old one stays valid for readers. */
		uint32_t cap = rt_capmods ? 2 * rt_capmods : 64;
		struct rt_modinfo **a = rt_alloc(cap * sizeof(*a));
		if (!a) {
			reject(m, "out of memory");
			return;
		}
		if (rt_nmods)
			memcpy(a, rt_mods, rt_nmods * sizeof(*a));
		__atomic_store_n(&rt_mods, a, __ATOMIC_RELEASE);
		rt_capmods = cap;
	}
	info->m = m;
	info->seq = rt_nmods;
	for (uint32_t i = 0; i < m->nregions; i++) {
		struct ipp_rt_region *r = &m->regions[i];
		if (!r->module)
			r->module = m;
		__atomic_store_n(&r->index, ++rt_nregions, __ATOMIC_RELEASE);
	}
	rt_mods[rt_nmods] = info;
	__atomic_store_n(&rt_nmods, rt_nmods + 1, __ATOMIC_RELEASE);
	/* registered = sequence number + 1: the dump maps a region to its
	 * module's entry of rt_mods through it. */
	__atomic_store_n(&m->registered, info->seq + 1, __ATOMIC_RELEASE);
}

RT_API void __ipp_register(struct ipp_rt_module *m)
{
	if (!m)
		return;
	if (m->abi_version == IPP_ABI_VERSION &&
	    __atomic_load_n(&m->registered, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&rt_lock);
	register_locked(m);
	pthread_mutex_unlock(&rt_lock);
}

/* r, read through rt_safe_read, is a region of a registered module: its
 * module is one of rt_mods and r lies in that module's region array. */
static RT_NOINST bool known_region(const struct ipp_rt_region *r)
{
	struct ipp_rt_region rc;
	struct ipp_rt_module mc;
	uint32_t n = __atomic_load_n(&rt_nmods, __ATOMIC_ACQUIRE), seq;
	struct rt_modinfo **mods = __atomic_load_n(&rt_mods, __ATOMIC_ACQUIRE);
	if (!rt_safe_read(&rc, r, sizeof(rc)) || !rc.index ||
	    !rt_safe_read(&mc, rc.module, sizeof(mc)))
		return false;
	seq = mc.registered - 1;
	return mc.abi_version == IPP_ABI_VERSION && seq < n && mods[seq]->m == rc.module &&
	       r >= mc.regions && r < mc.regions + mc.nregions &&
	       ((const char *)r - (const char *)mc.regions) % sizeof(*r) == 0;
}

/* r's module, read through rt_safe_read, looks like a module the plugin
 * emitted (so that register_locked can read it directly). */
static RT_NOINST bool plausible_module(const struct ipp_rt_region *r)
{
	struct ipp_rt_region rc;
	struct ipp_rt_module mc;
	if (((uintptr_t)r & 7) || !rt_safe_read(&rc, r, sizeof(rc)) ||
	    !rt_safe_read(&mc, rc.module, sizeof(mc)) || mc.abi_version != IPP_ABI_VERSION ||
	    mc.nregions > (1u << 24) || r < mc.regions || r >= mc.regions + mc.nregions ||
	    ((const char *)r - (const char *)mc.regions) % sizeof(*r) != 0 ||
	    !rt_safe_string(mc.name, 4096) || !rt_safe_string(mc.checksum, 64) ||
	    !rt_safe_string(mc.mode, 64))
		return false;
	for (uint32_t i = 0; i < mc.nregions; i++) {
		struct ipp_rt_region ri;
		if (!rt_safe_read(&ri, &mc.regions[i], sizeof(ri)) ||
		    !rt_safe_string(ri.name, 4096))
			return false;
	}
	return true;
}

RT_HIDDEN bool rt_region_ready(struct ipp_rt_region *r)
{
	if (known_region(r))
		return true;
	if (!plausible_module(r))
		return false;
	if (rt_tls_crash) {
		if (pthread_mutex_trylock(&rt_lock) != 0)
			return false;
		register_locked(r->module);
		pthread_mutex_unlock(&rt_lock);
	} else {
		__ipp_register(r->module);
	}
	return known_region(r);
}

/* ------------------------------------------------------------------ */
/* Thread state                                                         */
/* ------------------------------------------------------------------ */

RT_HIDDEN struct rt_thread *rt_thread_self(void)
{
	struct rt_thread *t = rt_tls_self;
	if (t)
		return t;
	t = rt_alloc(sizeof(*t));
	if (!t)
		return NULL;
	if (rt_tls_crash) {
		/* A fatal-signal handler: never block on a lock the crashed
		 * code may hold. */
		if (pthread_mutex_trylock(&rt_lock) != 0)
			return NULL;
	} else {
		pthread_mutex_lock(&rt_lock);
	}
	t->next = rt_threads;
	__atomic_store_n(&rt_threads, t, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&rt_lock);
	rt_tls_self = t;
	if (rt_thread_hook && !rt_tls_crash)
		rt_thread_hook(t);
	return t;
}

static RT_NOINST uint32_t pow2_at_least(uint32_t n)
{
	uint32_t c = 16;
	while (c < n && c < (1u << 31))
		c *= 2;
	return c;
}

/* Makes the thread's vectors hold index i (and every index given out so
 * far, to grow rarely). */
static RT_NOINST int grow_vectors(struct rt_thread *t, uint32_t i)
{
	uint32_t want = __atomic_load_n(&rt_nregions, __ATOMIC_RELAXED);
	uint32_t cap = pow2_at_least((want > i ? want : i) + 1);
	uint32_t old = rt_tls_view.nslots;
	struct rt_slot *slots;
	struct rt_vec *vec;

	if (cap <= old)
		return 0;
	slots = rt_alloc(cap * sizeof(*slots));
	vec = rt_alloc(sizeof(*vec) + cap * sizeof(vec->t[0]));
	if (!slots || !vec)
		return -1;	/* (leaks at most one of them, once) */
	vec->cap = cap;
	if (old) {
		memcpy(slots, rt_tls_view.slots, old * sizeof(*slots));
		memcpy(vec->t, t->vec->t, t->vec->cap * sizeof(vec->t[0]));
	}
	for (uint32_t k = old; k < cap; k++) {
		/* no table yet: the probe of __ipp_record misses */
		slots[k].hent = (struct ipp_rt_hent *)rt_hent_none;
		slots[k].shift = RT_SHIFT_NONE;
	}
	__atomic_store_n(&t->vec, vec, __ATOMIC_RELEASE);
	/* The slots before their size: a handler interrupting us between
	 * the two stores must not index the old vector with the new size. */
	rt_tls_view.slots = slots;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	rt_tls_view.nslots = cap;
	return 0;
}

/* Points slot i at hash table h, the region's current one (new, or
 * grown: h is at least as big as the slot's table).  The entries before
 * the shift: at every instant the slot's entries number at least
 * 2^(64 - shift) + 1, whatever a signal handler sees. */
static RT_NOINST void mirror_htab(uint32_t i, struct ipp_rt_htab *h)
{
	struct rt_slot *s = &rt_tls_view.slots[i];
	s->hent = h->e;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	s->shift = h->shift;
}

static RT_NOINST void publish_counts(struct rt_thread *t, struct rt_table *tb, uint32_t i)
{
	__atomic_store_n(&t->vec->t[i], tb, __ATOMIC_RELEASE);
	rt_tls_view.slots[i].counts = tb->counts;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	rt_tls_view.slots[i].limit = tb->region->npaths;
}

/* The thread's block of counters of registered unit m (struct
 * rt_thread.blocks), allocated on first need; NULL without memory. */
static RT_NOINST uint64_t *unit_block(struct rt_thread *t, const struct ipp_rt_module *m,
				      uint32_t *seq_out)
{
	uint32_t seq = __atomic_load_n(&m->registered, __ATOMIC_ACQUIRE);
	const struct rt_modinfo *info;
	if (!seq) {
		/* Another thread is registering m: its regions have their
		 * indices, its entry of rt_mods comes last.  Wait for it. */
		__ipp_register((struct ipp_rt_module *)m);
		seq = __atomic_load_n(&m->registered, __ATOMIC_ACQUIRE);
		if (!seq)
			return NULL;
	}
	seq--;
	info = __atomic_load_n(&rt_mods, __ATOMIC_ACQUIRE)[seq];
	*seq_out = seq;
	if (seq >= t->nblocks) {
		uint32_t cap = pow2_at_least(seq + 1);
		uint64_t **b = rt_alloc(cap * sizeof(*b));
		unsigned char *f = rt_alloc(cap);
		if (!b || !f)
			return NULL;	/* (leaks at most one of them, once) */
		if (t->nblocks) {
			memcpy(b, t->blocks, t->nblocks * sizeof(*b));
			memcpy(f, t->blocks_full, t->nblocks);
		}
		t->blocks = b;
		t->blocks_full = f;
		t->nblocks = cap;
	}
	if (!t->blocks[seq])
		t->blocks[seq] = rt_alloc(info->gtotal * sizeof(uint64_t));
	return t->blocks[seq];
}

/* The table of array region q (index x) of unit m in the thread's block
 * of the unit, registered. */
static RT_NOINST struct rt_table *block_table(struct rt_thread *t, struct ipp_rt_region *q,
					      uint32_t x, uint64_t *block, const struct rt_modinfo *info)
{
	struct rt_table *tb = rt_alloc(sizeof(*tb));
	if (!tb)
		return NULL;
	tb->region = q;
	tb->counts = block + (q->gcounts - info->gfirst);
	publish_counts(t, tb, x);
	return tb;
}

/* The table of array region r (index i) of a registered unit: its
 * counters in the thread's block of the unit.  Only r's is registered
 * (a thread that counts through the runtime only touches few regions:
 * the dump reads the registered ones). */
static RT_NOINST struct rt_table *new_unit_table(struct rt_thread *t, struct ipp_rt_region *r,
						 uint32_t i)
{
	uint32_t seq;
	uint64_t *block = unit_block(t, r->module, &seq);
	if (!block)
		return NULL;
	return block_table(t, r, i, block, rt_mods[seq]);
}

/* Every array region of r's unit with its table, for inline code, which
 * reaches any of them from r's counters (ipp_abi.h, __ipp_counts): once
 * per thread and unit.  False without memory. */
static RT_NOINST bool unit_tables_complete(struct rt_thread *t, struct ipp_rt_region *r)
{
	struct ipp_rt_module *m = r->module;
	uint32_t seq, top;
	uint64_t *block = unit_block(t, m, &seq);
	if (!block)
		return false;
	if (t->blocks_full[seq])
		return true;
	/* the unit's regions have consecutive indices (register_locked) */
	top = __atomic_load_n(&m->regions[m->nregions - 1].index, __ATOMIC_ACQUIRE);
	if (top >= rt_tls_view.nslots && grow_vectors(t, top) < 0)
		return false;
	for (uint32_t k = 0; k < m->nregions; k++) {
		struct ipp_rt_region *q = &m->regions[k];
		uint32_t x = __atomic_load_n(&q->index, __ATOMIC_ACQUIRE);
		if (!q->gcounts || !x || t->vec->t[x])
			continue;
		if (!block_table(t, q, x, block, rt_mods[seq]))
			return false;
	}
	/* now inline code may have the counters of any of them */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	for (uint32_t k = 0; k < m->nregions; k++) {
		uint32_t x = __atomic_load_n(&m->regions[k].index, __ATOMIC_ACQUIRE);
		if (m->regions[k].gcounts && x)
			rt_tls_view.slots[x].whole = 1;
	}
	t->blocks_full[seq] = 1;
	return true;
}

static RT_NOINST struct rt_table *new_table(struct rt_thread *t, struct ipp_rt_region *r,
					    uint32_t i)
{
	struct rt_table *tb;
	if (r->gcounts && r->module)
		return new_unit_table(t, r, i);
	tb = rt_alloc(sizeof(*tb));
	if (!tb)
		return NULL;
	tb->region = r;
	if (r->npaths <= RT_ARRAY_MAX) {
		tb->counts = rt_alloc(r->npaths * sizeof(uint64_t));
		if (!tb->counts)
			return NULL;
	} else {
		tb->htab = rt_htab_new(RT_HTAB_INIT_CAP);
		if (!tb->htab)
			return NULL;
	}
	if (tb->counts) {
		publish_counts(t, tb, i);
		/* a region of no unit's array: inline code reaches no other */
		rt_tls_view.slots[i].whole = 1;
	} else {
		__atomic_store_n(&t->vec->t[i], tb, __ATOMIC_RELEASE);
		mirror_htab(i, tb->htab);
	}
	return tb;
}

/* The thread's table of region r (registered, allocated), or NULL.
 * Needs rt_tls_busy. */
static RT_NOINST struct rt_table *table_of(struct ipp_rt_region *r)
{
	struct rt_thread *t;
	struct rt_table *tb;
	uint32_t i = __atomic_load_n(&r->index, __ATOMIC_ACQUIRE);

	if (!i) {
		/* The unit's constructor has not run yet (or it was rejected). */
		if (!r->module)
			return NULL;
		__ipp_register(r->module);
		i = __atomic_load_n(&r->index, __ATOMIC_ACQUIRE);
		if (!i)
			return NULL;
	}
	t = rt_thread_self();
	if (!t)
		return NULL;
	if (i >= rt_tls_view.nslots && grow_vectors(t, i) < 0)
		return NULL;
	tb = t->vec->t[i];
	if (!tb)
		tb = new_table(t, r, i);
	return tb;
}

static RT_NOINST void count_slow(struct ipp_rt_region *r, uint64_t n)
{
	struct rt_thread *t;
	struct rt_table *tb = table_of(r);
	uint32_t i = __atomic_load_n(&r->index, __ATOMIC_ACQUIRE);

	if (!tb)
		return;
	t = rt_tls_self;
	if (n >= r->npaths) {
		/* The plugin never produces such a number: a bug or a
		 * mismatch; reported at the end, not counted. */
		t->bad_records++;
		return;
	}
	if (tb->counts) {
		tb->counts[n] = rt_sat_add(tb->counts[n], 1);
	} else {
		struct ipp_rt_htab *h = tb->htab;
		struct ipp_rt_hent *e = rt_htab_get(&tb->htab, n + 1);
		if (tb->htab != h) {
			mirror_htab(i, tb->htab);	/* grown */
			if (tb->hslot)
				*tb->hslot = tb->htab;
		}
		if (e)
			e->count = rt_sat_add(e->count, 1);
	}
}

/* table_of for an entry point that hands the table to inline code
 * (__ipp_counts): NULL for a region of the other kind, or in
 * a signal handler that interrupted the runtime in this thread.  Inline
 * code may reach any array region of the unit from r's counters: all of
 * them get their tables in the thread's block first. */
static RT_NOINST struct rt_table *table_for_inline(struct ipp_rt_region *r, bool array)
{
	struct rt_table *tb;
	if (!r || rt_tls_busy || (r->npaths <= RT_ARRAY_MAX) != array)
		return NULL;
	rt_tls_busy = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	tb = table_of(r);
	if (tb && r->gcounts && r->module && !unit_tables_complete(rt_tls_self, r))
		tb = NULL;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	rt_tls_busy = 0;
	return tb;
}

RT_HIDDEN uint64_t *rt_counts_slow(struct ipp_rt_region *r)
{
	struct rt_table *tb = table_for_inline(r, true);
	return tb ? tb->counts : NULL;
}

RT_HIDDEN void rt_hslot_publish(struct ipp_rt_region *r, const struct ipp_rt_htab **slot)
{
	struct rt_table *tb;
	if (!r || rt_tls_busy || r->npaths <= RT_ARRAY_MAX)
		return;
	rt_tls_busy = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	tb = table_of(r);
	if (tb && tb->htab) {
		/* Slot before table: a handler that grows the table
		 * meanwhile is dropped (busy), so the two stay equal. */
		tb->hslot = slot;
		*slot = tb->htab;
	}
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	rt_tls_busy = 0;
}

/* Everything but a hit in a hash region: kept out of line, so that the
 * hash lane below needs no stack frame. */
static __attribute__((noinline)) RT_NOINST void record_cold(struct ipp_rt_region *r, uint64_t n)
{
	if (rt_tls_busy)
		return;
	rt_tls_busy = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	count_slow(r, n);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	rt_tls_busy = 0;
}

RT_HIDDEN void rt_record_slow(struct ipp_rt_region *r, uint64_t n)
{
	uint32_t i;
	uint64_t key1;
	if (!r)
		return;
	/* Hash regions: a path this thread has seen before, further along
	 * the probe sequence than __ipp_record looked, is one lookup in the
	 * table the slot mirrors.  (Like the fast path, this needs no
	 * protection from a handler that records meanwhile: at worst one
	 * increment is lost.)  A key in the table was checked against
	 * npaths when it was inserted. */
	i = __atomic_load_n(&r->index, __ATOMIC_RELAXED);
	if (RT_LIKELY(i < rt_tls_view.nslots && !__builtin_add_overflow(n, 1, &key1))) {
		const struct rt_slot *s = &rt_tls_view.slots[i];
		uint64_t shift = s->shift, mask = UINT64_MAX >> shift, k;
		struct ipp_rt_hent *h;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);	/* shift before hent */
		h = s->hent;
		for (k = rt_htab_index(key1, shift);; k = (k + 1) & mask) {
			struct ipp_rt_hent *e = &h[k];
			if (e->key1 == key1) {
				RT_STAT(slow_probe);
				e->count = rt_sat_add(e->count, 1);
				return;
			}
			if (!e->key1)
				break;
		}
	}
	record_cold(r, n);
}

/* ------------------------------------------------------------------ */
/* Reset of the fork child                                              */
/* ------------------------------------------------------------------ */

static RT_NOINST void zero_htab(struct ipp_rt_htab *h)
{
	if (h)
		for (uint64_t k = 0; k < h->cap; k++)
			h->e[k].count = 0;
}

/* The fork child's zeroing of a thread's rows. */
static RT_NOINST void rows_zero(struct rt_thread *t)
{
	for (struct rt_row *w = t->rows; w; w = w->next) {
		memset(w->counts, 0, w->desc->n * sizeof(uint64_t));
		if (w->bases)
			memset(w->bases, 0, w->desc->n * sizeof(uint64_t));
	}
}

/* Only in a single-threaded process (the fork child), with no dump
 * running: writes counters it does not own. */
RT_HIDDEN void rt_zero_all(void)
{
	for (struct rt_thread *t = rt_threads; t; t = t->next) {
		struct rt_vec *v = t->vec;
		for (uint32_t i = 0; v && i < v->cap; i++) {
			struct rt_table *tb = v->t[i];
			if (!tb)
				continue;
			if (tb->counts)
				memset(tb->counts, 0, tb->region->npaths * sizeof(uint64_t));
			if (tb->base)
				memset(tb->base, 0, tb->region->npaths * sizeof(uint64_t));
			zero_htab(tb->htab);
			zero_htab(tb->bhash);
		}
		for (struct rt_pent *p = t->partials.head; p; p = p->next)
			p->count = p->base = 0;
		for (struct rt_pent *p = t->forked.head; p; p = p->next)
			p->count = p->base = 0;
		for (struct rt_arc *a = t->arcs; a; a = a->next)
			a->a.count = a->base = 0;
		rows_zero(t);
		t->bad_records = t->bad_frames = 0;
	}
	/* the units' single-threaded counters */
	for (uint32_t k = 0; k < rt_nmods; k++) {
		struct rt_modinfo *info = rt_mods[k];
		for (uint32_t i = 0; i < info->m->nregions; i++) {
			const struct ipp_rt_region *r = &info->m->regions[i];
			if (r->gcounts)
				memset(r->gcounts, 0, r->npaths * sizeof(uint64_t));
		}
		if (info->gbase)
			memset(info->gbase, 0, info->gtotal * sizeof(uint64_t));
	}
}
