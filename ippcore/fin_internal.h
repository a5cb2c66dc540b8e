/* fin_internal.h -- the layout of G*fin (struct ipp_fin), private to the
 * files that build it (fin.c, fin_u64.c) and the codec that walks it
 * (codec.c); everything else goes through the ipp_fin_* accessors.
 *
 * psi, rho and numUnbalRLPaths are defined once, as GMP integers, by
 * fin.c.  The *64 fields are their images in uint64_t, copied from them by
 * fin_u64.c wherever they fit, and 'narrow' says, per region, whether
 * every value a decoding walk of that region reads was copied and its
 * total is at most 2^64: then codec.c may decode the region's numbers
 * with 64-bit arithmetic (a faster evaluation of the same tables, not
 * another numbering).  A field *64 whose value does not fit holds 0 and
 * is read by no narrow walk.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#ifndef IPP_FIN_INTERNAL_H
#define IPP_FIN_INTERNAL_H

#include "internal.h"

/* What a decoding walk does at a vertex (fin.c sets it, codec.c reads it). */
enum fin_step {
	FIN_STEP_CHOOSE,	/* take an out-edge by the number */
	FIN_STEP_CALL,		/* take the CALL edge (an interprocedural call) */
	FIN_STEP_EXIT,		/* Exit_P: return, or end (or choose, unmatched) */
	FIN_STEP_GEXIT,		/* GExit_P: end */
	FIN_STEP_STUCK		/* no out-edge: a corrupt graph */
};

struct fvertex {
	enum ipp_vkind kind;
	unsigned char step;	/* enum fin_step */
	ipp_id proc, origin;
	ipp_id *succ;
	size_t nsucc, capsucc;
	mpz_t a, b;		/* psi */
	mpz_t nurl;		/* numUnbalRLPaths (piecewise; Exit_P and return sites) */
	ipp_id ret_edge;	/* call vertices: the RETURN edge of this site */
	bool cut;
	uint64_t a64, b64, nurl64;	/* a, b and nurl where they fit */
};

struct fedge {
	enum ipp_ekind kind;
	ipp_id src, dst, origin, call;
	mpz_t a, b;		/* rho */
	uint64_t a64, b64;	/* a and b where they fit */
};

struct fregion {
	ipp_id proc, edge;
	bool gentry;
	char *name;
	mpz_t total, offset, nvc;
	/* the largest number in range as a uint64_t: total - 1, or
	 * UINT64_MAX when total exceeds 2^64 (every uint64_t is in range);
	 * meaningless when the region is empty */
	uint64_t max64;
	bool empty;		/* total == 0 */
	uint64_t nvc64;		/* nvc, if narrow */
	bool narrow;		/* 1 <= total <= 2^64, and every psi, rho and nurl
				 * value a walk of the region reads fits 64 bits */
};

struct ipp_fin {
	const ipp_graph *g;
	enum ipp_mode mode;
	struct fvertex *v;
	size_t nv;
	struct fedge *e;
	size_t ne, cape;
	enum ipp_summary_why *status;	/* per G* vertex (call vertices) */
	bool *fallback;			/* per procedure */
	bool *restarts;			/* per procedure: ipp_fin_proc_restarts */
	struct fregion *r;
	size_t nr;
	ipp_id *by_name;		/* region indices in name order (ipp_fin_region_find) */
	mpz_t total;
	uint64_t digest;
	uint64_t *off;			/* per vertex: chords.c (NULL: none placed) */
};

/* Fills the *64 fields, max64, empty and narrow of every vertex, edge and
 * region of f, whose psi, rho, nurl and region totals are final
 * (fin_u64.c). */
void ipp_fin_build_u64(ipp_fin *f);

#endif /* IPP_FIN_INTERNAL_H */
