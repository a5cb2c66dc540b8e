/* fin.c -- G*fin: the transformed supergraph, and its psi/rho functions.
 *
 * Per procedure P (Melski & Reps Section 3.2 and 6, as amended in
 * docs/NUMBERING.md):
 *   T0 (piecewise)  GEntry_P exists and takes the surrogate entry edges.
 *   T1              GExit_P; GExit_P -> Exit_global.
 *   T2              every DFS back edge w -> v and every in-edge w -> v of a
 *                   cut vertex v is removed; w gets one SURR_EXIT w -> GExit_P
 *                   (at the position of its first removed out-edge), and v one
 *                   SURR_ENTRY Entry_P -> v (GEntry_P -> v in piecewise mode),
 *                   after Entry_P's own out-edges, targets in id order.
 *                   A restart vertex (ipp_set_restart) gets the surrogate entry
 *                   too but keeps its in-edges.
 *   T3              a summarized call site c gets SUMMARY c -> c+1 instead of
 *                   CALL c -> Entry_Q and RETURN Exit_Q -> c+1; Q gets a region.
 *   Section 7       (intra-context) a back-edge target v is split: v keeps its
 *                   in-edges, a new vertex v_b takes its out-edges, and v gets
 *                   SPLIT and SPLIT_SURR edges to v_b; back edges w -> v become
 *                   SURR_EXIT w -> GExit_P.  Procedures with an irreducible CFG
 *                   fall back to plain Ball-Larus numbering.
 * Out-edges of Exit_P: RETURN edges of the interprocedural call sites on P in
 * call-vertex order, then GLOBAL_EXIT if P has an Entry region.
 *
 * psi is solved bottom-up: procedures callee-first, vertices of each in
 * reverse topological order (equations 19-22); rho by equation 24.
 * Piecewise mode adds numUnbalRLPaths (eq. 33-34, with the erratum noted in
 * docs/NUMBERING.md) and edgeValue on the out-edges of Exit_P (eq. 35).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include "internal.h"
#include "fin_internal.h"

/* ------------------------------------------------------------------ */
/* Call-site status                                                     */
/* ------------------------------------------------------------------ */

enum ipp_summary_why ipp_call_status(const ipp_graph *g, enum ipp_mode mode,
				     const ipp_cuts *cuts, ipp_id c)
{
	const struct ipp_vertex *v = &g->v[c];
	if (mode == IPP_MODE_INTRA || mode == IPP_MODE_INTRA_CONTEXT)
		return IPP_SUM_INTRA;
	if (v->cflags & IPP_CALL_INDIRECT)
		return IPP_SUM_INDIRECT;
	if (v->callee == IPP_NONE || (g->p[v->callee].flags & IPP_PROC_SKIPPED))
		return IPP_SUM_EXTERNAL;
	if (ipp_graph_is_recursive_call(g, c))
		return IPP_SUM_RECURSIVE;
	if ((v->cflags & IPP_CALL_FORCE_SUMMARY) ||
	    (cuts && ipp_sorted_ids_have(cuts->calls, cuts->ncalls, c)))
		return IPP_SUM_CUT;
	return IPP_SUM_NONE;
}

static const char *const why_names[] = {
	"interprocedural", "recursive", "external", "indirect", "cut", "intra"
};

const char *ipp_summary_why_name(enum ipp_summary_why w)
{
	return (unsigned)w <= IPP_SUM_INTRA ? why_names[w] : "?";
}

static const char *const ekind_names[IPP_E_KIND_COUNT] = {
	"normal", "surrogate-entry", "surrogate-exit", "summary", "call", "return",
	"global-entry", "global-exit", "split", "split-surrogate"
};

const char *ipp_ekind_name(enum ipp_ekind k)
{
	return (unsigned)k < IPP_E_KIND_COUNT ? ekind_names[k] : "?";
}

/* ------------------------------------------------------------------ */
/* The local DAG of one procedure                                       */
/* ------------------------------------------------------------------ */

int ipp_lproc_local(const struct lproc *lp, ipp_id gv)
{
	return lp->lidx[gv];
}

static int lp_add_edge(struct lproc *lp, enum ipp_ekind kind, int src, int dst, ipp_id origin)
{
	IPP_ARRAY_GROW(lp->e, lp->ne, lp->cape);
	lp->e[lp->ne].kind = kind;
	lp->e[lp->ne].src = src;
	lp->e[lp->ne].dst = dst;
	lp->e[lp->ne].origin = origin;
	IPP_ARRAY_GROW(lp->succ[src], lp->nsucc[src], lp->capsucc[src]);
	lp->succ[src][lp->nsucc[src]++] = (int)lp->ne;
	return (int)lp->ne++;
}

/* Is G* edge e of the procedure removed from its DAG: a DFS back edge, or
 * an in-edge of a cut vertex?  (Computed, not tabled: a table per
 * procedure over every edge of the graph made numbering a unit quadratic
 * in its size.) */
static bool edge_removed(const struct lproc *lp, const ipp_graph *g, ipp_id e)
{
	return g->back[e] || lp->cut[g->lidx[g->e[e].dst]];
}

/* Emits the G* out-edges of header (G* vertex hid) from local vertex src,
 * replacing removed ones by a single SURR_EXIT. */
static void lp_emit_out(struct lproc *lp, const ipp_graph *g, ipp_id hid, int src, int gexit)
{
	const struct ipp_vertex *vx = &g->v[hid];
	bool exit_done = false;
	for (size_t k = 0; k < vx->nout; k++) {
		ipp_id e = vx->out[k];
		if (edge_removed(lp, g, e)) {
			if (!exit_done)
				lp_add_edge(lp, IPP_E_SURR_EXIT, src, gexit, e);
			exit_done = true;
		} else {
			lp_add_edge(lp, IPP_E_NORMAL, src, lp->lidx[g->e[e].dst], e);
		}
	}
}

/* Postorder DFS over the local DAG: successors before predecessors.  A CALL
 * edge (dst -1) orders c before its return site c+1. */
static void lp_topo(struct lproc *lp, const ipp_graph *g)
{
	struct frame { int v; size_t next; } *st = ipp_xmalloc((lp->nv + 1) * sizeof(*st));
	unsigned char *seen = ipp_xcalloc(lp->nv, 1);
	size_t sp, nt = 0;
	lp->topo = ipp_xmalloc(lp->nv * sizeof(int));
	for (size_t root = 0; root < lp->nv; root++) {
		if (seen[root])
			continue;
		sp = 0;
		st[sp].v = (int)root;
		st[sp++].next = 0;
		seen[root] = 1;
		while (sp) {
			struct frame *f = &st[sp - 1];
			int w;
			if (f->next >= lp->nsucc[f->v]) {
				lp->topo[nt++] = f->v;
				seen[f->v] = 2;
				sp--;
				continue;
			}
			{
				struct ledge *le = &lp->e[lp->succ[f->v][f->next++]];
				w = le->dst >= 0 ? le->dst : lp->lidx[lp->vorig[le->src] + 1];
			}
			if (seen[w] == 1) {
				/* A cycle survived the transformations: a bug in this file. */
				fprintf(stderr, "ipp: internal error: cycle in G*fin of %s\n",
					g->p[lp->proc].asm_name);
				abort();
			}
			if (!seen[w]) {
				seen[w] = 1;
				st[sp].v = w;
				st[sp++].next = 0;
			}
		}
	}
	free(st);
	free(seen);
}

struct lproc *ipp_lproc_build(const ipp_graph *g, enum ipp_mode mode, ipp_id p,
			      const unsigned char *is_cut_vertex,
			      const enum ipp_summary_why *status)
{
	const struct ipp_proc *pr = &g->p[p];
	struct lproc *lp;
	bool use_split;
	size_t nsplit = 0;
	int gexit, entry, gentry;

	if (pr->flags & IPP_PROC_SKIPPED)
		return NULL;
	ipp_graph_derive(g);
	lp = ipp_xcalloc(1, sizeof(*lp));
	lp->proc = p;
	lp->lidx = g->lidx;
	lp->nbase = pr->nverts;
	lp->fallback = mode == IPP_MODE_INTRA_CONTEXT && !g->reducible[p];
	use_split = mode == IPP_MODE_INTRA_CONTEXT && !lp->fallback;

	/* split headers: targets of DFS back edges (intra-context) */
	lp->split_of = ipp_xmalloc(pr->nverts * sizeof(int));
	lp->cut = ipp_xcalloc(pr->nverts, 1);
	for (size_t i = 0; i < pr->nverts; i++) {
		lp->split_of[i] = -1;
		if (is_cut_vertex && is_cut_vertex[pr->verts[i]])
			lp->cut[i] = 1;
	}
	for (size_t i = 0; i < pr->nverts; i++) {
		const struct ipp_vertex *vx = &g->v[pr->verts[i]];
		for (size_t k = 0; k < vx->nout; k++) {
			ipp_id e = vx->out[k];
			int d = g->lidx[g->e[e].dst];
			if (g->back[e] && use_split && lp->split_of[d] < 0)
				lp->split_of[d] = (int)(pr->nverts + nsplit++);
		}
	}
	lp->nv = pr->nverts + nsplit;
	lp->cut = ipp_xrealloc(lp->cut, lp->nv);
	memset(lp->cut + pr->nverts, 0, nsplit);
	lp->vorig = ipp_xmalloc(lp->nv * sizeof(ipp_id));
	lp->vkind = ipp_xmalloc(lp->nv * sizeof(enum ipp_vkind));
	lp->succ = ipp_xcalloc(lp->nv, sizeof(int *));
	lp->nsucc = ipp_xcalloc(lp->nv, sizeof(size_t));
	lp->capsucc = ipp_xcalloc(lp->nv, sizeof(size_t));
	for (size_t i = 0; i < pr->nverts; i++) {
		lp->vorig[i] = pr->verts[i];
		lp->vkind[i] = g->v[pr->verts[i]].kind;
		if (lp->split_of[i] >= 0) {
			lp->vorig[lp->split_of[i]] = pr->verts[i];
			lp->vkind[lp->split_of[i]] = IPP_V_SPLIT;
		}
	}
	entry = g->lidx[pr->entry];
	gexit = g->lidx[pr->gexit];
	gentry = g->lidx[pr->gentry];

	for (size_t i = 0; i < pr->nverts; i++) {
		ipp_id vid = pr->verts[i];
		const struct ipp_vertex *vx = &g->v[vid];
		switch (vx->kind) {
		case IPP_V_ENTRY:
		case IPP_V_BLOCK:
		case IPP_V_RETSITE:
			if (lp->split_of[i] >= 0) {
				lp_add_edge(lp, IPP_E_SPLIT, (int)i, lp->split_of[i], IPP_NONE);
				lp_add_edge(lp, IPP_E_SPLIT_SURR, (int)i, lp->split_of[i], IPP_NONE);
			} else {
				lp_emit_out(lp, g, vid, (int)i, gexit);
			}
			break;
		case IPP_V_CALL:
			if (lp->split_of[i] >= 0) {
				/* a loop header that is a call (while (f()) ...): the
				 * split half takes the summary edge, below */
				lp_add_edge(lp, IPP_E_SPLIT, (int)i, lp->split_of[i], IPP_NONE);
				lp_add_edge(lp, IPP_E_SPLIT_SURR, (int)i, lp->split_of[i], IPP_NONE);
			} else if (status[vid] == IPP_SUM_NONE)
				lp_add_edge(lp, IPP_E_CALL, (int)i, -1, IPP_NONE);
			else
				lp_add_edge(lp, IPP_E_SUMMARY, (int)i, g->lidx[vid + 1], IPP_NONE);
			break;
		default:	/* Exit, GExit: interprocedural edges only; GEntry below */
			break;
		}
	}
	/* surrogate entry edges: targets in id order, after Entry_P's own edges */
	{
		int from = mode == IPP_MODE_PIECEWISE ? gentry : entry;
		unsigned char *target = ipp_xcalloc(pr->nverts, 1);
		for (size_t i = 0; i < pr->nverts; i++) {
			const struct ipp_vertex *ux = &g->v[pr->verts[i]];
			if (lp->cut[i] || ux->restart)
				target[i] = 1;
			if (use_split || ux->kind == IPP_V_CALL)
				continue;
			for (size_t k = 0; k < ux->nout; k++)
				if (g->back[ux->out[k]])
					target[g->lidx[g->e[ux->out[k]].dst]] = 1;
		}
		for (size_t i = 0; i < pr->nverts; i++)
			if (target[i])
				lp_add_edge(lp, IPP_E_SURR_ENTRY, from, (int)i, IPP_NONE);
		free(target);
	}
	/* split halves take the out-edges of their headers */
	for (size_t i = 0; i < pr->nverts; i++) {
		int s = lp->split_of[i];
		if (s < 0)
			continue;
		if (g->v[pr->verts[i]].kind == IPP_V_CALL) {
			ipp_id vid = pr->verts[i];
			/* intra-context: every call site is summarized */
			lp_add_edge(lp, IPP_E_SUMMARY, s, g->lidx[vid + 1], IPP_NONE);
		} else {
			lp_emit_out(lp, g, pr->verts[i], s, gexit);
		}
	}
	lp_topo(lp, g);
	lp->psi_a = ipp_xmalloc(lp->nv * sizeof(mpz_t));
	lp->psi_b = ipp_xmalloc(lp->nv * sizeof(mpz_t));
	for (size_t i = 0; i < lp->nv; i++) {
		mpz_init(lp->psi_a[i]);
		mpz_init(lp->psi_b[i]);
	}
	return lp;
}

void ipp_lproc_free(struct lproc *lp)
{
	if (!lp)
		return;
	for (size_t i = 0; i < lp->nv; i++) {
		free(lp->succ[i]);
		mpz_clear(lp->psi_a[i]);
		mpz_clear(lp->psi_b[i]);
	}
	free(lp->psi_a);
	free(lp->psi_b);
	free(lp->succ);
	free(lp->nsucc);
	free(lp->capsucc);
	free(lp->vorig);
	free(lp->vkind);
	free(lp->split_of);
	free(lp->cut);
	free(lp->e);
	free(lp->topo);
	free(lp);
}

void ipp_lproc_solve(struct lproc *lp, const ipp_graph *g, mpz_t *entry_a, mpz_t *entry_b)
{
	for (size_t t = 0; t < lp->nv; t++) {
		int i = lp->topo[t];
		mpz_ptr a = lp->psi_a[i], b = lp->psi_b[i];
		switch (lp->vkind[i]) {
		case IPP_V_EXIT:
			mpz_set_ui(a, 1);	/* eq. 19: psi_Exit = id */
			mpz_set_ui(b, 0);
			continue;
		case IPP_V_GEXIT:
			mpz_set_ui(a, 0);	/* eq. 20: psi_GExit = 1 */
			mpz_set_ui(b, 1);
			continue;
		default:
			break;
		}
		mpz_set_ui(a, 0);
		mpz_set_ui(b, 0);
		for (size_t k = 0; k < lp->nsucc[i]; k++) {
			struct ledge *le = &lp->e[lp->succ[i][k]];
			if (le->kind == IPP_E_CALL) {
				/* eq. 21: psi_c = psi_Entry_Q o psi_r */
				ipp_id c = lp->vorig[i];
				ipp_id q = g->v[c].callee;
				int r = lp->lidx[c + 1];
				mpz_mul(a, entry_a[q], lp->psi_a[r]);
				mpz_mul(b, entry_a[q], lp->psi_b[r]);
				mpz_add(b, b, entry_b[q]);
			} else {
				/* eq. 22: sum over successors (parallel edges count) */
				mpz_add(a, a, lp->psi_a[le->dst]);
				mpz_add(b, b, lp->psi_b[le->dst]);
			}
		}
	}
}

/* ------------------------------------------------------------------ */
/* Whole-unit helpers                                                   */
/* ------------------------------------------------------------------ */

ipp_id *ipp_callee_first_order(const ipp_graph *g, const enum ipp_summary_why *status)
{
	ipp_id *order = ipp_xmalloc((g->np + 1) * sizeof(ipp_id));
	unsigned char *seen = ipp_xcalloc(g->np, 1);
	struct frame { ipp_id p; size_t next; } *st = ipp_xmalloc((g->np + 1) * sizeof(*st));
	size_t n = 0;
	for (size_t root = 0; root < g->np; root++) {
		size_t sp = 0;
		if (seen[root])
			continue;
		seen[root] = 1;
		st[sp].p = (ipp_id)root;
		st[sp++].next = 0;
		while (sp) {
			struct frame *f = &st[sp - 1];
			const struct ipp_proc *pr = &g->p[f->p];
			ipp_id c;
			if (f->next >= pr->ncalls) {
				order[n++] = f->p;
				sp--;
				continue;
			}
			c = pr->calls[f->next++];
			if (status[c] != IPP_SUM_NONE)
				continue;
			if (!seen[g->v[c].callee]) {
				seen[g->v[c].callee] = 1;
				st[sp].p = g->v[c].callee;
				st[sp++].next = 0;
			}
		}
	}
	free(seen);
	free(st);
	return order;
}

void ipp_lin_apply(mpz_t out, const mpz_t a, const mpz_t b, const mpz_t x)
{
	mpz_mul(out, a, x);
	mpz_add(out, out, b);
}

/* ------------------------------------------------------------------ */
/* G*fin assembly                                                       */
/* ------------------------------------------------------------------ */

static ipp_id fin_add_edge(ipp_fin *f, enum ipp_ekind kind, ipp_id src, ipp_id dst,
			   ipp_id origin, ipp_id call)
{
	struct fedge *e;
	struct fvertex *s = &f->v[src];
	IPP_ARRAY_GROW(f->e, f->ne, f->cape);
	e = &f->e[f->ne];
	e->kind = kind;
	e->src = src;
	e->dst = dst;
	e->origin = origin;
	e->call = call;
	mpz_init(e->a);
	mpz_init(e->b);
	IPP_ARRAY_GROW(s->succ, s->nsucc, s->capsucc);
	s->succ[s->nsucc++] = (ipp_id)f->ne;
	return (ipp_id)f->ne++;
}

/* Each vertex's step (fin_internal.h), in the order the decoder once
 * tested them: no successor, Exit_P, GExit_P, a CALL edge first. */
static void fin_steps(ipp_fin *f)
{
	for (size_t i = 0; i < f->nv; i++) {
		struct fvertex *v = &f->v[i];
		if (v->nsucc == 0)
			v->step = FIN_STEP_STUCK;
		else if (v->kind == IPP_V_EXIT)
			v->step = FIN_STEP_EXIT;
		else if (v->kind == IPP_V_GEXIT)
			v->step = FIN_STEP_GEXIT;
		else if (f->e[v->succ[0]].kind == IPP_E_CALL)
			v->step = FIN_STEP_CALL;
		else
			v->step = FIN_STEP_CHOOSE;
	}
}

static void fin_digest(ipp_fin *f)
{
	uint64_t h = IPP_HASH_INIT;
	h = ipp_hash_str(h, ipp_mode_name(f->mode));
	h = ipp_hash_u64(h, f->nv);
	h = ipp_hash_u64(h, f->ne);
	for (size_t i = 0; i < f->nv; i++) {
		h = ipp_hash_u64(h, (uint64_t)f->v[i].kind);
		h = ipp_hash_mpz(h, f->v[i].a);
		h = ipp_hash_mpz(h, f->v[i].b);
	}
	for (size_t i = 0; i < f->ne; i++) {
		h = ipp_hash_u64(h, (uint64_t)f->e[i].kind);
		h = ipp_hash_u64(h, (uint64_t)(uint32_t)f->e[i].src);
		h = ipp_hash_u64(h, (uint64_t)(uint32_t)f->e[i].dst);
		h = ipp_hash_mpz(h, f->e[i].a);
		h = ipp_hash_mpz(h, f->e[i].b);
	}
	for (size_t i = 0; i < f->nr; i++) {
		h = ipp_hash_str(h, f->r[i].name);
		h = ipp_hash_mpz(h, f->r[i].total);
	}
	f->digest = h;
}

/* f->by_name: the regions sorted by name, for ipp_fin_region_find (the
 * plugin and the decoder look a region up per procedure: a linear search
 * made that quadratic in the unit's size).  Names are unique: regions are
 * procedures, whose assembler names ipp_graph_check keeps unique. */
struct named { const char *name; ipp_id r; };

static int cmp_named(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->name, ((const struct named *)b)->name);
}

static void index_regions(ipp_fin *f)
{
	struct named *v = ipp_xmalloc((f->nr ? f->nr : 1) * sizeof(*v));
	for (size_t i = 0; i < f->nr; i++) {
		v[i].name = f->r[i].name;
		v[i].r = (ipp_id)i;
	}
	qsort(v, f->nr, sizeof(*v), cmp_named);
	f->by_name = ipp_xmalloc((f->nr ? f->nr : 1) * sizeof(ipp_id));
	for (size_t i = 0; i < f->nr; i++)
		f->by_name[i] = v[i].r;
	free(v);
}

ipp_fin *ipp_fin_new(const ipp_graph *g, enum ipp_mode mode, const ipp_cuts *cuts,
		     char *err, size_t errlen)
{
	ipp_fin *f;
	unsigned char *cutv = NULL, *has_region;
	struct lproc **lps;
	mpz_t *entry_a, *entry_b;
	ipp_id *order, **callers;
	size_t *ncallers, nsplit_total = 0;
	ipp_id next_split;

	if ((unsigned)mode >= IPP_MODE_COUNT) {
		ipp_seterr(err, errlen, "unknown numbering mode %d", (int)mode);
		return NULL;
	}
	if (ipp_graph_check(g, err, errlen) < 0)
		return NULL;
	ipp_graph_derive(g);
	if (cuts) {
		cutv = ipp_xcalloc(g->nv, 1);
		for (size_t i = 0; i < cuts->nvertices; i++) {
			ipp_id v = cuts->vertices[i];
			if (v < 0 || (size_t)v >= g->nv ||
			    (g->v[v].kind != IPP_V_BLOCK && g->v[v].kind != IPP_V_CALL)) {
				ipp_seterr(err, errlen, "cut vertex %d is not a block or call vertex",
					   (int)v);
				free(cutv);
				return NULL;
			}
			cutv[v] = 1;
		}
		for (size_t i = 0; i < cuts->ncalls; i++) {
			ipp_id c = cuts->calls[i];
			if (c < 0 || (size_t)c >= g->nv || g->v[c].kind != IPP_V_CALL) {
				ipp_seterr(err, errlen, "cut call %d is not a call vertex", (int)c);
				free(cutv);
				return NULL;
			}
		}
	}

	f = ipp_xcalloc(1, sizeof(*f));
	f->g = g;
	f->mode = mode;
	mpz_init(f->total);
	f->status = ipp_xcalloc(g->nv, sizeof(*f->status));
	f->fallback = ipp_xcalloc(g->np ? g->np : 1, sizeof(bool));
	for (size_t i = 0; i < g->nv; i++)
		if (g->v[i].kind == IPP_V_CALL)
			f->status[i] = ipp_call_status(g, mode, cuts, (ipp_id)i);

	/* Entry regions: entry procedures, every procedure in the intra modes,
	 * and callees of summarized direct sites (T3 step 1). */
	has_region = ipp_xcalloc(g->np ? g->np : 1, 1);
	for (size_t p = 0; p < g->np; p++) {
		if (g->p[p].flags & IPP_PROC_SKIPPED)
			continue;
		if ((g->p[p].flags & IPP_PROC_ENTRY) || mode == IPP_MODE_INTRA ||
		    mode == IPP_MODE_INTRA_CONTEXT)
			has_region[p] = 1;
	}
	for (size_t i = 0; i < g->nv; i++)
		if (g->v[i].kind == IPP_V_CALL &&
		    (f->status[i] == IPP_SUM_RECURSIVE || f->status[i] == IPP_SUM_CUT))
			has_region[g->v[i].callee] = 1;

	/* local DAGs, psi bottom-up */
	lps = ipp_xcalloc(g->np ? g->np : 1, sizeof(*lps));
	entry_a = ipp_xmalloc((g->np + 1) * sizeof(mpz_t));
	entry_b = ipp_xmalloc((g->np + 1) * sizeof(mpz_t));
	for (size_t p = 0; p < g->np; p++) {
		mpz_init(entry_a[p]);
		mpz_init(entry_b[p]);
	}
	order = ipp_callee_first_order(g, f->status);
	for (size_t k = 0; k < g->np; k++) {
		ipp_id p = order[k];
		struct lproc *lp = ipp_lproc_build(g, mode, p, cutv, f->status);
		lps[p] = lp;
		if (!lp)
			continue;
		f->fallback[p] = lp->fallback;
		nsplit_total += lp->nv - lp->nbase;
		ipp_lproc_solve(lp, g, entry_a, entry_b);
		mpz_set(entry_a[p], lp->psi_a[g->lidx[g->p[p].entry]]);
		mpz_set(entry_b[p], lp->psi_b[g->lidx[g->p[p].entry]]);
	}

	/* vertices: G* ids, then split halves in procedure order */
	f->nv = g->nv + nsplit_total;
	f->v = ipp_xcalloc(f->nv, sizeof(*f->v));
	for (size_t i = 0; i < f->nv; i++) {
		mpz_init(f->v[i].a);
		mpz_init(f->v[i].b);
		mpz_init(f->v[i].nurl);
		f->v[i].ret_edge = IPP_NONE;
	}
	for (size_t i = 0; i < g->nv; i++) {
		f->v[i].kind = g->v[i].kind;
		f->v[i].proc = g->v[i].proc;
		f->v[i].origin = (ipp_id)i;
		f->v[i].cut = cutv && cutv[i];
	}
	next_split = (ipp_id)g->nv;
	{
		/* global id of every local vertex */
		ipp_id **gid = ipp_xcalloc(g->np ? g->np : 1, sizeof(ipp_id *));
		for (size_t p = 0; p < g->np; p++) {
			struct lproc *lp = lps[p];
			if (!lp)
				continue;
			gid[p] = ipp_xmalloc(lp->nv * sizeof(ipp_id));
			for (size_t i = 0; i < lp->nv; i++) {
				ipp_id id = i < lp->nbase ? lp->vorig[i] : next_split++;
				gid[p][i] = id;
				f->v[id].kind = lp->vkind[i];
				f->v[id].proc = (ipp_id)p;
				f->v[id].origin = lp->vorig[i];
				mpz_set(f->v[id].a, lp->psi_a[i]);
				mpz_set(f->v[id].b, lp->psi_b[i]);
			}
		}
		mpz_set_ui(f->v[0].a, 0);
		mpz_set_ui(f->v[1].a, 0);
		mpz_set_ui(f->v[1].b, 1);

		/* interprocedural call sites on each procedure, in call-vertex order */
		callers = ipp_xcalloc(g->np ? g->np : 1, sizeof(ipp_id *));
		ncallers = ipp_xcalloc(g->np ? g->np : 1, sizeof(size_t));
		for (size_t i = 0; i < g->nv; i++)
			if (g->v[i].kind == IPP_V_CALL && f->status[i] == IPP_SUM_NONE) {
				ipp_id q = g->v[i].callee;
				callers[q] = ipp_xrealloc(callers[q], (ncallers[q] + 1) * sizeof(ipp_id));
				callers[q][ncallers[q]++] = (ipp_id)i;
			}

		/* regions and their GLOBAL_ENTRY edges */
		for (size_t p = 0; p < g->np; p++) {
			for (int ge = 0; ge < 2; ge++) {
				struct fregion *r;
				ipp_id target;
				if (!ge && !has_region[p])
					continue;
				if (ge && (mode != IPP_MODE_PIECEWISE || !lps[p] ||
					   lps[p]->nsucc[g->lidx[g->p[p].gentry]] == 0))
					continue;
				target = ge ? g->p[p].gentry : g->p[p].entry;
				f->r = ipp_xrealloc(f->r, (f->nr + 1) * sizeof(*f->r));
				r = &f->r[f->nr++];
				r->proc = (ipp_id)p;
				r->gentry = ge;
				r->edge = fin_add_edge(f, IPP_E_GLOBAL_ENTRY, 0, target, IPP_NONE, IPP_NONE);
				r->name = ipp_xmalloc(strlen(g->p[p].asm_name) + 3);
				sprintf(r->name, "%s%s", g->p[p].asm_name, ge ? "#g" : "");
				mpz_init(r->total);
				mpz_init(r->offset);
				mpz_init(r->nvc);
			}
		}

		index_regions(f);

		/* edges, procedure by procedure, vertex by vertex */
		for (size_t p = 0; p < g->np; p++) {
			struct lproc *lp = lps[p];
			if (!lp)
				continue;
			for (size_t i = 0; i < lp->nv; i++) {
				ipp_id src = gid[p][i];
				for (size_t k = 0; k < lp->nsucc[i]; k++) {
					struct ledge *le = &lp->e[lp->succ[i][k]];
					if (le->kind == IPP_E_CALL) {
						ipp_id c = lp->vorig[i];
						fin_add_edge(f, IPP_E_CALL, src,
							     g->p[g->v[c].callee].entry, IPP_NONE, c);
					} else {
						ipp_id call = le->kind == IPP_E_SUMMARY ?
							      lp->vorig[i] : IPP_NONE;
						fin_add_edge(f, le->kind, src, gid[p][le->dst],
							     le->origin, call);
					}
				}
				if (lp->vkind[i] == IPP_V_EXIT) {
					for (size_t k = 0; k < ncallers[p]; k++) {
						ipp_id c = callers[p][k];
						f->v[c].ret_edge = fin_add_edge(f, IPP_E_RETURN, src,
										c + 1, IPP_NONE, c);
					}
					if (has_region[p])
						fin_add_edge(f, IPP_E_GLOBAL_EXIT, src, 1, IPP_NONE,
							     IPP_NONE);
				} else if (lp->vkind[i] == IPP_V_GEXIT) {
					fin_add_edge(f, IPP_E_GLOBAL_EXIT, src, 1, IPP_NONE, IPP_NONE);
				}
			}
		}
		for (size_t p = 0; p < g->np; p++) {
			free(gid[p]);
			free(callers[p]);
		}
		free(gid);
		free(callers);
		free(ncallers);
	}

	/* rho, eq. 24: prefix sums of psi over intraprocedural successors */
	for (size_t i = 0; i < f->nv; i++) {
		struct fvertex *v = &f->v[i];
		mpz_t sa, sb;
		if (v->kind == IPP_V_EXIT || v->kind == IPP_V_GEXIT || v->kind == IPP_V_GLOBAL_ENTRY)
			continue;
		mpz_init(sa);
		mpz_init(sb);
		for (size_t k = 0; k < v->nsucc; k++) {
			struct fedge *e = &f->e[v->succ[k]];
			if (e->kind == IPP_E_CALL)
				break;
			mpz_set(e->a, sa);
			mpz_set(e->b, sb);
			mpz_add(sa, sa, f->v[e->dst].a);
			mpz_add(sb, sb, f->v[e->dst].b);
		}
		mpz_clear(sa);
		mpz_clear(sb);
	}

	/* piecewise: numUnbalRLPaths, callers first (eq. 33-34), edgeValue (eq. 35) */
	if (mode == IPP_MODE_PIECEWISE) {
		for (size_t k = g->np; k-- > 0;) {
			ipp_id p = order[k];
			struct fvertex *x;
			mpz_t sum;
			if (!lps[p])
				continue;
			x = &f->v[g->p[p].exit];
			mpz_init(sum);
			for (size_t j = 0; j < x->nsucc; j++) {
				struct fedge *e = &f->e[x->succ[j]];
				mpz_set_ui(e->a, 0);
				mpz_set(e->b, sum);
				if (e->kind == IPP_E_RETURN) {
					struct fvertex *r = &f->v[e->dst];
					struct fvertex *qx = &f->v[g->p[r->proc].exit];
					ipp_lin_apply(r->nurl, r->a, r->b, qx->nurl);
					mpz_add(sum, sum, r->nurl);
				} else {
					mpz_add_ui(sum, sum, 1);
				}
			}
			mpz_set(x->nurl, sum);
			mpz_clear(sum);
		}
	}

	/* region totals and offsets */
	for (size_t i = 0; i < f->nr; i++) {
		struct fregion *r = &f->r[i];
		struct fvertex *t = &f->v[f->e[r->edge].dst];
		if (r->gentry)
			mpz_set(r->nvc, f->v[g->p[r->proc].exit].nurl);
		else
			mpz_set_ui(r->nvc, 1);
		ipp_lin_apply(r->total, t->a, t->b, r->nvc);
		mpz_set(r->offset, f->total);
		mpz_add(f->total, f->total, r->total);
	}

	for (size_t p = 0; p < g->np; p++) {
		ipp_lproc_free(lps[p]);
		mpz_clear(entry_a[p]);
		mpz_clear(entry_b[p]);
	}
	free(lps);
	free(entry_a);
	free(entry_b);
	free(order);
	free(has_region);
	free(cutv);
	f->restarts = ipp_xcalloc(g->np ? g->np : 1, sizeof(bool));
	for (size_t e = 0; e < f->ne; e++)
		if (f->e[e].kind == IPP_E_SURR_EXIT)
			f->restarts[f->v[f->e[e].src].proc] = true;
	fin_steps(f);
	ipp_fin_build_u64(f);
	fin_digest(f);
	return f;
}

void ipp_fin_free(ipp_fin *f)
{
	if (!f)
		return;
	free(f->off);
	for (size_t i = 0; i < f->nv; i++) {
		free(f->v[i].succ);
		mpz_clear(f->v[i].a);
		mpz_clear(f->v[i].b);
		mpz_clear(f->v[i].nurl);
	}
	for (size_t i = 0; i < f->ne; i++) {
		mpz_clear(f->e[i].a);
		mpz_clear(f->e[i].b);
	}
	for (size_t i = 0; i < f->nr; i++) {
		free(f->r[i].name);
		mpz_clear(f->r[i].total);
		mpz_clear(f->r[i].offset);
		mpz_clear(f->r[i].nvc);
	}
	mpz_clear(f->total);
	free(f->r);
	free(f->by_name);
	free(f->v);
	free(f->e);
	free(f->status);
	free(f->fallback);
	free(f->restarts);
	free(f);
}

/* ------------------------------------------------------------------ */
/* Accessors                                                            */
/* ------------------------------------------------------------------ */

const ipp_graph *ipp_fin_graph(const ipp_fin *f) { return f->g; }
enum ipp_mode ipp_fin_mode(const ipp_fin *f) { return f->mode; }
size_t ipp_fin_nvertices(const ipp_fin *f) { return f->nv; }
enum ipp_vkind ipp_fin_vkind(const ipp_fin *f, ipp_id v) { return f->v[v].kind; }
ipp_id ipp_fin_vproc(const ipp_fin *f, ipp_id v) { return f->v[v].proc; }
ipp_id ipp_fin_vorigin(const ipp_fin *f, ipp_id v) { return f->v[v].origin; }
size_t ipp_fin_nsucc(const ipp_fin *f, ipp_id v) { return f->v[v].nsucc; }
ipp_id ipp_fin_succ(const ipp_fin *f, ipp_id v, size_t i) { return f->v[v].succ[i]; }
size_t ipp_fin_nedges(const ipp_fin *f) { return f->ne; }
enum ipp_ekind ipp_fin_ekind(const ipp_fin *f, ipp_id e) { return f->e[e].kind; }
ipp_id ipp_fin_esrc(const ipp_fin *f, ipp_id e) { return f->e[e].src; }
ipp_id ipp_fin_edst(const ipp_fin *f, ipp_id e) { return f->e[e].dst; }
ipp_id ipp_fin_eorigin(const ipp_fin *f, ipp_id e) { return f->e[e].origin; }
ipp_id ipp_fin_ecall(const ipp_fin *f, ipp_id e) { return f->e[e].call; }
uint64_t ipp_fin_digest(const ipp_fin *f) { return f->digest; }
size_t ipp_fin_nregions(const ipp_fin *f) { return f->nr; }
bool ipp_fin_is_cut_vertex(const ipp_fin *f, ipp_id v) { return f->v[v].cut; }

void ipp_fin_psi(const ipp_fin *f, ipp_id v, mpz_t a, mpz_t b)
{
	mpz_set(a, f->v[v].a);
	mpz_set(b, f->v[v].b);
}

void ipp_fin_rho(const ipp_fin *f, ipp_id e, mpz_t a, mpz_t b)
{
	mpz_set(a, f->e[e].a);
	mpz_set(b, f->e[e].b);
}

void ipp_fin_num_unbal_rl(const ipp_fin *f, ipp_id v, mpz_t out)
{
	mpz_set(out, f->v[v].nurl);
}

enum ipp_summary_why ipp_fin_call_summary(const ipp_fin *f, ipp_id c)
{
	return f->status[c];
}

bool ipp_fin_proc_fallback(const ipp_fin *f, ipp_id p)
{
	return f->fallback[p];
}

bool ipp_fin_proc_restarts(const ipp_fin *f, ipp_id p)
{
	return f->restarts[p];
}

void ipp_fin_region(const ipp_fin *f, ipp_id r, ipp_region_info *out)
{
	out->proc = f->r[r].proc;
	out->gentry = f->r[r].gentry;
	out->edge = f->r[r].edge;
	out->name = f->r[r].name;
}

ipp_id ipp_fin_region_find(const ipp_fin *f, const char *name)
{
	size_t lo = 0, hi = f->nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(f->r[f->by_name[mid]].name, name);
		if (c == 0)
			return f->by_name[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return IPP_NONE;
}

void ipp_fin_region_total(const ipp_fin *f, ipp_id r, mpz_t out) { mpz_set(out, f->r[r].total); }
void ipp_fin_region_offset(const ipp_fin *f, ipp_id r, mpz_t out) { mpz_set(out, f->r[r].offset); }
void ipp_fin_region_nvc(const ipp_fin *f, ipp_id r, mpz_t out) { mpz_set(out, f->r[r].nvc); }
void ipp_fin_total(const ipp_fin *f, mpz_t out) { mpz_set(out, f->total); }
