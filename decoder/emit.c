/* emit.c -- the YAML and JSON writer behind --format=yaml|json (emit.h).
 *
 * A stack of open containers remembers, for each, whether it is a sequence,
 * whether it is written in flow style, its indentation, how many items it
 * has so far, and where it sits (the document's root, a mapping's value, or
 * a sequence's item).  YAML block containers are written lazily: nothing is
 * printed until the first item, so that an empty one can become {} or [].
 *
 * Strings: invalid UTF-8 becomes U+FFFD (a report must stay parseable
 * whatever the names in a map); YAML plain scalars are used only for
 * strings that cannot be read back as anything else (a number, a boolean,
 * null, or YAML syntax).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "emit.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum where { AT_ROOT, AT_KEY, AT_ITEM };

struct level {
	bool seq;		/* sequence, else mapping */
	bool flow;
	enum where where;	/* where the container itself sits */
	int indent;		/* YAML: of its items; JSON: of its closing bracket */
	size_t n;		/* items (or keys) so far */
};

struct emitter {
	FILE *out;
	enum emit_format format;
	struct level *st;
	size_t depth, cap;
};

emitter *emit_new(FILE *out, enum emit_format format)
{
	emitter *e = xcalloc(1, sizeof(*e));
	e->out = out;
	e->format = format;
	return e;
}

void emit_finish(emitter *e)
{
	if (e->format == EMIT_JSON)
		putc('\n', e->out);
	free(e->st);
	free(e);
}

static struct level *top(emitter *e)
{
	return e->depth ? &e->st[e->depth - 1] : NULL;
}

static void spaces(emitter *e, int n)
{
	for (int i = 0; i < n; i++)
		putc(' ', e->out);
}

/* ------------------------------------------------------------------ */
/* Strings                                                              */
/* ------------------------------------------------------------------ */

/* Decodes one UTF-8 sequence at s; returns its length and sets *cp, or
 * returns 0 for an invalid sequence (overlong, surrogate, out of range). */
static size_t utf8_next(const unsigned char *s, uint32_t *cp)
{
	size_t len;
	uint32_t c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2;
		c = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3;
		c = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if ((len == 2 && c < 0x80) || (len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

static bool yaml_printable(uint32_t c)
{
	return c == 0x09 || c == 0x0a || c == 0x0d || (c >= 0x20 && c <= 0x7e) || c == 0x85 ||
	       (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) ||
	       (c >= 0x10000 && c <= 0x10ffff);
}

/* Can s be written as a YAML plain scalar and read back as this string? */
static bool yaml_plain_ok(const char *s)
{
	static const char *const reserved[] = {
		"y", "n", "yes", "no", "true", "false", "on", "off", "null",
	};
	const unsigned char *p = (const unsigned char *)s;

	/* a leading '.' is fine except in floats: .5, .inf, .nan */
	if (*p == '.' && ((p[1] >= '0' && p[1] <= '9') || strcasecmp(s, ".inf") == 0 ||
			  strcasecmp(s, ".nan") == 0))
		return false;
	if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' || *p == '/' ||
	      *p == '.'))
		return false;
	for (p++; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '.' || *p == '/' ||
		      *p == '-' || *p == '+'))
			return false;
	for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
		if (strcasecmp(s, reserved[i]) == 0)
			return false;
	return true;
}

static void put_utf8(FILE *out, const unsigned char *s, size_t len)
{
	fwrite(s, 1, len, out);
}

/* Writes s double-quoted, escaped for YAML or JSON. */
static void put_quoted(emitter *e, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	bool json = e->format == EMIT_JSON;

	putc('"', e->out);
	while (*s) {
		uint32_t c;
		size_t len = utf8_next(s, &c);

		if (len == 0) {		/* invalid UTF-8: U+FFFD */
			fputs("\xef\xbf\xbd", e->out);
			s++;
			continue;
		}
		switch (c) {
		case '"':
			fputs("\\\"", e->out);
			break;
		case '\\':
			fputs("\\\\", e->out);
			break;
		case '\n':
			fputs("\\n", e->out);
			break;
		case '\t':
			fputs("\\t", e->out);
			break;
		case '\r':
			fputs("\\r", e->out);
			break;
		default:
			if (json ? c < 0x20 : !yaml_printable(c) || c == 0x85 || c == 0xfeff) {
				if (c <= 0xffff)
					fprintf(e->out, "\\u%04" PRIx32, c);
				else	/* YAML only: JSON needs no escape above 0xffff */
					fprintf(e->out, "\\U%08" PRIx32, c);
			} else {
				put_utf8(e->out, s, len);
			}
			break;
		}
		s += len;
	}
	putc('"', e->out);
}

/* ------------------------------------------------------------------ */
/* Structure                                                            */
/* ------------------------------------------------------------------ */

/* Writes what goes before a value (scalar or container) in the current
 * container, and counts the item. */
static void before_value(emitter *e)
{
	struct level *l = top(e);

	if (l == NULL)
		return;
	if (e->format == EMIT_JSON) {
		if (l->seq) {
			if (l->n > 0)
				putc(',', e->out);
			if (!l->flow) {
				putc('\n', e->out);
				spaces(e, l->indent + 2);
			} else if (l->n > 0) {
				putc(' ', e->out);
			}
			l->n++;
		}
		return;		/* in a mapping, emit_key wrote "key": */
	}
	if (l->flow) {
		if (l->seq) {
			if (l->n > 0)
				fputs(", ", e->out);
			l->n++;
		} else {
			putc(' ', e->out);
		}
		return;
	}
	if (l->seq) {
		if (l->n == 0 && l->where == AT_KEY)
			putc('\n', e->out);
		if (l->n > 0 || l->where != AT_ITEM)
			spaces(e, l->indent);
		fputs("- ", e->out);
		l->n++;
	} else {
		putc(' ', e->out);	/* after "key:" */
	}
}

/* After a scalar or a flow container: end the line in block context. */
static void after_value(emitter *e)
{
	struct level *l = top(e);
	if (e->format == EMIT_YAML && (l == NULL || !l->flow))
		putc('\n', e->out);
}

static void begin(emitter *e, bool seq, bool flow)
{
	struct level *parent = top(e), lv;

	memset(&lv, 0, sizeof(lv));
	lv.seq = seq;
	lv.flow = flow || (parent != NULL && parent->flow);
	lv.where = parent == NULL ? AT_ROOT : parent->seq ? AT_ITEM : AT_KEY;
	if (e->format == EMIT_JSON) {
		before_value(e);
		lv.indent = parent == NULL ? 0 : parent->flow ? parent->indent : parent->indent + 2;
		putc(seq ? '[' : '{', e->out);
	} else if (lv.flow) {
		before_value(e);
		putc(seq ? '[' : '{', e->out);
	} else {
		/* block: the item marker of a parent sequence is written now;
		 * the rest waits for the first item */
		if (parent != NULL && parent->seq)
			before_value(e);
		lv.indent = parent == NULL ? 0 : parent->indent + 2;
	}
	GROW(e->st, e->depth, e->cap);
	e->st[e->depth++] = lv;
}

void emit_begin_map(emitter *e) { begin(e, false, false); }
void emit_begin_map_flow(emitter *e) { begin(e, false, true); }
void emit_begin_seq(emitter *e) { begin(e, true, false); }
void emit_begin_seq_flow(emitter *e) { begin(e, true, true); }

void emit_end(emitter *e)
{
	struct level l;

	if (e->depth == 0)	/* unbalanced: a bug in the caller */
		abort();
	l = e->st[--e->depth];

	if (e->format == EMIT_JSON) {
		if (!l.flow && l.n > 0) {
			putc('\n', e->out);
			spaces(e, l.indent);
		}
		putc(l.seq ? ']' : '}', e->out);
		return;
	}
	if (l.flow) {
		putc(l.seq ? ']' : '}', e->out);
		after_value(e);
		return;
	}
	if (l.n == 0) {		/* an empty block container */
		if (l.where == AT_KEY)
			putc(' ', e->out);
		fputs(l.seq ? "[]\n" : "{}\n", e->out);
	}
}

void emit_key(emitter *e, const char *key)
{
	struct level *l = top(e);

	if (l == NULL || l->seq)	/* a key outside a mapping: a bug in the caller */
		abort();
	if (e->format == EMIT_JSON) {
		if (l->n > 0)
			putc(',', e->out);
		if (!l->flow) {
			putc('\n', e->out);
			spaces(e, l->indent + 2);
		} else if (l->n > 0) {
			putc(' ', e->out);
		}
		put_quoted(e, key);
		fputs(": ", e->out);
		l->n++;
		return;
	}
	if (l->flow) {
		if (l->n > 0)
			fputs(", ", e->out);
	} else if (l->n == 0 && l->where == AT_KEY) {
		putc('\n', e->out);
		spaces(e, l->indent);
	} else if (l->n > 0 || l->where != AT_ITEM) {
		spaces(e, l->indent);
	}
	if (yaml_plain_ok(key))
		fputs(key, e->out);
	else
		put_quoted(e, key);
	putc(':', e->out);
	l->n++;
}

/* ------------------------------------------------------------------ */
/* Scalars                                                              */
/* ------------------------------------------------------------------ */

void emit_str(emitter *e, const char *s)
{
	if (s == NULL) {
		emit_null(e);
		return;
	}
	before_value(e);
	if (e->format == EMIT_YAML && yaml_plain_ok(s))
		fputs(s, e->out);
	else
		put_quoted(e, s);
	after_value(e);
}

void emit_str_quoted(emitter *e, const char *s)
{
	before_value(e);
	put_quoted(e, s);
	after_value(e);
}

void emit_int(emitter *e, long long v)
{
	before_value(e);
	fprintf(e->out, "%lld", v);
	after_value(e);
}

void emit_bool(emitter *e, bool v)
{
	before_value(e);
	fputs(v ? "true" : "false", e->out);
	after_value(e);
}

void emit_null(emitter *e)
{
	before_value(e);
	fputs("null", e->out);
	after_value(e);
}

void emit_big(emitter *e, const mpz_t v)
{
	bool json = e->format == EMIT_JSON;
	before_value(e);
	if (json)
		putc('"', e->out);
	mpz_out_str(e->out, 10, v);
	if (json)
		putc('"', e->out);
	after_value(e);
}

void emit_big_u64(emitter *e, uint64_t v)
{
	before_value(e);
	fprintf(e->out, e->format == EMIT_JSON ? "\"%" PRIu64 "\"" : "%" PRIu64, v);
	after_value(e);
}

void emit_double(emitter *e, double v)
{
	before_value(e);
	/* %.17g reads back as the same double, and is a number in both */
	fprintf(e->out, "%.17g", v);
	after_value(e);
}

void emit_key_str(emitter *e, const char *key, const char *s)
{
	emit_key(e, key);
	emit_str(e, s);
}

void emit_key_int(emitter *e, const char *key, long long v)
{
	emit_key(e, key);
	emit_int(e, v);
}

void emit_key_big(emitter *e, const char *key, const mpz_t v)
{
	emit_key(e, key);
	emit_big(e, v);
}

void emit_key_u64(emitter *e, const char *key, uint64_t v)
{
	emit_key(e, key);
	emit_big_u64(e, v);
}
