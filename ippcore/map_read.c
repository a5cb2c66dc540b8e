/* map_read.c -- reading maps (ipp_map_read_buffer / ipp_map_read_file,
 * ipp_format.h): a YAML stream of one or more map documents, each turned
 * into an ipp_map; and the ipp_map's allocation and release.  Also the
 * lazy way through a large stream: its documents located and their heads
 * read (ipp_map_index_buffer), one parsed when needed (ipp_map_read_span),
 * through the cache of step 1's records (map_cache.c) if asked.
 *
 * Reading a document goes in two steps.  Step 1, here, parses it into
 * plain records (struct mapdoc, map_internal.h) in whatever key order it
 * has: every key is known (or an x- extension, skipped) and given once,
 * every required key is present, every record has its arity, every value
 * its type and range, ids are listed in id order and id lists increase.
 * Nothing is checked across keys yet.  Step 2 (map_rebuild.c) replays
 * the records into the graph, checking ids against each other, and
 * compares the checksum.  The YAML reader (yaml_read.c, yaml_fields.c)
 * never trusts a number it read and gives "name:line:col: ..." messages.
 *
 * On failure nothing is leaked and no map is returned.  docs/FORMAT.md is
 * the specification.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "internal.h"
#include "map_internal.h"

#include <inttypes.h>
#include <limits.h>
#include <unistd.h>

#define IPP_SUM_COUNT (IPP_SUM_INTRA + 1)

static int parse_summary_why(const char *s, enum ipp_summary_why *out)
{
	for (int w = 0; w < IPP_SUM_COUNT; w++)
		if (strcmp(s, ipp_summary_why_name((enum ipp_summary_why)w)) == 0) {
			*out = (enum ipp_summary_why)w;
			return 0;
		}
	return -1;
}

const char *const ipp_map_key_names[K_COUNT] = {
	"module", "ipp-version", "gcc-version", "mode", "limit", "checksum", "files", "procs",
	"vertices", "edges", "restart-vertices", "cut-vertices", "cut-calls", "callees",
	"back-edges", "summaries", "fallback", "regions", "total", "offsets", "digest"
};

static void mapdoc_free(struct mapdoc *d)
{
	for (size_t i = 0; i < d->nfiles; i++)
		free(d->files[i]);
	free(d->files);
	for (size_t i = 0; i < d->nprocs; i++) {
		free(d->procs[i].name);
		free(d->procs[i].asm_name);
		free(d->procs[i].reason);
	}
	free(d->procs);
	for (size_t i = 0; i < d->nverts; i++)
		free(d->verts[i].callee);
	free(d->verts);
	free(d->edges);
	for (size_t i = 0; i < d->ncallees; i++) {
		free(d->callees[i].asm_name);
		free(d->callees[i].name);
	}
	free(d->callees);
	free(d->restart.ids);
	free(d->cutv.ids);
	free(d->cutc.ids);
	free(d->back.ids);
	free(d->fallback.ids);
}

static ipp_map *map_alloc(void)
{
	ipp_map *m = ipp_xcalloc(1, sizeof(*m));
	mpz_init(m->limit);
	mpz_init(m->total);
	ipp_cuts_init(&m->cuts);
	return m;
}

void ipp_map_free(ipp_map *m)
{
	if (!m)
		return;
	if (m->skip_reason)
		for (size_t i = 0; i < ipp_graph_nprocs(m->graph); i++)
			free(m->skip_reason[i]);
	free(m->skip_reason);
	ipp_graph_free(m->graph);
	free(m->source);
	free(m->module);
	free(m->ipp_version);
	free(m->gcc_version);
	mpz_clear(m->limit);
	mpz_clear(m->total);
	ipp_cuts_free(&m->cuts);
	free(m->back_edges);
	free(m->summaries);
	free(m->fallback);
	free(m->offset_v);
	free(m->offset);
	for (size_t i = 0; i < m->nregions; i++) {
		free(m->regions[i].name);
		mpz_clear(m->regions[i].total);
		mpz_clear(m->regions[i].offset);
	}
	free(m->regions);
	free(m);
}

void ipp_map_free_all(ipp_map **maps, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ipp_map_free(maps[i]);
	free(maps);
}

/* The id column must equal the record's position ("in id order"). */
static int check_position(ipp_yreader *r, const ipp_yitem *it, const char *what, size_t pos)
{
	int64_t id;
	if (ipp_yr_int(r, it, what, 0, INT32_MAX - 1, &id) < 0)
		return -1;
	if ((uint64_t)id != pos)
		return ipp_yr_fail(r, it->line, it->col, "expected %s %zu (records are listed in "
				   "id order), got %" PRId64, what, pos, id);
	return 0;
}

/* An id, or null (-1). */
static int opt_id(ipp_yreader *r, const ipp_yitem *it, const char *what, int64_t *out)
{
	if (it->type == IPP_YI_NULL) {
		*out = -1;
		return 0;
	}
	return ipp_yr_int(r, it, what, 0, INT32_MAX - 1, out);
}

/* A string, or null (NULL); a string is copied with malloc. */
static int opt_str(ipp_yreader *r, const ipp_yitem *it, const char *what, char **out)
{
	const char *s;
	*out = NULL;
	if (it->type == IPP_YI_NULL)
		return 0;
	if (ipp_yr_str(r, it, what, &s) < 0)
		return -1;
	*out = ipp_xstrdup(s);
	return 0;
}

/* A flow list of increasing non-negative ids (bounds are checked later). */
static int read_id_list(ipp_yreader *r, struct idlist *l, const char *what)
{
	const ipp_yitem *it;
	if (ipp_yr_value(r, what) < 0)
		return -1;
	it = &r->items[0];
	if (it->type == IPP_YI_NULL)
		return 0;
	if (it->type != IPP_YI_LIST)
		return ipp_yr_fail(r, it->line, it->col, "%s: expected a list of ids like [3, 7], "
				   "got %s", what, ipp_yr_type_name(it));
	for (size_t i = 0; i < it->n; i++) {
		const ipp_yitem *x = &r->sub[it->first + i];
		int64_t id;
		if (ipp_yr_int(r, x, what, 0, INT32_MAX - 1, &id) < 0)
			return -1;
		if (l->n && id <= l->ids[l->n - 1])
			return ipp_yr_fail(r, x->line, x->col, "%s: ids must be increasing (%"
					   PRId64 " after %" PRId32 ")", what, id,
					   l->ids[l->n - 1]);
		IPP_ARRAY_GROW(l->ids, l->n, l->cap);
		l->ids[l->n++] = (ipp_id)id;
	}
	return 0;
}

static int read_scalar_value(ipp_yreader *r, const char *what, const ipp_yitem **it)
{
	if (ipp_yr_value(r, what) < 0)
		return -1;
	*it = &r->items[0];
	return 0;
}

static int read_files(ipp_yreader *r, struct mapdoc *d)
{
	ipp_strtab seen = { 0 };
	int more, rc = ipp_yr_begin_list(r, "a list of file names");
	while (rc > 0 && (more = ipp_yr_more(r)) != 0) {
		const char *s;
		bool added;
		if (more < 0 || ipp_yr_value(r, "the file table") < 0 ||
		    ipp_yr_nonempty_str(r, &r->items[0], "file name", &s) < 0) {
			rc = -1;
			break;
		}
		ipp_strtab_intern(&seen, s, &added);
		if (!added) {
			rc = ipp_yr_fail(r, r->items[0].line, r->items[0].col, "file '%.60s' is "
					 "listed twice", s);
			break;
		}
		IPP_ARRAY_GROW(d->files, d->nfiles, d->capfiles);
		d->files[d->nfiles++] = ipp_xstrdup(s);
	}
	ipp_strtab_free(&seen);
	return rc < 0 ? -1 : 0;
}

/* [id, name, asm-name, [flags], file, line, skip-reason] */
static int read_proc(ipp_yreader *r, struct mapdoc *d)
{
	struct rawproc *p;
	const ipp_yitem *it;
	const char *name, *asm_name;
	size_t n;
	if (ipp_yr_tuple(r, "a procedure", &n) < 0 || ipp_yr_arity(r, n, 7, "a procedure") < 0)
		return -1;
	it = r->items;
	if (check_position(r, &it[0], "procedure id", d->nprocs) < 0 ||
	    ipp_yr_nonempty_str(r, &it[1], "procedure name", &name) < 0 ||
	    ipp_yr_nonempty_str(r, &it[2], "assembler name", &asm_name) < 0)
		return -1;
	IPP_ARRAY_GROW(d->procs, d->nprocs, d->capprocs);
	p = &d->procs[d->nprocs++];
	memset(p, 0, sizeof(*p));
	p->name = ipp_xstrdup(name);
	p->asm_name = ipp_xstrdup(asm_name);
	p->pline = r->tline;
	p->pcol = r->tcol;
	if (ipp_map_read_flags(r, &it[3], "procedure flags", ipp_proc_flag_names,
			       &p->flags) < 0 ||
	    opt_id(r, &it[4], "file index", &p->file) < 0 ||
	    ipp_yr_int(r, &it[5], "line", 0, INT_MAX, &p->line) < 0 ||
	    opt_str(r, &it[6], "skip reason", &p->reason) < 0)
		return -1;
	return 0;
}

/* [id, kind, proc, file, line, col, tag] (+ [callee, [flags]] for calls) */
static int read_vertex(ipp_yreader *r, struct mapdoc *d)
{
	struct rawvert *v;
	const ipp_yitem *it;
	const char *kind;
	size_t n, want;
	if (ipp_yr_tuple(r, "a vertex", &n) < 0)
		return -1;
	it = r->items;
	want = n >= 2 && it[1].type == IPP_YI_SCALAR &&
	       strcmp(ipp_yr_text(r, &it[1]), "call") == 0 ? 9 : 7;
	if (ipp_yr_arity(r, n, want, want == 9 ? "a call vertex" : "a vertex") < 0 ||
	    check_position(r, &it[0], "vertex id", d->nverts) < 0 ||
	    ipp_yr_str(r, &it[1], "vertex kind", &kind) < 0)
		return -1;
	IPP_ARRAY_GROW(d->verts, d->nverts, d->capverts);
	v = &d->verts[d->nverts++];
	memset(v, 0, sizeof(*v));
	v->pline = r->tline;
	v->pcol = r->tcol;
	if (ipp_vkind_parse(kind, &v->kind) < 0)
		return ipp_yr_fail(r, it[1].line, it[1].col, "unknown vertex kind '%.40s'", kind);
	if (opt_id(r, &it[2], "procedure id", &v->proc) < 0 ||
	    opt_id(r, &it[3], "file index", &v->file) < 0 ||
	    ipp_yr_int(r, &it[4], "line", 0, INT_MAX, &v->line) < 0 ||
	    ipp_yr_int(r, &it[5], "column", 0, INT_MAX, &v->col) < 0 ||
	    ipp_yr_int(r, &it[6], "tag", -1, INT_MAX, &v->tag) < 0)
		return -1;
	if (want == 9 &&
	    (opt_str(r, &it[7], "callee", &v->callee) < 0 ||
	     ipp_map_read_flags(r, &it[8], "call flags", ipp_call_flag_names,
				&v->cflags) < 0))
		return -1;
	return 0;
}

/* [id, src, dst] */
static int read_edge(ipp_yreader *r, struct mapdoc *d)
{
	struct rawedge *e;
	const ipp_yitem *it;
	size_t n;
	if (ipp_yr_tuple(r, "an edge", &n) < 0 || ipp_yr_arity(r, n, 3, "an edge") < 0)
		return -1;
	it = r->items;
	if (check_position(r, &it[0], "edge id", d->nedges) < 0)
		return -1;
	IPP_ARRAY_GROW(d->edges, d->nedges, d->capedges);
	e = &d->edges[d->nedges++];
	e->pline = r->tline;
	e->pcol = r->tcol;
	if (ipp_yr_int(r, &it[1], "edge source", 0, INT32_MAX - 1, &e->src) < 0 ||
	    ipp_yr_int(r, &it[2], "edge target", 0, INT32_MAX - 1, &e->dst) < 0)
		return -1;
	return 0;
}

/* The call vertex in column 'it' of a record of 'list', which is listed by
 * increasing call vertex: n records so far, the last one at 'prev'. */
static int read_call_column(ipp_yreader *r, const ipp_yitem *it, const char *list, size_t n,
			    int64_t prev, int64_t *c)
{
	if (ipp_yr_int(r, it, "call vertex", 0, INT32_MAX - 1, c) < 0)
		return -1;
	if (n && *c <= prev)
		return ipp_yr_fail(r, it->line, it->col, "%s must be listed by increasing call "
				   "vertex (%" PRId64 " after %" PRId64 ")", list, *c, prev);
	return 0;
}

/* [call, asm-name, name]: the callees' names, by increasing call vertex
 * (whether the vertex is a direct call without a callee procedure is
 * checked when the graph is rebuilt) */
static int read_callee(ipp_yreader *r, struct mapdoc *d)
{
	struct rawcallee *c;
	const ipp_yitem *it;
	const char *asm_name;
	int64_t call;
	size_t n;
	if (ipp_yr_tuple(r, "a callee", &n) < 0 || ipp_yr_arity(r, n, 3, "a callee") < 0)
		return -1;
	it = r->items;
	if (read_call_column(r, &it[0], "callees", d->ncallees,
			     d->ncallees ? d->callees[d->ncallees - 1].call : 0, &call) < 0 ||
	    ipp_yr_nonempty_str(r, &it[1], "callee assembler name", &asm_name) < 0)
		return -1;
	IPP_ARRAY_GROW(d->callees, d->ncallees, d->capcallees);
	c = &d->callees[d->ncallees++];
	c->call = call;
	c->asm_name = ipp_xstrdup(asm_name);
	c->pline = r->tline;
	c->pcol = r->tcol;
	if (opt_str(r, &it[2], "callee name", &c->name) < 0)
		return -1;
	if (c->name && !*c->name)
		return ipp_yr_fail(r, it[2].line, it[2].col, "callee name: must not be empty "
				   "(null: the assembler name)");
	return 0;
}

/* [call, why] */
static int read_summary(ipp_yreader *r, struct mapdoc *d)
{
	ipp_map *m = d->m;
	const ipp_yitem *it;
	const char *why;
	int64_t c;
	size_t n;
	enum ipp_summary_why w;
	if (ipp_yr_tuple(r, "a summary", &n) < 0 || ipp_yr_arity(r, n, 2, "a summary") < 0)
		return -1;
	it = r->items;
	if (read_call_column(r, &it[0], "summaries", m->nsummaries,
			     m->nsummaries ? m->summaries[m->nsummaries - 1].call : 0, &c) < 0 ||
	    ipp_yr_str(r, &it[1], "summary reason", &why) < 0)
		return -1;
	if (parse_summary_why(why, &w) < 0 || w == IPP_SUM_NONE)
		return ipp_yr_fail(r, it[1].line, it[1].col, "unknown summary reason '%.40s'", why);
	IPP_ARRAY_GROW(m->summaries, m->nsummaries, d->capsum);
	m->summaries[m->nsummaries].call = (ipp_id)c;
	m->summaries[m->nsummaries++].why = w;
	return 0;
}

/* [vertex, offset]: by increasing vertex (whether the vertex exists is
 * checked when the G*fin is made, ipp_fin_set_offsets) */
static int read_offset(ipp_yreader *r, struct mapdoc *d)
{
	ipp_map *m = d->m;
	const ipp_yitem *it;
	int64_t v;
	uint64_t off;
	size_t n;
	if (ipp_yr_tuple(r, "an offset", &n) < 0 || ipp_yr_arity(r, n, 2, "an offset") < 0)
		return -1;
	it = r->items;
	if (ipp_yr_int(r, &it[0], "offset vertex", 0, INT32_MAX - 1, &v) < 0 ||
	    ipp_yr_u64(r, &it[1], "offset", &off) < 0)
		return -1;
	if (m->noffsets && v <= m->offset_v[m->noffsets - 1])
		return ipp_yr_fail(r, it[0].line, it[0].col, "offsets must be listed by increasing "
				   "vertex (%" PRId64 " after %" PRId32 ")", v,
				   m->offset_v[m->noffsets - 1]);
	if (off == 0)
		return ipp_yr_fail(r, it[1].line, it[1].col, "offsets: vertex %" PRId64 " is listed "
				   "with offset 0", v);
	if (m->noffsets == d->capoff) {
		IPP_ARRAY_GROW(m->offset_v, m->noffsets, d->capoff);
		m->offset = ipp_xrealloc(m->offset, d->capoff * sizeof(*m->offset));
	}
	m->offset_v[m->noffsets] = (ipp_id)v;
	m->offset[m->noffsets++] = off;
	return 0;
}

/* [name, proc, entry|gentry, total, offset] */
static int read_region(ipp_yreader *r, struct mapdoc *d)
{
	ipp_map *m = d->m;
	ipp_map_region *g;
	const ipp_yitem *it;
	const char *name, *kind;
	int64_t p;
	size_t n;
	if (ipp_yr_tuple(r, "a region", &n) < 0 || ipp_yr_arity(r, n, 5, "a region") < 0)
		return -1;
	it = r->items;
	if (ipp_yr_nonempty_str(r, &it[0], "region name", &name) < 0 ||
	    ipp_yr_int(r, &it[1], "region procedure", 0, INT32_MAX - 1, &p) < 0 ||
	    ipp_yr_str(r, &it[2], "region kind", &kind) < 0)
		return -1;
	if (strcmp(kind, "entry") != 0 && strcmp(kind, "gentry") != 0)
		return ipp_yr_fail(r, it[2].line, it[2].col, "region kind: expected entry or "
				   "gentry, got '%.40s'", kind);
	IPP_ARRAY_GROW(m->regions, m->nregions, d->capreg);
	g = &m->regions[m->nregions++];
	g->name = ipp_xstrdup(name);
	g->proc = (ipp_id)p;
	g->gentry = kind[0] == 'g';
	mpz_init(g->total);
	mpz_init(g->offset);
	if (ipp_yr_mpz(r, &it[3], "region total", g->total) < 0 ||
	    ipp_yr_mpz(r, &it[4], "region offset", g->offset) < 0)
		return -1;
	return 0;
}

/* A block list of [...] records, each read by 'one'. */
static int read_records(ipp_yreader *r, struct mapdoc *d, const char *what,
			int (*one)(ipp_yreader *, struct mapdoc *))
{
	int more, rc = ipp_yr_begin_list(r, what);
	while (rc > 0 && (more = ipp_yr_more(r)) != 0)
		if (more < 0 || one(r, d) < 0)
			return -1;
	return rc < 0 ? -1 : 0;
}

static int read_key_value(ipp_yreader *r, struct mapdoc *d, enum map_key k)
{
	ipp_map *m = d->m;
	const ipp_yitem *it;
	const char *s;
	switch (k) {
	case K_MODULE:
		if (read_scalar_value(r, "module", &it) < 0 ||
		    ipp_yr_nonempty_str(r, it, "module", &s) < 0)
			return -1;
		m->module = ipp_xstrdup(s);
		return 0;
	case K_IPP_VERSION:
	case K_GCC_VERSION:
		if (read_scalar_value(r, ipp_map_key_names[k], &it) < 0 ||
		    ipp_yr_str(r, it, ipp_map_key_names[k], &s) < 0)
			return -1;
		*(k == K_IPP_VERSION ? &m->ipp_version : &m->gcc_version) = ipp_xstrdup(s);
		return 0;
	case K_MODE:
		if (read_scalar_value(r, "mode", &it) < 0)
			return -1;
		return ipp_yr_mode(r, it, "mode", &m->mode);
	case K_LIMIT:
	case K_TOTAL:
		if (read_scalar_value(r, ipp_map_key_names[k], &it) < 0)
			return -1;
		return ipp_yr_mpz(r, it, ipp_map_key_names[k], k == K_LIMIT ? m->limit : m->total);
	case K_CHECKSUM:
	case K_DIGEST:
		if (read_scalar_value(r, ipp_map_key_names[k], &it) < 0)
			return -1;
		return ipp_yr_hex64(r, it, ipp_map_key_names[k],
				    k == K_CHECKSUM ? &m->checksum : &m->digest);
	case K_FILES:
		return read_files(r, d);
	case K_PROCS:
		return read_records(r, d, "a list of procedures", read_proc);
	case K_VERTICES:
		return read_records(r, d, "a list of vertices", read_vertex);
	case K_EDGES:
		return read_records(r, d, "a list of edges", read_edge);
	case K_SUMMARIES:
		return read_records(r, d, "a list of summaries", read_summary);
	case K_CALLEES:
		return read_records(r, d, "a list of callees", read_callee);
	case K_REGIONS:
		return read_records(r, d, "a list of regions", read_region);
	case K_OFFSETS:
		return read_records(r, d, "a list of offsets", read_offset);
	case K_RESTART_VERTICES:
		return read_id_list(r, &d->restart, "restart-vertices");
	case K_CUT_VERTICES:
		return read_id_list(r, &d->cutv, "cut-vertices");
	case K_CUT_CALLS:
		return read_id_list(r, &d->cutc, "cut-calls");
	case K_BACK_EDGES:
		return read_id_list(r, &d->back, "back-edges");
	case K_FALLBACK:
		return read_id_list(r, &d->fallback, "fallback");
	default:
		return -1;
	}
}

/* The keys a document's head holds (ipp_map_index_buffer): the writer
 * emits them first. */
static bool head_seen(const struct mapdoc *d)
{
	return d->seen[K_MODULE] && d->seen[K_MODE] && d->seen[K_CHECKSUM];
}

/* Reads the keys after "ipp-map: 1" up to the end of the mapping; with
 * 'head', only up to the keys of its head (1 then). */
static int read_map_keys(ipp_yreader *r, struct mapdoc *d, bool head)
{
	int k, line, col, rc = 0;
	while (!(head && head_seen(d)) &&
	       (rc = ipp_yr_known_key(r, ipp_map_key_names, K_COUNT, "a map", d->seen, &k, &line,
				      &col)) > 0) {
		d->kline[k] = line;
		d->kcol[k] = col;
		if (read_key_value(r, d, (enum map_key)k) < 0)
			return -1;
	}
	return head && head_seen(d) ? 1 : rc;
}

struct ipp_map_cache_stats ipp_map_cache_stats;

void ipp_map_cache_stats_reset(void)
{
	memset(&ipp_map_cache_stats, 0, sizeof(ipp_map_cache_stats));
}

/* Where a document read is to be cached (ipp_map_read_span_cached). */
struct cache_ctx {
	const char *path;	/* the cache file */
	uint64_t text_hash;
	size_t text_len;
};

/* Writes the cache file of a document, through a temporary file renamed
 * over it (a reader never sees half a file).  Failures are ignored: the
 * cache is an optimization. */
static void write_cache(const struct cache_ctx *cc, const char *data, size_t len)
{
	size_t n = strlen(cc->path) + 32;
	char *tmp = ipp_xmalloc(n);
	FILE *f;

	snprintf(tmp, n, "%s.%ld.tmp", cc->path, (long)getpid());
	f = fopen(tmp, "wb");
	if (f != NULL) {
		bool ok = fwrite(data, 1, len, f) == len;
		if (fclose(f) != 0 || !ok || rename(tmp, cc->path) != 0)
			remove(tmp);
		else
			ipp_map_cache_stats.written++;
	}
	free(tmp);
}

/* Reads one document; NULL (with the error in r) on failure.  With cc,
 * its records are also written to the cache file cc->path if it reads
 * whole and rebuilds. */
static ipp_map *read_map_document(ipp_yreader *r, const struct cache_ctx *cc)
{
	char *saved = NULL;
	size_t nsaved = 0;
	struct mapdoc d;

	memset(&d, 0, sizeof(d));
	d.m = map_alloc();
	d.m->source = ipp_xstrdup(r->name);
	if (ipp_yr_begin_document(r, "ipp-map", IPP_MAP_VERSION, "a map document", "map",
				  &d.m->line) < 0)
		goto fail;
	if (read_map_keys(r, &d, false) < 0)
		goto fail;
	for (int k = 0; k < K_COUNT; k++)
		if (!d.seen[k] && !K_OPTIONAL(k)) {
			ipp_yr_fail(r, d.m->line, 0, "map document lacks the key '%s'",
				    ipp_map_key_names[k]);
			goto fail;
		}
	if (ipp_yr_end_document(r) < 0)
		goto fail;
	if (cc != NULL)		/* before step 2 moves records out of d */
		saved = ipp_mapdoc_save(&d, r->line0, cc->text_hash, cc->text_len, &nsaved);
	if (ipp_map_rebuild(r, &d) < 0)
		goto fail;
	if (saved != NULL)
		write_cache(cc, saved, nsaved);
	free(saved);
	mapdoc_free(&d);
	return d.m;
fail:
	free(saved);
	mapdoc_free(&d);
	ipp_map_free(d.m);
	return NULL;
}

/* Reads the map documents of buf[0..len-1], the part of an input called
 * 'name' that starts after its first line0 lines. */
static int read_stream(const char *buf, size_t len, const char *name, int line0,
		       const struct cache_ctx *cc, ipp_map ***maps, size_t *nmaps, char *err,
		       size_t errlen)
{
	ipp_yreader r;
	ipp_map **v = NULL;
	size_t n = 0, cap = 0;
	const yaml_event_t *ev;

	*maps = NULL;
	*nmaps = 0;
	ipp_yr_init(&r, buf, len, name, err, errlen);
	r.line0 = line0;
	if (ipp_yr_expect(&r, YAML_STREAM_START_EVENT, "the start of the input") < 0)
		goto fail;
	while ((ev = ipp_yr_peek(&r)) && ev->type != YAML_STREAM_END_EVENT) {
		ipp_map *m = read_map_document(&r, cc);
		if (!m)
			goto fail;
		IPP_ARRAY_GROW(v, n, cap);
		v[n++] = m;
	}
	if (!ev)
		goto fail;
	if (n == 0) {
		ipp_yr_fail(&r, 0, 0, "no map document (the input is empty)");
		goto fail;
	}
	ipp_yr_fini(&r);
	*maps = v;
	*nmaps = n;
	return 0;
fail:
	ipp_yr_fini(&r);
	ipp_map_free_all(v, n);
	return -1;
}

int ipp_map_read_buffer(const char *buf, size_t len, const char *name,
			ipp_map ***maps, size_t *nmaps, char *err, size_t errlen)
{
	return read_stream(buf, len, name, 0, NULL, maps, nmaps, err, errlen);
}

/* ---- a stream's documents, located without parsing them whole ---- */

/* Is buf[i..] a line "..." (a document end marker: followed by the end of
 * the line, a blank or the end of the input)? */
static bool document_end_at(const char *buf, size_t len, size_t i)
{
	return len - i >= 3 && memcmp(buf + i, "...", 3) == 0 &&
	       (len - i == 3 || buf[i + 3] == '\n' || buf[i + 3] == '\r' || buf[i + 3] == ' ' ||
		buf[i + 3] == '\t');
}

#define HEAD_PREFIX 2048

/* Reads the head of the document s (module, mode, checksum) into s. */
static int read_head(const char *buf, const char *name, ipp_map_span *s, size_t prefix,
		     char *err, size_t errlen)
{
	ipp_yreader r;
	struct mapdoc d;
	int rc = -1;

	memset(&d, 0, sizeof(d));
	d.m = map_alloc();
	ipp_yr_init(&r, buf + s->offset, prefix < s->len ? prefix : s->len, name, err, errlen);
	r.line0 = s->line - 1;
	if (ipp_yr_expect(&r, YAML_STREAM_START_EVENT, "the start of the input") < 0 ||
	    ipp_yr_begin_document(&r, "ipp-map", IPP_MAP_VERSION, "a map document", "map",
				  &d.m->line) < 0 ||
	    read_map_keys(&r, &d, true) < 0)
		goto out;
	if (!head_seen(&d)) {
		ipp_yr_fail(&r, d.m->line, 0, "map document lacks the key '%s'",
			    ipp_map_key_names[!d.seen[K_MODULE] ? K_MODULE
					      : !d.seen[K_MODE] ? K_MODE : K_CHECKSUM]);
		goto out;
	}
	s->module = d.m->module;
	d.m->module = NULL;
	s->mode = d.m->mode;
	s->checksum = d.m->checksum;
	rc = 0;
out:
	ipp_yr_fini(&r);
	mapdoc_free(&d);
	ipp_map_free(d.m);
	return rc;
}

int ipp_map_index_buffer(const char *buf, size_t len, const char *name,
			 ipp_map_span **spans, size_t *nspans, char *err, size_t errlen)
{
	ipp_map_span *v = NULL;
	size_t n = 0, cap = 0, start = 0, i = 0;
	int line = 1, start_line = 1;
	bool content = false;

	*spans = NULL;
	*nspans = 0;
	/* Invariant: i is the start of a line, 'line' its number; 'content'
	 * says whether a line since 'start' holds more than blanks, a
	 * comment or a '...' (pieces without any belong to no document: the
	 * parser skips them too). */
	while (i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t next = nl ? (size_t)(nl - buf) + 1 : len;
		bool end = document_end_at(buf, len, i);
		size_t lead = i;
		while (lead < next && (buf[lead] == ' ' || buf[lead] == '\t' || buf[lead] == '\r'))
			lead++;
		if (!end && lead < next && buf[lead] != '\n' && buf[lead] != '#')
			content = true;
		i = next;
		line++;
		if ((end || i == len) && content) {
			IPP_ARRAY_GROW(v, n, cap);
			memset(&v[n], 0, sizeof(v[n]));
			v[n].offset = start;
			v[n].len = i - start;
			v[n].line = start_line;
			n++;
		}
		if (end || i == len) {
			start = i;
			start_line = line;
			content = false;
		}
	}
	if (n == 0) {
		ipp_seterr(err, errlen, "%s: no map document (the input is empty)", name);
		free(v);
		return -1;
	}
	/* libyaml decodes its input 16 KiB at a time: hand it the first
	 * HEAD_PREFIX bytes, where the writer puts the head; the whole text
	 * if the head is not all there (then any error is the document's). */
	for (size_t k = 0; k < n; k++)
		if (read_head(buf, name, &v[k], HEAD_PREFIX, err, errlen) < 0 &&
		    (v[k].len <= HEAD_PREFIX || read_head(buf, name, &v[k], v[k].len, err,
							      errlen) < 0)) {
			ipp_map_spans_free(v, k);
			return -1;
		}
	*spans = v;
	*nspans = n;
	return 0;
}

/* The map of a cache file's contents, or NULL if the file is not intact,
 * not of this text, or its records do not rebuild (step 2's checks and
 * the checksum). */
static ipp_map *map_from_cache(const char *data, size_t len, const ipp_map_span *s,
			       const char *name, const struct cache_ctx *cc)
{
	struct mapdoc d;
	ipp_yreader r;
	char err[256];
	int rc;

	memset(&d, 0, sizeof(d));
	d.m = map_alloc();
	d.m->source = ipp_xstrdup(name);
	d.m->line = s->line;
	rc = ipp_mapdoc_load(data, len, s->line - 1, cc->text_hash, cc->text_len, &d);
	if (rc == 0 && (d.m->checksum != s->checksum || strcmp(d.m->module, s->module) != 0))
		rc = -1;
	if (rc == 0) {
		ipp_yr_init(&r, NULL, 0, name, err, sizeof(err));	/* for messages */
		rc = ipp_map_rebuild(&r, &d);
		ipp_yr_fini(&r);
	}
	mapdoc_free(&d);
	if (rc < 0) {
		ipp_map_free(d.m);
		return NULL;
	}
	return d.m;
}

/* Reads the cache file cc->path whole; NULL if there is none. */
static char *read_cache(const struct cache_ctx *cc, size_t *len)
{
	char err[64];
	FILE *f = fopen(cc->path, "rb");
	if (f == NULL)
		return NULL;
	fclose(f);
	return ipp_read_whole_file(cc->path, len, err, sizeof(err));
}

static int read_span(const char *buf, const ipp_map_span *s, const char *name,
		     const char *cache_dir, ipp_map **out, char *err, size_t errlen)
{
	struct cache_ctx cc, *ccp = NULL;
	char *path = NULL;
	ipp_map **maps;
	size_t n;

	*out = NULL;
	if (cache_dir != NULL) {
		char *data;
		size_t len, plen = strlen(cache_dir) + 48;
		cc.text_hash = ipp_hash_block(IPP_HASH_INIT, buf + s->offset, s->len);
		cc.text_len = s->len;
		path = ipp_xmalloc(plen);
		snprintf(path, plen, "%s/%016" PRIx64 "-%zu.mapdoc", cache_dir, cc.text_hash,
			 s->len);
		cc.path = path;
		ccp = &cc;
		data = read_cache(&cc, &len);
		if (data != NULL) {
			*out = map_from_cache(data, len, s, name, &cc);
			free(data);
			if (*out != NULL) {
				ipp_map_cache_stats.hits++;
				free(path);
				return 0;
			}
			ipp_map_cache_stats.rejected++;
		}
	}
	n = 0;
	if (read_stream(buf + s->offset, s->len, name, s->line - 1, ccp, &maps, &n, err,
			errlen) < 0) {
		free(path);
		return -1;
	}
	free(path);
	/* A document without its '...' fails above, so a span holds one. */
	if (n != 1 || maps[0]->checksum != s->checksum || strcmp(maps[0]->module, s->module) != 0) {
		ipp_seterr(err, errlen, "%s:%d: the map document of %s is not what its head "
			   "says", name, s->line, s->module);
		ipp_map_free_all(maps, n);
		return -1;
	}
	*out = maps[0];
	free(maps);
	return 0;
}

int ipp_map_read_span(const char *buf, const ipp_map_span *s, const char *name,
		      ipp_map **out, char *err, size_t errlen)
{
	return read_span(buf, s, name, NULL, out, err, errlen);
}

int ipp_map_read_span_cached(const char *buf, const ipp_map_span *s, const char *name,
			     const char *cache_dir, ipp_map **out, char *err, size_t errlen)
{
	return read_span(buf, s, name, cache_dir, out, err, errlen);
}

void ipp_map_spans_free(ipp_map_span *spans, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(spans[i].module);
	free(spans);
}

int ipp_map_read_file(const char *path, ipp_map ***maps, size_t *nmaps,
		      char *err, size_t errlen)
{
	size_t len;
	char *buf = ipp_read_whole_file(path, &len, err, errlen);
	int rc;
	*maps = NULL;
	*nmaps = 0;
	if (!buf)
		return -1;
	rc = ipp_map_read_buffer(buf, len, path, maps, nmaps, err, errlen);
	free(buf);
	return rc;
}
