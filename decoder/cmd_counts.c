/* cmd_counts.c -- `ipp counts PROGRAM [PROFILE]`: what gcov and gprof would
 * have counted, derived exactly from the path profile (ippcore/ipp_derive.h,
 * docs/DERIVE.md): function entries (--functions, the default), call counts
 * per site and per caller/callee pair (--calls; the callees of indirect
 * calls as the runtime counted them, docs/PROTOCOL.md rule 7), line
 * counts (--lines), every vertex's count (--vertices), the run-time events
 * of the inserted code (--events, ipp_events_derive: bench/README's
 * per-event table), or the flow-conservation check (--check, the same as
 * `ipp check`: cmd_check.c).
 *
 * The profile is matched to the program exactly as `ipp report` matches it
 * (report_from_profile(), which also checks every record); then every
 * matched unit is derived with ipp_derive() (derived_load(), cli.c).  Units
 * the profile does not hold (they never ran) count 0 everywhere.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "ipp_derive.h"
#include "program.h"
#include "report.h"
#include "writers.h"

enum what { WHAT_FUNCTIONS, WHAT_CALLS, WHAT_LINES, WHAT_CHECK, WHAT_VERTICES, WHAT_EVENTS };

/* --events: the limits the plugin and the runtime share (IPP_ARRAY_MAX,
 * IPP_ROW_MAX), from the ABI's own header. */
#define IPP_ABI_TYPES_ONLY
#include "../runtime/ipp_abi.h"

static void counts_usage(FILE *f)
{
	fprintf(f,
		"Usage: ipp counts [OPTIONS] PROGRAM [LIBRARY...] [PROFILE]\n"
		"\n"
		"Prints the counts a gcov or gprof build would have reported, derived\n"
		"exactly from the paths recorded in PROFILE (default: " DEFAULT_PROFILE "):\n"
		"only the part of each path executed since its last restart is counted\n"
		"(docs/DERIVE.md).  PROGRAM, its LIBRARY files (shared objects built with\n"
		"ipp-gcc; its DT_NEEDED ones are found) and PROFILE are matched as by\n"
		"'ipp report'.\n"
		"\n"
		"What to print (one of):\n"
		"  -F, --functions      one line per instrumented function: FUNCTION ENTRIES\n"
		"                       (times it was entered), in source order (default)\n"
		"  -C, --calls          per call site: CALLER -> CALLEE COUNT FILE:LINE;\n"
		"                       CALLEE is (indirect) for a call through a pointer\n"
		"                       ((external) if a map from before ipp named every\n"
		"                       callee does not name it); then per indirect call\n"
		"                       site and callee (context mode): CALLER -> CALLEE\n"
		"                       COUNT FILE:LINE; then per caller/callee pair of\n"
		"                       the unit, instrumented callee or not: CALLER ->\n"
		"                       CALLEE COUNT, summed over sites\n"
		"  -L, --lines          FILE:LINE COUNT: per line, the largest count of a\n"
		"                       basic block starting there (an approximation of\n"
		"                       gcov's line counts, docs/DERIVE.md section 3)\n"
		"  -V, --vertices       per vertex of every instrumented function (basic\n"
		"                       block, call, return site, entry, exit, dead end):\n"
		"                       VERTEX KIND FUNCTION FILE:LINE COUNT (exact counts;\n"
		"                       the vertex ids of 'ipp map')\n"
		"  -E, --events         the run-time events of the inserted code, summed\n"
		"                       over the units that ran: EVENT COUNT (activations\n"
		"                       fresh and continuing, frames, records by site, by\n"
		"                       route and by region size, increments, multiplies,\n"
		"                       calls by kind; docs/PROTOCOL.md, \"Events\")\n"
		"  -k, --check          the same as 'ipp check PROGRAM PROFILE': flow\n"
		"                       conservation (Kirchhoff's law) at every vertex;\n"
		"                       prints the violations and exits 1 if there are any\n"
		"\n"
		"Options:\n"
		"  -f, --format=FORMAT  text (default), yaml or json (counts as strings)\n"
		"  -o, --output=FILE    write to FILE instead of standard output\n"
		"  -h, --help           show this help and exit\n"
		"\n"
		"Text output: when PROGRAM has more than one unit, each unit's lines\n"
		"follow a line '# module NAME' (--events: the sum only).\n"
		"\n"
		"Exit status: 0 on success, 1 on error (or a flow violation with --check),\n"
		"2 on a usage error.\n");
}

static uint64_t vcount(const struct unit *u, ipp_id v)
{
	return u->ran && u->c.vertex != NULL ? u->c.vertex[v] : 0;
}

/* --vertices: the vertices of instrumented procedures that are program
 * points (every kind but GEntry_P, which never executes). */
static bool shown_vertex(const ipp_graph *g, ipp_id v)
{
	ipp_id p = ipp_vertex_proc(g, v);
	return p != IPP_NONE && !(ipp_proc_flags(g, p) & IPP_PROC_SKIPPED) &&
	       ipp_vertex_kind(g, v) != IPP_V_GENTRY;
}

static void add_sat(uint64_t *acc, uint64_t v)
{
	*acc = *acc > UINT64_MAX - v ? UINT64_MAX : *acc + v;
}

void fn_counts_init(const struct unit *u, struct fn_counts *f)
{
	size_t np = ipp_graph_nprocs(u->g);
	f->origin = xcalloc(np + 1, sizeof(*f->origin));
	f->entries = xcalloc(np + 1, sizeof(*f->entries));
	f->returns = xcalloc(np + 1, sizeof(*f->returns));
	ipp_proc_origins(u->g, f->origin);
	for (size_t p = 0; p < np; p++) {
		if (ipp_proc_flags(u->g, (ipp_id)p) & IPP_PROC_SKIPPED)
			continue;
		add_sat(&f->entries[f->origin[p]], vcount(u, ipp_proc_entry(u->g, (ipp_id)p)));
		add_sat(&f->returns[f->origin[p]], vcount(u, ipp_proc_exit(u->g, (ipp_id)p)));
	}
}

void fn_counts_free(struct fn_counts *f)
{
	free(f->origin);
	free(f->entries);
	free(f->returns);
}

/* Is p listed as a function (fn_counts)? */
static bool listed_fn(const ipp_graph *g, const struct fn_counts *f, ipp_id p)
{
	return f->origin[p] == p && !(ipp_proc_flags(g, p) & IPP_PROC_SKIPPED);
}

/* ------------------------------------------------------------------ */
/* --calls: per site and per pair                                       */
/* ------------------------------------------------------------------ */

/* The indirect call arcs of one unit (ipp_counts_icalls), callees named. */
struct icalls {
	ipp_icall_count *ic;
	struct callee *callee;	/* [n] */
	size_t n;
};

/* Unit i's indirect call arcs; none if it did not run.  A callee is looked
 * up in the program's units by (module, checksum), then by assembler name
 * (its Entry region's name). */
static void unit_icalls(const struct derived *d, size_t i, struct icalls *out)
{
	const ipp_prof_module *pm = d->r.mods[i].pm;
	memset(out, 0, sizeof(*out));
	if (pm == NULL)
		return;
	out->n = ipp_counts_icalls(d->units[i].m->fin, pm, &out->ic);
	out->callee = xcalloc(out->n ? out->n : 1, sizeof(out->callee[0]));
	for (size_t k = 0; k < out->n; k++) {
		const ipp_icall_count *c = &out->ic[k];
		struct callee *ce = &out->callee[k];
		long j = program_find(&d->prog, c->callee_module, c->callee_checksum);
		const ipp_graph *cg = j >= 0 ? d->prog.mods[j].map->graph : NULL;
		ipp_id p = cg ? ipp_proc_find(cg, c->callee_region) : IPP_NONE;
		ce->name = p != IPP_NONE ? ipp_proc_name(cg, p) : c->callee_region;
		ce->asm_name = c->callee_region;
		ce->module = c->callee_module;
		ce->checksum = c->callee_checksum;
	}
}

static void icalls_free(struct icalls *ia)
{
	free(ia->ic);
	free(ia->callee);
}

/* The callee of direct call site cc of unit u, if the map names it: the
 * procedure it enters, else the function the call names
 * (ipp_call_target_asm), looked up by its assembler name in u (a function
 * ipp did not instrument) and then among the externally callable
 * procedures (IPP_PROC_ENTRY) of the program's other units: if exactly one
 * defines it, that unit is the callee's; else the unit is unknown (a
 * library function, a unit built without ipp, or an ambiguous name).
 * Returns false for an indirect or unnamed call. */
static bool direct_callee(const struct program *prog, const struct unit *u,
			  const ipp_call_count *cc, struct callee *out)
{
	const struct prog_module *home = NULL;
	ipp_id q = IPP_NONE;

	if (cc->callee_asm == NULL)
		return false;
	out->asm_name = cc->callee_asm;
	out->name = cc->callee_name;
	if (ipp_proc_find(u->g, cc->callee_asm) != IPP_NONE) {
		home = u->m;
	} else {
		for (size_t j = 0; j < prog->nmods; j++) {
			const ipp_graph *g = prog->mods[j].map->graph;
			ipp_id p = ipp_proc_find(g, cc->callee_asm);
			if (&prog->mods[j] == u->m || p == IPP_NONE ||
			    !(ipp_proc_flags(g, p) & IPP_PROC_ENTRY))
				continue;
			if (home != NULL) {	/* two candidates: unknown */
				home = NULL;
				break;
			}
			home = &prog->mods[j];
			q = p;
		}
		if (home != NULL)
			out->name = ipp_proc_name(home->map->graph, q);
	}
	out->module = home != NULL ? home->map->module : NULL;
	out->checksum = home != NULL ? home->map->checksum : 0;
	return true;
}

static bool same_module(const char *a, const char *b)
{
	return a == NULL || b == NULL ? a == b : strcmp(a, b) == 0;
}

/* Adds calls to the arc caller -> callee of a[0 .. *na-1], appended if new. */
static void add_arc(struct arc **a, size_t *na, size_t *cap, ipp_id caller,
		    const struct callee *callee, uint64_t calls)
{
	size_t k;
	for (k = 0; k < *na; k++)
		if ((*a)[k].caller == caller && (*a)[k].callee.checksum == callee->checksum &&
		    strcmp((*a)[k].callee.asm_name, callee->asm_name) == 0 &&
		    same_module((*a)[k].callee.module, callee->module))
			break;
	if (k == *na) {
		GROW(*a, *na, *cap);
		(*a)[k].caller = caller;
		(*a)[k].callee = *callee;
		(*a)[k].calls = 0;
		(*na)++;
	}
	add_sat(&(*a)[k].calls, calls);
}

/* The arcs of unit u, summed per (caller, callee), in order of first
 * appearance: the direct ones from its call sites (to every function the
 * map names, instrumented or not, in the unit or not), then the indirect
 * ones the runtime counted. */
static size_t sum_arcs(const struct program *prog, const struct unit *u,
		       const ipp_call_count *cc, size_t n, const struct icalls *ia,
		       struct arc **out)
{
	struct arc *a = NULL;
	size_t na = 0, cap = 0;
	ipp_id *origin = xcalloc(ipp_graph_nprocs(u->g) + 1, sizeof(*origin));

	ipp_proc_origins(u->g, origin);
	for (size_t i = 0; i < n; i++) {
		struct callee ce;
		if (!direct_callee(prog, u, &cc[i], &ce))
			continue;
		/* into an inlined copy: an arc to the function it copies */
		if (cc[i].callee != IPP_NONE && origin[cc[i].callee] != cc[i].callee)
			ce.asm_name = ipp_proc_asm(u->g, origin[cc[i].callee]);
		add_arc(&a, &na, &cap, origin[cc[i].caller], &ce, cc[i].calls);
	}
	for (size_t i = 0; i < ia->n; i++)
		add_arc(&a, &na, &cap, origin[ia->ic[i].caller], &ia->callee[i], ia->ic[i].calls);
	free(origin);
	*out = a;
	return na;
}

static const char *callee_name(const ipp_call_count *cc)
{
	if (cc->callee_name != NULL)
		return cc->callee_name;
	return cc->indirect ? "(indirect)" : "(external)";
}

/* Why call site c is summarized, from the map's list (the unit that did
 * not run is not renumbered; the list is what ipp_map_fin checks). */
static enum ipp_summary_why map_summary(const ipp_map *m, ipp_id c)
{
	for (size_t i = 0; i < m->nsummaries; i++)
		if (m->summaries[i].call == c)
			return m->summaries[i].why;
	return IPP_SUM_NONE;
}

/* Call sites of a unit that did not run: every count 0. */
static size_t unit_calls(const struct unit *u, ipp_call_count **out)
{
	if (u->ran)
		return ipp_counts_calls(u->m->fin, &u->c, out);

	ipp_call_count *cc = NULL;
	size_t n = 0, cap = 0;
	for (size_t v = 0; v < ipp_graph_nvertices(u->g); v++) {
		if (ipp_vertex_kind(u->g, (ipp_id)v) != IPP_V_CALL)
			continue;
		GROW(cc, n, cap);
		memset(&cc[n], 0, sizeof(cc[n]));
		cc[n].site = (ipp_id)v;
		cc[n].caller = ipp_vertex_proc(u->g, (ipp_id)v);
		cc[n].callee = ipp_call_callee(u->g, (ipp_id)v);
		cc[n].callee_asm = ipp_call_target_asm(u->g, (ipp_id)v);
		cc[n].callee_name = ipp_call_target_name(u->g, (ipp_id)v);
		cc[n].indirect = (ipp_call_flags(u->g, (ipp_id)v) & IPP_CALL_INDIRECT) != 0;
		cc[n].why = map_summary(u->m->map, (ipp_id)v);
		n++;
	}
	*out = cc;
	return n;
}

/* ------------------------------------------------------------------ */
/* --events                                                             */
/* ------------------------------------------------------------------ */

/* The events of unit i (all 0 if it did not run).  Returns -1 after a
 * message if they cannot be derived (a mode without events). */
static int unit_events(const struct derived *d, size_t i, ipp_events *ev)
{
	static const ipp_events_limits lim = { IPP_ARRAY_MAX, IPP_ROW_MAX };
	const struct unit *u = &d->units[i];
	char err[256];
	memset(ev, 0, sizeof(*ev));
	/* a unit whose profile module holds no record is not renumbered
	 * (fin NULL): its events are all 0 */
	if (!u->ran || u->m->fin == NULL)
		return 0;
	if (ipp_events_derive(u->m->fin, d->r.mods[i].pm, &lim, ev, err, sizeof(err)) < 0) {
		cli_error("%s: %s", u->m->map->module, err);
		return -1;
	}
	return 0;
}

static void text_events(FILE *out, const ipp_events *ev)
{
#define IPP_EVENT_PRINT(name, what) fprintf(out, "%s %" PRIu64 "\n", #name, ev->name);
	IPP_EVENT_FIELDS(IPP_EVENT_PRINT)
#undef IPP_EVENT_PRINT
	if (ev->saturated)
		fprintf(out, "# saturated: some counts reached 2^64 - 1\n");
}

/* ------------------------------------------------------------------ */
/* Text                                                                 */
/* ------------------------------------------------------------------ */

static void text_unit(FILE *out, enum what what, const struct program *prog,
		      const struct unit *u, const struct icalls *ia, bool header)
{
	const ipp_graph *g = u->g;

	if (header)
		fprintf(out, "# module %s\n", u->m->map->module);
	if (what == WHAT_FUNCTIONS) {
		struct fn_counts f;
		fn_counts_init(u, &f);
		for (size_t p = 0; p < ipp_graph_nprocs(g); p++)
			if (listed_fn(g, &f, (ipp_id)p))
				fprintf(out, "%s %" PRIu64 "\n", ipp_proc_name(g, (ipp_id)p),
					f.entries[p]);
		fn_counts_free(&f);
	} else if (what == WHAT_CALLS) {
		ipp_call_count *cc;
		struct arc *a;
		size_t n = unit_calls(u, &cc), na = sum_arcs(prog, u, cc, n, ia, &a);

		fprintf(out, "# call sites\n");
		for (size_t i = 0; i < n; i++) {
			const char *file = ipp_vertex_file(g, cc[i].site);
			fprintf(out, "%s -> %s %" PRIu64 " %s:%d\n", ipp_proc_name(g, cc[i].caller),
				callee_name(&cc[i]), cc[i].calls, file ? file : "?",
				ipp_vertex_line(g, cc[i].site));
		}
		fprintf(out, "# indirect calls\n");
		for (size_t i = 0; i < ia->n; i++) {
			const char *file = ipp_vertex_file(g, ia->ic[i].site);
			fprintf(out, "%s -> %s %" PRIu64 " %s:%d\n",
				ipp_proc_name(g, ia->ic[i].caller), ia->callee[i].name,
				ia->ic[i].calls, file ? file : "?", ipp_vertex_line(g, ia->ic[i].site));
		}
		fprintf(out, "# arcs\n");
		for (size_t k = 0; k < na; k++)
			fprintf(out, "%s -> %s %" PRIu64 "\n", ipp_proc_name(g, a[k].caller),
				a[k].callee.name, a[k].calls);
		free(cc);
		free(a);
	} else if (what == WHAT_LINES && u->ran) {
		ipp_line_count *lc;
		size_t n = ipp_counts_lines(u->m->fin, &u->c, &lc);
		for (size_t i = 0; i < n; i++)
			fprintf(out, "%s:%d %" PRIu64 "\n", lc[i].file ? lc[i].file : "?",
				lc[i].line, lc[i].count);
		free(lc);
	} else if (what == WHAT_VERTICES) {
		for (size_t v = 0; v < ipp_graph_nvertices(g); v++) {
			const char *file = ipp_vertex_file(g, (ipp_id)v);
			if (!shown_vertex(g, (ipp_id)v))
				continue;
			fprintf(out, "%zu %s %s %s:%d %" PRIu64 "\n", v,
				ipp_vkind_name(ipp_vertex_kind(g, (ipp_id)v)),
				ipp_proc_name(g, ipp_vertex_proc(g, (ipp_id)v)), file ? file : "?",
				ipp_vertex_line(g, (ipp_id)v), vcount(u, (ipp_id)v));
		}
	}
}

/* ------------------------------------------------------------------ */
/* YAML / JSON                                                          */
/* ------------------------------------------------------------------ */

static void key_u64(emitter *e, const char *k, uint64_t v)
{
	emit_key(e, k);
	emit_big_u64(e, v);
}

static void key_line(emitter *e, const ipp_graph *g, ipp_id v)
{
	emit_key(e, "file");
	emit_str(e, ipp_vertex_file(g, v));
	emit_key(e, "line");
	if (ipp_vertex_line(g, v) > 0)
		emit_int(e, ipp_vertex_line(g, v));
	else
		emit_null(e);
}

/* callee, callee_asm_name, callee_module, callee_checksum (the last two
 * null when the callee's unit is unknown) */
static void key_callee(emitter *e, const struct callee *c)
{
	char hex[17];
	key_str(e, "callee", c->name);
	key_str(e, "callee_asm_name", c->asm_name);
	key_str(e, "callee_module", c->module);
	emit_key(e, "callee_checksum");
	if (c->module != NULL)
		emit_str_quoted(e, ipp_hex64(c->checksum, hex));
	else
		emit_null(e);
}

static void struct_unit(emitter *e, enum what what, const struct program *prog,
			const struct unit *u, const struct icalls *ia)
{
	const ipp_graph *g = u->g;

	if (what == WHAT_FUNCTIONS) {
		struct fn_counts f;
		fn_counts_init(u, &f);
		emit_key(e, "functions");
		emit_begin_seq(e);
		for (size_t p = 0; p < ipp_graph_nprocs(g); p++) {
			if (!listed_fn(g, &f, (ipp_id)p))
				continue;
			emit_begin_map_flow(e);
			key_str(e, "function", ipp_proc_name(g, (ipp_id)p));
			key_str(e, "asm_name", ipp_proc_asm(g, (ipp_id)p));
			key_line(e, g, ipp_proc_entry(g, (ipp_id)p));
			key_u64(e, "entries", f.entries[p]);
			key_u64(e, "returns", f.returns[p]);
			emit_end(e);
		}
		emit_end(e);
		fn_counts_free(&f);
	} else if (what == WHAT_CALLS) {
		ipp_call_count *cc;
		struct arc *a;
		size_t n = unit_calls(u, &cc), na = sum_arcs(prog, u, cc, n, ia, &a);

		emit_key(e, "call_sites");
		emit_begin_seq(e);
		for (size_t i = 0; i < n; i++) {
			emit_begin_map_flow(e);
			key_str(e, "caller", ipp_proc_name(g, cc[i].caller));
			key_str(e, "callee", cc[i].callee_name);
			key_str(e, "callee_asm_name", cc[i].callee_asm);
			key_str(e, "kind", cc[i].callee != IPP_NONE ? "direct" :
				cc[i].indirect ? "indirect" : "external");
			key_line(e, g, cc[i].site);
			key_u64(e, "calls", cc[i].calls);
			key_u64(e, "returns", cc[i].returns);
			key_int(e, "vertex", cc[i].site);
			emit_end(e);
		}
		emit_end(e);
		emit_key(e, "indirect_calls");
		emit_begin_seq(e);
		for (size_t i = 0; i < ia->n; i++) {
			emit_begin_map_flow(e);
			key_str(e, "caller", ipp_proc_name(g, ia->ic[i].caller));
			key_callee(e, &ia->callee[i]);
			key_line(e, g, ia->ic[i].site);
			key_u64(e, "calls", ia->ic[i].calls);
			key_int(e, "vertex", ia->ic[i].site);
			emit_end(e);
		}
		emit_end(e);
		emit_key(e, "arcs");
		emit_begin_seq(e);
		for (size_t k = 0; k < na; k++) {
			emit_begin_map_flow(e);
			key_str(e, "caller", ipp_proc_name(g, a[k].caller));
			key_callee(e, &a[k].callee);
			key_u64(e, "calls", a[k].calls);
			emit_end(e);
		}
		emit_end(e);
		free(cc);
		free(a);
	} else if (what == WHAT_LINES) {
		ipp_line_count *lc = NULL;
		size_t n = u->ran ? ipp_counts_lines(u->m->fin, &u->c, &lc) : 0;

		emit_key(e, "lines");
		emit_begin_seq(e);
		for (size_t i = 0; i < n; i++) {
			emit_begin_map_flow(e);
			key_str(e, "file", lc[i].file);
			key_int(e, "line", lc[i].line);
			key_u64(e, "count", lc[i].count);
			emit_end(e);
		}
		emit_end(e);
		free(lc);
	} else if (what == WHAT_VERTICES) {
		emit_key(e, "vertices");
		emit_begin_seq(e);
		for (size_t v = 0; v < ipp_graph_nvertices(g); v++) {
			if (!shown_vertex(g, (ipp_id)v))
				continue;
			emit_begin_map_flow(e);
			key_int(e, "vertex", (long long)v);
			key_str(e, "kind", ipp_vkind_name(ipp_vertex_kind(g, (ipp_id)v)));
			key_str(e, "function", ipp_proc_name(g, ipp_vertex_proc(g, (ipp_id)v)));
			key_line(e, g, (ipp_id)v);
			key_u64(e, "count", vcount(u, (ipp_id)v));
			emit_end(e);
		}
		emit_end(e);
	}
}

size_t counts_unit_arcs(const struct derived *d, size_t i, struct arc **out)
{
	struct icalls ia;
	ipp_call_count *cc;
	size_t n, na;

	unit_icalls(d, i, &ia);
	n = unit_calls(&d->units[i], &cc);
	na = sum_arcs(&d->prog, &d->units[i], cc, n, &ia, out);
	/* the names point into the maps and the profile, not into ia */
	free(cc);
	icalls_free(&ia);
	return na;
}

/* (cli.h) The counts of unit i as keys of the mapping e is in. */
void emit_unit_counts(emitter *e, const struct derived *d, size_t i)
{
	struct icalls ia;

	unit_icalls(d, i, &ia);
	struct_unit(e, WHAT_FUNCTIONS, &d->prog, &d->units[i], &ia);
	struct_unit(e, WHAT_CALLS, &d->prog, &d->units[i], &ia);
	struct_unit(e, WHAT_VERTICES, &d->prog, &d->units[i], &ia);
	icalls_free(&ia);
}

/* ------------------------------------------------------------------ */
/* The command                                                          */
/* ------------------------------------------------------------------ */

/* A YAML or JSON document's head, up to the open list of modules. */
static emitter *begin_document(FILE *out, enum out_format format, const struct derived *d)
{
	emitter *e = emit_new(out, format == FORMAT_JSON ? EMIT_JSON : EMIT_YAML);
	emit_begin_map(e);
	key_int(e, "ipp_counts", REPORT_SCHEMA_VERSION);
	key_str(e, "program", d->program);
	key_str(e, "profile", d->profile);
	emit_key(e, "modules");
	emit_begin_seq(e);
	return e;
}

/* --events: the sum over the units (text), or each unit's (YAML, JSON).
 * Returns -1 if a unit's events cannot be derived (nothing is written). */
static int write_events(FILE *out, enum out_format format, const struct derived *d)
{
	ipp_events sum, *ev = xcalloc(d->nunits + 1, sizeof(*ev));
	emitter *e;

	memset(&sum, 0, sizeof(sum));
	for (size_t i = 0; i < d->nunits; i++) {
		if (unit_events(d, i, &ev[i]) < 0) {
			free(ev);
			return -1;
		}
		ipp_events_add(&sum, &ev[i]);
	}
	if (format == FORMAT_TEXT) {
		text_events(out, &sum);
		free(ev);
		return 0;
	}
	e = begin_document(out, format, d);
	for (size_t i = 0; i < d->nunits; i++) {
		emit_begin_map(e);
		key_str(e, "name", d->units[i].m->map->module);
		key_str(e, "mode", ipp_mode_name(d->units[i].m->map->mode));
		emit_key(e, "events");
		emit_begin_map(e);
#define IPP_EVENT_KEY(name, what) key_u64(e, #name, ev[i].name);
		IPP_EVENT_FIELDS(IPP_EVENT_KEY)
#undef IPP_EVENT_KEY
		emit_key(e, "saturated");
		emit_bool(e, ev[i].saturated);
		emit_end(e);
		emit_end(e);
	}
	emit_end(e);
	emit_end(e);
	emit_finish(e);
	free(ev);
	return 0;
}

static void write_counts(FILE *out, enum out_format format, enum what what,
			 const struct derived *d)
{
	struct icalls ia;
	emitter *e = NULL;

	if (format != FORMAT_TEXT)
		e = begin_document(out, format, d);
	for (size_t i = 0; i < d->nunits; i++) {
		const struct unit *u = &d->units[i];
		if (what == WHAT_CALLS)
			unit_icalls(d, i, &ia);
		else
			memset(&ia, 0, sizeof(ia));
		if (e == NULL) {
			text_unit(out, what, &d->prog, u, &ia, d->nunits > 1);
			icalls_free(&ia);
			continue;
		}
		emit_begin_map(e);
		key_str(e, "name", u->m->map->module);
		emit_key(e, "checksum");
		emit_str_quoted(e, u->m->checksum);
		key_str(e, "mode", ipp_mode_name(u->m->map->mode));
		key_u64(e, "runs", u->runs);
		struct_unit(e, what, &d->prog, u, &ia);
		emit_end(e);
		icalls_free(&ia);
	}
	if (e != NULL) {
		emit_end(e);
		emit_end(e);
		emit_finish(e);
	}
}

int cmd_counts(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "functions", no_argument, NULL, 'F' },
		{ "calls", no_argument, NULL, 'C' },
		{ "lines", no_argument, NULL, 'L' },
		{ "check", no_argument, NULL, 'k' },
		{ "vertices", no_argument, NULL, 'V' },
		{ "events", no_argument, NULL, 'E' },
		CLI_COMMON_LONGOPTS,
	};
	const char *cmd = argv[0], *output = NULL;
	static const char *const what_opt[] = { "--functions", "--calls", "--lines", "--check",
						 "--vertices", "--events" };
	enum out_format format = FORMAT_TEXT;
	enum what what = WHAT_FUNCTIONS;
	bool what_given = false;
	struct derived d;
	struct operands ops;
	int c, status;
	FILE *out;

	while ((c = getopt_long(argc, argv, "FCLkVEf:o:h", longopts, NULL)) != -1) {
		enum what w;
		switch (c) {
		case 'F': w = WHAT_FUNCTIONS; goto set_what;
		case 'C': w = WHAT_CALLS; goto set_what;
		case 'L': w = WHAT_LINES; goto set_what;
		case 'V': w = WHAT_VERTICES; goto set_what;
		case 'E': w = WHAT_EVENTS; goto set_what;
		case 'k': w = WHAT_CHECK;
		set_what:
			if (what_given && w != what)
				return cmd_usage_error(cmd, counts_usage, "%s and %s: choose one",
						       what_opt[what], what_opt[w]);
			what = w;
			what_given = true;
			break;
		default:
			status = cli_common_option(c, cmd, counts_usage, &format, &output);
			if (status != CLI_CONTINUE)
				return status;
		}
	}
	status = cli_operands(argc, argv, cmd, counts_usage, &ops);
	if (status != CLI_CONTINUE)
		return status;

	/* --lines and --calls of a unit that ran need its G*fin even when
	 * its counts are all 0 */
	status = derived_load(&d, &ops, (what != WHAT_CHECK ? DL_EVERY_MAP : 0) |
			      (what == WHAT_LINES || what == WHAT_CALLS ? DL_DERIVE_EMPTY : 0));
	cli_operands_free(&ops);
	if (status < 0)
		return EXIT_FAILURE;
	if (what == WHAT_CHECK) {
		status = check_output(&d, format, output, "ipp_counts");
	} else {
		status = EXIT_FAILURE;
		out = open_output(output);
		if (out != NULL) {
			int rc = 0;
			if (what == WHAT_EVENTS)
				rc = write_events(out, format, &d);
			else
				write_counts(out, format, what, &d);
			status = close_output(out, output);
			if (rc < 0)
				status = EXIT_FAILURE;
		}
	}
	derived_free(&d);
	return status;
}
