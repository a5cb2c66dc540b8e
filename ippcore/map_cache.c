/* map_cache.c -- a map document's records (struct mapdoc, step 1 of the
 * reader, map_read.c) in a binary form, so that a tool that reads the same
 * program again skips the YAML parse: libyaml is most of the cost of
 * reading objdump's 11 MB of maps.
 *
 * Nothing in a cache file is trusted: it names the document it was made
 * from by the FNV-1a hash and length of the document's text, and carries
 * the hash of its own contents; a file whose header, hash or structure does
 * not match is ignored (the document is parsed instead).  What it holds
 * then goes through step 2 (ipp_map_rebuild) exactly as a parsed document
 * does: every id checked against the others and the graph's checksum
 * recomputed and compared; ipp_map_fin checks the numbering against the
 * digest.  The YAML text stays the one source: a cache only repeats it.
 *
 * Layout (host byte order: a cache is a file of one machine): the header
 * (magic, text hash, text length, payload length, payload hash), then the
 * payload, a sequence of 64-bit words and strings (a length, UINT64_MAX
 * for NULL, then the bytes).  Positions (pline, kline...) are kept relative
 * to the document's first line: the same unit can sit at another line of
 * another program.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "internal.h"
#include "map_internal.h"

#include <inttypes.h>
#include <limits.h>

#define CACHE_MAGIC "ipp-mapdoc-2\n\0\0"	/* 16 bytes; change with the layout */
#define NULL_LEN UINT64_MAX

struct cache_header {
	char magic[16];
	uint64_t text_hash, text_len;
	uint64_t payload_len, payload_hash;
};

/* ---- writing ---- */

struct out {
	char *buf;
	size_t len, cap;
};

static void put(struct out *o, const void *p, size_t n)
{
	while (o->len + n > o->cap) {
		o->cap = o->cap ? 2 * o->cap : 65536;
		o->buf = ipp_xrealloc(o->buf, o->cap);
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
}

static void put_u64(struct out *o, uint64_t v)
{
	put(o, &v, sizeof(v));
}

static void put_i64(struct out *o, int64_t v)
{
	put_u64(o, (uint64_t)v);
}

static void put_str(struct out *o, const char *s)
{
	if (s == NULL) {
		put_u64(o, NULL_LEN);
		return;
	}
	put_u64(o, strlen(s));
	put(o, s, strlen(s));
}

static void put_mpz(struct out *o, const mpz_t v)
{
	char *s = mpz_get_str(NULL, 10, v);
	put_str(o, s);
	free(s);
}

static void put_pos(struct out *o, int line, int col, int line0)
{
	put_i64(o, line > line0 ? line - line0 : line);
	put_i64(o, col);
}

static void put_ids(struct out *o, const ipp_id *ids, size_t n)
{
	put_u64(o, n);
	for (size_t i = 0; i < n; i++)
		put_i64(o, ids[i]);
}

char *ipp_mapdoc_save(const struct mapdoc *d, int line0, uint64_t text_hash, size_t text_len,
		      size_t *len)
{
	const ipp_map *m = d->m;
	struct cache_header h;
	struct out o = { 0 };

	memset(&h, 0, sizeof(h));
	put(&o, &h, sizeof(h));	/* filled in last */
	put_str(&o, m->module);
	put_str(&o, m->ipp_version);
	put_str(&o, m->gcc_version);
	put_u64(&o, (uint64_t)m->mode);
	put_mpz(&o, m->limit);
	put_u64(&o, m->checksum);
	put_mpz(&o, m->total);
	put_u64(&o, m->digest);
	for (int k = 0; k < K_COUNT; k++) {
		put_u64(&o, d->seen[k]);
		put_pos(&o, d->kline[k], d->kcol[k], line0);
	}
	put_u64(&o, d->nfiles);
	for (size_t i = 0; i < d->nfiles; i++)
		put_str(&o, d->files[i]);
	put_u64(&o, d->nprocs);
	for (size_t i = 0; i < d->nprocs; i++) {
		const struct rawproc *p = &d->procs[i];
		put_str(&o, p->name);
		put_str(&o, p->asm_name);
		put_str(&o, p->reason);
		put_u64(&o, p->flags);
		put_i64(&o, p->file);
		put_i64(&o, p->line);
		put_pos(&o, p->pline, p->pcol, line0);
	}
	put_u64(&o, d->nverts);
	for (size_t i = 0; i < d->nverts; i++) {
		const struct rawvert *v = &d->verts[i];
		put_u64(&o, (uint64_t)v->kind);
		put_i64(&o, v->proc);
		put_i64(&o, v->file);
		put_i64(&o, v->line);
		put_i64(&o, v->col);
		put_i64(&o, v->tag);
		put_str(&o, v->callee);
		put_u64(&o, v->cflags);
		put_pos(&o, v->pline, v->pcol, line0);
	}
	put_u64(&o, d->nedges);
	for (size_t i = 0; i < d->nedges; i++) {
		put_i64(&o, d->edges[i].src);
		put_i64(&o, d->edges[i].dst);
		put_pos(&o, d->edges[i].pline, d->edges[i].pcol, line0);
	}
	put_u64(&o, d->ncallees);
	for (size_t i = 0; i < d->ncallees; i++) {
		const struct rawcallee *c = &d->callees[i];
		put_i64(&o, c->call);
		put_str(&o, c->asm_name);
		put_str(&o, c->name);
		put_pos(&o, c->pline, c->pcol, line0);
	}
	put_ids(&o, d->restart.ids, d->restart.n);
	put_ids(&o, d->cutv.ids, d->cutv.n);
	put_ids(&o, d->cutc.ids, d->cutc.n);
	put_ids(&o, d->back.ids, d->back.n);
	put_ids(&o, d->fallback.ids, d->fallback.n);
	put_u64(&o, m->nsummaries);
	for (size_t i = 0; i < m->nsummaries; i++) {
		put_i64(&o, m->summaries[i].call);
		put_u64(&o, (uint64_t)m->summaries[i].why);
	}
	put_u64(&o, m->nregions);
	for (size_t i = 0; i < m->nregions; i++) {
		const ipp_map_region *g = &m->regions[i];
		put_str(&o, g->name);
		put_i64(&o, g->proc);
		put_u64(&o, g->gentry);
		put_mpz(&o, g->total);
		put_mpz(&o, g->offset);
	}
	put_u64(&o, m->noffsets);
	for (size_t i = 0; i < m->noffsets; i++) {
		put_i64(&o, m->offset_v[i]);
		put_u64(&o, m->offset[i]);
	}

	memcpy(h.magic, CACHE_MAGIC, sizeof(h.magic));
	h.text_hash = text_hash;
	h.text_len = text_len;
	h.payload_len = o.len - sizeof(h);
	h.payload_hash = ipp_hash_block(IPP_HASH_INIT, o.buf + sizeof(h), o.len - sizeof(h));
	memcpy(o.buf, &h, sizeof(h));
	*len = o.len;
	return o.buf;
}

/* ---- reading: every length and value is checked before it is used ---- */

struct in {
	const char *p, *end;
	bool bad;
};

static uint64_t get_u64(struct in *in)
{
	uint64_t v = 0;
	if (in->bad || (size_t)(in->end - in->p) < sizeof(v)) {
		in->bad = true;
		return 0;
	}
	memcpy(&v, in->p, sizeof(v));
	in->p += sizeof(v);
	return v;
}

static int64_t get_i64(struct in *in)
{
	return (int64_t)get_u64(in);
}

/* An int field (a position, a line): out of int's range is corrupt. */
static int get_int(struct in *in, int line0)
{
	int64_t v = get_i64(in);
	if (v < 0 || v > INT_MAX - line0) {
		in->bad = true;
		return 0;
	}
	return (int)v + (v > 0 ? line0 : 0);
}

static char *get_str(struct in *in)
{
	uint64_t n = get_u64(in);
	char *s;
	if (in->bad || n == NULL_LEN)
		return NULL;
	if (n > (uint64_t)(in->end - in->p) || memchr(in->p, '\0', (size_t)n) != NULL) {
		in->bad = true;
		return NULL;
	}
	s = ipp_xmalloc((size_t)n + 1);
	memcpy(s, in->p, (size_t)n);
	s[n] = '\0';
	in->p += n;
	return s;
}

/* A count of records of at least 'min' bytes each: never more than the
 * bytes left could hold. */
static size_t get_count(struct in *in, size_t min)
{
	uint64_t n = get_u64(in);
	if (in->bad || n > (uint64_t)(in->end - in->p) / min) {
		in->bad = true;
		return 0;
	}
	return (size_t)n;
}

static void get_mpz(struct in *in, mpz_t v)
{
	char *s = get_str(in);
	if (s == NULL || mpz_set_str(v, s, 10) != 0)
		in->bad = true;
	free(s);
}

static void get_ids(struct in *in, struct idlist *l)
{
	l->n = l->cap = get_count(in, 8);
	l->ids = l->n ? ipp_xcalloc(l->n, sizeof(ipp_id)) : NULL;
	for (size_t i = 0; i < l->n; i++) {
		int64_t v = get_i64(in);
		if (v < 0 || v > INT32_MAX)
			in->bad = true;
		l->ids[i] = (ipp_id)v;
	}
}

int ipp_mapdoc_load(const char *buf, size_t len, int line0, uint64_t text_hash,
		    size_t text_len, struct mapdoc *d)
{
	ipp_map *m = d->m;
	struct cache_header h;
	struct in in;
	uint64_t v;

	if (len < sizeof(h))
		return -1;
	memcpy(&h, buf, sizeof(h));
	if (memcmp(h.magic, CACHE_MAGIC, sizeof(h.magic)) != 0 || h.text_hash != text_hash ||
	    h.text_len != text_len || h.payload_len != len - sizeof(h) ||
	    h.payload_hash != ipp_hash_block(IPP_HASH_INIT, buf + sizeof(h), len - sizeof(h)))
		return -1;
	in.p = buf + sizeof(h);
	in.end = buf + len;
	in.bad = false;

	m->module = get_str(&in);
	m->ipp_version = get_str(&in);
	m->gcc_version = get_str(&in);
	v = get_u64(&in);
	if (v >= IPP_MODE_COUNT || m->module == NULL || m->ipp_version == NULL ||
	    m->gcc_version == NULL)
		return -1;
	m->mode = (enum ipp_mode)v;
	get_mpz(&in, m->limit);
	m->checksum = get_u64(&in);
	get_mpz(&in, m->total);
	m->digest = get_u64(&in);
	for (int k = 0; k < K_COUNT; k++) {
		d->seen[k] = get_u64(&in) != 0;
		d->kline[k] = get_int(&in, line0);
		d->kcol[k] = get_int(&in, 0);
	}
	d->nfiles = d->capfiles = get_count(&in, 8);
	d->files = ipp_xcalloc(d->nfiles + 1, sizeof(char *));
	for (size_t i = 0; i < d->nfiles; i++)
		if ((d->files[i] = get_str(&in)) == NULL)
			in.bad = true;
	d->nprocs = d->capprocs = get_count(&in, 8 * 8);
	d->procs = ipp_xcalloc(d->nprocs + 1, sizeof(d->procs[0]));
	for (size_t i = 0; i < d->nprocs && !in.bad; i++) {
		struct rawproc *p = &d->procs[i];
		p->name = get_str(&in);
		p->asm_name = get_str(&in);
		p->reason = get_str(&in);
		p->flags = (unsigned)get_u64(&in);
		p->file = get_i64(&in);
		p->line = get_i64(&in);
		p->pline = get_int(&in, line0);
		p->pcol = get_int(&in, 0);
		if (p->name == NULL || p->asm_name == NULL)
			in.bad = true;
	}
	d->nverts = d->capverts = get_count(&in, 8 * 11);
	d->verts = ipp_xcalloc(d->nverts + 1, sizeof(d->verts[0]));
	for (size_t i = 0; i < d->nverts && !in.bad; i++) {
		struct rawvert *x = &d->verts[i];
		v = get_u64(&in);
		if (v >= IPP_V_KIND_COUNT)
			in.bad = true;
		x->kind = (enum ipp_vkind)v;
		x->proc = get_i64(&in);
		x->file = get_i64(&in);
		x->line = get_i64(&in);
		x->col = get_i64(&in);
		x->tag = get_i64(&in);
		x->callee = get_str(&in);
		x->cflags = (unsigned)get_u64(&in);
		x->pline = get_int(&in, line0);
		x->pcol = get_int(&in, 0);
	}
	d->nedges = d->capedges = get_count(&in, 8 * 4);
	d->edges = ipp_xcalloc(d->nedges + 1, sizeof(d->edges[0]));
	for (size_t i = 0; i < d->nedges && !in.bad; i++) {
		d->edges[i].src = get_i64(&in);
		d->edges[i].dst = get_i64(&in);
		d->edges[i].pline = get_int(&in, line0);
		d->edges[i].pcol = get_int(&in, 0);
	}
	d->ncallees = d->capcallees = get_count(&in, 8 * 5);
	d->callees = ipp_xcalloc(d->ncallees + 1, sizeof(d->callees[0]));
	for (size_t i = 0; i < d->ncallees && !in.bad; i++) {
		struct rawcallee *c = &d->callees[i];
		c->call = get_i64(&in);
		c->asm_name = get_str(&in);
		c->name = get_str(&in);
		c->pline = get_int(&in, line0);
		c->pcol = get_int(&in, 0);
		if (c->asm_name == NULL)
			in.bad = true;
	}
	get_ids(&in, &d->restart);
	get_ids(&in, &d->cutv);
	get_ids(&in, &d->cutc);
	get_ids(&in, &d->back);
	get_ids(&in, &d->fallback);
	m->nsummaries = d->capsum = get_count(&in, 8 * 2);
	m->summaries = ipp_xcalloc(m->nsummaries + 1, sizeof(m->summaries[0]));
	for (size_t i = 0; i < m->nsummaries && !in.bad; i++) {
		int64_t c = get_i64(&in);
		v = get_u64(&in);
		if (c < 0 || c > INT32_MAX || v == IPP_SUM_NONE || v > IPP_SUM_INTRA)
			in.bad = true;
		m->summaries[i].call = (ipp_id)c;
		m->summaries[i].why = (enum ipp_summary_why)v;
	}
	d->capreg = get_count(&in, 8 * 5);
	m->regions = ipp_xcalloc(d->capreg + 1, sizeof(m->regions[0]));
	for (size_t i = 0; i < d->capreg && !in.bad; i++) {
		ipp_map_region *g = &m->regions[m->nregions++];
		int64_t p;
		mpz_init(g->total);
		mpz_init(g->offset);
		g->name = get_str(&in);
		p = get_i64(&in);
		if (g->name == NULL || p < 0 || p > INT32_MAX - 1)
			in.bad = true;
		g->proc = (ipp_id)p;
		g->gentry = get_u64(&in) != 0;
		get_mpz(&in, g->total);
		get_mpz(&in, g->offset);
	}
	d->capoff = get_count(&in, 8 * 2);
	m->offset_v = ipp_xcalloc(d->capoff + 1, sizeof(m->offset_v[0]));
	m->offset = ipp_xcalloc(d->capoff + 1, sizeof(m->offset[0]));
	for (size_t i = 0; i < d->capoff && !in.bad; i++) {
		int64_t v = get_i64(&in);
		if (v < 0 || v > INT32_MAX - 1)
			in.bad = true;
		m->offset_v[m->noffsets] = (ipp_id)v;
		m->offset[m->noffsets++] = get_u64(&in);
	}
	return in.bad || in.p != in.end ? -1 : 0;
}
