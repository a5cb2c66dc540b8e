/* ipp_local.h -- a procedure's local path numbering, for two-level
 * counting (docs/NUMBERING.md, "Two-level counting").
 *
 * In context mode a path's number is pathNumOnEntry + sum rho_e(nvc): the
 * part before the procedure was entered (onentry, nvc) and the part inside
 * it.  Within one activation, every path that starts at Entry_P or at a
 * restart (a loop header after a back edge, a cut vertex, a restart point)
 * and reaches a point where paths are recorded without passing an
 * interprocedural call has the number onentry + A_l * nvc + B_l, where l
 * names the path's *local* part.  So an activation can count such paths in
 * a row of counters keyed by (region, procedure, onentry, nvc), found once,
 * indexed by l in a register; the runtime turns (row, l) back into the
 * number when it writes the profile (plugin/instrument.cc, runtime/
 * rt_rows.c).
 *
 * The local numbering is Ball-Larus over the procedure's own DAG D in
 * G*fin: its NORMAL, SUMMARY, surrogate entry and surrogate exit edges;
 * a path of D starts at Entry_P (through the real entry edge or a surrogate
 * entry) or, through a virtual start edge, at the return site of an
 * interprocedural call, and ends at Exit_P, at GExit_P, or at the call
 * vertex of an interprocedural call.  Entry_P's real out-edges come first,
 * so the paths that start at Entry_P or a restart have the local numbers
 * 0 .. nentry-1 and those that start at a return site nentry .. npaths-1.
 * Only context and intra mode numberings (no split halves) are supported.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#ifndef IPP_LOCAL_H
#define IPP_LOCAL_H

#include "ipp_core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ipp_local ipp_local;

/* The local numbering of procedure p of f, or NULL if p has more than
 * limit local paths (or is not numbered in f). */
ipp_local *ipp_local_new(const ipp_fin *f, ipp_id p, uint64_t limit);
void ipp_local_free(ipp_local *l);

/* Local paths that start at Entry_P or a restart: numbers 0 .. nentry-1. */
uint64_t ipp_local_nentry(const ipp_local *l);
/* All local paths. */
uint64_t ipp_local_npaths(const ipp_local *l);

/* The local increment of G*fin edge e of the procedure (NORMAL, SUMMARY,
 * surrogate entry or surrogate exit): added to the local register when e
 * is taken, as rho_e is added to the path register.  A surrogate entry's
 * value is the local register's value at that restart. */
uint64_t ipp_local_edge(const ipp_local *l, ipp_id e);

/* The local register's value where a path restarts at the return site r of
 * an interprocedural call (>= nentry). */
uint64_t ipp_local_retsite(const ipp_local *l, ipp_id r);

/* Which local paths reach vertex v: IPP_LOCAL_FROM_ENTRY if some that
 * start at Entry_P or a restart, IPP_LOCAL_FROM_RETURN if some that start
 * at a return site. */
#define IPP_LOCAL_FROM_ENTRY 0x1u
#define IPP_LOCAL_FROM_RETURN 0x2u
unsigned ipp_local_reach(const ipp_local *l, ipp_id v);

/* For a local path idx < nentry: the sum <a, b> of rho over its edges, so
 * that the path recorded at its end has the number onentry + a*nvc + b.
 * Returns false (a = b = 0) if the path ends at an interprocedural call
 * (where nothing is recorded). */
bool ipp_local_ab(const ipp_local *l, uint64_t idx, mpz_t a, mpz_t b);

#ifdef __cplusplus
}
#endif
#endif
