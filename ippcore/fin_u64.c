/* fin_u64.c -- the 64-bit images of G*fin's psi, rho and numUnbalRLPaths,
 * and which regions a decoder may walk with them (fin_internal.h).
 *
 * Nothing here computes a number of the numbering: every *64 field is a
 * copy of the GMP value fin.c computed, made only where the value fits
 * (ipp_mpz_get_u64).  What a decoding walk (codec.c, decode_walk) reads:
 *   - rho (a and b) of the out-edges of the vertices it visits, but for
 *     the first out-edge of each vertex, whose rho it takes to be 0 (the
 *     sums of equations 24 and 35 start at 0: checked here all the same);
 *   - psi of the return site c + 1 of each call vertex c it calls from;
 *   - numUnbalRLPaths of Exit_S after an unmatched return into S;
 *   - the region's nvc, and a number below the region's total.
 * The vertices a walk of an Entry region of P visits are those of P and of
 * every procedure P reaches by CALL edges; a GEntry region's walk
 * (piecewise) may also return, unmatched, into any procedure that reaches
 * P by CALL edges, and go on from there.  So a procedure is 'bad' when one
 * of its own values does not fit; 'bad below' when it reaches a bad
 * procedure by CALL edges (itself included); 'bad around' when a
 * procedure that reaches it is bad below.  A region is NARROW when its
 * total is at most 2^64, its nvc fits, and its procedure is not bad below
 * (Entry region) or not bad around (GEntry region).
 *
 * What a walk computes from those values -- nvc := psi_r(nvc) at a call,
 * rho_e(nvc) for the successors it compares -- counts completions of the
 * path it has walked so far, each a distinct path of the region, so none
 * passes the total; the total's bound is what makes 64 bits enough (main
 * calling a function of 2^40 paths twice has small coefficients and 2^80
 * paths).  codec.c checks every product and sum of a narrow walk all the
 * same: a compared value past 2^64 - 1 is larger than what remains of the
 * number, which decides the comparison correctly, and a call's nvc or a
 * chosen value that does not fit makes it decode the number again with
 * GMP (ipp_decode_stats.widened; never seen).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#include "fin_internal.h"

/* Marks, breadth first, every procedure reachable from a marked one along
 * the arcs from[k] -> to[k] (k < narcs). */
static void spread(unsigned char *mark, size_t np, const ipp_id *from, const ipp_id *to,
		   size_t narcs)
{
	size_t *off = ipp_xcalloc(np + 1, sizeof(*off)), *queue, qh = 0, qt = 0;
	ipp_id *adj = ipp_xmalloc((narcs ? narcs : 1) * sizeof(*adj));

	for (size_t k = 0; k < narcs; k++)
		off[from[k] + 1]++;
	for (size_t p = 0; p < np; p++)
		off[p + 1] += off[p];
	{
		size_t *fill = ipp_xmalloc((np + 1) * sizeof(*fill));
		memcpy(fill, off, (np + 1) * sizeof(*fill));
		for (size_t k = 0; k < narcs; k++)
			adj[fill[from[k]]++] = to[k];
		free(fill);
	}
	queue = ipp_xmalloc((np ? np : 1) * sizeof(*queue));
	for (size_t p = 0; p < np; p++)
		if (mark[p])
			queue[qt++] = p;
	while (qh < qt) {
		size_t p = queue[qh++];
		for (size_t k = off[p]; k < off[p + 1]; k++)
			if (!mark[adj[k]]) {
				mark[adj[k]] = 1;
				queue[qt++] = (size_t)adj[k];
			}
	}
	free(queue);
	free(adj);
	free(off);
}

void ipp_fin_build_u64(ipp_fin *f)
{
	size_t np = f->g->np, narcs = 0;
	unsigned char *below = ipp_xcalloc(np ? np : 1, 1);	/* bad, then bad below */
	unsigned char *around, *psi_ok;
	ipp_id *caller, *callee;

	for (size_t i = 0; i < f->nv; i++) {
		const struct fvertex *v = &f->v[i];
		const struct fedge *first = v->nsucc ? &f->e[v->succ[0]] : NULL;
		if (first && v->proc != IPP_NONE && (mpz_sgn(first->a) || mpz_sgn(first->b)))
			below[v->proc] = 1;
	}
	for (size_t i = 0; i < f->ne; i++) {
		struct fedge *e = &f->e[i];
		bool ok = ipp_mpz_get_u64(e->a, &e->a64) && ipp_mpz_get_u64(e->b, &e->b64);
		if (!ok) {
			e->a64 = e->b64 = 0;
			if (f->v[e->src].proc != IPP_NONE)
				below[f->v[e->src].proc] = 1;
		}
		narcs += e->kind == IPP_E_CALL;
	}
	psi_ok = ipp_xmalloc(f->nv ? f->nv : 1);
	for (size_t i = 0; i < f->nv; i++) {
		struct fvertex *v = &f->v[i];
		psi_ok[i] = ipp_mpz_get_u64(v->a, &v->a64) && ipp_mpz_get_u64(v->b, &v->b64);
		if (!psi_ok[i])
			v->a64 = v->b64 = 0;
		if (!ipp_mpz_get_u64(v->nurl, &v->nurl64)) {
			v->nurl64 = 0;
			if (v->kind == IPP_V_EXIT)	/* read after unmatched returns */
				below[v->proc] = 1;
		}
	}
	/* psi of the return site c + 1 of a call vertex c whose walk calls */
	for (size_t i = 0; i + 1 < f->nv; i++)
		if (f->v[i].nsucc > 0 && f->e[f->v[i].succ[0]].kind == IPP_E_CALL && !psi_ok[i + 1])
			below[f->v[i].proc] = 1;
	free(psi_ok);

	/* CALL arcs, caller -> callee procedure */
	caller = ipp_xmalloc((narcs ? narcs : 1) * sizeof(*caller));
	callee = ipp_xmalloc((narcs ? narcs : 1) * sizeof(*callee));
	narcs = 0;
	for (size_t i = 0; i < f->ne; i++)
		if (f->e[i].kind == IPP_E_CALL) {
			caller[narcs] = f->v[f->e[i].src].proc;
			callee[narcs++] = f->v[f->e[i].dst].proc;
		}
	spread(below, np, callee, caller, narcs);	/* up the calls: bad below */
	around = ipp_xmalloc(np ? np : 1);
	memcpy(around, below, np);
	spread(around, np, caller, callee, narcs);	/* down again: bad around */

	for (size_t i = 0; i < f->nr; i++) {
		struct fregion *r = &f->r[i];
		mpz_t last;
		bool fits;

		r->empty = mpz_sgn(r->total) == 0;
		mpz_init(last);
		if (!r->empty)
			mpz_sub_ui(last, r->total, 1);
		fits = !r->empty && ipp_mpz_get_u64(last, &r->max64);
		if (!fits)
			r->max64 = UINT64_MAX;
		mpz_clear(last);
		r->narrow = fits && ipp_mpz_get_u64(r->nvc, &r->nvc64) &&
			    !(r->gentry ? around : below)[r->proc];
		if (!r->narrow)
			r->nvc64 = 0;
	}
	free(caller);
	free(callee);
	free(below);
	free(around);
}
