/* ipp_core.h -- the path-numbering core shared by the plugin and the decoder.
 *
 * This is the single source of truth for how ipp numbers paths.  The GCC
 * plugin builds a supergraph through this API, asks the core to number it
 * (and to choose cuts), and emits instrumentation from the resulting psi/rho
 * functions.  The decoder rebuilds the same supergraph from the map stored
 * in the binary, renumbers it with the same code, and decodes path numbers.
 *
 * Vocabulary follows Melski & Reps, "Interprocedural Path Profiling"
 * (UW-Madison TR-1382, 1998); see docs/GLOSSARY.md:
 *
 *   G*        the supergraph: one CFG per procedure, call and return-site
 *             vertices, Entry_global / Exit_global.       (Section 2.2)
 *   G*fin     G* after Transformations 0-3: acyclic CFGs and an acyclic
 *             call graph.  Built by ipp_fin_new().        (Section 3.2, 6)
 *   psi_v     linear function <a,b> = lambda x. a*x+b giving the number of
 *             valid completions from v given the number from Exit_P.
 *   rho_e     linear function giving the value an edge adds to pathNum.
 *   nvc       numValidCompsFromExit, the argument psi and rho are applied to.
 *   region    one Entry_global -> Entry_P (or -> GEntry_P) edge.  Paths are
 *             numbered densely *within* their region: a counter is keyed by
 *             (module, region, number in region).  Region offsets give the
 *             paper's single global numbering when wanted (equation 27).
 *   surrogate the Entry_P -> v and w -> GExit_P edges that replace a DFS
 *             back edge w -> v (Transformation 2) or the in-edges of a cut
 *             vertex v.
 *   summary   the c -> r edge that replaces the call and return edges of a
 *             summarized call site (Transformation 3): recursive sites (call
 *             graph DFS back edges), calls out of the unit, indirect calls,
 *             and sites cut on purpose (Section 8 hybrids, or to fit 64 bits).
 *
 * All arithmetic on path counts is exact (GMP).  Identifiers are dense
 * non-negative ints; IPP_NONE (-1) means "none".
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_CORE_H
#define IPP_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <gmp.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t ipp_id;
#define IPP_NONE ((ipp_id)-1)

/* ------------------------------------------------------------------ */
/* Numbering modes                                                      */
/* ------------------------------------------------------------------ */
enum ipp_mode {
	IPP_MODE_CONTEXT = 0,	/* interprocedural context (Section 5): unbalanced-left paths */
	IPP_MODE_PIECEWISE,	/* interprocedural piecewise (Section 6): unbalanced-right-left */
	IPP_MODE_INTRA,		/* intraprocedural Ball-Larus: every call site summarized */
	IPP_MODE_INTRA_CONTEXT,	/* intraprocedural context (Section 7); irreducible
				 * procedures fall back to IPP_MODE_INTRA numbering */
	IPP_MODE_COUNT
};
const char *ipp_mode_name(enum ipp_mode m);		/* "context", "piecewise", "intra", "intra-context" */
int ipp_mode_parse(const char *s, enum ipp_mode *out);	/* 0 on success, -1 unknown */

/* ------------------------------------------------------------------ */
/* The input supergraph G*                                              */
/* ------------------------------------------------------------------ */
enum ipp_vkind {
	IPP_V_BLOCK = 0,	/* ordinary vertex (a basic block or part of one) */
	IPP_V_CALL,		/* call vertex c; its return site is always c+1 */
	IPP_V_RETSITE,		/* return-site vertex r */
	IPP_V_ENTRY,		/* Entry_P */
	IPP_V_EXIT,		/* Exit_P */
	IPP_V_GEXIT,		/* GExit_P (Transformation 1) */
	IPP_V_GENTRY,		/* GEntry_P (Transformation 0; used in piecewise mode only) */
	IPP_V_SPLIT,		/* v_b half of a split loop header (intra-context, G*fin only) */
	IPP_V_GLOBAL_ENTRY,	/* Entry_global (vertex 0) */
	IPP_V_GLOBAL_EXIT,	/* Exit_global (vertex 1) */
	IPP_V_KIND_COUNT
};
const char *ipp_vkind_name(enum ipp_vkind k);
int ipp_vkind_parse(const char *s, enum ipp_vkind *out);

/* Procedure flags. */
#define IPP_PROC_ENTRY		0x1u	/* may be entered other than through the unit's
					 * interprocedural call edges (main, externally
					 * visible, address-taken): gets Entry_global -> Entry_P */
#define IPP_PROC_SKIPPED	0x2u	/* not instrumented; has no body in the graph */
#define IPP_PROC_INLINED	0x4u	/* a virtual procedure: a copy of a function that
					 * GCC inlined into another procedure, entered only
					 * through its one call site, an IPP_CALL_INLINED
					 * call vertex of the procedure it was inlined into
					 * (docs/NUMBERING.md, "Inlined copies"); with
					 * IPP_PROC_SKIPPED, a copy whose blocks are its
					 * caller's own (flattened): no call site, no body */

/* Call-site flags. */
#define IPP_CALL_INDIRECT	0x1u	/* through a pointer: callee unknown (callee = IPP_NONE) */
#define IPP_CALL_FORCE_SUMMARY	0x2u	/* apply Transformation 3 even if not recursive
					 * (Section 8 hybrids; "cut" call sites) */
#define IPP_CALL_NORETURN	0x4u	/* callee never returns (informational) */
#define IPP_CALL_TAIL		0x8u	/* a tail call kept a sibling call: summarized
					 * (with IPP_CALL_FORCE_SUMMARY), the caller's
					 * path through its return is recorded before
					 * it (docs/PROTOCOL.md, "Tail calls") */
#define IPP_CALL_INLINED	0x10u	/* the call site of an inlined copy: the callee is
					 * an IPP_PROC_INLINED procedure, whose blocks lie
					 * in the caller's body (no call instruction) */
#define IPP_CALL_LEAF		0x20u	/* a direct call to a function declared `leaf`:
					 * it returns to the unit only by returning, so
					 * it needs no checkpoint (docs/PROTOCOL.md) */
#define IPP_CALL_SLOT		0x40u	/* the call site of an inlined copy that keeps
					 * its checkpoints in a slot of its function's
					 * frames, pushing no frame (ABI 13, struct
					 * ipp_rt_slot): informational, for the events */
#define IPP_CALL_BARE		0x80u	/* a summarized call whose path number is a
					 * constant: its checkpoints store the vertex
					 * alone (ABI 14, IPP_VERTEX_RESTART):
					 * informational, for the events */

typedef struct ipp_graph ipp_graph;

/* A new graph holds only Entry_global (vertex 0) and Exit_global (vertex 1). */
ipp_graph *ipp_graph_new(void);
void ipp_graph_free(ipp_graph *g);

/* Adds a procedure and its Entry_P, Exit_P, GExit_P and GEntry_P vertices,
 * in that order.  'name' is the source name, 'asm_name' the assembler name
 * (unique in the unit; regions are named by it).  Procedures must be added
 * in source order: the order fixes the call-graph DFS (which call sites are
 * recursive) and the order of regions. */
ipp_id ipp_add_proc(ipp_graph *g, const char *name, const char *asm_name, unsigned flags);

/* Adds an ordinary vertex to procedure p. */
ipp_id ipp_add_block(ipp_graph *g, ipp_id p);

/* Adds a call vertex and its return-site vertex (id = returned id + 1).
 * callee is a procedure of this graph, or IPP_NONE for a call out of the
 * unit or through a pointer.  The call -> return flow is implicit: never add
 * edges out of a call vertex or into a return-site vertex.  Call sites must
 * be added in statement order within a procedure. */
ipp_id ipp_add_call(ipp_graph *g, ipp_id p, ipp_id callee, unsigned flags);

/* Names the function the direct call vertex c calls: its assembler name and
 * its source name (name NULL, or equal to asm_name: the same).  Meant for
 * the calls whose callee is IPP_NONE although the call is direct -- a
 * function of another unit or a library, a function of this unit that is
 * not instrumented (IPP_PROC_SKIPPED), a built-in -- so that the decoder
 * can name them; such a call is summarized like any call out of the unit.
 * Never for an indirect call; for a call with a callee procedure, only
 * that procedure's own names (ipp_graph_check checks both).  The names do
 * not take part in the numbering. */
void ipp_set_call_target(ipp_graph *g, ipp_id c, const char *asm_name, const char *name);

/* Adds the intraprocedural edge src -> dst and returns its id.  Parallel
 * edges are distinct edges.  The order in which a vertex's out-edges are
 * added is its successor order, which fixes the numbering.  A block that
 * ends the path abruptly (a call to exit/abort/longjmp) gets an edge to
 * GExit_P. */
ipp_id ipp_add_edge(ipp_graph *g, ipp_id src, ipp_id dst);

/* Marks v (a BLOCK or RETSITE vertex) as a restart point: control can
 * arrive there abnormally (a longjmp returning through setjmp, a computed
 * goto), so a path may start at v.  G*fin gets a surrogate Entry_P -> v
 * (GEntry_P -> v in piecewise mode) while v's in-edges stay. */
void ipp_set_restart(ipp_graph *g, ipp_id v);
bool ipp_vertex_is_restart(const ipp_graph *g, ipp_id v);

/* Optional source location of a vertex (file is interned; may be NULL). */
void ipp_set_loc(ipp_graph *g, ipp_id v, const char *file, int line, int col);
/* Optional opaque tag (the plugin stores the GIMPLE basic-block index). */
void ipp_set_tag(ipp_graph *g, ipp_id v, int tag);
void ipp_set_proc_flags(ipp_graph *g, ipp_id p, unsigned flags);
void ipp_set_call_flags(ipp_graph *g, ipp_id c, unsigned flags);

/* Read access. */
size_t ipp_graph_nprocs(const ipp_graph *g);
size_t ipp_graph_nvertices(const ipp_graph *g);
size_t ipp_graph_nedges(const ipp_graph *g);
const char *ipp_proc_name(const ipp_graph *g, ipp_id p);
const char *ipp_proc_asm(const ipp_graph *g, ipp_id p);
unsigned ipp_proc_flags(const ipp_graph *g, ipp_id p);
ipp_id ipp_proc_entry(const ipp_graph *g, ipp_id p);
ipp_id ipp_proc_exit(const ipp_graph *g, ipp_id p);
ipp_id ipp_proc_gexit(const ipp_graph *g, ipp_id p);
ipp_id ipp_proc_gentry(const ipp_graph *g, ipp_id p);
ipp_id ipp_proc_find(const ipp_graph *g, const char *asm_name);	/* IPP_NONE if absent */
/* The call vertex of an inlined procedure's one call site, or IPP_NONE if
 * p is not IPP_PROC_INLINED. */
ipp_id ipp_proc_inline_site(const ipp_graph *g, ipp_id p);
/* The procedure that stands for each procedure's source function in
 * per-function counts (entries, call arcs): out[p] = p, unless p is an
 * inlined copy (IPP_PROC_INLINED, asm name "CALLER/ASM:N"); then the
 * unit's own procedure ASM if it is instrumented, else the first
 * instrumented copy of ASM (the lowest id).  out has room for
 * ipp_graph_nprocs(g) ids; a flattened copy (skipped) maps to its
 * function's procedure too, or to itself if there is none. */
void ipp_proc_origins(const ipp_graph *g, ipp_id *out);
enum ipp_vkind ipp_vertex_kind(const ipp_graph *g, ipp_id v);
ipp_id ipp_vertex_proc(const ipp_graph *g, ipp_id v);	/* IPP_NONE for the global vertices */
const char *ipp_vertex_file(const ipp_graph *g, ipp_id v);	/* NULL if unknown */
int ipp_vertex_line(const ipp_graph *g, ipp_id v);	/* 0 if unknown */
int ipp_vertex_col(const ipp_graph *g, ipp_id v);
int ipp_vertex_tag(const ipp_graph *g, ipp_id v);	/* -1 if unset */
ipp_id ipp_call_callee(const ipp_graph *g, ipp_id c);
unsigned ipp_call_flags(const ipp_graph *g, ipp_id c);
/* The assembler / source name of the function call vertex c calls: the
 * names given with ipp_set_call_target, else those of the callee procedure,
 * else NULL (an indirect call, or a direct call nobody named). */
const char *ipp_call_target_asm(const ipp_graph *g, ipp_id c);
const char *ipp_call_target_name(const ipp_graph *g, ipp_id c);
ipp_id ipp_edge_src(const ipp_graph *g, ipp_id e);
ipp_id ipp_edge_dst(const ipp_graph *g, ipp_id e);
size_t ipp_vertex_nout(const ipp_graph *g, ipp_id v);	/* out-edges, in successor order */
ipp_id ipp_vertex_out(const ipp_graph *g, ipp_id v, size_t i);

/* Checks the structural rules above.  Returns 0, or -1 with a message. */
int ipp_graph_check(const ipp_graph *g, char *err, size_t errlen);

/* DFS back edges of procedure CFGs: a DFS from Entry_P following successor
 * order (then from any vertex not yet reached, in id order).  Deterministic;
 * handles irreducible graphs.  Returns true if graph edge e is one. */
bool ipp_graph_is_back_edge(const ipp_graph *g, ipp_id e);
/* Recursive call sites: DFS back edges of the call graph, procedures taken
 * in the order they were added, call sites in statement order. */
bool ipp_graph_is_recursive_call(const ipp_graph *g, ipp_id c);

/* Ball-Larus TOPLAS'94 Section 5 static weights (loops x10, branches split
 * evenly), per procedure with weight(Entry_P) = 1.  Used to choose cuts. */
double ipp_graph_vertex_weight(const ipp_graph *g, ipp_id v);

/* ------------------------------------------------------------------ */
/* Cuts                                                                 */
/* ------------------------------------------------------------------ */
/* A cut vertex v is split through a surrogate pair, as a back edge is:
 * every in-edge u -> v is replaced by u -> GExit_P and Entry_P -> v (or
 * GEntry_P -> v) is added, so paths end when they reach v and restart at v.
 * A cut call site gets Transformation 3.  Cut vertices must be BLOCK or
 * CALL vertices; cut calls must be CALL vertices. */
typedef struct ipp_cuts {
	ipp_id *vertices;	/* sorted, unique */
	size_t nvertices;
	ipp_id *calls;		/* sorted, unique */
	size_t ncalls;
} ipp_cuts;
void ipp_cuts_init(ipp_cuts *c);
void ipp_cuts_free(ipp_cuts *c);
void ipp_cuts_add_vertex(ipp_cuts *c, ipp_id v);
void ipp_cuts_add_call(ipp_cuts *c, ipp_id call);

/* Chooses cuts so that every region of 'mode' has at most 'limit' paths
 * (numbers fit in [0, limit-1]), and so has every vertex v of G*fin,
 * psi_v(1) <= limit, whether a path from a region reaches it or not (the
 * plugin emits every psi as a constant).  Deterministic.  Bottom-up over
 * the call graph, every procedure; within a procedure, summarizes call
 * sites first (coldest by static weight first) and cuts vertices only when
 * the procedure alone is too big.  'cuts' may hold forced cuts
 * on entry; chosen cuts are added.  Returns 0, or -1 with a message: the
 * graph is invalid, limit < 2, or some procedure cannot be cut below the
 * limit at all (e.g. a vertex with more parallel edges to Exit_P than the
 * limit).  See docs/NUMBERING.md section 6. */
int ipp_autocut(const ipp_graph *g, enum ipp_mode mode, const mpz_t limit,
		ipp_cuts *cuts, char *err, size_t errlen);

/* ------------------------------------------------------------------ */
/* G*fin and its psi/rho functions                                      */
/* ------------------------------------------------------------------ */
enum ipp_ekind {
	IPP_E_NORMAL = 0,	/* intraprocedural edge of G* kept in G*fin */
	IPP_E_SURR_ENTRY,	/* Entry_P / GEntry_P -> v (Transformation 2, or a cut) */
	IPP_E_SURR_EXIT,	/* w -> GExit_P (Transformation 2, or a cut) */
	IPP_E_SUMMARY,		/* c -> r at a summarized call site (Transformation 3) */
	IPP_E_CALL,		/* c -> Entry_Q */
	IPP_E_RETURN,		/* Exit_Q -> r */
	IPP_E_GLOBAL_ENTRY,	/* Entry_global -> Entry_P / GEntry_P: a region */
	IPP_E_GLOBAL_EXIT,	/* Exit_P / GExit_P -> Exit_global */
	IPP_E_SPLIT,		/* v_a -> v_b, intra-context, ordinary */
	IPP_E_SPLIT_SURR,	/* v_a -> v_b, intra-context, surrogate */
	IPP_E_KIND_COUNT
};
const char *ipp_ekind_name(enum ipp_ekind k);

/* Why a call site is summarized in G*fin. */
enum ipp_summary_why {
	IPP_SUM_NONE = 0,	/* interprocedural: call and return edges kept */
	IPP_SUM_RECURSIVE,	/* call-graph DFS back edge */
	IPP_SUM_EXTERNAL,	/* callee not in the unit */
	IPP_SUM_INDIRECT,	/* through a pointer */
	IPP_SUM_CUT,		/* IPP_CALL_FORCE_SUMMARY or a cut */
	IPP_SUM_INTRA		/* intraprocedural modes summarize every site */
};
const char *ipp_summary_why_name(enum ipp_summary_why w);

typedef struct ipp_fin ipp_fin;

/* Builds G*fin for 'mode' with 'cuts' (may be NULL) and solves psi/rho
 * bottom-up (equations 19-24), regions (eq. 27) and, in piecewise mode,
 * numUnbalRLPaths and edgeValue (eq. 33-35).  Vertices 0..nvertices(g)-1 of
 * G*fin are the vertices of g with the same ids; intra-context split halves
 * are appended.  Returns NULL with a message on error. */
ipp_fin *ipp_fin_new(const ipp_graph *g, enum ipp_mode mode, const ipp_cuts *cuts,
		     char *err, size_t errlen);
void ipp_fin_free(ipp_fin *f);

const ipp_graph *ipp_fin_graph(const ipp_fin *f);
enum ipp_mode ipp_fin_mode(const ipp_fin *f);

size_t ipp_fin_nvertices(const ipp_fin *f);
enum ipp_vkind ipp_fin_vkind(const ipp_fin *f, ipp_id v);
ipp_id ipp_fin_vproc(const ipp_fin *f, ipp_id v);
ipp_id ipp_fin_vorigin(const ipp_fin *f, ipp_id v);	/* G* vertex it stands for */
size_t ipp_fin_nsucc(const ipp_fin *f, ipp_id v);
ipp_id ipp_fin_succ(const ipp_fin *f, ipp_id v, size_t i);	/* edge id, successor order */

size_t ipp_fin_nedges(const ipp_fin *f);
enum ipp_ekind ipp_fin_ekind(const ipp_fin *f, ipp_id e);
ipp_id ipp_fin_esrc(const ipp_fin *f, ipp_id e);
ipp_id ipp_fin_edst(const ipp_fin *f, ipp_id e);
ipp_id ipp_fin_eorigin(const ipp_fin *f, ipp_id e);	/* G* edge replaced or kept; else IPP_NONE */
ipp_id ipp_fin_ecall(const ipp_fin *f, ipp_id e);	/* call vertex of CALL/RETURN/SUMMARY edges */

/* psi_v = <a,b>; rho_e = <a,b>.  For RETURN edges in piecewise mode rho is
 * <0, edgeValue> (applied only when no left parenthesis is open). */
void ipp_fin_psi(const ipp_fin *f, ipp_id v, mpz_t a, mpz_t b);
void ipp_fin_rho(const ipp_fin *f, ipp_id e, mpz_t a, mpz_t b);
/* Piecewise only: numUnbalRLPaths[v] for Exit_P and return-site vertices. */
void ipp_fin_num_unbal_rl(const ipp_fin *f, ipp_id v, mpz_t out);

enum ipp_summary_why ipp_fin_call_summary(const ipp_fin *f, ipp_id c);
bool ipp_fin_is_cut_vertex(const ipp_fin *f, ipp_id v);
/* Intra-context: true if procedure p fell back to Ball-Larus numbering
 * because its CFG is irreducible. */
bool ipp_fin_proc_fallback(const ipp_fin *f, ipp_id p);
/* Does procedure p record at a restart: does a surrogate edge to GExit
 * leave one of its vertices (a back edge's source, or a cut)?  Then an
 * activation may record several paths (the plugin counts those in rows:
 * ipp_prepare_rows; events.c derives the same rule). */
bool ipp_fin_proc_restarts(const ipp_fin *f, ipp_id p);

/* Increments on chords (chords.c; Ball & Larus TOPLAS'94, section 3.3):
 * the path register r at vertex v is the partial sum of the path's rho
 * values plus off(v) (mod 2^64), and an edge e increments r by
 * inc_e = rho_e + off(dst) - off(src), 0 on the edges of a maximum-weight
 * spanning tree of each procedure.  off is 0 at Entry_P, Exit_P and
 * GExit_P (and at interprocedural call sites and their return sites), so
 * a complete path still sums to its number.  In the bodies that number
 * with nvc = 1 (intra mode's; context mode's fresh bodies and summarized
 * inlined copies); a continuing clone adds rho_e(nvc).  Without placement
 * (maps from before) off is 0 everywhere and inc_e is rho_e(1).
 *
 * ipp_fin_place_chords: for every procedure p with enabled[p], from
 * weight[e] per G*fin edge (how often e runs; IPP_CHORD_FIXED for an
 * edge that can carry no code, which then gets inc_e = 0).  Returns the
 * number of procedures placed (a procedure whose fixed edges cannot all
 * be in the tree keeps off = 0). */
#define IPP_CHORD_FIXED UINT64_MAX
size_t ipp_fin_place_chords(ipp_fin *f, const uint64_t *weight, const bool *enabled);
bool ipp_fin_has_offsets(const ipp_fin *f);
uint64_t ipp_fin_offset(const ipp_fin *f, ipp_id v);
uint64_t ipp_fin_inc(const ipp_fin *f, ipp_id e);
/* The offsets a map holds (vertex v[i] has off[i]; the others 0).
 * Returns 0, or -1 with a message for a vertex out of range, a pinned
 * vertex with an offset, or a mode without chords. */
int ipp_fin_set_offsets(ipp_fin *f, const ipp_id *v, const uint64_t *off, size_t n,
			char *err, size_t errlen);

/* Regions, in order: procedures in id order, for each its Entry region (if
 * it has one) then, in piecewise mode, its GEntry region if GEntry_P has a
 * successor (a procedure without loops, cuts or restart points has no
 * GEntry region: it would hold no paths).  In the intraprocedural modes
 * every instrumented procedure has an Entry region. */
typedef struct ipp_region_info {
	ipp_id proc;
	bool gentry;		/* Entry_global -> GEntry_P (piecewise) */
	ipp_id edge;		/* the GLOBAL_ENTRY edge */
	const char *name;	/* asm name, with "#g" appended for GEntry regions */
} ipp_region_info;
size_t ipp_fin_nregions(const ipp_fin *f);
void ipp_fin_region(const ipp_fin *f, ipp_id r, ipp_region_info *out);
/* Twins: out[r] = the region whose path n is region r's path n, step for
 * step (the same source lines, calls and numbers), or r.  An inlined copy
 * that counts its paths in a region of its own (intra mode, a cut inlined
 * call) has its function's region for twin -- the out-of-line body's, or
 * else the first copy's with the same numbering -- when a walk of both in
 * successor order pairs every vertex and edge (ippcore/twins.c says
 * exactly what must match).  out[out[r]] == out[r].  out has room for
 * ipp_fin_nregions(f) ids. */
void ipp_fin_region_twins(const ipp_fin *f, ipp_id *out);
ipp_id ipp_fin_region_find(const ipp_fin *f, const char *name);	/* IPP_NONE if absent */
void ipp_fin_region_total(const ipp_fin *f, ipp_id r, mpz_t out);	/* paths in region */
void ipp_fin_region_offset(const ipp_fin *f, ipp_id r, mpz_t out);	/* sum of earlier totals */
void ipp_fin_total(const ipp_fin *f, mpz_t out);			/* all regions */
/* The number of valid completions from Exit_P a region starts with
 * (1, or numUnbalRLPaths[Exit_P] for a GEntry region). */
void ipp_fin_region_nvc(const ipp_fin *f, ipp_id r, mpz_t out);

/* A 64-bit digest of every psi and rho value (and the region table), so a
 * decoder can check that it renumbered the graph exactly as the plugin did. */
uint64_t ipp_fin_digest(const ipp_fin *f);

/* ------------------------------------------------------------------ */
/* Encoding and decoding                                                */
/* ------------------------------------------------------------------ */
/* A path is a sequence of G*fin edge ids starting with a GLOBAL_ENTRY edge.
 * A complete path ends with a GLOBAL_EXIT edge; a shorter one is a prefix
 * (a partial path: abandoned by exit, longjmp or a signal).
 *
 * The stop stack identifies where a prefix stopped: the call vertices of
 * the calls still open in the prefix (outermost first) followed by the last
 * vertex.  In the intraprocedural modes it is just the last vertex.  In the
 * interprocedural modes the last vertex alone is not enough: the zero
 * completion of a prefix can re-enter the same procedure through another
 * call site and pass the same vertex with the same partial sum. */
typedef struct ipp_path {
	ipp_id region;
	ipp_id *edges;
	size_t nedges;
	size_t cap;
	/* Set by the decoders: the index of the path's last SURR_ENTRY or
	 * SPLIT_SURR edge, where its active suffix starts (ipp_derive.h), or
	 * 0 if it has none. */
	size_t active;
} ipp_path;
void ipp_path_init(ipp_path *p);
void ipp_path_free(ipp_path *p);
void ipp_path_push(ipp_path *p, ipp_id e);

/* Algorithms 5.1 / 6.1: the number within its region of a path or prefix.
 * Fills *region and num; for a prefix, also its stop stack (allocated with
 * malloc into *stack, *nstack), if stack is non-NULL.  Returns 0, or -1 with a
 * message if the edges are not a valid path (or prefix) of G*fin. */
int ipp_encode(const ipp_fin *f, const ipp_id *edges, size_t n, ipp_id *region, mpz_t num,
	       ipp_id **stack, size_t *nstack, char *err, size_t errlen);

/* Algorithm 5.2 and its piecewise counterpart: the complete path numbered
 * num in region.  Returns 0, or -1 if num is out of range or the region
 * unknown. */
int ipp_decode(const ipp_fin *f, ipp_id region, const mpz_t num, ipp_path *out,
	       char *err, size_t errlen);

/* The prefix with partial sum num that stopped at stack[nstack-1] with the
 * open calls stack[0..nstack-2].  Returns 0, or -1 if no such prefix exists. */
int ipp_decode_partial(const ipp_fin *f, ipp_id region, const mpz_t num,
		       const ipp_id *stack, size_t nstack, ipp_path *out,
		       char *err, size_t errlen);

/* A path number within its region, as profiles and reports hold them
 * (pnum.c): inline when it fits 64 bits -- every number the runtime
 * writes, since no region has more than 2^64 paths once cut -- else a GMP
 * integer of its own.  Invariant: big is NULL if and only if the number
 * is below 2^64. */
typedef struct ipp_pnum {
	uint64_t u;		/* the number, when big is NULL */
	mpz_ptr big;		/* else the number (malloc'd, owned) */
} ipp_pnum;
void ipp_pnum_set(ipp_pnum *n, const mpz_t x);	/* n held nothing to free */
void ipp_pnum_copy(ipp_pnum *dst, const ipp_pnum *src);	/* the same */
void ipp_pnum_clear(ipp_pnum *n);
void ipp_pnum_get(const ipp_pnum *n, mpz_t out);
int ipp_pnum_cmp(const ipp_pnum *a, const ipp_pnum *b);
char *ipp_pnum_str(const ipp_pnum *n);	/* decimal; free() it */

/* Is num below the total of region r? */
bool ipp_fin_region_has(const ipp_fin *f, ipp_id r, const ipp_pnum *num);
/* ipp_decode (stack NULL) or ipp_decode_partial of a pnum: no GMP integer
 * is made unless the number or the region needs one. */
int ipp_decode_pnum(const ipp_fin *f, ipp_id region, const ipp_pnum *num, const ipp_id *stack,
		    size_t nstack, ipp_path *out, char *err, size_t errlen);
/* Every decoder reuses out's edge buffer (free it once, at the end) and
 * leaves out freed when it fails. */

/* Decoding in 64 bits (docs/NUMBERING.md, "Decoding in 64 bits").  psi and
 * rho are GMP integers; a region is NARROW when every psi, rho and
 * numUnbalRLPaths value a decoding walk of it can read, its nvc, and its
 * numbers (its total is at most 2^64) fit 64 bits.  The decoders walk a
 * narrow region with uint64_t copies of those values (every product and sum
 * checked for overflow), other regions with GMP: the same path either
 * way. */
bool ipp_fin_region_narrow(const ipp_fin *f, ipp_id r);
/* How a decoder evaluates psi and rho: as above (AUTO), always with GMP,
 * or only in 64 bits (an error for a region that is not narrow).  For
 * tests and measurements; stack may be NULL (nstack 0) for a complete
 * path. */
enum ipp_arith { IPP_ARITH_AUTO, IPP_ARITH_GMP, IPP_ARITH_U64 };
int ipp_decode_arith(const ipp_fin *f, ipp_id region, const mpz_t num, const ipp_id *stack,
		     size_t nstack, enum ipp_arith arith, ipp_path *out, char *err,
		     size_t errlen);
/* What the decoders did since the last reset (tests, measurements): walks
 * in 64 bits, walks with GMP, and 64-bit walks that overflowed and were
 * redone with GMP (none, if fin_u64.c's reasoning holds). */
struct ipp_decode_stats {
	size_t narrow, wide, widened;
};
extern struct ipp_decode_stats ipp_decode_stats;

/* ------------------------------------------------------------------ */
/* Small utilities shared by the core, the formats and the decoder      */
/* ------------------------------------------------------------------ */
/* x as a uint64_t: true and *out set if 0 <= x < 2^64, else false (and
 * *out unchanged). */
bool ipp_mpz_get_u64(const mpz_t x, uint64_t *out);
/* x := v (x initialised). */
void ipp_mpz_set_u64(mpz_t x, uint64_t v);
/* 64-bit FNV-1a, used for map checksums and the psi/rho digest. */
uint64_t ipp_hash_bytes(uint64_t h, const void *data, size_t n);
uint64_t ipp_hash_str(uint64_t h, const char *s);	/* hashes the bytes and a NUL */
uint64_t ipp_hash_u64(uint64_t h, uint64_t v);
uint64_t ipp_hash_mpz(uint64_t h, const mpz_t v);
/* FNV-1a's step over 8-byte words (host order; the tail bytewise): not
 * FNV-1a, about eight times faster, for what only one machine compares
 * (the map cache's keys and contents, map_cache.c). */
uint64_t ipp_hash_block(uint64_t h, const void *data, size_t n);
#define IPP_HASH_INIT UINT64_C(0xcbf29ce484222325)

#ifdef __cplusplus
}
#endif
#endif /* IPP_CORE_H */
