/* rt_merge.c -- reading the existing profile, to merge into it.
 *
 * A small strict parser for exactly the subset of YAML that docs/FORMAT.md
 * allows in a profile: a line-oriented block mapping whose records are
 * one-line flow sequences.  No libyaml, no malloc (the arena of the write),
 * no stdio: it also runs in a fatal-signal handler.
 *
 * What it accepts:
 *   - blank lines and comment lines anywhere, trailing " # comments";
 *   - an optional "%YAML 1.1" line, then "---";
 *   - "ipp-profile: 1" as the first key, then in any order "modules" (a
 *     block sequence of module mappings, "[]", or empty) and x- keys, whose
 *     values (one line, or more deeply indented lines) are kept verbatim;
 *   - per module, the keys module, checksum, mode, runs (required), paths,
 *     partial, forked, indirect-calls and x- keys, in any order, the first on the
 *     "- " line;
 *   - records "- [region, number, count]",
 *     "- [region, number, [v, ...], count]" and
 *     "- [site, module, checksum, region, count]", one per line;
 *   - scalars plain, 'single-' or "double-quoted" (YAML escapes);
 *   - the explicit end "...", then nothing but blank or comment lines.
 * It rejects everything else (flow mappings, multi-line scalars, anchors,
 * aliases, tags, tabs for indentation, a missing "...", bad numbers,
 * counts beyond 64 bits, duplicate keys, modules or records), and the
 * caller then leaves the file alone (rt_write.c).
 *
 * Modules of the file that this program has (same name and checksum) are
 * parsed into records and merged; the others are validated and kept as
 * text, copied verbatim into the new profile.  A module with the name of
 * one of ours but only other checksums is "stale" (an older build).
 *
 * Copyright (c) 2026 the ipp authors.
 * SPDX-License-Identifier: MIT (see runtime/LICENSE)
 *
 * Permission is hereby granted, free of charge, to any person obtaining a
 * copy of this software and associated documentation files (the "Software"),
 * to deal in the Software without restriction, including without limitation
 * the rights to use, copy, modify, merge, publish, distribute, sublicense,
 * and/or sell copies of the Software, and to permit persons to whom the
 * Software is furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in
 * all copies or substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 * IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 * FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT.  IN NO EVENT SHALL THE
 * AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 * LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING
 * FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS
 * IN THE SOFTWARE.
 */
#include "rt_internal.h"

#include <stdarg.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Lines and errors                                                     */
/* ------------------------------------------------------------------ */

struct line {
	const char *s;		/* first character */
	const char *end;	/* end of the content (before "\r\n" / "\n") */
	const char *next;	/* start of the next line */
	uint32_t indent;
	bool blank;		/* empty, spaces only, or a comment */
};

struct psr {
	const char *path;
	struct line *L;
	size_t nl, i;		/* lines, current line */
	size_t digest;		/* the digest line + 1, 0 if none (check_digest) */
	struct rt_arena *a;
	char *err;
	size_t errlen;
	int oom;
};

/* "path:line: " + pieces (NULL-terminated) into p->err.  Returns -1. */
static RT_NOINST int fail(struct psr *p, size_t li, ...)
	__attribute__((sentinel));
static RT_NOINST int fail(struct psr *p, size_t li, ...)
{
	char num[21];
	va_list ap;
	p->err[0] = '\0';
	rt_cat(p->err, p->errlen, p->path);
	if (li != (size_t)-1) {
		rt_cat(p->err, p->errlen, ":");
		rt_cat(p->err, p->errlen, rt_fmt_u64(li + 1, num));
	}
	rt_cat(p->err, p->errlen, ": ");
	va_start(ap, li);
	for (const char *s = va_arg(ap, const char *); s; s = va_arg(ap, const char *))
		if (rt_cat(p->err, p->errlen, s) < 0)
			break;
	va_end(ap);
	return -1;
}

static RT_NOINST void *alloc(struct psr *p, size_t n)
{
	void *q = rt_arena_alloc(p->a, n);
	if (!q)
		p->oom = 1;
	return q;
}

static RT_NOINST int split_lines(struct psr *p, const char *buf, size_t len)
{
	size_t n = 0;
	const char *q = buf, *end = buf + len;
	for (const char *c = buf; c < end; c++) {
		if (*c == '\n')
			n++;
		else if (*c == '\0')
			return fail(p, n, "a NUL byte (not a text file)", (const char *)NULL);
	}
	n += len && end[-1] != '\n';
	p->L = alloc(p, (n ? n : 1) * sizeof(*p->L));
	if (!p->L)
		return -1;
	for (size_t k = 0; k < n; k++) {
		struct line *l = &p->L[k];
		const char *nl = memchr(q, '\n', (size_t)(end - q));
		const char *e = nl ? nl : end;
		l->s = q;
		l->next = nl ? nl + 1 : end;
		if (e > q && e[-1] == '\r')
			e--;
		l->end = e;
		while (q + l->indent < e && q[l->indent] == ' ')
			l->indent++;
		if (q + l->indent < e && q[l->indent] == '\t')
			return fail(p, k, "a tab in the indentation", (const char *)NULL);
		l->blank = q + l->indent == e || q[l->indent] == '#';
		q = l->next;
	}
	p->nl = n;
	return 0;
}

/* The digest (docs/FORMAT.md, "Digest"; as ippcore/digest.c): if the
 * line before the last "..." line starts with "digest:", it must be
 * exactly 'digest: "<16 hex digits>"' and '\n', and the XXH64 of every
 * byte before it.  A profile edited by hand is refused, never merged into
 * (a new digest would launder the edit). */
static RT_NOINST int hexval(int c);

static RT_NOINST int check_digest(struct psr *p, const char *buf)
{
	const struct line *d;
	uint64_t want = 0;
	size_t k = p->nl;
	while (k > 0 && !(p->L[k - 1].end - p->L[k - 1].s == 3 &&
			  memcmp(p->L[k - 1].s, "...", 3) == 0))
		k--;
	if (k < 2 || p->L[k - 2].next - p->L[k - 2].s < 7 ||
	    memcmp(p->L[k - 2].s, "digest:", 7) != 0)
		return 0;
	d = &p->L[k - 2];
	if (d->next - d->s != 27 || d->s[26] != '\n' || memcmp(d->s, "digest: \"", 9) != 0 ||
	    d->s[25] != '"')
		return fail(p, k - 2, "malformed digest line: expected 'digest: \"<16 hex "
			    "digits>\"' before '...'", (const char *)NULL);
	for (int j = 0; j < 16; j++) {
		int v = hexval((unsigned char)d->s[9 + j]);
		if (v < 0)
			return fail(p, k - 2, "malformed digest line: expected 'digest: \"<16 hex "
				    "digits>\"' before '...'", (const char *)NULL);
		want = want << 4 | (uint64_t)v;
	}
	if (XXH64(buf, (size_t)(d->s - buf), 0) != want)
		return fail(p, k - 2, "profile digest mismatch (the profile was edited or "
			    "corrupted after it was written)", (const char *)NULL);
	p->digest = k - 1;
	return 0;
}

/* The whole text must be UTF-8 made of characters YAML allows raw (tab,
 * line breaks, printable characters): libyaml rejects anything else. */
static RT_NOINST int check_text(struct psr *p, const char *buf, size_t len)
{
	const unsigned char *s = (const unsigned char *)buf, *end = s + len;
	size_t line = 0;
	while (s < end) {
		uint32_t c = *s, min;
		size_t n;
		if (c < 0x80) {
			if (c == '\n')
				line++;
			else if (c == '\r' && (s + 1 >= end || s[1] != '\n'))
				return fail(p, line, "a carriage return not followed by a line feed",
					    (const char *)NULL);
			else if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
				return fail(p, line, "a control character", (const char *)NULL);
			s++;
			continue;
		}
		if ((c & 0xe0) == 0xc0)
			n = 2, c &= 0x1f, min = 0x80;
		else if ((c & 0xf0) == 0xe0)
			n = 3, c &= 0x0f, min = 0x800;
		else if ((c & 0xf8) == 0xf0)
			n = 4, c &= 0x07, min = 0x10000;
		else
			return fail(p, line, "not valid UTF-8", (const char *)NULL);
		if ((size_t)(end - s) < n)
			return fail(p, line, "not valid UTF-8", (const char *)NULL);
		for (size_t i = 1; i < n; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return fail(p, line, "not valid UTF-8", (const char *)NULL);
			c = c << 6 | (s[i] & 0x3f);
		}
		if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
			return fail(p, line, "not valid UTF-8", (const char *)NULL);
		/* Not: C1 controls, and NEL, LS, PS, which YAML 1.1 reads as line
		 * breaks, and a byte order mark. */
		if (!((c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || c >= 0x10000) ||
		    c == 0x2028 || c == 0x2029 || c == 0xfeff)
			return fail(p, line, "a character YAML does not allow here",
				    (const char *)NULL);
		s += n;
	}
	return 0;
}

/* Skips blank lines; returns the current line or NULL at the end. */
static RT_NOINST struct line *cur(struct psr *p)
{
	while (p->i < p->nl && p->L[p->i].blank)
		p->i++;
	return p->i < p->nl ? &p->L[p->i] : NULL;
}

/* ------------------------------------------------------------------ */
/* Scalars                                                              */
/* ------------------------------------------------------------------ */

struct sval {
	char *text;		/* decoded, NUL-terminated (arena) */
	size_t len;
	bool quoted;
	bool null;
};

static RT_NOINST int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static RT_NOINST size_t put_utf8(char *o, uint32_t c)
{
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xc0 | (c >> 6));
		o[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xe0 | (c >> 12));
		o[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		o[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (c >> 18));
	o[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	o[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/* A double-quoted scalar at *pos (on the opening quote), on this line. */
static RT_NOINST int dquoted(struct psr *p, const char **pos, const char *end, struct sval *v)
{
	const char *c = *pos + 1;
	char *o = alloc(p, (size_t)(end - c) * 2 + 1);	/* escapes never grow 2x */
	size_t n = 0;
	if (!o)
		return -1;
	for (;;) {
		int k, digits;
		uint32_t u;
		if (c >= end)
			return fail(p, p->i, "a quoted string does not end on its line (multi-line "
				    "strings are not supported)", (const char *)NULL);
		if (*c == '"')
			break;
		if ((unsigned char)*c < 0x20 && *c != '\t')
			return fail(p, p->i, "a control character in a quoted string",
				    (const char *)NULL);
		if (*c != '\\') {
			o[n++] = *c++;
			continue;
		}
		if (++c >= end)
			return fail(p, p->i, "a quoted string ends in '\\'", (const char *)NULL);
		digits = 0;
		switch (*c) {
		case '0': o[n++] = '\0'; break;
		case 'a': o[n++] = '\a'; break;
		case 'b': o[n++] = '\b'; break;
		case 't': case '\t': o[n++] = '\t'; break;
		case 'n': o[n++] = '\n'; break;
		case 'v': o[n++] = '\v'; break;
		case 'f': o[n++] = '\f'; break;
		case 'r': o[n++] = '\r'; break;
		case 'e': o[n++] = 0x1b; break;
		case ' ': o[n++] = ' '; break;
		case '"': o[n++] = '"'; break;
		case '/': o[n++] = '/'; break;
		case '\\': o[n++] = '\\'; break;
		case 'N': n += put_utf8(o + n, 0x85); break;
		case '_': n += put_utf8(o + n, 0xa0); break;
		case 'L': n += put_utf8(o + n, 0x2028); break;
		case 'P': n += put_utf8(o + n, 0x2029); break;
		case 'x': digits = 2; break;
		case 'u': digits = 4; break;
		case 'U': digits = 8; break;
		default:
			return fail(p, p->i, "an unknown escape in a quoted string",
				    (const char *)NULL);
		}
		c++;
		if (!digits)
			continue;
		u = 0;
		for (k = 0; k < digits; k++) {
			int h = c + k < end ? hexval(c[k]) : -1;
			if (h < 0)
				return fail(p, p->i, "a bad \\x, \\u or \\U escape", (const char *)NULL);
			u = u << 4 | (uint32_t)h;
		}
		if (u > 0x10ffff || (u >= 0xd800 && u <= 0xdfff))
			return fail(p, p->i, "an escape that is not a Unicode character",
				    (const char *)NULL);
		n += put_utf8(o + n, u);
		c += digits;
	}
	o[n] = '\0';
	if (strlen(o) != n)
		return fail(p, p->i, "a NUL character in a string", (const char *)NULL);
	v->text = o;
	v->len = n;
	v->quoted = true;
	v->null = false;
	*pos = c + 1;
	return 0;
}

static RT_NOINST int squoted(struct psr *p, const char **pos, const char *end, struct sval *v)
{
	const char *c = *pos + 1;
	char *o = alloc(p, (size_t)(end - c) + 1);
	size_t n = 0;
	if (!o)
		return -1;
	for (;;) {
		if (c >= end)
			return fail(p, p->i, "a quoted string does not end on its line (multi-line "
				    "strings are not supported)", (const char *)NULL);
		if (*c == '\'') {
			if (c + 1 < end && c[1] == '\'') {
				o[n++] = '\'';
				c += 2;
				continue;
			}
			break;
		}
		if ((unsigned char)*c < 0x20 && *c != '\t')
			return fail(p, p->i, "a control character in a quoted string",
				    (const char *)NULL);
		o[n++] = *c++;
	}
	o[n] = '\0';
	v->text = o;
	v->len = n;
	v->quoted = true;
	v->null = false;
	*pos = c + 1;
	return 0;
}

/* A scalar at *pos: quoted, or plain up to the end of the line (block) or
 * to ',' / ']' (flow), without trailing spaces or a " #" comment.  *pos is
 * left after it (and after trailing spaces). */
static RT_NOINST int scalar(struct psr *p, const char **pos, const char *end, bool flow,
			    struct sval *v)
{
	const char *c = *pos, *start = c, *stop;
	if (c < end && *c == '"') {
		if (dquoted(p, pos, end, v) < 0)
			return -1;
	} else if (c < end && *c == '\'') {
		if (squoted(p, pos, end, v) < 0)
			return -1;
	} else {
		if (c < end && (strchr("?:,[]{}#&*!|>%@`", *c) ||
				(*c == '-' && (c + 1 >= end || c[1] == ' '))))
			return fail(p, p->i, "unsupported YAML (a flow mapping, anchor, alias, tag, "
				    "block scalar or nested sequence) where a value was expected",
				    (const char *)NULL);
		while (c < end) {
			if (flow && (*c == ',' || *c == ']'))
				break;
			if (flow && (*c == '[' || *c == '{' || *c == '}'))
				return fail(p, p->i, "a '[', '{' or '}' inside a plain value",
					    (const char *)NULL);
			if (*c == ':' && (c + 1 >= end || c[1] == ' ' ||
					  (flow && strchr(",[]{}", c[1]))))
				return fail(p, p->i, "a mapping where a value was expected",
					    (const char *)NULL);
			if (*c == '#' && c > start && c[-1] == ' ')
				break;
			if ((unsigned char)*c < 0x20)
				return fail(p, p->i, "a control character or tab in a plain value",
					    (const char *)NULL);
			c++;
		}
		stop = c;
		while (stop > start && stop[-1] == ' ')
			stop--;
		v->len = (size_t)(stop - start);
		v->text = alloc(p, v->len + 1);
		if (!v->text)
			return -1;
		memcpy(v->text, start, v->len);
		v->text[v->len] = '\0';
		v->quoted = false;
		v->null = !v->len || strcmp(v->text, "~") == 0 || strcmp(v->text, "null") == 0 ||
			  strcmp(v->text, "Null") == 0 || strcmp(v->text, "NULL") == 0;
		*pos = c;
	}
	while (*pos < end && **pos == ' ')
		(*pos)++;
	return 0;
}

/* Nothing but spaces or a comment left on the line? */
static RT_NOINST int line_end(struct psr *p, const char *c, const char *end)
{
	while (c < end && *c == ' ')
		c++;
	if (c < end && *c != '#')
		return fail(p, p->i, "unexpected text after a value", (const char *)NULL);
	return 0;
}

/* A whole-line value (after "key: "). */
static RT_NOINST int line_scalar(struct psr *p, const char *c, const char *end, struct sval *v)
{
	if (scalar(p, &c, end, false, v) < 0)
		return -1;
	return line_end(p, c, end);
}

/* Typed fields. */
static RT_NOINST int digits_u64(const struct sval *v, uint64_t *out)
{
	uint64_t x = 0;
	if (v->null || !v->len || (v->text[0] == '0' && v->len > 1))
		return -1;
	for (size_t i = 0; i < v->len; i++) {
		unsigned d = (unsigned char)v->text[i] - '0';
		if (d > 9)
			return -1;
		if (x > (UINT64_MAX - d) / 10)
			return -2;
		x = x * 10 + d;
	}
	*out = x;
	return 0;
}

static RT_NOINST int get_count(struct psr *p, const struct sval *v, const char *what,
			       uint64_t *out)
{
	int rc = digits_u64(v, out);
	if (rc == -2)
		return fail(p, p->i, what, ": ", v->text, " does not fit in 64 bits",
			    (const char *)NULL);
	if (rc < 0)
		return fail(p, p->i, what, ": expected a decimal integer, got '", v->text, "'",
			    (const char *)NULL);
	return 0;
}

/* A big integer (path number): any number of digits.  *fits tells whether
 * it fits in 64 bits (then *out is its value). */
static RT_NOINST int get_bignum(struct psr *p, const struct sval *v, uint64_t *out, bool *fits)
{
	int rc = digits_u64(v, out);
	*fits = rc == 0;
	if (rc == -2) {
		for (size_t i = 0; i < v->len; i++)
			if (v->text[i] < '0' || v->text[i] > '9')
				rc = -1;
		if (rc == -2)
			return 0;
	}
	if (rc < 0)
		return fail(p, p->i, "path number: expected a decimal integer, got '", v->text,
			    "'", (const char *)NULL);
	return 0;
}

static RT_NOINST int get_hex64(struct psr *p, const struct sval *v, uint64_t *out)
{
	uint64_t x = 0;
	if (v->len != 16)
		goto bad;
	for (int i = 0; i < 16; i++) {
		int h = hexval(v->text[i]);
		if (h < 0)
			goto bad;
		x = x << 4 | (uint64_t)h;
	}
	*out = x;
	return 0;
bad:
	return fail(p, p->i, "checksum: expected 16 hex digits, got '", v->text, "'",
		    (const char *)NULL);
}

static RT_NOINST int get_name(struct psr *p, const struct sval *v, const char *what)
{
	if (v->null && !v->quoted)
		return fail(p, p->i, what, ": expected a name, got null", (const char *)NULL);
	if (!v->len)
		return fail(p, p->i, what, ": must not be empty", (const char *)NULL);
	if (!rt_utf8_ok(v->text))
		return fail(p, p->i, what, ": not valid UTF-8", (const char *)NULL);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Keys                                                                 */
/* ------------------------------------------------------------------ */

/* "key:" at c: the key in key[64], *c after ':' and the spaces after it.
 * Keys are plain words ([A-Za-z0-9_-]). */
static RT_NOINST int key_of(struct psr *p, const char **c, const char *end, char key[64])
{
	const char *k = *c;
	size_t n = 0;
	while (k + n < end && n < 63 &&
	       ((k[n] >= 'a' && k[n] <= 'z') || (k[n] >= 'A' && k[n] <= 'Z') ||
		(k[n] >= '0' && k[n] <= '9') || k[n] == '_' || k[n] == '-'))
		n++;
	if (!n || k + n >= end || k[n] != ':' || (k + n + 1 < end && k[n + 1] != ' '))
		return fail(p, p->i, "expected 'key: value'", (const char *)NULL);
	memcpy(key, k, n);
	key[n] = '\0';
	k += n + 1;
	while (k < end && *k == ' ')
		k++;
	*c = k;
	return 0;
}

/* The value after a key is empty (nothing, a comment) or "[]"? */
static RT_NOINST int empty_or_list(struct psr *p, const char *c, const char *end, bool *list)
{
	*list = false;
	if (c >= end || *c == '#')
		return 0;
	if (*c == '[') {
		c++;
		while (c < end && *c == ' ')
			c++;
		if (c < end && *c == ']') {
			*list = true;
			return line_end(p, c + 1, end);
		}
		return fail(p, p->i, "a non-empty inline list (records must be one per line)",
			    (const char *)NULL);
	}
	{
		struct sval v;
		if (line_scalar(p, c, end, &v) < 0)
			return -1;
		if (v.null && !v.quoted) {
			*list = true;	/* "null": an empty list */
			return 0;
		}
	}
	return fail(p, p->i, "expected a list", (const char *)NULL);
}

/* A flow sequence "[a, [b, c], d]" of scalars and flow sequences (any
 * depth) at *pos, on this line; *pos is left after it. */
static RT_NOINST int flow_value(struct psr *p, const char **pos, const char *end, int depth)
{
	const char *c = *pos + 1;
	struct sval v;
	if (depth > 8)
		return fail(p, p->i, "lists nested too deeply", (const char *)NULL);
	while (c < end && *c == ' ')
		c++;
	while (c < end && *c != ']') {
		if (*c == '[') {
			if (flow_value(p, &c, end, depth + 1) < 0)
				return -1;
		} else if (scalar(p, &c, end, true, &v) < 0) {
			return -1;
		}
		if (c < end && *c == ',') {
			c++;
			while (c < end && *c == ' ')
				c++;
			if (c < end && *c == ']')
				return fail(p, p->i, "a missing list item", (const char *)NULL);
		} else if (c < end && *c != ']') {
			return fail(p, p->i, "expected ',' or ']' in a list", (const char *)NULL);
		}
	}
	if (c >= end)
		return fail(p, p->i, "a list does not end on its line", (const char *)NULL);
	c++;
	while (c < end && *c == ' ')
		c++;
	*pos = c;
	return 0;
}

/* A one-line value at c: a scalar or a flow sequence. */
static RT_NOINST int one_line_value(struct psr *p, const char *c, const char *end)
{
	struct sval v;
	if (c < end && *c == '[') {
		if (flow_value(p, &c, end, 0) < 0)
			return -1;
		return line_end(p, c, end);
	}
	return line_scalar(p, c, end, &v);
}

/* The value of an x- key whose line is the current one, key at column
 * col, value text at c.  Extensions are kept, not interpreted, but only
 * in forms this parser can check are well formed: a one-line scalar or
 * flow sequence, or (nothing on the key's line) a block sequence of such
 * values at col or deeper, or a block mapping of "key: value" lines
 * deeper than col.  Advances p->i past it and sets the span. */
static RT_NOINST int x_value(struct psr *p, uint32_t col, const char *c, const char *end,
			     struct rt_span *sp, uint32_t strip, bool dash, size_t *lastp)
{
	size_t first = p->i, last = p->i;
	int32_t J = -1;
	bool seq = false;
	struct line *l;
	if (c < end && *c != '#') {
		if (one_line_value(p, c, end) < 0)
			return -1;
		p->i++;
	} else {
		p->i++;
		while ((l = cur(p)) != NULL) {
			const char *d = l->s + l->indent;
			bool item = d < l->end && *d == '-' && (d + 1 == l->end || d[1] == ' ');
			if (l->indent < col || (l->indent == col && !(item && (J < 0 || seq))))
				break;
			if (J < 0) {
				J = (int32_t)l->indent;
				seq = item;
			}
			if (l->indent != (uint32_t)J || item != seq)
				return fail(p, p->i, "an x- value in a form this runtime does not "
					    "read", (const char *)NULL);
			if (seq) {
				d++;
				while (d < l->end && *d == ' ')
					d++;
				if (one_line_value(p, d, l->end) < 0)
					return -1;
			} else {
				char key[64];
				if (l->indent == col)
					break;
				if (key_of(p, &d, l->end, key) < 0 || one_line_value(p, d, l->end) < 0)
					return -1;
			}
			last = p->i++;
		}
	}
	l = cur(p);
	if (l && l->indent > col)
		return fail(p, p->i, "unexpected indentation after an x- key", (const char *)NULL);
	sp->text = p->L[first].s;
	sp->len = (size_t)(p->L[last].next - p->L[first].s);
	sp->strip = strip;
	sp->dash = dash;
	*lastp = last;
	return 0;
}

static RT_NOINST int push_span(struct psr *p, struct rt_span **v, size_t *n, size_t *cap,
			       const struct rt_span *sp)
{
	if (*n == *cap) {
		size_t nc = *cap ? 2 * *cap : 8;
		struct rt_span *g = alloc(p, nc * sizeof(*g));
		if (!g)
			return -1;
		if (*n)
			memcpy(g, *v, *n * sizeof(*g));
		*v = g;
		*cap = nc;
	}
	(*v)[(*n)++] = *sp;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Records                                                              */
/* ------------------------------------------------------------------ */

struct fields {
	struct sval v[5];
	int32_t *stack;
	uint32_t nstack;
	int nv;
	int list_at;		/* index of the nested list, -1 if none */
};

/* "[a, b, [c, d], e]" at c, to the end of the line. */
static RT_NOINST int flow_record(struct psr *p, const char *c, const char *end,
				 struct fields *f)
{
	f->nv = 0;
	f->list_at = -1;
	f->nstack = 0;
	if (c >= end || *c != '[')
		return fail(p, p->i, "expected a record '[...]' on one line", (const char *)NULL);
	c++;
	while (c < end && *c == ' ')
		c++;
	while (c < end && *c != ']') {
		if (f->nv == 5)
			return fail(p, p->i, "a record with more than 5 fields", (const char *)NULL);
		if (*c == '[') {
			/* the stop stack: ids */
			size_t cap = 0;
			const char *q;
			if (f->list_at >= 0)
				return fail(p, p->i, "a record with two lists", (const char *)NULL);
			f->list_at = f->nv;
			for (q = c; q < end && *q != ']'; q++)
				cap += *q == ',';
			f->stack = alloc(p, (cap + 1) * sizeof(int32_t));
			if (!f->stack)
				return -1;
			c++;
			while (c < end && *c == ' ')
				c++;
			while (c < end && *c != ']') {
				struct sval id;
				uint64_t x;
				if (scalar(p, &c, end, true, &id) < 0)
					return -1;
				if (digits_u64(&id, &x) < 0 || x > INT32_MAX - 1)
					return fail(p, p->i, "stop stack vertex: expected an id in [0, "
						    "2147483646], got '", id.text, "'",
						    (const char *)NULL);
				if (f->nstack > cap)
					return fail(p, p->i, "a malformed stop stack", (const char *)NULL);
				f->stack[f->nstack++] = (int32_t)x;
				if (c < end && *c == ',') {
					c++;
					while (c < end && *c == ' ')
						c++;
					if (c < end && *c == ']')
						return fail(p, p->i, "a missing list item",
							    (const char *)NULL);
				}
			}
			if (c >= end)
				return fail(p, p->i, "a list does not end on its line",
					    (const char *)NULL);
			c++;
			while (c < end && *c == ' ')
				c++;
			f->v[f->nv].text = NULL;
			f->nv++;
		} else {
			if (scalar(p, &c, end, true, &f->v[f->nv]) < 0)
				return -1;
			f->nv++;
		}
		if (c < end && *c == ',') {
			c++;
			while (c < end && *c == ' ')
				c++;
			if (c < end && *c == ']')
				return fail(p, p->i, "a missing record field", (const char *)NULL);
		} else if (c < end && *c != ']') {
			return fail(p, p->i, "expected ',' or ']' in a record", (const char *)NULL);
		}
	}
	if (c >= end)
		return fail(p, p->i, "a record does not end on its line", (const char *)NULL);
	return line_end(p, c + 1, end);
}

/* The kinds of record lists of a module, in the order of their keys. */
enum { L_PATHS, L_PARTIAL, L_ICALLS, L_FORKED, L_N };

/* [site, callee unit, "checksum", callee region, count] into r. */
static RT_NOINST int icall_record(struct psr *p, struct fields *f, struct rt_rec *r)
{
	static const char hex[] = "0123456789abcdef";
	uint64_t site, cs;
	char *ccs;
	if (f->nv != 5 || f->list_at >= 0)
		return fail(p, p->i, "expected an indirect-call record [site, callee module, "
			    "checksum, callee region, count]", (const char *)NULL);
	if (digits_u64(&f->v[0], &site) < 0 || site > INT32_MAX - 1)
		return fail(p, p->i, "call site: expected a vertex id in [0, 2147483646], got '",
			    f->v[0].text, "'", (const char *)NULL);
	if (get_name(p, &f->v[1], "callee module") < 0 || get_hex64(p, &f->v[2], &cs) < 0 ||
	    get_name(p, &f->v[3], "callee region") < 0 ||
	    get_count(p, &f->v[4], "count", &r->count) < 0)
		return -1;
	ccs = alloc(p, 17);
	if (!ccs)
		return -1;
	for (int k = 0; k < 16; k++)
		ccs[k] = hex[(cs >> (60 - 4 * k)) & 15];	/* written lower-case */
	ccs[16] = '\0';
	r->num = site;
	r->cmod = f->v[1].text;
	r->ccs = ccs;
	r->region = f->v[3].text;
	return 0;
}

/* One record line of list `kind`, appended to *recs.  Numbers beyond 64
 * bits are kept as text (other programs' modules; in ours they are an
 * error). */
static RT_NOINST int record(struct psr *p, const char *c, const char *end, int kind,
			    bool ours, struct rt_rec **recs, size_t *n, size_t *cap)
{
	struct fields f;
	struct rt_rec r;
	/* forked prefixes are written as partial paths are */
	bool fits, partial = kind == L_PARTIAL || kind == L_FORKED;
	int want = partial ? 4 : 3;
	if (flow_record(p, c, end, &f) < 0)
		return -1;
	memset(&r, 0, sizeof(r));
	r.from_file = 1;
	if (kind == L_ICALLS) {
		if (icall_record(p, &f, &r) < 0)
			return -1;
		goto add;
	}
	if (f.nv != want || (partial ? f.list_at != 2 : f.list_at >= 0))
		return fail(p, p->i, partial ? "expected a partial-path record [region, number, "
			    "[stack], count]" : "expected a path record [region, number, count]",
			    (const char *)NULL);
	if (get_name(p, &f.v[0], "region name") < 0 ||
	    get_bignum(p, &f.v[1], &r.num, &fits) < 0 ||
	    get_count(p, &f.v[want - 1], "count", &r.count) < 0)
		return -1;
	if (partial && !f.nstack)
		return fail(p, p->i, "stop stack: expected a non-empty list of vertex ids",
			    (const char *)NULL);
	if (!fits && ours)
		return fail(p, p->i, "path number ", f.v[1].text, " is out of range for this "
			    "program's module", (const char *)NULL);
	r.big = fits ? NULL : f.v[1].text;
	r.region = f.v[0].text;
	r.stack = partial ? f.stack : NULL;
	r.nstack = partial ? f.nstack : 0;
add:
	if (*n == *cap) {
		size_t nc = *cap ? 2 * *cap : 64;
		struct rt_rec *g = alloc(p, nc * sizeof(*g));
		if (!g)
			return -1;
		if (*n)
			memcpy(g, *recs, *n * sizeof(*g));
		*recs = g;
		*cap = nc;
	}
	(*recs)[(*n)++] = r;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Modules                                                              */
/* ------------------------------------------------------------------ */

/* The lists MK_PATHS.. are in the order of L_PATHS.. */
enum { MK_MODULE, MK_CHECKSUM, MK_MODE, MK_RUNS, MK_PATHS, MK_PARTIAL, MK_ICALLS, MK_FORKED,
       MK_N };
static const char *const mkeys[MK_N] = { "module", "checksum", "mode", "runs", "paths", "partial",
					 "indirect-calls", "forked" };

static RT_NOINST bool known_mode(const char *s)
{
	return strcmp(s, "context") == 0 || strcmp(s, "piecewise") == 0 ||
	       strcmp(s, "intra") == 0 || strcmp(s, "intra-context") == 0;
}

/* The pmod of this program with this name and checksum, or NULL. */
static RT_NOINST struct rt_pmod *find_pmod(struct rt_snapshot *s, const char *name, uint64_t cs)
{
	for (size_t i = 0; i < s->npmods; i++) {
		uint64_t x = 0;
		for (int k = 0; k < 16; k++)
			x = x << 4 | (uint64_t)hexval(s->pmods[i].checksum[k]);
		if (x == cs && strcmp(s->pmods[i].name, name) == 0)
			return &s->pmods[i];
	}
	return NULL;
}

/* Parses one module whose "- " is on the current line at column I.
 * Record lines are parsed in a second sweep, once the module's name and
 * checksum are known (the keys may come in any order). */
static RT_NOINST int module(struct psr *p, struct rt_snapshot *s, struct rt_fmod *m, uint32_t I)
{
	uint32_t K = I + 2;
	bool seen[MK_N] = { false };
	size_t list_first[L_N] = { 0 }, list_end[L_N] = { 0 };
	size_t capx = 0, first = p->i, last = p->i;
	struct sval v;
	struct line *l;

	m->line = (int)p->i + 1;
	for (bool head = true;; head = false) {
		const char *c;
		char key[64];
		int k;
		l = cur(p);
		if (!l)
			break;
		if (head) {
			c = l->s + I + 2;
		} else {
			if (l->indent < K)
				break;
			if (l->indent > K)
				return fail(p, p->i, "unexpected indentation in a module",
					    (const char *)NULL);
			c = l->s + K;
			if (c < l->end && *c == '-')
				return fail(p, p->i, "expected a key of the module",
					    (const char *)NULL);
		}
		if (key_of(p, &c, l->end, key) < 0)
			return -1;
		if (strncmp(key, "x-", 2) == 0) {
			struct rt_span sp;
			if (x_value(p, K, c, l->end, &sp, I, head, &last) < 0 ||
			    push_span(p, &m->x, &m->nx, &capx, &sp) < 0)
				return -1;
			continue;
		}
		for (k = 0; k < MK_N && strcmp(key, mkeys[k]) != 0; k++)
			;
		if (k == MK_N)
			return fail(p, p->i, "unknown key '", key, "' in a profile module",
				    (const char *)NULL);
		if (seen[k])
			return fail(p, p->i, "key '", key, "' given twice", (const char *)NULL);
		seen[k] = true;
		if (k >= MK_PATHS) {
			bool inl;
			uint32_t J = 0;
			int w = k - MK_PATHS;
			if (empty_or_list(p, c, l->end, &inl) < 0)
				return -1;
			last = p->i++;
			list_first[w] = p->i;
			while ((l = cur(p)) != NULL && !inl) {
				const char *d = l->s + l->indent;
				bool item = l->end - d >= 1 && d[0] == '-' &&
					    (l->end - d == 1 || d[1] == ' ');
				if (l->indent < K || (l->indent == K && !item))
					break;
				if (!item || (J && l->indent != J))
					return fail(p, p->i, "expected a record '- [...]'",
						    (const char *)NULL);
				J = l->indent;
				last = p->i++;
			}
			list_end[w] = last + 1;
			continue;
		}
		if (line_scalar(p, c, l->end, &v) < 0)
			return -1;
		switch (k) {
		case MK_MODULE:
			if (get_name(p, &v, "module") < 0)
				return -1;
			m->name = v.text;
			break;
		case MK_CHECKSUM:
			if (get_hex64(p, &v, &m->checksum) < 0)
				return -1;
			break;
		case MK_MODE:
			if (!known_mode(v.text))
				return fail(p, p->i, "unknown mode '", v.text, "'", (const char *)NULL);
			m->mode = v.text;
			break;
		default:
			if (get_count(p, &v, "runs", &m->runs) < 0)
				return -1;
		}
		last = p->i++;
	}
	for (int k = 0; k < MK_PATHS; k++)
		if (!seen[k])
			return fail(p, first, "profile module lacks the key '", mkeys[k], "'",
				    (const char *)NULL);
	m->text.text = p->L[first].s;
	m->text.len = (size_t)(p->L[last].next - p->L[first].s);
	m->text.strip = I;
	m->ours = find_pmod(s, m->name, m->checksum);
	if (m->ours && strcmp(m->ours->mode, m->mode) != 0)
		return fail(p, first, "module ", m->name, " is recorded in mode ", m->mode,
			    " but this program has it in mode ", m->ours->mode, (const char *)NULL);
	if (m->ours && m->nx && I)
		return fail(p, first, "x- keys in an indented module list are not supported",
			    (const char *)NULL);

	/* The records. */
	for (int w = 0; w < L_N; w++) {
		static const char *const what[L_N] = { "path", "partial-path", "indirect-call",
							"forked-prefix" };
		size_t cap = 0, end = list_end[w];
		struct rt_rec **recs = w == L_PATHS ? &m->paths : w == L_PARTIAL ? &m->partials :
				       w == L_FORKED ? &m->forked : &m->icalls;
		size_t *n = w == L_PATHS ? &m->npaths : w == L_PARTIAL ? &m->npartials :
			    w == L_FORKED ? &m->nforked : &m->nicalls;
		size_t save = p->i;
		for (p->i = list_first[w]; p->i < end; p->i++) {
			const char *c;
			l = &p->L[p->i];
			if (l->blank)
				continue;
			for (c = l->s + l->indent + 1; c < l->end && *c == ' '; c++)
				;
			if (record(p, c, l->end, w, m->ours != NULL, recs, n, &cap) < 0)
				return -1;
		}
		p->i = save;
		/* Records must be unique by key (ipp's reader rejects the file
		 * otherwise, and we copy other modules verbatim). */
		{
			size_t k = rt_recs_normalize(*recs, *n);
			if (k == (size_t)-1)
				return fail(p, first, "module ", m->name, " has a duplicate ",
					    what[w], " record", (const char *)NULL);
			*n = k;
		}
	}
	return 0;
}

/* The module list under "modules:" (the current line is that key). */
static RT_NOINST int modules(struct psr *p, struct rt_snapshot *s, struct rt_file *f)
{
	size_t cap = 0;
	int32_t I = -1;
	struct line *l;
	p->i++;
	while ((l = cur(p)) != NULL) {
		const char *d = l->s + l->indent;
		struct rt_fmod *m;
		if (!(l->end - d >= 2 && d[0] == '-' && d[1] == ' '))
			break;	/* the end of the list */
		if (I >= 0 && l->indent != (uint32_t)I)
			return fail(p, p->i, "a module at another indentation", (const char *)NULL);
		I = (int32_t)l->indent;
		if (f->nmods == cap) {
			size_t nc = cap ? 2 * cap : 16;
			struct rt_fmod *g = alloc(p, nc * sizeof(*g));
			if (!g)
				return -1;
			if (f->nmods)
				memcpy(g, f->mods, f->nmods * sizeof(*g));
			f->mods = g;
			cap = nc;
		}
		m = &f->mods[f->nmods++];
		memset(m, 0, sizeof(*m));
		if (module(p, s, m, (uint32_t)I) < 0)
			return -1;
		for (size_t k = 0; k + 1 < f->nmods; k++)
			if (f->mods[k].checksum == m->checksum && strcmp(f->mods[k].name, m->name) == 0)
				return fail(p, (size_t)m->line - 1, "module ", m->name,
					    " is listed twice", (const char *)NULL);
	}
	if (l && l->indent > 0)
		return fail(p, p->i, "unexpected indentation", (const char *)NULL);
	return 0;
}

/* ------------------------------------------------------------------ */
/* The document                                                         */
/* ------------------------------------------------------------------ */

static RT_NOINST bool is_line(const struct line *l, const char *what)
{
	const char *e = l->end;
	size_t n = strlen(what);
	while (e > l->s && e[-1] == ' ')
		e--;
	return l->indent == 0 && (size_t)(e - l->s) == n && memcmp(l->s, what, n) == 0;
}

static RT_NOINST int document(struct psr *p, struct rt_snapshot *s, struct rt_file *f)
{
	struct line *l = cur(p);
	bool have_modules = false;
	size_t capx = 0;
	struct sval v;
	char key[64];
	const char *c;
	uint64_t version;

	if (l && is_line(l, "%YAML 1.1")) {
		p->i++;
		l = cur(p);
	}
	if (!l || !is_line(l, "---"))
		return fail(p, l ? p->i : (size_t)-1, "expected '---' (the start of a profile)",
			    (const char *)NULL);
	p->i++;
	l = cur(p);
	c = l ? l->s : NULL;
	if (!l || l->indent || key_of(p, &c, l->end, key) < 0 || strcmp(key, "ipp-profile") != 0)
		return fail(p, l ? p->i : (size_t)-1, "expected 'ipp-profile: 1' as the first key "
			    "of a profile", (const char *)NULL);
	if (line_scalar(p, c, l->end, &v) < 0)
		return -1;
	if (digits_u64(&v, &version) < 0 || version != 1)
		return fail(p, p->i, "unsupported profile version '", v.text, "'; this runtime "
			    "writes version 1", (const char *)NULL);
	p->i++;
	for (;;) {
		l = cur(p);
		if (!l)
			return fail(p, (size_t)-1, "the document does not end with '...' (truncated?)",
				    (const char *)NULL);
		if (is_line(l, "..."))
			break;
		if (l->indent)
			return fail(p, p->i, "unexpected indentation", (const char *)NULL);
		c = l->s;
		if (key_of(p, &c, l->end, key) < 0)
			return -1;
		if (strncmp(key, "x-", 2) == 0) {
			struct rt_span sp;
			size_t xl;
			if (x_value(p, 0, c, l->end, &sp, 0, false, &xl) < 0 ||
			    push_span(p, &f->x, &f->nx, &capx, &sp) < 0)
				return -1;
			continue;
		}
		if (strcmp(key, "digest") == 0) {
			/* checked by check_digest; written anew */
			if (p->i + 1 != p->digest)
				return fail(p, p->i, "the key 'digest' must be the last line before "
					    "'...'", (const char *)NULL);
			p->i++;
			continue;
		}
		if (strcmp(key, "modules") != 0)
			return fail(p, p->i, "unknown key '", key, "' in a profile", (const char *)NULL);
		if (have_modules)
			return fail(p, p->i, "key 'modules' given twice", (const char *)NULL);
		have_modules = true;
		if (c < l->end && *c != '#') {
			bool inl;
			if (empty_or_list(p, c, l->end, &inl) < 0)
				return -1;
			p->i++;
			continue;
		}
		if (modules(p, s, f) < 0)
			return -1;
	}
	if (!have_modules)
		return fail(p, p->i, "the profile lacks the key 'modules'", (const char *)NULL);
	p->i++;
	if (cur(p))
		return fail(p, p->i, "text after the end of the profile ('...'); a profile is one "
			    "document", (const char *)NULL);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Matching and merging                                                 */
/* ------------------------------------------------------------------ */

static RT_NOINST int merge_recs(struct rt_arena *a, struct rt_rec **v, size_t *n, size_t *cap,
				const struct rt_rec *add, size_t nadd)
{
	if (!nadd)
		return 0;
	if (*n + nadd > *cap) {
		size_t nc = *n + nadd;
		struct rt_rec *g = rt_arena_alloc(a, nc * sizeof(*g));
		if (!g)
			return -1;
		if (*n)
			memcpy(g, *v, *n * sizeof(*g));
		*v = g;
		*cap = nc;
	}
	memcpy(*v + *n, add, nadd * sizeof(*add));
	*n = rt_recs_normalize(*v, *n + nadd);
	return 0;
}

RT_HIDDEN int rt_file_parse(const char *buf, size_t len, const char *path,
			    struct rt_snapshot *s, struct rt_arena *a, struct rt_file *f,
			    char *err, size_t errlen)
{
	struct psr p;
	int rc;

	memset(&p, 0, sizeof(p));
	memset(f, 0, sizeof(*f));
	p.path = path;
	p.a = a;
	p.err = err;
	p.errlen = errlen;
	rc = split_lines(&p, buf, len);
	if (rc == 0)
		rc = check_digest(&p, buf);
	if (rc == 0)
		rc = check_text(&p, buf, len);
	if (rc == 0)
		rc = document(&p, s, f);
	if (p.oom)
		return -2;
	if (rc < 0)
		return -1;

	/* Stale modules: a name we have, none of whose checksums is ours. */
	for (size_t i = 0; i < f->nmods; i++) {
		struct rt_fmod *m = &f->mods[i];
		bool ours_name = false, matched = false;
		if (m->ours)
			continue;
		for (size_t k = 0; k < s->npmods; k++)
			ours_name |= strcmp(s->pmods[k].name, m->name) == 0;
		for (size_t k = 0; ours_name && k < f->nmods; k++)
			matched |= f->mods[k].ours && strcmp(f->mods[k].name, m->name) == 0;
		if (ours_name && !matched) {
			m->stale = true;
			if (!f->nstale++)
				f->first_stale = m;
		}
	}
	/* Merge (nothing can fail but memory from here on). */
	for (size_t i = 0; i < f->nmods; i++) {
		struct rt_fmod *m = &f->mods[i];
		struct rt_pmod *pm = m->ours;
		if (!pm)
			continue;
		pm->in_file = true;
		pm->runs = rt_sat_add(pm->runs, m->runs);
		if (merge_recs(a, &pm->paths, &pm->npaths, &pm->cap_paths, m->paths, m->npaths) < 0 ||
		    merge_recs(a, &pm->partials, &pm->npartials, &pm->cap_partials, m->partials,
			       m->npartials) < 0 ||
		    merge_recs(a, &pm->icalls, &pm->nicalls, &pm->cap_icalls, m->icalls,
			       m->nicalls) < 0 ||
		    merge_recs(a, &pm->forked, &pm->nforked, &pm->cap_forked, m->forked,
			       m->nforked) < 0)
			return -2;
	}
	return 0;
}
