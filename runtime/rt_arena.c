/* rt_arena.c -- the runtime's memory, all of it taken straight from the
 * kernel with mmap, never from malloc: the arena of one profile write,
 * given back at once with munmap, and rt_alloc, the long-lived memory of
 * tables and records (per-thread chunks, and the crash reserve of a
 * fatal-signal handler), never given back.
 *
 * A write needs memory proportional to the profile (the snapshot of the
 * counters, the existing file, the merged records).  It may run in a
 * fatal-signal handler, where malloc is off limits (the crash may be
 * inside malloc, holding its lock).  mmap and munmap are plain system
 * calls that take no user-space lock, so the same code serves the normal
 * and the crash path.
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
#define _GNU_SOURCE 1	/* mremap */
#include "rt_internal.h"

#include <string.h>
#include <sys/mman.h>

struct rt_chunk {
	struct rt_chunk *next;
	size_t size, used;		/* size of the mapping, bytes used */
};

#define RT_CHUNK_MIN (1u << 20)

RT_HIDDEN void *rt_map(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

RT_HIDDEN void rt_unmap(void *p, size_t size)
{
	if (p)
		munmap(p, size);
}

static RT_NOINST size_t round16(size_t n)
{
	return (n + 15) & ~(size_t)15;
}

RT_HIDDEN void *rt_arena_alloc(struct rt_arena *a, size_t size)
{
	struct rt_chunk *c = a->chunks;
	size_t head = round16(sizeof(struct rt_chunk));
	void *p;

	size = round16(size ? size : 1);
	if (!c || c->size - c->used < size) {
		size_t want = head + size;
		if (want < size) {	/* overflow */
			a->failed = true;
			return NULL;
		}
		want = want < RT_CHUNK_MIN ? RT_CHUNK_MIN : round16(want);
		c = rt_map(want);
		if (!c) {
			a->failed = true;
			return NULL;
		}
		c->size = want;
		c->used = head;
		c->next = a->chunks;
		a->chunks = c;
	}
	/* Fresh anonymous pages are zero, and nothing is ever reused. */
	p = (char *)c + c->used;
	c->used += size;
	return p;
}

/* A growing array of at least RT_ARENA_BIG bytes lives in a mapping of
 * its own (the node, in a chunk, says where): mremap moves its pages when
 * it grows, where a copy would touch every byte again at each doubling
 * (SQLite's exit-time write copied 750 kB of records that way). */
#define RT_ARENA_BIG (64u * 1024u)
struct rt_big {
	struct rt_big *next;
	void *p;
	size_t size;			/* of the mapping */
};

static RT_NOINST size_t round_page(size_t n)
{
	return (n + 4095) & ~(size_t)4095;
}

RT_HIDDEN void *rt_arena_grow(struct rt_arena *a, void *old, size_t used, size_t size)
{
	size_t want = round_page(size);
	struct rt_big *b;
	void *p;

	if (size < RT_ARENA_BIG) {
		p = rt_arena_alloc(a, size);
		if (p && used)
			memcpy(p, old, used);
		return p;
	}
	for (b = old ? a->bigs : NULL; b && b->p != old; b = b->next)
		;
	if (b) {
		p = mremap(b->p, b->size, want, MREMAP_MAYMOVE);
		if (p == MAP_FAILED)
			p = NULL;
	} else {
		/* a new big array, or a small one outgrowing its chunk */
		b = rt_arena_alloc(a, sizeof(*b));
		p = b ? rt_map(want) : NULL;
		if (p) {
			if (used)
				memcpy(p, old, used);
			b->next = a->bigs;
			a->bigs = b;
		}
	}
	if (!p) {
		a->failed = true;
		return NULL;
	}
	b->p = p;
	b->size = want;
	return p;
}

RT_HIDDEN void rt_arena_free(struct rt_arena *a)
{
	struct rt_chunk *c = a->chunks;
	for (struct rt_big *b = a->bigs; b; b = b->next)
		rt_unmap(b->p, b->size);	/* the nodes are in the chunks */
	a->bigs = NULL;
	while (c) {
		struct rt_chunk *next = c->next;
		rt_unmap(c, c->size);
		c = next;
	}
	a->chunks = NULL;
}

/* Set on the thread that handles a fatal signal (rt_signal.c): it
 * allocates from the crash reserve. */
RT_TLS int rt_tls_crash;

/* ------------------------------------------------------------------ */
/* Long-lived memory                                                               */
/* ------------------------------------------------------------------ */

/* Each thread allocates from its own chunks of mmap'd memory, never with
 * malloc: the first record of a thread or a region can happen in a signal
 * handler that interrupted malloc (an instrumented handler), and the
 * crash path must not touch malloc at all.  Nothing is ever freed (tables
 * live as long as the process).  A handler that interrupts this thread
 * inside rt_alloc cannot get here: the slow path and the partial-path
 * walk refuse re-entry (rt_tls_busy, in_partial), and the fatal-signal
 * handler uses its own reserve. */
#define RT_CHUNK (64u * 1024u)
#define RT_BIG (16u * 1024u)
static RT_TLS char *rt_tls_cur, *rt_tls_end;

/* The crash reserve: only the one thread that handles a fatal signal
 * allocates from it (rt_signal.c lets no second one in). */
static char *rt_reserve, *rt_reserve_end;

RT_HIDDEN void rt_crash_reserve(size_t size)
{
	rt_reserve = rt_map(size);
	rt_reserve_end = rt_reserve ? rt_reserve + size : NULL;
}

static RT_NOINST void *bump(char **cur, char **end, size_t size, size_t chunk)
{
	char *p;
	if (!*cur || (size_t)(*end - *cur) < size) {
		p = rt_map(chunk);
		if (!p)
			return NULL;
		*cur = p;
		*end = p + chunk;
	}
	p = *cur;
	*cur += size;
	return p;	/* fresh anonymous memory is zero, and none is reused */
}

RT_HIDDEN void *rt_alloc(size_t size)
{
	size = (size + 15) & ~(size_t)15;
	if (!size)
		size = 16;
	if (rt_tls_crash)
		return bump(&rt_reserve, &rt_reserve_end, size,
			    size > (1u << 20) ? size : (1u << 20));
	if (size >= RT_BIG)
		return rt_map((size + 4095) & ~(size_t)4095);
	return bump(&rt_tls_cur, &rt_tls_end, size, RT_CHUNK);
}
