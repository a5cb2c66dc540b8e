/* internal.h -- data structures private to the numbering core.
 *
 * The input supergraph (struct ipp_graph) is an append-only list of
 * procedures, vertices and edges.  Facts derived from it (DFS back edges,
 * recursive call sites, static weights, reducibility) are computed on first
 * use and cached; any mutation drops the cache.  A graph must therefore not
 * be mutated while another thread reads it.
 *
 * G*fin (struct ipp_fin) is assembled from one "local" DAG per procedure
 * (struct lproc, fin.c).  The same per-procedure builder serves ipp_fin_new()
 * and the cut chooser (cut.c), so there is one definition of the
 * transformations.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#ifndef IPP_INTERNAL_H
#define IPP_INTERNAL_H

#include "ipp_alloc.h"
#include "ipp_core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* snprintf into err[errlen] (nothing if err is NULL or errlen is 0): how
 * every function of the core that can fail reports why. */
void ipp_seterr(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- the input graph ---- */
struct ipp_vertex {
	enum ipp_vkind kind;
	ipp_id proc;
	int file;		/* index into files[], -1 if unknown */
	int line, col, tag;
	ipp_id callee;		/* call vertices */
	unsigned cflags;	/* call vertices */
	char *tasm, *tname;	/* call vertices: ipp_set_call_target's names, or
				 * NULL; tname is NULL when it equals tasm */
	bool restart;		/* a path may start here (ipp_set_restart) */
	ipp_id *out;		/* out-edges in successor order */
	size_t nout, capout;
};

struct ipp_proc {
	char *name, *asm_name;
	unsigned flags;
	ipp_id entry, exit, gexit, gentry;
	ipp_id *verts;		/* every vertex of the procedure, in id order */
	size_t nverts, capverts;
	ipp_id *calls;		/* call vertices in statement order */
	size_t ncalls, capcalls;
};

struct ipp_edge {
	ipp_id src, dst;
};

struct ipp_graph {
	struct ipp_vertex *v;
	size_t nv, capv;
	struct ipp_edge *e;
	size_t ne, cape;
	struct ipp_proc *p;
	size_t np, capp;
	char **files;
	size_t nfiles, capfiles;

	/* derived, computed on first use (see graph.c, weight.c) */
	bool derived_ok;
	unsigned char *back;	/* per edge: DFS back edge */
	unsigned char *recursive;	/* per vertex: recursive call site */
	unsigned char *reducible;	/* per procedure */
	int *lidx;		/* per vertex: index in its procedure's vertex list */
	ipp_id *isite;		/* per procedure: its inlined call site, or IPP_NONE */
	bool weights_ok;
	double *weight;		/* per vertex */
};

/* Computes back edges, recursive sites and reducibility if needed. */
void ipp_graph_derive(const ipp_graph *g);
void ipp_graph_derive_weights(const ipp_graph *g);
bool ipp_graph_proc_reducible(const ipp_graph *g, ipp_id p);

/* Successors of v including the implicit call -> return-site flow, for
 * graph walks (DFS, weights, dominators).  Returns the count; fills at most
 * cap vertex ids into out (successor order, one entry per edge). */
size_t ipp_graph_succ_vertices(const ipp_graph *g, ipp_id v, ipp_id *out, size_t cap);

/* Whether x is in ids[0..n-1], which is sorted and unique (as the lists
 * of ipp_cuts are; cut.c). */
bool ipp_sorted_ids_have(const ipp_id *ids, size_t n, ipp_id x);

/* ---- G*fin ---- */

/* Summary status of every call vertex for one mode and cut set. */
enum ipp_summary_why ipp_call_status(const ipp_graph *g, enum ipp_mode mode,
				     const ipp_cuts *cuts, ipp_id c);

struct ledge {			/* an edge of a procedure's local DAG */
	enum ipp_ekind kind;
	int src, dst;		/* local vertex indices; dst = -1 for CALL edges */
	ipp_id origin;		/* G* edge, or IPP_NONE */
};

struct lproc {			/* one procedure of G*fin, before global assembly */
	ipp_id proc;
	size_t nv;		/* local vertices: the procedure's G* vertices, then split halves */
	ipp_id *vorig;		/* local -> G* vertex (a split half maps to its header) */
	enum ipp_vkind *vkind;
	size_t nbase;		/* local vertices < nbase are the procedure's G* vertices */
	const int *lidx;	/* G* vertex -> index in its procedure (graph cache) */
	int *split_of;		/* per base local vertex: local index of its split half, or -1 */
	struct ledge *e;
	size_t ne, cape;
	int **succ;		/* per local vertex: local edge indices in successor order */
	size_t *nsucc, *capsucc;
	int *topo;		/* local vertices, successors before predecessors */
	unsigned char *cut;	/* per local vertex: is a cut vertex */
	bool fallback;		/* intra-context fell back to Ball-Larus */
	mpz_t *psi_a, *psi_b;	/* per local vertex */
};

/* Builds procedure p's local DAG for mode/cuts; call status per call vertex
 * is given by status[] (indexed by G* vertex id).  Returns NULL if p is skipped. */
struct lproc *ipp_lproc_build(const ipp_graph *g, enum ipp_mode mode, ipp_id p,
			      const unsigned char *is_cut_vertex,
			      const enum ipp_summary_why *status);
void ipp_lproc_free(struct lproc *lp);
int ipp_lproc_local(const struct lproc *lp, ipp_id gv);	/* -1 if not in p */
/* Solves psi over lp given psi_{Entry_Q} of callees (indexed by procedure). */
void ipp_lproc_solve(struct lproc *lp, const ipp_graph *g, mpz_t *entry_a, mpz_t *entry_b);

/* Procedures in callee-first order over the non-summarized direct calls. */
ipp_id *ipp_callee_first_order(const ipp_graph *g, const enum ipp_summary_why *status);

/* codec.c reads G*fin's layout directly (fin_internal.h). */

/* Linear functions <a,b>. */
void ipp_lin_apply(mpz_t out, const mpz_t a, const mpz_t b, const mpz_t x);

#endif /* IPP_INTERNAL_H */
