/* gcov_lines.c -- line and branch counts by gcov's rule (GCC 12, gcov.cc),
 * over the segments of the map's x-lines and the counts derived from the
 * paths (ipp_lines.h; docs/DERIVE.md section 3).
 *
 * Segments stand for gcov's blocks.  A segment starts at a block's head
 * vertex or at a call's return site and ends at the next call (or the
 * block's end); its count is the count of its first vertex.  The arcs
 * between segments are the G* edges into block heads and the implicit
 * call -> return-site flow (returns[c]).  gcov's rule for a line L:
 *
 *   S(L) = the segments whose last line (of a run of one file) is L;
 *   if S(L) is empty: count(L) = sum of count(s) over the segments holding L;
 *   else:             count(L) = inflow(S) + cycles(S), where inflow(S) is the
 *                     flow entering S from outside S, and cycles(S) adds, for
 *                     each elementary circuit of the arcs inside S found by
 *                     Hawick and James's enumeration, its smallest remaining
 *                     arc count (which is then taken off every arc of it).
 *
 * inflow(S) = sum over s in S of count(s) - the arcs u -> s with u in S,
 * because count(s) is all the flow into s (edges, restarts, the function's
 * entry).  Only arcs inside S need individual counts.  A removed edge (a
 * DFS back edge, an in-edge of a cut vertex) whose count the profile does
 * not determine (derive.c's peeling left it open) is settled here when all
 * the undetermined edges into its target come from one segment (their sum
 * is the target's count less its known in-flow) or all the undetermined
 * edges out of its source go to one target (their sum is the source's
 * removed out-flow, surr_out, less the known removed out-edges); a line
 * that needs one still open is marked inexact.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "internal.h"
#include "ipp_lines.h"

/* An arc between segments: the G* edges src-segment -> dst (a segment
 * start, Exit_P or GExit_P), parallel edges merged, or a call's return. */
struct arc {
	ipp_id src, dst;	/* segment start (src); dst vertex */
	uint64_t count;		/* sum of the determined parts */
	size_t nunknown;	/* G* edges of the arc whose count is open */
	uint64_t cs;		/* gcov's cs_count while enumerating cycles */
};

/* (file, line) of a segment, in order; 'last' ends a run of one file. */
struct item {
	const char *file;
	int line;
	ipp_id seg;
	bool last;
};

struct state {
	const ipp_fin *fin;
	const ipp_graph *g;
	const ipp_counts *c;
	size_t nv;
	ipp_id *seg_of;		/* [nv]: the segment a vertex belongs to, IPP_NONE */
	struct arc *arcs;	/* sorted by (src, dst) */
	size_t narcs;
	size_t *out_off;	/* [nv + 1]: arcs of segment s are out_off[s] .. */
	struct item *items;
	size_t nitems;
};

static uint64_t vcount(const struct state *st, ipp_id v)
{
	return st->c != NULL ? st->c->vertex[v] : 0;
}

static void sat_add(uint64_t *acc, uint64_t v)
{
	*acc = *acc > UINT64_MAX - v ? UINT64_MAX : *acc + v;
}

static bool instrumented(const ipp_graph *g, ipp_id p)
{
	return p != IPP_NONE && !(ipp_proc_flags(g, p) & IPP_PROC_SKIPPED);
}

/* ------------------------------------------------------------------ */
/* Segments and arcs                                                    */
/* ------------------------------------------------------------------ */

/* Block heads and return sites start segments; a call vertex belongs to
 * the segment of its single predecessor (the plugin chains a block's
 * sub-vertices head -> call -> return site -> call ...).  A return site
 * without lines ends its GIMPLE block right after the call (or holds only
 * statements without a location): gcov's block ends with the call there,
 * so it joins its call's segment.  'has_lines' marks the vertices x-lines
 * names. */
static void find_segments(struct state *st, const bool *has_lines)
{
	const ipp_graph *g = st->g;
	size_t ne = ipp_graph_nedges(g);
	ipp_id *pred = ipp_xmalloc(st->nv * sizeof(*pred));
	size_t *npred = ipp_xcalloc(st->nv, sizeof(*npred));

	for (size_t e = 0; e < ne; e++) {
		ipp_id d = ipp_edge_dst(g, (ipp_id)e);
		pred[d] = ipp_edge_src(g, (ipp_id)e);
		npred[d]++;
	}
	for (size_t v = 0; v < st->nv; v++) {
		enum ipp_vkind k = ipp_vertex_kind(g, (ipp_id)v);
		st->seg_of[v] = IPP_NONE;
		if ((k == IPP_V_BLOCK || k == IPP_V_RETSITE) &&
		    instrumented(g, ipp_vertex_proc(g, (ipp_id)v)))
			st->seg_of[v] = (ipp_id)v;
	}
	/* in id order: a call's predecessor (head or return site) has a
	 * smaller id than the call, and its segment is already known */
	for (size_t v = 0; v < st->nv; v++) {
		enum ipp_vkind k = ipp_vertex_kind(g, (ipp_id)v);
		if (k == IPP_V_CALL && npred[v] == 1)
			st->seg_of[v] = st->seg_of[pred[v]];
		else if (k == IPP_V_RETSITE && st->seg_of[v] != IPP_NONE && !has_lines[v])
			st->seg_of[v] = st->seg_of[v - 1];
	}
	free(pred);
	free(npred);
}

static int arc_cmp(const void *x, const void *y)
{
	const struct arc *a = x, *b = y;
	if (a->src != b->src)
		return a->src < b->src ? -1 : 1;
	return (a->dst > b->dst) - (a->dst < b->dst);
}

static bool is_removed(const ipp_fin *fin, const ipp_graph *g, ipp_id e)
{
	return ipp_graph_is_back_edge(g, e) || ipp_fin_is_cut_vertex(fin, ipp_edge_dst(g, e));
}

/* Settles open arcs from the per-target and per-source totals. */
static void settle_open_arcs(struct state *st)
{
	const ipp_graph *g = st->g;
	size_t ne = ipp_graph_nedges(g);
	uint64_t *known_in = ipp_xcalloc(st->nv, sizeof(*known_in));
	uint64_t *known_rout = ipp_xcalloc(st->nv, sizeof(*known_rout));
	ipp_id *open_src = ipp_xmalloc(st->nv * sizeof(*open_src));
	ipp_id *open_dst = ipp_xmalloc(st->nv * sizeof(*open_dst));
	bool *many_src = ipp_xcalloc(st->nv, sizeof(*many_src));
	bool *many_dst = ipp_xcalloc(st->nv, sizeof(*many_dst));

	for (size_t v = 0; v < st->nv; v++)
		open_src[v] = open_dst[v] = IPP_NONE;
	for (size_t e = 0; e < ne; e++) {
		ipp_id s = ipp_edge_src(g, (ipp_id)e), d = ipp_edge_dst(g, (ipp_id)e);
		if (st->c->edge_known[e]) {
			sat_add(&known_in[d], st->c->edge[e]);
			if (is_removed(st->fin, g, (ipp_id)e))
				sat_add(&known_rout[s], st->c->edge[e]);
			continue;
		}
		if (open_src[d] != IPP_NONE && open_src[d] != st->seg_of[s])
			many_src[d] = true;
		open_src[d] = st->seg_of[s];
		if (open_dst[s] != IPP_NONE && open_dst[s] != d)
			many_dst[s] = true;
		open_dst[s] = d;
	}
	for (size_t i = 0; i < st->narcs; i++) {
		struct arc *a = &st->arcs[i];
		ipp_id d = a->dst;
		if (a->nunknown == 0)
			continue;
		if (!many_src[d] && !ipp_vertex_is_restart(g, d) &&
		    vcount(st, d) >= known_in[d]) {
			a->count = vcount(st, d) - known_in[d];
			a->nunknown = 0;
			continue;
		}
		/* by source: a segment's open edges leave from its last vertex */
		for (size_t w = 0; w < st->nv; w++) {
			if (st->seg_of[w] != a->src || open_dst[w] != d || many_dst[w])
				continue;
			if (st->c->surr_out[w] >= known_rout[w]) {
				a->count = st->c->surr_out[w] - known_rout[w];
				a->nunknown = 0;
			}
			break;
		}
	}
	free(known_in);
	free(known_rout);
	free(open_src);
	free(open_dst);
	free(many_src);
	free(many_dst);
}

static void build_arcs(struct state *st)
{
	const ipp_graph *g = st->g;
	size_t ne = ipp_graph_nedges(g), cap = 0, n = 0;
	struct arc *a = NULL;

	for (size_t e = 0; e < ne; e++) {
		ipp_id s = ipp_edge_src(g, (ipp_id)e), d = ipp_edge_dst(g, (ipp_id)e);
		enum ipp_vkind dk = ipp_vertex_kind(g, d);
		if (st->seg_of[s] == IPP_NONE || dk == IPP_V_CALL)
			continue;	/* from Entry_P, or within a segment */
		IPP_ARRAY_GROW(a, n, cap);
		a[n].src = st->seg_of[s];
		a[n].dst = d;
		a[n].count = st->c == NULL || st->c->edge_known[e] ? (st->c ? st->c->edge[e] : 0) : 0;
		a[n].nunknown = st->c != NULL && !st->c->edge_known[e];
		n++;
	}
	for (size_t v = 0; v < st->nv; v++)
		if (ipp_vertex_kind(g, (ipp_id)v) == IPP_V_CALL && st->seg_of[v] != IPP_NONE &&
		    st->seg_of[v + 1] != st->seg_of[v]) {
			IPP_ARRAY_GROW(a, n, cap);
			a[n].src = st->seg_of[v];
			a[n].dst = (ipp_id)v + 1;
			a[n].count = st->c != NULL ? st->c->returns[v] : 0;
			a[n].nunknown = 0;
			n++;
		}
	qsort(a, n, sizeof(*a), arc_cmp);
	/* merge parallel arcs */
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m > 0 && a[m - 1].src == a[i].src && a[m - 1].dst == a[i].dst) {
			sat_add(&a[m - 1].count, a[i].count);
			a[m - 1].nunknown += a[i].nunknown;
		} else {
			a[m++] = a[i];
		}
	}
	st->arcs = a;
	st->narcs = m;
	if (st->c != NULL)
		settle_open_arcs(st);
	st->out_off = ipp_xcalloc(st->nv + 1, sizeof(*st->out_off));
	for (size_t i = 0; i < m; i++)
		st->out_off[a[i].src + 1]++;
	for (size_t v = 0; v < st->nv; v++)
		st->out_off[v + 1] += st->out_off[v];
}

/* ------------------------------------------------------------------ */
/* Lines of the segments                                                */
/* ------------------------------------------------------------------ */

/* The entries of x for segment s, in map order, behind the function's
 * declaration line if s is the first block; each (file, line) once. */
static void segment_items(struct state *st, ipp_id s, const char *decl_file, int decl_line,
			  const ipp_xline_run **runs, size_t nruns, size_t *cap)
{
	size_t first = st->nitems;

#define ADD_ITEM(f, l)								\
	do {									\
		bool dup = false;						\
		for (size_t k_ = first; k_ < st->nitems && !dup; k_++)		\
			dup = st->items[k_].line == (l) &&			\
			      strcmp(st->items[k_].file, (f)) == 0;		\
		if (!dup) {							\
			IPP_ARRAY_GROW(st->items, st->nitems, *cap);		\
			st->items[st->nitems].file = (f);			\
			st->items[st->nitems].line = (l);			\
			st->items[st->nitems].seg = s;				\
			st->items[st->nitems].last = false;			\
			st->nitems++;						\
		}								\
	} while (0)

	if (decl_file != NULL && decl_line > 0)
		ADD_ITEM(decl_file, decl_line);
	for (size_t r = 0; r < nruns; r++)
		for (size_t k = 0; k < runs[r]->nlines; k++)
			ADD_ITEM(runs[r]->file, runs[r]->lines[k]);
#undef ADD_ITEM
	/* a run of one file ends where the next item's file differs */
	for (size_t k = first; k < st->nitems; k++)
		st->items[k].last = k + 1 == st->nitems ||
				    strcmp(st->items[k + 1].file, st->items[k].file) != 0;
}

static int run_cmp(const void *x, const void *y)
{
	const ipp_xline_run *a = *(const ipp_xline_run *const *)x;
	const ipp_xline_run *b = *(const ipp_xline_run *const *)y;
	if (a->vertex != b->vertex)
		return a->vertex < b->vertex ? -1 : 1;
	return (a > b) - (a < b);	/* stable: map order */
}

static int collect_items(struct state *st, const ipp_xlines *x, char *err, size_t errlen)
{
	const ipp_graph *g = st->g;
	const ipp_xline_run **runs = ipp_xmalloc((x->nruns ? x->nruns : 1) * sizeof(*runs));
	ipp_id *decl_proc = ipp_xmalloc(st->nv * sizeof(*decl_proc));
	size_t cap = 0;

	for (size_t i = 0; i < x->nruns; i++) {
		ipp_id v = x->runs[i].vertex;
		if (v < 0 || (size_t)v >= st->nv || st->seg_of[v] != v) {
			ipp_seterr(err, errlen, "x-lines names vertex %d, which does not start a "
				   "segment (a block or return-site vertex of an instrumented "
				   "function)", (int)v);
			free(runs);
			free(decl_proc);
			return -1;
		}
		runs[i] = &x->runs[i];
	}
	qsort(runs, x->nruns, sizeof(*runs), run_cmp);

	/* the segment each function's Entry_P leads to gets its declaration line */
	for (size_t v = 0; v < st->nv; v++)
		decl_proc[v] = IPP_NONE;
	for (size_t p = 0; p < ipp_graph_nprocs(g); p++) {
		ipp_id entry = ipp_proc_entry(g, (ipp_id)p);
		if (!instrumented(g, (ipp_id)p) || ipp_vertex_nout(g, entry) == 0)
			continue;
		ipp_id first = ipp_edge_dst(g, ipp_vertex_out(g, entry, 0));
		if (st->seg_of[first] == first)
			decl_proc[first] = (ipp_id)p;
	}

	for (size_t v = 0, r = 0; v < st->nv; v++) {
		size_t r0 = r;
		while (r < x->nruns && runs[r]->vertex == (ipp_id)v)
			r++;
		if (st->seg_of[v] != (ipp_id)v)
			continue;
		ipp_id p = decl_proc[v];
		ipp_id entry = p != IPP_NONE ? ipp_proc_entry(g, p) : IPP_NONE;
		segment_items(st, (ipp_id)v, entry != IPP_NONE ? ipp_vertex_file(g, entry) : NULL,
			      entry != IPP_NONE ? ipp_vertex_line(g, entry) : 0, runs + r0, r - r0,
			      &cap);
	}
	free(runs);
	free(decl_proc);
	return 0;
}

static int item_cmp(const void *x, const void *y)
{
	const struct item *a = x, *b = y;
	int c = strcmp(a->file, b->file);
	if (c != 0)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return (a->seg > b->seg) - (a->seg < b->seg);
}

/* ------------------------------------------------------------------ */
/* gcov's count of one line                                            */
/* ------------------------------------------------------------------ */

struct line_set {
	const ipp_id *seg;	/* S(L), increasing */
	size_t n;
};

static bool in_set(const struct line_set *ls, ipp_id s)
{
	for (size_t i = 0; i < ls->n; i++)
		if (ls->seg[i] == s)
			return true;
	return false;
}

/* Hawick and James's circuit search from 'start', as gcov.cc's circuit():
 * blocked vertices and the lists of those they block, arcs with no count
 * left or leaving the set or going below 'start' are not followed. */
struct circuits {
	struct state *st;
	const struct line_set *ls;
	ipp_id start;
	struct arc **path;
	size_t npath, cappath;
	ipp_id *blocked;
	size_t nblocked, capblocked;
	ipp_id **lists;		/* lists[i]: vertices blocked by blocked[i] */
	size_t *nlist, *caplist;
	uint64_t count;
};

static size_t blocked_index(const struct circuits *cc, ipp_id v)
{
	for (size_t i = 0; i < cc->nblocked; i++)
		if (cc->blocked[i] == v)
			return i;
	return SIZE_MAX;
}

static void unblock(struct circuits *cc, ipp_id u)
{
	size_t i = blocked_index(cc, u);
	ipp_id *list;
	size_t n;

	if (i == SIZE_MAX)
		return;
	list = cc->lists[i];
	n = cc->nlist[i];
	memmove(&cc->blocked[i], &cc->blocked[i + 1], (cc->nblocked - i - 1) * sizeof(ipp_id));
	memmove(&cc->lists[i], &cc->lists[i + 1], (cc->nblocked - i - 1) * sizeof(ipp_id *));
	memmove(&cc->nlist[i], &cc->nlist[i + 1], (cc->nblocked - i - 1) * sizeof(size_t));
	memmove(&cc->caplist[i], &cc->caplist[i + 1], (cc->nblocked - i - 1) * sizeof(size_t));
	cc->nblocked--;
	for (size_t k = 0; k < n; k++)
		unblock(cc, list[k]);
	free(list);
}

static bool followed(const struct circuits *cc, const struct arc *a)
{
	return a->dst >= cc->start && a->cs > 0 && in_set(cc->ls, a->dst);
}

static bool circuit(struct circuits *cc, ipp_id v)
{
	struct state *st = cc->st;
	bool found = false;

	if (cc->nblocked == cc->capblocked) {
		cc->capblocked = cc->capblocked ? 2 * cc->capblocked : 8;
		cc->blocked = ipp_xrealloc(cc->blocked, cc->capblocked * sizeof(ipp_id));
		cc->lists = ipp_xrealloc(cc->lists, cc->capblocked * sizeof(ipp_id *));
		cc->nlist = ipp_xrealloc(cc->nlist, cc->capblocked * sizeof(size_t));
		cc->caplist = ipp_xrealloc(cc->caplist, cc->capblocked * sizeof(size_t));
	}
	cc->blocked[cc->nblocked] = v;
	cc->lists[cc->nblocked] = NULL;
	cc->nlist[cc->nblocked] = cc->caplist[cc->nblocked] = 0;
	cc->nblocked++;

	for (size_t i = st->out_off[v]; i < st->out_off[v + 1]; i++) {
		struct arc *a = &st->arcs[i];
		if (!followed(cc, a))
			continue;
		IPP_ARRAY_GROW(cc->path, cc->npath, cc->cappath);
		cc->path[cc->npath++] = a;
		if (a->dst == cc->start) {
			uint64_t min = UINT64_MAX;
			for (size_t k = 0; k < cc->npath; k++)
				if (cc->path[k]->cs < min)
					min = cc->path[k]->cs;
			sat_add(&cc->count, min);
			for (size_t k = 0; k < cc->npath; k++)
				cc->path[k]->cs -= min;
			found = true;
		} else {
			bool zero = false;
			for (size_t k = 0; k < cc->npath && !zero; k++)
				zero = cc->path[k]->cs == 0;
			if (!zero && blocked_index(cc, a->dst) == SIZE_MAX)
				found |= circuit(cc, a->dst);
		}
		cc->npath--;
	}
	if (found) {
		unblock(cc, v);
	} else {
		for (size_t i = st->out_off[v]; i < st->out_off[v + 1]; i++) {
			struct arc *a = &st->arcs[i];
			size_t w;
			bool listed = false;
			if (!followed(cc, a) || (w = blocked_index(cc, a->dst)) == SIZE_MAX)
				continue;
			for (size_t k = 0; k < cc->nlist[w] && !listed; k++)
				listed = cc->lists[w][k] == v;
			if (!listed) {
				IPP_ARRAY_GROW(cc->lists[w], cc->nlist[w], cc->caplist[w]);
				cc->lists[w][cc->nlist[w]++] = v;
			}
		}
	}
	return found;
}

/* inflow(S) + cycles(S); *exact false if an arc inside S is open. */
static uint64_t line_count(struct state *st, const struct line_set *ls, bool *exact)
{
	uint64_t in = 0, inside = 0;
	struct circuits cc;

	*exact = true;
	for (size_t i = 0; i < ls->n; i++) {
		ipp_id s = ls->seg[i];
		sat_add(&in, vcount(st, s));
		for (size_t k = st->out_off[s]; k < st->out_off[s + 1]; k++) {
			struct arc *a = &st->arcs[k];
			a->cs = 0;
			if (!in_set(ls, a->dst))
				continue;
			if (a->nunknown > 0)
				*exact = false;
			sat_add(&inside, a->count);
			a->cs = a->count;
		}
	}
	in = in >= inside ? in - inside : 0;

	memset(&cc, 0, sizeof(cc));
	cc.st = st;
	cc.ls = ls;
	for (size_t i = 0; i < ls->n; i++) {
		cc.start = ls->seg[i];
		cc.npath = 0;
		circuit(&cc, cc.start);
		while (cc.nblocked > 0)
			unblock(&cc, cc.blocked[cc.nblocked - 1]);
	}
	free(cc.path);
	free(cc.blocked);
	free(cc.lists);
	free(cc.nlist);
	free(cc.caplist);
	sat_add(&in, cc.count);
	return in;
}

/* ------------------------------------------------------------------ */
/* Branches                                                             */
/* ------------------------------------------------------------------ */

/* The branches of segment s, attributed to file:line as the 'block'-th
 * branching segment there: the arcs out of s when it does not end in a
 * call and they reach two or more distinct vertices. */
static void add_branches(struct state *st, ipp_id s, const char *file, int line, size_t block,
			 ipp_src_lines *out, size_t *cap)
{
	size_t lo = st->out_off[s], hi = st->out_off[s + 1];
	if (hi - lo < 2)
		return;
	for (size_t i = lo; i < hi; i++) {
		const struct arc *a = &st->arcs[i];
		ipp_src_branch *b;
		IPP_ARRAY_GROW(out->branches, out->nbranches, *cap);
		b = &out->branches[out->nbranches++];
		b->file = file;
		b->line = line;
		b->vertex = s;
		b->block = block;
		b->succ = i - lo;
		b->taken = a->count;
		b->executed = vcount(st, s) > 0;
		b->known = a->nunknown == 0;
	}
}

static bool ends_in_call(const struct state *st, ipp_id s)
{
	size_t lo = st->out_off[s], hi = st->out_off[s + 1];
	return hi - lo == 1 && ipp_vertex_kind(st->g, st->arcs[lo].dst) == IPP_V_RETSITE;
}

int ipp_src_lines_gcov(const ipp_fin *fin, const ipp_counts *c, const ipp_xlines *x,
		       ipp_src_lines *out, char *err, size_t errlen)
{
	struct state st;
	size_t capl = 0, capb = 0;
	ipp_id *segs = NULL;
	size_t capsegs = 0;

	memset(out, 0, sizeof(*out));
	memset(&st, 0, sizeof(st));
	st.fin = fin;
	st.g = ipp_fin_graph(fin);
	st.c = c;
	st.nv = ipp_graph_nvertices(st.g);
	st.seg_of = ipp_xmalloc((st.nv ? st.nv : 1) * sizeof(*st.seg_of));
	bool *has_lines = ipp_xcalloc(st.nv ? st.nv : 1, sizeof(*has_lines));
	for (size_t i = 0; i < x->nruns; i++)
		if (x->runs[i].vertex >= 0 && (size_t)x->runs[i].vertex < st.nv)
			has_lines[x->runs[i].vertex] = true;
	find_segments(&st, has_lines);
	free(has_lines);
	build_arcs(&st);
	if (collect_items(&st, x, err, errlen) < 0) {
		free(st.seg_of);
		free(st.arcs);
		free(st.out_off);
		free(st.items);
		return -1;
	}
	qsort(st.items, st.nitems, sizeof(*st.items), item_cmp);

	for (size_t i = 0, j; i < st.nitems; i = j) {
		struct line_set ls = { NULL, 0 };
		uint64_t sum = 0;
		size_t nsegs = 0, block = 0;
		ipp_src_line *l;

		for (j = i; j < st.nitems && st.items[j].line == st.items[i].line &&
			    strcmp(st.items[j].file, st.items[i].file) == 0; j++) {
			sat_add(&sum, vcount(&st, st.items[j].seg));
			if (st.items[j].last) {
				IPP_ARRAY_GROW(segs, nsegs, capsegs);
				segs[nsegs++] = st.items[j].seg;
			}
		}
		ls.seg = segs;
		ls.n = nsegs;
		IPP_ARRAY_GROW(out->lines, out->nlines, capl);
		l = &out->lines[out->nlines++];
		l->file = st.items[i].file;
		l->line = st.items[i].line;
		l->exact = true;
		l->count = nsegs == 0 ? sum : line_count(&st, &ls, &l->exact);
		if (!l->exact)
			out->ninexact++;
		for (size_t k = 0; k < nsegs; k++)
			if (!ends_in_call(&st, segs[k]) &&
			    st.out_off[segs[k] + 1] - st.out_off[segs[k]] >= 2)
				add_branches(&st, segs[k], l->file, l->line, block++, out, &capb);
	}
	free(segs);
	free(st.seg_of);
	free(st.arcs);
	free(st.out_off);
	free(st.items);
	return 0;
}

void ipp_src_lines_free(ipp_src_lines *s)
{
	free(s->lines);
	free(s->branches);
	memset(s, 0, sizeof(*s));
}
