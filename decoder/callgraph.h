/* callgraph.h -- gprof's flat profile and call graph, from the counts
 * derived from a path profile, and what gprof cannot know: the exact cost
 * of a routine's calls per caller.
 *
 * COST is counted in basic blocks executed: the executions of the plugin's
 * block vertices (one per GIMPLE basic block, docs/DERIVE.md), exact.
 *
 * gprof's model (Graham, Kessler and McKusick; ../shared/papers/gprof-
 * callgraph-equations.txt): a routine's total cost is its self cost plus,
 * for each child, the child's total times the share of the child's calls
 * made from this routine, T_r = S_r + sum_c T_c * C_r^c / C_c; strongly
 * connected components of the call graph (recursive cycles) are collapsed
 * into one node whose calls from outside share its cost, and calls inside
 * a cycle or to oneself propagate nothing.  The calls C are exact here (the
 * arcs of `ipp counts --calls`), so the flat profile and the call graph
 * are gprof's with exact counts; the propagated children columns keep
 * gprof's assumption that every call of a routine costs the same.
 *
 * The paths show where that assumption is wrong.  In context mode a path
 * holds the calls it follows, so each block a path executes in routine Q is
 * known to run in an activation of Q called from the routine below it on
 * the path's call stack: summing over the paths splits Q's self cost (and,
 * along the whole stack, the cost of Q with the descendants the paths
 * follow) per caller, exactly.  Activations that start paths of their own
 * (called through a summarized call: another unit, a pointer, recursion;
 * every call in intra mode) are split only when a single caller made
 * every such call.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_DECODER_CALLGRAPH_H
#define IPP_DECODER_CALLGRAPH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"

struct cg_node {
	size_t unit;
	ipp_id proc;
	const char *name;
	uint64_t self;		/* blocks executed in it */
	uint64_t entries;	/* activations (Entry_P) */
	uint64_t calls;		/* calls from other routines of the program */
	uint64_t self_calls;	/* calls to itself */
	uint64_t spontaneous;	/* entries no arc of the program explains (main,
				 * callbacks from libraries, signal handlers) */
	size_t comp;		/* its strongly connected component */
	double child;		/* children's cost propagated to it (gprof) */
	size_t index;		/* [index] in the call graph, from 1 */
	/* the exact split: blocks of fresh activations (paths of its own) */
	uint64_t fresh_self, fresh_total;
};

struct cg_arc {
	size_t from, to;	/* nodes */
	uint64_t calls;
	double prop_self, prop_child;	/* gprof's share of the callee's cost
					 * (0 inside a cycle) */
	/* the exact split (exact == true): blocks executed in the callee's
	 * activations called from 'from', in the callee itself (self) and with
	 * the descendants the paths follow (total) */
	bool exact;
	uint64_t self, total;
	uint64_t in_path;	/* calls through interprocedural sites */
};

/* A strongly connected component: one routine, or a cycle. */
struct cg_comp {
	size_t *members, nmembers;
	int cycle;		/* gprof's cycle number, 0 for a single routine */
	uint64_t self, calls_in, calls_inside;
	double child;
	size_t index;		/* a cycle's [index] */
};

struct callgraph {
	const struct derived *d;
	struct cg_node *nodes;
	size_t nnodes;
	struct cg_arc *arcs;	/* sorted by (from, to) */
	size_t narcs;
	struct cg_comp *comps;	/* callees before callers */
	size_t ncomps;
	uint64_t total_self;	/* all blocks executed */
	uint64_t outside_calls;	/* calls to functions outside the program's units */
	ipp_id **origin;	/* per unit: the procedure each one counts as
				 * (fn_counts: an inlined copy as its function) */
};

/* Builds the call graph of d (every unit derived).  Returns 0, or -1 after
 * the message. */
int callgraph_build(struct callgraph *cg, const struct derived *d);
void callgraph_free(struct callgraph *cg);

/* The text: flat profile, call graph (gprof -b's layout) and the per-caller
 * split (every routine with 'all', else those whose calls cost differently
 * per caller). */
void callgraph_write(FILE *out, const struct callgraph *cg, bool all);

#endif
