/* ipp_lines.h -- source lines of a unit and their counts as gcov computes
 * them, derived exactly from a path profile.
 *
 * The plugin records, in the map's `x-lines` extension key (docs/FORMAT.md
 * section 2.9), the source lines of every SEGMENT of a basic block -- the
 * statements from the block's head vertex, or from a call's return site, up
 * to and including the next call -- the way GCC's profiler records a block's
 * lines in the .gcno notes.  The map reader ignores extension keys;
 * ipp_xlines_read_buffer() reads this one.
 *
 * ipp_src_lines_gcov() then applies gcov's own rule (GCC 12, gcov.cc:
 * add_line_counts, accumulate_line_info, get_cycles_count) to the segments,
 * with the counts derived from the paths (ipp_derive.h): a line that ends
 * some segments counts the flow entering that set of segments from outside
 * it plus the cycles within it (Hawick and James's circuit enumeration,
 * each cycle adding its smallest arc); any other line counts the sum of the
 * segments that hold it.  Branches are the out-edges of segments with two
 * or more successors, on the segment's last line, as gcov -b lists them.
 * docs/DERIVE.md section 3 says where the result can still differ from
 * gcov's and why.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_LINES_H
#define IPP_LINES_H

#include "ipp_core.h"
#include "ipp_derive.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One entry of `x-lines`: lines of one run of a single file within the
 * segment that starts at 'vertex' (a block or return-site vertex).  A
 * segment may have several entries (files, and the line of an eliminated
 * goto, which the plugin appends after the statements). */
typedef struct ipp_xline_run {
	ipp_id vertex;
	char *file;
	int *lines;		/* in statement order */
	size_t nlines;
} ipp_xline_run;

/* The x-lines of one map document. */
typedef struct ipp_xlines {
	char *module;		/* the document's `module` */
	uint64_t checksum;	/* its `checksum` */
	ipp_xline_run *runs;	/* in the order of the map; none if the map has no key */
	size_t nruns;
} ipp_xlines;

/* Reads the `module`, `checksum` and `x-lines` keys of every document of a
 * map stream (the contents of a program's .ipp_map sections); every other
 * key is skipped unread.  *out is a malloc'd array of *n entries, one per
 * document, in stream order.  Returns 0, or -1 with a message naming
 * 'name' and the position. */
int ipp_xlines_read_buffer(const char *buf, size_t len, const char *name, ipp_xlines **out,
			   size_t *n, char *err, size_t errlen);
void ipp_xlines_free_all(ipp_xlines *x, size_t n);

/* A source line and its count by gcov's rule. */
typedef struct ipp_src_line {
	const char *file;	/* points into the ipp_xlines or the graph */
	int line;
	uint64_t count;
	bool exact;		/* false: the count needed an edge count the profile
				 * does not determine (parallel removed edges, or a
				 * restart point inside the line); it is then a lower
				 * bound */
} ipp_src_line;

/* One outcome of a conditional branch: the segment ending on file:line
 * leaves through its successor 'succ' (the successors of its last vertex,
 * parallel edges merged, in successor order) 'taken' times. */
typedef struct ipp_src_branch {
	const char *file;
	int line;
	ipp_id vertex;		/* the segment's last vertex (the branching one) */
	size_t block;		/* index of the segment among those branching on this line */
	size_t succ;		/* index of the outcome */
	uint64_t taken;
	bool executed;		/* the segment ran at least once */
	bool known;		/* false: the profile does not determine 'taken' */
} ipp_src_branch;

typedef struct ipp_src_lines {
	ipp_src_line *lines;	/* sorted by file name, then line */
	size_t nlines;
	ipp_src_branch *branches;	/* sorted by file, line, block, succ */
	size_t nbranches;
	size_t ninexact;	/* lines with exact == false */
} ipp_src_lines;

/* The lines and branches of the unit numbered by 'fin', whose map's x-lines
 * are 'x', with the counts 'c' (ipp_derive()), or all zero if c is NULL
 * (the unit never ran).  Each function's declaration line is put first in
 * the segment Entry_P leads to, as GCC's profiler puts it in the first
 * block.  Functions ipp did not instrument have no segments: their lines
 * are missing.  Returns 0, or -1 with a message if an x-lines entry names a
 * vertex that does not start a segment. */
int ipp_src_lines_gcov(const ipp_fin *fin, const ipp_counts *c, const ipp_xlines *x,
		       ipp_src_lines *out, char *err, size_t errlen);
void ipp_src_lines_free(ipp_src_lines *s);

#ifdef __cplusplus
}
#endif
#endif /* IPP_LINES_H */
