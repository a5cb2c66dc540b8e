/* brute.h -- a brute-force oracle for the ipp numbering core.
 *
 * Everything here is computed from the definitions of Melski & Reps (TR-1382),
 * never from psi/rho or the core's encoder/decoder:
 *
 *  - the observable paths of a G*fin are the paths from a region's
 *    GLOBAL_ENTRY edge to Exit_global whose parenthesis string is valid for
 *    the mode (Section 2.2; Section 6 for piecewise), found by walking the
 *    graph exposed by the ipp_fin_* accessors with an explicit stack;
 *  - numValidComps(q) is the number of those paths having q as a prefix;
 *  - edgeValueInContext(p', v->w_i) = sum_{j<i} numValidComps(p' || v->w_j)
 *    over the successors of p' in successor order (equation 6; invalid
 *    successors contribute 0), and a path's number in its region is the sum
 *    of edgeValueInContext over its prefixes after the region edge
 *    (equation 7 minus the region offset).
 *
 * Labels (decided by the kinds of an edge's endpoints, not by its edge kind):
 *   call vertex c -> Entry_Q            "(c"
 *   Exit_Q -> return site r             ")c" with c = r - 1
 *   Entry_global -> Entry_P             "(P"
 *   Exit_P -> Exit_global               ")P"
 *   Entry_global -> GEntry_P, GExit_P -> Exit_global, all others: e
 * context / intra / intra-context accept unbalanced-left strings: a right
 * parenthesis must match the top of the stack.  piecewise accepts
 * unbalanced-right-left strings: a right parenthesis must match the top of a
 * non-empty stack and may go unmatched only while the stack is empty.
 *
 * Two engines:
 *  - brute_check_enum() enumerates every path of every region (for small
 *    graphs) and checks the properties selected by a mask;
 *  - brute_counter memoises numValidComps on (vertex, open-parenthesis stack),
 *    which scales to counts past 2^64; it ranks and unranks paths by the
 *    definition and backs brute_check_sampled().
 *
 * Failures are printed to stdout with the caller's label (seed, mode, ...),
 * the region and the path as an edge list, so that they can be reproduced.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_TEST_BRUTE_H
#define IPP_TEST_BRUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <gmp.h>
#include "ipp_core.h"

/* Properties (bit mask). */
#define BRUTE_COUNT	 0x01u	/* enumerated count == ipp_fin_region_total; offsets, nvc, total */
#define BRUTE_BIJECTION	 0x02u	/* encode numbers of a region are exactly 0..total-1 */
#define BRUTE_DECODE	 0x04u	/* decode(n) == the path numbered n by the definition */
#define BRUTE_DEFINITION 0x08u	/* encode(path) == the number by equations 6-7 */
#define BRUTE_PREFIX	 0x10u	/* encode/decode_partial of every proper prefix */
#define BRUTE_REJECT	 0x20u	/* encode rejects a valid prefix followed by an invalid edge */
#define BRUTE_ALL	 0x3fu

typedef struct brute_stats {
	unsigned long regions;	/* regions checked */
	unsigned long paths;	/* complete paths checked */
	unsigned long prefixes;	/* proper prefixes checked */
	unsigned long rejects;	/* invalid sequences checked */
	unsigned long failures;	/* failed checks */
} brute_stats;

/* Enumerates every path of every region of f and checks 'props'.  A region
 * whose enumeration exceeds 'max_paths' complete paths is reported as a
 * failure (the core's count must then be wrong, or the caller should not
 * have enumerated it).  At most 'max_reports' failures are printed.
 * Returns the number of failures (also added to st->failures). */
unsigned long brute_check_enum(const ipp_fin *f, unsigned props, const char *label,
			       uint64_t max_paths, unsigned max_reports, brute_stats *st);

/* The number of valid paths of region r, by enumeration (no numbering
 * involved).  Returns false if the enumeration exceeded max_paths or the
 * graph is malformed (out is then meaningless). */
bool brute_enum_count(const ipp_fin *f, ipp_id region, uint64_t max_paths, uint64_t *out);

/* Memoised counting of valid completions (definitions only). */
typedef struct brute_counter brute_counter;
brute_counter *brute_counter_new(const ipp_fin *f);
void brute_counter_free(brute_counter *c);
/* Paths in region r.  Returns false on a malformed graph (a cycle of valid
 * prefixes, i.e. infinitely many paths). */
bool brute_counter_region(brute_counter *c, ipp_id region, mpz_t out);
/* numUnbalRLPaths[v] (piecewise): valid paths from v to Exit_global that
 * start with an empty stack. */
bool brute_counter_from_vertex(brute_counter *c, ipp_id v, mpz_t out);
/* The partial sum (equations 6-7) of a path or prefix starting with a
 * GLOBAL_ENTRY edge, its region, and its expected stop stack (open call
 * vertices, outermost first, then the last vertex; malloc'ed, may be NULL).
 * Returns false with a message if the edges are not a valid prefix. */
bool brute_counter_number(brute_counter *c, const ipp_id *edges, size_t n, ipp_id *region,
			  mpz_t num, ipp_id **stack, size_t *nstack, char *err, size_t errlen);
/* The path of region r numbered 'num' by the definition (unranking in
 * successor order).  Returns false if num is out of range. */
bool brute_counter_unrank(brute_counter *c, ipp_id region, const mpz_t num, ipp_path *out);

/* Samples 'nsamples' numbers per region (plus 0 and total-1) with a
 * deterministic GMP generator seeded by 'seed', and checks 'props' on the
 * sampled paths and one random proper prefix of each.  For graphs too large
 * to enumerate.  Returns the number of failures. */
unsigned long brute_check_sampled(const ipp_fin *f, unsigned props, const char *label,
				  unsigned nsamples, uint64_t seed, unsigned max_reports,
				  brute_stats *st);

/* Prints "label: mode M, region R (name): what" and the edges of a path. */
void brute_print_path(const ipp_fin *f, const ipp_id *edges, size_t n);

#endif /* IPP_TEST_BRUTE_H */
