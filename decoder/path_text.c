/* path_text.c -- a decoded path in the compact text form:
 * function:line steps joined by " -> ".
 *
 * Consecutive vertices on the same function and line make one step (a
 * vertex with no line joins the step before it in the same function), and
 * the vertices that only bound the path -- the surrogate Entry_P and
 * GExit_P, split halves -- become notes in parentheses on the step they
 * belong to:
 *
 *   main:34 (loop restart) -> main:36 (call) -> pow:20 -> ... -> pow:25 (back edge)
 *
 * In context modes the context prefix of a path (the steps before its last
 * surrogate entry, already counted by an earlier path) is put in brackets:
 *
 *   [main:34 (loop restart) -> main:36 (call)] -> pow:23 (loop restart) -> ...
 *
 * docs/REPORT.md lists the notes.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "text.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* A step: consecutive vertices on one function:line. */
struct item {
	ipp_id proc;
	int line;
	bool context;		/* part of the context prefix */
	char **notes;		/* in order, no duplicates */
	size_t nnotes;
};

static void note(struct item *it, const char *text)
{
	/* no duplicates: "(call)" once even if two call vertices share a line */
	for (size_t i = 0; i < it->nnotes; i++)
		if (strcmp(it->notes[i], text) == 0)
			return;
	it->notes = xrealloc(it->notes, (it->nnotes + 1) * sizeof(it->notes[0]));
	it->notes[it->nnotes++] = xstrdup(text);
}

static void items_free(struct item *items, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < items[i].nnotes; k++)
			free(items[i].notes[k]);
		free(items[i].notes);
	}
	free(items);
}

static bool tail_call(const ipp_graph *g, ipp_id origin)
{
	return origin >= 0 && ipp_vertex_kind(g, origin) == IPP_V_CALL &&
	       (ipp_call_flags(g, origin) & IPP_CALL_TAIL);
}

/* The steps of path s; extra[k] is noted on the step holding s->v[at[k]]. */
static struct item *build_items(const struct prog_module *m, const struct steps *s,
				const struct path_note *extra, size_t nextra, size_t *nitems)
{
	const ipp_graph *g = m->map->graph;
	struct item *items = NULL;
	size_t n = 0, cap = 0;
	const char *pending = NULL;	/* a note for the next step */
	bool force_new = false;

	for (size_t i = 0; i < s->n; i++) {
		const struct step *st = &s->v[i];
		struct item *last = n > 0 ? &items[n - 1] : NULL, *it;
		bool context = i < s->context;
		int line;

		/* the active suffix never shares a step with the context prefix */
		if (i == s->context && i > 0)
			force_new = true;
		switch (st->kind) {
		case SK_SURR_ENTRY:
		case SK_CUT_ENTRY:
		case SK_RESTART_ENTRY:
			pending = st->kind == SK_SURR_ENTRY ? "loop restart" :
				  st->kind == SK_CUT_ENTRY ? "cut restart" : "restart";
			force_new = true;
			it = NULL;
			goto extras;
		case SK_SURR_EXIT:
		case SK_CUT_EXIT:
		case SK_GEXIT:
		case SK_SPLIT:
		case SK_SPLIT_SURR:
			if (last != NULL && !force_new) {
				if (st->kind == SK_SURR_EXIT)
					note(last, "back edge");
				else if (st->kind == SK_CUT_EXIT)
					note(last, "cut edge");
				else if (st->kind == SK_GEXIT)
					note(last, "no return");
				else if (st->kind == SK_SPLIT_SURR)
					note(last, "later iteration");
				it = last;
				goto extras;
			}
			break;
		default:
			break;
		}
		line = ipp_vertex_line(g, st->origin);
		if (!force_new && last != NULL && last->proc == st->proc &&
		    (line <= 0 || line == last->line)) {
			it = last;
		} else {
			GROW(items, n, cap);
			it = &items[n++];
			memset(it, 0, sizeof(*it));
			it->proc = st->proc;
			it->line = line > 0 ? line : 0;
			it->context = context;
		}
		force_new = false;
		if (pending != NULL) {
			note(it, pending);
			pending = NULL;
		}
		switch (st->kind) {
		case SK_SPLIT_SURR:
			note(it, "later iteration");
			break;
		case SK_CALL:
			note(it, "call");
			break;
		case SK_SUMMARY:
			/* a tail call: the caller's path ends with its return,
			 * recorded before the call (docs/PROTOCOL.md) */
			if (st->callee_name != NULL) {
				struct sbuf t = { 0 };
				sb_printf(&t, "%s: %s", tail_call(g, st->origin) ? "tail call" : "summary",
					  st->callee_name);
				note(it, t.s);
				free(t.s);
			} else {
				note(it, tail_call(g, st->origin) ? "tail call" : "summary");
			}
			break;
		case SK_EXIT:
			note(it, "return");
			break;
		case SK_GENTRY:
			note(it, "gentry");
			break;
		default:
			break;
		}
extras:
		/* a note about a synthetic vertex goes to the step it bounds */
		if (it == NULL)
			it = last;
		for (size_t k = 0; k < nextra && it != NULL; k++)
			if (extra[k].step == i)
				note(it, extra[k].text);
	}
	if (s->partial && n > 0)
		note(&items[n - 1], "stopped");
	*nitems = n;
	return items;
}

static void notes_text(struct sbuf *b, char *const *notes, size_t n)
{
	if (n == 0)
		return;
	sb_printf(b, " (");
	for (size_t i = 0; i < n; i++)
		sb_printf(b, "%s%s", i ? ", " : "", notes[i]);
	sb_printf(b, ")");
}

/* A token: one piece of the path between two " -> ". */
struct tokens {
	char **v;
	size_t n, cap;
};

static void token_add(struct tokens *t, char *s)
{
	GROW(t->v, t->n, t->cap);
	t->v[t->n++] = s;
}

static const char *proc_of(const ipp_graph *g, ipp_id p)
{
	return p != IPP_NONE ? ipp_proc_name(g, p) : "?";
}

void inlined_text(struct sbuf *b, const ipp_graph *g, ipp_id p)
{
	for (int depth = 0; p != IPP_NONE && (ipp_proc_flags(g, p) & IPP_PROC_INLINED); depth++) {
		ipp_id c = ipp_proc_inline_site(g, p);
		if (c == IPP_NONE)
			break;
		p = ipp_vertex_proc(g, c);
		sb_printf(b, "%s%s:%d", depth ? ", " : " (inlined into ", proc_of(g, p),
			  ipp_vertex_line(g, c));
		if (!(ipp_proc_flags(g, p) & IPP_PROC_INLINED))
			sb_printf(b, ")");
	}
}

/* The step form: "main:34 (loop restart)" per step; a step in an inlined
 * copy "power:23 (inlined into main:36)". */
static void step_tokens(const ipp_graph *g, const struct item *items, size_t n,
			struct tokens *t)
{
	for (size_t i = 0; i < n; i++) {
		struct sbuf b = { 0 };
		bool opens = items[i].context && i == 0;
		bool closes = items[i].context && (i + 1 == n || !items[i + 1].context);

		sb_printf(&b, "%s%s", opens ? "[" : "", proc_of(g, items[i].proc));
		if (items[i].line > 0)
			sb_printf(&b, ":%d", items[i].line);
		inlined_text(&b, g, items[i].proc);
		notes_text(&b, items[i].notes, items[i].nnotes);
		if (closes)
			sb_printf(&b, "]");
		token_add(t, b.s);
	}
}

/* The folded form: "deflate_slow 2010-2012,2015 (back edge)" per visit of a
 * function (its consecutive steps).  Lines are listed in path order, a run
 * of consecutive lines as a range.  The notes of a visit's first and last
 * steps are written as they are ("call" on the last step left out: the
 * next visit is the callee), those of the steps between with their line. */
static void fold_tokens(const ipp_graph *g, const struct item *items, size_t n,
			struct tokens *t)
{
	for (size_t i = 0; i < n;) {
		size_t j = i + 1, prev = 0;
		struct sbuf b = { 0 };
		char **notes = NULL;
		size_t nnotes = 0;
		bool opens = items[i].context && i == 0, closes, first = true;

		while (j < n && items[j].proc == items[i].proc &&
		       items[j].context == items[i].context)
			j++;
		closes = items[i].context && (j == n || !items[j].context);
		sb_printf(&b, "%s%s", opens ? "[" : "", proc_of(g, items[i].proc));
		inlined_text(&b, g, items[i].proc);
		for (size_t k = i; k < j; k++) {
			int line = items[k].line;
			bool run = line > 0 && !first && (size_t)line == prev + 1;

			if (line > 0 && (size_t)line != prev) {
				bool next_run = k + 1 < j && items[k + 1].line == line + 1;
				if (!run)
					sb_printf(&b, "%s%d", first ? " " : ",", line);
				else if (!next_run)
					sb_printf(&b, "-%d", line);
				first = false;
				prev = (size_t)line;
			}
			for (size_t q = 0; q < items[k].nnotes; q++) {
				const char *text = items[k].notes[q];
				struct sbuf nb = { 0 };
				if (k + 1 == j && j < n && strcmp(text, "call") == 0)
					continue;
				if (k == i || k + 1 == j || line <= 0)
					sb_printf(&nb, "%s", text);
				else
					sb_printf(&nb, "%d: %s", line, text);
				notes = xrealloc(notes, (nnotes + 1) * sizeof(notes[0]));
				notes[nnotes++] = nb.s;
			}
		}
		notes_text(&b, notes, nnotes);
		for (size_t q = 0; q < nnotes; q++)
			free(notes[q]);
		free(notes);
		if (closes)
			sb_printf(&b, "]");
		token_add(t, b.s);
		i = j;
	}
}

/* Joins the tokens with " -> ", the first line indented by 'indent', lines
 * broken between tokens before 'width' columns (0: never), continuation
 * lines indented by indent + 4. */
static char *join(struct tokens *t, size_t width, size_t indent)
{
	struct sbuf b = { 0 };
	size_t col = indent;

	sb_printf(&b, "%*s", (int)indent, "");
	for (size_t i = 0; i < t->n; i++) {
		size_t len = strlen(t->v[i]);
		if (i > 0) {
			if (width > 0 && col + 4 + len > width) {
				sb_printf(&b, " ->\n%*s", (int)indent + 4, "");
				col = indent + 4;
			} else {
				sb_printf(&b, " -> ");
				col += 4;
			}
		}
		sb_printf(&b, "%s", t->v[i]);
		col += len;
		free(t->v[i]);
	}
	free(t->v);
	memset(t, 0, sizeof(*t));
	return b.s != NULL ? b.s : xstrdup("");
}

char *path_render(const struct prog_module *m, const struct steps *s,
		  const struct path_note *extra, size_t nextra, size_t width, size_t indent)
{
	const ipp_graph *g = m->map->graph;
	struct tokens t = { 0 };
	size_t n, len = indent;
	struct item *items = build_items(m, s, extra, nextra, &n);
	char *text;

	if (n == 0) {
		items_free(items, n);
		token_add(&t, xstrdup("(empty path)"));
		return join(&t, width, indent);
	}
	step_tokens(g, items, n, &t);
	for (size_t i = 0; i < t.n; i++)
		len += strlen(t.v[i]) + (i ? 4 : 0);
	if (width > 0 && len > width) {
		/* long: fold each visit of a function onto one piece */
		for (size_t i = 0; i < t.n; i++)
			free(t.v[i]);
		t.n = 0;
		fold_tokens(g, items, n, &t);
	}
	text = join(&t, width, indent);
	items_free(items, n);
	return text;
}

char *path_compact(const struct prog_module *m, const struct steps *s)
{
	return path_render(m, s, NULL, 0, 0, 0);
}

/* ------------------------------------------------------------------ */
/* Where an edge leads                                                  */
/* ------------------------------------------------------------------ */

/* Index of edge e among the successors of its source, from 1. */
static size_t succ_index(const ipp_fin *fin, ipp_id e)
{
	ipp_id v = ipp_fin_esrc(fin, e);
	for (size_t i = 0; i < ipp_fin_nsucc(fin, v); i++)
		if (ipp_fin_succ(fin, v, i) == e)
			return i + 1;
	return 0;
}

/* The edge's target in words, at one of three levels of detail:
 * 0 "FILE:LINE", 1 "FILE:LINE:COL", 2 "successor I of N (FILE:LINE:COL)". */
static char *edge_target_level(const struct prog_module *m, ipp_id e, int level)
{
	const ipp_graph *g = m->map->graph;
	const ipp_fin *fin = m->fin;
	struct sbuf b = { 0 };
	ipp_id dst, origin;
	enum ipp_ekind k;

	if (e == IPP_NONE)
		return xstrdup("nowhere (the path stops)");
	k = ipp_fin_ekind(fin, e);
	dst = ipp_fin_edst(fin, e);
	origin = ipp_fin_vorigin(fin, dst);
	if (k == IPP_E_SURR_EXIT) {
		ipp_id o = ipp_fin_eorigin(fin, e);
		bool cut = o != IPP_NONE && ipp_fin_is_cut_vertex(fin, ipp_edge_dst(g, o));
		char *loc = o != IPP_NONE ? location(g, ipp_edge_dst(g, o)) : xstrdup("?");
		sb_printf(&b, "%s to %s", cut ? "the cut" : "the back edge", loc);
		free(loc);
	} else if (k == IPP_E_SURR_ENTRY) {
		char *loc = location(g, origin);
		sb_printf(&b, "a restart at %s", loc);
		free(loc);
	} else if (ipp_fin_vkind(fin, dst) == IPP_V_EXIT) {
		sb_printf(&b, "the return of %s", ipp_proc_name(g, ipp_fin_vproc(fin, dst)));
	} else if (ipp_fin_vkind(fin, dst) == IPP_V_GEXIT) {
		sb_printf(&b, "the end of the path (no return)");
	} else {
		char *loc = origin != IPP_NONE ? location(g, origin) : xstrdup("?");
		int col = origin != IPP_NONE ? ipp_vertex_col(g, origin) : 0;
		sb_printf(&b, "%s", loc);
		if (level >= 1 && col > 0)
			sb_printf(&b, ":%d", col);
		free(loc);
	}
	if (level >= 2) {
		struct sbuf t = { 0 };
		sb_printf(&t, "successor %zu of %zu (%s)", succ_index(fin, e),
			  ipp_fin_nsucc(fin, ipp_fin_esrc(fin, e)), b.s);
		free(b.s);
		return t.s;
	}
	return b.s;
}

char *edge_target(const struct prog_module *m, ipp_id e, int level)
{
	return edge_target_level(m, e, level);
}

void edge_targets(const struct prog_module *m, ipp_id e1, ipp_id e2, int level, char **d1,
		  char **d2)
{
	for (;; level++) {
		*d1 = edge_target_level(m, e1, level);
		*d2 = edge_target_level(m, e2, level);
		if (level == 2 || e1 == e2 || strcmp(*d1, *d2) != 0)
			return;
		free(*d1);
		free(*d2);
	}
}
