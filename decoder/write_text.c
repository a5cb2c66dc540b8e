/* write_text.c -- the report, a decoded path and the cuts as readable text
 * (the layout is described in docs/REPORT.md).  The text is for people:
 * scripts should use --format=yaml or json.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "writers.h"
#include "text.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* The report                                                           */
/* ------------------------------------------------------------------ */

static void module_line(FILE *out, const struct report *r, size_t i)
{
	const struct prog_module *m = &r->prog->mods[i];
	const struct mod_report *mr = &r->mods[i];
	size_t nreg = m->map->nregions;
	mpz_t total;

	/* the map's totals: equal to the renumbering's (ipp_map_fin checks
	 * them), and at hand for a unit that was not renumbered */
	mpz_init(total);
	mpz_set(total, m->map->total);
	gmp_fprintf(out, "%s: %s mode, %Zd %s in %zu %s", m->map->module,
		    ipp_mode_name(m->map->mode), total, mpz_cmp_ui(total, 1) == 0 ? "path" : "paths",
		    nreg, plural(nreg, "region", "regions"));
	if (r->kind == REPORT_PROFILE) {
		if (mr->pm == NULL)
			fputs("; not run", out);
		else
			gmp_fprintf(out, "; %" PRIu64 " %s, %Zd %s of %zu %s recorded",
				    mr->pm->runs, plural(mr->pm->runs, "run", "runs"), mr->recorded,
				    mpz_cmp_ui(mr->recorded, 1) == 0 ? "execution" : "executions",
				    mr->nrecords, plural(mr->nrecords, "path", "paths"));
	}
	fprintf(out, " (checksum %s)\n", m->checksum);
	mpz_clear(total);
}

static void region_table(FILE *out, const struct prog_module *m)
{
	struct table t;
	mpz_t x;

	mpz_init(x);
	table_init(&t, 4, 0x6);
	table_row(&t, (const char *const[]){ "region", "paths", "offset", "function" });
	for (size_t i = 0; i < ipp_fin_nregions(m->fin); i++) {
		ipp_region_info info;
		char *paths, *offset;
		ipp_fin_region(m->fin, (ipp_id)i, &info);
		ipp_fin_region_total(m->fin, (ipp_id)i, x);
		paths = mpz_str(x);
		ipp_fin_region_offset(m->fin, (ipp_id)i, x);
		offset = mpz_str(x);
		table_row(&t, (const char *const[]){ info.name, paths, offset,
			  ipp_proc_name(m->map->graph, info.proc) });
		free(paths);
		free(offset);
	}
	table_print(out, &t, 4);
	table_free(&t);
	mpz_clear(x);
}

/* The unit of the program that holds main (instrumented, an entry), or -1. */
static long main_unit(const struct program *prog)
{
	for (size_t i = 0; i < prog->nmods; i++) {
		const ipp_graph *g;
		ipp_id p;
		if (prog->mods[i].map == NULL)	/* not parsed: it never ran */
			continue;
		g = prog->mods[i].map->graph;
		p = ipp_proc_find(g, "main");
		if (p != IPP_NONE && !(ipp_proc_flags(g, p) & IPP_PROC_SKIPPED))
			return (long)i;
	}
	return -1;
}

/* Every run of the program records in the unit of main, so a unit with
 * more runs than that one holds runs of other programs too (a profile that
 * several programs sharing a unit wrote into). */
static void several_programs(FILE *out, const struct report *r)
{
	long mu = main_unit(r->prog);
	uint64_t own;

	if (mu < 0 || r->mods[mu].pm == NULL)
		return;
	own = r->mods[mu].pm->runs;
	for (size_t i = 0; i < r->prog->nmods; i++) {
		const ipp_prof_module *pm = r->mods[i].pm;
		if (pm != NULL && pm->runs > own)
			fprintf(out, "  note: %s has %" PRIu64 " runs but %s, the unit of main, has "
				"%" PRIu64 ": its paths include runs of other programs that share "
				"it\n", r->prog->mods[i].map->module, pm->runs,
				r->prog->mods[mu].map->module, own);
	}
}

/* Two shown paths of one region whose text would read the same each get a
 * note at the vertex where they part: where each went from there.
 *
 * The shown paths that read alike are found by sorting (module, region,
 * text), each one's edges decoded once.  Sorted by their edges, the paths of
 * such a group form a trie: two paths part at the node where their edges
 * first differ (or one of them stops), and a path's notes are, for each node
 * of its own that has other branches, where it went against each of them.
 * The words depend on the branches only, not on the paths through them, so
 * they are formatted once per branch of a node (see group_notes). */

/* A note due on a path: at 'step', first due to the shown path 'from' (the
 * lowest-ranked path it parts from there with this text). */
struct cand {
	size_t step;
	size_t from;
	const char *text;	/* in the group's pool */
};

struct member {
	size_t idx;		/* in r->shown */
	ipp_path path;
	struct cand *c;
	size_t nc, cap;
};

/* Where path p goes at position d, IPP_NONE if it stops there. */
static ipp_id edge_at(const struct member *p, size_t d)
{
	return d < p->path.nedges ? p->path.edges[d] : IPP_NONE;
}

/* By edges (a path that stops before another's next edge first), then by
 * index: the paths that share a prefix are consecutive. */
static int member_cmp(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	size_t n = x->path.nedges < y->path.nedges ? x->path.nedges : y->path.nedges;

	for (size_t i = 0; i < n; i++)
		if (x->path.edges[i] != y->path.edges[i])
			return x->path.edges[i] < y->path.edges[i] ? -1 : 1;
	if (x->path.nedges != y->path.nedges)
		return x->path.nedges < y->path.nedges ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The notes in the order the step-by-step rendering gives them: by step,
 * then by the path they are due to. */
static int cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->step != y->step)
		return x->step < y->step ? -1 : 1;
	return x->from < y->from ? -1 : x->from > y->from;
}

static void cand_add(struct member *p, size_t step, size_t from, const char *text)
{
	GROW(p->c, p->nc, p->cap);
	p->c[p->nc++] = (struct cand){ step, from, text };
}

/* "branch to " and where e leads at 'level' of detail, kept in the pool. */
static const char *branch_text(const struct prog_module *m, ipp_id e, int level,
			       char ***pool, size_t *npool, size_t *cappool)
{
	struct sbuf b = { 0 };
	char *d = edge_target(m, e, level);

	sb_printf(&b, "branch to %s", d);
	free(d);
	GROW(*pool, *npool, *cappool);
	(*pool)[(*npool)++] = b.s;
	return b.s;
}

/* One branch of a trie node: the members [lo, hi) that took edge e there. */
struct branch {
	size_t lo, hi;
	ipp_id e;
	size_t min1, min2;	/* the two lowest indices among them */
	const char *t1;		/* "branch to" e at level 1 */
	size_t cls;		/* the branches whose t1 reads the same */
};

/* The branches whose level-1 words read the same, and the two lowest
 * indices of their members (SIZE_MAX: none). */
struct cls {
	size_t min1, min2;
};

static int branch_t1_cmp(const void *a, const void *b)
{
	const struct branch *const *x = a, *const *y = b;
	int c = strcmp((*x)->t1, (*y)->t1);

	return c != 0 ? c : (*x)->min1 < (*y)->min1 ? -1 : (*x)->min1 > (*y)->min1;
}

static void two_lowest(size_t *min1, size_t *min2, size_t v)
{
	if (v < *min1) {
		*min2 = *min1;
		*min1 = v;
	} else if (v < *min2) {
		*min2 = v;
	}
}

/* The notes of the members of a group, mem[] sorted by member_cmp.
 *
 * A member of branch a at a node parts there from the members of every
 * other branch o.  As edge_targets(e_a, e_o, 1) words it, it went to t1(a),
 * e_a at level 1, where t1(o) reads differently, and to e_a at level 2
 * where it reads the same: at most two notes per member and node, each due
 * first to the lowest index among the branches it answers, so a node of
 * many branches (a switch) costs no more than its members. */
static void group_notes(const struct prog_module *m, struct member *mem, size_t n,
			char ***pool, size_t *npool, size_t *cappool)
{
	struct span {
		size_t lo, hi, d;	/* mem[lo, hi) share their first d edges */
	} *work = NULL;
	size_t nwork = 0, capwork = 0;
	struct branch *br = NULL, **ord = NULL;
	struct cls *cl = NULL;
	size_t capbr = 0;

	GROW(work, nwork, capwork);
	work[nwork++] = (struct span){ 0, n, 0 };
	while (nwork > 0) {
		struct span s = work[--nwork];
		size_t nbr = 0, ncl = 0, best = SIZE_MAX, next = SIZE_MAX;
		/* vertex d of a path is step d - 1 (Entry_global is not a step) */
		size_t step = s.d > 0 ? s.d - 1 : 0;

		for (size_t j = s.lo; j < s.hi;) {
			struct branch *b;
			if (nbr == capbr) {
				capbr = capbr ? 2 * capbr : 16;
				br = xrealloc(br, capbr * sizeof(br[0]));
				ord = xrealloc(ord, capbr * sizeof(ord[0]));
				cl = xrealloc(cl, capbr * sizeof(cl[0]));
			}
			b = &br[nbr++];
			b->lo = j;
			b->e = edge_at(&mem[j], s.d);
			b->min1 = b->min2 = SIZE_MAX;
			for (; j < s.hi && edge_at(&mem[j], s.d) == b->e; j++)
				two_lowest(&b->min1, &b->min2, mem[j].idx);
			b->hi = j;
		}
		if (nbr > 1) {
			for (size_t a = 0; a < nbr; a++) {
				br[a].t1 = branch_text(m, br[a].e, 1, pool, npool, cappool);
				ord[a] = &br[a];
			}
			qsort(ord, nbr, sizeof(ord[0]), branch_t1_cmp);
			for (size_t a = 0; a < nbr; a++) {
				if (a == 0 || strcmp(ord[a]->t1, ord[a - 1]->t1) != 0)
					cl[ncl++] = (struct cls){ SIZE_MAX, SIZE_MAX };
				ord[a]->cls = ncl - 1;
				two_lowest(&cl[ncl - 1].min1, &cl[ncl - 1].min2, ord[a]->min1);
			}
			/* the two classes of the lowest indices */
			for (size_t c = 0; c < ncl; c++)
				if (best == SIZE_MAX || cl[c].min1 < cl[best].min1) {
					next = best;
					best = c;
				} else if (next == SIZE_MAX || cl[c].min1 < cl[next].min1) {
					next = c;
				}
			for (size_t a = 0; a < nbr; a++) {
				const struct cls *own = &cl[br[a].cls];
				size_t other = best != br[a].cls ? best : next;
				size_t same = own->min1 != br[a].min1 ? own->min1 : own->min2;
				const char *t2 = NULL;

				if (same != SIZE_MAX)
					t2 = branch_text(m, br[a].e, 2, pool, npool, cappool);
				for (size_t j = br[a].lo; j < br[a].hi; j++) {
					if (other != SIZE_MAX)
						cand_add(&mem[j], step, cl[other].min1, br[a].t1);
					if (t2 != NULL)
						cand_add(&mem[j], step, same, t2);
				}
			}
		}
		for (size_t a = 0; a < nbr; a++) {
			if (br[a].hi - br[a].lo < 2)
				continue;
			if (br[a].e != IPP_NONE) {
				GROW(work, nwork, capwork);
				work[nwork++] = (struct span){ br[a].lo, br[a].hi, s.d + 1 };
			} else {
				/* the same edges: both stop here */
				const char *text = branch_text(m, IPP_NONE, 1, pool, npool, cappool);
				for (size_t j = br[a].lo; j < br[a].hi; j++)
					cand_add(&mem[j], step, mem[j].idx == br[a].min1 ?
						 br[a].min2 : br[a].min1, text);
			}
		}
	}
	free(work);
	free(br);
	free(ord);
	free(cl);
}

/* The notes of one member, in order, a note said once per step. */
static struct path_note *member_notes(struct member *p, size_t *nnotes)
{
	struct path_note *notes = xcalloc(p->nc ? p->nc : 1, sizeof(notes[0]));
	size_t n = 0, first = 0;	/* notes[first, n) are at the current step */

	qsort(p->c, p->nc, sizeof(p->c[0]), cand_cmp);
	for (size_t i = 0; i < p->nc; i++) {
		bool dup = false;
		if (n > 0 && notes[n - 1].step != p->c[i].step)
			first = n;
		for (size_t k = first; k < n && !dup; k++)
			dup = strcmp(notes[k].text, p->c[i].text) == 0;
		if (!dup)
			notes[n++] = (struct path_note){ p->c[i].step, p->c[i].text };
	}
	*nnotes = n;
	return notes;
}

/* A shown path by what its plain text must be told apart from. */
struct alike {
	size_t mod;
	ipp_id region;
	const char *text;
	size_t idx;
};

static int alike_cmp(const void *a, const void *b)
{
	const struct alike *x = a, *y = b;
	int c;

	if (x->mod != y->mod)
		return x->mod < y->mod ? -1 : 1;
	if (x->region != y->region)
		return x->region < y->region ? -1 : 1;
	if ((c = strcmp(x->text, y->text)) != 0)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The text of every shown path, distinct paths of a region never alike. */
static char **path_texts(const struct report *r)
{
	char **texts = xcalloc(r->nshown ? r->nshown : 1, sizeof(texts[0]));
	char **plain = xcalloc(r->nshown ? r->nshown : 1, sizeof(plain[0]));
	struct alike *order = xcalloc(r->nshown ? r->nshown : 1, sizeof(order[0]));

	for (size_t i = 0; i < r->nshown; i++) {
		const struct rec *x = r->shown[i];
		plain[i] = path_render(&r->prog->mods[x->mod], &x->steps, NULL, 0, r->width, 6);
		order[i] = (struct alike){ x->mod, x->region, plain[i], i };
	}
	qsort(order, r->nshown, sizeof(order[0]), alike_cmp);
	for (size_t lo = 0, hi; lo < r->nshown; lo = hi) {
		const struct prog_module *m = &r->prog->mods[order[lo].mod];
		struct member *mem;
		char **pool = NULL;
		size_t n = 0, npool = 0, cappool = 0;
		char err[256];

		for (hi = lo + 1; hi < r->nshown && order[hi].mod == order[lo].mod &&
		     order[hi].region == order[lo].region &&
		     strcmp(order[hi].text, order[lo].text) == 0; hi++)
			;
		if (hi - lo < 2) {
			texts[order[lo].idx] = xstrdup(plain[order[lo].idx]);
			continue;
		}
		mem = xcalloc(hi - lo, sizeof(mem[0]));
		for (size_t k = lo; k < hi; k++) {
			struct member *p = &mem[n];
			p->idx = order[k].idx;
			ipp_path_init(&p->path);
			if (report_rec_edges(r, r->shown[p->idx], &p->path, err, sizeof(err)) < 0)
				ipp_path_free(&p->path);	/* decoded before: cannot fail */
			else
				n++;
		}
		qsort(mem, n, sizeof(mem[0]), member_cmp);
		if (n >= 2)
			group_notes(m, mem, n, &pool, &npool, &cappool);
		for (size_t k = lo; k < hi; k++)
			texts[order[k].idx] = NULL;
		for (size_t k = 0; k < n; k++) {
			const struct rec *x = r->shown[mem[k].idx];
			size_t nnotes;
			struct path_note *notes = member_notes(&mem[k], &nnotes);

			texts[mem[k].idx] = nnotes == 0 ? xstrdup(plain[mem[k].idx]) :
					    path_render(m, &x->steps, notes, nnotes, r->width, 6);
			free(notes);
			free(mem[k].c);
			ipp_path_free(&mem[k].path);
		}
		for (size_t k = lo; k < hi; k++)	/* those that did not decode */
			if (texts[order[k].idx] == NULL)
				texts[order[k].idx] = xstrdup(plain[order[k].idx]);
		for (size_t k = 0; k < npool; k++)
			free(pool[k]);
		free(pool);
		free(mem);
	}
	for (size_t i = 0; i < r->nshown; i++)
		free(plain[i]);
	free(plain);
	free(order);
	return texts;
}

/* A unit ran if the profile holds a record of it.  Every unit registers at
 * start-up, so a unit whose code never executed is written with its run
 * count and no records: it is listed with those that are not there. */
static bool unit_ran(const ipp_prof_module *pm)
{
	return pm != NULL && ipp_prof_module_has_records(pm);
}

/* For a path that counts an inlined copy's runs as its function's: where
 * each count came from, "counted as power 10, main/power:1 (inlined into
 * main:40) 6", after 'lead'. */
static void folds_text(struct sbuf *b, const char *lead, const struct prog_module *m,
		       const struct rec *x)
{
	const ipp_graph *g = m->map->graph;

	sb_printf(b, "%scounted as", lead);
	for (size_t k = 0; k < x->nfolds; k++) {
		ipp_region_info info;
		char *count = u64_str(x->folds[k].count);
		ipp_fin_region(m->fin, x->folds[k].region, &info);
		sb_printf(b, "%s %s", k ? "," : "", info.name);
		inlined_text(b, g, info.proc);
		sb_printf(b, " %s", count);
		free(count);
	}
}

/* Under a path of the ranking, its folds (folds_text) indented as the
 * path.  Appended to 'text' (malloc'd). */
static char *with_folds(char *text, const struct prog_module *m, const struct rec *x)
{
	struct sbuf b = { 0 };

	sb_printf(&b, "%s\n", text);
	folds_text(&b, "      ", m, x);
	free(text);
	return b.s;
}

static void report_profile_text(FILE *out, const struct report *r)
{
	struct table t;
	size_t never = 0;
	char **texts;

	fprintf(out, "ipp report: %s, profile %s\n", r->prog->path, r->profile_name);
	for (size_t i = 0; i < r->prog->nmods; i++) {
		if (!unit_ran(r->mods[i].pm) && !r->show_regions) {
			never++;
			continue;
		}
		fputs("  ", out);
		module_line(out, r, i);
		if (r->show_regions)
			region_table(out, &r->prog->mods[i]);
	}
	if (never > 0)
		fprintf(out, "  %s%zu %s never ran\n", never < r->prog->nmods ? "and " : "", never,
			plural(never, "unit", "units"));
	several_programs(out, r);
	putc('\n', out);
	if (r->nrecs == 0) {
		fputs("No paths recorded.\n", out);
		return;
	}
	if (r->nmatching < r->nrecs)
		gmp_fprintf(out, "%s %zu of the %zu paths that match (of %zu recorded, %Zd "
			    "executions):\n\n", r->nshown == r->nmatching ? "All" : "The top",
			    r->nshown, r->nmatching, r->nrecs, r->total);
	else if (r->nshown == r->nrecs)
		gmp_fprintf(out, "All %zu %s recorded (%Zd %s):\n\n", r->nrecs,
			    plural(r->nrecs, "path", "paths"), r->total,
			    mpz_cmp_ui(r->total, 1) == 0 ? "execution" : "executions");
	else
		gmp_fprintf(out, "The top %zu of %zu paths recorded (%Zd executions):\n\n",
			    r->nshown, r->nrecs, r->total);
	if (r->nshown == 0)
		return;

	texts = path_texts(r);
	table_init(&t, 7, 0x27);
	table_row(&t, (const char *const[]){ "rank", "count", "%", "module", "region", "number",
		  "" });
	for (size_t i = 0; i < r->nshown; i++) {
		const struct rec *x = r->shown[i];
		const struct prog_module *m = &r->prog->mods[x->mod];
		ipp_region_info info;
		char rank[24], pct[32], *count = u64_str(x->count), *num = ipp_pnum_str(&x->num);
		double total = mpz_get_d(r->total);

		ipp_fin_region(m->fin, x->region, &info);
		snprintf(rank, sizeof(rank), "%zu", x->rank);
		snprintf(pct, sizeof(pct), "%.2f%%",
			 total > 0 ? 100.0 * (double)x->count / total : 0.0);
		table_row(&t, (const char *const[]){ rank, count, pct, m->map->module, info.name,
			  num, x->partial ? "partial" : "" });
		table_after(&t, x->nfolds > 0 ? with_folds(texts[i], m, x) : texts[i]);
		free(count);
		free(num);
	}
	free(texts);
	table_print(out, &t, 0);
	table_free(&t);
}

static void report_decode_text(FILE *out, const struct report *r)
{
	const struct rec *x = r->shown[0];
	const struct prog_module *m = &r->prog->mods[x->mod];
	const ipp_graph *g = m->map->graph;
	ipp_region_info info;
	struct table t;
	char *steps = path_render(m, &x->steps, NULL, 0, r->width, 2);
	mpz_t total, global, num;

	mpz_init(total);
	mpz_init(global);
	mpz_init(num);
	ipp_pnum_get(&x->num, num);
	ipp_fin_region(m->fin, x->region, &info);
	ipp_fin_region_total(m->fin, x->region, total);
	ipp_fin_region_offset(m->fin, x->region, global);
	mpz_add(global, global, num);
	if (r->show_regions) {
		fputs("  ", out);
		module_line(out, r, x->mod);
		region_table(out, m);
		putc('\n', out);
	}
	gmp_fprintf(out, "%s, region %s, %spath %Zd of %Zd (global number %Zd):\n%s\n",
		    m->map->module, info.name, x->partial ? "partial " : "", num, total,
		    global, steps);
	free(steps);
	if (x->nfolds > 0) {	/* ipp decode --rank of a path counted as copies' */
		struct sbuf b = { 0 };
		folds_text(&b, "  ", m, x);
		fprintf(out, "%s\n", b.s);
		free(b.s);
	}
	putc('\n', out);

	table_init(&t, 5, 0x1);
	table_row(&t, (const char *const[]){ "vertex", "kind", "function", "location", "" });
	for (size_t i = 0; i < x->steps.n; i++) {
		const struct step *s = &x->steps.v[i];
		char id[24], *loc = location(g, s->origin);
		struct sbuf extra = { 0 };

		snprintf(id, sizeof(id), "%" PRId32, s->vertex);
		if (s->kind == SK_CALL || s->kind == SK_SUMMARY)
			sb_printf(&extra, "calls %s", s->callee_name != NULL ?
				  s->callee_name : "?");
		if (s->kind == SK_SUMMARY)
			sb_printf(&extra, ", not followed: %s%s", ipp_summary_why_name(s->why),
				  (ipp_call_flags(g, s->origin) & IPP_CALL_TAIL) ? ", tail call" : "");
		table_row(&t, (const char *const[]){ id, step_kind_name(s->kind),
			  s->proc != IPP_NONE ? ipp_proc_name(g, s->proc) : "?", loc,
			  extra.s != NULL ? extra.s : "" });
		free(loc);
		free(extra.s);
	}
	table_print(out, &t, 2);
	table_free(&t);
	mpz_clear(total);
	mpz_clear(global);
	mpz_clear(num);
}

void write_report_text(FILE *out, const struct report *r)
{
	if (r->kind == REPORT_PROFILE)
		report_profile_text(out, r);
	else
		report_decode_text(out, r);
}

/* ------------------------------------------------------------------ */
/* The cuts                                                             */
/* ------------------------------------------------------------------ */

static void call_row(struct table *t, const ipp_graph *g, ipp_id c, const char *why)
{
	const char *callee = ipp_call_target_name(g, c);
	struct sbuf arrow = { 0 };
	char *loc = location(g, c);

	sb_printf(&arrow, "%s -> %s", ipp_proc_name(g, ipp_vertex_proc(g, c)),
		  callee != NULL ? callee :
		  (ipp_call_flags(g, c) & IPP_CALL_INDIRECT) ? "(indirect)" : "(external)");
	table_row(t, (const char *const[]){ arrow.s, loc, why });
	free(arrow.s);
	free(loc);
}

/* The limit in decimal, or "2^64-1" for the plugin's default. */
static char *limit_str(const mpz_t limit)
{
	mpz_t max;
	bool is_max;

	mpz_init(max);
	mpz_ui_pow_ui(max, 2, 64);
	mpz_sub_ui(max, max, 1);
	is_max = mpz_cmp(limit, max) == 0;
	mpz_clear(max);
	return is_max ? xstrdup("2^64-1") : mpz_str(limit);
}

void write_cuts_text(FILE *out, const struct cuts_report *c)
{
	mpz_t x;

	mpz_init(x);
	fprintf(out, "ipp report --cuts: %s\n", c->prog->path);
	for (size_t i = 0; i < c->prog->nmods; i++) {
		const struct prog_module *m = &c->prog->mods[i];
		const struct mod_cuts *mc = &c->mods[i];
		const ipp_graph *g = m->map->graph;
		size_t nreg = ipp_fin_nregions(m->fin);
		struct table t;

		char *limit = limit_str(m->map->limit);
		ipp_fin_total(m->fin, x);
		gmp_fprintf(out, "\n%s: %s mode, limit %s paths per region, %Zd paths in %zu %s "
			    "(checksum %s)\n", m->map->module, ipp_mode_name(m->map->mode),
			    limit, x, nreg, plural(nreg, "region", "regions"), m->checksum);
		free(limit);
		fputs("  regions:\n", out);
		region_table(out, m);

		if (mc->nvertices == 0) {
			fputs("  cut vertices: none\n", out);
		} else {
			fprintf(out, "  cut vertices (%zu):\n", mc->nvertices);
			table_init(&t, 4, 0);
			for (size_t k = 0; k < mc->nvertices; k++) {
				ipp_id v = mc->vertices[k].vertex;
				char *loc = location(g, v);
				table_row(&t, (const char *const[]){
					  ipp_proc_name(g, ipp_vertex_proc(g, v)), loc,
					  ipp_vkind_name(ipp_vertex_kind(g, v)),
					  cut_why_name(mc->vertices[k].why) });
				free(loc);
			}
			table_print(out, &t, 4);
			table_free(&t);
		}
		if (mc->ncalls == 0) {
			fputs("  cut call sites: none\n", out);
		} else {
			fprintf(out, "  cut call sites (%zu):\n", mc->ncalls);
			table_init(&t, 3, 0);
			for (size_t k = 0; k < mc->ncalls; k++)
				call_row(&t, g, mc->calls[k].vertex, cut_why_name(mc->calls[k].why));
			table_print(out, &t, 4);
			table_free(&t);
		}
		if (mc->nsummaries == 0) {
			fputs("  summarized call sites: none\n", out);
		} else {
			fprintf(out, "  summarized call sites (%zu):\n", mc->nsummaries);
			table_init(&t, 3, 0);
			for (size_t k = 0; k < mc->nsummaries; k++)
				call_row(&t, g, mc->summaries[k],
					 ipp_summary_why_name(ipp_fin_call_summary(m->fin,
										   mc->summaries[k])));
			table_print(out, &t, 4);
			table_free(&t);
		}
	}
	mpz_clear(x);
}
