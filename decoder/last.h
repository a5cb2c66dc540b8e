/* last.h -- `ipp report --last` (last.c): the flight recorder's last
 * paths, decoded.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_DECODER_LAST_H
#define IPP_DECODER_LAST_H

#include <stdio.h>

#include "program.h"

/* Prints the paths of profile + ".last" decoded with prog's maps, per
 * thread, oldest first.  Returns EXIT_SUCCESS, or EXIT_FAILURE after a
 * message. */
int report_last(FILE *out, struct program *prog, const char *profile);

#endif
