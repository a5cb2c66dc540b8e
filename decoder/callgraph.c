/* callgraph.c -- building gprof's call graph from the derived counts, its
 * cycles and propagation, and the exact per-caller split from the paths
 * (callgraph.h).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "callgraph.h"

#include <stdlib.h>
#include <string.h>

static void sat_add(uint64_t *acc, uint64_t v)
{
	*acc = *acc > UINT64_MAX - v ? UINT64_MAX : *acc + v;
}

/* The node of procedure p of unit u (of the function it counts as), or
 * SIZE_MAX. */
static size_t node_of(const struct callgraph *cg, size_t u, ipp_id p)
{
	size_t lo = 0, hi = cg->nnodes;
	if (p >= 0)
		p = cg->origin[u][p];
	while (lo < hi) {	/* nodes are sorted by (unit, proc) */
		size_t mid = (lo + hi) / 2;
		const struct cg_node *n = &cg->nodes[mid];
		if (n->unit < u || (n->unit == u && n->proc < p))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < cg->nnodes && cg->nodes[lo].unit == u && cg->nodes[lo].proc == p ? lo : SIZE_MAX;
}

/* The node a callee names, or SIZE_MAX (a function outside the units). */
static size_t callee_node(const struct callgraph *cg, const struct callee *c)
{
	const struct program *prog = &cg->d->prog;
	long j;
	if (c->module == NULL)
		return SIZE_MAX;
	j = program_find(prog, c->module, c->checksum);
	if (j < 0)
		return SIZE_MAX;
	return node_of(cg, (size_t)j, ipp_proc_find(prog->mods[j].map->graph, c->asm_name));
}

static int arc_cmp(const void *x, const void *y)
{
	const struct cg_arc *a = x, *b = y;
	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	return (a->to > b->to) - (a->to < b->to);
}

static size_t arc_find(const struct callgraph *cg, size_t from, size_t to)
{
	struct cg_arc key = { .from = from, .to = to };
	struct cg_arc *a = bsearch(&key, cg->arcs, cg->narcs, sizeof(key), arc_cmp);
	return a != NULL ? (size_t)(a - cg->arcs) : SIZE_MAX;
}

static void add_nodes(struct callgraph *cg)
{
	size_t cap = 0;
	for (size_t i = 0; i < cg->d->nunits; i++) {
		const struct unit *u = &cg->d->units[i];
		struct fn_counts f;
		/* a node per source function: an inlined copy's entries and
		 * blocks are its function's (fn_counts) */
		fn_counts_init(u, &f);
		cg->origin[i] = f.origin;	/* kept: node_of reads it */
		f.origin = NULL;
		for (size_t p = 0; p < ipp_graph_nprocs(u->g); p++) {
			struct cg_node *n;
			if ((ipp_proc_flags(u->g, (ipp_id)p) & IPP_PROC_SKIPPED) ||
			    cg->origin[i][p] != (ipp_id)p)
				continue;
			GROW(cg->nodes, cg->nnodes, cap);
			n = &cg->nodes[cg->nnodes++];
			memset(n, 0, sizeof(*n));
			n->unit = i;
			n->proc = (ipp_id)p;
			n->name = ipp_proc_name(u->g, (ipp_id)p);
			n->entries = f.entries[p];
		}
		if (!u->ran) {
			fn_counts_free(&f);
			continue;
		}
		for (size_t v = 0; v < ipp_graph_nvertices(u->g); v++)
			if (ipp_vertex_kind(u->g, (ipp_id)v) == IPP_V_BLOCK) {
				size_t k = node_of(cg, i, ipp_vertex_proc(u->g, (ipp_id)v));
				if (k != SIZE_MAX) {
					sat_add(&cg->nodes[k].self, u->c.vertex[v]);
					sat_add(&cg->total_self, u->c.vertex[v]);
				}
			}
		fn_counts_free(&f);
	}
}

static void add_arcs(struct callgraph *cg)
{
	size_t cap = 0;
	for (size_t i = 0; i < cg->d->nunits; i++) {
		struct arc *a;
		size_t na = counts_unit_arcs(cg->d, i, &a);
		for (size_t k = 0; k < na; k++) {
			size_t from = node_of(cg, i, a[k].caller), to = callee_node(cg, &a[k].callee);
			if (a[k].calls == 0 || from == SIZE_MAX)
				continue;
			if (to == SIZE_MAX) {
				sat_add(&cg->outside_calls, a[k].calls);
				continue;
			}
			GROW(cg->arcs, cg->narcs, cap);
			cg->arcs[cg->narcs++] = (struct cg_arc){ .from = from, .to = to,
								 .calls = a[k].calls };
		}
		free(a);
	}
	qsort(cg->arcs, cg->narcs, sizeof(cg->arcs[0]), arc_cmp);
	size_t m = 0;	/* an arc per pair (several units may name one callee) */
	for (size_t k = 0; k < cg->narcs; k++) {
		if (m > 0 && cg->arcs[m - 1].from == cg->arcs[k].from &&
		    cg->arcs[m - 1].to == cg->arcs[k].to)
			sat_add(&cg->arcs[m - 1].calls, cg->arcs[k].calls);
		else
			cg->arcs[m++] = cg->arcs[k];
	}
	cg->narcs = m;
	for (size_t k = 0; k < m; k++) {
		struct cg_node *to = &cg->nodes[cg->arcs[k].to];
		sat_add(cg->arcs[k].from == cg->arcs[k].to ? &to->self_calls : &to->calls,
			cg->arcs[k].calls);
	}
	for (size_t k = 0; k < cg->nnodes; k++) {
		struct cg_node *n = &cg->nodes[k];
		uint64_t known = n->calls > UINT64_MAX - n->self_calls ? UINT64_MAX :
				 n->calls + n->self_calls;
		n->spontaneous = n->entries > known ? n->entries - known : 0;
	}
}

/* ------------------------------------------------------------------ */
/* Cycles: Tarjan's strongly connected components                       */
/* ------------------------------------------------------------------ */

struct tarjan {
	struct callgraph *cg;
	size_t *index, *low, *stack, nstack, next;
	bool *on;
	size_t *out_off;	/* arcs of node v: out_off[v] .. out_off[v+1]-1 */
	size_t capcomps;
};

static void strongconnect(struct tarjan *t, size_t v)
{
	struct callgraph *cg = t->cg;

	t->index[v] = t->low[v] = t->next++;
	t->stack[t->nstack++] = v;
	t->on[v] = true;
	for (size_t k = t->out_off[v]; k < t->out_off[v + 1]; k++) {
		size_t w = cg->arcs[k].to;
		if (t->index[w] == SIZE_MAX) {
			strongconnect(t, w);
			if (t->low[w] < t->low[v])
				t->low[v] = t->low[w];
		} else if (t->on[w] && t->index[w] < t->low[v]) {
			t->low[v] = t->index[w];
		}
	}
	if (t->low[v] != t->index[v])
		return;
	/* v roots a component; Tarjan emits callees before callers */
	struct cg_comp *c;
	GROW(cg->comps, cg->ncomps, t->capcomps);
	c = &cg->comps[cg->ncomps];
	memset(c, 0, sizeof(*c));
	size_t w, cap = 0;
	do {
		w = t->stack[--t->nstack];
		t->on[w] = false;
		cg->nodes[w].comp = cg->ncomps;
		GROW(c->members, c->nmembers, cap);
		c->members[c->nmembers++] = w;
	} while (w != v);
	cg->ncomps++;
}

static void find_cycles(struct callgraph *cg)
{
	struct tarjan t;
	size_t n = cg->nnodes;

	memset(&t, 0, sizeof(t));
	t.cg = cg;
	t.index = xmalloc((n + 1) * sizeof(size_t));
	t.low = xmalloc((n + 1) * sizeof(size_t));
	t.stack = xmalloc((n + 1) * sizeof(size_t));
	t.on = xcalloc(n + 1, sizeof(bool));
	t.out_off = xcalloc(n + 1, sizeof(size_t));
	for (size_t k = 0; k < cg->narcs; k++)
		t.out_off[cg->arcs[k].from + 1]++;
	for (size_t v = 0; v < n; v++) {
		t.out_off[v + 1] += t.out_off[v];
		t.index[v] = SIZE_MAX;
	}
	for (size_t v = 0; v < n; v++)
		if (t.index[v] == SIZE_MAX)
			strongconnect(&t, v);
	free(t.index);
	free(t.low);
	free(t.stack);
	free(t.on);
	free(t.out_off);
}

/* gprof's propagation, callees first: a component's cost (self + child) is
 * shared by the arcs entering it from outside in proportion to their calls. */
static void propagate(struct callgraph *cg)
{
	for (size_t i = 0; i < cg->ncomps; i++) {
		struct cg_comp *c = &cg->comps[i];
		for (size_t k = 0; k < c->nmembers; k++)
			sat_add(&c->self, cg->nodes[c->members[k]].self);
	}
	for (size_t k = 0; k < cg->narcs; k++) {
		const struct cg_arc *a = &cg->arcs[k];
		struct cg_comp *to = &cg->comps[cg->nodes[a->to].comp];
		if (a->from == a->to)
			continue;
		if (cg->nodes[a->from].comp == cg->nodes[a->to].comp)
			sat_add(&to->calls_inside, a->calls);
		else
			sat_add(&to->calls_in, a->calls);
	}
	for (size_t i = 0; i < cg->ncomps; i++) {
		struct cg_comp *c = &cg->comps[i];
		for (size_t m = 0; m < c->nmembers; m++) {
			size_t v = c->members[m];
			for (size_t k = 0; k < cg->narcs; k++) {
				struct cg_arc *a = &cg->arcs[k];
				const struct cg_comp *d;
				if (a->from != v || cg->nodes[a->to].comp == i)
					continue;
				d = &cg->comps[cg->nodes[a->to].comp];
				if (d->calls_in == 0)
					continue;
				a->prop_self = (double)d->self * (double)a->calls / (double)d->calls_in;
				a->prop_child = d->child * (double)a->calls / (double)d->calls_in;
				cg->nodes[v].child += a->prop_self + a->prop_child;
			}
			c->child += cg->nodes[v].child;
		}
	}
	/* gprof's cycle numbers: in order of the cycles' first members */
	int cycle = 0;
	for (size_t v = 0; v < cg->nnodes; v++) {
		struct cg_comp *c = &cg->comps[cg->nodes[v].comp];
		if (c->nmembers > 1 && c->cycle == 0)
			c->cycle = ++cycle;
	}
}

/* ------------------------------------------------------------------ */
/* The exact split, from the paths                                      */
/* ------------------------------------------------------------------ */

struct split_walk {
	ipp_id *open;		/* call vertices open on the path */
	size_t nopen, cap;
	uint64_t *self_seen;	/* per node: blocks attributed, for the check */
};

/* Adds 'count' executions of the path's active suffix: every block it
 * executes (the vertices ipp_derive() counts, ippcore/derive.c) goes to its
 * routine's caller on the path's call stack, or to the routine's fresh
 * activations when nothing below it is on the path; and to every arc of
 * the stack with descendants. */
static void split_path(struct callgraph *cg, struct split_walk *w, size_t u, const ipp_path *p,
		       uint64_t count)
{
	const ipp_fin *f = cg->d->units[u].m->fin;
	const ipp_graph *g = ipp_fin_graph(f);
	size_t s = 0, root;

	for (size_t i = p->nedges; i-- > 1;) {
		enum ipp_ekind k = ipp_fin_ekind(f, p->edges[i]);
		if (k == IPP_E_SURR_ENTRY || k == IPP_E_SPLIT_SURR) {
			s = i;
			break;
		}
	}
	root = node_of(cg, u, ipp_fin_vproc(f, ipp_fin_edst(f, p->edges[0])));
	w->nopen = 0;
	for (size_t i = 0; i < p->nedges; i++) {
		ipp_id e = p->edges[i], dst = ipp_fin_edst(f, e);
		enum ipp_ekind k = ipp_fin_ekind(f, e);
		ipp_id v = ipp_fin_vorigin(f, dst);
		size_t q;

		if (k == IPP_E_CALL) {
			GROW(w->open, w->nopen, w->cap);
			w->open[w->nopen++] = ipp_fin_ecall(f, e);
		} else if (k == IPP_E_RETURN && w->nopen > 0) {
			w->nopen--;
		}
		if (i < s || ipp_vertex_kind(g, v) != IPP_V_BLOCK ||
		    (k != IPP_E_NORMAL && k != IPP_E_SURR_ENTRY && k != IPP_E_SPLIT_SURR))
			continue;
		q = node_of(cg, u, ipp_vertex_proc(g, v));
		if (q == SIZE_MAX || root == SIZE_MAX)
			continue;
		sat_add(&w->self_seen[q], count);
		sat_add(&cg->nodes[root].fresh_total, count);
		if (w->nopen == 0) {
			sat_add(&cg->nodes[q].fresh_self, count);
			continue;
		}
		for (size_t j = 0; j < w->nopen; j++) {
			ipp_id c = w->open[j];
			size_t caller = node_of(cg, u, ipp_vertex_proc(g, c));
			size_t callee = j + 1 < w->nopen ?
				node_of(cg, u, ipp_vertex_proc(g, w->open[j + 1])) : q;
			size_t a = arc_find(cg, caller, callee);
			if (a == SIZE_MAX)
				continue;
			sat_add(&cg->arcs[a].total, count);
			if (j + 1 == w->nopen)
				sat_add(&cg->arcs[a].self, count);
		}
	}
}

static int split(struct callgraph *cg)
{
	const struct derived *d = cg->d;
	struct split_walk w = { NULL, 0, 0, xcalloc(cg->nnodes + 1, sizeof(uint64_t)) };
	char err[512];
	int rc = 0;

	for (size_t i = 0; i < d->r.nrecs && rc == 0; i++) {
		const struct rec *x = &d->r.recs[i];
		const ipp_fin *f = d->units[x->mod].m->fin;
		ipp_path path;
		ipp_path_init(&path);
		if (ipp_decode_pnum(f, x->region, &x->num, x->partial ? x->stack : NULL, x->nstack,
				    &path, err, sizeof(err)) < 0) {
			cli_error("%s: %s: %s", d->profile, d->units[x->mod].m->map->module, err);
			rc = -1;
		} else {
			split_path(cg, &w, x->mod, &path, x->count);
		}
		ipp_path_free(&path);
	}
	/* the invariant: the walk counts every block exactly as ipp_derive() */
	for (size_t k = 0; k < cg->nnodes && rc == 0; k++)
		if (w.self_seen[k] != cg->nodes[k].self) {
			cli_error("%s: internal error: %s: the paths give %llu blocks, the derived "
				  "counts %llu", d->profile, cg->nodes[k].name,
				  (unsigned long long)w.self_seen[k],
				  (unsigned long long)cg->nodes[k].self);
			rc = -1;
		}
	/* calls each arc makes through interprocedural sites (the paths follow
	 * them); the rest are summarized and start fresh activations */
	for (size_t i = 0; i < d->nunits && rc == 0; i++) {
		const struct unit *u = &d->units[i];
		ipp_call_count *cc;
		size_t n;
		if (!u->ran)
			continue;
		n = ipp_counts_calls(u->m->fin, &u->c, &cc);
		for (size_t k = 0; k < n; k++) {
			size_t a;
			if (cc[k].why != IPP_SUM_NONE || cc[k].callee == IPP_NONE)
				continue;
			a = arc_find(cg, node_of(cg, i, cc[k].caller), node_of(cg, i, cc[k].callee));
			if (a != SIZE_MAX)
				sat_add(&cg->arcs[a].in_path, cc[k].calls);
		}
		free(cc);
	}
	/* an arc is split exactly when the paths hold all its calls, or when
	 * its summarized calls made every fresh activation of its callee */
	for (size_t k = 0; k < cg->narcs; k++) {
		struct cg_arc *a = &cg->arcs[k];
		const struct cg_node *to = &cg->nodes[a->to];
		const struct unit *u = &d->units[to->unit];
		uint64_t summarized = a->calls - (a->in_path < a->calls ? a->in_path : a->calls);
		uint64_t fresh = u->ran ? u->c.fresh_entries[to->proc] : 0;
		if (summarized == 0) {
			a->exact = true;
		} else if (summarized == fresh) {
			a->exact = true;
			sat_add(&a->self, to->fresh_self);
			sat_add(&a->total, to->fresh_total);
		}
	}
	free(w.open);
	free(w.self_seen);
	return rc;
}

int callgraph_build(struct callgraph *cg, const struct derived *d)
{
	memset(cg, 0, sizeof(*cg));
	cg->d = d;
	cg->origin = xcalloc(d->nunits + 1, sizeof(*cg->origin));
	add_nodes(cg);
	add_arcs(cg);
	find_cycles(cg);
	propagate(cg);
	if (split(cg) < 0) {
		callgraph_free(cg);
		return -1;
	}
	return 0;
}

void callgraph_free(struct callgraph *cg)
{
	for (size_t i = 0; i < cg->ncomps; i++)
		free(cg->comps[i].members);
	free(cg->comps);
	free(cg->nodes);
	free(cg->arcs);
	for (size_t i = 0; cg->origin != NULL && cg->d != NULL && i < cg->d->nunits; i++)
		free(cg->origin[i]);
	free(cg->origin);
	memset(cg, 0, sizeof(*cg));
}
