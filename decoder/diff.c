/* diff.c -- comparing the path spectra of two profiles and finding where
 * the paths only in B parted from A (the model of diff.h).
 *
 * Finding the closest path.  For each (unit, region) that holds a path only
 * in B, the paths of A in that region are decoded into their G*fin edge
 * sequences (the core's ipp_decode / ipp_decode_partial) and sorted
 * lexicographically.  The path of A with the longest common prefix with a
 * path p is then a neighbour of p's place in that order (the longest common
 * prefix of p with a sorted list is maximal at the insertion point), and
 * every path with the same longest prefix lies in one run around it: a
 * binary search and a short scan per path of B, not a comparison with every
 * path of A.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "diff.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static const char *const div_kind_names[] = {
	[DIV_BRANCH] = "branch",
	[DIV_STOP] = "stop",
	[DIV_RESTART] = "restart",
	[DIV_REGION] = "region",
};

const char *div_kind_name(enum div_kind k)
{
	return div_kind_names[k];
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* ------------------------------------------------------------------ */
/* Matching the records of A and B                                      */
/* ------------------------------------------------------------------ */

static int recp_key_cmp(const void *x, const void *y)
{
	return rec_key_cmp(*(struct rec *const *)x, *(struct rec *const *)y);
}

static struct rec **by_key(struct report *r)
{
	struct rec **v = xmalloc((r->nrecs ? r->nrecs : 1) * sizeof(*v));
	for (size_t i = 0; i < r->nrecs; i++)
		v[i] = &r->recs[i];
	qsort(v, r->nrecs, sizeof(*v), recp_key_cmp);
	return v;
}

static bool changed(uint64_t a, uint64_t b, double ratio)
{
	long double lo = a < b ? a : b, hi = a < b ? b : a;
	return hi > (long double)ratio * lo;
}

static void match(struct diff *d)
{
	struct rec **va = by_key(&d->a), **vb = by_key(&d->b);
	size_t i = 0, k = 0, cap = 0;

	while (i < d->a.nrecs || k < d->b.nrecs) {
		struct diff_path *p;
		int c = i == d->a.nrecs ? 1 : k == d->b.nrecs ? -1 : rec_key_cmp(va[i], vb[k]);

		GROW(d->paths, d->npaths, cap);
		p = &d->paths[d->npaths++];
		p->a = c <= 0 ? va[i++] : NULL;
		p->b = c >= 0 ? vb[k++] : NULL;
		if (p->a == NULL)
			p->kind = DIFF_ONLY_B, d->nonly_b++;
		else if (p->b == NULL)
			p->kind = DIFF_ONLY_A, d->nonly_a++;
		else if (changed(p->a->count, p->b->count, d->ratio))
			p->kind = DIFF_CHANGED, d->nchanged++;
		else
			p->kind = DIFF_SAME, d->nsame++;
	}
	free(va);
	free(vb);
}

/* ------------------------------------------------------------------ */
/* The ranked views                                                     */
/* ------------------------------------------------------------------ */

static int by_rank_b(const void *x, const void *y)
{
	const struct diff_path *a = *(struct diff_path *const *)x;
	const struct diff_path *b = *(struct diff_path *const *)y;
	return a->b->rank < b->b->rank ? -1 : a->b->rank > b->b->rank;
}

static int by_rank_a(const void *x, const void *y)
{
	const struct diff_path *a = *(struct diff_path *const *)x;
	const struct diff_path *b = *(struct diff_path *const *)y;
	return a->a->rank < b->a->rank ? -1 : a->a->rank > b->a->rank;
}

static uint64_t absdiff(const struct diff_path *p)
{
	return p->a->count > p->b->count ? p->a->count - p->b->count :
	       p->b->count - p->a->count;
}

static int by_change(const void *x, const void *y)
{
	const struct diff_path *a = *(struct diff_path *const *)x;
	const struct diff_path *b = *(struct diff_path *const *)y;
	uint64_t da = absdiff(a), db = absdiff(b);

	if (da != db)
		return da > db ? -1 : 1;
	return by_rank_b(x, y);
}

static struct diff_path **view(struct diff *d, enum diff_kind kind, size_t n,
			       int (*cmp)(const void *, const void *))
{
	struct diff_path **v = xmalloc((n ? n : 1) * sizeof(*v));
	size_t k = 0;

	for (size_t i = 0; i < d->npaths; i++)
		if (d->paths[i].kind == kind)
			v[k++] = &d->paths[i];
	qsort(v, n, sizeof(*v), cmp);
	return v;
}

/* ------------------------------------------------------------------ */
/* Divergences                                                          */
/* ------------------------------------------------------------------ */

/* A decoded path of A, for the search. */
struct apath {
	struct rec *x;
	ipp_path path;
};

static int edges_cmp(const ipp_path *a, const ipp_path *b)
{
	for (size_t i = 0; i < a->nedges && i < b->nedges; i++)
		if (a->edges[i] != b->edges[i])
			return a->edges[i] < b->edges[i] ? -1 : 1;
	return a->nedges < b->nedges ? -1 : a->nedges > b->nedges;
}

static int apath_cmp(const void *x, const void *y)
{
	const struct apath *a = x, *b = y;
	int c = edges_cmp(&a->path, &b->path);
	if (c != 0)
		return c;
	return a->x->rank < b->x->rank ? -1 : a->x->rank > b->x->rank;
}

static size_t lcp(const ipp_path *a, const ipp_path *b)
{
	size_t i = 0;
	while (i < a->nedges && i < b->nedges && a->edges[i] == b->edges[i])
		i++;
	return i;
}

/* The paths of A in one region, sorted by their edges. */
struct region_paths {
	struct apath *v;
	size_t n;
};

static void region_paths_free(struct region_paths *rp)
{
	for (size_t i = 0; i < rp->n; i++)
		ipp_path_free(&rp->v[i].path);
	free(rp->v);
	memset(rp, 0, sizeof(*rp));
}

static int region_paths_load(struct diff *d, size_t mod, ipp_id region,
			     struct region_paths *rp, char *err, size_t errlen)
{
	size_t cap = 0;

	memset(rp, 0, sizeof(*rp));
	for (size_t i = 0; i < d->a.nrecs; i++) {
		struct rec *x = &d->a.recs[i];
		struct apath *ap;

		if (x->mod != mod || x->region != region)
			continue;
		GROW(rp->v, rp->n, cap);
		ap = &rp->v[rp->n++];
		ap->x = x;
		ipp_path_init(&ap->path);
		if (report_rec_edges(&d->a, x, &ap->path, err, errlen) < 0) {
			region_paths_free(rp);
			return -1;
		}
	}
	qsort(rp->v, rp->n, sizeof(rp->v[0]), apath_cmp);
	return 0;
}

/* The closest path of A to p: the longest common prefix, then the highest
 * count, then the best rank in A.  NULL if the region has none. */
static const struct apath *closest(const struct region_paths *rp, const ipp_path *p,
				   size_t *common)
{
	size_t lo = 0, hi = rp->n, best_len = 0, first, last;
	const struct apath *best = NULL;

	if (rp->n == 0)
		return NULL;
	while (lo < hi) {	/* the first path of A not below p */
		size_t mid = lo + (hi - lo) / 2;
		if (edges_cmp(&rp->v[mid].path, p) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < rp->n)
		best_len = lcp(&rp->v[lo].path, p);
	if (lo > 0 && lcp(&rp->v[lo - 1].path, p) > best_len)
		best_len = lcp(&rp->v[lo - 1].path, p);
	/* every path sharing best_len edges with p lies in one run around lo */
	first = lo;
	while (first > 0 && lcp(&rp->v[first - 1].path, p) >= best_len)
		first--;
	last = lo;
	while (last < rp->n && lcp(&rp->v[last].path, p) >= best_len)
		last++;
	for (size_t i = first; i < last; i++) {
		const struct apath *c = &rp->v[i];
		if (best == NULL || c->x->count > best->x->count ||
		    (c->x->count == best->x->count && c->x->rank < best->x->rank))
			best = c;
	}
	*common = best_len;
	return best;
}

/* The call vertices open after the first n edges of a path. */
static void open_calls(const ipp_fin *fin, const ipp_path *p, size_t n, ipp_id **out,
		       size_t *nout)
{
	size_t depth = 0, cap = 0;
	ipp_id *st = NULL;

	for (size_t i = 0; i < n; i++) {
		enum ipp_ekind k = ipp_fin_ekind(fin, p->edges[i]);
		if (k == IPP_E_CALL) {
			GROW(st, depth, cap);
			st[depth++] = ipp_fin_esrc(fin, p->edges[i]);
		} else if (k == IPP_E_RETURN && depth > 0) {
			depth--;
		}
	}
	*out = st;
	*nout = depth;
}

/* Finds or adds the divergence with this point. */
static struct divergence *div_at(struct diff *d, size_t *cap, enum div_kind kind, size_t mod,
				 ipp_id region, ipp_id vertex, ipp_id *context, size_t ncontext)
{
	struct divergence *v;

	for (size_t i = 0; i < d->ndivs; i++) {
		v = &d->divs[i];
		if (v->kind == kind && v->mod == mod && v->vertex == vertex &&
		    (kind != DIV_REGION || v->region == region) && v->ncontext == ncontext &&
		    (ncontext == 0 || memcmp(v->context, context,
					     ncontext * sizeof(context[0])) == 0)) {
			free(context);
			return v;
		}
	}
	GROW(d->divs, d->ndivs, *cap);
	v = &d->divs[d->ndivs++];
	memset(v, 0, sizeof(*v));
	v->kind = kind;
	v->mod = mod;
	v->region = region;
	v->vertex = vertex;
	v->context = context;
	v->ncontext = ncontext;
	return v;
}

static void add_member(struct divergence *v, const struct div_member *m)
{
	v->members = xrealloc(v->members, (v->nmembers + 1) * sizeof(v->members[0]));
	v->members[v->nmembers++] = *m;
	v->count = sat_add(v->count, m->p->b->count);
}

/* The divergence of path p (only in B) from the paths of A in its region. */
static int diverge(struct diff *d, size_t *cap, struct diff_path *p,
		   const struct region_paths *rp, char *err, size_t errlen)
{
	const ipp_fin *fin = d->prog->mods[p->b->mod].fin;
	struct div_member m = { p, NULL, 0, IPP_NONE, IPP_NONE };
	const struct apath *q;
	ipp_path path;
	enum div_kind kind;
	ipp_id vertex, *context = NULL;
	size_t ncontext = 0;

	ipp_path_init(&path);
	if (report_rec_edges(&d->b, p->b, &path, err, errlen) < 0)
		return -1;
	q = closest(rp, &path, &m.common);
	if (q == NULL) {
		ipp_region_info info;
		ipp_fin_region(fin, p->b->region, &info);
		kind = DIV_REGION;
		vertex = ipp_fin_edst(fin, info.edge);
	} else {
		/* the common prefix holds at least the region's entry edge */
		m.closest = q->x;
		vertex = ipp_fin_edst(fin, path.edges[m.common - 1]);
		m.b_edge = m.common < path.nedges ? path.edges[m.common] : IPP_NONE;
		m.a_edge = m.common < q->path.nedges ? q->path.edges[m.common] : IPP_NONE;
		if (m.b_edge == IPP_NONE || m.a_edge == IPP_NONE)
			kind = DIV_STOP;
		else if (ipp_fin_vkind(fin, vertex) == IPP_V_ENTRY ||
			 ipp_fin_vkind(fin, vertex) == IPP_V_GENTRY)
			kind = DIV_RESTART;
		else
			kind = DIV_BRANCH;
		open_calls(fin, &path, m.common, &context, &ncontext);
	}
	add_member(div_at(d, cap, kind, p->b->mod, p->b->region, vertex, context, ncontext), &m);
	ipp_path_free(&path);
	return 0;
}

static int div_cmp(const void *x, const void *y)
{
	const struct divergence *a = x, *b = y;
	int ta = a->kind == DIV_BRANCH || a->kind == DIV_STOP ? 0 : a->kind == DIV_RESTART ? 1 : 2;
	int tb = b->kind == DIV_BRANCH || b->kind == DIV_STOP ? 0 : b->kind == DIV_RESTART ? 1 : 2;

	if (ta != tb)
		return ta < tb ? -1 : 1;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return a->members[0].p->b->rank < b->members[0].p->b->rank ? -1 : 1;
}

static int divergences(struct diff *d, char *err, size_t errlen)
{
	size_t cap = 0;

	/* only_b is by B's rank; handle one region at a time */
	for (size_t i = 0; i < d->npaths; i++) {
		struct diff_path *p = &d->paths[i];
		struct region_paths rp;
		size_t k;

		if (p->kind != DIFF_ONLY_B)
			continue;
		/* paths[] is by key: the region's paths follow one another */
		if (region_paths_load(d, p->b->mod, p->b->region, &rp, err, errlen) < 0)
			return -1;
		for (k = i; k < d->npaths; k++) {
			struct diff_path *o = &d->paths[k];
			struct rec *x = o->b != NULL ? o->b : o->a;
			if (x->mod != p->b->mod || x->region != p->b->region)
				break;
			if (o->kind == DIFF_ONLY_B && diverge(d, &cap, o, &rp, err, errlen) < 0) {
				region_paths_free(&rp);
				return -1;
			}
		}
		region_paths_free(&rp);
		i = k - 1;
	}
	/* members were added in key order: put them in B's ranking */
	for (size_t i = 0; i < d->ndivs; i++) {
		struct divergence *v = &d->divs[i];
		for (size_t a = 1; a < v->nmembers; a++)
			for (size_t b = a; b > 0 && v->members[b].p->b->rank <
						    v->members[b - 1].p->b->rank; b--) {
				struct div_member t = v->members[b];
				v->members[b] = v->members[b - 1];
				v->members[b - 1] = t;
			}
	}
	qsort(d->divs, d->ndivs, sizeof(d->divs[0]), div_cmp);
	return 0;
}

/* ------------------------------------------------------------------ */

int diff_build(struct diff *d, const struct program *prog, const ipp_profile *pa,
	       const char *name_a, const ipp_profile *pb, const char *name_b, double ratio,
	       char *err, size_t errlen)
{
	memset(d, 0, sizeof(*d));
	d->prog = prog;
	d->name_a = name_a;
	d->name_b = name_b;
	d->ratio = ratio;
	if (report_from_profile(&d->a, prog, pa, name_a, 0, err, errlen) < 0)
		return -1;
	if (report_from_profile(&d->b, prog, pb, name_b, 0, err, errlen) < 0) {
		report_free(&d->a);
		return -1;
	}
	match(d);
	d->only_b = view(d, DIFF_ONLY_B, d->nonly_b, by_rank_b);
	d->only_a = view(d, DIFF_ONLY_A, d->nonly_a, by_rank_a);
	d->changed = view(d, DIFF_CHANGED, d->nchanged, by_change);
	if (divergences(d, err, errlen) < 0) {
		diff_free(d);
		return -1;
	}
	return 0;
}

int diff_decode(struct diff *d, struct rec *x, char *err, size_t errlen)
{
	bool in_a = x >= d->a.recs && x < d->a.recs + d->a.nrecs;
	return report_decode(in_a ? &d->a : &d->b, x, err, errlen);
}

void diff_free(struct diff *d)
{
	for (size_t i = 0; i < d->ndivs; i++) {
		free(d->divs[i].context);
		free(d->divs[i].members);
	}
	free(d->divs);
	free(d->only_a);
	free(d->only_b);
	free(d->changed);
	free(d->paths);
	report_free(&d->a);
	report_free(&d->b);
	memset(d, 0, sizeof(*d));
}
