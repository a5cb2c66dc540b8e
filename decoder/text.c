/* text.c -- helpers of the text writers (text.h): growable strings,
 * padded tables, number and location formatting.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "text.h"
#include "util.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (b->len + (size_t)n + 1 > b->cap) {
		b->cap = 2 * (b->len + (size_t)n + 1);
		b->s = xrealloc(b->s, b->cap);
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

char *mpz_str(const mpz_t v)
{
	return mpz_get_str(NULL, 10, v);
}

char *u64_str(uint64_t v)
{
	char buf[24];
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return xstrdup(buf);
}

char *location(const ipp_graph *g, ipp_id v)
{
	const char *file = ipp_vertex_file(g, v);
	int line = ipp_vertex_line(g, v);
	struct sbuf b = { 0 };

	if (file == NULL && line <= 0)
		return xstrdup("?");
	sb_printf(&b, "%s", file != NULL ? file : "?");
	if (line > 0)
		sb_printf(&b, ":%d", line);
	return b.s;
}

const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

void table_init(struct table *t, size_t ncols, unsigned right)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	t->right = right;
}

void table_row(struct table *t, const char *const *cells)
{
	if (t->nrows >= t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->cells = xrealloc(t->cells, t->cap * t->ncols * sizeof(char *));
		t->after = xrealloc(t->after, t->cap * sizeof(char *));
	}
	for (size_t c = 0; c < t->ncols; c++)
		t->cells[t->nrows * t->ncols + c] = xstrdup(cells[c] != NULL ? cells[c] : "");
	t->after[t->nrows] = NULL;
	t->nrows++;
}

void table_after(struct table *t, char *line)
{
	t->after[t->nrows - 1] = line;
}

void table_print(FILE *out, const struct table *t, int indent)
{
	size_t *w = xcalloc(t->ncols, sizeof(size_t));

	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++) {
			size_t len = strlen(t->cells[r * t->ncols + c]);
			if (len > w[c])
				w[c] = len;
		}
	for (size_t r = 0; r < t->nrows; r++) {
		/* trailing empty left-aligned cells are not padded */
		size_t last = t->ncols;
		while (last > 0 && !(t->right >> (last - 1) & 1) &&
		       t->cells[r * t->ncols + last - 1][0] == '\0')
			last--;
		fprintf(out, "%*s", indent, "");
		for (size_t c = 0; c < last; c++) {
			const char *s = t->cells[r * t->ncols + c];
			bool right = t->right >> c & 1;
			int pad = (int)(w[c] - strlen(s));
			if (c > 0)
				fputs("  ", out);
			if (right)
				fprintf(out, "%*s%s", pad, "", s);
			else if (c + 1 < last)
				fprintf(out, "%s%*s", s, pad, "");
			else
				fputs(s, out);
		}
		putc('\n', out);
		if (t->after[r] != NULL)
			fprintf(out, "%s\n", t->after[r]);
	}
	free(w);
}

void table_free(struct table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	for (size_t i = 0; i < t->nrows; i++)
		free(t->after[i]);
	free(t->cells);
	free(t->after);
}

size_t text_width(FILE *out)
{
	struct winsize ws;
	const char *cols = getenv("COLUMNS");
	unsigned long v;
	char *end;

	if (out == stdout && isatty(STDOUT_FILENO) &&
	    ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	if (cols != NULL && *cols >= '1' && *cols <= '9') {
		v = strtoul(cols, &end, 10);
		if (*end == '\0' && v < 100000)
			return v;
	}
	return 0;
}

int parse_width(const char *s, size_t *out)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9')
		return -1;
	v = strtoul(s, &end, 10);
	if (*end != '\0' || v > 100000 || (v > 0 && v < 20))
		return -1;
	*out = v;
	return 0;
}
