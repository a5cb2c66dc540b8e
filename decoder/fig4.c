/* fig4.c -- the paper's Figure 4 program as a hand-built supergraph.
 *
 * Vertex names follow Figure 5: main is v1 (Entry_main) ... v16 (Exit_main),
 * with v14 = GExit_main (Transformation 1) and v17 = GEntry_main (Figure 14);
 * pow is u1 (Entry_pow) ... u8 (Exit_pow), u6 = GExit_pow, u9 = GEntry_pow.
 * The CFG shape and successor order are fixed by the rho values in
 * Figure 7's caption (v1->v4 <1,17>, v4->v15 <0,17>, v5->v9 <0,12>,
 * v9->v13 <0,4>, u1->u3 <1,1>, u3->u7 <0,1>); docs/NUMBERING.md derives them.
 *
 *   main:  v1 -> v2 -> v3 -> v4 (while i <= 18)
 *          v4 -> v5 (body) | v15 (return 0) -> v16
 *          v5 (i%2==0) -> v6 = call pow, v7 = return site -> v8 -> v9 | v9
 *          v9 (i%3==0) -> v10 = call pow, v11 = return site -> v12 -> v13 | v13
 *          v13 (i++) -> v4 (back edge)
 *   pow:   u1 -> u2 (power = 1) -> u3 (while exp > 0)
 *          u3 -> u4 (power *= base) -> u5 (exp--) -> u3 (back edge) | u7 -> u8
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include "fig4.h"

#include <string.h>

#define NNAMES 64
static const char *names[NNAMES];

static void name(ipp_id v, const char *s)
{
	if (v >= 0 && v < NNAMES)
		names[v] = s;
}

ipp_graph *fig4_graph(void)
{
	ipp_graph *g = ipp_graph_new();
	ipp_id m = ipp_add_proc(g, "main", "main", IPP_PROC_ENTRY);
	ipp_id p = ipp_add_proc(g, "pow", "pow", 0);
	ipp_id v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v15;
	ipp_id u2, u3, u4, u5, u7;

	memset(names, 0, sizeof(names));
	name(0, "Entry_global");
	name(1, "Exit_global");
	name(ipp_proc_entry(g, m), "v1");
	name(ipp_proc_exit(g, m), "v16");
	name(ipp_proc_gexit(g, m), "v14");
	name(ipp_proc_gentry(g, m), "v17");
	name(ipp_proc_entry(g, p), "u1");
	name(ipp_proc_exit(g, p), "u8");
	name(ipp_proc_gexit(g, p), "u6");
	name(ipp_proc_gentry(g, p), "u9");

	v2 = ipp_add_block(g, m);	name(v2, "v2");
	v3 = ipp_add_block(g, m);	name(v3, "v3");
	v4 = ipp_add_block(g, m);	name(v4, "v4");
	v5 = ipp_add_block(g, m);	name(v5, "v5");
	v6 = ipp_add_call(g, m, p, 0);	name(v6, "v6");
	v7 = v6 + 1;			name(v7, "v7");
	v8 = ipp_add_block(g, m);	name(v8, "v8");
	v9 = ipp_add_block(g, m);	name(v9, "v9");
	v10 = ipp_add_call(g, m, p, 0);	name(v10, "v10");
	v11 = v10 + 1;			name(v11, "v11");
	v12 = ipp_add_block(g, m);	name(v12, "v12");
	v13 = ipp_add_block(g, m);	name(v13, "v13");
	v15 = ipp_add_block(g, m);	name(v15, "v15");

	ipp_add_edge(g, ipp_proc_entry(g, m), v2);
	ipp_add_edge(g, v2, v3);
	ipp_add_edge(g, v3, v4);
	ipp_add_edge(g, v4, v5);
	ipp_add_edge(g, v4, v15);
	ipp_add_edge(g, v5, v6);
	ipp_add_edge(g, v5, v9);
	ipp_add_edge(g, v7, v8);
	ipp_add_edge(g, v8, v9);
	ipp_add_edge(g, v9, v10);
	ipp_add_edge(g, v9, v13);
	ipp_add_edge(g, v11, v12);
	ipp_add_edge(g, v12, v13);
	ipp_add_edge(g, v13, v4);	/* back edge */
	ipp_add_edge(g, v15, ipp_proc_exit(g, m));

	u2 = ipp_add_block(g, p);	name(u2, "u2");
	u3 = ipp_add_block(g, p);	name(u3, "u3");
	u4 = ipp_add_block(g, p);	name(u4, "u4");
	u5 = ipp_add_block(g, p);	name(u5, "u5");
	u7 = ipp_add_block(g, p);	name(u7, "u7");
	ipp_add_edge(g, ipp_proc_entry(g, p), u2);
	ipp_add_edge(g, u2, u3);
	ipp_add_edge(g, u3, u4);
	ipp_add_edge(g, u3, u7);
	ipp_add_edge(g, u4, u5);
	ipp_add_edge(g, u5, u3);	/* back edge */
	ipp_add_edge(g, u7, ipp_proc_exit(g, p));
	return g;
}

const char *fig4_vertex_name(ipp_id v)
{
	return v >= 0 && v < NNAMES ? names[v] : NULL;
}

ipp_id fig4_vertex(const char *s)
{
	for (ipp_id v = 0; v < NNAMES; v++)
		if (names[v] && strcmp(names[v], s) == 0)
			return v;
	return IPP_NONE;
}

/* Figure 9's output: non-zero counters of profile[36]. */
const struct fig4_obs fig4_figure9[] = {
	{16, 1}, {18, 9}, {24, 9}, {25, 3}, {27, 3}, {28, 3},
	{29, 6}, {30, 3}, {32, 3}, {33, 3}, {34, 5}, {35, 1},
};
const size_t fig4_figure9_len = sizeof(fig4_figure9) / sizeof(fig4_figure9[0]);

/* The piecewise output printed after Figure 17: non-zero counters of profile[21]. */
const struct fig4_obs fig4_figure17[] = {
	{6, 1}, {8, 9}, {12, 3}, {14, 5}, {15, 1}, {16, 15}, {17, 3}, {19, 6}, {20, 6},
};
const size_t fig4_figure17_len = sizeof(fig4_figure17) / sizeof(fig4_figure17[0]);

void fig4_print_path(FILE *f, const ipp_fin *fin, const ipp_path *p)
{
	for (size_t i = 0; i < p->nedges; i++) {
		ipp_id e = p->edges[i];
		const char *n;
		if (i == 0) {
			n = fig4_vertex_name(ipp_fin_esrc(fin, e));
			fputs(n ? n : "?", f);
		}
		n = fig4_vertex_name(ipp_fin_vorigin(fin, ipp_fin_edst(fin, e)));
		fprintf(f, " -> %s", n ? n : "?");
	}
}
