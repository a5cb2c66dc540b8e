/* ipp_derive.h -- what weaker profilers report, derived exactly from a path
 * profile: vertex (block) counts, edge counts, call counts, function entry
 * counts and line counts, plus a flow-conservation check (Kirchhoff's law,
 * Ball & Larus, TOPLAS 1994, Section 2).
 *
 * Input: one profile module (complete paths and partial paths with their
 * counts, see ipp_format.h) and the G*fin it was numbered with.  Forked
 * prefixes (the prefix of a path pending at a fork, which both processes
 * recorded) are derived like partial paths and their counts subtracted.  Every path
 * is decoded and only its ACTIVE SUFFIX is counted (Melski & Reps, Section
 * 3.4): a path recorded after a back edge (or a cut, or an abnormal restart)
 * is "context prefix || surrogate edge || active suffix", and the context
 * prefix repeats executions an earlier path already counted.  Precisely:
 * the active suffix of a path starts at its LAST surrogate entry edge
 * (IPP_E_SURR_ENTRY, or IPP_E_SPLIT_SURR in intra-context mode) and runs to
 * the end; a path with no surrogate entry is active from its first edge.
 * docs/DERIVE.md gives the definitions, what is exact and what is not, the
 * line mapping and the conservation conventions.
 *
 * All counts are uint64_t and saturate at UINT64_MAX; 'saturated' says
 * whether that happened, and ipp_check_flow() then reports the checks that
 * involve a saturated count as inconclusive instead of as violations.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_DERIVE_H
#define IPP_DERIVE_H

#include "ipp_core.h"
#include "ipp_format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Counts derived from one profile module.  Arrays are indexed by G* vertex
 * id (0 .. nvertices-1: the G*fin vertices that are G* vertices; split
 * halves are folded into the header they split), G* edge id, procedure id
 * or G*fin edge id.  Entries that do not apply (e.g. 'returns' of a block)
 * are 0.  Owned by the struct: free with ipp_counts_free(). */
typedef struct ipp_counts {
	size_t nvertices;	/* ipp_graph_nvertices() */
	size_t nedges;		/* ipp_graph_nedges() */
	size_t nprocs;		/* ipp_graph_nprocs() */
	size_t nfin_edges;	/* ipp_fin_nedges() */

	/* ---- per G* vertex ---- */
	uint64_t *vertex;	/* executions.  Entry_P: activations of P (function
				 * entries); Exit_P: normal returns; GExit_P: dead
				 * ends taken (edges to GExit_P of G*); Entry_global,
				 * Exit_global and GEntry_P: 0 (not program points) */
	uint64_t *surr_in;	/* arrivals at v through a removed in-edge (DFS back
				 * edge, in-edge of a cut vertex) or an abnormal
				 * restart (longjmp, computed goto): the surrogate
				 * entries that start active suffixes */
	uint64_t *surr_out;	/* departures from v through a removed out-edge (the
				 * SURR_EXIT edges of active suffixes) */
	uint64_t *stopped;	/* occurrences of v in the stop stacks of partial
				 * paths: an activation stood at v (an open call or
				 * the last vertex) when its path was cut short */
	uint64_t *forked;	/* occurrences of v in the stop stacks of forked
				 * prefixes: an activation stood at v (an open
				 * call, usually of fork(), or the last vertex)
				 * when the process forked; it went on in both
				 * processes, so v's out-flow is its count plus
				 * this (docs/DERIVE.md) */
	uint64_t *abandoned;	/* call vertices: calls still open in a complete path
				 * that ended at a dead end (exit, abort, longjmp),
				 * among them every call of a summarized noreturn
				 * site (IPP_CALL_NORETURN): the path is recorded
				 * before such a call, through c -> c+1 -> GExit_P */
	uint64_t *returns;	/* call vertices c: calls that returned, i.e. the
				 * implicit edge c -> c+1 (RETURN or SUMMARY edges),
				 * but for a summarized noreturn site, where that
				 * edge leads to the dead end (counted in abandoned):
				 * 0 */

	/* ---- per G* edge ---- */
	uint64_t *edge;		/* traversals; 0 where edge_known is 0 */
	unsigned char *edge_known;	/* 1: edge[e] is exact.  0: e is a removed edge
					 * (back edge or in-edge of a cut vertex) whose
					 * own count the profile does not determine;
					 * surr_out[src] / surr_in[dst] hold the totals */

	/* ---- per procedure ---- */
	uint64_t *fresh_entries;	/* activations that started a path of their
					 * own: GLOBAL_ENTRY -> Entry_P (the callee of a
					 * summarized site, main, a callback, ...) */
	uint64_t *fresh_returns;	/* their normal returns: Exit_P -> Exit_global */
	uint64_t *restarts;	/* abnormal restarts in P (arrivals at restart
				 * points that were not back edges or cuts):
				 * sum of surr_in - sum of surr_out over P, 0 if
				 * that is negative (ipp_check_flow reports it) */
	uint64_t *orphans;	/* piecewise only: paths of GEntry regions that ended
				 * at a dead end or were cut short (partial) while
				 * standing in P with no call of the path open.  The
				 * callers of that activation of P, if any, left no
				 * trace in the profile (docs/DERIVE.md, "piecewise") */

	/* ---- per G*fin edge ---- */
	uint64_t *fin_edge;	/* occurrences in active suffixes (the surrogate
				 * entry that starts a suffix included) */

	/* ---- totals ---- */
	uint64_t npaths;	/* complete-path records read */
	uint64_t npartials;	/* partial-path records read */
	uint64_t nforked;	/* forked-prefix records read */
	uint64_t unmatched_forks;	/* edge and vertex counts a forked prefix
					 * would have taken below 0 (left at 0): a
					 * process forked but the paths it had pending
					 * were never written by its parent (a parent
					 * that ended with _exit); ipp_check_flow
					 * reports it */
	uint64_t observations;	/* sum of the counts of paths and partial paths,
				 * minus those of forked prefixes (a path
				 * pending at a fork is recorded by both
				 * processes but was started once) */
	bool saturated;		/* some count reached UINT64_MAX */
} ipp_counts;

/* Derives the counts of profile module pm, whose paths are numbered by fin
 * (pm->mode must be ipp_fin_mode(fin); the caller checks the module against
 * the map, e.g. with ipp_profile_check()).  *out is overwritten.  Returns 0,
 * or -1 with a message (unknown region, undecodable number or stop stack);
 * on failure *out holds nothing to free.
 * Cost: one decode per record, linear in the path length; memory linear in
 * the size of G*fin (nothing is cached per path). */
int ipp_derive(const ipp_fin *fin, const ipp_prof_module *pm, ipp_counts *out,
	       char *err, size_t errlen);
void ipp_counts_free(ipp_counts *c);

/* Flow conservation at every vertex of every instrumented procedure, with
 * the conventions of docs/DERIVE.md (function entries flow into Entry_P; a
 * call vertex flows to its return site, or stops; dead ends and stops are
 * out-flow; removed edges are matched through surr_out / surr_in; calls to
 * a procedure balance its fresh entries and returns; ...).
 * Fills *msgs with *n malloc'd messages, each starting with "violation: "
 * or "inconclusive: " (a check that involves a saturated count).  Returns
 * the number of violations.  For the profile of complete runs (every run
 * returned from main or called exit, no other thread running) there are
 * none.  Free the messages with ipp_flow_free(). */
int ipp_check_flow(const ipp_fin *fin, const ipp_counts *c, char ***msgs, size_t *n);
void ipp_flow_free(char **msgs, size_t n);

/* One call site: its executions and returns.  For a direct site (callee
 * known statically) 'calls' is the count of the arc site -> callee, whatever
 * the site's status (interprocedural or summarized), and callee_asm names
 * the callee even when it is not an instrumented procedure of the unit (a
 * function of another unit or a library, a function of the unit that is
 * not instrumented: ipp_call_target_asm).  For an indirect site callee is
 * IPP_NONE and callee_asm NULL: the path does not say which function was
 * called. */
typedef struct ipp_call_count {
	ipp_id site;		/* call vertex */
	ipp_id caller;		/* its procedure */
	ipp_id callee;		/* ipp_call_callee(), IPP_NONE if indirect or external */
	const char *callee_asm;	/* ipp_call_target_asm(): NULL if indirect or unnamed */
	const char *callee_name;	/* ipp_call_target_name(), as callee_asm */
	bool indirect;
	enum ipp_summary_why why;	/* ipp_fin_call_summary() */
	uint64_t calls;		/* = vertex[site] */
	uint64_t returns;	/* = returns[site]: 0 at a summarized noreturn site */
} ipp_call_count;

/* Every call site of G*, in vertex order, into a malloc'd *out.  Returns
 * the number of entries. */
size_t ipp_counts_calls(const ipp_fin *fin, const ipp_counts *c, ipp_call_count **out);

/* An indirect call arc (context mode, docs/PROTOCOL.md rule 7), exactly
 * as the runtime counted it: 'calls' calls from the indirect call site
 * 'site' (of procedure 'caller') through a pointer to the function whose
 * Entry region is 'callee_region' (its assembler name) in the unit
 * (callee_module, callee_checksum).  callee is that procedure when the
 * unit is the site's own, else IPP_NONE (the decoder resolves other units
 * with their maps).  Calls to functions that are not instrumented in
 * context mode (libc, other modes) have no arc: at a site they make up
 * the difference between the site's 'calls' (ipp_call_count) and the sum
 * of its arcs. */
typedef struct ipp_icall_count {
	ipp_id site;
	ipp_id caller;
	ipp_id callee;
	const char *callee_module;	/* points into the profile module */
	uint64_t callee_checksum;
	const char *callee_region;	/* points into the profile module */
	uint64_t calls;
} ipp_icall_count;

/* Every indirect call arc of profile module pm, which must have passed
 * ipp_profile_check() against fin's map (every site is an indirect call
 * vertex), sorted by site, then callee module, checksum and region, into
 * a malloc'd *out (valid while pm lives).  Returns the number of arcs. */
size_t ipp_counts_icalls(const ipp_fin *fin, const ipp_prof_module *pm, ipp_icall_count **out);

/* A source line: the largest count of a basic-block head located there. */
typedef struct ipp_line_count {
	const char *file;	/* as stored in the graph (not owned) */
	int line;
	uint64_t count;
	ipp_id vertex;		/* the head vertex giving the count */
} ipp_line_count;

/* Per (file, line), the maximum of vertex[] over the HEAD vertices located
 * there: the IPP_V_BLOCK vertices, which the plugin creates one per GIMPLE
 * basic block (tag = block index) at the location of the block's first
 * statement that has one.  Vertices without a location are ignored.  Sorted
 * by file name, then line.  Returns the number of entries (malloc'd *out).
 * This is an approximation of gcov's line counts; docs/DERIVE.md says
 * exactly where they differ.  Per-vertex counts (vertex[], with
 * ipp_vertex_file/line/tag) are exact: aggregate them as you need. */
size_t ipp_counts_lines(const ipp_fin *fin, const ipp_counts *c, ipp_line_count **out);

/* The run-time events of the code the plugin inserted (docs/PROTOCOL.md,
 * "Events"), derived exactly from one profile module by the rule that
 * mirrors plugin/instrument.cc's placement: which body each activation
 * runs (fresh or continuing), which functions push a frame, which edges
 * add to the path register r and the local register l, which multiply by
 * nvc, how each path is counted (inline in an array or a row, through
 * __ipp_row or __ipp_record), what each executed call site does.  For the
 * benchmark's per-event table (bench/README); the runtime's statistics
 * build counts the runtime calls among them independently.  All counts
 * saturate. */
#define IPP_EVENT_FIELDS(X)                                                      \
	/* activations (Entry_P) of instrumented procedures, and returns */     \
	X(activations, "activations: fresh + continuing")                       \
	X(fresh, "fresh activations: the original body, a path of their own")   \
	X(continuing, "continuing activations: the clone NAME.ipp.N")           \
	X(frames, "activations that push a frame (and pop it at a return)")     \
	X(slots, "inlined copies' activations whose checkpoints go to a slot "  \
	  "of their function's frames (no push, no pop)")                          \
	X(counts_calls, "fresh activations of array bodies: each takes its counts array, inline while single-threaded, else by calling __ipp_counts") \
	X(path_saves, "fresh activations that save and restore __ipp_path")     \
	X(returns, "normal returns")                                            \
	X(frame_pops, "returns of activations with a frame")                    \
	X(returns_continuing, "returns of continuing activations: __ipp_path = r") \
	X(returns_lazy, "of them: r from the row tables (lazy-r bodies)")       \
	/* records of complete paths, by site and by route */                   \
	X(records, "records: rec_return + rec_split + rec_dead")                \
	X(rec_return, "at the return of a fresh activation")                    \
	X(rec_split, "at a back edge or an edge into a cut vertex")             \
	X(rec_dead, "at a dead end")                                            \
	X(rec_array, "counted inline in the thread's array: counts[n] += 1")    \
	X(rec_row, "at row sites: row[l] += 1 inline, or __ipp_row")            \
	X(rec_row_return, "of rec_row: paths from a return site (l >= nentry), " \
	  "which __ipp_row passes to __ipp_record")                               \
	X(rec_probe, "probed inline in the region's hash table (two probes): " \
	  "e->count += 1, or __ipp_hmiss when both miss")                         \
	X(rec_hash, "__ipp_record calls from the inserted code")                \
	X(rec_region_small, "records in regions of at most array_max paths")    \
	X(rec_region_32, "records in larger regions of at most 2^32 paths")     \
	X(rec_region_48, "records in larger regions of at most 2^48 paths")     \
	X(rec_region_big, "records in regions of more than 2^48 paths")         \
	/* register arithmetic */                                                \
	X(increments, "r += rho_e(nvc) on edges, inc_e on chords (fresh bodies)")\
	X(local_increments, "l += lambda_e on edges (bodies counting in rows)") \
	X(restarts, "restarts after a split: r and l set")                      \
	X(multiplies, "multiplies by nvc (clones only): edges, records, "        \
	  "restarts, psi at continuing calls, lazy returns")                      \
	/* call sites executed */                                                \
	X(calls, "call sites executed: the next three")                          \
	X(calls_interproc, "continuing calls to a clone (path state passed)")   \
	X(calls_summarized, "summarized calls that may return")                 \
	X(calls_dead, "summarized calls that never return (recorded before)")   \
	X(calls_cut, "of all: at cut call vertices (a split before)")           \
	X(calls_framed, "checkpoints around summarized calls in a body with a "  \
	  "frame, and around inlined copies that keep one (frame.path, "          \
	  "frame.vertex stored)")                                                 \
	X(calls_bare, "of calls_framed: bare, the number a constant, not "      \
	  "stored (IPP_CALL_BARE: frame.vertex alone, here and at the "         \
	  "return site)")                                                        \
	X(calls_indirect, "of the summarized and the dead: through a pointer "   \
	  "(context: the arc counted in the site's cache)")                      \
	X(interproc_returns, "continuing calls that returned: r = __ipp_path")  \
	X(dead_marks, "dead ends that mark a frame recorded (vertex = -1)")     \
	X(dead_marks_top, "of them: through __ipp_top (frameless clones)")      \
	X(icall_arcs, "indirect call arcs counted (arc cache or __ipp_icall)")   \
	/* what the profile holds */                                             \
	X(path_counts, "sum of the complete-path record counts")                \
	X(partial_counts, "sum of the partial-path record counts")

/* One count per field above, with the meanings docs/PROTOCOL.md
 * ("Events") defines exactly.  In short: activations = fresh + continuing;
 * records = rec_return + rec_split + rec_dead = rec_array + rec_row +
 * rec_probe + rec_hash = rec_region_* summed = path_counts; calls = calls_interproc +
 * calls_summarized + calls_dead (calls_cut among all three, calls_indirect
 * among the summarized and the dead; calls_framed counts the summarized
 * calls in framed bodies and the inlined copies' checkpoints). */
typedef struct ipp_events {
#define IPP_EVENT_FIELD(name, what) uint64_t name;
	IPP_EVENT_FIELDS(IPP_EVENT_FIELD)
#undef IPP_EVENT_FIELD
	bool saturated;		/* some count reached UINT64_MAX */
} ipp_events;

/* The limits the plugin and the runtime share (runtime/ipp_abi.h):
 * IPP_ARRAY_MAX, the largest region a fresh body counts in an array, and
 * IPP_ROW_MAX, the most local paths a procedure counts in rows. */
typedef struct ipp_events_limits {
	uint64_t array_max;
	uint64_t row_max;
} ipp_events_limits;

/* Derives the events of profile module pm, which must have passed
 * ipp_profile_check() against fin's map: every record is decoded once and
 * its active suffix attributed to the fresh or the continuing body of each
 * procedure it passes.  Only the modes the plugin instruments (intra,
 * context) have events: other modes return -1 with a message, as does a
 * record that does not decode. */
int ipp_events_derive(const ipp_fin *fin, const ipp_prof_module *pm,
		      const ipp_events_limits *lim, ipp_events *out, char *err, size_t errlen);
/* sum += x, field by field (saturating). */
void ipp_events_add(ipp_events *sum, const ipp_events *x);

#ifdef __cplusplus
}
#endif
#endif /* IPP_DERIVE_H */
