/* ipp_alloc.h -- allocation that never returns NULL, for the core and the
 * ipp tool (decoder/util.h gives these their short names there).
 *
 * On failure every function prints "ipp: out of memory (N bytes)" on stderr
 * and exits with status 1: running out of memory is no bug of ipp, so it
 * does not abort().  A request for 0 bytes allocates 1, so a successful
 * call never returns NULL either.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_ALLOC_H
#define IPP_ALLOC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

void *ipp_xmalloc(size_t n);
void *ipp_xcalloc(size_t n, size_t size);
void *ipp_xrealloc(void *p, size_t n);
char *ipp_xstrdup(const char *s);

/* Reports that 'n' bytes could not be had and exits (for allocators that
 * are not these, e.g. libyaml's; n = 0 when the size is unknown). */
void ipp_out_of_memory(size_t n) __attribute__((noreturn));

/* Makes room for one more element in a growable array: ptr holds n
 * elements in room for cap; cap doubles (from 8) when n reaches it. */
#define IPP_ARRAY_GROW(ptr, n, cap)						\
	do {									\
		if ((n) >= (cap)) {						\
			(cap) = (cap) ? 2 * (cap) : 8;				\
			(ptr) = ipp_xrealloc((ptr), (cap) * sizeof(*(ptr)));	\
		}								\
	} while (0)

#ifdef __cplusplus
}
#endif
#endif /* IPP_ALLOC_H */
