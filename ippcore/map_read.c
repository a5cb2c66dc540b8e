/* map_read.c -- reading maps (ipp_map_read_buffer / ipp_map_read_file,
 * ipp_format.h): a YAML stream of one or more map documents, each turned
 * into an ipp_map; and the ipp_map's allocation and release.
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
	"back-edges", "summaries", "fallback", "regions", "total", "digest"
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

/* Reads the keys after "ipp-map: 1" up to the end of the mapping. */
static int read_map_keys(ipp_yreader *r, struct mapdoc *d)
{
	int k, line, col, rc;
	while ((rc = ipp_yr_known_key(r, ipp_map_key_names, K_COUNT, "a map", d->seen, &k, &line,
				      &col)) > 0) {
		d->kline[k] = line;
		d->kcol[k] = col;
		if (read_key_value(r, d, (enum map_key)k) < 0)
			return -1;
	}
	return rc;
}

/* Reads one document; NULL (with the error in r) on failure. */
static ipp_map *read_map_document(ipp_yreader *r)
{
	struct mapdoc d;

	memset(&d, 0, sizeof(d));
	d.m = map_alloc();
	d.m->source = ipp_xstrdup(r->name);
	if (ipp_yr_begin_document(r, "ipp-map", IPP_MAP_VERSION, "a map document", "map",
				  &d.m->line) < 0)
		goto fail;
	if (read_map_keys(r, &d) < 0)
		goto fail;
	for (int k = 0; k < K_COUNT; k++)
		if (!d.seen[k] && k != K_OPTIONAL) {
			ipp_yr_fail(r, d.m->line, 0, "map document lacks the key '%s'",
				    ipp_map_key_names[k]);
			goto fail;
		}
	if (ipp_yr_end_document(r) < 0 || ipp_map_rebuild(r, &d) < 0)
		goto fail;
	mapdoc_free(&d);
	return d.m;
fail:
	mapdoc_free(&d);
	ipp_map_free(d.m);
	return NULL;
}

int ipp_map_read_buffer(const char *buf, size_t len, const char *name,
			ipp_map ***maps, size_t *nmaps, char *err, size_t errlen)
{
	ipp_yreader r;
	ipp_map **v = NULL;
	size_t n = 0, cap = 0;
	const yaml_event_t *ev;

	*maps = NULL;
	*nmaps = 0;
	ipp_yr_init(&r, buf, len, name, err, errlen);
	if (ipp_yr_expect(&r, YAML_STREAM_START_EVENT, "the start of the input") < 0)
		goto fail;
	while ((ev = ipp_yr_peek(&r)) && ev->type != YAML_STREAM_END_EVENT) {
		ipp_map *m = read_map_document(&r);
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
