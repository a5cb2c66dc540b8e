/* rt_arena.c -- memory for one profile write, taken straight from the
 * kernel with mmap and given back at once with munmap.
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
#include "rt_internal.h"

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

RT_HIDDEN void rt_arena_free(struct rt_arena *a)
{
	struct rt_chunk *c = a->chunks;
	while (c) {
		struct rt_chunk *next = c->next;
		rt_unmap(c, c->size);
		c = next;
	}
	a->chunks = NULL;
}
