/* ipp_profile.c -- the one reader and writer of the binary profile
 * (ipp_profile.h), compiled into both the runtime (libipprt) and the core
 * (libippcore).  The reader checks a whole file in one pass and hands out
 * views into the caller's buffer; the writer streams through a caller's
 * sink, computing the digest as it goes.  No malloc, no stdio, no locale
 * (the runtime calls both in fatal-signal handlers).
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
#include "ipp_profile.h"

#include <stdarg.h>
#include <string.h>

/* The plugin must never instrument this file (it is part of the runtime). */
#ifdef __IPP_INSTRUMENT__
#error "ipp_profile.c must not be compiled with the ipp plugin (-fplugin=ipp)"
#endif

const char *const ipp_pf_mode_names[IPP_PF_MODE_COUNT] = {
	"context", "piecewise", "intra", "intra-context"
};

/* ------------------------------------------------------------------ */
/* Messages, formatted by hand                                          */
/* ------------------------------------------------------------------ */

struct msg {
	char *s;
	size_t cap, n;
};

static IPP_PF_LOCAL void msg_str(struct msg *m, const char *s)
{
	while (*s && m->n + 1 < m->cap)
		m->s[m->n++] = *s++;
	m->s[m->n] = '\0';
}

static IPP_PF_LOCAL void msg_u64(struct msg *m, uint64_t v)
{
	char t[21];
	size_t k = sizeof(t) - 1;
	t[k] = '\0';
	do {
		t[--k] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	msg_str(m, t + k);
}

static IPP_PF_LOCAL void msg_hex(struct msg *m, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	char t[17];
	for (int k = 0; k < 16; k++)
		t[k] = hex[(v >> (60 - 4 * k)) & 15];
	t[16] = '\0';
	msg_str(m, t);
}

/* "NAME: " then the pieces: 's' a string, 'u' a uint64_t, 'x' a uint64_t
 * in hex, as fmt lists them. */
static IPP_PF_LOCAL int fail(char *err, size_t errlen, const char *name, const char *fmt, ...)
{
	struct msg m = { err, errlen, 0 };
	va_list ap;
	if (!errlen)
		return -1;
	err[0] = '\0';
	msg_str(&m, name);
	msg_str(&m, ": ");
	va_start(ap, fmt);
	for (; *fmt; fmt++) {
		if (*fmt == 's')
			msg_str(&m, va_arg(ap, const char *));
		else if (*fmt == 'u')
			msg_u64(&m, va_arg(ap, uint64_t));
		else
			msg_hex(&m, va_arg(ap, uint64_t));
	}
	va_end(ap);
	return -1;
}

/* ------------------------------------------------------------------ */
/* UTF-8                                                                */
/* ------------------------------------------------------------------ */

IPP_PF_FN bool ipp_pf_utf8_ok(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + len;
	while (s < end) {
		uint32_t c, min;
		uint64_t w;
		/* ASCII eight bytes at a time: names nearly always are */
		while (end - s >= 8 && (memcpy(&w, s, 8), (w & 0x8080808080808080ull) == 0))
			s += 8;
		if (s == end)
			break;
		c = *s;
		size_t n;
		if (c < 0x80) {
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
			return false;
		if ((size_t)(end - s) < n)
			return false;
		for (size_t i = 1; i < n; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return false;
			c = (c << 6) | (s[i] & 0x3f);
		}
		if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
			return false;
		s += n;
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* Reading                                                              */
/* ------------------------------------------------------------------ */

/* The old text format starts with one of these (docs/FORMAT.md, version
 * 1), after blank lines and comments at most. */
static IPP_PF_LOCAL bool looks_like_text(const unsigned char *b, size_t len)
{
	static const char *const heads[] = { "%YAML", "---", "ipp-profile:" };
	size_t i = 0;
	while (i < len && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n' ||
			   b[i] == '#')) {
		if (b[i] == '#')
			while (i < len && b[i] != '\n')
				i++;
		else
			i++;
	}
	for (size_t k = 0; k < sizeof(heads) / sizeof(heads[0]); k++) {
		size_t n = strlen(heads[k]);
		if (len - i >= n && memcmp(b + i, heads[k], n) == 0)
			return true;
	}
	return false;
}

/* Checks the name table of module k (at b, names_size bytes). */
static IPP_PF_LOCAL int check_names(const struct ipp_pf_module *h, const unsigned char *b,
				 const char *name, uint32_t k, char *err, size_t errlen)
{
	const uint32_t *offs = (const uint32_t *)(const void *)b;
	const char *text = (const char *)(b + 4 * (uint64_t)h->nnames);
	uint64_t tlen = h->names_size - 4 * (uint64_t)h->nnames;
	for (uint32_t i = 0; i < h->nnames; i++) {
		const char *s, *nul;
		if (offs[i] >= tlen)
			return fail(err, errlen, name, "sususus", "module ", (uint64_t)k, ": name ",
				    (uint64_t)i, " starts at ", (uint64_t)offs[i],
				    ", beyond the name table");
		s = text + offs[i];
		nul = memchr(s, '\0', (size_t)(tlen - offs[i]));
		if (!nul)
			return fail(err, errlen, name, "susus", "module ", (uint64_t)k, ": name ",
				    (uint64_t)i, " is not terminated");
		if (nul == s)
			return fail(err, errlen, name, "susus", "module ", (uint64_t)k, ": name ",
				    (uint64_t)i, " is empty");
		if (!ipp_pf_utf8_ok(s, (size_t)(nul - s)))
			return fail(err, errlen, name, "susus", "module ", (uint64_t)k, ": name ",
				    (uint64_t)i, " is not valid UTF-8");
	}
	return 0;
}

/* Checks n stop records at *p, within end; *p advanced past them. */
static IPP_PF_LOCAL int check_stops(const unsigned char **p, const unsigned char *end, uint64_t n,
				 uint32_t nnames, const char *what, const char *name, uint32_t k,
				 char *err, size_t errlen)
{
	for (uint64_t i = 0; i < n; i++) {
		const struct ipp_pf_stop *s = (const struct ipp_pf_stop *)(const void *)*p;
		if ((size_t)(end - *p) < sizeof(*s) ||
		    (uint64_t)(end - *p) < ipp_pf_stop_size(s->nstack))
			return fail(err, errlen, name, "sussus", "module ", (uint64_t)k, ": ",
				    what, i, " runs past the end of the module");
		if (s->name >= nnames)
			return fail(err, errlen, name, "sussususus", "module ", (uint64_t)k, ": ",
				    what, i, " names region ", (uint64_t)s->name,
				    " of a name table of ", (uint64_t)nnames, " names");
		if (!s->nstack)
			return fail(err, errlen, name, "sussus", "module ", (uint64_t)k, ": ",
				    what, i, " has an empty stop stack");
		for (uint32_t j = 0; j < s->nstack; j++)
			if (ipp_pf_stack(s)[j] < 0)
				return fail(err, errlen, name, "sussus", "module ", (uint64_t)k,
					    ": ", what, i, " has a negative vertex id");
		*p += ipp_pf_stop_size(s->nstack);
	}
	return 0;
}

/* Checks module k at b, of at most room bytes. */
static IPP_PF_LOCAL int check_module(const unsigned char *b, uint64_t room, const char *name,
				  uint32_t k, char *err, size_t errlen)
{
	const struct ipp_pf_module *h = (const struct ipp_pf_module *)(const void *)b;
	const unsigned char *p, *end;
	uint64_t need;

	if (room < sizeof(*h))
		return fail(err, errlen, name, "sus", "module ", (uint64_t)k,
			    " is cut short (truncated?)");
	if (h->size < sizeof(*h) || h->size > room || h->size % 8)
		return fail(err, errlen, name, "susus", "module ", (uint64_t)k, " says it has ",
			    h->size, " bytes, which the file cannot hold");
	if (h->mode >= IPP_PF_MODE_COUNT)
		return fail(err, errlen, name, "susu", "module ", (uint64_t)k, ": unknown mode ",
			    (uint64_t)h->mode);
	if (!h->nnames)
		return fail(err, errlen, name, "sus", "module ", (uint64_t)k,
			    " has no name");
	/* each term is bounded before it is multiplied, so nothing wraps */
	need = sizeof(*h);
	if (h->names_size > h->size || h->names_size % 8 ||
	    h->names_size < 4 * (uint64_t)h->nnames + 2)
		goto sizes;
	need += h->names_size;
	if (h->npgroups > h->size / sizeof(struct ipp_pf_pgroup) ||
	    h->npaths > h->size / sizeof(struct ipp_pf_path) ||
	    h->nicalls > h->size / sizeof(struct ipp_pf_icall) ||
	    h->npartials > h->size / sizeof(struct ipp_pf_stop) ||
	    h->nforked > h->size / sizeof(struct ipp_pf_stop))
		goto sizes;
	need += h->npgroups * sizeof(struct ipp_pf_pgroup) +
		h->npaths * sizeof(struct ipp_pf_path) + h->nicalls * sizeof(struct ipp_pf_icall);
	if (need > h->size)
		goto sizes;
	if (check_names(h, b + sizeof(*h), name, k, err, errlen) < 0)
		return -1;
	end = b + h->size;
	p = b + sizeof(*h) + h->names_size;
	{
		uint64_t left = h->npaths;
		for (uint64_t i = 0; i < h->npgroups; i++) {
			const struct ipp_pf_pgroup *g = (const struct ipp_pf_pgroup *)(const void *)p;
			if ((size_t)(end - p) < sizeof(*g) || g->n > left ||
			    g->n > (uint64_t)(end - p - sizeof(*g)) / sizeof(struct ipp_pf_path))
				goto sizes;
			if (g->name >= h->nnames || g->zero)
				return fail(err, errlen, name, "susus", "module ", (uint64_t)k,
					    ": path group ", i, " is malformed (name index or "
					    "reserved field)");
			left -= g->n;
			p += sizeof(*g) + g->n * sizeof(struct ipp_pf_path);
		}
		if (left)
			goto sizes;
	}
	if (check_stops(&p, end, h->npartials, h->nnames, "partial record ", name, k, err,
			errlen) < 0 ||
	    check_stops(&p, end, h->nforked, h->nnames, "forked record ", name, k, err,
			errlen) < 0)
		return -1;
	if ((uint64_t)(end - p) != h->nicalls * sizeof(struct ipp_pf_icall))
		goto sizes;
	{
		const struct ipp_pf_icall *v = (const struct ipp_pf_icall *)(const void *)p;
		for (uint64_t i = 0; i < h->nicalls; i++)
			if (v[i].cmod >= h->nnames || v[i].cregion >= h->nnames || v[i].zero ||
			    v[i].site < 0)
				return fail(err, errlen, name, "susus", "module ", (uint64_t)k,
					    ": indirect-call record ", i, " is malformed (name "
					    "index, site or reserved field)");
	}
	return 0;
sizes:
	return fail(err, errlen, name, "susususususus", "module ", (uint64_t)k, ": its ",
		    h->npaths, " paths (in groups), ", h->npartials + h->nforked,
		    " stop records, ", h->nicalls, " indirect calls and ", h->names_size,
		    "-byte name table do not fit its ", h->size, " bytes");
}

IPP_PF_FN int ipp_pf_open(struct ipp_pf_reader *r, const void *buf, size_t len,
			  const char *name, char *err, size_t errlen)
{
	const unsigned char *b = buf;
	struct ipp_pf_header h;
	uint64_t want, got, off;

	memset(r, 0, sizeof(*r));
	if (!len)
		return fail(err, errlen, name, "s", "the file is empty");
	if (looks_like_text(b, len))
		return fail(err, errlen, name, "s", "this profile is in the old text format "
			    "(version 1); profiles are binary since version 2: rerun the program "
			    "to write it anew, or convert it with `ipp merge NEW OLD`");
	if (len < IPP_PF_MAGIC_LEN || memcmp(b, IPP_PF_MAGIC, IPP_PF_MAGIC_LEN) != 0)
		return fail(err, errlen, name, "s", "not an ipp profile (its first bytes are not "
			    "ipp's magic number)");
	if (len < sizeof(h) + 8)
		return fail(err, errlen, name, "sus", "truncated: ", (uint64_t)len,
			    " bytes, shorter than a profile's header and digest");
	if ((uintptr_t)b % 8)
		return fail(err, errlen, name, "s", "internal error: the buffer is not aligned");
	memcpy(&h, b, sizeof(h));
	if (h.bom == IPP_PF_BOM_SWAPPED)
		return fail(err, errlen, name, "s", "the profile was written on a machine of the "
			    "other byte order");
	if (h.bom != IPP_PF_BOM)
		return fail(err, errlen, name, "sx", "corrupt header: byte-order mark ",
			    (uint64_t)h.bom);
	if (h.version != IPP_PF_VERSION)
		return fail(err, errlen, name, "sus", "unsupported profile version ",
			    (uint64_t)h.version, "; this ipp reads version 2");
	if (h.size > len)
		return fail(err, errlen, name, "susu", "truncated: the header says ", h.size,
			    " bytes, the file has ", (uint64_t)len);
	if (h.size < len)
		return fail(err, errlen, name, "susus", "the file has ", (uint64_t)len,
			    " bytes, but its header says ", h.size, " (data after the end)");
	if (h.size % 8)
		return fail(err, errlen, name, "sus", "corrupt header: size ", h.size,
			    " is not a multiple of 8");
	memcpy(&want, b + len - 8, 8);
	got = XXH64(b, len - 8, 0);
	if (got != want)
		return fail(err, errlen, name, "sxsxs", "profile digest mismatch: the file says ",
			    want, ", its contents give ", got, " (the profile was edited or "
			    "corrupted after it was written; ipp writes profiles only through the "
			    "runtime and ipp merge)");
	if (h.flags)
		return fail(err, errlen, name, "sx", "unknown header flags ", (uint64_t)h.flags);
	off = sizeof(h);
	for (uint32_t k = 0; k < h.nmodules; k++) {
		const struct ipp_pf_module *m = (const struct ipp_pf_module *)(const void *)(b + off);
		if (check_module(b + off, len - 8 - off, name, k, err, errlen) < 0)
			return -1;
		/* (module, checksum) is unique: a few hundred modules at most */
		for (uint64_t o2 = sizeof(h); o2 < off;) {
			const struct ipp_pf_module *e = (const struct ipp_pf_module *)(const void *)(b + o2);
			const char *n1 = (const char *)(m + 1) + 4 * (uint64_t)m->nnames;
			const char *n2 = (const char *)(e + 1) + 4 * (uint64_t)e->nnames;
			n1 += *(const uint32_t *)(const void *)(m + 1);
			n2 += *(const uint32_t *)(const void *)(e + 1);
			if (e->checksum == m->checksum && strcmp(n1, n2) == 0)
				return fail(err, errlen, name, "sssxs", "module ", n1,
					    " (checksum ", m->checksum, ") appears twice");
			o2 += e->size;
		}
		off += m->size;
	}
	if (off != len - 8)
		return fail(err, errlen, name, "susu", "the modules end at byte ", off,
			    ", the digest starts at byte ", (uint64_t)(len - 8));
	r->buf = b;
	r->len = len;
	r->nmodules = h.nmodules;
	r->off = sizeof(h);
	return 0;
}

IPP_PF_FN int ipp_pf_next(struct ipp_pf_reader *r, struct ipp_pf_mview *m)
{
	const unsigned char *b;
	if (r->next >= r->nmodules)
		return 0;
	b = r->buf + r->off;
	m->h = (const struct ipp_pf_module *)(const void *)b;
	m->bytes = b;
	m->offs = (const uint32_t *)(const void *)(b + sizeof(*m->h));
	m->text = (const char *)(b + sizeof(*m->h) + 4 * (uint64_t)m->h->nnames);
	b += sizeof(*m->h) + m->h->names_size;
	m->pgroups = b;
	b += m->h->npgroups * sizeof(struct ipp_pf_pgroup) + m->h->npaths * sizeof(struct ipp_pf_path);
	m->partials = b;
	for (uint64_t i = 0; i < m->h->npartials; i++)
		ipp_pf_stop_next(&b);
	m->forked = b;
	for (uint64_t i = 0; i < m->h->nforked; i++)
		ipp_pf_stop_next(&b);
	m->icalls = (const struct ipp_pf_icall *)(const void *)b;
	m->index = r->next++;
	r->off += m->h->size;
	return 1;
}

/* ------------------------------------------------------------------ */
/* Writing                                                              */
/* ------------------------------------------------------------------ */

IPP_PF_FN void ipp_pf_out_init(struct ipp_pf_out *o, int (*sink)(void *, const void *, size_t),
			       void *ctx)
{
	o->sink = sink;
	o->ctx = ctx;
	o->err = 0;
	o->n = 0;
	o->written = 0;
	XXH64_reset(&o->digest, 0);
}

IPP_PF_FN int ipp_pf_flush(struct ipp_pf_out *o)
{
	if (o->n && !o->err) {
		XXH64_update(&o->digest, o->buf, o->n);
		o->err = o->sink(o->ctx, o->buf, o->n);
		o->written += o->n;
	}
	o->n = 0;
	return o->err ? -1 : 0;
}

IPP_PF_FN void ipp_pf_put(struct ipp_pf_out *o, const void *p, size_t n)
{
	const unsigned char *s = p;
	while (n && !o->err) {
		size_t k = sizeof(o->buf) - o->n;
		if (!k) {
			ipp_pf_flush(o);
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

IPP_PF_FN void ipp_pf_pad(struct ipp_pf_out *o)
{
	static const unsigned char zeros[8];
	ipp_pf_put(o, zeros, (size_t)(-(o->written + o->n) & 7));
}

IPP_PF_FN void ipp_pf_put_header(struct ipp_pf_out *o, uint32_t nmodules, uint64_t module_bytes)
{
	struct ipp_pf_header h;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, IPP_PF_MAGIC, IPP_PF_MAGIC_LEN);
	h.version = IPP_PF_VERSION;
	h.bom = IPP_PF_BOM;
	h.size = sizeof(h) + module_bytes + 8;
	h.nmodules = nmodules;
	ipp_pf_put(o, &h, sizeof(h));
}

IPP_PF_FN void ipp_pf_put_names(struct ipp_pf_out *o, uint32_t n,
				const char *(*name)(void *ctx, uint32_t i), void *ctx)
{
	uint32_t off = 0;
	for (uint32_t i = 0; i < n; i++) {
		ipp_pf_put(o, &off, 4);
		off += (uint32_t)strlen(name(ctx, i)) + 1;
	}
	for (uint32_t i = 0; i < n; i++) {
		const char *s = name(ctx, i);
		ipp_pf_put(o, s, strlen(s) + 1);
	}
	ipp_pf_pad(o);
}

IPP_PF_FN void ipp_pf_put_pgroup(struct ipp_pf_out *o, uint32_t name, uint64_t n)
{
	struct ipp_pf_pgroup g = { name, 0, n };
	ipp_pf_put(o, &g, sizeof(g));
}

IPP_PF_FN void ipp_pf_put_stop(struct ipp_pf_out *o, uint32_t name, uint64_t num, uint64_t count,
			       const int32_t *stack, uint32_t nstack)
{
	struct ipp_pf_stop s = { name, nstack, num, count };
	ipp_pf_put(o, &s, sizeof(s));
	ipp_pf_put(o, stack, 4 * (size_t)nstack);
	ipp_pf_pad(o);
}

IPP_PF_FN int ipp_pf_put_digest(struct ipp_pf_out *o)
{
	uint64_t d;
	if (ipp_pf_flush(o) < 0)
		return -1;
	d = XXH64_digest(&o->digest);
	ipp_pf_put(o, &d, 8);
	return ipp_pf_flush(o);
}
