/* cmd_callgraph.c -- `ipp callgraph PROGRAM [PROFILE]`: gprof's flat
 * profile and call graph with exact counts, and the exact per-caller split
 * of each routine's cost (callgraph.h builds the model; this file writes it
 * in gprof -b's layout, so that tools and eyes used to gprof read it).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callgraph.h"

static void callgraph_usage(FILE *f)
{
	fprintf(f,
		"Usage: ipp callgraph [OPTIONS] PROGRAM [LIBRARY...] [PROFILE]\n"
		"\n"
		"Prints gprof's flat profile and call graph of PROGRAM from the paths in\n"
		"PROFILE (default: " DEFAULT_PROFILE "), with exact counts: the cost unit is\n"
		"one basic block executed, calls are counted per routine and per caller/\n"
		"callee pair, and recursive cycles are collapsed as gprof does.  The\n"
		"children columns keep gprof's assumption that every call of a routine\n"
		"costs the same; the last section gives, from the context-sensitive\n"
		"paths, the exact cost of each routine's calls per caller where that\n"
		"assumption is wrong.\n"
		"\n"
		"Options:\n"
		"  -a, --all            the per-caller split of every routine with callers\n"
		"  -o, --output=FILE    write to FILE instead of standard output\n"
		"  -h, --help           show this help and exit\n"
		"\n"
		"Exit status: 0 on success, 1 on error, 2 on a usage error.\n");
}

static double pct(const struct callgraph *cg, double v)
{
	return cg->total_self > 0 ? 100.0 * v / (double)cg->total_self : 0.0;
}

/* ------------------------------------------------------------------ */
/* Flat profile                                                         */
/* ------------------------------------------------------------------ */

static const struct callgraph *flat_cg;	/* qsort's context for flat_cmp */

static int flat_cmp(const void *x, const void *y)
{
	const struct callgraph *cg = flat_cg;
	const struct cg_node *a = &cg->nodes[*(const size_t *)x], *b = &cg->nodes[*(const size_t *)y];
	if (a->self != b->self)
		return a->self > b->self ? -1 : 1;
	if (a->entries != b->entries)
		return a->entries > b->entries ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void write_flat(FILE *out, const struct callgraph *cg, size_t *order)
{
	uint64_t cum = 0;

	for (size_t i = 0; i < cg->nnodes; i++)
		order[i] = i;
	flat_cg = cg;
	qsort(order, cg->nnodes, sizeof(*order), flat_cmp);
	fprintf(out,
		"Flat profile:\n"
		"\n"
		"Each unit of cost is one basic block executed, counted exactly from the\n"
		"paths.  'total' adds the children's cost as gprof shares it (every call\n"
		"of a routine costing the same).\n"
		"\n"
		"  %%   cumulative         self              self     total\n"
		" cost      blocks       blocks      calls  blk/call  blk/call  name\n");
	for (size_t i = 0; i < cg->nnodes; i++) {
		const struct cg_node *n = &cg->nodes[order[i]];
		if (n->self == 0 && n->entries == 0)
			continue;
		cum = cum > UINT64_MAX - n->self ? UINT64_MAX : cum + n->self;
		fprintf(out, "%6.2f %11" PRIu64 " %12" PRIu64 " %10" PRIu64, pct(cg, (double)n->self),
			cum, n->self, n->entries);
		if (n->entries > 0)
			fprintf(out, " %9.2f %9.2f", (double)n->self / (double)n->entries,
				((double)n->self + n->child) / (double)n->entries);
		else
			fprintf(out, " %9s %9s", "", "");
		fprintf(out, "  %s\n", n->name);
	}
}

/* ------------------------------------------------------------------ */
/* Call graph                                                           */
/* ------------------------------------------------------------------ */

/* An entry of the call graph: a routine, or a cycle as a whole. */
struct entry {
	bool cycle;
	size_t id;		/* node, or component */
	double total;
	uint64_t calls;
};

static int entry_cmp(const void *x, const void *y)
{
	const struct entry *a = x, *b = y;
	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	if (a->cycle != b->cycle)
		return a->cycle ? -1 : 1;
	return (a->id > b->id) - (a->id < b->id);
}

static void name_of(FILE *out, const struct callgraph *cg, size_t v)
{
	const struct cg_node *n = &cg->nodes[v];
	const struct cg_comp *c = &cg->comps[n->comp];
	fputs(n->name, out);
	if (c->cycle)
		fprintf(out, " <cycle %d>", c->cycle);
	fprintf(out, " [%zu]\n", n->index);
}

/* calls into v from outside its component */
static uint64_t calls_from_outside(const struct callgraph *cg, size_t v)
{
	uint64_t n = 0;
	for (size_t k = 0; k < cg->narcs; k++)
		if (cg->arcs[k].to == v && cg->nodes[cg->arcs[k].from].comp != cg->nodes[v].comp)
			n += cg->arcs[k].calls;
	return n;
}

/* A parent or child line of routine 'self': the arc a, the other end v. */
static void arc_line(FILE *out, const struct callgraph *cg, const struct cg_arc *a, size_t v,
		     size_t callee)
{
	bool inside = a->from == a->to ||
		      cg->nodes[a->from].comp == cg->nodes[a->to].comp;
	if (inside) {
		fprintf(out, "%25s %10" PRIu64 "%-10s  ", "", a->calls, "");
	} else {
		char calls[64];
		snprintf(calls, sizeof(calls), "%" PRIu64 "/%" PRIu64, a->calls,
			 calls_from_outside(cg, callee));
		fprintf(out, "%12.2f %12.2f %-21s ", a->prop_self, a->prop_child, calls);
	}
	fprintf(out, "    ");
	name_of(out, cg, v);
}

static void write_routine(FILE *out, const struct callgraph *cg, size_t v)
{
	const struct cg_node *n = &cg->nodes[v];
	const struct cg_comp *c = &cg->comps[n->comp];
	bool parents = false;
	char called[64], idx[32];

	for (size_t k = 0; k < cg->narcs; k++)
		if (cg->arcs[k].to == v) {
			arc_line(out, cg, &cg->arcs[k], cg->arcs[k].from, v);
			parents = true;
		}
	if (!parents)
		fprintf(out, "%52s<spontaneous>\n", "");
	if (n->self_calls > 0)
		snprintf(called, sizeof(called), "%" PRIu64 "+%" PRIu64, n->calls, n->self_calls);
	else
		snprintf(called, sizeof(called), "%" PRIu64, n->calls);
	snprintf(idx, sizeof(idx), "[%zu]", n->index);
	fprintf(out, "%-6s %6.1f %12" PRIu64 " %12.2f %-21s ", idx,
		pct(cg, (double)n->self + n->child), n->self, n->child, called);
	fputs(n->name, out);
	if (c->cycle)
		fprintf(out, " <cycle %d>", c->cycle);
	fprintf(out, " [%zu]\n", n->index);
	for (size_t k = 0; k < cg->narcs; k++)
		if (cg->arcs[k].from == v)
			arc_line(out, cg, &cg->arcs[k], cg->arcs[k].to, cg->arcs[k].to);
	fprintf(out, "-----------------------------------------------\n");
}

static void write_cycle(FILE *out, const struct callgraph *cg, size_t ci)
{
	const struct cg_comp *c = &cg->comps[ci];
	char called[64], idx[32];

	snprintf(called, sizeof(called), "%" PRIu64 "+%" PRIu64, c->calls_in, c->calls_inside);
	snprintf(idx, sizeof(idx), "[%zu]", c->index);
	fprintf(out, "%-6s %6.1f %12" PRIu64 " %12.2f %-21s <cycle %d as a whole> [%zu]\n", idx,
		pct(cg, (double)c->self + c->child), c->self, c->child, called, c->cycle, c->index);
	for (size_t m = 0; m < c->nmembers; m++) {
		const struct cg_node *n = &cg->nodes[c->members[m]];
		fprintf(out, "%19" PRIu64 " %12.2f %-21" PRIu64 "     ", n->self, n->child,
			n->calls + n->self_calls);
		name_of(out, cg, c->members[m]);
	}
	fprintf(out, "-----------------------------------------------\n");
}

static void write_graph(FILE *out, struct callgraph *cg)
{
	struct entry *e = xcalloc(cg->nnodes + cg->ncomps + 1, sizeof(*e));
	size_t n = 0;

	for (size_t v = 0; v < cg->nnodes; v++) {
		const struct cg_node *x = &cg->nodes[v];
		if (x->self == 0 && x->entries == 0)
			continue;
		e[n++] = (struct entry){ false, v, (double)x->self + x->child, x->calls };
	}
	for (size_t i = 0; i < cg->ncomps; i++)
		if (cg->comps[i].cycle)
			e[n++] = (struct entry){ true, i,
				(double)cg->comps[i].self + cg->comps[i].child,
				cg->comps[i].calls_in + cg->comps[i].calls_inside };
	qsort(e, n, sizeof(*e), entry_cmp);
	for (size_t i = 0; i < n; i++) {
		if (e[i].cycle)
			cg->comps[e[i].id].index = i + 1;
		else
			cg->nodes[e[i].id].index = i + 1;
	}
	fprintf(out,
		"\n"
		"\t\t\tCall graph\n"
		"\n"
		"\n"
		"cost: basic blocks executed (exact); children: gprof's shares\n"
		"\n"
		"index  %% cost         self     children    called                name\n");
	for (size_t i = 0; i < n; i++) {
		if (e[i].cycle)
			write_cycle(out, cg, e[i].id);
		else
			write_routine(out, cg, e[i].id);
	}
	free(e);
}

/* ------------------------------------------------------------------ */
/* The exact split                                                      */
/* ------------------------------------------------------------------ */

/* Does the routine's cost per call differ between its callers? */
static bool costs_differ(const struct callgraph *cg, size_t v)
{
	const struct cg_arc *first = NULL;
	for (size_t k = 0; k < cg->narcs; k++) {
		const struct cg_arc *a = &cg->arcs[k];
		if (a->to != v || !a->exact || a->calls == 0)
			continue;
		if (first == NULL)
			first = a;
		else if ((double)a->self / (double)a->calls !=
			 (double)first->self / (double)first->calls)
			return true;
	}
	return false;
}

static void write_split(FILE *out, const struct callgraph *cg, bool all)
{
	size_t shown = 0;

	fprintf(out,
		"\n"
		"\t\tCost per caller, exact\n"
		"\n"
		"gprof charges a routine's cost to its callers in proportion to their\n"
		"calls.  The paths give each caller's share exactly: 'self' counts the\n"
		"routine's own blocks executed in the calls from that caller, 'with\n"
		"callees' adds the blocks of the callees the paths follow from them\n"
		"(calls into other units, through pointers or recursive calls start\n"
		"paths of their own and are left out).  '?': the paths cannot tell\n"
		"which of several callers made a call that starts a path of its own.\n");
	for (size_t v = 0; v < cg->nnodes; v++) {
		const struct cg_node *n = &cg->nodes[v];
		uint64_t outside = calls_from_outside(cg, v);
		if (n->entries == 0 || (!all && !costs_differ(cg, v)))
			continue;
		shown++;
		fprintf(out, "\n%s: %" PRIu64 " calls, %" PRIu64 " blocks\n", n->name, n->entries,
			n->self);
		fprintf(out, "  %10s %12s %12s %12s %14s  %s\n", "calls", "self", "self/call",
			"gprof's self", "with callees", "caller");
		for (size_t k = 0; k < cg->narcs; k++) {
			const struct cg_arc *a = &cg->arcs[k];
			double share;
			if (a->to != v)
				continue;
			share = outside > 0 && cg->nodes[a->from].comp != n->comp ?
				(double)n->self * (double)a->calls / (double)outside : 0.0;
			if (a->exact)
				fprintf(out, "  %10" PRIu64 " %12" PRIu64 " %12.2f %12.2f %14" PRIu64
					"  %s\n", a->calls, a->self,
					(double)a->self / (double)a->calls, share, a->total,
					cg->nodes[a->from].name);
			else
				fprintf(out, "  %10" PRIu64 " %12s %12s %12.2f %14s  %s\n", a->calls,
					"?", "?", share, "?", cg->nodes[a->from].name);
		}
		if (n->spontaneous > 0)
			fprintf(out, "  %10" PRIu64 " %12" PRIu64 " %12s %12s %14" PRIu64
				"  <spontaneous>\n", n->spontaneous, n->fresh_self, "", "",
				n->fresh_total);
	}
	if (shown == 0)
		fprintf(out, "\nEvery routine's calls cost the same from each caller.\n");
}

void callgraph_write(FILE *out, const struct callgraph *cg, bool all)
{
	size_t *order = xcalloc(cg->nnodes + 1, sizeof(*order));
	write_flat(out, cg, order);
	write_graph(out, (struct callgraph *)cg);
	write_split(out, cg, all);
	if (cg->outside_calls > 0)
		fprintf(out, "\n%" PRIu64 " calls to functions outside the program's instrumented "
			"units (libraries, units built without ipp) are not in the graph.\n",
			cg->outside_calls);
	free(order);
}

int cmd_callgraph(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd = argv[0], *output = NULL;
	struct derived d;
	struct operands ops;
	struct callgraph cg;
	bool all = false;
	int c, status;
	FILE *out;

	while ((c = getopt_long(argc, argv, "ao:h", longopts, NULL)) != -1) {
		if (c == 'a') {
			all = true;
			continue;
		}
		status = cli_common_option(c, cmd, callgraph_usage, NULL, &output);
		if (status != CLI_CONTINUE)
			return status;
	}
	status = cli_operands(argc, argv, cmd, callgraph_usage, &ops);
	if (status != CLI_CONTINUE)
		return status;
	status = derived_load(&d, &ops, DL_EVERY_MAP | DL_DERIVE_EMPTY | DL_RECORDS);
	cli_operands_free(&ops);
	if (status < 0)
		return EXIT_FAILURE;
	status = EXIT_FAILURE;
	if (callgraph_build(&cg, &d) == 0) {
		out = open_output(output);
		if (out != NULL) {
			callgraph_write(out, &cg, all);
			status = close_output(out, output);
		}
		callgraph_free(&cg);
	}
	derived_free(&d);
	return status;
}
