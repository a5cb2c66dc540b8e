/* yaml_read.c -- a pull reader over libyaml's event API (ipp_yreader,
 * format_internal.h), shared by the map and profile readers: one event of
 * lookahead, the "KEY: VERSION" start of a document, keys of block
 * mappings (looked up in a table of the known ones), lists, and values
 * read into items (a scalar, a null or a flow list of scalars, their text
 * copied into an arena) for the field decoders of yaml_fields.c.
 *
 * Every problem -- a libyaml error, an unexpected event, an alias, a NUL
 * in a scalar, a document without its '...' -- becomes one message
 * "name:line:col: expected X, got Y" in the caller's err buffer.
 * Invariants: after the first failure 'failed' is set and every call fails
 * at once, so the first message is the one kept; the lookahead event 'ev'
 * is valid exactly while 'have' is set; items, sub and arena hold the last
 * value or tuple read and are reset by the next one.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "internal.h"
#include "format_internal.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>

void ipp_yr_init(ipp_yreader *r, const char *buf, size_t len, const char *name,
		 char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->name = name ? name : "<input>";
	r->err = err;
	r->errlen = errlen;
	if (err && errlen)
		err[0] = '\0';
	if (!yaml_parser_initialize(&r->parser))
		ipp_out_of_memory(0);
	yaml_parser_set_input_string(&r->parser, (const unsigned char *)(buf ? buf : ""),
				     buf ? len : 0);
}

void ipp_yr_fini(ipp_yreader *r)
{
	if (r->have)
		yaml_event_delete(&r->ev);
	yaml_parser_delete(&r->parser);
	free(r->items);
	free(r->sub);
	free(r->arena);
	free(r->key);
	memset(r, 0, sizeof(*r));
}

int ipp_yr_fail(ipp_yreader *r, int line, int col, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	if (r->failed)
		return -1;
	r->failed = true;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line > 0 && col > 0)
		ipp_seterr(r->err, r->errlen, "%s:%d:%d: %s", r->name, line, col, msg);
	else if (line > 0)
		ipp_seterr(r->err, r->errlen, "%s:%d: %s", r->name, line, msg);
	else
		ipp_seterr(r->err, r->errlen, "%s: %s", r->name, msg);
	return -1;
}

static int mark_int(size_t v)
{
	return v < INT_MAX ? (int)v + 1 : INT_MAX;
}

static void parser_error(ipp_yreader *r)
{
	yaml_parser_t *p = &r->parser;
	const char *problem = p->problem ? p->problem : "unknown error";
	int line, col;
	switch (p->error) {
	case YAML_MEMORY_ERROR:
		ipp_out_of_memory(0);
	case YAML_READER_ERROR:
		ipp_yr_fail(r, 0, 0, "byte %zu: %s (not UTF-8 text?)", p->problem_offset, problem);
		break;
	default:
		line = mark_int(p->problem_mark.line);
		col = mark_int(p->problem_mark.column);
		if (p->context)
			ipp_yr_fail(r, line, col, "YAML syntax error: %s (%s at line %d, "
				    "column %d)", problem, p->context,
				    mark_int(p->context_mark.line),
				    mark_int(p->context_mark.column));
		else
			ipp_yr_fail(r, line, col, "YAML syntax error: %s", problem);
		break;
	}
}

const yaml_event_t *ipp_yr_peek(ipp_yreader *r)
{
	if (r->failed)
		return NULL;
	if (r->have)
		return &r->ev;
	if (!yaml_parser_parse(&r->parser, &r->ev)) {
		parser_error(r);
		return NULL;
	}
	r->have = true;
	if (r->ev.type == YAML_ALIAS_EVENT) {
		ipp_yr_fail(r, ipp_yr_line(r), ipp_yr_col(r),
			    "aliases (*name) are not allowed in ipp files");
		return NULL;
	}
	return &r->ev;
}

void ipp_yr_next(ipp_yreader *r)
{
	if (r->have) {
		yaml_event_delete(&r->ev);
		r->have = false;
	}
}

int ipp_yr_line(ipp_yreader *r)
{
	return r->have ? mark_int(r->ev.start_mark.line) : 0;
}

int ipp_yr_col(ipp_yreader *r)
{
	return r->have ? mark_int(r->ev.start_mark.column) : 0;
}

static bool event_is_null(const yaml_event_t *ev)
{
	const char *v = (const char *)ev->data.scalar.value;
	if (ev->type != YAML_SCALAR_EVENT || ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	return !*v || !strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") ||
	       !strcmp(v, "NULL");
}

/* A short printable description of an event for "got ..." messages. */
static const char *describe(const yaml_event_t *ev, char *buf, size_t n)
{
	switch (ev->type) {
	case YAML_SCALAR_EVENT: {
		const char *v = (const char *)ev->data.scalar.value;
		size_t len = ev->data.scalar.length, k = 0, i;
		if (event_is_null(ev))
			return "null";
		buf[k++] = '\'';
		for (i = 0; i < len && k + 5 < n && i < 40; i++)
			buf[k++] = (unsigned char)v[i] < 0x20 ? '?' : v[i];
		if (i < len)
			k += (size_t)snprintf(buf + k, n - k, "...");
		snprintf(buf + k, n - k, "'");
		return buf;
	}
	case YAML_SEQUENCE_START_EVENT: return "a sequence";
	case YAML_SEQUENCE_END_EVENT: return "the end of the sequence";
	case YAML_MAPPING_START_EVENT: return "a mapping";
	case YAML_MAPPING_END_EVENT: return "the end of the mapping";
	case YAML_DOCUMENT_START_EVENT: return "the start of a document";
	case YAML_DOCUMENT_END_EVENT: return "the end of the document";
	case YAML_STREAM_START_EVENT: return "the start of the input";
	case YAML_STREAM_END_EVENT: return "the end of the input";
	default: return "something else";
	}
}

static int fail_got(ipp_yreader *r, const char *expected)
{
	char buf[64];
	const yaml_event_t *ev = &r->ev;
	return ipp_yr_fail(r, ipp_yr_line(r), ipp_yr_col(r), "expected %s, got %s", expected,
			   describe(ev, buf, sizeof(buf)));
}

int ipp_yr_expect(ipp_yreader *r, yaml_event_type_t type, const char *what)
{
	const yaml_event_t *ev = ipp_yr_peek(r);
	if (!ev)
		return -1;
	if (ev->type != type)
		return fail_got(r, what);
	ipp_yr_next(r);
	return 0;
}

int ipp_yr_key(ipp_yreader *r, char **key, int *line, int *col)
{
	const yaml_event_t *ev = ipp_yr_peek(r);
	if (!ev)
		return -1;
	if (ev->type == YAML_MAPPING_END_EVENT) {
		ipp_yr_next(r);
		return 0;
	}
	if (ev->type != YAML_SCALAR_EVENT || event_is_null(ev))
		return fail_got(r, "a key");
	if (memchr(ev->data.scalar.value, '\0', ev->data.scalar.length))
		return ipp_yr_fail(r, ipp_yr_line(r), ipp_yr_col(r), "a NUL character in a key");
	free(r->key);
	r->key = ipp_xstrdup((const char *)ev->data.scalar.value);
	*key = r->key;
	*line = ipp_yr_line(r);
	*col = ipp_yr_col(r);
	ipp_yr_next(r);
	return 1;
}

int ipp_yr_known_key(ipp_yreader *r, const char *const *names, int n, const char *in,
		     bool *seen, int *k, int *line, int *col)
{
	char *key;
	int rc;
	while ((rc = ipp_yr_key(r, &key, line, col)) > 0) {
		for (*k = 0; *k < n && strcmp(key, names[*k]) != 0; ++*k)
			;
		if (*k < n) {
			if (seen[*k])
				return ipp_yr_fail(r, *line, *col, "key '%s' given twice", key);
			seen[*k] = true;
			return 1;
		}
		if (strncmp(key, "x-", 2) != 0)
			return ipp_yr_fail(r, *line, *col, "unknown key '%.40s' in %s", key, in);
		if (ipp_yr_skip(r) < 0)	/* extensions are ignored */
			return -1;
	}
	return rc;
}

int ipp_yr_begin_list(ipp_yreader *r, const char *what)
{
	const yaml_event_t *ev = ipp_yr_peek(r);
	if (!ev)
		return -1;
	if (ev->type == YAML_SEQUENCE_START_EVENT) {
		ipp_yr_next(r);
		return 1;
	}
	if (event_is_null(ev)) {
		ipp_yr_next(r);
		return 0;
	}
	return fail_got(r, what);
}

int ipp_yr_more(ipp_yreader *r)
{
	const yaml_event_t *ev = ipp_yr_peek(r);
	if (!ev)
		return -1;
	if (ev->type == YAML_SEQUENCE_END_EVENT) {
		ipp_yr_next(r);
		return 0;
	}
	return 1;
}

static void reset_items(ipp_yreader *r)
{
	r->nitems = r->nsub = r->narena = 0;
}

/* Copies the current scalar event into *it (its text into the arena). */
static int take_scalar(ipp_yreader *r, ipp_yitem *it)
{
	const yaml_event_t *ev = &r->ev;
	size_t len = ev->data.scalar.length;
	memset(it, 0, sizeof(*it));
	it->line = ipp_yr_line(r);
	it->col = ipp_yr_col(r);
	if (event_is_null(ev)) {
		it->type = IPP_YI_NULL;
	} else {
		if (memchr(ev->data.scalar.value, '\0', len))
			return ipp_yr_fail(r, it->line, it->col, "a NUL character in a scalar");
		it->type = IPP_YI_SCALAR;
		while (r->narena + len + 1 > r->caparena) {
			r->caparena = r->caparena ? 2 * r->caparena : 256;
			r->arena = ipp_xrealloc(r->arena, r->caparena);
		}
		memcpy(r->arena + r->narena, ev->data.scalar.value, len);
		r->arena[r->narena + len] = '\0';
		it->text = r->narena;
		it->len = len;
		r->narena += len + 1;
	}
	ipp_yr_next(r);
	return 0;
}

/* Reads a scalar or a flow list of scalars as the next entry of r->items. */
static int read_item(ipp_yreader *r, const char *what)
{
	char expected[128];
	const yaml_event_t *ev = ipp_yr_peek(r);
	ipp_yitem it;
	if (!ev)
		return -1;
	snprintf(expected, sizeof(expected), "a scalar or a list in %s", what);
	if (ev->type == YAML_SCALAR_EVENT) {
		if (take_scalar(r, &it) < 0)
			return -1;
	} else if (ev->type == YAML_SEQUENCE_START_EVENT) {
		memset(&it, 0, sizeof(it));
		it.type = IPP_YI_LIST;
		it.line = ipp_yr_line(r);
		it.col = ipp_yr_col(r);
		it.first = r->nsub;
		ipp_yr_next(r);
		snprintf(expected, sizeof(expected), "a scalar in a list in %s", what);
		for (;;) {
			ev = ipp_yr_peek(r);
			if (!ev)
				return -1;
			if (ev->type == YAML_SEQUENCE_END_EVENT)
				break;
			if (ev->type != YAML_SCALAR_EVENT)
				return fail_got(r, expected);
			IPP_ARRAY_GROW(r->sub, r->nsub, r->capsub);
			if (take_scalar(r, &r->sub[r->nsub]) < 0)
				return -1;
			r->nsub++;
			it.n++;
		}
		ipp_yr_next(r);
	} else {
		return fail_got(r, expected);
	}
	IPP_ARRAY_GROW(r->items, r->nitems, r->capitems);
	r->items[r->nitems++] = it;
	return 0;
}

int ipp_yr_value(ipp_yreader *r, const char *what)
{
	reset_items(r);
	return read_item(r, what);
}

int ipp_yr_tuple(ipp_yreader *r, const char *what, size_t *n)
{
	char expected[128];
	const yaml_event_t *ev = ipp_yr_peek(r);
	reset_items(r);
	if (!ev)
		return -1;
	if (ev->type != YAML_SEQUENCE_START_EVENT) {
		snprintf(expected, sizeof(expected), "a [...] sequence for %s", what);
		return fail_got(r, expected);
	}
	r->tline = ipp_yr_line(r);
	r->tcol = ipp_yr_col(r);
	ipp_yr_next(r);
	for (;;) {
		ev = ipp_yr_peek(r);
		if (!ev)
			return -1;
		if (ev->type == YAML_SEQUENCE_END_EVENT)
			break;
		if (read_item(r, what) < 0)
			return -1;
	}
	ipp_yr_next(r);
	*n = r->nitems;
	return 0;
}

int ipp_yr_arity(ipp_yreader *r, size_t n, size_t want, const char *what)
{
	if (n == want)
		return 0;
	return ipp_yr_fail(r, r->tline, r->tcol, "expected a sequence of %zu items for %s, "
			   "got %zu", want, what, n);
}

int ipp_yr_skip(ipp_yreader *r)
{
	size_t depth = 0;
	do {
		const yaml_event_t *ev = ipp_yr_peek(r);
		if (!ev)
			return -1;
		switch (ev->type) {
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			depth++;
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			break;
		case YAML_SCALAR_EVENT:
			break;
		default:
			return fail_got(r, "a value");
		}
		ipp_yr_next(r);
	} while (depth);
	return 0;
}

int ipp_yr_begin_document(ipp_yreader *r, const char *key, int version, const char *doc,
			  const char *kind, int *line)
{
	char what[128], *k;
	const ipp_yitem *it;
	int kline, kcol, rc;
	uint64_t v;

	if (!ipp_yr_peek(r))
		return -1;
	*line = ipp_yr_line(r);
	snprintf(what, sizeof(what), "the start of %s", doc);
	if (ipp_yr_expect(r, YAML_DOCUMENT_START_EVENT, what) < 0)
		return -1;
	snprintf(what, sizeof(what), "a mapping starting with '%s: %d'", key, version);
	if (ipp_yr_expect(r, YAML_MAPPING_START_EVENT, what) < 0)
		return -1;
	rc = ipp_yr_key(r, &k, &kline, &kcol);
	if (rc < 0)
		return -1;
	if (rc == 0 || strcmp(k, key) != 0)
		return ipp_yr_fail(r, rc ? kline : *line, rc ? kcol : 0, "expected '%s: %d' as the "
				   "first key of %s, got %s%.40s%s", key, version, doc,
				   rc ? "'" : "", rc ? k : "an empty mapping", rc ? "'" : "");
	if (ipp_yr_value(r, key) < 0)
		return -1;
	it = &r->items[0];
	snprintf(what, sizeof(what), "%s version", kind);
	if (ipp_yr_u64(r, it, what, &v) < 0)
		return -1;
	if (v != (uint64_t)version)
		return ipp_yr_fail(r, it->line, it->col, "unsupported %s version %" PRIu64 "; this "
				   "ipp reads version %d", kind, v, version);
	return 0;
}

int ipp_yr_end_document(ipp_yreader *r)
{
	const yaml_event_t *ev = ipp_yr_peek(r);
	if (!ev)
		return -1;
	if (ev->type != YAML_DOCUMENT_END_EVENT)
		return fail_got(r, "the end of the document");
	if (ev->data.document_end.implicit)
		return ipp_yr_fail(r, ipp_yr_line(r), ipp_yr_col(r),
				   "the document does not end with '...' (truncated?)");
	ipp_yr_next(r);
	return 0;
}
