/* fig4.h -- the paper's running example (Melski & Reps, Figures 4-9, 14-17)
 * as an ipp supergraph, for the tests and for `ipp demo`.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#ifndef IPP_FIG4_H
#define IPP_FIG4_H

#include <stdio.h>
#include "ipp_core.h"

/* Builds the supergraph of the paper's Figure 4 program as drawn in
 * Figure 5 (context mode) and Figure 14 (piecewise: the same G* with
 * GEntry_P).  Procedure 0 is main (an entry), procedure 1 is pow. */
ipp_graph *fig4_graph(void);

/* The paper's name ("v4", "u1", "Entry_global", ...) of a G*fin vertex of
 * the Figure 4 graph; NULL for vertices the paper does not name. */
const char *fig4_vertex_name(ipp_id v);
/* The G* vertex the paper names 'name' ("v13"), or IPP_NONE. */
ipp_id fig4_vertex(const char *name);

/* The executed paths printed in Figure 9 (context mode): path number and
 * count.  49 observations over 12 paths. */
struct fig4_obs {
	unsigned number;
	unsigned count;
};
extern const struct fig4_obs fig4_figure9[];
extern const size_t fig4_figure9_len;
/* The same for the piecewise profile printed after Figure 17. */
extern const struct fig4_obs fig4_figure17[];
extern const size_t fig4_figure17_len;

/* Prints a path as the paper's vertex names joined by " -> ". */
void fig4_print_path(FILE *f, const ipp_fin *fin, const ipp_path *p);

#endif
