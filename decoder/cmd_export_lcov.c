/* cmd_export_lcov.c -- `ipp export --lcov`: lcov's tracefile (the format
 * geninfo(1) describes and genhtml(1) renders), from the counts derived
 * from the paths:
 *
 *   FN:<line>,<name>, FNDA:<entries>,<name>   every instrumented function,
 *        at its declaration line, named by its assembler name as gcov names
 *        it; entries = the count of Entry_P
 *   BRDA:<line>,<block>,<branch>,<taken>     the outcomes of every segment
 *        with two or more successors, on its last line (gcov -b's branches);
 *        taken is '-' when the segment never ran
 *   DA:<line>,<count>                         every line of the maps' x-lines,
 *        counted by gcov's rule (ippcore/gcov_lines.c)
 *   FNF/FNH, BRF/BRH, LF/LH                   the summaries
 *
 * One record (SF ... end_of_record) per source file, the units' lines
 * summed where several units share a file (a header), as `lcov -a` sums
 * tracefiles.  SF names are absolute (relative names taken from
 * --base-directory, the current directory by default) or, with --relative,
 * relative to that directory for the files below it.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "srclines.h"

enum rkind { R_FN, R_BR, R_DA };

/* One line of the tracefile before merging. */
struct lrec {
	const char *path;	/* interned (struct names) */
	enum rkind kind;
	int line;
	const char *name;	/* R_FN */
	size_t block, branch;	/* R_BR */
	uint64_t count;
	bool executed;		/* R_BR: the segment ran */
};

/* Source names, resolved once per distinct name. */
struct names {
	const char **from;
	char **to;
	size_t n, cap;
	const struct export_opts *o;
	char *rel;		/* --relative, made absolute */
};

static const char *resolve(struct names *nm, const char *file)
{
	char *abs;
	for (size_t i = 0; i < nm->n; i++)
		if (nm->from[i] == file || strcmp(nm->from[i], file) == 0)
			return nm->to[i];
	abs = source_path(file, nm->o->base_dir);
	if (nm->n == nm->cap) {
		nm->cap = nm->cap ? 2 * nm->cap : 16;
		nm->from = xrealloc(nm->from, nm->cap * sizeof(*nm->from));
		nm->to = xrealloc(nm->to, nm->cap * sizeof(*nm->to));
	}
	nm->from[nm->n] = file;
	nm->to[nm->n] = nm->rel != NULL ? relative_path(abs, nm->rel) : xstrdup(abs);
	free(abs);
	return nm->to[nm->n++];
}

static void sat_add(uint64_t *acc, uint64_t v)
{
	*acc = *acc > UINT64_MAX - v ? UINT64_MAX : *acc + v;
}

static int lrec_cmp(const void *x, const void *y)
{
	const struct lrec *a = x, *b = y;
	int c = strcmp(a->path, b->path);
	if (c != 0)
		return c;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->kind == R_FN)
		return strcmp(a->name, b->name);
	if (a->block != b->block)
		return a->block < b->block ? -1 : 1;
	return (a->branch > b->branch) - (a->branch < b->branch);
}

static bool same_key(const struct lrec *a, const struct lrec *b)
{
	return lrec_cmp(a, b) == 0;
}

static void write_file(FILE *out, const struct export_opts *o, const struct lrec *r, size_t n)
{
	size_t fnf = 0, fnh = 0, brf = 0, brh = 0, lf = 0, lh = 0;

	fprintf(out, "TN:%s\nSF:%s\n", o->test_name, r[0].path);
	for (size_t i = 0; i < n; i++)
		if (r[i].kind == R_FN)
			fprintf(out, "FN:%d,%s\n", r[i].line, r[i].name);
	for (size_t i = 0; i < n; i++)
		if (r[i].kind == R_FN) {
			fprintf(out, "FNDA:%" PRIu64 ",%s\n", r[i].count, r[i].name);
			fnf++;
			fnh += r[i].count > 0;
		}
	fprintf(out, "FNF:%zu\nFNH:%zu\n", fnf, fnh);
	for (size_t i = 0; i < n; i++)
		if (r[i].kind == R_BR) {
			if (r[i].executed)
				fprintf(out, "BRDA:%d,%zu,%zu,%" PRIu64 "\n", r[i].line, r[i].block,
					r[i].branch, r[i].count);
			else
				fprintf(out, "BRDA:%d,%zu,%zu,-\n", r[i].line, r[i].block, r[i].branch);
			brf++;
			brh += r[i].count > 0;
		}
	if (brf > 0)
		fprintf(out, "BRF:%zu\nBRH:%zu\n", brf, brh);
	for (size_t i = 0; i < n; i++)
		if (r[i].kind == R_DA) {
			fprintf(out, "DA:%d,%" PRIu64 "\n", r[i].line, r[i].count);
			lf++;
			lh += r[i].count > 0;
		}
	fprintf(out, "LF:%zu\nLH:%zu\nend_of_record\n", lf, lh);
}

int export_lcov(FILE *out, const struct derived *d, const struct export_opts *o)
{
	struct srclines sl;
	struct names nm = { NULL, NULL, 0, 0, o, NULL };
	struct lrec *r = NULL;
	size_t n = 0, cap = 0, unknown = 0;

	if (srclines_load(&sl, d) < 0)
		return -1;
	if (o->relative_to != NULL)
		nm.rel = source_path(o->relative_to, NULL);
	for (size_t i = 0; i < d->nunits; i++) {
		const struct unit *u = &d->units[i];
		const ipp_src_lines *s = &sl.units[i];

		struct fn_counts f;
		/* one FN per source function: an inlined copy's entries are
		 * its function's (fn_counts) */
		fn_counts_init(u, &f);
		for (size_t p = 0; p < ipp_graph_nprocs(u->g); p++) {
			ipp_id entry = ipp_proc_entry(u->g, (ipp_id)p);
			const char *file = ipp_vertex_file(u->g, entry);
			if ((ipp_proc_flags(u->g, (ipp_id)p) & IPP_PROC_SKIPPED) ||
			    f.origin[p] != (ipp_id)p || file == NULL)
				continue;
			GROW(r, n, cap);
			r[n++] = (struct lrec){ .path = resolve(&nm, file), .kind = R_FN,
				.line = ipp_vertex_line(u->g, entry),
				.name = ipp_proc_asm(u->g, (ipp_id)p),
				.count = f.entries[p] };
		}
		fn_counts_free(&f);
		for (size_t k = 0; k < s->nbranches; k++) {
			const ipp_src_branch *b = &s->branches[k];
			if (!b->known) {
				unknown++;
				continue;
			}
			GROW(r, n, cap);
			r[n++] = (struct lrec){ .path = resolve(&nm, b->file), .kind = R_BR,
				.line = b->line, .block = b->block, .branch = b->succ,
				.count = b->taken, .executed = b->executed };
		}
		for (size_t k = 0; k < s->nlines; k++) {
			GROW(r, n, cap);
			r[n++] = (struct lrec){ .path = resolve(&nm, s->lines[k].file), .kind = R_DA,
				.line = s->lines[k].line, .count = s->lines[k].count };
		}
	}
	if (n > 0)
		qsort(r, n, sizeof(*r), lrec_cmp);
	/* merge the units' records of one key */
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m > 0 && same_key(&r[m - 1], &r[i])) {
			sat_add(&r[m - 1].count, r[i].count);
			r[m - 1].executed |= r[i].executed;
		} else {
			r[m++] = r[i];
		}
	}
	for (size_t i = 0, j; i < m; i = j) {
		for (j = i; j < m && strcmp(r[j].path, r[i].path) == 0; j++)
			;
		write_file(out, o, &r[i], j - i);
	}
	if (sl.ninexact > 0)
		cli_warning("%s: %zu source lines need an edge count the profile does not "
			    "determine (parallel removed edges): their DA counts are lower bounds",
			    d->profile, sl.ninexact);
	if (unknown > 0)
		cli_warning("%s: %zu branch outcomes are not determined by the profile "
			    "(parallel removed edges): left out", d->profile, unknown);
	free(r);
	for (size_t i = 0; i < nm.n; i++)
		free(nm.to[i]);
	free(nm.from);
	free(nm.to);
	free(nm.rel);
	srclines_free(&sl);
	return 0;
}
