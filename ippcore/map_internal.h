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

/* ---- flag words (map_flags.c) ---- */

struct ipp_flag_name {
	unsigned bit;
	const char *name;
};
/* Every IPP_PROC_* / IPP_CALL_* bit and its name; each ends with {0, NULL}. */
extern const struct ipp_flag_name ipp_proc_flag_names[];
extern const struct ipp_flag_name ipp_call_flag_names[];

/* Writes the flags set in 'flags' as a flow list, e.g. "[entry]" or "[]". */
void ipp_map_write_flags(FILE *out, unsigned flags, const struct ipp_flag_name *names);
/* Whether every bit of 'flags' has a name in 'names'. */
bool ipp_map_flags_known(unsigned flags, const struct ipp_flag_name *names);
/* Reads item 'it' (a flow list of flag names) into *out. */
int ipp_map_read_flags(ipp_yreader *r, const ipp_yitem *it, const char *what,
		       const struct ipp_flag_name *names, unsigned *out);

#endif /* IPP_MAP_INTERNAL_H */
