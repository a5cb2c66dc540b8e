/* hash.c -- 64-bit FNV-1a, used for map checksums and the psi/rho digest;
 * and its step over 8-byte words (ipp_hash_block) for the map cache.
 *
 * FNV-1a is not a cryptographic hash; it identifies builds and detects
 * accidental corruption, which is all a profile checksum is for (gcov's
 * stamps and compiler-rt's function hashes serve the same purpose).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include "ipp_core.h"

#include <string.h>
#include <stdlib.h>

#define FNV_PRIME UINT64_C(0x100000001b3)

uint64_t ipp_hash_bytes(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= FNV_PRIME;
	}
	return h;
}

uint64_t ipp_hash_block(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	size_t i = 0;

	/* Each step is a bijection of h for a given word, so two inputs that
	 * differ in one word always hash differently. */
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		h ^= w;
		h *= FNV_PRIME;
	}
	return ipp_hash_bytes(h, p + i, n - i);
}

uint64_t ipp_hash_str(uint64_t h, const char *s)
{
	return ipp_hash_bytes(h, s ? s : "", (s ? strlen(s) : 0) + 1);
}

uint64_t ipp_hash_u64(uint64_t h, uint64_t v)
{
	/* the bytes of v, least significant first (the order is fixed, not
	 * the machine's), as ipp_hash_bytes hashes them */
	for (int i = 0; i < 8; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= FNV_PRIME;
	}
	return h;
}

/* Hashes the decimal text of v, so the digest does not depend on GMP's limb size. */
uint64_t ipp_hash_mpz(uint64_t h, const mpz_t v)
{
	char *s;

	/* Most values fit a word: the same decimal text without GMP's
	 * conversion and allocation (the digest of a large map hashes
	 * hundreds of thousands of them). */
	if (mpz_sgn(v) >= 0 && mpz_fits_ulong_p(v)) {
		char buf[24], *d = buf + sizeof(buf);
		unsigned long x = mpz_get_ui(v);
		*--d = '\0';
		do
			*--d = (char)('0' + x % 10);
		while ((x /= 10) != 0);
		return ipp_hash_bytes(h, d, (size_t)(buf + sizeof(buf) - d));
	}
	s = mpz_get_str(NULL, 10, v);
	h = ipp_hash_str(h, s);
	free(s);
	return h;
}
