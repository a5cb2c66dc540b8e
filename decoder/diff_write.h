/* diff_write.h -- printing the diff model (diff.h): readable text, or the
 * YAML / JSON document `ipp_diff` of docs/REPORT.md (write_diff.c).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_DECODER_DIFF_WRITE_H
#define IPP_DECODER_DIFF_WRITE_H

#include <stdio.h>

#include "diff.h"
#include "writers.h"

/* Writes the diff; 'top' bounds each list (divergences, paths only in B,
 * only in A, changed).  Decodes the paths it prints, so it can fail:
 * returns 0, or -1 with a message (then the output is incomplete). */
int write_diff(FILE *out, enum out_format f, struct diff *d, size_t top, char *err,
	       size_t errlen);

#endif
