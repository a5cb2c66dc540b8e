/* diff.h -- the model of `ipp diff PROGRAM A B`: the path spectra of two
 * profiles of one program compared (after Reps, Ball, Das and Larus, "The
 * use of program profiling for software maintenance with applications to
 * the year 2000 problem", cited in Melski & Reps Section 1), and, for each
 * path that only B executed, where B parted from A.
 *
 * A path is a record of a profile: (unit, region, number) for a complete
 * path, plus the stop stack for a partial one -- the key the profile itself
 * uses.  Both profiles are matched and checked against the program exactly
 * as `ipp report` does it (report_from_profile), so their paths are decoded
 * with the same maps.
 *
 * The divergence of a path p only in B: among the paths of A in the same
 * unit and region, the closest one q is the one with the longest common
 * prefix with p, paths compared as the core decodes them (ipp_decode: the
 * G*fin edge sequences, calls and returns included, so the common prefix
 * also fixes the calling context).  Ties go to the most frequent q, then to
 * the first in A's ranking.  p and q leave the last vertex of their common
 * prefix by different edges: that vertex is the divergence point, and the
 * calls open at it in the prefix are its calling context.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_DECODER_DIFF_H
#define IPP_DECODER_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "program.h"
#include "report.h"

/* One path of either profile, as the comparison sees it. */
enum diff_kind {
	DIFF_SAME,		/* in both, counts within the ratio */
	DIFF_CHANGED,		/* in both, counts differ by more than the ratio */
	DIFF_ONLY_A,
	DIFF_ONLY_B
};

struct diff_path {
	enum diff_kind kind;
	struct rec *a, *b;	/* the record in each report, NULL if absent */
};

/* Where a path only in B parted from A.
 *   branch  the common prefix ends at an ordinary vertex (a condition, a
 *           switch): B went one way, A's closest path the other.  The
 *           headline.
 *   stop    one path is a prefix of the other: one run stopped there
 *           (exit, longjmp, a signal) where the other went on.
 *   restart the common prefix ends at the function's Entry_P: B's path
 *           restarts at a loop header (or cut, or restart point) in a
 *           calling context where A's never does.  A consequence: the path
 *           of B that took that back edge parts from A at a branch.
 *   region  A has no path at all in the region (A never entered it afresh):
 *           vertex is the region's Entry_P, there is no closest path. */
enum div_kind { DIV_BRANCH, DIV_STOP, DIV_RESTART, DIV_REGION };
const char *div_kind_name(enum div_kind k);

/* One path only in B and the closest path of A. */
struct div_member {
	struct diff_path *p;	/* kind DIFF_ONLY_B */
	struct rec *closest;	/* A's closest path; NULL for DIV_REGION */
	size_t common;		/* edges in common (the region's entry edge included) */
	ipp_id b_edge, a_edge;	/* G*fin edges leaving the point; IPP_NONE where a
				 * path stops there (or for DIV_REGION) */
};

/* A divergence point and the paths only in B that part from A there. */
struct divergence {
	enum div_kind kind;
	size_t mod;		/* index into program.mods */
	ipp_id region;
	ipp_id vertex;		/* G*fin vertex of the point */
	ipp_id *context;	/* call vertices open at it, outermost first */
	size_t ncontext;
	uint64_t count;		/* executions of its paths in B (saturating) */
	struct div_member *members;	/* by B's ranking */
	size_t nmembers;
};

struct diff {
	const struct program *prog;
	struct report a, b;		/* every record matched, ranked */
	const char *name_a, *name_b;
	double ratio;
	struct diff_path *paths;	/* by (unit, region, number, stack) */
	size_t npaths;
	size_t nsame, nchanged, nonly_a, nonly_b;
	/* views into paths[], ranked: only in B and only in A by count in
	 * their profile, changed by |count B - count A| (then B's rank) */
	struct diff_path **only_b, **only_a, **changed;
	struct divergence *divs;	/* branch and stop first, then restart,
					 * then region; each by count, then by
					 * their first member's rank in B */
	size_t ndivs;
};

/* Compares profiles 'pa' and 'pb' (named name_a, name_b) of 'prog'.
 * ratio >= 1: a path in both is DIFF_CHANGED when the larger count exceeds
 * ratio times the smaller.  Returns 0, or -1 with a message. */
int diff_build(struct diff *d, const struct program *prog, const ipp_profile *pa,
	       const char *name_a, const ipp_profile *pb, const char *name_b, double ratio,
	       char *err, size_t errlen);
/* Decodes (steps) the record if not done yet.  Returns 0, or -1. */
int diff_decode(struct diff *d, struct rec *x, char *err, size_t errlen);
void diff_free(struct diff *d);

/* Are the spectra equal (nothing only in one, nothing changed)? */
static inline bool diff_equal(const struct diff *d)
{
	return d->nchanged == 0 && d->nonly_a == 0 && d->nonly_b == 0;
}

#endif
