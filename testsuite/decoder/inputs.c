/* inputs.c -- building maps and profiles for the tests of the ipp tool
 * (inputs.h).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "inputs.h"
#include "fig4.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The paper's vertices of Figure 5 and the lines of examples/fig4.c they
 * stand for: main is lines 30-47, power ("pow" in the paper) 20-28. */
static const struct {
	const char *name;
	int line;
} fig4_lines[] = {
	{ "v1", 30 },	/* Entry_main: int main(void) */
	{ "v2", 32 },	/* double t, result = 0.0; */
	{ "v3", 33 },	/* int i = 1; */
	{ "v4", 34 },	/* while (i <= 18) */
	{ "v5", 35 },	/* if ((i % 2) == 0) */
	{ "v6", 36 },	/* t = power(i, 2);  the call */
	{ "v7", 36 },	/* ... its return site */
	{ "v8", 37 },	/* result += t; */
	{ "v9", 39 },	/* if ((i % 3) == 0) */
	{ "v10", 40 },	/* t = power(i, 2);  the call */
	{ "v11", 40 },	/* ... its return site */
	{ "v12", 41 },	/* result += t; */
	{ "v13", 43 },	/* i++; */
	{ "v15", 45 },	/* printf(...); return 0; */
	{ "v16", 47 },	/* Exit_main: } */
	{ "u1", 20 },	/* Entry_pow */
	{ "u2", 22 },	/* double value = 1.0; */
	{ "u3", 23 },	/* while (exp > 0) */
	{ "u4", 24 },	/* value *= base; */
	{ "u5", 25 },	/* exp--; */
	{ "u7", 27 },	/* return value; */
	{ "u8", 28 },	/* Exit_pow: } */
};

int fig4_line_of(const char *name)
{
	for (size_t i = 0; i < sizeof(fig4_lines) / sizeof(fig4_lines[0]); i++)
		if (strcmp(fig4_lines[i].name, name) == 0)
			return fig4_lines[i].line;
	return 0;
}

ipp_graph *inputs_fig4_graph(void)
{
	ipp_graph *g = fig4_graph();
	for (size_t i = 0; i < sizeof(fig4_lines) / sizeof(fig4_lines[0]); i++)
		ipp_set_loc(g, fig4_vertex(fig4_lines[i].name), "fig4.c", fig4_lines[i].line, 1);
	return g;
}

/* chain.c, as the graph describes it:
 *
 *   1  extern int ext(int);
 *   2  int chain(int x)
 *   3  {
 *   4      if (x & 1)        diamond 0: test on line 4, then-block on line 5
 *   5          x += 1;
 *   6      if (x & 2)        diamond 1: lines 6 and 7, and so on
 *   7          x += 2;
 *      ...
 *   N      return x;         (N = 4 + 2 * ndiamonds)
 *   N+1 }
 *   N+2 int main(void)
 *   N+3 {
 *   N+4     int y = chain(1);
 *   N+5     return ext(y);
 *   N+6 }
 */
ipp_graph *inputs_chain_graph(int ndiamonds)
{
	ipp_graph *g = ipp_graph_new();
	ipp_id chain = ipp_add_proc(g, "chain", "chain", IPP_PROC_ENTRY);
	ipp_id mainp = ipp_add_proc(g, "main", "main", IPP_PROC_ENTRY);
	ipp_id test[32], then[32];
	ipp_id ret, m1, c1, m2, c2;
	int n;

	if (ndiamonds > 32)
		ndiamonds = 32;
	n = 4 + 2 * ndiamonds;

	ipp_set_loc(g, ipp_proc_entry(g, chain), "chain.c", 2, 5);
	for (int i = 0; i < ndiamonds; i++) {
		test[i] = ipp_add_block(g, chain);
		then[i] = ipp_add_block(g, chain);
		ipp_set_loc(g, test[i], "chain.c", 4 + 2 * i, 5);
		ipp_set_loc(g, then[i], "chain.c", 5 + 2 * i, 7);
	}
	ret = ipp_add_block(g, chain);
	ipp_set_loc(g, ret, "chain.c", n, 5);
	ipp_set_loc(g, ipp_proc_exit(g, chain), "chain.c", n + 1, 1);
	ipp_add_edge(g, ipp_proc_entry(g, chain), ndiamonds > 0 ? test[0] : ret);
	for (int i = 0; i < ndiamonds; i++) {
		ipp_id next = i + 1 < ndiamonds ? test[i + 1] : ret;
		ipp_add_edge(g, test[i], then[i]);
		ipp_add_edge(g, test[i], next);
		ipp_add_edge(g, then[i], next);
	}
	ipp_add_edge(g, ret, ipp_proc_exit(g, chain));

	ipp_set_loc(g, ipp_proc_entry(g, mainp), "chain.c", n + 2, 5);
	m1 = ipp_add_block(g, mainp);
	c1 = ipp_add_call(g, mainp, chain, 0);
	m2 = ipp_add_block(g, mainp);
	c2 = ipp_add_call(g, mainp, IPP_NONE, 0);
	ipp_set_call_target(g, c2, "ext", NULL);	/* out of the unit, named */
	ipp_set_loc(g, m1, "chain.c", n + 4, 13);
	ipp_set_loc(g, c1, "chain.c", n + 4, 13);
	ipp_set_loc(g, c1 + 1, "chain.c", n + 4, 13);
	ipp_set_loc(g, m2, "chain.c", n + 5, 9);
	ipp_set_loc(g, c2, "chain.c", n + 5, 9);
	ipp_set_loc(g, c2 + 1, "chain.c", n + 5, 9);
	ipp_set_loc(g, ipp_proc_exit(g, mainp), "chain.c", n + 6, 1);
	ipp_add_edge(g, ipp_proc_entry(g, mainp), m1);
	ipp_add_edge(g, m1, c1);
	ipp_add_edge(g, c1 + 1, m2);
	ipp_add_edge(g, m2, c2);
	ipp_add_edge(g, c2 + 1, ipp_proc_exit(g, mainp));
	return g;
}

int inputs_write_map(const char *path, const ipp_graph *g, enum ipp_mode mode,
		     const char *module, unsigned long cut_limit, uint64_t *checksum)
{
	ipp_map_meta meta = { .module = module, .ipp_version = "test", .gcc_version = "none" };
	char err[512];
	ipp_cuts cuts;
	ipp_fin *fin = NULL;
	FILE *f = NULL;
	mpz_t limit;
	int rc = -1;

	ipp_cuts_init(&cuts);
	mpz_init_set_str(limit, "18446744073709551615", 10);
	if (cut_limit != 0) {
		mpz_set_ui(limit, cut_limit);
		if (ipp_autocut(g, mode, limit, &cuts, err, sizeof(err)) < 0)
			goto fail;
	}
	fin = ipp_fin_new(g, mode, &cuts, err, sizeof(err));
	if (fin == NULL)
		goto fail;
	f = fopen(path, "w");
	if (f == NULL) {
		snprintf(err, sizeof(err), "%s: cannot create", path);
		goto fail;
	}
	if (ipp_map_write(f, fin, &cuts, &meta, limit, err, sizeof(err)) < 0)
		goto fail;
	if (fclose(f) != 0) {
		f = NULL;
		snprintf(err, sizeof(err), "%s: write error", path);
		goto fail;
	}
	f = NULL;
	*checksum = ipp_map_checksum(g, mode, &cuts, module);
	rc = 0;
	goto out;
fail:
	fprintf(stderr, "inputs_write_map: %s\n", err);
out:
	if (f != NULL)
		fclose(f);
	if (fin != NULL)
		ipp_fin_free(fin);
	ipp_cuts_free(&cuts);
	mpz_clear(limit);
	return rc;
}

int inputs_prefix(const ipp_graph *g, enum ipp_mode mode, const char *region,
		  unsigned long num, size_t nedges, mpz_t partial_num, ipp_id **stack,
		  size_t *nstack)
{
	char err[512];
	ipp_fin *fin = ipp_fin_new(g, mode, NULL, err, sizeof(err));
	ipp_path path;
	ipp_id rid, got;
	mpz_t n;
	int rc = -1;

	*stack = NULL;
	*nstack = 0;
	if (fin == NULL) {
		fprintf(stderr, "inputs_prefix: %s\n", err);
		return -1;
	}
	mpz_init_set_ui(n, num);
	ipp_path_init(&path);
	rid = ipp_fin_region_find(fin, region);
	if (rid == IPP_NONE || ipp_decode(fin, rid, n, &path, err, sizeof(err)) < 0 ||
	    nedges > path.nedges ||
	    ipp_encode(fin, path.edges, nedges, &got, partial_num, stack, nstack, err,
		       sizeof(err)) < 0) {
		fprintf(stderr, "inputs_prefix: %s\n", err);
		goto out;
	}
	rc = 0;
out:
	ipp_path_free(&path);
	mpz_clear(n);
	ipp_fin_free(fin);
	return rc;
}

int inputs_write_profile(const char *path, const ipp_profile *p)
{
	char err[512];
	FILE *f = fopen(path, "w");
	int rc;

	if (f == NULL) {
		fprintf(stderr, "inputs_write_profile: %s: cannot create\n", path);
		return -1;
	}
	rc = ipp_profile_write(f, p, err, sizeof(err));
	if (fclose(f) != 0)
		rc = -1;
	if (rc < 0)
		fprintf(stderr, "inputs_write_profile: %s: %s\n", path, err);
	return rc;
}
