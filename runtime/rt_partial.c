/* rt_partial.c -- partial paths: paths abandoned by exit(), longjmp and
 * fatal signals (design notes, "Paths abandoned by exit, longjmp and fatal
 * signals"), and __ipp_unwind_to.
 *
 * Every instrumented activation links a struct ipp_rt_frame into the
 * thread's list (__ipp_top, innermost first).  Frames are grouped
 * (docs/PROTOCOL.md, rule 9): walking from the innermost frame outwards, a
 * frame g0 starts a *group*; while the current frame has
 * IPP_FRAME_CONTINUES (it continues its caller's path), its caller belongs
 * to the group too.  The group g0, g1, ..., gk is one path.  If g0 has
 * vertex >= 0 the path is pending, and it is recorded as the partial path
 *
 *     region = gk->region       (the outermost frame's, where it started)
 *     number = g0->path         (the innermost frame's number so far;
 *                                0 at an entry checkpoint marked
 *                                IPP_VERTEX_PATH0, which stores none)
 *     stack  = [gk->vertex, ..., g1->vertex, g0->vertex]  (outermost first)
 *
 * (each vertex without its IPP_VERTEX_INSIDE and IPP_VERTEX_PATH0 marks: g0 may stand at any
 * checkpoint of its path, docs/PROTOCOL.md; the others are at calls).  A
 * frame may stand in an inlined copy that continues its caller's path and
 * pushes no frame of its own (ABI 9): the module lists the copy's vertices
 * with its call vertex c (struct ipp_rt_copy), and the frame's vertex v
 * stands in the stack as c, v -- as a frame of the copy's own at v above
 * one at c would -- and c itself may lie in such a copy.
 *
 * If g0 has vertex -1 the path was recorded already and the group is
 * skipped.  A group whose other frames lack a vertex, or whose links are
 * broken, is inconsistent: skipped and counted in bad_frames (reported at
 * exit).  Recording sets g0->vertex = -1, so nothing is recorded twice.
 *
 * The walk is defensive.  Frames are not in address order (GCC inlines
 * instrumented callees, frames included, anywhere in the caller's stack
 * frame), so staleness cannot be judged by addresses; instead every frame
 * and every region is read through rt_safe_read and checked before use:
 * the walk stops at NULL, at an unreadable or implausible frame, at a
 * self-link and after RT_MAX_FRAMES frames, and a region is used only if
 * it is a registered module's (or a valid module can be registered for it,
 * rt_region_ready).  A stale frame left by a longjmp into uninstrumented
 * code that is still intact is recorded as what it is: an abandoned path.
 *
 * Partial records are kept per thread in a hash keyed by (region, number,
 * stack) (struct rt_pent in a struct rt_plist, never moved or freed; the
 * index is owner-only, the list of records is what dumpers read).  A fork
 * child keeps its forked prefixes the same way (rt_record_forked, below).  Only the thread itself
 * records: at exit (the thread that calls exit()), in __ipp_unwind_to, and
 * in its fatal-signal handler.  A dump while the program runs never walks
 * frames: their paths are still going to be recorded when they finish.
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

/* Mixes v into the hash h of a key. */
static RT_NOINST uint64_t mix(uint64_t h, uint64_t v)
{
	return rt_hash64(h ^ v) + 0x632be59bd9b4e019ull;
}

/* The vertex where frame g's path stands (its checkpoint's id). */
static inline RT_NOINST int32_t stop_of(const struct ipp_rt_frame *g)
{
	return IPP_VERTEX_ID(g->vertex);
}

/* A group: frames g[0] (innermost) .. g[len-1] (outermost), found again
 * by following prev from g0; its stop stack has depth entries (len, plus
 * the call vertices of the frameless inlined copies its frames stand in). */
struct run {
	struct ipp_rt_frame *g0;
	uint32_t len;
	uint32_t depth;
	struct ipp_rt_region *region;
	uint64_t num;
};

/* The copy of module m (ipp_abi.h, struct ipp_rt_copy) whose vertices
 * include v, or NULL. */
static RT_NOINST const struct ipp_rt_copy *copy_of(const struct ipp_rt_module *m, int32_t v)
{
	return rt_table_run(m->copies, m->ncopies, sizeof(*m->copies), v);
}

/* The offset of vertex v in module m (struct ipp_rt_offset: increments on
 * chords), 0 if it has none. */
static RT_NOINST uint64_t offset_of(const struct ipp_rt_module *m, int32_t v)
{
	const struct ipp_rt_offset *o = rt_table_run(m->offsets, m->noffsets, sizeof(*o), v);
	return o ? o->offset : 0;
}

/* The number a path restarting at vertex v starts with, in *num, from
 * module m's restarts table (struct ipp_rt_restart): false if v is not
 * there (a corrupt frame). */
static RT_NOINST bool restart_number(const struct ipp_rt_module *m, int32_t v, uint64_t *num)
{
	const struct ipp_rt_restart *p = rt_table_key(m->restarts, m->nrestarts, sizeof(*p), v);
	if (p)
		*num = p->number;
	return p != NULL;
}

/* The most copies one inside another the walk follows from a vertex: a
 * copy's call vertex lies in the procedure around it, so the chain ends;
 * the bound only guards against a corrupt table. */
#define RT_MAX_COPY_DEPTH 4096u

/* The stop stack of run r, innermost entry first: visit(arg, k, v) for
 * each entry v at position k from the outer end, until it returns false.
 * Each frame gives its vertex and then, outwards, the call vertices of the
 * frameless copies around it. */
static RT_NOINST bool stack_each(const struct run *r, bool (*visit)(void *, uint32_t, int32_t),
				 void *arg)
{
	const struct ipp_rt_module *m = r->region->module;
	uint32_t k = r->depth, f = r->len;
	for (struct ipp_rt_frame *g = r->g0; f; f--, g = g->prev) {
		int32_t v = stop_of(g);
		for (uint32_t d = 0; k; d++) {
			const struct ipp_rt_copy *c;
			if (!visit(arg, --k, v))
				return false;
			c = m->ncopies && d < RT_MAX_COPY_DEPTH ? copy_of(m, v) : NULL;
			if (!c)
				break;
			v = c->call;
		}
	}
	return true;
}

static RT_NOINST bool count_entry(void *arg, uint32_t k, int32_t v)
{
	(void)k;
	(void)v;
	++*(uint32_t *)arg;
	return true;
}

/* Sets r->depth (r's region must be ready: its module is read). */
static RT_NOINST void run_depth(struct run *r)
{
	uint32_t n = 0;
	r->depth = UINT32_MAX;	/* no bound while counting */
	stack_each(r, count_entry, &n);
	r->depth = n;
}

static RT_NOINST bool hash_entry(void *arg, uint32_t k, int32_t v)
{
	*(uint64_t *)arg += rt_hash64(((uint64_t)k << 32) ^ (uint32_t)v);
	return true;
}

static RT_NOINST uint64_t run_hash(const struct run *r)
{
	/* Vertices outermost first: hash them innermost first, with their
	 * position from the outer end, so that the order is irrelevant to
	 * the walk but the hash is a function of the stack. */
	uint64_t h = mix(mix(mix(0xcbf29ce484222325ull, (uintptr_t)r->region), r->num), r->depth);
	uint64_t acc = 0;
	stack_each(r, hash_entry, &acc);
	return mix(h, acc);
}

static RT_NOINST bool same_entry(void *arg, uint32_t k, int32_t v)
{
	return ((const struct rt_pent *)arg)->stack[k] == v;
}

static RT_NOINST bool run_eq(const struct rt_pent *p, const struct run *r, uint64_t h)
{
	if (p->hash != h || p->region != r->region || p->num != r->num || p->nstack != r->depth)
		return false;
	return stack_each(r, same_entry, (void *)p);
}

static RT_NOINST bool put_entry(void *arg, uint32_t k, int32_t v)
{
	((struct rt_pent *)arg)->stack[k] = v;
	return true;
}

/* What a partial record is looked up by: a run and its hash. */
struct run_want {
	const struct run *r;
	uint64_t h;
};

static RT_NOINST bool pent_is(const void *obj, const void *want)
{
	const struct run_want *k = want;
	return run_eq(obj, k->r, k->h);
}

static RT_NOINST uint64_t pent_key(const void *obj)
{
	return ((const struct rt_pent *)obj)->hash;
}

/* Counts one more occurrence of group r in the thread's list l (its
 * partial paths or its forked prefixes). */
static RT_NOINST int add_run(struct rt_plist *l, struct run *r)
{
	uint64_t h;
	struct run_want k = { r, 0 };
	struct rt_pent *p;
	struct rt_idx *x = rt_idx_room(l->index, pent_key, NULL);
	uint32_t i;

	if (!x)
		return -1;
	run_depth(r);
	k.h = h = run_hash(r);
	l->index = x;	/* the old one is left behind: the runtime never frees */
	i = rt_idx_find(x, h, pent_is, &k);
	p = x->slot[i];
	if (!p) {
		p = rt_alloc(sizeof(*p) + r->depth * sizeof(p->stack[0]));
		if (!p)
			return -1;
		p->region = r->region;
		p->num = r->num;
		p->hash = h;
		p->nstack = r->depth;
		stack_each(r, put_entry, p);
		x->slot[i] = p;
		x->used++;
		p->next = l->head;
		__atomic_store_n(&l->head, p, __ATOMIC_RELEASE);
	}
	p->count = rt_sat_add(p->count, 1);
	return 0;
}

/* A frame the walk may use: non-NULL, aligned, readable, with a vertex
 * that is -1 or an id.  Read through rt_safe_read, so that a garbage link
 * (a stale frame's prev) stops the walk instead of crashing it. */
static RT_NOINST bool frame_ok(const struct ipp_rt_frame *g)
{
	struct ipp_rt_frame copy;
	return rt_read_frame(&copy, g) && copy.vertex >= -1 && copy.vertex < INT32_MAX;
}

/* The group starting at g0 (checked by frame_ok): g0 and, while the
 * current frame continues its caller's path, the caller.  Returns 1 if the
 * group is well formed (every frame but g0 has a pending path, the
 * outermost a genuine region), 0 if not, -1 if its links are broken (the
 * walk stops).  *outer is its last frame. */
static RT_NOINST int measure_group(struct ipp_rt_frame *g0, struct run *r,
				   struct ipp_rt_frame **outer, uint32_t budget)
{
	struct ipp_rt_frame *g = g0;
	uint32_t len = 1;
	int ok = 1;
	while (g->flags & IPP_FRAME_CONTINUES) {
		struct ipp_rt_frame *nx = g->prev;
		if (nx == g || len >= budget || !frame_ok(nx)) {
			ok = -1;
			break;
		}
		g = nx;
		len++;
		if (g->vertex < 0)
			ok = 0;
	}
	*outer = g;
	r->g0 = g0;
	r->len = len;
	r->region = g->region;
	/* an entry checkpoint of number 0 stores no number (ipp_abi.h) */
	r->num = (g0->vertex & IPP_VERTEX_PATH0) ? 0 : g0->path;
	return ok;
}

/* Is f on the list from top (within the walk's limits)? */
static RT_NOINST bool on_list(struct ipp_rt_frame *top, struct ipp_rt_frame *f)
{
	uint32_t steps = 0;
	for (struct ipp_rt_frame *g = top; steps < RT_MAX_FRAMES && frame_ok(g); g = g->prev) {
		if (g == f)
			return true;
		if (g->prev == g)
			break;
		steps++;
	}
	return false;
}

/* The walk.  Frames are not in address order (GCC inlines callees, and
 * their frames with them, anywhere in the caller's stack frame), so it
 * relies on content: it stops at NULL, at a frame that is not readable or
 * whose vertex is not a vertex, at a self-link, after RT_MAX_FRAMES, and
 * (RT_WALK_TO) after the group that contains f.  Each pending group is
 * counted in the list l; with 'abandon' its innermost frame is marked
 * recorded (vertex -1), so that a cycle cannot record a group twice and
 * nothing records it again.  Without (forked prefixes) the frames stay as
 * they are: their paths go on. */
static RT_NOINST unsigned walk(struct rt_thread *t, struct rt_plist *l, struct ipp_rt_frame *top,
			       struct ipp_rt_frame *f, enum rt_walk_stop how, bool abandon)
{
	struct ipp_rt_frame *cur = top;
	uint32_t steps = 0;
	unsigned n = 0;

	if (t->in_partial)
		return 0;	/* a handler interrupted us here */
	t->in_partial = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	while (steps < RT_MAX_FRAMES && frame_ok(cur)) {
		struct ipp_rt_frame *outer;
		struct run r;
		bool has_f = false;
		int ok = measure_group(cur, &r, &outer, RT_MAX_FRAMES - steps);
		if (how == RT_WALK_TO) {
			uint32_t k = r.len;
			for (struct ipp_rt_frame *g = cur; k--; g = g->prev)
				has_f |= g == f;
		}
		steps += r.len;
		if (cur->vertex < 0) {
			/* The innermost frame has recorded the group's path
			 * already (PROTOCOL.md, rule 9): nothing is pending. */
		} else if (ok <= 0 || !rt_region_ready(r.region) ||
			   ((cur->vertex & IPP_VERTEX_RESTART) &&
			    !restart_number(r.region->module, IPP_VERTEX_ID(cur->vertex), &r.num))) {
			t->bad_frames++;
		} else {
			/* a fresh frame's number is the register's: the
			 * partial sum plus the vertex's offset (increments on
			 * chords); a bare restart's is the module's constant.
			 * A continuing frame (a clone's) has no offsets. */
			if (!(cur->vertex & IPP_VERTEX_RESTART) && !(cur->flags & IPP_FRAME_CONTINUES))
				r.num -= offset_of(r.region->module, IPP_VERTEX_ID(cur->vertex));
			if (add_run(l, &r) == 0) {
				/* Only the innermost frame: the group's other
				 * frames are still their callers' call sites. */
				if (abandon)
					r.g0->vertex = -1;
				n++;
			}
		}
		if (ok < 0 || has_f || outer->prev == outer)
			break;
		cur = outer->prev;
	}
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t->in_partial = 0;
	return n;
}

RT_HIDDEN unsigned rt_record_pending(struct ipp_rt_frame *top, struct ipp_rt_frame *f,
				     enum rt_walk_stop how)
{
	struct rt_thread *t = rt_thread_self();
	return t ? walk(t, &t->partials, top, f, how, true) : 0;
}

/* Forked prefixes.  A path pending at a fork() goes on in both processes,
 * and each records it when it ends (or abandons it), so its prefix -- the
 * edges up to the frames' checkpoints, run once, before the fork -- would
 * be counted twice.  The child records each pending group as a forked
 * prefix (region, number so far, stop stack: what a partial path of the
 * group would be at that instant), which the derivation subtracts
 * (ippcore/derive.c).  Every pending group of the forking thread,
 * including those further out than the activation that called fork (a
 * helper that forks): each is completed by both.  Other threads do not
 * exist in the child.  The numbering does not change. */
RT_HIDDEN void rt_record_forked(void)
{
	struct rt_thread *t;
	if (!__ipp_top || !(t = rt_thread_self()))
		return;
	rt_slots_link();
	walk(t, &t->forked, __ipp_top, NULL, RT_WALK_ALL, false);
	rt_slots_unlink();
}

RT_HIDDEN void rt_record_exit_frames(void)
{
	struct ipp_rt_frame *top, cont;
	rt_slots_link();
	top = __ipp_top;
	if (!top)
		return;
	/* exit() called where the innermost frame stands at a call to a
	 * callee without a frame: a signal handler interrupted that callee
	 * (a call of exit itself is a dead end, and a callee that makes one
	 * marks the frame: __ipp_callee_recorded_in).  It began: its entry
	 * is recorded, as after a fatal signal. */
	rt_record_pending(rt_callee_fixup(top, &cont), NULL, RT_WALK_ALL);
	/* Nothing below this point will return: forget the frames, so that a
	 * later walk (the destructor) cannot record them again. */
	__ipp_top = NULL;
}

RT_API unsigned __ipp_unwind_to(struct ipp_rt_frame *f)
{
	struct ipp_rt_frame *top;
	unsigned n;
	rt_slots_link();
	top = __ipp_top;
	if (!f) {
		n = rt_record_pending(top, NULL, RT_WALK_ALL);
	} else {
		/* If f is not on the list we cannot tell which frames are
		 * abandoned: record only f's own pending path. */
		if (!on_list(top, f))
			top = f;
		n = rt_record_pending(top, f, RT_WALK_TO);
		f->vertex = -1;	/* its path was recorded, alone or in a group */
	}
	__ipp_top = f;
	rt_slots_unlink();
	return n;
}

RT_API unsigned __ipp_unwind_below(const void *limit)
{
	struct ipp_rt_frame *top, *g, *last = NULL;
	uint32_t steps = 0;
	unsigned n = 0;
	rt_slots_link();
	top = g = __ipp_top;
	/* The stack grows down: the abandoned activations' frames lie below
	 * the receiver's stack pointer, its callers' above it. */
	while (steps < RT_MAX_FRAMES && frame_ok(g) && (uintptr_t)g < (uintptr_t)limit) {
		last = g;
		if (g->prev == g)
			break;
		g = g->prev;
		steps++;
	}
	if (!last) {
		rt_slots_unlink();
		return 0;
	}
	n = rt_record_pending(top, last, RT_WALK_TO);
	__ipp_top = last->prev;
	rt_slots_unlink();
	return n;
}

RT_API void __ipp_builtin_longjmp_note(void *const *buf)
{
	/* GCC's __builtin_setjmp saves the receiver's stack pointer in the
	 * third word of the buffer (expand_builtin_setjmp_setup: frame value,
	 * receiver label, then the nonlocal stack save area). */
	__ipp_unwind_below(buf[2]);
}

RT_HIDDEN bool rt_frame_on_list(struct ipp_rt_frame *f)
{
	return on_list(__ipp_top, f);
}
