/* test_rt_arena.c -- rt_arena_grow (runtime/rt_arena.c), the growing
 * arrays of a profile write: an array keeps its contents and reads zero
 * past them at every growth, small ones in the arena's chunks, big ones
 * (64 kB and more) in mappings of their own moved by mremap, and
 * rt_arena_free gives the big mappings back.
 *
 * Two arrays grow by doubling, in turn, as a write's records and commits
 * do: A of 64-byte elements from nothing to 40,000 elements (2.5 MB), B
 * of 32-byte elements to 20,000; element i of each holds a pattern of i
 * and the array's name.  After every growth both arrays are checked
 * whole: the old elements kept, the new ones zero.  (A first version
 * took a new array, grown from nothing, for the existing big one and
 * shrank it: SQLite's write survived by luck, a small program's crashed;
 * the array C below.)  Then a growth from a small array (in a chunk) past the threshold, and
 * the big mappings are gone after rt_arena_free (msync fails with ENOMEM
 * on an unmapped page).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#define _GNU_SOURCE 1
#include "rtt.h"
#include "rt_internal.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

struct array {
	unsigned char *p;
	size_t n, cap, elt;
	unsigned tag;
};

static void fill(unsigned char *e, size_t elt, size_t i, unsigned tag)
{
	for (size_t k = 0; k < elt; k++)
		e[k] = (unsigned char)(i * 31 + k * 7 + tag);
}

/* Every element below n holds its pattern, every byte from n to cap is 0. */
static void check(const struct array *x)
{
	unsigned char want[64];
	for (size_t i = 0; i < x->n; i++) {
		fill(want, x->elt, i, x->tag);
		if (memcmp(x->p + i * x->elt, want, x->elt) != 0) {
			CHECK(!"an element lost its contents");
			return;
		}
	}
	for (size_t b = x->n * x->elt; b < x->cap * x->elt; b++)
		if (x->p[b] != 0) {
			CHECK(!"a new element is not zero");
			return;
		}
}

/* Doubles x (from 64 elements), fills the new half, checks it. */
static void grow_and_fill(struct rt_arena *a, struct array *x)
{
	size_t ncap = x->cap ? 2 * x->cap : 64;
	unsigned char *p = rt_arena_grow(a, x->p, x->n * x->elt, ncap * x->elt);
	CHECK(p != NULL);
	if (!p)
		return;
	x->p = p;
	x->cap = ncap;
	check(x);
	while (x->n < x->cap) {
		fill(x->p + x->n * x->elt, x->elt, x->n, x->tag);
		x->n++;
	}
}

static bool mapped(const void *p)
{
	void *page = (void *)((uintptr_t)p & ~(uintptr_t)4095);
	if (msync(page, 4096, MS_ASYNC) == 0)
		return true;
	CHECK_U64(errno, ENOMEM);
	return false;
}

int main(int argc, char **argv)
{
	struct rt_arena a = { NULL, false, NULL };
	struct array A = { NULL, 0, 0, 64, 1 }, B = { NULL, 0, 0, 32, 2 };
	void *small, *big;

	rtt_init(argc, argv, "rt_arena");
	while (A.cap < 40000 || B.cap < 20000) {
		if (A.cap < 40000)
			grow_and_fill(&a, &A);
		if (B.cap < 20000)
			grow_and_fill(&a, &B);
		check(&A);
		check(&B);
	}
	CHECK(!a.failed);

	/* a new array that starts big (a write reserves a hash table's
	 * entries at once) gets a mapping of its own, and leaves the others
	 * as they were */
	{
		struct array C = { NULL, 0, 0, 64, 3 };
		C.p = rt_arena_grow(&a, NULL, 0, 4097 * 64);
		C.cap = 4097;
		CHECK(C.p != NULL && C.p != A.p && C.p != B.p);
		check(&C);
		check(&A);
		check(&B);
		CHECK(mapped(C.p));
	}

	/* a small array (in a chunk) grown past the threshold: copied once */
	small = rt_arena_alloc(&a, 1000);
	memset(small, 0xab, 1000);
	big = rt_arena_grow(&a, small, 1000, 1 << 20);
	CHECK(big != NULL && big != small);
	for (int i = 0; i < 1000; i++)
		CHECK_U64(((unsigned char *)big)[i], 0xab);
	CHECK_U64(((unsigned char *)big)[1000], 0);
	CHECK_U64(((unsigned char *)big)[(1 << 20) - 1], 0);

	CHECK(mapped(A.p) && mapped(B.p) && mapped(big));
	rt_arena_free(&a);
	CHECK(!mapped(A.p));
	CHECK(!mapped(B.p));
	CHECK(!mapped(big));
	rtt_done();
	return 0;
}
