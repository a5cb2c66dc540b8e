/* srclines.h -- the source lines of a program's units with gcov's counts
 * (ippcore/ipp_lines.h: the maps' x-lines key, gcov's line rule over the
 * counts derived from the paths), and where their source files are.
 * Shared by ipp export --lcov and ipp html.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_DECODER_SRCLINES_H
#define IPP_DECODER_SRCLINES_H

#include "cli.h"
#include "ipp_lines.h"

/* Per unit of d->prog (same index): its lines and branches; all counts 0
 * for a unit that did not run. */
struct srclines {
	ipp_xlines *x;		/* every map document's x-lines (owned) */
	size_t nx;
	ipp_src_lines *units;	/* [d->nunits] */
	const ipp_xlines **unit_x;	/* [d->nunits]: each unit's x-lines */
	size_t nunits;
	size_t ninexact;	/* lines whose count is only a lower bound */
};

/* Reads the x-lines of d's program and computes every unit's lines.  A map
 * without x-lines (from an ipp before the key) is an error naming the unit.
 * Returns 0, or -1 after the message (cli_error). */
int srclines_load(struct srclines *s, const struct derived *d);
void srclines_free(struct srclines *s);

/* 'file' as an absolute, normalized path: a relative name is taken relative
 * to 'base' (NULL: the current directory); "." and ".." components are
 * removed without following symbolic links.  malloc'd. */
char *source_path(const char *file, const char *base);

/* 'path' (absolute, normalized) relative to the directory 'dir' (absolute,
 * normalized) if it lies below it, else a copy of 'path'.  malloc'd. */
char *relative_path(const char *path, const char *dir);

#endif
