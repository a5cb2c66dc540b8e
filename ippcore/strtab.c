/* strtab.c -- string interning (ipp_strtab, format_internal.h): a set of
 * strings with dense indices, in order of first insertion.  The map writer
 * numbers its file table with it; the readers use it to find duplicate
 * names and to look procedures up by assembler name.
 *
 * Open addressing with linear probing on FNV-1a (hash.c).  Invariants: the
 * number of slots is 0 or a power of two, and at least twice the number of
 * strings (so a probe always ends at an empty slot); slots[i] is 0 for an
 * empty slot, else the index of its string + 1.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "internal.h"
#include "format_internal.h"

static size_t strtab_slot(const ipp_strtab *t, const char *s)
{
	size_t mask = t->nslots - 1;
	size_t i = (size_t)ipp_hash_str(IPP_HASH_INIT, s) & mask;
	while (t->slots[i] && strcmp(t->names[t->slots[i] - 1], s) != 0)
		i = (i + 1) & mask;
	return i;
}

int64_t ipp_strtab_find(const ipp_strtab *t, const char *s)
{
	size_t i;
	if (!t->nslots)
		return -1;
	i = strtab_slot(t, s);
	return t->slots[i] ? (int64_t)t->slots[i] - 1 : -1;
}

uint32_t ipp_strtab_intern(ipp_strtab *t, const char *s, bool *added)
{
	size_t i;
	if (2 * (t->n + 1) > t->nslots) {	/* keep the load factor <= 1/2 */
		size_t nslots = t->nslots ? 2 * t->nslots : 16;
		free(t->slots);
		t->slots = ipp_xcalloc(nslots, sizeof(*t->slots));
		t->nslots = nslots;
		for (size_t k = 0; k < t->n; k++)
			t->slots[strtab_slot(t, t->names[k])] = (uint32_t)k + 1;
	}
	i = strtab_slot(t, s);
	if (added)
		*added = !t->slots[i];
	if (!t->slots[i]) {
		IPP_ARRAY_GROW(t->names, t->n, t->cap);
		t->names[t->n] = ipp_xstrdup(s);
		t->slots[i] = (uint32_t)++t->n;
	}
	return t->slots[i] - 1;
}

void ipp_strtab_free(ipp_strtab *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->names[i]);
	free(t->names);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}
