/* cmd_html.c -- `ipp html PROGRAM [PROFILE] -o DIR`: static pages of a
 * profile, readable in a browser from the file system (no server):
 *
 *   index.html    the summary, the flame graph of the paths (d3-flame-graph,
 *                 from npm, drawn by assets/ipp-report.js from data.js),
 *                 the hottest paths and the source files
 *   path-K.html   the K-th hottest path through the code: for each of its
 *                 frames (frames.h), in order, the function's source lines
 *                 with those the path executes highlighted, across
 *                 functions and files
 *   src-K.html    a source file, each line with its count (gcov's rule,
 *                 ippcore/ipp_lines.h), the lines of the hottest path
 *                 highlighted
 *   data.js       IPP_FLAME: the prefix tree of the paths' frames
 *   assets/       d3, d3-flame-graph and their licenses, ipp-report.js/css
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "export.h"
#include "frames.h"
#include "html.h"
#include "srclines.h"

static void html_usage(FILE *f)
{
	fprintf(f,
		"Usage: ipp html [OPTIONS] -o DIR PROGRAM [LIBRARY...] [PROFILE]\n"
		"\n"
		"Writes static pages of the profile PROFILE (default: " DEFAULT_PROFILE ") of\n"
		"PROGRAM into DIR (created if needed; open DIR/index.html in a browser):\n"
		"the flame graph of the recorded paths (d3-flame-graph), the hottest\n"
		"paths shown through the source code across functions, and every source\n"
		"file with its line counts (gcov's rule).\n"
		"\n"
		"Options:\n"
		"  -o, --output=DIR         the directory to write (required)\n"
		"  -n, --top=N              pages for the N hottest paths (default 10)\n"
		"  -b, --base-directory=DIR take relative source names from DIR (default:\n"
		"                           the current directory)\n"
		"  -h, --help               show this help and exit\n"
		"\n"
		"The flame graph's assets (d3 and d3-flame-graph) are vendored from npm\n"
		"when ipp is built; IPP_HTML_ASSETS names another directory holding them.\n"
		"\n"
		"Exit status: 0 on success, 1 on error, 2 on a usage error.\n");
}

static void esc(FILE *out, const char *s)
{
	for (; s != NULL && *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
}

/* ------------------------------------------------------------------ */
/* Source files                                                         */
/* ------------------------------------------------------------------ */

struct srcfile {
	char *path;		/* absolute */
	const char *name;	/* as the maps name it */
	char **text;		/* its lines (text[0] is line 1), NULL if unreadable */
	size_t ntext;
	uint64_t *count;	/* [maxline + 1] */
	bool *exists;		/* a line with code */
	bool *hot;		/* on the hottest path */
	int maxline;
};

struct site {
	const struct derived *d;
	const struct srclines *sl;
	const char *outdir, *base;
	struct srcfile **files;	/* pointers: they stay put while the array grows */
	size_t nfiles, capfiles;
	size_t top;
};

static struct srcfile *file_of(struct site *s, const char *name)
{
	char *path = source_path(name, s->base);
	for (size_t i = 0; i < s->nfiles; i++)
		if (strcmp(s->files[i]->path, path) == 0) {
			free(path);
			return s->files[i];
		}
	GROW(s->files, s->nfiles, s->capfiles);
	struct srcfile *f = s->files[s->nfiles++] = xcalloc(1, sizeof(*f));
	f->path = path;
	f->name = name;
	FILE *in = fopen(path, "r");
	if (in != NULL) {
		char *line = NULL;
		size_t cap = 0, tcap = 0;
		ssize_t n;
		while ((n = getline(&line, &cap, in)) >= 0) {
			if (n > 0 && line[n - 1] == '\n')
				line[n - 1] = '\0';
			GROW(f->text, f->ntext, tcap);
			f->text[f->ntext++] = xstrdup(line);
		}
		free(line);
		fclose(in);
		if (f->text == NULL)
			f->text = xcalloc(1, sizeof(char *));
	}
	return f;
}

static void file_grow(struct srcfile *f, int line)
{
	if (line <= f->maxline)
		return;
	f->count = xrealloc(f->count, (size_t)(line + 1) * sizeof(*f->count));
	f->exists = xrealloc(f->exists, (size_t)(line + 1) * sizeof(*f->exists));
	f->hot = xrealloc(f->hot, (size_t)(line + 1) * sizeof(*f->hot));
	for (int l = f->maxline + 1; l <= line; l++) {
		f->count[l] = 0;
		f->exists[l] = f->hot[l] = false;
	}
	f->maxline = line;
}

static void collect_files(struct site *s)
{
	for (size_t i = 0; i < s->d->nunits; i++) {
		const ipp_src_lines *u = &s->sl->units[i];
		for (size_t k = 0; k < u->nlines; k++) {
			struct srcfile *f = file_of(s, u->lines[k].file);
			file_grow(f, u->lines[k].line);
			f->exists[u->lines[k].line] = true;
			f->count[u->lines[k].line] += u->lines[k].count;
		}
	}
}

/* ------------------------------------------------------------------ */
/* The lines a path's steps execute                                     */
/* ------------------------------------------------------------------ */

/* Calls fn(file, line) for the source lines of step st: the lines of its
 * segment (x-lines) for a block or return site, else its own line. */
static void step_lines(const struct site *s, size_t unit, const struct step *st,
		       void (*fn)(void *, const char *, int), void *arg)
{
	const ipp_graph *g = s->d->units[unit].g;
	const ipp_xlines *x = s->sl->unit_x[unit];
	bool any = false;

	switch (st->kind) {
	case SK_SURR_ENTRY: case SK_CUT_ENTRY: case SK_RESTART_ENTRY:
	case SK_SURR_EXIT: case SK_CUT_EXIT: case SK_GEXIT: case SK_GENTRY:
		return;
	default:
		break;
	}
	if (st->kind == SK_BLOCK || st->kind == SK_RETSITE)
		for (size_t k = 0; x != NULL && k < x->nruns; k++)
			if (x->runs[k].vertex == st->origin)
				for (size_t j = 0; j < x->runs[k].nlines; j++) {
					fn(arg, x->runs[k].file, x->runs[k].lines[j]);
					any = true;
				}
	if (!any && ipp_vertex_line(g, st->origin) > 0 && ipp_vertex_file(g, st->origin) != NULL)
		fn(arg, ipp_vertex_file(g, st->origin), ipp_vertex_line(g, st->origin));
}

struct mark {
	struct site *s;
	const char *file;	/* the frame's file (the first line's) */
	int lo, hi;
	bool *on;		/* [non] lines of that file the frame executes */
	int non;
	struct srcfile *f;
};

static void mark_hot(void *arg, const char *file, int line)
{
	struct site *s = arg;
	struct srcfile *f = file_of(s, file);
	file_grow(f, line);
	f->hot[line] = true;
}

static void mark_frame(void *arg, const char *file, int line)
{
	struct mark *m = arg;
	struct srcfile *f = file_of(m->s, file);
	if (m->f == NULL)
		m->f = f;
	if (f != m->f)
		return;		/* a frame shows its first file's lines */
	file_grow(f, line);
	if (m->lo == 0 || line < m->lo)
		m->lo = line;
	if (line > m->hi)
		m->hi = line;
	if (line >= m->non) {
		m->on = xrealloc(m->on, (size_t)(line + 1) * sizeof(bool));
		memset(m->on + m->non, 0, (size_t)(line + 1 - m->non) * sizeof(bool));
		m->non = line + 1;
	}
	m->on[line] = true;
}

/* ------------------------------------------------------------------ */
/* Pages                                                                */
/* ------------------------------------------------------------------ */

static FILE *page_open(const struct site *s, const char *name, const char *title)
{
	char *path = xmalloc(strlen(s->outdir) + strlen(name) + 2);
	FILE *f;
	sprintf(path, "%s/%s", s->outdir, name);
	f = fopen(path, "w");
	if (f == NULL)
		cli_error("%s: %s", path, strerror(errno));
	free(path);
	if (f == NULL)
		return NULL;
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
	esc(f, title);
	fprintf(f, "</title>\n<link rel=\"stylesheet\" href=\"assets/d3-flamegraph.css\">\n"
		"<link rel=\"stylesheet\" href=\"assets/ipp-report.css\">\n</head>\n<body>\n");
	return f;
}

static int page_close(FILE *f, const char *scripts)
{
	fprintf(f, "%s</body>\n</html>\n", scripts);
	if (ferror(f) | (fclose(f) != 0)) {
		cli_error("write error: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static void frames_text(FILE *out, const ipp_graph *g, const struct frame *fr, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		if (k > 0)
			fputs(" &rarr; ", out);
		if (fr[k].context)
			fputs("<span class=\"frame-ctx\">", out);
		write_frame_name(out, g, &fr[k], true);
		if (fr[k].context)
			fputs("</span>", out);
	}
}

static double share(const struct derived *d, uint64_t count)
{
	double total = mpz_get_d(d->r.total);
	return total > 0 ? 100.0 * (double)count / total : 0.0;
}

static void source_block(FILE *out, const struct srcfile *f, int lo, int hi, const bool *on,
			 int non, bool ctx)
{
	fputs("<pre class=\"src\">", out);
	for (int l = lo; l <= hi; l++) {
		const char *text = f->text != NULL && (size_t)l <= f->ntext ? f->text[l - 1] : "";
		bool exists = l <= f->maxline && f->exists[l];
		fprintf(out, "<span class=\"l%s%s\" id=\"L%d\"><span class=\"n\">%d</span>",
			on != NULL && l < non && on[l] ? (ctx ? " ctx" : " on") : "",
			exists && f->count[l] == 0 ? " zero" : "", l, l);
		if (exists)
			fprintf(out, "<span class=\"c\">%" PRIu64 "</span>", f->count[l]);
		else
			fputs("<span class=\"c\"></span>", out);
		esc(out, text);
		fputs("</span>", out);
	}
	fputs("</pre>\n", out);
}

static int write_path_page(struct site *s, size_t k)
{
	const struct rec *x = &s->d->r.recs[k];
	const ipp_graph *g = s->d->units[x->mod].g;
	ipp_region_info info;
	struct frame *fr;
	size_t n = path_frames(g, &x->steps, &fr);
	char name[64], title[256];
	FILE *out;
	char *num = ipp_pnum_str(&x->num);

	snprintf(name, sizeof(name), "path-%zu.html", k + 1);
	snprintf(title, sizeof(title), "ipp: path %zu of %s", k + 1, s->d->program);
	out = page_open(s, name, title);
	if (out == NULL) {
		free(fr);
		free(num);
		return -1;
	}
	ipp_fin_region(s->d->units[x->mod].m->fin, x->region, &info);
	fprintf(out, "<p><a href=\"index.html\">&larr; index</a></p>\n<h1>Path %zu: %" PRIu64
		" executions (%.2f%%)%s</h1>\n<p class=\"summary\">module ", k + 1, x->count,
		share(s->d, x->count), x->partial ? ", partial" : "");
	esc(out, s->d->units[x->mod].m->map->module);
	fputs(", region ", out);
	esc(out, info.name);
	fprintf(out, ", number %.80s</p>\n<p class=\"frames\" id=\"frames\">", num);
	frames_text(out, g, fr, n);
	fputs("</p>\n<p class=\"note\">Highlighted: the lines the path executes, in order, one "
	      "block per frame (a run of the path in one activation of a function). Greyed: "
	      "the context prefix, how the function whose loop restarted was reached (counted "
	      "by an earlier path). The counts are every line's executions in the whole "
	      "profile.</p>\n", out);
	for (size_t i = 0; i < n; i++) {
		struct mark m = { s, NULL, 0, 0, NULL, 0, NULL };
		for (size_t j = fr[i].first_step; j < fr[i].first_step + fr[i].nsteps; j++)
			step_lines(s, x->mod, &x->steps.v[j], mark_frame, &m);
		if (i > 0)
			fprintf(out, "<div class=\"arrow\">%s</div>\n",
				fr[i].returned ? "&#8630; returns to" : "&darr; calls");
		fprintf(out, "<h3 class=\"frame\">");
		esc(out, fr[i].proc != IPP_NONE ? ipp_proc_name(g, fr[i].proc) : "?");
		if (m.f != NULL) {
			fputs(" <span class=\"summary\">", out);
			esc(out, m.f->name);
			fprintf(out, ":%d-%d</span>", m.lo, m.hi);
		}
		fputs("</h3>\n", out);
		if (m.f != NULL)
			source_block(out, m.f, m.lo, m.hi, m.on, m.non, fr[i].context);
		free(m.on);
	}
	free(fr);
	free(num);
	return page_close(out, "");
}

static int write_src_page(struct site *s, size_t i)
{
	struct srcfile *f = s->files[i];
	char name[64], title[4200];
	FILE *out;
	size_t found = 0, hit = 0;

	snprintf(name, sizeof(name), "src-%zu.html", i + 1);
	snprintf(title, sizeof(title), "ipp: %s", f->name);
	out = page_open(s, name, title);
	if (out == NULL)
		return -1;
	for (int l = 1; l <= f->maxline; l++)
		if (f->exists[l]) {
			found++;
			hit += f->count[l] > 0;
		}
	fputs("<p><a href=\"index.html\">&larr; index</a></p>\n<h1>", out);
	esc(out, f->name);
	fprintf(out, "</h1>\n<p class=\"summary\">%zu of %zu lines executed. Each line's count is "
		"gcov's (ipp export --lcov gives the same); highlighted: the lines of the "
		"<a href=\"path-1.html\">hottest path</a>.</p>\n", hit, found);
	if (f->text == NULL) {
		fputs("<p class=\"note\">The source is not available here: ", out);
		esc(out, f->path);
		fputs(" (ipp html --base-directory names where relative names are).</p>\n", out);
	}
	int last = f->text != NULL && (int)f->ntext > f->maxline ? (int)f->ntext : f->maxline;
	if (last > 0)
		source_block(out, f, 1, last, f->hot, f->maxline + 1, false);
	return page_close(out, "");
}

/* ------------------------------------------------------------------ */
/* The flame graph's data                                               */
/* ------------------------------------------------------------------ */

struct node {
	char *name;
	uint64_t value;
	size_t *kids, nkids, capkids;
};

struct tree {
	struct node *n;
	size_t nn, cap;
};

static size_t tree_child(struct tree *t, size_t parent, const char *name)
{
	for (size_t i = 0; i < t->n[parent].nkids; i++)
		if (strcmp(t->n[t->n[parent].kids[i]].name, name) == 0)
			return t->n[parent].kids[i];
	GROW(t->n, t->nn, t->cap);
	memset(&t->n[t->nn], 0, sizeof(t->n[0]));
	t->n[t->nn].name = xstrdup(name);
	GROW(t->n[parent].kids, t->n[parent].nkids, t->n[parent].capkids);
	t->n[parent].kids[t->n[parent].nkids++] = t->nn;
	return t->nn++;
}

static void tree_write(FILE *out, const struct tree *t, size_t i)
{
	const struct node *n = &t->n[i];
	fputs("{\"name\":\"", out);
	for (const char *p = n->name; *p; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', out);
		if ((unsigned char)*p >= 0x20)
			fputc(*p, out);
	}
	fprintf(out, "\",\"value\":%" PRIu64, n->value);
	if (n->nkids > 0) {
		fputs(",\"children\":[", out);
		for (size_t k = 0; k < n->nkids; k++) {
			if (k > 0)
				fputc(',', out);
			tree_write(out, t, n->kids[k]);
		}
		fputc(']', out);
	}
	fputc('}', out);
}

static int write_data(struct site *s)
{
	struct tree t = { NULL, 0, 0 };
	char *path = xmalloc(strlen(s->outdir) + 16);
	FILE *out;
	int rc = 0;

	GROW(t.n, t.nn, t.cap);
	memset(&t.n[0], 0, sizeof(t.n[0]));
	t.n[0].name = xstrdup("all paths");
	t.nn = 1;
	for (size_t k = 0; k < s->d->r.nrecs; k++) {
		const struct rec *x = &s->d->r.recs[k];
		const ipp_graph *g = s->d->units[x->mod].g;
		struct frame *fr;
		size_t n = path_frames(g, &x->steps, &fr), at = 0;
		t.n[0].value += x->count;
		for (size_t i = 0; i < n; i++) {
			char *name;
			size_t len;
			FILE *mem = open_memstream(&name, &len);
			write_frame_name(mem, g, &fr[i], true);
			fclose(mem);
			at = tree_child(&t, at, name);
			t.n[at].value += x->count;
			free(name);
		}
		free(fr);
	}
	sprintf(path, "%s/data.js", s->outdir);
	out = fopen(path, "w");
	if (out == NULL) {
		cli_error("%s: %s", path, strerror(errno));
		rc = -1;
	} else {
		fputs("/* the prefix tree of the recorded paths' frames, for d3-flame-graph */\n"
		      "var IPP_FLAME = ", out);
		tree_write(out, &t, 0);
		fputs(";\n", out);
		if (ferror(out) | (fclose(out) != 0)) {
			cli_error("%s: write error", path);
			rc = -1;
		}
	}
	for (size_t i = 0; i < t.nn; i++) {
		free(t.n[i].name);
		free(t.n[i].kids);
	}
	free(t.n);
	free(path);
	return rc;
}

static int write_index(struct site *s, size_t nshow)
{
	const struct derived *d = s->d;
	FILE *out;
	char title[4200];

	snprintf(title, sizeof(title), "ipp: %s", d->program);
	out = page_open(s, "index.html", title);
	if (out == NULL)
		return -1;
	fputs("<h1>ipp profile of ", out);
	esc(out, d->program);
	gmp_fprintf(out, "</h1>\n<p class=\"summary\">profile %s: %Zd executions of %zu "
		    "distinct paths in %zu unit%s.</p>\n", d->profile, d->r.total, d->r.nrecs,
		    d->nunits, d->nunits == 1 ? "" : "s");
	fputs("<h2>Flame graph of the paths</h2>\n<p class=\"note\">Each bar is a frame of the "
	      "paths: a run of a path in one activation of a function, named after it and its "
	      "lines; the bars above it are the frames that followed it (a call, or a return "
	      "marked \"(return)\"); a bar's width is the executions of the paths through it. "
	      "Click a bar to zoom.</p>\n<div id=\"flame\"></div>\n", out);
	fprintf(out, "<h2>The %zu hottest paths</h2>\n<ol class=\"paths\">\n", nshow);
	for (size_t k = 0; k < nshow; k++) {
		const struct rec *x = &d->r.recs[k];
		const ipp_graph *g = d->units[x->mod].g;
		struct frame *fr;
		size_t n = path_frames(g, &x->steps, &fr);
		fprintf(out, "<li id=\"hot-%zu\"><a href=\"path-%zu.html\">%" PRIu64 " executions "
			"(%.2f%%)</a>%s: <span class=\"frames\">", k + 1, k + 1, x->count,
			share(d, x->count), x->partial ? ", partial" : "");
		frames_text(out, g, fr, n);
		fputs("</span></li>\n", out);
		free(fr);
	}
	fputs("</ol>\n<h2>Source files</h2>\n<table class=\"files\">\n<tr><th>file</th>"
	      "<th>lines executed</th></tr>\n", out);
	for (size_t i = 0; i < s->nfiles; i++) {
		const struct srcfile *f = s->files[i];
		size_t found = 0, hit = 0;
		for (int l = 1; l <= f->maxline; l++)
			if (f->exists[l]) {
				found++;
				hit += f->count[l] > 0;
			}
		fprintf(out, "<tr><td><a href=\"src-%zu.html\">", i + 1);
		esc(out, f->name);
		fprintf(out, "</a></td><td>%zu of %zu</td></tr>\n", hit, found);
	}
	fputs("</table>\n", out);
	return page_close(out, "<script src=\"assets/d3.min.js\"></script>\n"
			  "<script src=\"assets/d3-flamegraph.umd.min.js\"></script>\n"
			  "<script src=\"data.js\"></script>\n"
			  "<script src=\"assets/ipp-report.js\"></script>\n");
}

static int write_site(struct site *s)
{
	size_t nshow = s->top < s->d->r.nrecs ? s->top : s->d->r.nrecs;

	collect_files(s);
	if (nshow > 0) {
		const struct rec *x = &s->d->r.recs[0];
		for (size_t j = 0; j < x->steps.n; j++)
			if (j >= x->steps.context)
				step_lines(s, x->mod, &x->steps.v[j], mark_hot, s);
	}
	for (size_t k = 0; k < nshow; k++)
		if (write_path_page(s, k) < 0)
			return -1;
	/* the path pages may have read more files (lines outside the maps) */
	for (size_t i = 0; i < s->nfiles; i++)
		if (write_src_page(s, i) < 0)
			return -1;
	if (write_data(s) < 0 || write_index(s, nshow) < 0)
		return -1;
	return 0;
}

int cmd_html(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "top", required_argument, NULL, 'n' },
		{ "base-directory", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd = argv[0], *outdir = NULL;
	struct site s;
	struct derived d;
	struct operands ops;
	struct srclines sl;
	int c, status;

	memset(&s, 0, sizeof(s));
	s.top = 10;
	while ((c = getopt_long(argc, argv, "o:n:b:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (parse_count(optarg, &s.top) < 0)
				return cmd_usage_error(cmd, html_usage, "--top: expected a positive "
						       "count, got '%s'", optarg);
			break;
		case 'b':
			s.base = optarg;
			break;
		default:
			status = cli_common_option(c, cmd, html_usage, NULL, &outdir);
			if (status != CLI_CONTINUE)
				return status;
		}
	}
	if (outdir == NULL)
		return cmd_usage_error(cmd, html_usage, "no output directory: -o DIR");
	status = cli_operands(argc, argv, cmd, html_usage, &ops);
	if (status != CLI_CONTINUE)
		return status;
	if (mkdir(outdir, 0777) != 0 && errno != EEXIST) {
		cli_operands_free(&ops);
		return cli_error("%s: %s", outdir, strerror(errno));
	}
	if (html_assets_copy(outdir) < 0) {
		cli_operands_free(&ops);
		return EXIT_FAILURE;
	}
	status = derived_load(&d, &ops, DL_EVERY_MAP | DL_DERIVE_EMPTY | DL_RECORDS);
	cli_operands_free(&ops);
	if (status < 0)
		return EXIT_FAILURE;
	status = EXIT_FAILURE;
	if (export_decode_all(&d) == 0 && srclines_load(&sl, &d) == 0) {
		s.d = &d;
		s.sl = &sl;
		s.outdir = outdir;
		if (write_site(&s) == 0)
			status = EXIT_SUCCESS;
		srclines_free(&sl);
	}
	for (size_t i = 0; i < s.nfiles; i++) {
		struct srcfile *f = s.files[i];
		for (size_t l = 0; l < f->ntext; l++)
			free(f->text[l]);
		free(f->text);
		free(f->path);
		free(f->count);
		free(f->exists);
		free(f->hot);
		free(f);
	}
	free(s.files);
	derived_free(&d);
	return status;
}
