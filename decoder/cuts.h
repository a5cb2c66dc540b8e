/* cuts.h -- the cuts model behind `ipp report --cuts`: per unit, its cut
 * vertices and cut call sites with the reason each was made, and every call
 * site whose call is summarized (not followed) with why.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_DECODER_CUTS_H
#define IPP_DECODER_CUTS_H

#include <stddef.h>

#include "ipp_core.h"
#include "program.h"

/* Why a cut was made.  The plugin chooses cuts with ipp_autocut() for the
 * limit recorded in the map; the decoder runs it again and compares. */
enum cut_why {
	CUT_LIMIT,	/* ipp_autocut() chooses it for the map's limit */
	CUT_FORCED,	/* in the map, but ipp_autocut() does not choose it */
	CUT_UNKNOWN	/* ipp_autocut() cannot run for this map (limit < 2) */
};
const char *cut_why_name(enum cut_why w);	/* "limit", "forced", "unknown" */

struct cut_entry {
	ipp_id vertex;		/* G* vertex: the cut vertex, or the call vertex */
	enum cut_why why;
};

struct mod_cuts {
	struct cut_entry *vertices;
	size_t nvertices;
	struct cut_entry *calls;
	size_t ncalls;
	ipp_id *summaries;	/* call vertices not IPP_SUM_NONE, increasing */
	size_t nsummaries;
};

struct cuts_report {
	const struct program *prog;
	struct mod_cuts *mods;	/* [prog->nmods] */
};

void cuts_report_build(struct cuts_report *c, const struct program *prog);
void cuts_report_free(struct cuts_report *c);

#endif
