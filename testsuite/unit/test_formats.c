/* test_formats.c -- CUnit tests of the map and profile formats (ippcore/map.c,
 * ippcore/profile.c; specification in docs/FORMAT.md).
 *
 * A small supergraph is built by hand (five procedures: a loop, parallel
 * edges, an interprocedural call, calls out of the unit, an indirect call,
 * recursion, a dead end to GExit, an irreducible procedure, a skipped one,
 * locations in three files), numbered in every mode, written, read back and
 * compared field by field with what was built.  Then the readers are fed
 * damaged input: wrong versions, bad kinds, dangling ids, a checksum that
 * no longer matches, truncation at every byte, garbage; and profiles are
 * round-tripped, merged and checked against a map.  A binary profile with
 * repeated keys is written with the format's own writer (runtime/
 * ipp_profile.h) and must read as one record per key.
 *
 * Every expected value comes from the construction in this file.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "ipp_format.h"
#include "ipp_profile.h"

#include <CUnit/Basic.h>
#include <CUnit/CUnit.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* The fixture                                                          */
/* ------------------------------------------------------------------ */

#define NPROCS 5

struct fixture {
	ipp_graph *g;
	ipp_id pmain, pwork, pnull, prec, pirr;
	ipp_id b1, b2, b3, dead, c1, c2, c3;	/* main */
	ipp_id w1, w2, c4, c5;			/* work */
	ipp_id q1, c6;				/* rec */
	ipp_id ia, ib;				/* irr */
	ipp_id e0;				/* edge Entry_main -> b1 */
	const char *skip_reason[NPROCS];
};

static const char FILE_MAIN[] = "fig.c";
static const char FILE_INC[] = "dir/\xc3\xbcn\xc3\xaf.h";	/* "dir/ünï.h" */
static const char FILE_ODD[] = "odd \"name\".c";
static const char SKIP_REASON[] = "setjmp: \"abnormal\" edges\tafter a tab";

/*
 * main:  Entry -> b1;  b1 -> b2, b2 (parallel), b3;  b2 -> c1 (work), dead;
 *        r1 -> c2 (external: "ext", asm name "ext.part.0");  r2 -> c3
 *        (indirect);  r3 -> b1 (back edge);
 *        r2 is a restart vertex (as if c2 were setjmp);
 *        dead -> GExit;  b3 -> Exit
 * work:  Entry -> w1;  w1 -> c4 (rec), w2;  r4 -> w2;  w2 -> c5 (null, noreturn), Exit;
 *        r5 -> GExit
 * The callees' names are set (ipp_set_call_target) only if 'names': c2's,
 * and c1's and c5's as their callee procedures are named (the map records
 * no name for them). 
 * null:  skipped (no body)
 * rec:   Entry -> q1;  q1 -> c6 (rec, recursive), Exit;  r6 -> Exit
 * irr:   Entry -> ia, ib;  ia -> ib, Exit;  ib -> ia  (irreducible)
 */
static void build_fixture_names(struct fixture *fx, bool names)
{
	ipp_graph *g = ipp_graph_new();
	ipp_id em, ew, er, ei;
	memset(fx, 0, sizeof(*fx));
	fx->g = g;
	fx->pmain = ipp_add_proc(g, "main", "main", IPP_PROC_ENTRY);
	fx->pwork = ipp_add_proc(g, "work", "work.constprop.0", 0);
	fx->pnull = ipp_add_proc(g, "null", "null", IPP_PROC_SKIPPED);
	fx->prec = ipp_add_proc(g, "rec", "rec", 0);
	fx->pirr = ipp_add_proc(g, "irr", "irr", IPP_PROC_ENTRY);
	fx->skip_reason[fx->pnull] = SKIP_REASON;
	em = ipp_proc_entry(g, fx->pmain);
	ew = ipp_proc_entry(g, fx->pwork);
	er = ipp_proc_entry(g, fx->prec);
	ei = ipp_proc_entry(g, fx->pirr);
	ipp_set_loc(g, em, FILE_MAIN, 5, 1);
	ipp_set_loc(g, ew, FILE_INC, 30, 1);
	ipp_set_loc(g, ipp_proc_entry(g, fx->pnull), FILE_ODD, 2, 0);
	ipp_set_loc(g, er, FILE_MAIN, 40, 1);

	fx->b1 = ipp_add_block(g, fx->pmain);
	fx->b2 = ipp_add_block(g, fx->pmain);
	fx->c1 = ipp_add_call(g, fx->pmain, fx->pwork, 0);
	fx->c2 = ipp_add_call(g, fx->pmain, IPP_NONE, 0);
	fx->c3 = ipp_add_call(g, fx->pmain, IPP_NONE, IPP_CALL_INDIRECT);
	fx->b3 = ipp_add_block(g, fx->pmain);
	fx->dead = ipp_add_block(g, fx->pmain);
	ipp_set_loc(g, fx->b1, FILE_MAIN, 10, 3);
	ipp_set_tag(g, fx->b1, 2);
	ipp_set_loc(g, fx->b2, FILE_MAIN, 11, 5);
	ipp_set_tag(g, fx->b2, 3);
	ipp_set_loc(g, fx->c1, FILE_MAIN, 12, 7);
	ipp_set_loc(g, fx->c2, FILE_INC, 13, 9);
	ipp_set_loc(g, fx->c3, NULL, 14, 0);	/* a line without a file */
	ipp_set_tag(g, fx->b3, 4);
	ipp_set_loc(g, fx->dead, FILE_MAIN, 16, 2);

	fx->e0 = ipp_add_edge(g, em, fx->b1);
	ipp_add_edge(g, fx->b1, fx->b2);
	ipp_add_edge(g, fx->b1, fx->b2);
	ipp_add_edge(g, fx->b1, fx->b3);
	ipp_add_edge(g, fx->b2, fx->c1);
	ipp_add_edge(g, fx->b2, fx->dead);
	ipp_add_edge(g, fx->c1 + 1, fx->c2);
	ipp_add_edge(g, fx->c2 + 1, fx->c3);
	ipp_add_edge(g, fx->c3 + 1, fx->b1);
	ipp_set_restart(g, fx->c2 + 1);
	ipp_add_edge(g, fx->dead, ipp_proc_gexit(g, fx->pmain));
	ipp_add_edge(g, fx->b3, ipp_proc_exit(g, fx->pmain));

	fx->w1 = ipp_add_block(g, fx->pwork);
	fx->c4 = ipp_add_call(g, fx->pwork, fx->prec, 0);
	fx->w2 = ipp_add_block(g, fx->pwork);
	fx->c5 = ipp_add_call(g, fx->pwork, fx->pnull, IPP_CALL_NORETURN);
	ipp_set_loc(g, fx->w1, FILE_INC, 31, 4);
	ipp_set_loc(g, fx->c5, FILE_INC, 33, 8);
	ipp_add_edge(g, ew, fx->w1);
	ipp_add_edge(g, fx->w1, fx->c4);
	ipp_add_edge(g, fx->w1, fx->w2);
	ipp_add_edge(g, fx->c4 + 1, fx->w2);
	ipp_add_edge(g, fx->w2, fx->c5);
	ipp_add_edge(g, fx->w2, ipp_proc_exit(g, fx->pwork));
	ipp_add_edge(g, fx->c5 + 1, ipp_proc_gexit(g, fx->pwork));

	fx->q1 = ipp_add_block(g, fx->prec);
	fx->c6 = ipp_add_call(g, fx->prec, fx->prec, 0);
	ipp_add_edge(g, er, fx->q1);
	ipp_add_edge(g, fx->q1, fx->c6);
	ipp_add_edge(g, fx->q1, ipp_proc_exit(g, fx->prec));
	ipp_add_edge(g, fx->c6 + 1, ipp_proc_exit(g, fx->prec));

	fx->ia = ipp_add_block(g, fx->pirr);
	fx->ib = ipp_add_block(g, fx->pirr);
	ipp_add_edge(g, ei, fx->ia);
	ipp_add_edge(g, ei, fx->ib);
	ipp_add_edge(g, fx->ia, fx->ib);
	ipp_add_edge(g, fx->ia, ipp_proc_exit(g, fx->pirr));
	ipp_add_edge(g, fx->ib, fx->ia);
	if (names) {
		ipp_set_call_target(g, fx->c1, "work.constprop.0", "work");
		ipp_set_call_target(g, fx->c2, "ext.part.0", "ext");
		ipp_set_call_target(g, fx->c5, "null", NULL);
	}
}

static void build_fixture(struct fixture *fx)
{
	build_fixture_names(fx, true);
}

/* Cuts used by the "with cuts" round trips: block b3 and call c1. */
static void fixture_cuts(const struct fixture *fx, ipp_cuts *c)
{
	ipp_cuts_init(c);
	ipp_cuts_add_vertex(c, fx->b3);
	ipp_cuts_add_call(c, fx->c1);
}

static void set_limit(mpz_t limit)
{
	mpz_init_set_str(limit, "18446744073709551616", 10);	/* 2^64 */
}

/* The map text of fx numbered in 'mode' (with cuts if given). */
static char *map_text(const struct fixture *fx, enum ipp_mode mode, const ipp_cuts *cuts,
		      const char *module, size_t *len)
{
	char err[512] = "", *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	ipp_fin *fin = ipp_fin_new(fx->g, mode, cuts, err, sizeof(err));
	ipp_map_meta meta = { module, "0.1.0", "12.2.0 (Debian 12.2.0-14)", fx->skip_reason };
	mpz_t limit;
	int rc;
	CU_ASSERT_PTR_NOT_NULL_FATAL(fin);
	set_limit(limit);
	rc = ipp_map_write(f, fin, cuts, &meta, limit, err, sizeof(err));
	if (rc)
		printf("\nmap write: %s\n", err);
	CU_ASSERT_EQUAL(rc, 0);
	fclose(f);
	mpz_clear(limit);
	ipp_fin_free(fin);
	*len = n;
	return buf;
}

static int count_lines(const char *s, size_t len)
{
	int n = 0;
	for (size_t i = 0; i < len; i++)
		n += s[i] == '\n';
	return n;
}

static char *replace_once(const char *s, const char *from, const char *to)
{
	const char *p = strstr(s, from);
	char *out;
	size_t a, b, c;
	if (!p)
		return NULL;
	a = (size_t)(p - s);
	b = strlen(to);
	c = strlen(p + strlen(from));
	out = malloc(a + b + c + 1);
	memcpy(out, s, a);
	memcpy(out + a, to, b);
	memcpy(out + a + b, p + strlen(from), c + 1);
	return out;
}

/* 1-based line and column of s[pos]. */
static void line_col(const char *s, size_t pos, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < pos; i++) {
		if (s[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

/* ------------------------------------------------------------------ */
/* Comparisons                                                          */
/* ------------------------------------------------------------------ */

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static void check_same_graph(const ipp_graph *a, const ipp_graph *b)
{
	size_t bad = 0;
	CU_ASSERT_EQUAL_FATAL(ipp_graph_nprocs(a), ipp_graph_nprocs(b));
	CU_ASSERT_EQUAL_FATAL(ipp_graph_nvertices(a), ipp_graph_nvertices(b));
	CU_ASSERT_EQUAL_FATAL(ipp_graph_nedges(a), ipp_graph_nedges(b));
	for (ipp_id p = 0; (size_t)p < ipp_graph_nprocs(a); p++) {
		bad += !same_str(ipp_proc_name(a, p), ipp_proc_name(b, p));
		bad += !same_str(ipp_proc_asm(a, p), ipp_proc_asm(b, p));
		bad += ipp_proc_flags(a, p) != ipp_proc_flags(b, p);
		bad += ipp_proc_entry(a, p) != ipp_proc_entry(b, p);
		bad += ipp_proc_exit(a, p) != ipp_proc_exit(b, p);
		bad += ipp_proc_gexit(a, p) != ipp_proc_gexit(b, p);
		bad += ipp_proc_gentry(a, p) != ipp_proc_gentry(b, p);
	}
	for (ipp_id v = 0; (size_t)v < ipp_graph_nvertices(a); v++) {
		bad += ipp_vertex_kind(a, v) != ipp_vertex_kind(b, v);
		bad += ipp_vertex_proc(a, v) != ipp_vertex_proc(b, v);
		bad += !same_str(ipp_vertex_file(a, v), ipp_vertex_file(b, v));
		bad += ipp_vertex_line(a, v) != ipp_vertex_line(b, v);
		bad += ipp_vertex_col(a, v) != ipp_vertex_col(b, v);
		bad += ipp_vertex_tag(a, v) != ipp_vertex_tag(b, v);
		bad += ipp_vertex_is_restart(a, v) != ipp_vertex_is_restart(b, v);
		if (ipp_vertex_kind(a, v) == IPP_V_CALL) {
			bad += ipp_call_callee(a, v) != ipp_call_callee(b, v);
			bad += ipp_call_flags(a, v) != ipp_call_flags(b, v);
			bad += !same_str(ipp_call_target_asm(a, v), ipp_call_target_asm(b, v));
			bad += !same_str(ipp_call_target_name(a, v), ipp_call_target_name(b, v));
		}
		bad += ipp_vertex_nout(a, v) != ipp_vertex_nout(b, v);
		for (size_t i = 0; i < ipp_vertex_nout(a, v) && i < ipp_vertex_nout(b, v); i++)
			bad += ipp_vertex_out(a, v, i) != ipp_vertex_out(b, v, i);
	}
	for (ipp_id e = 0; (size_t)e < ipp_graph_nedges(a); e++) {
		bad += ipp_edge_src(a, e) != ipp_edge_src(b, e);
		bad += ipp_edge_dst(a, e) != ipp_edge_dst(b, e);
	}
	CU_ASSERT_EQUAL(bad, 0);
}

/* psi of every vertex, rho of every edge, the regions and the total. */
static void check_same_numbering(const ipp_fin *a, const ipp_fin *b)
{
	mpz_t xa, xb, ya, yb;
	size_t bad = 0;
	mpz_inits(xa, xb, ya, yb, NULL);
	CU_ASSERT_EQUAL_FATAL(ipp_fin_nvertices(a), ipp_fin_nvertices(b));
	CU_ASSERT_EQUAL_FATAL(ipp_fin_nedges(a), ipp_fin_nedges(b));
	CU_ASSERT_EQUAL_FATAL(ipp_fin_nregions(a), ipp_fin_nregions(b));
	for (ipp_id v = 0; (size_t)v < ipp_fin_nvertices(a); v++) {
		ipp_fin_psi(a, v, xa, ya);
		ipp_fin_psi(b, v, xb, yb);
		bad += mpz_cmp(xa, xb) != 0 || mpz_cmp(ya, yb) != 0;
	}
	for (ipp_id e = 0; (size_t)e < ipp_fin_nedges(a); e++) {
		ipp_fin_rho(a, e, xa, ya);
		ipp_fin_rho(b, e, xb, yb);
		bad += mpz_cmp(xa, xb) != 0 || mpz_cmp(ya, yb) != 0;
		bad += ipp_fin_esrc(a, e) != ipp_fin_esrc(b, e);
		bad += ipp_fin_edst(a, e) != ipp_fin_edst(b, e);
	}
	for (ipp_id r = 0; (size_t)r < ipp_fin_nregions(a); r++) {
		ipp_region_info ia, ib;
		ipp_fin_region(a, r, &ia);
		ipp_fin_region(b, r, &ib);
		bad += strcmp(ia.name, ib.name) != 0;
		ipp_fin_region_total(a, r, xa);
		ipp_fin_region_total(b, r, xb);
		bad += mpz_cmp(xa, xb) != 0;
	}
	ipp_fin_total(a, xa);
	ipp_fin_total(b, xb);
	bad += mpz_cmp(xa, xb) != 0;
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(ipp_fin_digest(a), ipp_fin_digest(b));
	mpz_clears(xa, xb, ya, yb, NULL);
}

/* ------------------------------------------------------------------ */
/* Map round trips                                                      */
/* ------------------------------------------------------------------ */

static void round_trip(enum ipp_mode mode, bool with_cuts)
{
	struct fixture fx;
	ipp_cuts cuts, *cp = NULL;
	ipp_map **maps = NULL;
	size_t n = 0, len;
	char err[512] = "", *text;
	ipp_fin *orig, *again;
	ipp_map *m;
	mpz_t limit;
	int rc;

	build_fixture(&fx);
	if (with_cuts) {
		fixture_cuts(&fx, &cuts);
		cp = &cuts;
	}
	text = map_text(&fx, mode, cp, "src/my file.c", &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	rc = ipp_map_read_buffer(text, len, "rt.map", &maps, &n, err, sizeof(err));
	if (rc)
		printf("\nround trip (%s): %s\n", ipp_mode_name(mode), err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	m = maps[0];

	CU_ASSERT_STRING_EQUAL(m->source, "rt.map");
	CU_ASSERT_EQUAL(m->line, 1);	/* where "%YAML 1.1" is */
	CU_ASSERT_STRING_EQUAL(m->module, "src/my file.c");
	CU_ASSERT_STRING_EQUAL(m->ipp_version, "0.1.0");
	CU_ASSERT_STRING_EQUAL(m->gcc_version, "12.2.0 (Debian 12.2.0-14)");
	CU_ASSERT_EQUAL(m->mode, mode);
	set_limit(limit);
	CU_ASSERT_EQUAL(mpz_cmp(m->limit, limit), 0);
	mpz_clear(limit);
	check_same_graph(fx.g, m->graph);
	for (ipp_id p = 0; p < NPROCS; p++)
		CU_ASSERT(same_str(m->skip_reason[p], fx.skip_reason[p]));
	CU_ASSERT_EQUAL(ipp_vertex_kind(m->graph, fx.b1), IPP_V_BLOCK);
	CU_ASSERT_STRING_EQUAL(ipp_vertex_file(m->graph, fx.c2), FILE_INC);
	CU_ASSERT_PTR_NULL(ipp_vertex_file(m->graph, fx.c3));
	CU_ASSERT_EQUAL(ipp_vertex_line(m->graph, fx.c3), 14);
	CU_ASSERT_EQUAL(ipp_call_callee(m->graph, fx.c1), fx.pwork);
	CU_ASSERT_EQUAL(ipp_call_flags(m->graph, fx.c3), IPP_CALL_INDIRECT);
	CU_ASSERT_EQUAL(ipp_call_flags(m->graph, fx.c5), IPP_CALL_NORETURN);
	CU_ASSERT_STRING_EQUAL(ipp_call_target_asm(m->graph, fx.c1), "work.constprop.0");
	CU_ASSERT_STRING_EQUAL(ipp_call_target_name(m->graph, fx.c1), "work");
	CU_ASSERT_STRING_EQUAL(ipp_call_target_asm(m->graph, fx.c2), "ext.part.0");
	CU_ASSERT_STRING_EQUAL(ipp_call_target_name(m->graph, fx.c2), "ext");
	CU_ASSERT_PTR_NULL(ipp_call_target_asm(m->graph, fx.c3));
	CU_ASSERT_PTR_NULL(ipp_call_target_name(m->graph, fx.c3));
	CU_ASSERT_STRING_EQUAL(ipp_call_target_asm(m->graph, fx.c5), "null");
	CU_ASSERT_STRING_EQUAL(ipp_call_target_name(m->graph, fx.c5), "null");
	CU_ASSERT_EQUAL(ipp_edge_dst(m->graph, fx.e0), fx.b1);
	CU_ASSERT(ipp_vertex_is_restart(m->graph, fx.c2 + 1));
	CU_ASSERT(!ipp_vertex_is_restart(m->graph, fx.c3 + 1));

	CU_ASSERT_EQUAL_FATAL(m->cuts.nvertices, with_cuts ? 1 : 0);
	CU_ASSERT_EQUAL_FATAL(m->cuts.ncalls, with_cuts ? 1 : 0);
	if (with_cuts) {
		CU_ASSERT_EQUAL(m->cuts.vertices[0], fx.b3);
		CU_ASSERT_EQUAL(m->cuts.calls[0], fx.c1);
	}
	CU_ASSERT_EQUAL(m->checksum, ipp_map_checksum(fx.g, mode, cp, "src/my file.c"));

	orig = ipp_fin_new(fx.g, mode, cp, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(orig);
	CU_ASSERT_EQUAL(m->digest, ipp_fin_digest(orig));
	CU_ASSERT_EQUAL(m->nregions, ipp_fin_nregions(orig));
	again = ipp_map_fin(m, err, sizeof(err));
	if (!again)
		printf("\nmap fin (%s): %s\n", ipp_mode_name(mode), err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(again);
	check_same_numbering(orig, again);
	/* A fin rebuilt by hand from the read graph numbers identically, too. */
	ipp_fin_free(again);
	again = ipp_fin_new(m->graph, m->mode, &m->cuts, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(again);
	check_same_numbering(orig, again);
	ipp_fin_free(again);

	/* What the map says about the construction. */
	CU_ASSERT_EQUAL(m->nback_edges, 2);	/* r3 -> b1 and ib -> ia */
	if (mode == IPP_MODE_CONTEXT || mode == IPP_MODE_PIECEWISE) {
		/* c2 external, c3 indirect, c5 external (skipped callee), c6 recursive,
		 * and c1 when cut */
		CU_ASSERT_EQUAL(m->nsummaries, with_cuts ? 5 : 4);
	} else {
		CU_ASSERT_EQUAL(m->nsummaries, 6);	/* every site */
	}
	/* Intra-context falls back to Ball-Larus in irr (irreducible) and in
	 * main, whose restart vertex r2 lies inside the loop b1..r3: control
	 * arriving there bypasses the header, so the loop is irreducible once
	 * restart points count as successors of Entry_P. */
	CU_ASSERT_EQUAL(m->nfallback, mode == IPP_MODE_INTRA_CONTEXT ? 2 : 0);
	if (m->nfallback == 2) {
		CU_ASSERT_EQUAL(m->fallback[0], fx.pmain);
		CU_ASSERT_EQUAL(m->fallback[1], fx.pirr);
	}

	ipp_fin_free(orig);
	ipp_map_free_all(maps, n);
	free(text);
	if (cp)
		ipp_cuts_free(cp);
	ipp_graph_free(fx.g);
}

static void test_round_trip_all_modes(void)
{
	for (int mode = 0; mode < IPP_MODE_COUNT; mode++) {
		round_trip((enum ipp_mode)mode, false);
		round_trip((enum ipp_mode)mode, true);
	}
}

/* Two units concatenated, as the linker does with the ELF sections. */
static void test_stream_of_two(void)
{
	struct fixture fx;
	size_t la, lb, n = 0;
	char *a, *b, *both, err[512] = "", path[] = "/tmp/ipp-test-map-XXXXXX";
	ipp_map **maps = NULL;
	FILE *f;
	int fd;

	build_fixture(&fx);
	a = map_text(&fx, IPP_MODE_CONTEXT, NULL, "a.c", &la);
	b = map_text(&fx, IPP_MODE_PIECEWISE, NULL, "b.c", &lb);
	both = malloc(la + lb);
	memcpy(both, a, la);
	memcpy(both + la, b, lb);
	CU_ASSERT_EQUAL_FATAL(ipp_map_read_buffer(both, la + lb, "two", &maps, &n, err,
						  sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(n, 2);
	CU_ASSERT_STRING_EQUAL(maps[0]->module, "a.c");
	CU_ASSERT_STRING_EQUAL(maps[1]->module, "b.c");
	CU_ASSERT_EQUAL(maps[0]->mode, IPP_MODE_CONTEXT);
	CU_ASSERT_EQUAL(maps[1]->mode, IPP_MODE_PIECEWISE);
	CU_ASSERT_EQUAL(maps[0]->checksum, ipp_map_checksum(fx.g, IPP_MODE_CONTEXT, NULL, "a.c"));
	CU_ASSERT_EQUAL(maps[1]->checksum,
			ipp_map_checksum(fx.g, IPP_MODE_PIECEWISE, NULL, "b.c"));
	CU_ASSERT_NOT_EQUAL(maps[0]->checksum, maps[1]->checksum);
	/* The second document starts on the line after the first one's "...". */
	CU_ASSERT_EQUAL(maps[1]->line, count_lines(a, la) + 1);
	ipp_map_free_all(maps, n);

	/* The same stream through a file. */
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	f = fdopen(fd, "w");
	fwrite(both, 1, la + lb, f);
	fclose(f);
	CU_ASSERT_EQUAL(ipp_map_read_file(path, &maps, &n, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(n, 2);
	if (n == 2)
		CU_ASSERT_STRING_EQUAL(maps[1]->source, path);
	ipp_map_free_all(maps, n);
	unlink(path);
	CU_ASSERT_EQUAL(ipp_map_read_file(path, &maps, &n, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, path));

	free(a);
	free(b);
	free(both);
	ipp_graph_free(fx.g);
}

/* The same stream located (ipp_map_index_buffer) and read a document at a
 * time (ipp_map_read_span): the heads, the maps and the messages are the
 * ones of ipp_map_read_buffer; and through the cache, whose files are used
 * only when they are intact and made from this very text. */
static void test_spans_and_cache(void)
{
	struct fixture fx;
	size_t la, lb, n = 0, ns = 0;
	char *a, *b, *both, *bad, err[512] = "", err2[512] = "", *p;
	char dir[] = "/tmp/ipp-test-cache-XXXXXX", path[600];
	ipp_map **maps = NULL, **maps2 = NULL, *m;
	ipp_map_span *spans = NULL;
	size_t n2 = 0;
	int line_b;

	build_fixture(&fx);
	a = map_text(&fx, IPP_MODE_CONTEXT, NULL, "a.c", &la);
	b = map_text(&fx, IPP_MODE_PIECEWISE, NULL, "b.c", &lb);
	both = malloc(la + lb + 2);
	memcpy(both, a, la);
	memcpy(both + la, b, lb);
	memcpy(both + la + lb, "\n\n", 2);	/* blank lines after the last document */
	CU_ASSERT_EQUAL_FATAL(ipp_map_read_buffer(both, la + lb, "two", &maps, &n, err,
						  sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(ipp_map_index_buffer(both, la + lb + 2, "two", &spans, &ns, err,
						   sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(ns, 2);
	line_b = count_lines(a, la) + 1;
	CU_ASSERT_EQUAL(spans[0].offset, 0);
	CU_ASSERT_EQUAL(spans[0].len, la);
	CU_ASSERT_EQUAL(spans[0].line, 1);
	CU_ASSERT_EQUAL(spans[1].offset, la);
	CU_ASSERT_EQUAL(spans[1].len, lb);
	CU_ASSERT_EQUAL(spans[1].line, line_b);
	for (size_t i = 0; i < 2; i++) {
		CU_ASSERT_STRING_EQUAL(spans[i].module, maps[i]->module);
		CU_ASSERT_EQUAL(spans[i].checksum, maps[i]->checksum);
		CU_ASSERT_EQUAL(spans[i].mode, maps[i]->mode);
		CU_ASSERT_EQUAL_FATAL(ipp_map_read_span(both, &spans[i], "two", &m, err,
							sizeof(err)), 0);
		CU_ASSERT_EQUAL(m->checksum, maps[i]->checksum);
		CU_ASSERT_EQUAL(m->digest, maps[i]->digest);
		CU_ASSERT_EQUAL(m->line, maps[i]->line);
		ipp_map_free(m);
	}

	/* A damaged second document: the same message, the same line. */
	bad = malloc(la + lb);
	memcpy(bad, both, la + lb);
	p = strstr(bad + la, "\nedges:");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	memcpy(p + 1, "edgez", 5);
	CU_ASSERT_EQUAL(ipp_map_read_buffer(bad, la + lb, "two", &maps2, &n2, err2,
					    sizeof(err2)), -1);
	CU_ASSERT_EQUAL(ipp_map_read_span(bad, &spans[1], "two", &m, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, err2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "edgez"));

	/* The cache: written on the first read, used on the second. */
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	ipp_map_cache_stats_reset();
	for (int k = 0; k < 2; k++) {
		CU_ASSERT_EQUAL_FATAL(ipp_map_read_span_cached(both, &spans[1], "two", dir, &m, err,
							       sizeof(err)), 0);
		CU_ASSERT_EQUAL(m->checksum, spans[1].checksum);
		CU_ASSERT_EQUAL(m->line, line_b);
		ipp_map_free(m);
	}
	CU_ASSERT_EQUAL(ipp_map_cache_stats.hits, 1);
	CU_ASSERT_EQUAL(ipp_map_cache_stats.written, 1);
	/* b's cache file under a's name: not a's text, ignored */
	snprintf(path, sizeof(path), "%s/%016" PRIx64 "-%zu.mapdoc", dir,
		 ipp_hash_block(IPP_HASH_INIT, both + la, lb), lb);
	{
		char target[600], cmd[1400];
		snprintf(target, sizeof(target), "%s/%016" PRIx64 "-%zu.mapdoc", dir,
			 ipp_hash_block(IPP_HASH_INIT, both, la), la);
		snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", path, target);
		CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
		ipp_map_cache_stats_reset();
		CU_ASSERT_EQUAL_FATAL(ipp_map_read_span_cached(both, &spans[0], "two", dir, &m,
							       err, sizeof(err)), 0);
		CU_ASSERT_STRING_EQUAL(m->module, "a.c");
		CU_ASSERT_EQUAL(m->checksum, spans[0].checksum);
		CU_ASSERT_EQUAL(ipp_map_cache_stats.hits, 0);
		CU_ASSERT_EQUAL(ipp_map_cache_stats.rejected, 1);
		ipp_map_free(m);
		/* a damaged byte in every position class: never used, the map
		 * still right, the file rewritten */
		for (long off = 40; off < 4000; off += 397) {
			FILE *f = fopen(path, "r+b");
			CU_ASSERT_PTR_NOT_NULL_FATAL(f);
			fseek(f, off, SEEK_SET);
			fputc(0x5a, f);
			fclose(f);
			ipp_map_cache_stats_reset();
			CU_ASSERT_EQUAL_FATAL(ipp_map_read_span_cached(both, &spans[1], "two", dir,
								       &m, err, sizeof(err)), 0);
			CU_ASSERT_EQUAL(m->checksum, spans[1].checksum);
			CU_ASSERT_EQUAL(m->digest, maps[1]->digest);
			CU_ASSERT_EQUAL(ipp_map_cache_stats.hits + ipp_map_cache_stats.rejected, 1);
			ipp_map_free(m);
		}
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		CU_ASSERT_EQUAL(system(cmd), 0);
	}

	ipp_map_spans_free(spans, ns);
	ipp_map_free_all(maps, n);
	free(bad);
	free(a);
	free(b);
	free(both);
	ipp_graph_free(fx.g);
}

/* ------------------------------------------------------------------ */
/* Map rejection                                                        */
/* ------------------------------------------------------------------ */

/* Reading 'text' must fail with a message containing 'needle'. */
static void expect_map_error(const char *text, size_t len, const char *needle)
{
	ipp_map **maps = (ipp_map **)1;
	size_t n = 1;
	char err[512] = "";
	int rc = ipp_map_read_buffer(text, len, "bad.map", &maps, &n, err, sizeof(err));
	CU_ASSERT_EQUAL(rc, -1);
	CU_ASSERT_PTR_NULL(maps);
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT(err[0] != '\0');
	if (!strstr(err, needle)) {
		printf("\nexpected an error containing \"%s\", got \"%s\"\n", needle, err);
		CU_FAIL("wrong error message");
	}
	if (rc == 0)
		ipp_map_free_all(maps, n);
}

static void expect_map_edit_error(const char *text, const char *from, const char *to,
				  const char *needle)
{
	char *bad = replace_once(text, from, to);
	CU_ASSERT_PTR_NOT_NULL_FATAL(bad);
	expect_map_error(bad, strlen(bad), needle);
	free(bad);
}

static void test_map_rejects(void)
{
	struct fixture fx;
	size_t len;
	char *text, from[64], to[64], needle[128];
	const char *p;
	int line, col;

	build_fixture(&fx);
	text = map_text(&fx, IPP_MODE_CONTEXT, NULL, "fig4.c", &len);

	expect_map_edit_error(text, "ipp-map: 1\n", "ipp-map: 2\n",
			      "bad.map:3:10: unsupported map version 2; this ipp reads version 1");
	expect_map_edit_error(text, "ipp-map: 1\n", "module: x.c\nipp-map: 1\n",
			      "expected 'ipp-map: 1' as the first key");

	/* An unknown kind, reported at its line and column. */
	snprintf(from, sizeof(from), "- [%d, block, ", fx.b1);
	snprintf(to, sizeof(to), "- [%d, blok, ", fx.b1);
	p = strstr(text, from);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	line_col(text, (size_t)(p - text) + strlen(from) - strlen("block, "), &line, &col);
	snprintf(needle, sizeof(needle), "bad.map:%d:%d: unknown vertex kind 'blok'", line, col);
	expect_map_edit_error(text, from, to, needle);

	/* Wrong arity. */
	snprintf(from, sizeof(from), "- [%d, block, 0, 0, 10, 3, 2]", fx.b1);
	snprintf(to, sizeof(to), "- [%d, block, 0, 0]", fx.b1);
	expect_map_edit_error(text, from, to, "expected a sequence of 7 items for a vertex, got 4");

	/* An edge to a vertex that does not exist. */
	snprintf(from, sizeof(from), "- [%d, %d, %d]", fx.e0, ipp_proc_entry(fx.g, fx.pmain),
		 fx.b1);
	snprintf(to, sizeof(to), "- [%d, %d, 9999]", fx.e0, ipp_proc_entry(fx.g, fx.pmain));
	snprintf(needle, sizeof(needle), "edge %d: vertex 9999 does not exist (the graph has "
		 "%zu vertices)", fx.e0, ipp_graph_nvertices(fx.g));
	expect_map_edit_error(text, from, to, needle);

	/* A negative id. */
	snprintf(to, sizeof(to), "- [%d, -3, %d]", fx.e0, fx.b1);
	expect_map_edit_error(text, from, to, "negative numbers are not allowed here");

	/* Ids out of order. */
	snprintf(to, sizeof(to), "- [%d, %d, %d]", fx.e0 + 5, ipp_proc_entry(fx.g, fx.pmain),
		 fx.b1);
	expect_map_edit_error(text, from, to, "records are listed in id order");

	/* One vertex line edited: the checksum no longer matches. */
	snprintf(from, sizeof(from), "- [%d, block, 0, 0, 10, 3, 2]", fx.b1);
	snprintf(to, sizeof(to), "- [%d, block, 0, 0, 11, 3, 2]", fx.b1);
	expect_map_edit_error(text, from, to, "map corrupt: checksum mismatch");

	/* A stored checksum that is not hex. */
	p = strstr(text, "checksum: \"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	memcpy(from, p, 28);
	from[28] = '\0';
	expect_map_edit_error(text, from, "checksum: \"0123456789abcdeg\"",
			      "checksum: expected 16 hex digits");

	/* Structure. */
	expect_map_edit_error(text, "module: fig4.c\n", "module: fig4.c\nmodule: b.c\n",
			      "key 'module' given twice");
	expect_map_edit_error(text, "module: fig4.c\n", "", "lacks the key 'module'");
	expect_map_edit_error(text, "module: fig4.c\n", "module: fig4.c\nmodul: b.c\n",
			      "unknown key 'modul'");
	expect_map_edit_error(text, "mode: context\n", "mode: contextual\n", "unknown mode");
	expect_map_edit_error(text, "- fig.c\n", "- fig.c\n- fig.c\n",
			      "file 'fig.c' is listed twice");
	expect_map_edit_error(text, "[entry]", "[entry, entry]", "given twice");
	expect_map_edit_error(text, "[entry]", "[entree]", "unknown flag 'entree'");
	expect_map_edit_error(text, "\n...\n", "\n", "does not end with '...'");
	expect_map_edit_error(text, "ipp-map: 1\n", "ipp-map: 1\nx-a: &a 1\nx-b: *a\n",
			      "aliases");
	snprintf(from, sizeof(from), "- [%d, call, 0, 0, 12, 7, -1, work.constprop.0, []]",
		 fx.c1);
	snprintf(to, sizeof(to), "- [%d, call, 0, 0, 12, 7, -1, nowhere, []]", fx.c1);
	expect_map_edit_error(text, from, to, "callee 'nowhere' is not a procedure");
	snprintf(to, sizeof(to), "- [%d, call, 0, 0, 12, 7, -1, work.constprop.0, [indirect]]",
		 fx.c1);
	expect_map_edit_error(text, from, to, "an indirect call has no callee");
	expect_map_edit_error(text, "limit: 18446744073709551616", "limit: 1e19",
			      "limit: expected a non-negative decimal integer, got '1e19'");
	expect_map_edit_error(text, "cut-vertices: []", "cut-vertices: [4, 3]",
			      "ids must be increasing");
	snprintf(to, sizeof(to), "cut-vertices: [%d]", ipp_proc_exit(fx.g, fx.pmain));
	expect_map_edit_error(text, "cut-vertices: []", to, "is a exit vertex");
	expect_map_edit_error(text, "cut-vertices: []", "cut-vertices: [100000]",
			      "is not a vertex");
	/* The restart vertex is part of the checksum; only some kinds restart. */
	snprintf(from, sizeof(from), "restart-vertices: [%d]", fx.c2 + 1);
	expect_map_edit_error(text, from, "restart-vertices: []", "checksum mismatch");
	snprintf(to, sizeof(to), "restart-vertices: [%d]", fx.c2);
	expect_map_edit_error(text, from, to, "is a call vertex (only block and return-site");
	/* Extension keys are ignored. */
	{
		char *ok = replace_once(text, "module: fig4.c\n",
					"module: fig4.c\nx-note: {any: [thing]}\n");
		ipp_map **maps;
		size_t n;
		char err[512];
		CU_ASSERT_EQUAL(ipp_map_read_buffer(ok, strlen(ok), "x.map", &maps, &n, err,
						    sizeof(err)), 0);
		ipp_map_free_all(maps, n);
		free(ok);
	}

	/* Garbage. */
	expect_map_error("", 0, "bad.map: no map document (the input is empty)");
	expect_map_error("# only a comment\n\n", 18, "no map document");
	expect_map_error("\x80garbage", 8, "bad.map: byte 0: invalid leading UTF-8 octet");
	expect_map_error("ipp-map: [1, 2\n", 15,
			 "bad.map:2:1: YAML syntax error: did not find expected");
	expect_map_error("{{{{", 4, "bad.map:1:2: expected a key, got a mapping");
	expect_map_error("- - -\n", 6, "expected a mapping starting with 'ipp-map: 1'");
	expect_map_error("just words\n", 11, "got 'just words'");
	expect_map_error("ipp-map: [1]\n...\n", 17, "map version: expected an integer, got a list");
	expect_map_error("ipp-map: 1\n...\n", 15, "lacks the key");
	expect_map_error(text, len - 4, "does not end with '...'");

	free(text);
	ipp_graph_free(fx.g);
}

/* The derived facts are checked against the renumbering by ipp_map_fin. */
static void test_map_fin_checks(void)
{
	struct fixture fx;
	size_t len, n;
	char *text, *bad, err[512], from[64];
	const char *p;
	ipp_map **maps;
	ipp_fin *f;

	build_fixture(&fx);
	text = map_text(&fx, IPP_MODE_CONTEXT, NULL, "fig4.c", &len);
	p = strstr(text, "digest: \"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	memcpy(from, p, 26);
	from[26] = '\0';
	bad = replace_once(text, from, "digest: \"0000000000000000\"");
	CU_ASSERT_EQUAL_FATAL(ipp_map_read_buffer(bad, strlen(bad), "d.map", &maps, &n, err,
						  sizeof(err)), 0);
	f = ipp_map_fin(maps[0], err, sizeof(err));
	CU_ASSERT_PTR_NULL(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "digest"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "d.map:1: map of fig4.c"));
	ipp_map_free_all(maps, n);
	free(bad);

	p = strstr(text, "back-edges: [");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	memcpy(from, p, (size_t)(strchr(p, '\n') - p));
	from[strchr(p, '\n') - p] = '\0';
	bad = replace_once(text, from, "back-edges: []");
	CU_ASSERT_EQUAL_FATAL(ipp_map_read_buffer(bad, strlen(bad), "b.map", &maps, &n, err,
						  sizeof(err)), 0);
	f = ipp_map_fin(maps[0], err, sizeof(err));
	CU_ASSERT_PTR_NULL(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "back edge"));
	ipp_map_free_all(maps, n);
	free(bad);
	free(text);
	ipp_graph_free(fx.g);
}

/* The optional 'callees' key: the names of the direct callees that are
 * not procedures of the map (c2, external; not c1 or c5, which name the
 * procedures work and null), by increasing call vertex, the source name
 * null when it is the assembler name.
 * The names are in the checksum; a map without them has no key and the
 * checksum of the same graph built without names, and reads with every
 * callee but the procedures unnamed. */
static void test_map_callees(void)
{
	struct fixture fx, plain;
	size_t len, plen, n;
	char *text, *ptext, *bad, block[160], from[96], to[96], err[512];
	ipp_map **maps;
	uint64_t sum, psum;

	build_fixture(&fx);
	build_fixture_names(&plain, false);
	text = map_text(&fx, IPP_MODE_CONTEXT, NULL, "fig4.c", &len);
	ptext = map_text(&plain, IPP_MODE_CONTEXT, NULL, "fig4.c", &plen);
	snprintf(block, sizeof(block), "cut-calls: []\ncallees:\n- [%d, ext.part.0, ext]\n"
		 "back-edges: [", fx.c2);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, block));
	CU_ASSERT_PTR_NULL(strstr(ptext, "callees"));
	CU_ASSERT_PTR_NOT_NULL(strstr(ptext, "cut-calls: []\nback-edges: ["));
	sum = ipp_map_checksum(fx.g, IPP_MODE_CONTEXT, NULL, "fig4.c");
	psum = ipp_map_checksum(plain.g, IPP_MODE_CONTEXT, NULL, "fig4.c");
	CU_ASSERT_NOT_EQUAL(sum, psum);

	/* without the key: no names but the procedures' */
	CU_ASSERT_EQUAL_FATAL(ipp_map_read_buffer(ptext, plen, "p.map", &maps, &n, err,
						  sizeof(err)), 0);
	CU_ASSERT_EQUAL(maps[0]->checksum, psum);
	CU_ASSERT_PTR_NULL(ipp_call_target_asm(maps[0]->graph, fx.c2));
	CU_ASSERT_STRING_EQUAL(ipp_call_target_asm(maps[0]->graph, fx.c5), "null");
	CU_ASSERT_STRING_EQUAL(ipp_call_target_name(maps[0]->graph, fx.c1), "work");
	ipp_map_free_all(maps, n);

	/* the names are in the checksum */
	snprintf(from, sizeof(from), "- [%d, ext.part.0, ext]\n", fx.c2);
	snprintf(to, sizeof(to), "- [%d, ext.part.0, exit]\n", fx.c2);
	expect_map_edit_error(text, from, to, "map corrupt: checksum mismatch");
	expect_map_edit_error(text, from, "", "map corrupt: checksum mismatch");
	/* a record for a vertex that is not a direct call without a callee */
	snprintf(to, sizeof(to), "- [%d, ext.part.0, ext]\n", fx.c3);
	expect_map_edit_error(text, from, to, "callees: vertex");
	bad = replace_once(text, from, to);
	CU_ASSERT_PTR_NOT_NULL_FATAL(bad);
	snprintf(block, sizeof(block), "callees: vertex %d is an indirect call", fx.c3);
	expect_map_error(bad, strlen(bad), block);
	free(bad);
	snprintf(to, sizeof(to), "- [%d, ext.part.0, ext]\n", fx.c1);
	snprintf(block, sizeof(block), "callees: vertex %d calls a procedure of the map", fx.c1);
	expect_map_edit_error(text, from, to, block);
	snprintf(to, sizeof(to), "- [%d, ext.part.0, ext]\n", fx.b1);
	snprintf(block, sizeof(block), "callees: vertex %d is not a call vertex", fx.b1);
	expect_map_edit_error(text, from, to, block);
	expect_map_edit_error(text, from, "- [100000, ext.part.0, ext]\n",
			      "callees: vertex 100000 does not exist");
	/* order, arity, empty names */
	snprintf(to, sizeof(to), "- [%d, ext.part.0, ext]\n- [%d, \"null\", null]\n", fx.c2,
		 fx.c2);
	snprintf(block, sizeof(block), "callees must be listed by increasing call vertex (%d "
		 "after %d)", fx.c2, fx.c2);
	expect_map_edit_error(text, from, to, block);
	snprintf(to, sizeof(to), "- [%d, ext.part.0]\n", fx.c2);
	expect_map_edit_error(text, from, to, "expected a sequence of 3 items for a callee, got 2");
	snprintf(to, sizeof(to), "- [%d, \"\", ext]\n", fx.c2);
	expect_map_edit_error(text, from, to, "callee assembler name: must not be empty");
	snprintf(to, sizeof(to), "- [%d, ext.part.0, \"\"]\n", fx.c2);
	expect_map_edit_error(text, from, to, "callee name: must not be empty");
	expect_map_edit_error(text, "callees:\n", "callees:\ncallees:\n", "given twice");

	free(text);
	free(ptext);
	ipp_graph_free(fx.g);
	ipp_graph_free(plain.g);
}

/* ipp_graph_check: only direct calls name a callee, and a call that enters
 * a procedure names that procedure. */
static void test_graph_check_callees(void)
{
	struct fixture fx;
	char err[256] = "", want[128];

	build_fixture(&fx);
	CU_ASSERT_EQUAL(ipp_graph_check(fx.g, err, sizeof(err)), 0);
	ipp_set_call_target(fx.g, fx.c1, "work.constprop.0", NULL);	/* source name "work" */
	CU_ASSERT_EQUAL(ipp_graph_check(fx.g, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "call vertex %d calls procedure work.constprop.0 (work) but "
		 "names its callee work.constprop.0 (work.constprop.0)", fx.c1);
	CU_ASSERT_STRING_EQUAL(err, want);
	ipp_set_call_target(fx.g, fx.c1, "work.constprop.0", "work");
	ipp_set_call_target(fx.g, fx.c3, "f", NULL);
	CU_ASSERT_EQUAL(ipp_graph_check(fx.g, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "call vertex %d is indirect but names its callee f", fx.c3);
	CU_ASSERT_STRING_EQUAL(err, want);
	ipp_graph_free(fx.g);

	build_fixture(&fx);
	ipp_set_call_target(fx.g, fx.b1, "f", NULL);
	CU_ASSERT_EQUAL(ipp_graph_check(fx.g, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "block vertex %d names a callee", fx.b1);
	CU_ASSERT_STRING_EQUAL(err, want);
	ipp_graph_free(fx.g);
}

/* ipp_graph_check: no two procedures share an assembler name, wherever
 * they stand in the list (the check sorts the names). */
static void test_graph_check_names(void)
{
	static const char *names[] = { "m", "b", "z", "a", "y" };
	char err[256] = "";
	ipp_graph *g = ipp_graph_new();
	ipp_id dup;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		ipp_id p = ipp_add_proc(g, names[i], names[i], 0);
		ipp_add_edge(g, ipp_proc_entry(g, p), ipp_proc_exit(g, p));
	}
	CU_ASSERT_EQUAL(ipp_graph_check(g, err, sizeof(err)), 0);
	dup = ipp_add_proc(g, "b2", "b", 0);
	ipp_add_edge(g, ipp_proc_entry(g, dup), ipp_proc_exit(g, dup));
	CU_ASSERT_EQUAL(ipp_graph_check(g, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "two procedures named b");
	ipp_graph_free(g);
}

/* main with one inlined copy of power (docs/NUMBERING.md section 8): the
 * copy's Entry -> block -> Exit, main's Entry -> c, c+1 -> Exit.  *q is
 * the copy's procedure. */
static ipp_graph *inlined_graph(ipp_id *q)
{
	ipp_graph *g = ipp_graph_new();
	ipp_id m = ipp_add_proc(g, "main", "main", IPP_PROC_ENTRY);
	ipp_id b, c;
	*q = ipp_add_proc(g, "power", "main/power:1", IPP_PROC_INLINED);
	b = ipp_add_block(g, *q);
	ipp_add_edge(g, ipp_proc_entry(g, *q), b);
	ipp_add_edge(g, b, ipp_proc_exit(g, *q));
	c = ipp_add_call(g, m, *q, IPP_CALL_INLINED);
	ipp_add_edge(g, ipp_proc_entry(g, m), c);
	ipp_add_edge(g, c + 1, ipp_proc_exit(g, m));
	return g;
}

/* Another call in main (procedure 0) to q, from main's Entry to its Exit. */
static ipp_id add_wired_call(ipp_graph *g, ipp_id q, unsigned flags)
{
	ipp_id c = ipp_add_call(g, 0, q, flags);
	ipp_add_edge(g, ipp_proc_entry(g, 0), c);
	ipp_add_edge(g, c + 1, ipp_proc_exit(g, 0));
	return c;
}

/* ipp_graph_check on inlined copies: one inlined call site each, entered
 * by inlined calls only; a flattened copy (inlined and skipped) has none. */
static void test_graph_check_inlined(void)
{
	char err[256] = "", want[160];
	ipp_id q, c;
	ipp_graph *g = inlined_graph(&q);

	CU_ASSERT_EQUAL(ipp_graph_check(g, err, sizeof(err)), 0);
	c = ipp_proc_inline_site(g, q);
	CU_ASSERT_EQUAL(ipp_vertex_proc(g, c), 0);
	CU_ASSERT_EQUAL(ipp_call_callee(g, c), q);
	CU_ASSERT_EQUAL(ipp_call_flags(g, c), IPP_CALL_INLINED);
	CU_ASSERT_EQUAL(ipp_proc_inline_site(g, 0), IPP_NONE);
	c = add_wired_call(g, q, IPP_CALL_INLINED);
	CU_ASSERT_EQUAL(ipp_graph_check(g, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "inlined procedure main/power:1 has 2 call sites, not one");
	ipp_graph_free(g);

	g = inlined_graph(&q);
	c = add_wired_call(g, q, 0);
	CU_ASSERT_EQUAL(ipp_graph_check(g, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "call vertex %d: enters an inlined procedure but is not an "
		 "inlined call", (int)c);
	CU_ASSERT_STRING_EQUAL(err, want);
	ipp_graph_free(g);

	g = ipp_graph_new();
	ipp_add_proc(g, "main", "main", IPP_PROC_ENTRY);
	q = ipp_add_proc(g, "power", "main/power:1", IPP_PROC_INLINED | IPP_PROC_SKIPPED);
	ipp_add_edge(g, ipp_proc_entry(g, 0), ipp_proc_exit(g, 0));
	CU_ASSERT_EQUAL(ipp_graph_check(g, err, sizeof(err)), 0);
	c = add_wired_call(g, q, IPP_CALL_INLINED);
	CU_ASSERT_EQUAL(ipp_graph_check(g, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "inlined procedure main/power:1 is skipped but has a call site");
	ipp_graph_free(g);
}

/* ipp_proc_origins: which procedure counts for an inlined copy's
 * function -- the function's own procedure if instrumented, else its first
 * kept copy; a flattened copy goes with its function, other procedures
 * stand for themselves (nested copies are named by their last part). */
static void test_proc_origins(void)
{
	ipp_graph *g = ipp_graph_new();
	ipp_id o[9];
	ipp_id m = ipp_add_proc(g, "main", "main", IPP_PROC_ENTRY);
	ipp_id c1 = ipp_add_proc(g, "h", "main/h:1", IPP_PROC_INLINED);	/* h has no body */
	ipp_id f1 = ipp_add_proc(g, "f", "main/h:1/f:1", IPP_PROC_INLINED);
	ipp_id f = ipp_add_proc(g, "f", "f", 0);
	ipp_id c2 = ipp_add_proc(g, "h", "main/h:2", IPP_PROC_INLINED);
	ipp_id c3 = ipp_add_proc(g, "h", "main/h:3", IPP_PROC_INLINED | IPP_PROC_SKIPPED);
	ipp_id s = ipp_add_proc(g, "s", "s", IPP_PROC_SKIPPED);	/* not instrumented */
	ipp_id s1 = ipp_add_proc(g, "s", "main/s:1", IPP_PROC_INLINED);
	ipp_id fx = ipp_add_proc(g, "fx", "fx", 0);	/* f's name is not its prefix */

	ipp_proc_origins(g, o);
	CU_ASSERT_EQUAL(o[m], m);
	CU_ASSERT_EQUAL(o[c1], c1);
	CU_ASSERT_EQUAL(o[c2], c1);
	CU_ASSERT_EQUAL(o[c3], c1);
	CU_ASSERT_EQUAL(o[f1], f);
	CU_ASSERT_EQUAL(o[f], f);
	CU_ASSERT_EQUAL(o[s], s);
	CU_ASSERT_EQUAL(o[s1], s1);
	CU_ASSERT_EQUAL(o[fx], fx);
	ipp_graph_free(g);
}

/* A body of power (Figure 4's loop): Entry -> 20 -> 23 -> {24, Exit},
 * 24 -> 23 (the back edge), each block at its line of fig4.c.  'swap'
 * lists 23's successors the other way round (other numbers); 'fold'
 * leaves the loop out (a copy whose branch GCC folded). */
static void power_body(ipp_graph *g, ipp_id p, bool swap, bool fold)
{
	ipp_id b20 = ipp_add_block(g, p), b23 = ipp_add_block(g, p), b24;

	ipp_set_loc(g, b20, "fig4.c", 20, 3);
	ipp_set_loc(g, b23, "fig4.c", 23, 3);
	ipp_add_edge(g, ipp_proc_entry(g, p), b20);
	ipp_add_edge(g, b20, b23);
	if (fold) {
		ipp_add_edge(g, b23, ipp_proc_exit(g, p));
		return;
	}
	b24 = ipp_add_block(g, p);
	ipp_set_loc(g, b24, "fig4.c", 24, 5);
	if (swap)
		ipp_add_edge(g, b23, ipp_proc_exit(g, p));
	ipp_add_edge(g, b23, b24);
	if (!swap)
		ipp_add_edge(g, b23, ipp_proc_exit(g, p));
	ipp_add_edge(g, b24, b23);
}

/* ipp_fin_region_twins in intra mode: a copy whose walk pairs every vertex
 * and edge with its function's body counts as that body's region; a copy
 * with a folded branch, or with its successors in another order (its path
 * 1 would be another source path), stays apart; without an out-of-line
 * body, the copies fold into the first copy of the same numbering.  The
 * test checks each twin's claim by decoding: path n of a region and of
 * its twin read the same lines. */
static void test_region_twins(void)
{
	for (int outofline = 1; outofline >= 0; outofline--) {
		ipp_graph *g = ipp_graph_new();
		char err[256] = "";
		ipp_id m = ipp_add_proc(g, "main", "main", IPP_PROC_ENTRY), pw = IPP_NONE;
		ipp_id cp[4], last;
		static const char *const names[4] = { "main/power:1", "main/power:2",
						       "main/power:3", "main/power:4" };

		if (outofline) {
			pw = ipp_add_proc(g, "power", "power", IPP_PROC_ENTRY);
			power_body(g, pw, false, false);
		}
		for (int k = 0; k < 4; k++) {
			cp[k] = ipp_add_proc(g, "power", names[k], IPP_PROC_INLINED);
			power_body(g, cp[k], k == 2, k == 3);
		}
		last = ipp_proc_entry(g, m);
		for (int k = 0; k < 4; k++) {
			ipp_id c = ipp_add_call(g, m, cp[k], IPP_CALL_INLINED);
			ipp_set_loc(g, c, "fig4.c", 36 + k, 9);
			ipp_add_edge(g, last, c);
			last = c + 1;
		}
		ipp_add_edge(g, last, ipp_proc_exit(g, m));
		CU_ASSERT_EQUAL_FATAL(ipp_graph_check(g, err, sizeof(err)), 0);

		ipp_fin *f = ipp_fin_new(g, IPP_MODE_INTRA, NULL, err, sizeof(err));
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		size_t nr = ipp_fin_nregions(f);
		ipp_id tw[8], rm = ipp_fin_region_find(f, "main"), rc[4];
		CU_ASSERT_EQUAL_FATAL(nr, 5u + (size_t)outofline);
		for (int k = 0; k < 4; k++)
			rc[k] = ipp_fin_region_find(f, names[k]);
		ipp_fin_region_twins(f, tw);
		ipp_id rp = outofline ? ipp_fin_region_find(f, "power") : rc[0];
		CU_ASSERT_EQUAL(tw[rm], rm);
		CU_ASSERT_EQUAL(tw[rp], rp);
		CU_ASSERT_EQUAL(tw[rc[0]], rp);
		CU_ASSERT_EQUAL(tw[rc[1]], rp);
		CU_ASSERT_EQUAL(tw[rc[2]], rc[2]);	/* swapped: other numbers */
		CU_ASSERT_EQUAL(tw[rc[3]], rc[3]);	/* folded: fewer paths */

		/* the claim, by decoding: each of copy 2's four paths reads as
		 * the same number of its twin, line for line; none of the
		 * swapped copy's does */
		for (int k = 1; k <= 2; k++) {
			mpz_t tot, n;
			size_t differ = 0;
			mpz_inits(tot, n, NULL);
			ipp_fin_region_total(f, rc[k], tot);
			CU_ASSERT_EQUAL(mpz_get_ui(tot), 4u);
			for (mpz_set_ui(n, 0); mpz_cmp(n, tot) < 0; mpz_add_ui(n, n, 1)) {
				ipp_path a, b;
				ipp_path_init(&a);
				ipp_path_init(&b);
				CU_ASSERT_EQUAL(ipp_decode(f, rc[k], n, &a, err, sizeof(err)), 0);
				CU_ASSERT_EQUAL(ipp_decode(f, rp, n, &b, err, sizeof(err)), 0);
				bool same = a.nedges == b.nedges;
				for (size_t i = 0; same && i < a.nedges; i++) {
					ipp_id va = ipp_fin_edst(f, a.edges[i]);
					ipp_id vb = ipp_fin_edst(f, b.edges[i]);
					ipp_id oa = ipp_fin_vorigin(f, va), ob = ipp_fin_vorigin(f, vb);
					same = ipp_fin_ekind(f, a.edges[i]) == ipp_fin_ekind(f, b.edges[i]) &&
					       (oa == IPP_NONE ? ob == IPP_NONE :
						ob != IPP_NONE &&
						ipp_vertex_line(g, oa) == ipp_vertex_line(g, ob));
				}
				differ += !same;
				ipp_path_free(&a);
				ipp_path_free(&b);
			}
			/* every path passes 23, whose two edges (to 24, psi 1; to
			 * Exit, psi 1) add 0 and 1: swapped, each number moves by one */
			CU_ASSERT_EQUAL(differ, k == 1 ? 0u : 4u);
			mpz_clears(tot, n, NULL);
		}
		ipp_fin_free(f);
		ipp_graph_free(g);
	}
}

/* Every prefix of a map is rejected (or, at the very end, read unchanged). */
static void test_map_truncation(void)
{
	struct fixture fx;
	size_t len, accepted = 0, bad = 0;
	char *text;
	uint64_t checksum;

	build_fixture(&fx);
	text = map_text(&fx, IPP_MODE_PIECEWISE, NULL, "fig4.c", &len);
	checksum = ipp_map_checksum(fx.g, IPP_MODE_PIECEWISE, NULL, "fig4.c");
	for (size_t k = 0; k < len; k++) {
		ipp_map **maps;
		size_t n;
		char err[512] = "";
		char *copy = malloc(k ? k : 1);	/* exactly k bytes: valgrind sees overreads */
		memcpy(copy, text, k);
		if (ipp_map_read_buffer(copy, k, "cut.map", &maps, &n, err, sizeof(err)) == 0) {
			accepted++;
			bad += k < len - 1 || n != 1 || maps[0]->checksum != checksum ||
			       ipp_graph_nvertices(maps[0]->graph) != ipp_graph_nvertices(fx.g);
			ipp_map_free_all(maps, n);
		} else {
			bad += err[0] == '\0' || strncmp(err, "cut.map", 7) != 0;
		}
		free(copy);
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(accepted <= 1);	/* only "..." without its newline */
	free(text);
	ipp_graph_free(fx.g);
}

/* ------------------------------------------------------------------ */
/* Profiles                                                             */
/* ------------------------------------------------------------------ */

/* The text form (version 1: what `ipp profile` prints, which ipp reads
 * back); the binary file is tested by test_profile_binary. */
static char *profile_text(const ipp_profile *p, size_t *len)
{
	char *buf = NULL, err[256] = "";
	FILE *f = open_memstream(&buf, len);
	CU_ASSERT_EQUAL(ipp_profile_write_text(f, p, err, sizeof(err)), 0);
	fclose(f);
	return buf;
}

/* The binary file (runtime/ipp_profile.h), 8-byte aligned. */
static char *profile_binary(const ipp_profile *p, size_t *len)
{
	char *buf = NULL, *out, err[256] = "";
	FILE *f = open_memstream(&buf, len);
	CU_ASSERT_EQUAL(ipp_profile_write(f, p, err, sizeof(err)), 0);
	fclose(f);
	out = aligned_alloc(8, (*len + 8) & ~(size_t)7);
	memcpy(out, buf, *len);
	free(buf);
	return out;
}

/* Does n hold the number x, in its representation (ipp_pnum: 64 bits
 * inline, a GMP integer from 2^64 on)? */
static bool pnum_is(const ipp_pnum *n, const mpz_t x)
{
	uint64_t u;
	if (ipp_mpz_get_u64(x, &u))
		return n->big == NULL && n->u == u;
	return n->big != NULL && mpz_cmp(n->big, x) == 0;
}

static const ipp_prof_path *find_path(const ipp_prof_module *m, const char *region,
				      const char *num)
{
	mpz_t x;
	const ipp_prof_path *found = NULL;
	mpz_init_set_str(x, num, 10);
	for (size_t i = 0; i < m->npaths; i++)
		if (strcmp(m->regions[m->paths[i].region], region) == 0 &&
		    pnum_is(&m->paths[i].num, x))
			found = &m->paths[i];
	mpz_clear(x);
	return found;
}

static void test_profile_round_trip(void)
{
	ipp_profile *p = ipp_profile_new(), *q;
	ipp_prof_module *m, *m2;
	const ipp_prof_path *r;
	ipp_id stack[] = { 5, 7 };
	mpz_t big, x;
	char *text, err[512] = "";
	size_t len;

	mpz_init(big);
	mpz_ui_pow_ui(big, 2, 100);
	mpz_add_ui(big, big, 3);	/* 2^100 + 3 */
	mpz_init_set_ui(x, 16);
	m = ipp_profile_add_module(p, "fig4.c", UINT64_C(0x0123456789abcdef), IPP_MODE_CONTEXT);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_PTR_NULL(ipp_profile_add_module(p, "fig4.c", UINT64_C(0x0123456789abcdef),
						  IPP_MODE_CONTEXT));
	m->runs = 1;
	ipp_prof_add_path(m, "main", x, 1);
	ipp_prof_add_path(m, "power", big, UINT64_MAX);
	ipp_prof_add_path(m, "null", x, 2);	/* a name YAML would read as null */
	mpz_set_ui(x, 12);
	ipp_prof_add_partial(m, "main", x, stack, 2, 4);
	ipp_prof_add_partial(m, "main", x, stack, 1, 3);	/* another stack: another record */
	/* forked prefixes: a list of their own, written after partial (the
	 * same key twice adds: 1 + 1 = 2) */
	ipp_prof_add_forked(m, "main", x, stack, 2, 1);
	ipp_prof_add_forked(m, "main", x, stack, 2, 1);
	/* indirect calls: the same key twice adds (4 + 3 = 7); written by
	 * site, then callee module (fig4.c < "other dir/b.c" in strcmp) */
	ipp_prof_add_icall(m, 32, "fig4.c", UINT64_C(0x0123456789abcdef), "add", 4);
	ipp_prof_add_icall(m, 32, "other dir/b.c", 42, "null", 2);
	ipp_prof_add_icall(m, 7, "fig4.c", UINT64_C(0x0123456789abcdef), "mul", 1);
	ipp_prof_add_icall(m, 32, "fig4.c", UINT64_C(0x0123456789abcdef), "add", 3);
	CU_ASSERT_EQUAL(m->nicalls, 3);
	m2 = ipp_profile_add_module(p, "other dir/b.c", 42, IPP_MODE_INTRA);
	m2->runs = 3;

	text = profile_text(p, &len);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "  partial:\n  - [main, 12, [5], 3]\n"
				      "  - [main, 12, [5, 7], 4]\n"
				      "  forked:\n  - [main, 12, [5, 7], 2]\n"
				      "  indirect-calls:\n"
				      "  - [7, fig4.c, \"0123456789abcdef\", mul, 1]\n"
				      "  - [32, fig4.c, \"0123456789abcdef\", add, 7]\n"
				      "  - [32, \"other dir/b.c\", \"000000000000002a\", \"null\", 2]\n"
				      "- module: \"other dir/b.c\"\n"));
	/* a module without indirect calls has no key at all */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "  runs: 3\n  paths: []\n  partial: []\ndigest: \""));
	/* the digest line, last before '...', and what it guards: one count
	 * changed from 4 to 5 (same length) is refused */
	{
		char *d = strstr(text, "\ndigest: \""), *e = strstr(text, "[5, 7], 4]");
		ipp_profile *bad;
		CU_ASSERT_PTR_NOT_NULL_FATAL(d);
		CU_ASSERT_PTR_NOT_NULL_FATAL(e);
		CU_ASSERT(strlen(d) == strlen("\ndigest: \"0123456789abcdef\"\n...\n"));
		e[8] = '5';
		bad = ipp_profile_read_buffer(text, len, "ipp.prof", err, sizeof(err));
		CU_ASSERT_PTR_NULL(bad);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "profile digest mismatch: the file says"));
		e[8] = '4';
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "  - [main, 16, 1]\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "  - [main, 12, [5, 7], 4]\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "[power, 1267650600228229401496703205379, "
				      "18446744073709551615]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "checksum: \"0123456789abcdef\""));
	q = ipp_profile_read_buffer(text, len, "ipp.prof", err, sizeof(err));
	if (!q)
		printf("\nprofile read: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(q);
	CU_ASSERT_EQUAL_FATAL(q->nmodules, 2);
	m = ipp_profile_find(q, "fig4.c", UINT64_C(0x0123456789abcdef));
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(m->mode, IPP_MODE_CONTEXT);
	CU_ASSERT_EQUAL(m->runs, 1);
	CU_ASSERT_EQUAL(m->npaths, 3);
	CU_ASSERT_EQUAL(m->npartials, 2);
	CU_ASSERT_EQUAL_FATAL(m->nforked, 1);
	CU_ASSERT_EQUAL(m->forked[0].nstack, 2);
	CU_ASSERT_EQUAL(m->forked[0].count, 2);
	r = find_path(m, "power", "1267650600228229401496703205379");
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT(pnum_is(&r->num, big));
	CU_ASSERT_EQUAL(r->count, UINT64_MAX);
	r = find_path(m, "null", "16");
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->count, 2);
	for (size_t i = 0; i < m->npartials; i++) {
		const ipp_prof_partial *pp = &m->partials[i];
		CU_ASSERT_STRING_EQUAL(m->regions[pp->region], "main");
		CU_ASSERT(pp->num.big == NULL && pp->num.u == 12);
		CU_ASSERT_EQUAL(pp->stack[0], 5);
		if (pp->nstack == 2) {
			CU_ASSERT_EQUAL(pp->stack[1], 7);
			CU_ASSERT_EQUAL(pp->count, 4);
		} else {
			CU_ASSERT_EQUAL(pp->nstack, 1);
			CU_ASSERT_EQUAL(pp->count, 3);
		}
	}
	CU_ASSERT_EQUAL_FATAL(m->nicalls, 3);
	for (size_t i = 0; i < m->nicalls; i++) {
		const ipp_prof_icall *c = &m->icalls[i];
		if (c->site == 7) {
			CU_ASSERT(strcmp(c->callee_region, "mul") == 0 && c->count == 1);
		} else if (strcmp(c->callee_module, "fig4.c") == 0) {
			CU_ASSERT(c->site == 32 && strcmp(c->callee_region, "add") == 0 &&
				  c->callee_checksum == UINT64_C(0x0123456789abcdef) &&
				  c->count == 7);
		} else {
			CU_ASSERT(c->site == 32 && strcmp(c->callee_module, "other dir/b.c") == 0 &&
				  c->callee_checksum == 42 &&
				  strcmp(c->callee_region, "null") == 0 && c->count == 2);
		}
	}
	m2 = ipp_profile_find(q, "other dir/b.c", 42);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m2);
	CU_ASSERT_EQUAL(m2->mode, IPP_MODE_INTRA);
	CU_ASSERT_EQUAL(m2->runs, 3);
	CU_ASSERT_EQUAL(m2->npaths + m2->npartials + m2->nicalls, 0);
	/* Writing what was read gives the same text (canonical order). */
	{
		size_t len2;
		char *text2 = profile_text(q, &len2);
		CU_ASSERT_EQUAL(len2, len);
		CU_ASSERT_STRING_EQUAL(text2, text);
		free(text2);
	}
	ipp_profile_free(q);
	free(text);
	ipp_profile_free(p);
	mpz_clears(big, x, NULL);
}

/* The layout the runtime writes by hand reads as expected. */
static void test_profile_hand_written(void)
{
	static const char text[] =
		"ipp-profile: 1\n"
		"modules:\n"
		"- module: \"fig4.c\"\n"
		"  checksum: \"0123456789ABCDEF\"\n"
		"  mode: context\n"
		"  runs: 2\n"
		"  paths:\n"
		"  - [main, 16, 1]\n"
		"  - [main, 34, 5]\n"
		"  partial:\n"
		"  - [main, 12, [5, 7], 1]\n"
		"  indirect-calls:\n"
		"  - [13, \"fig4.c\", \"0123456789ABCDEF\", main, 3]\n"
		"  - [13, b.c, 0000000000000001, f, 18446744073709551615]\n"
		"- module: old.c\n"	/* a profile from before indirect calls */
		"  checksum: \"0000000000000002\"\n"
		"  mode: context\n"
		"  runs: 1\n"
		"  paths: []\n"
		"  partial: []\n"
		"...\n";
	char err[512] = "";
	ipp_profile *p = ipp_profile_read_buffer(text, strlen(text), "hand.prof", err,
						 sizeof(err));
	ipp_prof_module *m;
	if (!p)
		printf("\nhand-written: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	m = ipp_profile_find(p, "fig4.c", UINT64_C(0x0123456789abcdef));
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(m->runs, 2);
	CU_ASSERT_EQUAL(m->npaths, 2);
	CU_ASSERT_EQUAL(find_path(m, "main", "34")->count, 5);
	CU_ASSERT_EQUAL(m->npartials, 1);
	CU_ASSERT_EQUAL_FATAL(m->nicalls, 2);
	CU_ASSERT_EQUAL(m->icalls[0].site, 13);
	CU_ASSERT_STRING_EQUAL(m->icalls[0].callee_module, "fig4.c");
	CU_ASSERT_EQUAL(m->icalls[0].callee_checksum, UINT64_C(0x0123456789abcdef));
	CU_ASSERT_STRING_EQUAL(m->icalls[0].callee_region, "main");
	CU_ASSERT_EQUAL(m->icalls[0].count, 3);
	CU_ASSERT_EQUAL(m->icalls[1].callee_checksum, 1);
	CU_ASSERT_EQUAL(m->icalls[1].count, UINT64_MAX);
	m = ipp_profile_find(p, "old.c", 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(m->nicalls, 0);
	ipp_profile_free(p);
}

static int mem_sink(void *ctx, const void *p, size_t n)
{
	return fwrite(p, 1, n, ctx) == n ? 0 : 5;
}

static const char *repeat_name(void *ctx, uint32_t i)
{
	static const char *const names[] = { "r.c", "main", "f" };
	(void)ctx;
	return names[i];
}

/* Keys may repeat in a binary profile (docs/FORMAT.md 3.1: the runtime
 * writes its tables as they are), in one group or in two groups of the
 * same region; the reader adds them up, saturating, into the record of
 * their first occurrence.  Written here: main (5, 10) (3, 1) (5, 2^64 - 5);
 * f (5, 7); main (3, 2) (9, 1).  Read: main 5 -> 2^64 - 1, main 3 -> 3,
 * f 5 -> 7, main 9 -> 1, in that order. */
static void test_profile_repeated_keys(void)
{
	static const struct { uint32_t name; uint64_t n; } groups[] = { { 1, 3 }, { 2, 1 },
									 { 1, 2 } };
	static const struct ipp_pf_path paths[] = { { 5, 10 }, { 3, 1 }, { 5, UINT64_MAX - 4 },
						    { 5, 7 }, { 3, 2 }, { 9, 1 } };
	static const struct { const char *region; uint64_t num, count; } want[] = {
		{ "main", 5, UINT64_MAX }, { "main", 3, 3 }, { "f", 5, 7 }, { "main", 9, 1 } };
	struct ipp_pf_out *o = malloc(sizeof(*o));
	struct ipp_pf_module h;
	char *buf = NULL, err[512] = "";
	size_t len = 0, k = 0;
	FILE *f = open_memstream(&buf, &len);
	ipp_profile *p;
	ipp_prof_module *m;

	CU_ASSERT_FATAL(o != NULL && f != NULL);
	memset(&h, 0, sizeof(h));
	h.checksum = 77;
	h.runs = 2;
	h.mode = 2;	/* intra */
	h.nnames = 3;
	h.names_size = ipp_pf_names_size(3, sizeof("r.c") + sizeof("main") + sizeof("f"));
	h.npgroups = 3;
	h.npaths = 6;
	h.size = ipp_pf_module_size(h.names_size, h.npgroups, h.npaths, 0, 0);
	ipp_pf_out_init(o, mem_sink, f);
	ipp_pf_put_header(o, 1, h.size);
	ipp_pf_put(o, &h, sizeof(h));
	ipp_pf_put_names(o, 3, repeat_name, NULL);
	for (size_t g = 0; g < 3; g++) {
		ipp_pf_put_pgroup(o, groups[g].name, groups[g].n);
		ipp_pf_put(o, &paths[k], groups[g].n * sizeof(paths[0]));
		k += groups[g].n;
	}
	CU_ASSERT(ipp_pf_put_digest(o) == 0);
	fclose(f);
	free(o);
	p = ipp_profile_read_buffer(buf, len, "repeat.prof", err, sizeof(err));
	if (p == NULL)
		printf("\nrepeated keys: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	m = ipp_profile_find(p, "r.c", 77);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(m->runs, 2);
	CU_ASSERT_EQUAL_FATAL(m->npaths, 4);
	for (size_t i = 0; i < 4; i++) {
		const ipp_prof_path *r = &m->paths[i];
		CU_ASSERT_STRING_EQUAL(m->regions[r->region], want[i].region);
		CU_ASSERT(r->num.big == NULL && r->num.u == want[i].num);
		CU_ASSERT_EQUAL(r->count, want[i].count);
	}
	/* adding to a record of a profile that was read finds it */
	{
		mpz_t x;
		mpz_init_set_ui(x, 9);
		CU_ASSERT_EQUAL(ipp_prof_add_path(m, "main", x, 4), 3);
		CU_ASSERT_EQUAL(m->paths[3].count, 5);
		CU_ASSERT_EQUAL(m->npaths, 4);
		mpz_clear(x);
	}
	ipp_profile_free(p);
	free(buf);
}

static void test_profile_merge(void)
{
	ipp_profile *a = ipp_profile_new(), *b = ipp_profile_new(), *c = ipp_profile_new();
	ipp_prof_module *ma, *mb, *mc;
	mpz_t x;
	char err[512] = "", h[17];
	ipp_id stack[] = { 3 };

	mpz_init_set_ui(x, 5);
	ma = ipp_profile_add_module(a, "m.c", 7, IPP_MODE_CONTEXT);
	mb = ipp_profile_add_module(b, "m.c", 7, IPP_MODE_CONTEXT);
	ma->runs = 1;
	mb->runs = 2;
	ipp_prof_add_path(ma, "main", x, 5);
	ipp_prof_add_path(mb, "main", x, 7);
	ipp_prof_add_partial(ma, "main", x, stack, 1, 1);
	ipp_prof_add_partial(mb, "main", x, stack, 1, 1);
	mpz_set_ui(x, 6);
	ipp_prof_add_path(ma, "main", x, UINT64_MAX - 1);
	ipp_prof_add_path(mb, "main", x, 7);
	ipp_prof_add_path(mb, "f", x, 9);	/* only in b */
	ipp_prof_add_icall(ma, 4, "m.c", 7, "f", 5);
	ipp_prof_add_icall(mb, 4, "m.c", 7, "f", 7);
	ipp_prof_add_icall(mb, 4, "n.c", 8, "f", 1);	/* same site and region, another unit */
	ipp_profile_add_module(b, "n.c", 8, IPP_MODE_INTRA)->runs = 1;	/* only in b */

	CU_ASSERT_EQUAL_FATAL(ipp_profile_merge(a, b, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(a->nmodules, 2);
	CU_ASSERT_EQUAL(ma->runs, 3);
	CU_ASSERT_EQUAL(ma->npaths, 3);
	CU_ASSERT_EQUAL(find_path(ma, "main", "5")->count, 12);		/* 5 + 7 */
	CU_ASSERT_EQUAL(find_path(ma, "main", "6")->count, UINT64_MAX);	/* saturated */
	CU_ASSERT_EQUAL(find_path(ma, "f", "6")->count, 9);
	CU_ASSERT_EQUAL(ma->npartials, 1);
	CU_ASSERT_EQUAL(ma->partials[0].count, 2);
	CU_ASSERT_EQUAL_FATAL(ma->nicalls, 2);
	CU_ASSERT_STRING_EQUAL(ma->icalls[0].callee_module, "m.c");
	CU_ASSERT_EQUAL(ma->icalls[0].count, 12);	/* 5 + 7 */
	CU_ASSERT_STRING_EQUAL(ma->icalls[1].callee_module, "n.c");
	CU_ASSERT_EQUAL(ma->icalls[1].count, 1);
	CU_ASSERT_PTR_NOT_NULL(ipp_profile_find(a, "n.c", 8));
	/* Merging again saturates and adds runs. */
	CU_ASSERT_EQUAL(ipp_profile_merge(a, b, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(find_path(ma, "main", "5")->count, 19);
	CU_ASSERT_EQUAL(ma->runs, 5);

	/* A different build of m.c: rejected, naming both checksums; a unchanged. */
	mc = ipp_profile_add_module(c, "m.c", 0xabc, IPP_MODE_CONTEXT);
	ipp_prof_add_path(mc, "main", x, 1);
	CU_ASSERT_EQUAL(ipp_profile_merge(a, c, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "different builds of m.c"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ipp_hex64(7, h)));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ipp_hex64(0xabc, h)));
	CU_ASSERT_EQUAL(ma->runs, 5);
	CU_ASSERT_EQUAL(find_path(ma, "main", "6")->count, UINT64_MAX);

	ipp_profile_free(a);
	ipp_profile_free(b);
	ipp_profile_free(c);
	mpz_clear(x);
}

static void expect_profile_error(const char *text, size_t len, const char *needle)
{
	char err[512] = "";
	ipp_profile *p = ipp_profile_read_buffer(text, len, "bad.prof", err, sizeof(err));
	CU_ASSERT_PTR_NULL(p);
	CU_ASSERT(err[0] != '\0');
	if (!strstr(err, needle)) {
		printf("\nexpected an error containing \"%s\", got \"%s\"\n", needle, err);
		CU_FAIL("wrong error message");
	}
	ipp_profile_free(p);
}

#define PROF_MOD "- module: fig4.c\n  checksum: \"0123456789abcdef\"\n  mode: context\n  runs: 1\n"
#define PROF_HEAD "ipp-profile: 1\nmodules:\n" PROF_MOD

static void test_profile_rejects(void)
{
	static const char *const cases[][2] = {
		{ PROF_HEAD "  paths:\n  - [main, 16, 1]\n  - [main, 16, 2]\n...\n",
		  "bad.prof:9:5: duplicate record for path 16 of region main" },
		{ PROF_HEAD "  partial:\n  - [main, 1, [2], 1]\n  - [main, 1, [2], 1]\n...\n",
		  "duplicate record for partial path 1" },
		{ PROF_HEAD "  forked:\n  - [main, 1, [2], 1]\n  - [main, 1, [2], 1]\n...\n",
		  "duplicate record for forked prefix 1" },
		{ PROF_HEAD "  forked:\n  - [main, 1, [], 1]\n...\n",
		  "stop stack: expected a non-empty list" },
		{ PROF_HEAD "  forked:\n  - [main, 1, 1]\n...\n",
		  "expected a sequence of 4 items for a forked-prefix record" },
		{ PROF_HEAD "  paths:\n  - [main, 16, 18446744073709551616]\n...\n",
		  "bad.prof:8:16: count: 18446744073709551616 does not fit in 64 bits" },
		{ PROF_HEAD "  paths:\n  - [main, 16, -1]\n...\n",
		  "count: negative numbers are not allowed here" },
		{ PROF_HEAD "  paths:\n  - [main, -16, 1]\n...\n",
		  "path number: negative numbers are not allowed here" },
		{ PROF_HEAD "  paths:\n  - [main, 16]\n...\n",
		  "expected a sequence of 3 items for a path record" },
		{ PROF_HEAD "  partial:\n  - [main, 1, [], 1]\n...\n",
		  "stop stack: expected a non-empty list" },
		{ PROF_HEAD "  partial:\n  - [main, 1, 2, 1]\n...\n",
		  "stop stack: expected a non-empty list" },
		{ PROF_HEAD "  paths:\n  - [main, 0x10, 1]\n...\n",
		  "expected a non-negative decimal integer, got '0x10'" },
		{ PROF_HEAD "  paths:\n  - [\"\", 1, 1]\n...\n", "region name: must not be empty" },
		{ PROF_HEAD "  indirect-calls:\n  - [3, a.c, \"0000000000000001\", f, 1]\n"
		  "  - [3, a.c, \"0000000000000001\", f, 2]\n...\n",
		  "bad.prof:9:5: duplicate record for the indirect call at vertex 3 to f "
		  "(module a.c)" },
		{ PROF_HEAD "  indirect-calls:\n  - [3, a.c, \"0000000000000001\", f]\n...\n",
		  "expected a sequence of 5 items for an indirect-call record" },
		{ PROF_HEAD "  indirect-calls:\n  - [-3, a.c, \"0000000000000001\", f, 1]\n...\n",
		  "call site: negative numbers are not allowed here" },
		{ PROF_HEAD "  indirect-calls:\n  - [2147483647, a.c, \"0000000000000001\", f, 1]\n"
		  "...\n", "call site" },
		{ PROF_HEAD "  indirect-calls:\n  - [3, \"\", \"0000000000000001\", f, 1]\n...\n",
		  "callee module: must not be empty" },
		{ PROF_HEAD "  indirect-calls:\n  - [3, a.c, \"0000000000000001\", \"\", 1]\n...\n",
		  "callee region: must not be empty" },
		{ PROF_HEAD "  indirect-calls:\n  - [3, a.c, \"00001\", f, 1]\n...\n",
		  "callee checksum: expected 16 hex digits" },
		{ PROF_HEAD "  indirect-calls:\n  - [3, a.c, \"0000000000000001\", f, "
		  "18446744073709551616]\n...\n", "count: 18446744073709551616 does not fit" },
		{ PROF_HEAD "  indirect-calls:\n  - [3, [a.c], \"0000000000000001\", f, 1]\n...\n",
		  "callee module" },
		{ PROF_HEAD "  paths:\n  - [main, 1, 1]\n",
		  "the document does not end with '...'" },
		{ PROF_HEAD "...\n---\nipp-profile: 1\nmodules: []\n...\n",
		  "a profile is one document" },
		{ PROF_HEAD PROF_MOD "...\n", "(checksum 0123456789abcdef) is listed twice" },
		{ "ipp-profile: 2\nmodules: []\n...\n",
		  "bad.prof:1:14: unsupported profile version 2; this ipp reads version 1" },
		{ "modules: []\nipp-profile: 1\n...\n",
		  "expected 'ipp-profile: 1' as the first key" },
		{ "ipp-profile: 1\n...\n", "profile lacks the key 'modules'" },
		{ "ipp-profile: 1\nmodules:\n- module: a.c\n  mode: intra\n  runs: 1\n...\n",
		  "lacks the key 'checksum'" },
		{ "ipp-profile: 1\nmodules:\n- module: a.c\n  checksum: 12\n  mode: intra\n"
		  "  runs: 1\n...\n", "checksum: expected 16 hex digits, got '12'" },
		{ "ipp-profile: 1\nmodules:\n- module: a.c\n  checksum: \"0000000000000000\"\n"
		  "  mode: sideways\n  runs: 1\n...\n", "unknown mode 'sideways'" },
		{ "ipp-profile: 1\nmodules:\n- module: a.c\n  checksum: \"0000000000000000\"\n"
		  "  mode: intra\n  runs: 1\n  path: []\n...\n", "unknown key 'path'" },
		{ "", "bad.prof: no profile document (the input is empty)" },
		{ "\x01\x02garbage", "bad.prof: byte" },
		{ "ipp-profile: [1, 2\n", "bad.prof:2:1: YAML syntax error" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect_profile_error(cases[i][0], strlen(cases[i][0]), cases[i][1]);
	{	/* a NUL byte inside the text */
		static const char nul[] = "ipp-profile: 1\nmodules: []\0\n...\n";
		expect_profile_error(nul, sizeof(nul) - 1, "bad.prof");
	}
	{	/* the largest count is fine */
		static const char max[] = PROF_HEAD
			"  paths:\n  - [main, 16, 18446744073709551615]\n  x-extension: 1\n...\n";
		char err[512];
		ipp_profile *p = ipp_profile_read_buffer(max, strlen(max), "max.prof", err,
							 sizeof(err));
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		CU_ASSERT_EQUAL(p->modules[0]->paths[0].count, UINT64_MAX);
		ipp_profile_free(p);
	}
}

/* The binary file: a round trip keeps every record (counts of equal keys
 * added), a number beyond 64 bits is refused by the writer, every
 * truncation and every flipped bit (the digest) is refused. */
static void test_profile_binary(void)
{
	ipp_profile *p = ipp_profile_new(), *q;
	ipp_prof_module *m = ipp_profile_add_module(p, "dir/ünï.c", 99, IPP_MODE_INTRA_CONTEXT);
	ipp_id stack[] = { 9, 4 };
	size_t len, bad = 0;
	char *bin, *t1, *t2, err[512] = "";
	FILE *f;
	mpz_t x;
	mpz_init_set_str(x, "18446744073709551614", 10);	/* 2^64 - 2 */
	m->runs = 7;
	ipp_prof_add_path(m, "main", x, 1000);
	ipp_prof_add_path(m, "main#g", x, UINT64_MAX);
	ipp_prof_add_partial(m, "main", x, stack, 2, 1);
	ipp_prof_add_forked(m, "main", x, stack, 1, 2);
	ipp_prof_add_icall(m, 9, "lib.c", 0xabc, "f", 5);
	ipp_profile_add_module(p, "empty.c", 1, IPP_MODE_CONTEXT);
	bin = profile_binary(p, &len);
	CU_ASSERT(len % 8 == 0);
	CU_ASSERT(memcmp(bin, "\211IPPROF\n", 8) == 0);
	q = ipp_profile_read_buffer(bin, len, "b.prof", err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(q);
	{
		/* the same records: compared through the text form */
		size_t l1, l2;
		t1 = profile_text(p, &l1);
		t2 = profile_text(q, &l2);
		CU_ASSERT_EQUAL(l1, l2);
		CU_ASSERT(strcmp(t1, t2) == 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(t2, "  - [main#g, 18446744073709551614, "
					      "18446744073709551615]\n"));
		CU_ASSERT_PTR_NOT_NULL(strstr(t2, "  - [9, lib.c, \"0000000000000abc\", f, 5]\n"));
		CU_ASSERT_PTR_NOT_NULL(strstr(t2, "mode: intra-context\n  runs: 7\n"));
		free(t1);
		free(t2);
	}
	ipp_profile_free(q);
	/* every truncation, every bit of the digest's input */
	for (size_t k = 0; k < len; k++) {
		q = ipp_profile_read_buffer(bin, k, "cut.prof", err, sizeof(err));
		bad += q != NULL || strncmp(err, "cut.prof: ", 10) != 0;
		ipp_profile_free(q);
	}
	for (size_t k = 0; k < len - 8; k++) {
		bin[k] ^= 0x10;
		q = ipp_profile_read_buffer(bin, len, "flip.prof", err, sizeof(err));
		bad += q != NULL || strncmp(err, "flip.prof: ", 11) != 0;
		ipp_profile_free(q);
		bin[k] ^= 0x10;
	}
	CU_ASSERT_EQUAL(bad, 0);
	/* an unaligned buffer reads as well */
	{
		char *u = malloc(len + 1);
		memcpy(u + 1, bin, len);
		q = ipp_profile_read_buffer(u + 1, len, "u.prof", err, sizeof(err));
		CU_ASSERT_PTR_NOT_NULL(q);
		ipp_profile_free(q);
		free(u);
	}
	free(bin);
	/* a number beyond 64 bits cannot be written */
	mpz_ui_pow_ui(x, 2, 64);
	ipp_prof_add_path(m, "big", x, 1);
	f = fopen("/dev/null", "w");
	CU_ASSERT_EQUAL(ipp_profile_write(f, p, err, sizeof(err)), -1);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "path number of region big does not fit in 64 bits"));
	ipp_profile_free(p);
	mpz_clear(x);
}

static void test_profile_truncation(void)
{
	ipp_profile *p = ipp_profile_new();
	ipp_prof_module *m = ipp_profile_add_module(p, "fig4.c", 99, IPP_MODE_PIECEWISE);
	ipp_id stack[] = { 9, 4 };
	size_t len, bad = 0, accepted = 0;
	char *text;
	mpz_t x;
	mpz_init_set_str(x, "123456789012345678901234567890", 10);
	m->runs = 3;
	ipp_prof_add_path(m, "main", x, 1000);
	ipp_prof_add_path(m, "main#g", x, 10);
	ipp_prof_add_partial(m, "main", x, stack, 2, 1);
	ipp_prof_add_icall(m, 9, "fig4.c", 99, "main", 5);
	text = profile_text(p, &len);
	for (size_t k = 0; k < len; k++) {
		char err[512] = "", *copy = malloc(k ? k : 1);
		ipp_profile *q;
		memcpy(copy, text, k);
		q = ipp_profile_read_buffer(copy, k, "cut.prof", err, sizeof(err));
		if (q) {
			ipp_prof_module *qm = q->nmodules == 1 ? q->modules[0] : NULL;
			const ipp_prof_path *r = qm ? find_path(qm, "main", "123456789012345678901"
								"234567890") : NULL;
			accepted++;
			bad += k < len - 1 || !qm || qm->npaths != 2 || qm->npartials != 1 ||
			       qm->runs != 3 || !r || r->count != 1000 || qm->nicalls != 1 ||
			       qm->icalls[0].count != 5;
			ipp_profile_free(q);
		} else {
			bad += err[0] == '\0' || strncmp(err, "cut.prof", 8) != 0;
		}
		free(copy);
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(accepted <= 1);
	free(text);
	ipp_profile_free(p);
	mpz_clear(x);
}

/* A profile module against the map of the build it claims to come from. */
static void test_profile_against_map(void)
{
	struct fixture fx;
	size_t len, n;
	char *text, err[512] = "", hp[17], hm[17];
	ipp_map **maps;
	ipp_fin *fin;
	ipp_profile *p = ipp_profile_new();
	ipp_prof_module *pm;
	const ipp_prof_module *found;
	ipp_region_info info;
	mpz_t total, x;
	ipp_id stack[2];

	build_fixture(&fx);
	text = map_text(&fx, IPP_MODE_CONTEXT, NULL, "fig4.c", &len);
	CU_ASSERT_EQUAL_FATAL(ipp_map_read_buffer(text, len, "prog", &maps, &n, err,
						  sizeof(err)), 0);
	fin = ipp_map_fin(maps[0], err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(fin);
	mpz_inits(total, x, NULL);
	ipp_fin_region(fin, 0, &info);
	ipp_fin_region_total(fin, 0, total);

	/* The right build: the last number of the region and a partial path. */
	pm = ipp_profile_add_module(p, "fig4.c", maps[0]->checksum, IPP_MODE_CONTEXT);
	mpz_sub_ui(x, total, 1);
	ipp_prof_add_path(pm, info.name, x, 1);
	stack[0] = fx.c1;
	stack[1] = fx.w1;
	mpz_set_ui(x, 0);
	ipp_prof_add_partial(pm, info.name, x, stack, 2, 1);
	CU_ASSERT_EQUAL(ipp_profile_match(p, "ipp.prof", maps[0], &found, err, sizeof(err)), 0);
	CU_ASSERT_PTR_EQUAL(found, pm);
	CU_ASSERT_EQUAL(ipp_profile_check(pm, "ipp.prof", maps[0], fin, err, sizeof(err)), 0);

	/* A number equal to the region total is out of range. */
	ipp_prof_add_path(pm, info.name, total, 1);
	CU_ASSERT_EQUAL(ipp_profile_check(pm, "ipp.prof", maps[0], fin, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "out of range"));
	ipp_profile_free(p);

	/* An unknown region; a stack through a vertex that is not a call. */
	p = ipp_profile_new();
	pm = ipp_profile_add_module(p, "fig4.c", maps[0]->checksum, IPP_MODE_CONTEXT);
	ipp_prof_add_path(pm, "no_such_function", x, 1);
	CU_ASSERT_EQUAL(ipp_profile_check(pm, "ipp.prof", maps[0], fin, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "region 'no_such_function' is not in the map"));
	ipp_profile_free(p);
	p = ipp_profile_new();
	pm = ipp_profile_add_module(p, "fig4.c", maps[0]->checksum, IPP_MODE_CONTEXT);
	stack[0] = fx.b1;
	ipp_prof_add_partial(pm, info.name, x, stack, 2, 1);
	CU_ASSERT_EQUAL(ipp_profile_check(pm, "ipp.prof", maps[0], fin, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "is not a call vertex"));
	stack[0] = 99999;
	ipp_profile_free(p);
	p = ipp_profile_new();
	pm = ipp_profile_add_module(p, "fig4.c", maps[0]->checksum, IPP_MODE_CONTEXT);
	ipp_prof_add_partial(pm, info.name, x, stack, 1, 1);
	CU_ASSERT_EQUAL(ipp_profile_check(pm, "ipp.prof", maps[0], fin, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "vertex 99999, which does not exist"));
	ipp_profile_free(p);

	/* Indirect calls: only at an indirect call vertex (c3); c1 calls work
	 * directly, b1 is no call, 99999 no vertex.  The callee is not checked
	 * (another unit's map would be needed). */
	p = ipp_profile_new();
	pm = ipp_profile_add_module(p, "fig4.c", maps[0]->checksum, IPP_MODE_CONTEXT);
	ipp_prof_add_icall(pm, fx.c3, "elsewhere.c", 5, "anything", 2);
	CU_ASSERT_EQUAL(ipp_profile_check(pm, "ipp.prof", maps[0], fin, err, sizeof(err)), 0);
	{
		const ipp_id bad_sites[] = { fx.c1, fx.b1, 99999 };
		for (size_t i = 0; i < 3; i++) {
			ipp_profile_free(p);
			p = ipp_profile_new();
			pm = ipp_profile_add_module(p, "fig4.c", maps[0]->checksum,
						    IPP_MODE_CONTEXT);
			ipp_prof_add_icall(pm, bad_sites[i], "fig4.c", maps[0]->checksum, "main", 1);
			CU_ASSERT_EQUAL(ipp_profile_check(pm, "ipp.prof", maps[0], fin, err,
							  sizeof(err)), -1);
			CU_ASSERT_PTR_NOT_NULL(strstr(err, "which is not an indirect call site"));
		}
	}
	ipp_profile_free(p);

	/* Another build of fig4.c: the message names both checksums. */
	p = ipp_profile_new();
	pm = ipp_profile_add_module(p, "fig4.c", maps[0]->checksum ^ 1, IPP_MODE_CONTEXT);
	CU_ASSERT_EQUAL(ipp_profile_match(p, "ipp.prof", maps[0], &found, err, sizeof(err)), -1);
	snprintf(text, len, "profile ipp.prof was recorded from a different build of fig4.c "
		 "(profile checksum %s, binary has %s)", ipp_hex64(maps[0]->checksum ^ 1, hp),
		 ipp_hex64(maps[0]->checksum, hm));
	CU_ASSERT_STRING_EQUAL(err, text);
	CU_ASSERT_EQUAL(ipp_profile_check(pm, "ipp.prof", maps[0], fin, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, text);
	ipp_profile_free(p);

	/* A module the profile does not have: no data, not an error. */
	p = ipp_profile_new();
	CU_ASSERT_EQUAL(ipp_profile_match(p, "ipp.prof", maps[0], &found, err, sizeof(err)), 0);
	CU_ASSERT_PTR_NULL(found);
	ipp_profile_free(p);

	mpz_clears(total, x, NULL);
	ipp_fin_free(fin);
	ipp_map_free_all(maps, n);
	free(text);
	ipp_graph_free(fx.g);
}

/* ------------------------------------------------------------------ */

int main(void)
{
	CU_pSuite s;
	unsigned failures;
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("map", NULL, NULL);
	if (!s ||
	    !CU_add_test(s, "round trip in every mode, with and without cuts",
			 test_round_trip_all_modes) ||
	    !CU_add_test(s, "a stream of two documents", test_stream_of_two) ||
	    !CU_add_test(s, "documents located, read one by one, cached", test_spans_and_cache) ||
	    !CU_add_test(s, "rejects damaged maps", test_map_rejects) ||
	    !CU_add_test(s, "ipp_map_fin checks the derived facts", test_map_fin_checks) ||
	    !CU_add_test(s, "the callees' names", test_map_callees) ||
	    !CU_add_test(s, "ipp_graph_check and the callees' names", test_graph_check_callees) ||
	    !CU_add_test(s, "ipp_graph_check and inlined copies", test_graph_check_inlined) ||
	    !CU_add_test(s, "ipp_graph_check: unique procedure names", test_graph_check_names) ||
	    !CU_add_test(s, "ipp_proc_origins", test_proc_origins) ||
	    !CU_add_test(s, "ipp_fin_region_twins", test_region_twins) ||
	    !CU_add_test(s, "truncation at every byte", test_map_truncation))
		goto fail;
	s = CU_add_suite("profile", NULL, NULL);
	if (!s ||
	    !CU_add_test(s, "round trip, big numbers", test_profile_round_trip) ||
	    !CU_add_test(s, "the hand-written layout", test_profile_hand_written) ||
	    !CU_add_test(s, "merge arithmetic", test_profile_merge) ||
	    !CU_add_test(s, "repeated keys in a binary profile", test_profile_repeated_keys) ||
	    !CU_add_test(s, "rejects damaged profiles", test_profile_rejects) ||
	    !CU_add_test(s, "truncation at every byte", test_profile_truncation) ||
	    !CU_add_test(s, "the binary file", test_profile_binary) ||
	    !CU_add_test(s, "checks against a map", test_profile_against_map))
		goto fail;
	CU_basic_set_mode(CU_BRM_VERBOSE);
	if (CU_basic_run_tests() != CUE_SUCCESS)
		goto fail;
	failures = CU_get_number_of_failures();
	CU_cleanup_registry();
	return failures != 0;
fail:
	CU_cleanup_registry();
	return 2;
}
