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
	struct sbuf notes;	/* ", "-separated */
};

static void note(struct item *it, const char *text)
{
	/* no duplicates: "(call)" once even if two call vertices share a line */
	const char *p = it->notes.s;
	size_t len = strlen(text);
	while (p != NULL && (p = strstr(p, text)) != NULL) {
		bool starts = p == it->notes.s || (p >= it->notes.s + 2 && p[-2] == ',');
		if (starts && (p[len] == '\0' || p[len] == ','))
			return;
		p += len;
	}
	sb_printf(&it->notes, "%s%s", it->notes.len ? ", " : "", text);
}

char *path_compact(const struct prog_module *m, const struct steps *s)
{
	const ipp_graph *g = m->map->graph;
	struct item *items = NULL;
	size_t n = 0, cap = 0;
	const char *pending = NULL;	/* a note for the next step */
	bool force_new = false;
	struct sbuf b = { 0 };

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
			continue;
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
				continue;
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
			if (st->callee_name != NULL) {
				struct sbuf t = { 0 };
				sb_printf(&t, "summary: %s", st->callee_name);
				note(it, t.s);
				free(t.s);
			} else {
				note(it, "summary");
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
	}
	if (s->partial && n > 0)
		note(&items[n - 1], "stopped");

	for (size_t i = 0; i < n; i++) {
		const char *name = items[i].proc != IPP_NONE ? ipp_proc_name(g, items[i].proc) : "?";
		bool opens = items[i].context && i == 0;
		bool closes = items[i].context && (i + 1 == n || !items[i + 1].context);
		sb_printf(&b, "%s%s%s", i ? " -> " : "", opens ? "[" : "", name);
		if (items[i].line > 0)
			sb_printf(&b, ":%d", items[i].line);
		if (items[i].notes.len)
			sb_printf(&b, " (%s)", items[i].notes.s);
		if (closes)
			sb_printf(&b, "]");
		free(items[i].notes.s);
	}
	free(items);
	if (b.s == NULL)
		return xstrdup("(empty path)");
	return b.s;
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

void edge_targets(const struct prog_module *m, ipp_id e1, ipp_id e2, char **d1, char **d2)
{
	for (int level = 0;; level++) {
		*d1 = edge_target_level(m, e1, level);
		*d2 = edge_target_level(m, e2, level);
		if (level == 2 || e1 == e2 || strcmp(*d1, *d2) != 0)
			return;
		free(*d1);
		free(*d2);
	}
}
