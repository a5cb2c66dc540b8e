/* inputs.h -- test inputs for the ipp tool, built without the plugin: maps
 * written with ipp_map_write() and profiles written with
 * ipp_profile_write(), for the paper's Figure 4 graph (decoder/fig4.c) and
 * for a small synthetic unit with a run of branches that needs cuts.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_TEST_INPUTS_H
#define IPP_TEST_INPUTS_H

#include <stdint.h>

#include "ipp_core.h"
#include "ipp_format.h"

/* The line of examples/fig4.c that the paper's vertex 'name' ("v4", "u1")
 * stands for; 0 for the vertices with no line (GExit, GEntry). */
int fig4_line_of(const char *name);

/* fig4_graph() with every vertex located in "fig4.c" at fig4_line_of(). */
ipp_graph *inputs_fig4_graph(void);

/* The synthetic unit "chain.c": 'chain' is a run of 'ndiamonds' if-then
 * statements (2^ndiamonds paths); 'main' calls chain and then an external
 * function.  Both are entries.  At most 32 diamonds. */
ipp_graph *inputs_chain_graph(int ndiamonds);

/* Numbers g in 'mode' -- after ipp_autocut() for 'limit' paths per region
 * if cut_limit is non-zero (limit 2^64-1 otherwise) -- and writes its map
 * for module 'module' to 'path'.  Sets *checksum.  Returns 0, or -1 with a
 * message on stderr. */
int inputs_write_map(const char *path, const ipp_graph *g, enum ipp_mode mode,
		     const char *module, unsigned long cut_limit, uint64_t *checksum);

/* The prefix of the complete path 'num' of region 'region' of (g, mode, no
 * cuts) that stops after its first 'nedges' edges, as a partial-path
 * record: number so far and stop stack (malloc'd).  Returns 0 or -1. */
int inputs_prefix(const ipp_graph *g, enum ipp_mode mode, const char *region,
		  unsigned long num, size_t nedges, mpz_t partial_num, ipp_id **stack,
		  size_t *nstack);

/* Writes profile p to 'path'.  Returns 0 or -1. */
int inputs_write_profile(const char *path, const ipp_profile *p);

#endif
