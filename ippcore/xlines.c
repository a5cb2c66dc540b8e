/* xlines.c -- reading the `x-lines` extension key of map documents
 * (ipp_lines.h, docs/FORMAT.md section 2.9) with libyaml's event parser.
 *
 * Only three keys of each document's top-level mapping are read: `module`,
 * `checksum` and `x-lines`; every other value is skipped as a whole node,
 * so this reader depends on nothing else of the map's layout (the map
 * reader proper, map.c, ignores `x-` keys).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "internal.h"
#include "ipp_lines.h"

#include <errno.h>
#include <limits.h>
#include <yaml.h>

struct xreader {
	yaml_parser_t parser;
	yaml_event_t ev;
	bool have;		/* ev holds the lookahead event */
	const char *name;
	char *err;
	size_t errlen;
	bool failed;
};

static int fail(struct xreader *r, const char *what)
{
	if (!r->failed) {
		size_t line = r->have ? r->ev.start_mark.line + 1 : r->parser.problem_mark.line + 1;
		ipp_seterr(r->err, r->errlen, "%s:%zu: x-lines: %s", r->name, line, what);
	}
	r->failed = true;
	return -1;
}

/* The lookahead event, NULL after an error. */
static const yaml_event_t *peek(struct xreader *r)
{
	if (r->failed)
		return NULL;
	if (!r->have) {
		if (!yaml_parser_parse(&r->parser, &r->ev)) {
			ipp_seterr(r->err, r->errlen, "%s:%zu: %s", r->name,
				   r->parser.problem_mark.line + 1,
				   r->parser.problem ? r->parser.problem : "invalid YAML");
			r->failed = true;
			return NULL;
		}
		r->have = true;
	}
	return &r->ev;
}

static void next(struct xreader *r)
{
	if (r->have) {
		yaml_event_delete(&r->ev);
		r->have = false;
	}
}

static int expect(struct xreader *r, yaml_event_type_t type, const char *what)
{
	const yaml_event_t *ev = peek(r);
	if (ev == NULL)
		return -1;
	if (ev->type != type)
		return fail(r, what);
	next(r);
	return 0;
}

/* Skips one node (a scalar, or a whole sequence or mapping). */
static int skip_node(struct xreader *r)
{
	int depth = 0;
	do {
		const yaml_event_t *ev = peek(r);
		if (ev == NULL)
			return -1;
		if (ev->type == YAML_SEQUENCE_START_EVENT || ev->type == YAML_MAPPING_START_EVENT)
			depth++;
		else if (ev->type == YAML_SEQUENCE_END_EVENT || ev->type == YAML_MAPPING_END_EVENT)
			depth--;
		else if (ev->type != YAML_SCALAR_EVENT)
			return fail(r, "unexpected event");
		next(r);
	} while (depth > 0);
	return 0;
}

/* A scalar's text, malloc'd; NULL after an error. */
static char *scalar(struct xreader *r, const char *what)
{
	const yaml_event_t *ev = peek(r);
	char *s;
	if (ev == NULL)
		return NULL;
	if (ev->type != YAML_SCALAR_EVENT) {
		fail(r, what);
		return NULL;
	}
	s = ipp_xmalloc(ev->data.scalar.length + 1);
	memcpy(s, ev->data.scalar.value, ev->data.scalar.length);
	s[ev->data.scalar.length] = '\0';
	next(r);
	return s;
}

static int integer(struct xreader *r, const char *what, long min, long max, long *out)
{
	char *s = scalar(r, what), *end;
	long v;
	if (s == NULL)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || v < min || v > max) {
		free(s);
		return fail(r, what);
	}
	free(s);
	*out = v;
	return 0;
}

/* [vertex, file, [line, ...]] */
static int read_run(struct xreader *r, ipp_xline_run *run)
{
	size_t cap = 0;
	long v;

	memset(run, 0, sizeof(*run));
	if (expect(r, YAML_SEQUENCE_START_EVENT, "expected [vertex, file, [lines]]") < 0 ||
	    integer(r, "expected a vertex id", 0, INT32_MAX, &v) < 0)
		return -1;
	run->vertex = (ipp_id)v;
	run->file = scalar(r, "expected a file name");
	if (run->file == NULL || expect(r, YAML_SEQUENCE_START_EVENT, "expected [lines]") < 0)
		return -1;
	for (;;) {
		const yaml_event_t *ev = peek(r);
		long line;
		if (ev == NULL)
			return -1;
		if (ev->type == YAML_SEQUENCE_END_EVENT) {
			next(r);
			break;
		}
		if (integer(r, "expected a line number", 1, INT_MAX, &line) < 0)
			return -1;
		IPP_ARRAY_GROW(run->lines, run->nlines, cap);
		run->lines[run->nlines++] = (int)line;
	}
	return expect(r, YAML_SEQUENCE_END_EVENT, "expected the end of [vertex, file, [lines]]");
}

static void free_one(ipp_xlines *x)
{
	for (size_t i = 0; i < x->nruns; i++) {
		free(x->runs[i].file);
		free(x->runs[i].lines);
	}
	free(x->runs);
	free(x->module);
}

static int read_document(struct xreader *r, ipp_xlines *x)
{
	size_t cap = 0;

	if (expect(r, YAML_DOCUMENT_START_EVENT, "expected a document") < 0 ||
	    expect(r, YAML_MAPPING_START_EVENT, "expected a mapping") < 0)
		return -1;
	for (;;) {
		const yaml_event_t *ev = peek(r);
		char *key;
		if (ev == NULL)
			return -1;
		if (ev->type == YAML_MAPPING_END_EVENT) {
			next(r);
			break;
		}
		key = scalar(r, "expected a key");
		if (key == NULL)
			return -1;
		if (strcmp(key, "module") == 0 && x->module == NULL) {
			x->module = scalar(r, "module: expected a file name");
		} else if (strcmp(key, "checksum") == 0) {
			char *s = scalar(r, "checksum: expected 16 hex digits"), *end;
			if (s != NULL) {
				errno = 0;
				x->checksum = strtoull(s, &end, 16);
				if (strlen(s) != 16 || *end != '\0' || errno != 0)
					fail(r, "checksum: expected 16 hex digits");
			}
			free(s);
		} else if (strcmp(key, "x-lines") == 0 && x->nruns == 0) {
			ev = peek(r);
			if (ev != NULL && ev->type == YAML_SCALAR_EVENT) {	/* null: none */
				next(r);
			} else if (expect(r, YAML_SEQUENCE_START_EVENT, "expected a list") == 0) {
				while ((ev = peek(r)) != NULL && ev->type != YAML_SEQUENCE_END_EVENT) {
					IPP_ARRAY_GROW(x->runs, x->nruns, cap);
					if (read_run(r, &x->runs[x->nruns++]) < 0)
						break;
				}
				next(r);
			}
		} else {
			skip_node(r);
		}
		free(key);
		if (r->failed)
			return -1;
	}
	if (x->module == NULL)
		return fail(r, "a map document without a module key");
	return expect(r, YAML_DOCUMENT_END_EVENT, "expected the end of the document");
}

int ipp_xlines_read_buffer(const char *buf, size_t len, const char *name, ipp_xlines **out,
			   size_t *n, char *err, size_t errlen)
{
	struct xreader r;
	ipp_xlines *x = NULL;
	size_t nx = 0, cap = 0;
	const yaml_event_t *ev;

	memset(&r, 0, sizeof(r));
	r.name = name;
	r.err = err;
	r.errlen = errlen;
	if (!yaml_parser_initialize(&r.parser)) {
		ipp_seterr(err, errlen, "%s: out of memory", name);
		return -1;
	}
	yaml_parser_set_input_string(&r.parser, (const unsigned char *)buf, len);
	if (expect(&r, YAML_STREAM_START_EVENT, "expected a YAML stream") == 0)
		while ((ev = peek(&r)) != NULL && ev->type != YAML_STREAM_END_EVENT) {
			IPP_ARRAY_GROW(x, nx, cap);
			memset(&x[nx], 0, sizeof(x[nx]));
			if (read_document(&r, &x[nx++]) < 0)
				break;
		}
	next(&r);
	yaml_parser_delete(&r.parser);
	if (r.failed) {
		ipp_xlines_free_all(x, nx);
		return -1;
	}
	*out = x;
	*n = nx;
	return 0;
}

void ipp_xlines_free_all(ipp_xlines *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free_one(&x[i]);
	free(x);
}
