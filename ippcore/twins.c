/* twins.c -- regions that number the same source paths alike
 * (ipp_fin_region_twins).
 *
 * An inlined copy that starts paths of its own (intra mode, or an inlined
 * call that a cut summarizes) counts them in an Entry region of its own,
 * "main/power:1" (docs/NUMBERING.md, section 8).  When that region is a
 * twin of its function's -- the out-of-line body's, or an earlier copy's
 * -- path n of one is path n of the other, step for step: the same
 * source lines, the same calls, the same number.  The report then counts
 * them as one source path.
 *
 * Two regions are twins when a walk from their Entry vertices, taking the
 * out-edges of each pair of vertices in successor order (the order that
 * fixes the numbering), pairs every vertex one-to-one with:
 *   - the same vertex kind and source location (file, line, column);
 *   - the same out-degree, and edge by edge the same edge kind and the
 *     same rho (so the same psi and the same numbers);
 *   - at call vertices, the same callee (a copy stands for its function:
 *     ipp_proc_origins), the same target name and the same reason for a
 *     summary;
 * and only Exit_global in common.  A region whose paths cross into other
 * procedures (call and return edges: context mode) or split vertices
 * (intra-context) is nobody's twin: this walk does not follow them.
 * Anything the walk cannot pair leaves the regions apart, which is always
 * correct, only less merged.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "ipp_core.h"
#include "ipp_alloc.h"

#include <stdlib.h>
#include <string.h>

/* At most this many distinct numberings of one function are tried as a
 * copy's twin, so that a function inlined N ways costs O(N), not O(N^2)
 * walks.  Copies beyond them stay apart. */
#define TWIN_CANDIDATES 8

struct walk {
	const ipp_fin *f;
	const ipp_graph *g;
	const ipp_id *origin;	/* ipp_proc_origins */
	ipp_id *a2b, *b2a;	/* vertex pairing; IPP_NONE: unpaired */
	ipp_id *stack;		/* pairs (a, b) still to expand */
	size_t nstack;
	ipp_id *touched;	/* the a-side vertices paired, to reset */
	size_t ntouched;
	mpz_t ra, rb, sa, sb;
};

static bool same_str(const char *x, const char *y)
{
	return x == y || (x != NULL && y != NULL && strcmp(x, y) == 0);
}

/* Do a and b stand for the same source point? */
static bool same_vertex(const struct walk *w, ipp_id a, ipp_id b)
{
	const ipp_graph *g = w->g;
	ipp_id oa = ipp_fin_vorigin(w->f, a), ob = ipp_fin_vorigin(w->f, b);

	if (ipp_fin_vkind(w->f, a) != ipp_fin_vkind(w->f, b))
		return false;
	if (oa == IPP_NONE || ob == IPP_NONE)
		return oa == ob;
	if (ipp_vertex_line(g, oa) != ipp_vertex_line(g, ob) ||
	    ipp_vertex_col(g, oa) != ipp_vertex_col(g, ob) ||
	    !same_str(ipp_vertex_file(g, oa), ipp_vertex_file(g, ob)))
		return false;
	if (ipp_vertex_kind(g, oa) == IPP_V_CALL) {
		ipp_id ca = ipp_call_callee(g, oa), cb = ipp_call_callee(g, ob);
		if ((ca == IPP_NONE) != (cb == IPP_NONE))
			return false;
		if (ca != IPP_NONE && w->origin[ca] != w->origin[cb])
			return false;
		if (ca == IPP_NONE &&
		    !same_str(ipp_call_target_asm(g, oa), ipp_call_target_asm(g, ob)))
			return false;
		if (ipp_fin_call_summary(w->f, a) != ipp_fin_call_summary(w->f, b))
			return false;
	}
	return true;
}

/* Pairs a with b (or checks that they are paired with each other). */
static bool pair(struct walk *w, ipp_id a, ipp_id b)
{
	if (w->a2b[a] != IPP_NONE || w->b2a[b] != IPP_NONE)
		return w->a2b[a] == b && w->b2a[b] == a;
	if (!same_vertex(w, a, b))
		return false;
	w->a2b[a] = b;
	w->b2a[b] = a;
	w->touched[w->ntouched++] = a;
	/* a global vertex (Exit_global) is the same on both sides; it ends
	 * every path and is not expanded */
	if (ipp_fin_vproc(w->f, a) != IPP_NONE) {
		w->stack[2 * w->nstack] = a;
		w->stack[2 * w->nstack + 1] = b;
		w->nstack++;
	}
	return true;
}

static bool edge_kind_walked(enum ipp_ekind k)
{
	return k == IPP_E_NORMAL || k == IPP_E_SURR_ENTRY || k == IPP_E_SURR_EXIT ||
	       k == IPP_E_SUMMARY || k == IPP_E_GLOBAL_EXIT;
}

static bool twins(struct walk *w, ipp_id start_a, ipp_id start_b)
{
	bool ok = start_a != start_b && pair(w, start_a, start_b);

	while (ok && w->nstack > 0) {
		w->nstack--;
		ipp_id a = w->stack[2 * w->nstack], b = w->stack[2 * w->nstack + 1];
		size_t n = ipp_fin_nsucc(w->f, a);

		if (n != ipp_fin_nsucc(w->f, b))
			ok = false;
		for (size_t i = 0; ok && i < n; i++) {
			ipp_id ea = ipp_fin_succ(w->f, a, i), eb = ipp_fin_succ(w->f, b, i);
			enum ipp_ekind k = ipp_fin_ekind(w->f, ea);

			if (k != ipp_fin_ekind(w->f, eb) || !edge_kind_walked(k)) {
				ok = false;
				break;
			}
			ipp_fin_rho(w->f, ea, w->ra, w->rb);
			ipp_fin_rho(w->f, eb, w->sa, w->sb);
			ok = mpz_cmp(w->ra, w->sa) == 0 && mpz_cmp(w->rb, w->sb) == 0 &&
			     pair(w, ipp_fin_edst(w->f, ea), ipp_fin_edst(w->f, eb));
		}
	}
	for (size_t i = 0; i < w->ntouched; i++) {
		w->b2a[w->a2b[w->touched[i]]] = IPP_NONE;
		w->a2b[w->touched[i]] = IPP_NONE;
	}
	w->ntouched = 0;
	w->nstack = 0;
	return ok;
}

static ipp_id region_start(const ipp_fin *f, ipp_id r)
{
	ipp_region_info info;
	ipp_fin_region(f, r, &info);
	return ipp_fin_edst(f, info.edge);
}

void ipp_fin_region_twins(const ipp_fin *f, ipp_id *out)
{
	const ipp_graph *g = ipp_fin_graph(f);
	size_t nr = ipp_fin_nregions(f), np = ipp_graph_nprocs(g), nv = ipp_fin_nvertices(f);
	ipp_id *entry_region = ipp_xmalloc((np + 1) * sizeof(*entry_region));
	ipp_id *cand = ipp_xmalloc((np * TWIN_CANDIDATES + 1) * sizeof(*cand));
	size_t *ncand = ipp_xcalloc(np + 1, sizeof(*ncand));
	struct walk w = { .f = f, .g = g };

	for (size_t p = 0; p < np; p++)
		entry_region[p] = IPP_NONE;
	for (size_t r = 0; r < nr; r++) {
		ipp_region_info info;
		ipp_fin_region(f, (ipp_id)r, &info);
		out[r] = (ipp_id)r;
		if (!info.gentry)
			entry_region[info.proc] = (ipp_id)r;
	}
	ipp_id *origin = ipp_xmalloc((np + 1) * sizeof(*origin));
	ipp_proc_origins(g, origin);
	w.origin = origin;
	w.a2b = ipp_xmalloc((nv + 1) * sizeof(ipp_id));
	w.b2a = ipp_xmalloc((nv + 1) * sizeof(ipp_id));
	w.stack = ipp_xmalloc((2 * nv + 2) * sizeof(ipp_id));
	w.touched = ipp_xmalloc((nv + 1) * sizeof(ipp_id));
	for (size_t v = 0; v < nv; v++)
		w.a2b[v] = w.b2a[v] = IPP_NONE;
	mpz_inits(w.ra, w.rb, w.sa, w.sb, NULL);

	/* A function's own body is its first candidate, then its copies'
	 * distinct numberings in id order (regions are in procedure order). */
	for (size_t p = 0; p < np; p++) {
		ipp_id o = origin[p];
		if (o == (ipp_id)p && entry_region[p] != IPP_NONE)
			cand[o * TWIN_CANDIDATES + ncand[o]++] = entry_region[p];
	}
	for (size_t p = 0; p < np; p++) {
		ipp_id o = origin[p], r = entry_region[p];
		bool found = false;

		if (o == (ipp_id)p || r == IPP_NONE ||
		    !(ipp_proc_flags(g, (ipp_id)p) & IPP_PROC_INLINED))
			continue;
		for (size_t k = 0; k < ncand[o] && !found; k++) {
			ipp_id c = cand[o * TWIN_CANDIDATES + k];
			if (twins(&w, region_start(f, r), region_start(f, c))) {
				out[r] = c;
				found = true;
			}
		}
		if (!found && ncand[o] < TWIN_CANDIDATES)
			cand[o * TWIN_CANDIDATES + ncand[o]++] = r;
	}
	mpz_clears(w.ra, w.rb, w.sa, w.sb, NULL);
	free(w.a2b);
	free(w.b2a);
	free(w.stack);
	free(w.touched);
	free(origin);
	free(cand);
	free(ncand);
	free(entry_region);
}
