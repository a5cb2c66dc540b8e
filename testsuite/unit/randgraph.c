/* randgraph.c -- deterministic random supergraphs (G*) for the oracle tests.
 *
 * A procedure body is generated as a structured statement tree with some
 * unstructured extras (breaks, continues, early returns, dead ends,
 * irreducible regions).  Each statement is a fragment with one entry vertex
 * (which receives edges: a block or a call vertex) and one open exit vertex
 * (which will get out-edges: a block or a return site), so the rules of
 * ipp_core.h hold by construction: edges never leave a call vertex and never
 * enter a return site, and every open exit is closed by its parent.
 *
 * Invariant relied on by the tests: every vertex of a procedure is reachable
 * from Entry_P along edges and call -> return-site flow (fragments only ever
 * attach new vertices below a reachable vertex), and every vertex except
 * Exit/GExit/GEntry has at least one out-edge.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "randgraph.h"

#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ */
/* PRNG                                                                 */
/* ------------------------------------------------------------------ */
void rg_rng_seed(rg_rng *r, uint64_t seed)
{
	/* splitmix64 finaliser, so that nearby seeds give unrelated streams. */
	uint64_t z = seed + UINT64_C(0x9E3779B97F4A7C15);
	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	z ^= z >> 31;
	r->state = z ? z : UINT64_C(0x1234567);
}

uint64_t rg_rng_next(rg_rng *r)
{
	uint64_t x = r->state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->state = x;
	return x * UINT64_C(0x2545F4914F6CDD1D);
}

uint32_t rg_rng_below(rg_rng *r, uint32_t n)
{
	if (n == 0)
		return 0;
	return (uint32_t)((rg_rng_next(r) >> 32) % n);
}

bool rg_rng_chance(rg_rng *r, unsigned percent)
{
	return rg_rng_below(r, 100) < percent;
}

/* ------------------------------------------------------------------ */
/* Parameters                                                           */
/* ------------------------------------------------------------------ */
void rg_params_level(rg_params *p, unsigned level)
{
	static const struct {
		unsigned procs, budget, seq, depth, call;
	} lv[RG_NLEVELS] = {
		{ 6, 20, 5, 4, 30 },
		{ 5, 16, 5, 4, 30 },
		{ 5, 12, 4, 3, 28 },
		{ 4, 8, 4, 3, 25 },
		{ 3, 5, 3, 2, 20 },
		{ 2, 2, 2, 1, 15 },
	};
	if (level >= RG_NLEVELS)
		level = RG_NLEVELS - 1;
	p->max_procs = lv[level].procs;
	p->max_budget = lv[level].budget;
	p->max_seq = lv[level].seq;
	p->max_depth = lv[level].depth;
	p->call_percent = lv[level].call;
	p->entry_percent = 30;
}

/* ------------------------------------------------------------------ */
/* Fragment builder                                                     */
/* ------------------------------------------------------------------ */
struct frag {
	ipp_id entry;	/* receives in-edges: a block or a call vertex */
	ipp_id exit;	/* gets out-edges: a block or a return site */
};

struct builder {
	ipp_graph *g;
	rg_rng *rng;
	const rg_params *prm;
	unsigned nprocs;
	ipp_id proc;		/* procedure being generated */
	int budget;		/* statements still allowed in this body */
	unsigned ncalls;	/* calls generated so far */
};

static ipp_id new_block(struct builder *b)
{
	return ipp_add_block(b->g, b->proc);
}

static void edge(struct builder *b, ipp_id src, ipp_id dst)
{
	ipp_add_edge(b->g, src, dst);
}

static struct frag gen_seq(struct builder *b, unsigned depth);

static struct frag single(struct builder *b)
{
	ipp_id v = new_block(b);
	return (struct frag){ v, v };
}

/* A call statement: entry is the call vertex, exit its return site. */
static struct frag gen_call(struct builder *b)
{
	unsigned k = rg_rng_below(b->rng, 100);
	ipp_id callee;
	unsigned flags = 0;

	if (k < 52) {
		callee = (ipp_id)rg_rng_below(b->rng, b->nprocs);	/* any: recursion too */
	} else if (k < 62) {
		callee = b->proc;					/* direct recursion */
	} else if (k < 70) {
		callee = IPP_NONE;					/* out of the unit */
	} else if (k < 76) {
		callee = IPP_NONE;		/* out of the unit, declared leaf */
		flags |= IPP_CALL_LEAF;
	} else if (k < 88) {
		callee = IPP_NONE;					/* through a pointer */
		flags |= IPP_CALL_INDIRECT;
	} else {
		callee = (ipp_id)rg_rng_below(b->rng, b->nprocs);
		flags |= IPP_CALL_FORCE_SUMMARY;
	}
	/* every third call flagged bare (informational: the events count
	 * it), drawn from no random number, so that the graphs stay the
	 * seeds' */
	if (b->ncalls++ % 3 == 0)
		flags |= IPP_CALL_BARE;
	ipp_id c = ipp_add_call(b->g, b->proc, callee, flags);
	return (struct frag){ c, c + 1 };
}

/* A simple statement: a block or a call. */
static struct frag gen_simple(struct builder *b)
{
	if (rg_rng_chance(b->rng, b->prm->call_percent))
		return gen_call(b);
	return single(b);
}

/* A loop body: a sequence, or a single simple statement when out of depth. */
static struct frag gen_body(struct builder *b, unsigned depth)
{
	if (depth + 1 >= b->prm->max_depth || b->budget <= 0)
		return gen_simple(b);
	return gen_seq(b, depth + 1);
}

static struct frag gen_stmt(struct builder *b, unsigned depth)
{
	b->budget--;
	if (depth >= b->prm->max_depth || b->budget <= 0)
		return gen_simple(b);

	struct frag f, t, u;
	ipp_id c, j, h, x, m, w, y, d;
	unsigned kind = rg_rng_below(b->rng, 20);

	switch (kind) {
	case 0:
	case 1:		/* if-else diamond */
		c = new_block(b);
		t = gen_body(b, depth);
		u = gen_body(b, depth);
		j = new_block(b);
		edge(b, c, t.entry);
		edge(b, c, u.entry);
		edge(b, t.exit, j);
		edge(b, u.exit, j);
		return (struct frag){ c, j };
	case 2:		/* if-then */
		c = new_block(b);
		t = gen_body(b, depth);
		j = new_block(b);
		if (rg_rng_chance(b->rng, 50)) {
			edge(b, c, t.entry);
			edge(b, c, j);
		} else {
			edge(b, c, j);
			edge(b, c, t.entry);
		}
		edge(b, t.exit, j);
		return (struct frag){ c, j };
	case 3:		/* switch: two parallel edges to the join, one case */
		c = new_block(b);
		t = gen_body(b, depth);
		j = new_block(b);
		edge(b, c, j);
		edge(b, c, t.entry);
		edge(b, c, j);
		edge(b, t.exit, j);
		return (struct frag){ c, j };
	case 4:
	case 5:		/* while loop: h -> body -> h, h -> x */
		h = new_block(b);
		t = gen_body(b, depth);
		x = new_block(b);
		if (rg_rng_chance(b->rng, 50)) {
			edge(b, h, t.entry);
			edge(b, h, x);
		} else {
			edge(b, h, x);
			edge(b, h, t.entry);
		}
		edge(b, t.exit, h);
		return (struct frag){ h, x };
	case 6:		/* do-while: body -> latch -> body, latch -> x */
		t = gen_body(b, depth);
		w = new_block(b);
		x = new_block(b);
		edge(b, t.exit, w);
		edge(b, w, t.entry);
		edge(b, w, x);
		return (struct frag){ t.entry, x };
	case 7:		/* loop with break and continue */
		h = new_block(b);
		t = gen_body(b, depth);
		m = new_block(b);
		u = gen_body(b, depth);
		x = new_block(b);
		edge(b, h, t.entry);
		edge(b, h, x);
		edge(b, t.exit, m);
		switch (rg_rng_below(b->rng, 3)) {
		case 0:
			edge(b, m, x);		/* break */
			break;
		case 1:
			edge(b, m, h);		/* continue: a second back edge */
			break;
		default:
			edge(b, m, h);
			edge(b, m, x);
			break;
		}
		edge(b, m, u.entry);
		edge(b, u.exit, h);
		return (struct frag){ h, x };
	case 8:		/* self-loop */
		h = new_block(b);
		x = new_block(b);
		edge(b, h, h);
		edge(b, h, x);
		return (struct frag){ h, x };
	case 9:		/* irreducible: a enters the cycle x <-> y at both points */
		c = new_block(b);
		x = new_block(b);
		y = new_block(b);
		j = new_block(b);
		edge(b, c, x);
		edge(b, c, y);
		t = gen_body(b, depth);
		edge(b, x, t.entry);
		edge(b, t.exit, y);
		edge(b, x, j);
		edge(b, y, x);
		edge(b, y, j);
		return (struct frag){ c, j };
	case 10:	/* dead end: a branch that leaves through GExit_P (exit()) */
		c = new_block(b);
		j = new_block(b);
		if (rg_rng_chance(b->rng, 50)) {
			d = new_block(b);
			edge(b, c, d);
			edge(b, d, ipp_proc_gexit(b->g, b->proc));
		} else {
			edge(b, c, ipp_proc_gexit(b->g, b->proc));
		}
		edge(b, c, j);
		return (struct frag){ c, j };
	case 11:	/* early return */
		c = new_block(b);
		j = new_block(b);
		edge(b, c, j);
		edge(b, c, ipp_proc_exit(b->g, b->proc));
		return (struct frag){ c, j };
	case 12:	/* while (f()) body: the loop header is a call vertex */
		f = gen_call(b);
		t = gen_body(b, depth);
		x = new_block(b);
		edge(b, f.exit, t.entry);
		edge(b, f.exit, x);
		edge(b, t.exit, f.entry);
		return (struct frag){ f.entry, x };
	case 13:	/* loop whose latch has two parallel back edges */
		h = new_block(b);
		t = gen_body(b, depth);
		x = new_block(b);
		edge(b, h, t.entry);
		edge(b, h, x);
		edge(b, t.exit, h);
		edge(b, t.exit, h);
		return (struct frag){ h, x };
	case 14:	/* call to a noreturn procedure on one branch */
		c = new_block(b);
		f = gen_call(b);
		j = new_block(b);
		ipp_set_call_flags(b->g, f.entry, ipp_call_flags(b->g, f.entry) | IPP_CALL_NORETURN);
		edge(b, c, f.entry);
		edge(b, c, j);
		edge(b, f.exit, ipp_proc_gexit(b->g, b->proc));
		return (struct frag){ c, j };
	default:	/* simple statements are the most common */
		return gen_simple(b);
	}
}

static struct frag gen_seq(struct builder *b, unsigned depth)
{
	unsigned n = 1 + rg_rng_below(b->rng, b->prm->max_seq);
	struct frag first = gen_stmt(b, depth);
	struct frag cur = first;
	for (unsigned i = 1; i < n && b->budget > 0; i++) {
		struct frag next = gen_stmt(b, depth);
		edge(b, cur.exit, next.entry);
		cur = next;
	}
	return (struct frag){ first.entry, cur.exit };
}

ipp_graph *rg_random(uint64_t seed, const rg_params *p)
{
	rg_rng rng;
	rg_rng_seed(&rng, seed);
	ipp_graph *g = ipp_graph_new();
	unsigned nprocs = 1 + rg_rng_below(&rng, p->max_procs);
	char name[32];

	/* All procedures first, so that calls can name any of them. */
	for (unsigned i = 0; i < nprocs; i++) {
		unsigned flags = 0;
		if (i == 0 || rg_rng_chance(&rng, p->entry_percent))
			flags |= IPP_PROC_ENTRY;
		snprintf(name, sizeof name, "p%u", i);
		ipp_add_proc(g, name, name, flags);
	}
	for (unsigned i = 0; i < nprocs; i++) {
		struct builder b = {
			.g = g, .rng = &rng, .prm = p, .nprocs = nprocs,
			.proc = (ipp_id)i,
			.budget = 1 + (int)rg_rng_below(&rng, p->max_budget),
		};
		struct frag body = gen_seq(&b, 0);
		edge(&b, ipp_proc_entry(g, b.proc), body.entry);
		edge(&b, body.exit, ipp_proc_exit(g, b.proc));
	}
	return g;
}

/* ------------------------------------------------------------------ */
/* Fixed shapes                                                         */
/* ------------------------------------------------------------------ */

ipp_id rg_append_diamonds(ipp_graph *g, ipp_id p, ipp_id from, unsigned n)
{
	ipp_id top = ipp_add_block(g, p);
	ipp_add_edge(g, from, top);
	for (unsigned i = 0; i < n; i++) {
		ipp_id l = ipp_add_block(g, p);
		ipp_id r = ipp_add_block(g, p);
		ipp_id j = ipp_add_block(g, p);
		ipp_add_edge(g, top, l);
		ipp_add_edge(g, top, r);
		ipp_add_edge(g, l, j);
		ipp_add_edge(g, r, j);
		top = j;
	}
	return top;
}

ipp_graph *rg_diamond_chain(unsigned n)
{
	ipp_graph *g = ipp_graph_new();
	ipp_id m = ipp_add_proc(g, "main", "main", IPP_PROC_ENTRY);
	ipp_id last = rg_append_diamonds(g, m, ipp_proc_entry(g, m), n);
	ipp_add_edge(g, last, ipp_proc_exit(g, m));
	return g;
}

ipp_graph *rg_diamond_chain_calls(unsigned n, unsigned ncalls)
{
	ipp_graph *g = ipp_graph_new();
	ipp_id m = ipp_add_proc(g, "main", "main", IPP_PROC_ENTRY);
	ipp_id f = ipp_add_proc(g, "f", "f", 0);

	ipp_id prev = ipp_add_block(g, m);
	ipp_add_edge(g, ipp_proc_entry(g, m), prev);
	for (unsigned i = 0; i < ncalls; i++) {
		ipp_id c = ipp_add_call(g, m, f, 0);
		ipp_add_edge(g, prev, c);
		prev = c + 1;
	}
	ipp_add_edge(g, prev, ipp_proc_exit(g, m));

	ipp_id last = rg_append_diamonds(g, f, ipp_proc_entry(g, f), n);
	ipp_add_edge(g, last, ipp_proc_exit(g, f));
	return g;
}

ipp_graph *rg_recursion_zoo(void)
{
	ipp_graph *g = ipp_graph_new();
	ipp_id m = ipp_add_proc(g, "main", "main", IPP_PROC_ENTRY);
	ipp_id f = ipp_add_proc(g, "f", "f", 0);
	ipp_id gg = ipp_add_proc(g, "g", "g", 0);
	ipp_id h = ipp_add_proc(g, "h", "h", 0);

	/* main: b0 -> call f -> Exit */
	ipp_id b0 = ipp_add_block(g, m);
	ipp_add_edge(g, ipp_proc_entry(g, m), b0);
	ipp_id c = ipp_add_call(g, m, f, 0);
	ipp_add_edge(g, b0, c);
	ipp_add_edge(g, c + 1, ipp_proc_exit(g, m));

	/* f: hdr -> (body: call f; call g) -> hdr; hdr -> Exit */
	ipp_id hdr = ipp_add_block(g, f);
	ipp_add_edge(g, ipp_proc_entry(g, f), hdr);
	ipp_id cf = ipp_add_call(g, f, f, 0);
	ipp_id cg = ipp_add_call(g, f, gg, 0);
	ipp_add_edge(g, hdr, cf);
	ipp_add_edge(g, hdr, ipp_proc_exit(g, f));
	ipp_add_edge(g, cf + 1, cg);
	ipp_add_edge(g, cg + 1, hdr);

	/* g: b -> (call h | skip) -> Exit */
	ipp_id gb = ipp_add_block(g, gg);
	ipp_add_edge(g, ipp_proc_entry(g, gg), gb);
	ipp_id ch = ipp_add_call(g, gg, h, 0);
	ipp_id gj = ipp_add_block(g, gg);
	ipp_add_edge(g, gb, ch);
	ipp_add_edge(g, gb, gj);
	ipp_add_edge(g, ch + 1, gj);
	ipp_add_edge(g, gj, ipp_proc_exit(g, gg));

	/* h: b -> call g -> Exit */
	ipp_id hb = ipp_add_block(g, h);
	ipp_add_edge(g, ipp_proc_entry(g, h), hb);
	ipp_id cg2 = ipp_add_call(g, h, gg, 0);
	ipp_add_edge(g, hb, cg2);
	ipp_add_edge(g, cg2 + 1, ipp_proc_exit(g, h));
	return g;
}
