/* randgraph.h -- deterministic random supergraphs (G*) for the oracle tests.
 *
 * Every graph is a pure function of its seed and parameters: the generator
 * uses its own xorshift64* generator (never rand()), so a failing seed
 * reproduces everywhere.  Graphs obey the construction rules of ipp_core.h:
 * procedure 0 is an entry (like main); Entry_P has exactly one out-edge, to
 * the first vertex of the body; no edges leave a call vertex or enter a
 * return site; every vertex except Exit/GExit/GEntry has an out-edge; and
 * every vertex of a procedure is reachable from Entry_P (following the
 * implicit call -> return-site flow).
 *
 * Shapes covered: straight lines, diamonds, if-then, switches with parallel
 * edges, while and do-while loops, nested loops, loops with several back
 * edges (continue) and several exits (break), parallel back edges,
 * self-loops, irreducible regions (a cycle entered at two points), loop
 * headers that are call vertices, dead ends (edge to GExit_P), early
 * returns, calls to any procedure (so direct and mutual recursion), calls out
 * of the unit, indirect calls, IPP_CALL_FORCE_SUMMARY and noreturn sites.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_TEST_RANDGRAPH_H
#define IPP_TEST_RANDGRAPH_H

#include <stdbool.h>
#include <stdint.h>
#include "ipp_core.h"

/* xorshift64* (Marsaglia / Vigna); the state is never 0. */
typedef struct rg_rng {
	uint64_t state;
} rg_rng;

void rg_rng_seed(rg_rng *r, uint64_t seed);
uint64_t rg_rng_next(rg_rng *r);
uint32_t rg_rng_below(rg_rng *r, uint32_t n);	/* uniform-ish in [0, n); 0 if n == 0 */
bool rg_rng_chance(rg_rng *r, unsigned percent);

/* Size and shape knobs of rg_random(). */
typedef struct rg_params {
	unsigned max_procs;	/* 1 .. max_procs procedures */
	unsigned max_budget;	/* statements per procedure body: 1 .. max_budget */
	unsigned max_seq;	/* statements per sequence: 1 .. max_seq */
	unsigned max_depth;	/* nesting depth of compound statements */
	unsigned call_percent;	/* share of simple statements that are calls */
	unsigned entry_percent;	/* chance that procedure i > 0 is IPP_PROC_ENTRY */
} rg_params;

/* Parameters for size level 'level' (0 = largest; each level is smaller). */
void rg_params_level(rg_params *p, unsigned level);
#define RG_NLEVELS 6

/* A random supergraph.  Never NULL. */
ipp_graph *rg_random(uint64_t seed, const rg_params *p);

/* Fixed shapes. */

/* Appends a chain of n diamonds (2^n paths) to procedure p after vertex
 * 'from' (which gets one out-edge); returns the open exit of the chain. */
ipp_id rg_append_diamonds(ipp_graph *g, ipp_id p, ipp_id from, unsigned n);
/* main: Entry -> a chain of n diamonds -> Exit; 2^n paths. */
ipp_graph *rg_diamond_chain(unsigned n);
/* main calls f 'ncalls' times in a row; f is a chain of n diamonds.
 * In context mode main's region has (2^n)^ncalls paths. */
ipp_graph *rg_diamond_chain_calls(unsigned n, unsigned ncalls);
/* main calls f; f has a loop whose body calls f (self-recursion) and calls g;
 * g calls h; h calls g (mutual recursion g <-> h). */
ipp_graph *rg_recursion_zoo(void);

#endif /* IPP_TEST_RANDGRAPH_H */
