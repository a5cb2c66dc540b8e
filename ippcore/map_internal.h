/* map_internal.h -- what the files of the map (map_*.c, checksum.c) share
 * and nothing else sees.  The API is in ipp_format.h; the YAML and string
 * helpers they use with profile.c are in format_internal.h.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_MAP_INTERNAL_H
#define IPP_MAP_INTERNAL_H

#include "format_internal.h"

/* ---- the optional 'callees' key (checksum.c) ---- */

/* The assembler name of the function call vertex v calls if the map must
 * record it in its 'callees' key: v is a direct call whose callee is not a
 * procedure of the map but was named (ipp_set_call_target).  Else NULL.
 * The checksum covers exactly these names, so it and the writer share
 * this one definition. */
const char *ipp_named_external_call(const ipp_graph *g, ipp_id v);
/* How many call vertices ipp_named_external_call() names. */
size_t ipp_map_ncallees(const ipp_graph *g);

#endif /* IPP_MAP_INTERNAL_H */
