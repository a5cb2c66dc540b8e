/* graph.c -- the input supergraph G*: construction, checks, and the facts
 * derived from it (DFS back edges, recursive call sites, reducibility).
 *
 * Vertex 0 is Entry_global and vertex 1 is Exit_global.  Every procedure
 * owns Entry_P, Exit_P, GExit_P and GEntry_P (created with it) plus the
 * vertices added to it.  A call vertex c is always followed by its return
 * site c+1; the flow c -> c+1 is implicit (it becomes a CALL/RETURN pair or
 * a SUMMARY edge in G*fin).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include "internal.h"

#include <stdarg.h>

/* ---- small utilities ---- */

void ipp_seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static const char *const mode_names[IPP_MODE_COUNT] = {
	"context", "piecewise", "intra", "intra-context"
};

const char *ipp_mode_name(enum ipp_mode m)
{
	return (unsigned)m < IPP_MODE_COUNT ? mode_names[m] : "?";
}

int ipp_mode_parse(const char *s, enum ipp_mode *out)
{
	for (int i = 0; i < IPP_MODE_COUNT; i++)
		if (strcmp(s, mode_names[i]) == 0) {
			*out = (enum ipp_mode)i;
			return 0;
		}
	return -1;
}

static const char *const vkind_names[IPP_V_KIND_COUNT] = {
	"block", "call", "return-site", "entry", "exit", "gexit", "gentry", "split",
	"global-entry", "global-exit"
};

const char *ipp_vkind_name(enum ipp_vkind k)
{
	return (unsigned)k < IPP_V_KIND_COUNT ? vkind_names[k] : "?";
}

int ipp_vkind_parse(const char *s, enum ipp_vkind *out)
{
	for (int i = 0; i < IPP_V_KIND_COUNT; i++)
		if (strcmp(s, vkind_names[i]) == 0) {
			*out = (enum ipp_vkind)i;
			return 0;
		}
	return -1;
}

/* ---- construction ---- */

static void invalidate(ipp_graph *g)
{
	g->derived_ok = false;
	g->weights_ok = false;
}

static ipp_id new_vertex(ipp_graph *g, enum ipp_vkind kind, ipp_id proc)
{
	struct ipp_vertex *v;
	IPP_ARRAY_GROW(g->v, g->nv, g->capv);
	v = &g->v[g->nv];
	memset(v, 0, sizeof(*v));
	v->kind = kind;
	v->proc = proc;
	v->file = -1;
	v->tag = -1;
	v->callee = IPP_NONE;
	if (proc != IPP_NONE) {
		struct ipp_proc *p = &g->p[proc];
		IPP_ARRAY_GROW(p->verts, p->nverts, p->capverts);
		p->verts[p->nverts++] = (ipp_id)g->nv;
	}
	invalidate(g);
	return (ipp_id)g->nv++;
}

ipp_graph *ipp_graph_new(void)
{
	ipp_graph *g = ipp_xcalloc(1, sizeof(*g));
	new_vertex(g, IPP_V_GLOBAL_ENTRY, IPP_NONE);
	new_vertex(g, IPP_V_GLOBAL_EXIT, IPP_NONE);
	return g;
}

static void free_derived(ipp_graph *g)
{
	free(g->back);
	free(g->recursive);
	free(g->reducible);
	free(g->weight);
	free(g->lidx);
	free(g->isite);
	g->lidx = NULL;
	g->isite = NULL;
	g->back = g->recursive = g->reducible = NULL;
	g->weight = NULL;
}

void ipp_graph_free(ipp_graph *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->nv; i++) {
		free(g->v[i].out);
		free(g->v[i].tasm);
		free(g->v[i].tname);
	}
	for (size_t i = 0; i < g->np; i++) {
		free(g->p[i].name);
		free(g->p[i].asm_name);
		free(g->p[i].verts);
		free(g->p[i].calls);
	}
	for (size_t i = 0; i < g->nfiles; i++)
		free(g->files[i]);
	free(g->files);
	free(g->v);
	free(g->e);
	free(g->p);
	free_derived(g);
	free(g);
}

ipp_id ipp_add_proc(ipp_graph *g, const char *name, const char *asm_name, unsigned flags)
{
	struct ipp_proc *p;
	ipp_id id = (ipp_id)g->np;
	IPP_ARRAY_GROW(g->p, g->np, g->capp);
	p = &g->p[g->np++];
	memset(p, 0, sizeof(*p));
	p->name = ipp_xstrdup(name);
	p->asm_name = ipp_xstrdup(asm_name ? asm_name : name);
	p->flags = flags;
	p->entry = new_vertex(g, IPP_V_ENTRY, id);
	p->exit = new_vertex(g, IPP_V_EXIT, id);
	p->gexit = new_vertex(g, IPP_V_GEXIT, id);
	p->gentry = new_vertex(g, IPP_V_GENTRY, id);
	return id;
}

ipp_id ipp_add_block(ipp_graph *g, ipp_id p)
{
	return new_vertex(g, IPP_V_BLOCK, p);
}

ipp_id ipp_add_call(ipp_graph *g, ipp_id p, ipp_id callee, unsigned flags)
{
	ipp_id c = new_vertex(g, IPP_V_CALL, p);
	struct ipp_proc *pr = &g->p[p];
	g->v[c].callee = callee;
	g->v[c].cflags = flags;
	new_vertex(g, IPP_V_RETSITE, p);
	IPP_ARRAY_GROW(pr->calls, pr->ncalls, pr->capcalls);
	pr->calls[pr->ncalls++] = c;
	return c;
}

/* The names stay out of the derived facts: no invalidate(). */
void ipp_set_call_target(ipp_graph *g, ipp_id c, const char *asm_name, const char *name)
{
	struct ipp_vertex *v = &g->v[c];
	free(v->tasm);
	free(v->tname);
	v->tasm = ipp_xstrdup(asm_name);
	v->tname = name && strcmp(name, asm_name) != 0 ? ipp_xstrdup(name) : NULL;
}

ipp_id ipp_add_edge(ipp_graph *g, ipp_id src, ipp_id dst)
{
	struct ipp_vertex *v = &g->v[src];
	IPP_ARRAY_GROW(g->e, g->ne, g->cape);
	g->e[g->ne].src = src;
	g->e[g->ne].dst = dst;
	IPP_ARRAY_GROW(v->out, v->nout, v->capout);
	v->out[v->nout++] = (ipp_id)g->ne;
	invalidate(g);
	return (ipp_id)g->ne++;
}

void ipp_set_loc(ipp_graph *g, ipp_id v, const char *file, int line, int col)
{
	int f = -1;
	if (file) {
		for (size_t i = 0; i < g->nfiles; i++)
			if (strcmp(g->files[i], file) == 0) {
				f = (int)i;
				break;
			}
		if (f < 0) {
			IPP_ARRAY_GROW(g->files, g->nfiles, g->capfiles);
			g->files[g->nfiles] = ipp_xstrdup(file);
			f = (int)g->nfiles++;
		}
	}
	g->v[v].file = f;
	g->v[v].line = line;
	g->v[v].col = col;
}

void ipp_set_restart(ipp_graph *g, ipp_id v)
{
	g->v[v].restart = true;
	invalidate(g);
}

bool ipp_vertex_is_restart(const ipp_graph *g, ipp_id v)
{
	return g->v[v].restart;
}

void ipp_set_tag(ipp_graph *g, ipp_id v, int tag)
{
	g->v[v].tag = tag;
}

void ipp_set_proc_flags(ipp_graph *g, ipp_id p, unsigned flags)
{
	g->p[p].flags = flags;
	invalidate(g);
}

void ipp_set_call_flags(ipp_graph *g, ipp_id c, unsigned flags)
{
	g->v[c].cflags = flags;
	invalidate(g);
}

/* ---- read access ---- */

size_t ipp_graph_nprocs(const ipp_graph *g) { return g->np; }
size_t ipp_graph_nvertices(const ipp_graph *g) { return g->nv; }
size_t ipp_graph_nedges(const ipp_graph *g) { return g->ne; }
const char *ipp_proc_name(const ipp_graph *g, ipp_id p) { return g->p[p].name; }
const char *ipp_proc_asm(const ipp_graph *g, ipp_id p) { return g->p[p].asm_name; }
unsigned ipp_proc_flags(const ipp_graph *g, ipp_id p) { return g->p[p].flags; }
ipp_id ipp_proc_entry(const ipp_graph *g, ipp_id p) { return g->p[p].entry; }
ipp_id ipp_proc_exit(const ipp_graph *g, ipp_id p) { return g->p[p].exit; }
ipp_id ipp_proc_gexit(const ipp_graph *g, ipp_id p) { return g->p[p].gexit; }
ipp_id ipp_proc_gentry(const ipp_graph *g, ipp_id p) { return g->p[p].gentry; }
enum ipp_vkind ipp_vertex_kind(const ipp_graph *g, ipp_id v) { return g->v[v].kind; }
ipp_id ipp_vertex_proc(const ipp_graph *g, ipp_id v) { return g->v[v].proc; }
int ipp_vertex_line(const ipp_graph *g, ipp_id v) { return g->v[v].line; }
int ipp_vertex_col(const ipp_graph *g, ipp_id v) { return g->v[v].col; }
int ipp_vertex_tag(const ipp_graph *g, ipp_id v) { return g->v[v].tag; }
ipp_id ipp_call_callee(const ipp_graph *g, ipp_id c) { return g->v[c].callee; }
unsigned ipp_call_flags(const ipp_graph *g, ipp_id c) { return g->v[c].cflags; }
ipp_id ipp_edge_src(const ipp_graph *g, ipp_id e) { return g->e[e].src; }
ipp_id ipp_edge_dst(const ipp_graph *g, ipp_id e) { return g->e[e].dst; }
size_t ipp_vertex_nout(const ipp_graph *g, ipp_id v) { return g->v[v].nout; }
ipp_id ipp_vertex_out(const ipp_graph *g, ipp_id v, size_t i) { return g->v[v].out[i]; }

const char *ipp_call_target_asm(const ipp_graph *g, ipp_id c)
{
	const struct ipp_vertex *v = &g->v[c];
	if (v->tasm)
		return v->tasm;
	return v->callee != IPP_NONE ? g->p[v->callee].asm_name : NULL;
}

const char *ipp_call_target_name(const ipp_graph *g, ipp_id c)
{
	const struct ipp_vertex *v = &g->v[c];
	if (v->tasm)
		return v->tname ? v->tname : v->tasm;
	return v->callee != IPP_NONE ? g->p[v->callee].name : NULL;
}

const char *ipp_vertex_file(const ipp_graph *g, ipp_id v)
{
	int f = g->v[v].file;
	return f >= 0 ? g->files[f] : NULL;
}

ipp_id ipp_proc_inline_site(const ipp_graph *g, ipp_id p)
{
	ipp_graph_derive(g);
	return g->isite[p];
}

/* The function an inlined copy's asm name "CALLER/ASM:N" (nested copies:
 * "CALLER/ASM1:N/ASM:M") is a copy of: ASM, as [*base, *base + *len). */
static void copy_base(const char *asm_name, const char **base, size_t *len)
{
	const char *slash = strrchr(asm_name, '/'), *colon;
	*base = slash ? slash + 1 : asm_name;
	colon = strrchr(*base, ':');
	*len = colon ? (size_t)(colon - *base) : strlen(*base);
}

struct origin_key {
	const char *base;
	size_t len;
	ipp_id p;
	int rank;	/* 0 the function's own procedure, 1 a kept copy, 2 other */
};

static int origin_key_cmp(const void *x, const void *y)
{
	const struct origin_key *a = x, *b = y;
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->base, b->base, n);
	if (c != 0)
		return c;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank - b->rank;
	return (a->p > b->p) - (a->p < b->p);
}

void ipp_proc_origins(const ipp_graph *g, ipp_id *out)
{
	struct origin_key *k = ipp_xcalloc(g->np + 1, sizeof(*k));
	for (size_t i = 0; i < g->np; i++) {
		unsigned fl = g->p[i].flags;
		k[i].p = (ipp_id)i;
		if (fl & IPP_PROC_INLINED) {
			copy_base(g->p[i].asm_name, &k[i].base, &k[i].len);
			k[i].rank = (fl & IPP_PROC_SKIPPED) ? 2 : 1;
		} else {
			k[i].base = g->p[i].asm_name;
			k[i].len = strlen(k[i].base);
			k[i].rank = (fl & IPP_PROC_SKIPPED) ? 2 : 0;
		}
	}
	/* each group of one function: its best procedure first */
	qsort(k, g->np, sizeof(*k), origin_key_cmp);
	for (size_t i = 0, first = 0; i < g->np; i++) {
		if (i > 0 && (k[i].len != k[first].len ||
			      memcmp(k[i].base, k[first].base, k[i].len) != 0))
			first = i;
		/* a procedure that is not a copy stands for itself */
		bool copy = (g->p[k[i].p].flags & IPP_PROC_INLINED) != 0;
		out[k[i].p] = copy && k[first].rank < 2 ? k[first].p : k[i].p;
	}
	free(k);
}

ipp_id ipp_proc_find(const ipp_graph *g, const char *asm_name)
{
	for (size_t i = 0; i < g->np; i++)
		if (strcmp(g->p[i].asm_name, asm_name) == 0)
			return (ipp_id)i;
	return IPP_NONE;
}

size_t ipp_graph_succ_vertices(const ipp_graph *g, ipp_id v, ipp_id *out, size_t cap)
{
	const struct ipp_vertex *vx = &g->v[v];
	if (vx->kind == IPP_V_CALL) {
		if (cap > 0)
			out[0] = v + 1;
		return 1;
	}
	for (size_t i = 0; i < vx->nout && i < cap; i++)
		out[i] = g->e[vx->out[i]].dst;
	return vx->nout;
}

/* ---- structural checks ---- */

/* Inlined copies (IPP_PROC_INLINED): each has exactly one call site, an
 * IPP_CALL_INLINED call vertex, in a procedure that is not the copy
 * itself nor one of its copies (the copies form trees below real
 * procedures); an IPP_CALL_INLINED call enters an inlined copy.  A copy
 * also flagged IPP_PROC_SKIPPED is one whose blocks are its caller's own
 * (a flattened copy, listed with the reason): it has no call site. */
static int check_inlined(const ipp_graph *g, char *err, size_t errlen)
{
	size_t *ncalls = ipp_xcalloc(g->np ? g->np : 1, sizeof(size_t));
	ipp_id *site = ipp_xmalloc((g->np ? g->np : 1) * sizeof(ipp_id));
	int rc = -1;

	for (size_t p = 0; p < g->np; p++)
		site[p] = IPP_NONE;

	for (size_t v = 2; v < g->nv; v++) {
		const struct ipp_vertex *x = &g->v[v];
		if (x->kind != IPP_V_CALL || x->callee == IPP_NONE)
			continue;
		bool inl = (g->p[x->callee].flags & IPP_PROC_INLINED) != 0;
		if (inl != ((x->cflags & IPP_CALL_INLINED) != 0)) {
			ipp_seterr(err, errlen, "call vertex %zu: %s", v, inl
				   ? "enters an inlined procedure but is not an inlined call"
				   : "is an inlined call of a procedure that is not inlined");
			goto out;
		}
		if (inl) {
			ncalls[x->callee]++;
			site[x->callee] = (ipp_id)v;
		}
	}
	for (size_t v = 2; v < g->nv; v++)
		if (g->v[v].kind == IPP_V_CALL && (g->v[v].cflags & IPP_CALL_INLINED) &&
		    (g->v[v].callee == IPP_NONE || (g->v[v].cflags & IPP_CALL_INDIRECT))) {
			ipp_seterr(err, errlen, "inlined call vertex %zu has no callee procedure", v);
			goto out;
		}
	for (size_t p = 0; p < g->np; p++) {
		size_t depth = 0;
		if (!(g->p[p].flags & IPP_PROC_INLINED))
			continue;
		if (g->p[p].flags & IPP_PROC_ENTRY) {
			ipp_seterr(err, errlen, "inlined procedure %s is flagged entry",
				   g->p[p].asm_name);
			goto out;
		}
		/* a copy left to its caller's blocks: listed, never called */
		if (g->p[p].flags & IPP_PROC_SKIPPED) {
			if (ncalls[p] != 0) {
				ipp_seterr(err, errlen, "inlined procedure %s is skipped but has "
					   "a call site", g->p[p].asm_name);
				goto out;
			}
			continue;
		}
		if (ncalls[p] != 1) {
			ipp_seterr(err, errlen, "inlined procedure %s has %zu call sites, not one",
				   g->p[p].asm_name, ncalls[p]);
			goto out;
		}
		for (ipp_id q = (ipp_id)p; site[q] != IPP_NONE && (g->p[q].flags & IPP_PROC_INLINED);
		     q = g->v[site[q]].proc)
			if (++depth > g->np) {
				ipp_seterr(err, errlen, "inlined procedure %s is inlined into itself",
					   g->p[p].asm_name);
				goto out;
			}
	}
	rc = 0;
out:
	free(ncalls);
	free(site);
	return rc;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* No two procedures share an assembler name: sorted, then neighbours
 * compared (a unit has thousands of procedures once its inlined copies
 * are: comparing every pair took most of the check's time). */
static int check_names_unique(const ipp_graph *g, char *err, size_t errlen)
{
	const char **names = ipp_xmalloc((g->np ? g->np : 1) * sizeof(*names));
	int rc = 0;
	for (size_t i = 0; i < g->np; i++)
		names[i] = g->p[i].asm_name;
	qsort(names, g->np, sizeof(*names), cmp_name);
	for (size_t i = 1; i < g->np; i++)
		if (strcmp(names[i - 1], names[i]) == 0) {
			ipp_seterr(err, errlen, "two procedures named %s", names[i]);
			rc = -1;
			break;
		}
	free(names);
	return rc;
}

int ipp_graph_check(const ipp_graph *g, char *err, size_t errlen)
{
	for (size_t i = 0; i < g->ne; i++) {
		const struct ipp_edge *e = &g->e[i];
		const struct ipp_vertex *s, *d;
		if (e->src < 0 || (size_t)e->src >= g->nv || e->dst < 0 || (size_t)e->dst >= g->nv) {
			ipp_seterr(err, errlen, "edge %zu: vertex out of range", i);
			return -1;
		}
		s = &g->v[e->src];
		d = &g->v[e->dst];
		if (s->proc == IPP_NONE || s->proc != d->proc) {
			ipp_seterr(err, errlen, "edge %zu (%d -> %d) is not inside one procedure",
				   i, e->src, e->dst);
			return -1;
		}
		if (s->kind == IPP_V_CALL || s->kind == IPP_V_EXIT || s->kind == IPP_V_GEXIT ||
		    s->kind == IPP_V_GENTRY) {
			ipp_seterr(err, errlen, "edge %zu leaves a %s vertex (%d)", i,
				   ipp_vkind_name(s->kind), e->src);
			return -1;
		}
		if (d->kind == IPP_V_ENTRY || d->kind == IPP_V_RETSITE || d->kind == IPP_V_GENTRY) {
			ipp_seterr(err, errlen, "edge %zu enters a %s vertex (%d)", i,
				   ipp_vkind_name(d->kind), e->dst);
			return -1;
		}
	}
	for (size_t i = 2; i < g->nv; i++) {
		const struct ipp_vertex *v = &g->v[i];
		if (v->proc == IPP_NONE || (size_t)v->proc >= g->np) {
			ipp_seterr(err, errlen, "vertex %zu has no procedure", i);
			return -1;
		}
		if (g->p[v->proc].flags & IPP_PROC_SKIPPED) {
			if (v->nout) {
				ipp_seterr(err, errlen, "skipped procedure %s has a body",
					   g->p[v->proc].asm_name);
				return -1;
			}
			continue;
		}
		if (v->restart && v->kind != IPP_V_BLOCK && v->kind != IPP_V_RETSITE) {
			ipp_seterr(err, errlen, "restart vertex %zu is a %s vertex", i,
				   ipp_vkind_name(v->kind));
			return -1;
		}
		if (v->tasm && v->kind != IPP_V_CALL) {
			ipp_seterr(err, errlen, "%s vertex %zu names a callee",
				   ipp_vkind_name(v->kind), i);
			return -1;
		}
		switch (v->kind) {
		case IPP_V_BLOCK:
		case IPP_V_RETSITE:
		case IPP_V_ENTRY:
			if (v->nout == 0) {
				ipp_seterr(err, errlen,
					   "%s vertex %zu of %s has no successor (a dead end "
					   "needs an edge to GExit)", ipp_vkind_name(v->kind), i,
					   g->p[v->proc].asm_name);
				return -1;
			}
			break;
		case IPP_V_CALL:
			if (i + 1 >= g->nv || g->v[i + 1].kind != IPP_V_RETSITE) {
				ipp_seterr(err, errlen, "call vertex %zu lacks its return site", i);
				return -1;
			}
			if (v->callee != IPP_NONE && (v->callee < 0 || (size_t)v->callee >= g->np)) {
				ipp_seterr(err, errlen, "call vertex %zu: callee out of range", i);
				return -1;
			}
			if (v->tasm && (v->cflags & IPP_CALL_INDIRECT)) {
				ipp_seterr(err, errlen, "call vertex %zu is indirect but names its "
					   "callee %s", i, v->tasm);
				return -1;
			}
			if (v->tasm && v->callee != IPP_NONE &&
			    (strcmp(v->tasm, g->p[v->callee].asm_name) != 0 ||
			     strcmp(ipp_call_target_name(g, (ipp_id)i), g->p[v->callee].name) != 0)) {
				ipp_seterr(err, errlen, "call vertex %zu calls procedure %s (%s) but "
					   "names its callee %s (%s)", i, g->p[v->callee].asm_name,
					   g->p[v->callee].name, v->tasm,
					   ipp_call_target_name(g, (ipp_id)i));
				return -1;
			}
			break;
		default:
			break;
		}
	}
	if (check_inlined(g, err, errlen) < 0)
		return -1;
	return check_names_unique(g, err, errlen);
}

/* ---- derived facts ---- */

/* Iterative DFS over one procedure's CFG from 'root', in successor order,
 * marking DFS back edges (edges to a vertex on the stack).  color: 0 white,
 * 1 on stack, 2 done; indexed by vertex id. */
static void dfs_back_edges(ipp_graph *g, ipp_id root, unsigned char *color)
{
	struct frame { ipp_id v; size_t next; } *st;
	size_t sp = 0, cap = 64;
	st = ipp_xmalloc(cap * sizeof(*st));
	st[sp].v = root;
	st[sp++].next = 0;
	color[root] = 1;
	while (sp) {
		struct frame *f = &st[sp - 1];
		struct ipp_vertex *v = &g->v[f->v];
		ipp_id w, e = IPP_NONE;
		if (v->kind == IPP_V_CALL) {
			if (f->next > 0) {
				color[f->v] = 2;
				sp--;
				continue;
			}
			f->next = 1;
			w = f->v + 1;
		} else {
			if (f->next >= v->nout) {
				color[f->v] = 2;
				sp--;
				continue;
			}
			e = v->out[f->next++];
			w = g->e[e].dst;
		}
		if (color[w] == 1) {
			if (e != IPP_NONE)
				g->back[e] = 1;
		} else if (color[w] == 0) {
			color[w] = 1;
			if (sp == cap) {
				cap *= 2;
				st = ipp_xrealloc(st, cap * sizeof(*st));
			}
			st[sp].v = w;
			st[sp++].next = 0;
		}
	}
	free(st);
}

/* Call-graph DFS: procedures in id order, call sites in statement order;
 * a site whose callee is on the stack is recursive. */
static void find_recursive_sites(ipp_graph *g)
{
	unsigned char *color = ipp_xcalloc(g->np, 1);
	struct frame { ipp_id p; size_t next; } *st = ipp_xmalloc((g->np + 1) * sizeof(*st));
	for (size_t root = 0; root < g->np; root++) {
		size_t sp = 0;
		if (color[root])
			continue;
		st[sp].p = (ipp_id)root;
		st[sp++].next = 0;
		color[root] = 1;
		while (sp) {
			struct frame *f = &st[sp - 1];
			struct ipp_proc *pr = &g->p[f->p];
			ipp_id c, q;
			if (f->next >= pr->ncalls) {
				color[f->p] = 2;
				sp--;
				continue;
			}
			c = pr->calls[f->next++];
			q = g->v[c].callee;
			if (q == IPP_NONE || (g->v[c].cflags & IPP_CALL_INDIRECT) ||
			    (g->p[q].flags & IPP_PROC_SKIPPED))
				continue;
			if (color[q] == 1)
				g->recursive[c] = 1;
			else if (color[q] == 0) {
				color[q] = 1;
				st[sp].p = q;
				st[sp++].next = 0;
			}
		}
	}
	free(st);
	free(color);
}

/* Dominators of one procedure (Cooper, Harvey & Kennedy's iterative
 * algorithm over reverse postorder); a procedure is reducible iff every DFS
 * back edge whose source is reachable has a target dominating its source.
 * Restart points are successors of Entry_P here (a computed goto into a loop
 * body enters the loop without passing its header).
 * lidx maps a vertex id to its index in the procedure's vertex list. */
static bool proc_is_reducible(ipp_graph *g, ipp_id p, const int *lidx)
{
	struct ipp_proc *pr = &g->p[p];
	size_t n = pr->nverts, npost = 0;
	int *po = ipp_xmalloc(n * sizeof(int));		/* local -> postorder number, -1 unreached */
	int *order = ipp_xmalloc(n * sizeof(int));	/* postorder number -> local */
	int *idom = ipp_xmalloc(n * sizeof(int));	/* postorder number -> postorder number */
	struct frame { ipp_id v; size_t next; } *st = ipp_xmalloc((n + 1) * sizeof(*st));
	int **preds = ipp_xcalloc(n, sizeof(int *));
	size_t *npreds = ipp_xcalloc(n, sizeof(size_t));
	size_t sp = 0, nrestarts = 0;
	ipp_id *restarts = ipp_xmalloc((n + 1) * sizeof(ipp_id));
	bool ok = true, changed;

	for (size_t i = 0; i < n; i++)
		po[i] = -1;
	/* postorder numbering; po[] doubles as the visited mark (-2 = on stack) */
	st[sp].v = pr->entry;
	st[sp++].next = 0;
	po[lidx[pr->entry]] = -2;
	/* Restart points count as successors of Entry_P: control can reach
	 * them without passing through their dominators in the CFG. */
	for (size_t i = 0; i < n; i++)
		if (g->v[pr->verts[i]].restart)
			restarts[nrestarts++] = pr->verts[i];
	while (sp) {
		struct frame *f = &st[sp - 1];
		struct ipp_vertex *v = &g->v[f->v];
		ipp_id w;
		size_t cnt = v->kind == IPP_V_CALL ? 1 : v->nout;
		if (f->v == pr->entry)
			cnt += nrestarts;
		if (f->next >= cnt) {
			po[lidx[f->v]] = (int)npost;
			order[npost++] = lidx[f->v];
			sp--;
			continue;
		}
		if (v->kind == IPP_V_CALL)
			w = f->v + 1;
		else if (f->next < v->nout)
			w = g->e[v->out[f->next]].dst;
		else
			w = restarts[f->next - v->nout];
		f->next++;
		if (po[lidx[w]] == -1) {
			po[lidx[w]] = -2;
			st[sp].v = w;
			st[sp++].next = 0;
		}
	}
	/* predecessor lists between reached vertices, in postorder numbers */
	for (size_t i = 0; i < n; i++) {
		ipp_id vid = pr->verts[i];
		struct ipp_vertex *v = &g->v[vid];
		size_t cnt = v->kind == IPP_V_CALL ? 1 : v->nout;
		if (po[i] < 0)
			continue;
		for (size_t k = 0; k < cnt; k++) {
			ipp_id w = v->kind == IPP_V_CALL ? vid + 1 : g->e[v->out[k]].dst;
			int wl = po[lidx[w]];
			preds[wl] = ipp_xrealloc(preds[wl], (npreds[wl] + 1) * sizeof(int));
			preds[wl][npreds[wl]++] = po[i];
		}
		if (vid == pr->entry)
			for (size_t k = 0; k < nrestarts; k++) {
				int wl = po[lidx[restarts[k]]];
				preds[wl] = ipp_xrealloc(preds[wl], (npreds[wl] + 1) * sizeof(int));
				preds[wl][npreds[wl]++] = po[i];
			}
	}
	for (size_t i = 0; i < npost; i++)
		idom[i] = -1;
	idom[npost - 1] = (int)npost - 1;	/* Entry is last in postorder */
	do {
		changed = false;
		for (size_t k = npost - 1; k-- > 0;) {	/* reverse postorder, skipping Entry */
			int nd = -1;
			for (size_t j = 0; j < npreds[k]; j++) {
				int q = preds[k][j];
				if (idom[q] < 0)
					continue;
				if (nd < 0) {
					nd = q;
					continue;
				}
				int a = q, b = nd;
				while (a != b) {
					while (a < b)
						a = idom[a];
					while (b < a)
						b = idom[b];
				}
				nd = a;
			}
			if (nd >= 0 && idom[k] != nd) {
				idom[k] = nd;
				changed = true;
			}
		}
	} while (changed);
	for (size_t i = 0; i < n && ok; i++) {
		struct ipp_vertex *v = &g->v[pr->verts[i]];
		if (po[i] < 0 || v->kind == IPP_V_CALL)
			continue;
		for (size_t k = 0; k < v->nout; k++) {
			ipp_id e = v->out[k];
			int src = po[i], dst = po[lidx[g->e[e].dst]], x = src;
			if (!g->back[e])
				continue;
			while (x != dst && x != idom[x])
				x = idom[x];
			if (x != dst) {
				ok = false;
				break;
			}
		}
	}
	for (size_t i = 0; i < n; i++)
		free(preds[i]);
	free(preds);
	free(npreds);
	free(restarts);
	free(st);
	free(po);
	free(order);
	free(idom);
	return ok;
}

void ipp_graph_derive(const ipp_graph *cg)
{
	ipp_graph *g = (ipp_graph *)cg;	/* cache fill: see internal.h */
	unsigned char *color;
	int *lidx;
	if (g->derived_ok)
		return;
	free(g->back);
	free(g->recursive);
	free(g->reducible);
	g->back = ipp_xcalloc(g->ne, 1);
	g->recursive = ipp_xcalloc(g->nv, 1);
	g->reducible = ipp_xcalloc(g->np, 1);
	color = ipp_xcalloc(g->nv, 1);
	free(g->lidx);
	lidx = g->lidx = ipp_xmalloc(g->nv * sizeof(int));
	lidx[0] = lidx[1] = -1;
	for (size_t p = 0; p < g->np; p++)
		for (size_t i = 0; i < g->p[p].nverts; i++)
			lidx[g->p[p].verts[i]] = (int)i;
	free(g->isite);
	g->isite = ipp_xmalloc((g->np ? g->np : 1) * sizeof(ipp_id));
	for (size_t p = 0; p < g->np; p++)
		g->isite[p] = IPP_NONE;
	for (size_t v = 2; v < g->nv; v++)
		if (g->v[v].kind == IPP_V_CALL && (g->v[v].cflags & IPP_CALL_INLINED) &&
		    g->v[v].callee != IPP_NONE && (g->p[g->v[v].callee].flags & IPP_PROC_INLINED))
			g->isite[g->v[v].callee] = (ipp_id)v;
	for (size_t p = 0; p < g->np; p++) {
		struct ipp_proc *pr = &g->p[p];
		if (pr->flags & IPP_PROC_SKIPPED)
			continue;
		dfs_back_edges(g, pr->entry, color);
		for (size_t i = 0; i < pr->nverts; i++)
			if (!color[pr->verts[i]])
				dfs_back_edges(g, pr->verts[i], color);
	}
	free(color);
	find_recursive_sites(g);
	for (size_t p = 0; p < g->np; p++)
		g->reducible[p] = (g->p[p].flags & IPP_PROC_SKIPPED) ? 1 :
				  proc_is_reducible(g, (ipp_id)p, lidx);
	g->derived_ok = true;
}

bool ipp_graph_is_back_edge(const ipp_graph *g, ipp_id e)
{
	ipp_graph_derive(g);
	return g->back[e] != 0;
}

bool ipp_graph_is_recursive_call(const ipp_graph *g, ipp_id c)
{
	ipp_graph_derive(g);
	return g->recursive[c] != 0;
}

bool ipp_graph_proc_reducible(const ipp_graph *g, ipp_id p)
{
	ipp_graph_derive(g);
	return g->reducible[p] != 0;
}
