/* pnum.c -- path numbers as profiles and reports hold them (ipp_pnum,
 * ipp_core.h): a uint64_t, or a GMP integer of their own for the rare
 * number of 2^64 or more; and exact conversions between GMP integers and
 * uint64_t, whatever the width of GMP's limbs and of unsigned long.
 *
 * Invariant: a pnum's big is NULL if and only if its number is below
 * 2^64, so two numbers are equal exactly when their representations are,
 * and a big one is larger than every small one.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include "ipp_core.h"
#include "ipp_alloc.h"

#include <stdlib.h>

bool ipp_mpz_get_u64(const mpz_t x, uint64_t *out)
{
	if (mpz_sgn(x) < 0 || mpz_sizeinbase(x, 2) > 64)
		return false;
	*out = 0;	/* mpz_export writes no word for 0 */
	mpz_export(out, NULL, -1, sizeof(*out), 0, 0, x);
	return true;
}

void ipp_mpz_set_u64(mpz_t x, uint64_t v)
{
	mpz_import(x, 1, -1, sizeof(v), 0, 0, &v);
}

void ipp_pnum_set(ipp_pnum *n, const mpz_t x)
{
	n->u = 0;
	n->big = NULL;
	if (!ipp_mpz_get_u64(x, &n->u)) {
		n->big = ipp_xmalloc(sizeof(*n->big));
		mpz_init_set(n->big, x);
	}
}

void ipp_pnum_copy(ipp_pnum *dst, const ipp_pnum *src)
{
	if (src->big)
		ipp_pnum_set(dst, src->big);
	else
		*dst = *src;
}

void ipp_pnum_clear(ipp_pnum *n)
{
	if (n->big) {
		mpz_clear(n->big);
		free(n->big);
		n->big = NULL;
	}
}

void ipp_pnum_get(const ipp_pnum *n, mpz_t out)
{
	if (n->big)
		mpz_set(out, n->big);
	else
		ipp_mpz_set_u64(out, n->u);
}

int ipp_pnum_cmp(const ipp_pnum *a, const ipp_pnum *b)
{
	if (a->big && b->big)
		return mpz_cmp(a->big, b->big);
	if (a->big || b->big)
		return a->big ? 1 : -1;
	return a->u < b->u ? -1 : a->u > b->u;
}

char *ipp_pnum_str(const ipp_pnum *n)
{
	char *s;
	mpz_t z;
	if (n->big)
		return mpz_get_str(NULL, 10, n->big);
	mpz_init(z);
	ipp_mpz_set_u64(z, n->u);
	s = mpz_get_str(NULL, 10, z);
	mpz_clear(z);
	return s;
}
