/* text.h -- helpers of the text writers: a growable string, a table
 * printer that pads columns to their widest cell, and the compact
 * function:line form of a decoded path.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_DECODER_TEXT_H
#define IPP_DECODER_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <gmp.h>

#include "ipp_core.h"
#include "program.h"
#include "steps.h"

/* A growable string; { 0 } is empty (s may stay NULL). */
struct sbuf {
	char *s;
	size_t len, cap;
};
void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Rows of cells; columns padded to their widest cell. */
struct table {
	size_t ncols;
	unsigned right;		/* bit i: column i is right-aligned */
	char **cells;		/* row-major */
	size_t nrows, cap;
	char **after;		/* per row: a line printed under it, or NULL */
};
void table_init(struct table *t, size_t ncols, unsigned right);
/* Adds a row; its ncols cells (NULL for empty) are copied. */
void table_row(struct table *t, const char *const *cells);
/* Sets the line printed under the last row (takes ownership). */
void table_after(struct table *t, char *line);
void table_print(FILE *out, const struct table *t, int indent);
void table_free(struct table *t);

/* malloc'd decimal strings. */
char *mpz_str(const mpz_t v);
char *u64_str(uint64_t v);
/* "file:line", "file", or "?" for a G* vertex; malloc'd. */
char *location(const ipp_graph *g, ipp_id v);
const char *plural(size_t n, const char *one, const char *many);

/* The path as "main:34 (loop restart) -> main:36 (call) -> ..." (see
 * path_text.c), on one line; malloc'd. */
char *path_compact(const struct prog_module *m, const struct steps *s);

/* Where inlined copy p lies: " (inlined into main:36)", outermost call
 * site last when copies nest; nothing if p is not an inlined copy. */
void inlined_text(struct sbuf *b, const ipp_graph *g, ipp_id p);

/* A note to add to the step that holds s->v[step] (or, for a synthetic
 * vertex, to the step it bounds). */
struct path_note {
	size_t step;
	const char *text;
};

/* The path as text for a reader: the step form when it fits in 'width'
 * columns after 'indent' spaces, else the folded form (one piece per visit
 * of a function: "pow 20-25 (back edge)"); broken between pieces before
 * 'width' columns (0: one line, never folded), continuation lines indented
 * by indent + 4.  The first line is indented too; no final newline.
 * 'extra' notes are added (see write_text.c: what tells two paths apart).
 * malloc'd. */
char *path_render(const struct prog_module *m, const struct steps *s,
		  const struct path_note *extra, size_t nextra, size_t width, size_t indent);

/* Where G*fin edge e (IPP_NONE: the path stops) leads, in words, with
 * 'level' of detail as below (edge_targets(m, e1, e2, 1, ...) gives e1
 * this text at level 1 if e2's reads differently there, else at level 2).
 * Malloc'd. */
char *edge_target(const struct prog_module *m, ipp_id e, int level);

/* Where G*fin edges e1 and e2 (IPP_NONE: the path stops) lead, in words
 * ("fig4.c:23", "the back edge to fig4.c:34", "the return of pow", ...),
 * with at least 'level' of detail (0 file:line, 1 file:line:column, 2 the
 * successor's index too) and as much more as the two need to read
 * differently when e1 != e2.  Both malloc'd. */
void edge_targets(const struct prog_module *m, ipp_id e1, ipp_id e2, int level, char **d1,
		  char **d2);

/* The width text output fits paths in: the terminal's columns when 'out'
 * is standard output on a terminal, else $COLUMNS, else 0 (no limit: a
 * file or a pipe gets each path on one line). */
size_t text_width(FILE *out);
/* --width=N: 0 (no limit) or 20 to 100000.  Returns 0, or -1. */
int parse_width(const char *s, size_t *out);

#endif
