/* ipp_plugin.h -- what the plugin's files share: the options, the unit's
 * supergraph as built from GIMPLE, the runtime ABI's trees, and the entry
 * points of each file.
 *
 *   ipp_plugin.cc   plugin_init: version check, options, registration, the
 *                   map's emission into .ipp_map
 *   pass.cc         the pass: drives the other files over one unit
 *   supergraph.cc   step 1: which functions are instrumented; G* from GIMPLE
 *   inline.cc       the inlined copies in a body, as virtual procedures
 *   abi.cc          the runtime ABI as GCC trees (runtime/ipp_abi.def)
 *   tailcall.cc     step 1: which calls stay sibling calls
 *   instrument.cc   step 3: the code inserted into each function
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#ifndef IPP_PLUGIN_H
#define IPP_PLUGIN_H

#include <gmp.h>
#include "ipp_core.h"
#include "ipp_local.h"

/* ------------------------------------------------------------------ */
/* Options (ipp_plugin.cc)                                              */
/* ------------------------------------------------------------------ */

struct ipp_options {
	enum ipp_mode mode;	/* -fplugin-arg-ipp-mode= */
	bool verbose;		/* -fplugin-arg-ipp-verbose */
	mpz_t limit;		/* -fplugin-arg-ipp-limit=N: paths per region */
	bool last;		/* -fplugin-arg-ipp-last: every record through
				 * __ipp_record_last (the flight recorder,
				 * docs/RUNTIME.md): no inline counters, no rows */
	bool einline;		/* -fplugin-arg-ipp-einline[=yes|no]: the pass
				 * runs after early inlining (inline.cc); on by
				 * default */
	bool chords;		/* -fplugin-arg-ipp-chords[=yes|no]: increments
				 * on chords where paths start (default yes) */
	bool slots;		/* -fplugin-arg-ipp-slots[=yes|no]: intra mode's
				 * inlined copies keep their checkpoints in
				 * slots of the function's frame (ABI 13,
				 * IPP_FRAME_SLOT; default yes) */
	bool bare_calls;	/* -fplugin-arg-ipp-bare-calls[=yes|no]: intra
				 * mode's checkpoints at calls whose number is a
				 * constant store the vertex alone (ABI 14,
				 * IPP_CALL_BARE; default yes) */
	bool inline_as_plain;	/* -fplugin-arg-ipp-inline-as-plain: GCC's IPA
				 * inliner sees the program's sizes (sizes.cc) */
};
extern struct ipp_options ipp_opts;

/* The pass (pass.cc): a SIMPLE_IPA_PASS to insert after "profile" (with
 * einline, the default) or after build_ssa_passes. */
opt_pass *ipp_make_pass(gcc::context *ctxt);

/* The unit's map (a YAML document), produced by the pass; emitted into the
 * .ipp_map section at the end of the unit.  NULL if nothing was instrumented. */
extern char *ipp_unit_map;
extern size_t ipp_unit_map_len;

#define IPP_MAP_SECTION ".ipp_map"
/* With -flto the unit's object holds GIMPLE, and the link compiles the
 * program from it: a section written into the object's assembly is lost.
 * The map then becomes a variable in IPP_MAP_SECTION, which LTO streams
 * like any other (ipp_plugin.cc). */
void ipp_map_as_variable(void);

#ifndef IPP_VERSION
#define IPP_VERSION "unknown"	/* the build passes -DIPP_VERSION */
#endif

/* ------------------------------------------------------------------ */
/* The unit's supergraph G* (supergraph.cc)                             */
/* ------------------------------------------------------------------ */

/* Where the G* vertices and edges of one procedure are in one GIMPLE body:
 * the original function, or its continuing clone (clone.cc).  Vertex v of
 * the procedure's body is at [v - vbase], edge e at [e - ebase]. */
struct body {
	function *fun;
	tree decl;
	bool cont;		/* the continuing clone (else the original) */
	ipp_id vbase, ebase;	/* the procedure's first body vertex and edge */
	size_t nv, ne;
	int nbb;		/* last_basic_block_for_fn of this body */
	ipp_id *head;		/* per bb index: head vertex, IPP_NONE if none */
	ipp_id *tail;		/* per bb index: last vertex of the chain */
	gcall **call_stmt;	/* per call vertex: the call */
	gimple **dead_stmt;	/* per tail vertex of a block with no successors:
				 * its last statement */
	gcall **setjmp_call;	/* per return site of a setjmp: the call */
	edge *gedge;		/* per edge: the GIMPLE edge it stands for (NULL
				 * inside a block) */
};

/* A CFG edge G* has an edge for: not abnormal (setjmp, computed goto,
 * nonlocal goto), not fake, not EH (a landing pad restarts the path).  A
 * block without one is a dead end (supergraph.cc). */
static inline bool ipp_normal_edge_p(const_edge e)
{
	return !(e->flags & (EDGE_ABNORMAL | EDGE_FAKE | EDGE_EH));
}

static inline gcall *body_call(const struct body *b, ipp_id v)
{
	return (size_t)(v - b->vbase) < b->nv ? b->call_stmt[v - b->vbase] : NULL;
}
static inline gimple *body_dead(const struct body *b, ipp_id v)
{
	return (size_t)(v - b->vbase) < b->nv ? b->dead_stmt[v - b->vbase] : NULL;
}
static inline gcall *body_setjmp(const struct body *b, ipp_id v)
{
	return (size_t)(v - b->vbase) < b->nv ? b->setjmp_call[v - b->vbase] : NULL;
}
static inline edge body_edge(const struct body *b, ipp_id e)
{
	return (size_t)(e - b->ebase) < b->ne ? b->gedge[e - b->ebase] : NULL;
}

/* One copy of a function that GCC inlined into a body (inline.cc), the
 * virtual procedure it becomes (IPP_PROC_INLINED) and its call site. */
struct ipp_inl {
	tree block;		/* its outer scope BLOCK */
	int parent;		/* the copy it lies in, or -1: the function itself
				 * (after flattening: the nearest copy kept) */
	tree origin;		/* the inlined FUNCTION_DECL */
	location_t site;	/* the inlined call */
	const char *flat;	/* why its blocks are its parent's, or NULL */
	char *reason;		/* ... as the map says it (a skip reason) */
	ipp_id proc, call;	/* its procedure and call vertex (supergraph.cc) */
	ipp_id cont_edge;	/* the G* edge out of its return site, once added */
	bool framed;		/* kept, and keeps a checkpoint (ipp_decide_frames):
				 * in a frame of its own if it is summarized,
				 * else in the frame around it */
	unsigned slot;		/* ... that frame is slot `slot` of its
				 * function's frames, never pushed (ABI 13,
				 * IPP_CALL_SLOT; ipp_decide_frames); 0: pushed */
};

/* The inlined copies of one body, in preorder (a copy before those inside
 * it), and the copy each basic block belongs to. */
struct inlines {
	struct ipp_inl *v;
	int n;
	int *bbinst;		/* per bb index: the copy, or -1 (the function) */
	int nbb;
	unsigned nsplit;	/* blocks split where the copy changed */
};

/* Finds the inlined copies of fi's body (cfun), splits its blocks where
 * the copy changes, assigns every block to a copy or the function, and
 * flattens the copies that are not single-entry regions with one
 * continuation (fi->inl).  tails: the unit's tail calls (tailcall.cc). */
void ipp_inline_analyze(struct fninfo *fi, hash_set<gimple *> *tails);
void ipp_inline_free(struct inlines *in);
/* The flat reason of a copy none of whose code is left (ipp_inl.flat): such
 * a copy is not a procedure of G* at all. */
extern const char ipp_inline_empty[];
/* Does the body keep an inlined copy as a virtual procedure? */
bool ipp_inline_kept(const struct inlines *in);
int ipp_inline_lca(const struct inlines *in, int a, int b);

/* One function of the unit. */
struct fninfo {
	cgraph_node *node;
	function *fun;
	ipp_id proc;
	const char *skip;	/* reason, or NULL if instrumented */
	bool cloneable;		/* may get a continuing clone (clone.cc) */
	bool framed;		/* has a frame (ipp_decide_frames) */
	bool calls_framed;	/* ... for its calls or abnormal edges, not
				 * only for the records at its restarts */
	bool in_memory;		/* the path register is frame.path */
	struct inlines inl;	/* the inlined copies in its body */
	struct body orig;	/* the original body's anchors */
	struct body *clone;	/* the continuing clone's, or NULL */
	cgraph_node *clone_node;
	ipp_local *local;	/* counts in rows (ipp_prepare_rows), or NULL */
	tree rows;		/* then: its struct ipp_rt_rows's address */
	tree rows_a, rows_b;	/* ... and its tables */
};

/* The unit: G* and, while it is built, the GIMPLE each vertex and edge
 * stands for (copied into each procedure's struct body at the end). */
struct unit {
	ipp_graph *g;
	fninfo *fns;
	size_t nfns;
	/* indexes into fns, built once fns is sorted (ipp_build_supergraph):
	 * lookups by decl and by procedure are O(1), not O(nfns) per call */
	hash_map<tree, unsigned> *fn_of_decl;
	unsigned *fn_of_proc;	/* procedure id -> index, or UINT_MAX */
	size_t nfn_of_proc;
	size_t cap_v, cap_e;
	/* per G* vertex */
	gcall **call_stmt;
	gimple **dead_stmt;
	gcall **setjmp_call;
	/* the tail calls of the unit's instrumented functions (tailcall.cc) */
	hash_set<gimple *> *tail_calls;
	/* per G* vertex: the G* edge entering it inside a block chain */
	ipp_id *chain_in;
	/* per G* edge */
	edge *gedge;
	/* per G* edge: the next G* edge of the same CFG edge, or IPP_NONE.  A
	 * CFG edge that leaves or enters inlined copies stands for several G*
	 * edges (a *route*): the first has the CFG edge (gedge), the others
	 * follow it through the copies' exits, return sites, call vertices
	 * and entries.  Routes out of one copy share the part after its
	 * return site. */
	ipp_id *rnext;
	/* the numbering, by G* origin (ipp_fin_maps) */
	ipp_id *fin_of;		/* G* edge -> kept NORMAL fin edge, or IPP_NONE */
	ipp_id *exit_of;	/* G* vertex -> its SURR_EXIT fin edge, or IPP_NONE */
	ipp_id *restart_of;	/* G* vertex -> SURR_ENTRY fin edge into it, or IPP_NONE */
	bool *stands;		/* G* vertex: some frame's checkpoint names it
				 * (emit_stand; the module's offsets table) */
	bool *restart_bare;	/* G* vertex: a restart's checkpoint there
				 * stored no number (the restarts table) */
	bool *bare_call;	/* G* vertex: a call's checkpoint there, the
				 * vertex before it or its return site's, stored
				 * no number (instrument_call: the module's
				 * restarts table gives it, pnum) */
	bool *pnum_known;	/* G* vertex: one path of G*fin reaches it from
				 * its procedure's entry (ipp_unique_prefixes) */
	uint64_t *pnum;		/* ... and its partial sum there (nvc 1) */
	unsigned *slot_at;	/* G* vertex: the call of an inlined copy whose
				 * checkpoints go to slot slot_at[v] (>= 1) of
				 * its function's frames, 0 if none
				 * (assign_slots; the slots table) */
	bool *chorded;		/* procedure: its increments lie on chords
				 * (ipp_place_chords), or NULL */
	const char *checksum;	/* the unit's, in hex */
	/* the entries of the map's x-lines key (seg_flush), NULL if none */
	FILE *xlines;
	char *xlines_text;
	size_t xlines_len;
};

/* The fninfo of a procedure, or NULL. */
fninfo *ipp_fn_of_proc(struct unit *u, ipp_id proc);
/* The fninfo of a function of the unit, by its decl, or NULL. */
fninfo *ipp_fn_of_decl(const struct unit *u, tree decl);
/* The instrumented function of the unit a direct call to 'decl' runs for
 * sure, or NULL: not a built-in, not skipped, and not a definition the
 * link may replace (supergraph.cc). */
fninfo *ipp_fn_called(const struct unit *u, tree decl);

/* Collects the unit's functions (u->fns, in source order), decides which
 * are instrumented (fninfo.skip) and adds their procedures and bodies to
 * u->g.  Returns false if the unit has no function. */
bool ipp_build_supergraph(struct unit *u);
/* Frees what ipp_build_supergraph and ipp_make_clones allocated (not u->g). */
void ipp_unit_free(struct unit *u);
/* Frees a body's anchors. */
void ipp_body_free(struct body *b);

/* Why a function with abnormal control flow cannot be numbered, or NULL
 * (such functions are not instrumented, but guarded: instrument.cc). */
const char *ipp_unsupported_flow(function *fun);

/* Tail calls (tailcall.cc): gives each tail call of fun that GCC would make
 * a sibling call a return of its own, and adds the calls to *out. */
void ipp_isolate_tail_calls(function *fun, hash_set<gimple *> *out);

/* Exceptions and forced unwinds (unwind.cc): the statements of body b
 * that could throw out of its function, collected before the pass inserts
 * anything; after it, the outermost cleanup region over them whose landing
 * pad pops `frame` (its pending path recorded as partial). */
void ipp_unwind_collect(const ipp_graph *g, const struct body *b, hash_set<gimple *> *out);
void ipp_unwind_pad(function *fun, hash_set<gimple *> *throwers, tree frame);

/* Control-flow facts about statements, shared with instrument.cc. */
bool ipp_is_setjmp_call(gimple *s);
bool ipp_is_longjmp_call(gimple *s);
bool ipp_is_computed_goto(gimple *s);
bool ipp_is_unreachable_call(gimple *s);
bool ipp_unit_instruments(const struct unit *u, tree decl);

/* ------------------------------------------------------------------ */
/* The runtime ABI as trees (abi.cc)                                    */
/* ------------------------------------------------------------------ */

/* Builds the ABI's types and declarations from runtime/ipp_abi.def, once
 * per unit, and checks their layout against runtime/ipp_abi.h.  Returns
 * false (after an error) if they disagree. */
bool ipp_abi_init(void);

/* The unit's static struct ipp_rt_module and its region array. */
void ipp_abi_module_data(const ipp_fin *fin, const char *module, const char *checksum);

/* One call site whose callee has no frame (struct ipp_rt_callee). */
struct ipp_callee_site {
	ipp_id call, entry;
	ipp_id fresh_region;	/* the callee's region if it starts fresh, else IPP_NONE */
};
/* Sets the module's callees table (sorted by call vertex here). */
void ipp_abi_module_callees(struct ipp_callee_site *sites, size_t n, const char *checksum);

/* The static struct ipp_rt_rows of a procedure that counts in rows, with
 * its tables (ipp_local_ab for every local path < nentry, in the arrays
 * *a_out and *b_out): its address. */
tree ipp_abi_rows(const ipp_local *l, const char *checksum, ipp_id proc, tree *a_out,
		  tree *b_out);

/* The address of region r's single-threaded counters (gcounts), or
 * NULL_TREE for a hash region. */
tree ipp_abi_region_gcounts(ipp_id r);

/* Region r's counters' index in the unit's counters (gcounts): region r'
 * counts at index goffset(r') + n in the unit's array and, in a
 * multi-threaded process, in the thread's (ipp_abi.h, __ipp_counts: one
 * array per unit and thread, laid out as gcounts).  UINT64_MAX for a hash
 * region. */
uint64_t ipp_abi_region_goffset(ipp_id r);

/* The unit's constructor: registers its module with the runtime. */
void ipp_abi_register_ctor(void);

/* &regions[r] of the unit's region array. */
tree ipp_abi_region_addr(ipp_id r);
/* A static constant of a fresh frame's head: region (the address reg),
 * then vertex and flags, laid out as struct ipp_rt_frame holds them from
 * its region on, for one 16-byte copy at the push; NULL where the layout
 * does not allow it. */
tree ipp_abi_frame_head(tree reg, int vertex, unsigned flags);

/* The arc cache of the indirect call at vertex `site` (ipp_abi.h, struct
 * ipp_rt_arc): a static thread-local array of two pointers, initially to
 * the unit's constant arc that no check matches. */
tree ipp_abi_arc_cache(const char *checksum, ipp_id site);

/* Region r's slot in the unit's hash-table slots (struct ipp_rt_region's
 * hslot): 1 .. for a hash region, 0 for an array region. */
unsigned ipp_abi_region_hslot(ipp_id r);

/* The unit's thread-local array of hash-table slots (ipp_abi.h,
 * __ipp_hmiss), made at the first use: one pointer per hash region and
 * slot 0, each initially to the unit's constant empty table. */
tree ipp_abi_hslots(const char *checksum);
/* The unit's thread-local pointer to the calling thread's counters
 * (__ipp_tcounts_<checksum>, made at the first use), in code for an
 * executable whose unit has array regions; else NULL_TREE.  *first: the
 * region whose counters it points to (offset 0).  ipp_abi_tcounts_ok:
 * would there be one (nothing made)? */
tree ipp_abi_tcounts(const char *checksum, ipp_id *first);
bool ipp_abi_tcounts_ok(void);

/* A function of the unit that can be called through a pointer, with its
 * Entry region (struct ipp_rt_entry). */
struct ipp_entry {
	tree decl;
	ipp_id region;
};
/* Sets the module's entries table; before ipp_abi_module_callees. */
void ipp_abi_module_entries(const struct ipp_entry *e, size_t n, const char *checksum);

/* A run of vertices first .. last of an inlined copy whose checkpoints go
 * to the frame around it, and the copy's call vertex (struct
 * ipp_rt_copy). */
struct ipp_copy_run {
	ipp_id first, last, call;
};
/* Sets the module's copies table (runs sorted by vertex and disjoint);
 * before ipp_abi_module_callees. */
void ipp_abi_module_copies(const struct ipp_copy_run *runs, size_t n, const char *checksum);
/* A run of vertices first .. last where a frame may stand with the same
 * offset (struct ipp_rt_offset). */
struct ipp_offset_run {
	ipp_id first, last;
	uint64_t offset;
};
/* Sets the module's offsets table (runs sorted and disjoint); before
 * ipp_abi_module_callees. */
void ipp_abi_module_offsets(const struct ipp_offset_run *runs, size_t n, const char *checksum);
/* Increments on chords (instrument.cc): places them (u->chorded), and
 * the runs of the module's offsets table, after every body is
 * instrumented. */
void ipp_place_chords(struct unit *u, ipp_fin *fin);
void ipp_offset_runs(const struct unit *u, const ipp_fin *fin, struct ipp_offset_run **out,
		     size_t *nout);
/* A restart vertex whose checkpoint stores no number, and its number
 * (struct ipp_rt_restart). */
struct ipp_restart_point {
	ipp_id vertex;
	uint64_t number;
};
/* Sets the module's restarts table (sorted by vertex); before
 * ipp_abi_module_callees. */
void ipp_abi_module_restarts(const struct ipp_restart_point *pts, size_t n, const char *checksum);
/* Flags the unit's bare calls IPP_CALL_BARE in G*, after every body is
 * instrumented (instrument_call decides them: bare_call). */
void ipp_flag_bare_calls(struct unit *u);
/* The vertices whose checkpoints stored no number (emit_split's restarts,
 * bare calls), after every body is instrumented.  *out: XNEWVEC. */
void ipp_restart_points(const struct unit *u, const ipp_fin *fin,
			struct ipp_restart_point **out, size_t *nout);
/* The call vertex of an inlined copy whose checkpoints go to a slot, the
 * slot, and the copy's region (struct ipp_rt_slot). */
struct ipp_slot_point {
	ipp_id call;
	unsigned slot;
	ipp_id region;
};
/* Sets the module's slots table (sorted by call); before
 * ipp_abi_module_callees. */
void ipp_abi_module_slots(const struct ipp_slot_point *pts, size_t n, const char *checksum);
/* The slotted calls of the unit (assign_slots), after every body is
 * instrumented.  *out: XNEWVEC. */
void ipp_slot_points(const struct unit *u, const ipp_fin *fin, struct ipp_slot_point **out,
		     size_t *nout);


/* The ABI's trees, indexed by enum ipp_abi_tree (abi.cc), kept alive for
 * the garbage collector by a root table registered in plugin_init. */
enum ipp_abi_tree {
#define IPP_ABI_FRAME_FIELD(CTYPE, TREE, NAME) IPP_ABI_FRAME_##NAME,
#define IPP_ABI_REGION_FIELD(CTYPE, TREE, NAME) IPP_ABI_REGION_##NAME,
#define IPP_ABI_MODULE_FIELD(CTYPE, TREE, NAME) IPP_ABI_MODULE_##NAME,
#define IPP_ABI_ROWS_FIELD(CTYPE, TREE, NAME) IPP_ABI_ROWS_##NAME,
#define IPP_ABI_CALLEE_FIELD(CTYPE, TREE, NAME) IPP_ABI_CALLEE_##NAME,
#define IPP_ABI_ENTRY_FIELD(CTYPE, TREE, NAME) IPP_ABI_ENTRY_##NAME,
#define IPP_ABI_COPY_FIELD(CTYPE, TREE, NAME) IPP_ABI_COPY_##NAME,
#define IPP_ABI_OFFSET_FIELD(CTYPE, TREE, NAME) IPP_ABI_OFFSET_##NAME,
#define IPP_ABI_RESTART_FIELD(CTYPE, TREE, NAME) IPP_ABI_RESTART_##NAME,
#define IPP_ABI_SLOT_FIELD(CTYPE, TREE, NAME) IPP_ABI_SLOT_##NAME,
#define IPP_ABI_TLS(CTYPE, TREE, NAME) IPP_ABI_TLS##NAME,
#define IPP_ABI_FUNCTION(CRET, TRET, NAME, CPARAMS, TPARAMS) IPP_ABI_FN##NAME,
#include "ipp_abi.def"
	IPP_ABI_FRAME_TYPE,
	IPP_ABI_REGION_TYPE,
	IPP_ABI_MODULE_TYPE,
	IPP_ABI_ROWS_TYPE,
	IPP_ABI_CALLEE_TYPE,
	IPP_ABI_ENTRY_TYPE,
	IPP_ABI_COPY_TYPE,
	IPP_ABI_OFFSET_TYPE,
	IPP_ABI_RESTART_TYPE,
	IPP_ABI_SLOT_TYPE,
	IPP_ABI_HEAD_TYPE,	/* a fresh frame's region, vertex and flags
				 * (ipp_abi_frame_head) */
	IPP_ABI_REGIONS_VAR,	/* the unit's region array */
	IPP_ABI_MODULE_VAR,	/* the unit's module */
	IPP_ABI_GCOUNTS_VAR,	/* the unit's single-threaded counters, or NULL */
	IPP_ABI_SINGLE_THREADED,	/* glibc's __libc_single_threaded */
	IPP_ABI_ARC_NONE_VAR,	/* the unit's arc no cache check matches, or NULL */
	IPP_ABI_HSLOTS_VAR,	/* the unit's hash-table slots, or NULL */
	IPP_ABI_TCOUNTS_VAR,	/* the thread's pointer to its counters of the
				 * unit, or NULL (ipp_abi_tcounts) */
	IPP_ABI_NTREES
};
extern tree ipp_abi_trees[IPP_ABI_NTREES];
extern const struct ggc_root_tab ipp_abi_gc_roots[];

/* Shorthands: ABI_FIELD(frame, path), ABI_TLS(__ipp_top),
 * ABI_FN(__ipp_record), ABI_TYPE(FRAME). */
#define ABI_FIELD(S, NAME) ipp_abi_trees[IPP_ABI_##S##_##NAME]
#define ABI_TLS(NAME) ipp_abi_trees[IPP_ABI_TLS##NAME]
#define ABI_FN(NAME) ipp_abi_trees[IPP_ABI_FN##NAME]
#define ABI_TYPE(S) ipp_abi_trees[IPP_ABI_##S##_TYPE]

/* ------------------------------------------------------------------ */
/* Continuing clones (clone.cc)                                         */
/* ------------------------------------------------------------------ */

/* Whether a function may get a continuing clone: a copy of its body that
 * takes the path state as extra parameters (tree_function_versioning). */
bool ipp_cloneable(cgraph_node *node);
void ipp_fold_before_cloning(function *fun);

/* The parameters a continuing clone takes after the function's own, in
 * this order: the path number on entry (the paper's pathNum, by value:
 * the clone hands the number back through __ipp_path), psi_r(nvc) of the
 * call's return site r (numValidCompsFromExit), and the path's region. */
enum { IPP_CLONE_PATH, IPP_CLONE_NVC, IPP_CLONE_REGION, IPP_CLONE_NPARAMS };

/* Creates the continuing clone of every procedure that some
 * interprocedural call site of G*fin enters, and maps each clone's body
 * onto its procedure (fninfo.clone).  Returns false after an error. */
bool ipp_make_clones(struct unit *u, const ipp_fin *fin);

/* The PARM_DECL of a clone's extra parameter k (IPP_CLONE_*). */
tree ipp_clone_param(const struct body *b, int k);

/* ------------------------------------------------------------------ */
/* Instrumentation (instrument.cc)                                      */
/* ------------------------------------------------------------------ */

/* Decides which procedures may count in rows (two-level counting:
 * fninfo.local); a descriptor (fninfo.rows) is made when a body first
 * records in one. */
void ipp_prepare_rows(struct unit *u, const ipp_fin *fin);

/* The vertices of the inlined copies that continue their caller's path
 * and keep checkpoints in the frame around them, in runs sorted by vertex
 * (ipp_abi.h, struct ipp_rt_copy).  *out: XNEWVEC. */
void ipp_copy_runs(struct unit *u, const ipp_fin *fin, struct ipp_copy_run **out, size_t *nout);

/* The call sites whose callee, an instrumented function of the unit, has
 * no frame and records nothing before it returns: the runtime's table for
 * crashes inside them (ipp_abi.h, struct ipp_rt_callee).  *out: XNEWVEC. */
void ipp_frameless_callees(struct unit *u, const ipp_fin *fin, struct ipp_callee_site **out,
			   size_t *nout);

/* Fills u->fin_of, exit_of and restart_of from G*fin. */
void ipp_fin_maps(struct unit *u, const ipp_fin *fin);

/* Decides whether each instrumented function needs a frame (fninfo.framed,
 * fninfo.in_memory): before cloning, the clone has the same. */
void ipp_decide_frames(struct unit *u, const ipp_fin *fin);

/* Inserts the path-profiling code into one body of procedure fi: the
 * original (fresh paths) or its continuing clone (docs/PROTOCOL.md). */
void ipp_instrument(struct unit *u, fninfo *fi, struct body *b, const ipp_fin *fin);

/* Saves and restores the thread's top frame around the abnormal entries of
 * an uninstrumented function that control re-enters abnormally. */
void ipp_guard_receiver(fninfo *fi);

/* The inliner's view of instrumented bodies (sizes.cc): the size of a body's
 * statements other than calls (GCC's estimate_num_insns units); records
 * what the pass added to DECL's body; corrects every summary right before
 * the IPA inliner runs (registered from plugin_init). */
int ipp_sizes_body(function *fun);
void ipp_sizes_note(tree decl, int base, function *fun);
void ipp_sizes_register(const char *plugin_name);

#endif
