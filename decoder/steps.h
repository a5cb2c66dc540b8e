/* steps.h -- a decoded path as the list of vertices a reader wants to see:
 * each G*fin vertex of the path (Entry_global and Exit_global left out) with
 * its function, source location and its *kind*: the part the vertex plays
 * in this path.  docs/REPORT.md defines the vocabulary; in short:
 *
 *   entry            Entry_P: the path enters the function here
 *   exit             Exit_P: the function returns here
 *   block            an ordinary vertex
 *   call             a call vertex whose call is followed into the callee
 *   return-site      the vertex where control comes back after a call
 *   summary          a call vertex whose call is not followed (summarized:
 *                    recursive, external, indirect, cut, or intra mode)
 *   surrogate-entry  Entry_P / GEntry_P when the path does not start at the
 *                    function's beginning: it restarts at the next vertex,
 *                    the target of a loop's back edge
 *   cut-entry        the same, restarting at a cut vertex
 *   restart-entry    the same, restarting at a restart vertex (control came
 *                    back through longjmp or a computed goto)
 *   surrogate-exit   GExit_P reached because the path ends at a back edge
 *   cut-exit         GExit_P reached because the next vertex is a cut
 *   gexit            GExit_P reached from a block that ends in a call that
 *                    never returns (exit, abort, longjmp)
 *   gentry           GEntry_P (piecewise) where the path stopped
 *   split            the second half of a split loop header (intra-context)
 *   split-surrogate  the same, reached through the surrogate half-edge:
 *                    the path skips from its first arrival at the loop
 *                    header to a later iteration
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_DECODER_STEPS_H
#define IPP_DECODER_STEPS_H

#include <stdbool.h>
#include <stddef.h>

#include "ipp_core.h"

enum step_kind {
	SK_ENTRY,
	SK_EXIT,
	SK_BLOCK,
	SK_CALL,
	SK_RETSITE,
	SK_SUMMARY,
	SK_SURR_ENTRY,
	SK_CUT_ENTRY,
	SK_RESTART_ENTRY,
	SK_SURR_EXIT,
	SK_CUT_EXIT,
	SK_GEXIT,
	SK_GENTRY,
	SK_SPLIT,
	SK_SPLIT_SURR,
	SK_COUNT
};
const char *step_kind_name(enum step_kind k);

/* One vertex of a decoded path. */
struct step {
	ipp_id vertex;		/* G*fin vertex */
	ipp_id origin;		/* the G* vertex it stands for (locations live there) */
	ipp_id proc;		/* its procedure */
	enum step_kind kind;
	ipp_id callee;		/* call and summary: the callee procedure, or IPP_NONE */
	const char *callee_name;	/* call and summary: the called function's source
					 * name (ipp_call_target_name), in the unit or
					 * not; NULL for an indirect call */
	enum ipp_summary_why why;	/* summary: why the call is not followed */
	bool returns;		/* exit: followed by a return edge into a caller */
};

/* In context and intra-context modes a path recorded after a back edge (or
 * a cut, or a restart) is "context prefix, surrogate edge, active suffix"
 * (Melski & Reps, Section 3.4): the prefix -- how the function whose loop
 * restarted was reached -- repeats vertices an earlier path executed and
 * counted; the active suffix starts at the path's LAST surrogate entry.
 * 'context' counts the steps of the prefix: with a surrogate entry, the
 * steps before the Entry_P / GEntry_P it leaves; with a split-surrogate
 * half-edge, the steps before v_b. */
struct steps {
	struct step *v;
	size_t n;
	size_t context;		/* v[0 .. context-1] are the context prefix */
	bool partial;		/* the path was abandoned after the last step */
};

/* What steps_build() needs to know about a unit besides its G*fin: which
 * vertices are targets of DFS back edges (computed once per unit). */
struct step_ctx {
	const ipp_fin *fin;
	const ipp_graph *g;
	unsigned char *loop_header;	/* per G* vertex */
};
void step_ctx_init(struct step_ctx *c, const ipp_fin *fin);
void step_ctx_fini(struct step_ctx *c);

/* Turns a decoded path (or, if 'partial', a prefix) of G*fin into steps.
 * Returns 0, or -1 with a message if the edges do not form a path. */
int steps_build(const struct step_ctx *c, const ipp_path *path, bool partial,
		struct steps *out, char *err, size_t errlen);
void steps_free(struct steps *s);

#endif
