/* alloc.c -- allocation that never returns NULL (ipp_alloc.h), shared by
 * the core and the ipp tool.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "ipp_alloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ipp_out_of_memory(size_t n)
{
	if (n)
		fprintf(stderr, "ipp: out of memory (%zu bytes)\n", n);
	else
		fputs("ipp: out of memory\n", stderr);
	exit(EXIT_FAILURE);
}

void *ipp_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		ipp_out_of_memory(n);
	return p;
}

void *ipp_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		ipp_out_of_memory(size && n > SIZE_MAX / size ? 0 : n * size);
	return p;
}

void *ipp_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		ipp_out_of_memory(n);
	return p;
}

char *ipp_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(ipp_xmalloc(n), s, n);
}
