/* rt_emit.c -- formatting the profile by hand (docs/FORMAT.md, section
 * 3.2), with write(2) only: no stdio, no malloc, no locale, so that a
 * fatal-signal handler can use it.
 *
 * The layout is byte for byte that of ippcore/profile.c's ipp_profile_write
 * (records sorted by region name, number, stack; names plain when they are
 * "simple names", else double-quoted with the same escapes), so a profile
 * rewritten by the ipp tool does not change.  Modules of the existing file
 * that this program does not have are copied verbatim.
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

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* The buffered writer                                                  */
/* ------------------------------------------------------------------ */

RT_HIDDEN int rt_out_flush(struct rt_out *o)
{
	size_t off = 0;
	XXH64_update(&o->digest, o->buf, o->n);
	while (!o->err && off < o->n) {
		ssize_t w = write(o->fd, o->buf + off, o->n - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			o->err = w < 0 ? errno : EIO;
		else
			off += (size_t)w;
	}
	o->n = 0;
	return o->err ? -1 : 0;
}

RT_HIDDEN void rt_out_bytes(struct rt_out *o, const char *s, size_t n)
{
	while (n && !o->err) {
		size_t k = sizeof(o->buf) - o->n;
		if (!k) {
			rt_out_flush(o);
			continue;
		}
		if (k > n)
			k = n;
		memcpy(o->buf + o->n, s, k);
		o->n += k;
		s += k;
		n -= k;
	}
}

RT_HIDDEN void rt_out_str(struct rt_out *o, const char *s)
{
	rt_out_bytes(o, s, strlen(s));
}

RT_HIDDEN void rt_out_u64(struct rt_out *o, uint64_t v)
{
	char b[21];
	rt_out_str(o, rt_fmt_u64(v, b));
}

RT_HIDDEN void rt_out_i64(struct rt_out *o, int64_t v)
{
	if (v < 0) {
		rt_out_bytes(o, "-", 1);
		rt_out_u64(o, (uint64_t)0 - (uint64_t)v);
	} else {
		rt_out_u64(o, (uint64_t)v);
	}
}

/* ------------------------------------------------------------------ */
/* Names (FORMAT.md 1.2)                                                */
/* ------------------------------------------------------------------ */

/* One UTF-8 sequence at s: its length (0 if invalid: truncated, overlong,
 * a surrogate, beyond U+10FFFF) and code point. */
static RT_NOINST size_t utf8_decode(const unsigned char *s, uint32_t *cp)
{
	uint32_t c = s[0], min;
	size_t n;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if ((c & 0xe0) == 0xc0)
		n = 2, c &= 0x1f, min = 0x80;
	else if ((c & 0xf0) == 0xe0)
		n = 3, c &= 0x0f, min = 0x800;
	else if ((c & 0xf8) == 0xf0)
		n = 4, c &= 0x07, min = 0x10000;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;	/* also stops at the NUL */
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

RT_HIDDEN bool rt_utf8_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t cp;
	while (*p) {
		size_t n = utf8_decode(p, &cp);
		if (!n)
			return false;
		p += n;
	}
	return true;
}

static RT_NOINST bool ascii_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static RT_NOINST int ascii_lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* strcasecmp without the locale. */
static RT_NOINST bool same_word(const char *s, const char *w)
{
	for (; *s && *w; s++, w++)
		if (ascii_lower((unsigned char)*s) != *w)
			return false;
	return !*s && !*w;
}

RT_HIDDEN bool rt_simple_name(const char *s)
{
	static const char *const reserved[] = {
		"null", "true", "false", "yes", "no", "on", "off", "y", "n"
	};
	if (!ascii_alpha(s[0]) && s[0] != '_' && s[0] != '/')
		return false;
	for (const char *p = s; *p; p++)
		if (!ascii_alpha(*p) && !(*p >= '0' && *p <= '9') && !strchr("_./$#+-", *p))
			return false;
	for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
		if (same_word(s, reserved[i]))
			return false;
	return true;
}

/* YAML's printable set, minus what a double-quoted scalar must escape. */
static RT_NOINST bool printable(uint32_t c)
{
	return (c >= 0x20 && c <= 0x7e) || c == 0x85 || (c >= 0xa0 && c <= 0xd7ff) ||
	       (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
}

RT_HIDDEN void rt_out_name(struct rt_out *o, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p = (const unsigned char *)s;
	if (rt_simple_name(s)) {
		rt_out_str(o, s);
		return;
	}
	rt_out_bytes(o, "\"", 1);
	while (*p) {
		uint32_t c;
		size_t n = utf8_decode(p, &c);
		if (!n) {	/* names are checked at registration */
			c = *p;
			n = 1;
		}
		if (c == '"' || c == '\\') {
			char e[2] = { '\\', (char)c };
			rt_out_bytes(o, e, 2);
		} else if (!printable(c)) {
			char e[6];
			if (c < 0x100) {
				e[0] = '\\', e[1] = 'x', e[2] = hex[c >> 4], e[3] = hex[c & 15];
				rt_out_bytes(o, e, 4);
			} else {
				e[0] = '\\', e[1] = 'u', e[2] = hex[(c >> 12) & 15];
				e[3] = hex[(c >> 8) & 15], e[4] = hex[(c >> 4) & 15], e[5] = hex[c & 15];
				rt_out_bytes(o, e, 6);
			}
		} else {
			rt_out_bytes(o, (const char *)p, n);
		}
		p += n;
	}
	rt_out_bytes(o, "\"", 1);
}

/* ------------------------------------------------------------------ */
/* The profile                                                          */
/* ------------------------------------------------------------------ */

RT_HIDDEN void rt_out_span(struct rt_out *o, const struct rt_span *sp)
{
	const char *p = sp->text, *end = sp->text + sp->len;
	bool first = true;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl + 1 : end;
		uint32_t k = 0;
		while (k < sp->strip && p + k < eol && p[k] == ' ')
			k++;
		p += k;
		if (first && sp->dash && eol - p >= 2 && p[0] == '-' && p[1] == ' ') {
			rt_out_str(o, "  ");
			p += 2;
		}
		rt_out_bytes(o, p, (size_t)(eol - p));
		p = eol;
		first = false;
	}
}

static RT_NOINST void emit_records(struct rt_out *o, const char *key, const struct rt_rec *v,
				   size_t n)
{
	rt_out_str(o, "  ");
	rt_out_str(o, key);
	rt_out_str(o, n ? ":\n" : ": []\n");
	for (size_t i = 0; i < n; i++) {
		rt_out_str(o, "  - [");
		rt_out_name(o, v[i].region);
		rt_out_str(o, ", ");
		rt_out_u64(o, v[i].num);
		if (v[i].stack) {
			rt_out_str(o, ", [");
			for (uint32_t k = 0; k < v[i].nstack; k++) {
				if (k)
					rt_out_str(o, ", ");
				rt_out_i64(o, v[i].stack[k]);
			}
			rt_out_str(o, "]");
		}
		rt_out_str(o, ", ");
		rt_out_u64(o, v[i].count);
		rt_out_str(o, "]\n");
	}
}

/* "indirect-calls:" [site, callee unit, "checksum", callee region, count]
 * lines; nothing at all if there are none (the key is optional, and
 * profiles of programs without indirect calls stay as they were). */
static RT_NOINST void emit_icalls(struct rt_out *o, const struct rt_rec *v, size_t n)
{
	if (n)
		rt_out_str(o, "  indirect-calls:\n");
	for (size_t i = 0; i < n; i++) {
		rt_out_str(o, "  - [");
		rt_out_u64(o, v[i].num);
		rt_out_str(o, ", ");
		rt_out_name(o, v[i].cmod);
		rt_out_str(o, ", \"");
		rt_out_str(o, v[i].ccs);
		rt_out_str(o, "\", ");
		rt_out_name(o, v[i].region);
		rt_out_str(o, ", ");
		rt_out_u64(o, v[i].count);
		rt_out_str(o, "]\n");
	}
}

static RT_NOINST void emit_module(struct rt_out *o, const struct rt_pmod *pm,
				  const struct rt_fmod *fm)
{
	rt_out_str(o, "- module: ");
	rt_out_name(o, pm->name);
	rt_out_str(o, "\n  checksum: \"");
	rt_out_str(o, pm->checksum);
	rt_out_str(o, "\"\n  mode: ");
	rt_out_str(o, pm->mode);
	rt_out_str(o, "\n  runs: ");
	rt_out_u64(o, pm->runs);
	rt_out_str(o, "\n");
	emit_records(o, "paths", pm->paths, pm->npaths);
	emit_records(o, "partial", pm->partials, pm->npartials);
	/* optional (docs/FORMAT.md): no key at all when there are none */
	if (pm->nforked)
		emit_records(o, "forked", pm->forked, pm->nforked);
	emit_icalls(o, pm->icalls, pm->nicalls);
	/* x- keys of the module in the file, as they were */
	for (size_t i = 0; fm && i < fm->nx; i++)
		rt_out_span(o, &fm->x[i]);
}

RT_HIDDEN int rt_emit_profile(struct rt_out *o, const struct rt_snapshot *s,
			      const struct rt_file *f)
{
	size_t n = 0;
	for (size_t i = 0; i < f->nmods; i++)
		n += !f->mods[i].stale;
	for (size_t i = 0; i < s->npmods; i++)
		n += !s->pmods[i].in_file;

	XXH64_reset(&o->digest, 0);
	o->n = 0;
	rt_out_str(o, "%YAML 1.1\n---\nipp-profile: 1\n");
	for (size_t i = 0; i < f->nx; i++)
		rt_out_span(o, &f->x[i]);
	rt_out_str(o, n ? "modules:\n" : "modules: []\n");
	for (size_t i = 0; i < f->nmods; i++) {
		const struct rt_fmod *fm = &f->mods[i];
		if (fm->stale)
			continue;
		if (fm->ours)
			emit_module(o, fm->ours, fm);
		else
			rt_out_span(o, &fm->text);
	}
	for (size_t i = 0; i < s->npmods; i++)
		if (!s->pmods[i].in_file)
			emit_module(o, &s->pmods[i], NULL);
	/* the digest of every byte before its line (docs/FORMAT.md) */
	if (rt_out_flush(o) < 0)
		return -1;
	{
		static const char hex[] = "0123456789abcdef";
		uint64_t d = XXH64_digest(&o->digest);
		char line[] = "digest: \"0000000000000000\"\n...\n";
		for (int k = 0; k < 16; k++)
			line[9 + k] = hex[(d >> (60 - 4 * k)) & 15];
		rt_out_str(o, line);
	}
	return rt_out_flush(o);
}
