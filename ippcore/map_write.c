/* map_write.c -- writing a unit's map document (ipp_map_write, ipp_format.h):
 * header keys and the checksum, the file table, procedures, vertices and
 * edges in id order, restart vertices, cuts, the 'callees' key when there
 * are callees to name, the derived facts (back edges, summaries, fallback
 * procedures, regions and total) and the psi/rho digest.  docs/FORMAT.md
 * is the specification; map_read.c reads what this writes.
 *
 * Invariants: nothing is written before every check has passed -- every
 * string is valid UTF-8 (yaml_write.c), every flag has a name
 * (map_flags.c), and the cuts are sorted, in range and exactly those G*fin
 * was built with, since ipp_map_fin() renumbers with them -- so a map that
 * is written at all reads back into the same graph.  The file table lists
 * files in order of first use by a vertex.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "internal.h"
#include "map_internal.h"

#include <errno.h>
#include <inttypes.h>

static void write_opt_int(FILE *out, int v, bool present)
{
	if (present)
		fprintf(out, "%d", v);
	else
		fputs("null", out);
}

static void write_mpz(FILE *out, const mpz_t v)
{
	mpz_out_str(out, 10, v);
}

/* Every string the map holds must be valid UTF-8 (YAML text is). */
static int check_write_strings(const ipp_graph *g, const ipp_map_meta *meta,
			       char *err, size_t errlen)
{
	size_t np = ipp_graph_nprocs(g), nv = ipp_graph_nvertices(g);
	if (!meta || !meta->module) {
		ipp_seterr(err, errlen, "map: no module name given");
		return -1;
	}
	if (!ipp_yw_utf8_ok(meta->module) ||
	    (meta->ipp_version && !ipp_yw_utf8_ok(meta->ipp_version)) ||
	    (meta->gcc_version && !ipp_yw_utf8_ok(meta->gcc_version))) {
		ipp_seterr(err, errlen, "map of %s: the module name or a version string is not "
			   "valid UTF-8", meta->module);
		return -1;
	}
	for (ipp_id p = 0; (size_t)p < np; p++) {
		const char *reason = meta->skip_reason ? meta->skip_reason[p] : NULL;
		if (!ipp_yw_utf8_ok(ipp_proc_name(g, p)) || !ipp_yw_utf8_ok(ipp_proc_asm(g, p)) ||
		    (reason && !ipp_yw_utf8_ok(reason))) {
			ipp_seterr(err, errlen, "map of %s: a name or skip reason of procedure %"
				   PRId32 " is not valid UTF-8", meta->module, p);
			return -1;
		}
		if (!ipp_map_flags_known(ipp_proc_flags(g, p), ipp_proc_flag_names)) {
			ipp_seterr(err, errlen, "map of %s: procedure %" PRId32 " has unknown "
				   "flags 0x%x", meta->module, p, ipp_proc_flags(g, p));
			return -1;
		}
	}
	for (ipp_id v = 0; (size_t)v < nv; v++) {
		const char *file = ipp_vertex_file(g, v);
		const char *callee = ipp_named_external_call(g, v);
		if (file && !ipp_yw_utf8_ok(file)) {
			ipp_seterr(err, errlen, "map of %s: the file name of vertex %" PRId32
				   " is not valid UTF-8", meta->module, v);
			return -1;
		}
		if (ipp_vertex_kind(g, v) == IPP_V_CALL &&
		    !ipp_map_flags_known(ipp_call_flags(g, v), ipp_call_flag_names)) {
			ipp_seterr(err, errlen, "map of %s: call vertex %" PRId32 " has unknown "
				   "flags 0x%x", meta->module, v, ipp_call_flags(g, v));
			return -1;
		}
		if (callee && (!*callee || !ipp_yw_utf8_ok(callee) || !*ipp_call_target_name(g, v) ||
			       !ipp_yw_utf8_ok(ipp_call_target_name(g, v)))) {
			ipp_seterr(err, errlen, "map of %s: the callee name of call vertex %" PRId32
				   " is empty or not valid UTF-8", meta->module, v);
			return -1;
		}
	}
	return 0;
}

static bool ids_increasing(const ipp_id *ids, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (ids[i - 1] >= ids[i])
			return false;
	return true;
}

/* The cuts must be those fin was built with: ipp_map_fin() rebuilds with them. */
static int check_write_cuts(const ipp_fin *fin, const ipp_cuts *cuts, const char *module,
			    char *err, size_t errlen)
{
	const ipp_graph *g = ipp_fin_graph(fin);
	size_t nv = ipp_graph_nvertices(g);
	if (!ids_increasing(cuts->vertices, cuts->nvertices) ||
	    !ids_increasing(cuts->calls, cuts->ncalls)) {
		ipp_seterr(err, errlen, "map of %s: cuts are not sorted and unique", module);
		return -1;
	}
	for (size_t i = 0; i < cuts->nvertices; i++)
		if (cuts->vertices[i] < 0 || (size_t)cuts->vertices[i] >= nv) {
			ipp_seterr(err, errlen, "map of %s: cut vertex %" PRId32 " out of range",
				   module, cuts->vertices[i]);
			return -1;
		}
	for (size_t i = 0; i < cuts->ncalls; i++)
		if (cuts->calls[i] < 0 || (size_t)cuts->calls[i] >= nv ||
		    ipp_vertex_kind(g, cuts->calls[i]) != IPP_V_CALL) {
			ipp_seterr(err, errlen, "map of %s: cut call %" PRId32 " is not a call "
				   "vertex", module, cuts->calls[i]);
			return -1;
		}
	for (ipp_id v = 0; (size_t)v < nv; v++)
		if (ipp_fin_is_cut_vertex(fin, v) !=
		    ipp_sorted_ids_have(cuts->vertices, cuts->nvertices, v)) {
			ipp_seterr(err, errlen, "map of %s: the cuts given are not those G*fin was "
				   "built with (vertex %" PRId32 ")", module, v);
			return -1;
		}
	return 0;
}

static void write_procs(FILE *out, const ipp_graph *g, const ipp_map_meta *meta,
			const ipp_strtab *files)
{
	size_t np = ipp_graph_nprocs(g);
	fputs(np ? "procs:\n" : "procs: []\n", out);
	for (ipp_id p = 0; (size_t)p < np; p++) {
		ipp_id entry = ipp_proc_entry(g, p);
		const char *file = ipp_vertex_file(g, entry);
		const char *reason = meta->skip_reason ? meta->skip_reason[p] : NULL;
		fprintf(out, "- [%" PRId32 ", ", p);
		ipp_yw_str(out, ipp_proc_name(g, p));
		fputs(", ", out);
		ipp_yw_str(out, ipp_proc_asm(g, p));
		fputs(", ", out);
		ipp_map_write_flags(out, ipp_proc_flags(g, p), ipp_proc_flag_names);
		fputs(", ", out);
		write_opt_int(out, file ? (int)ipp_strtab_find(files, file) : 0, file != NULL);
		fprintf(out, ", %d, ", ipp_vertex_line(g, entry));
		if (reason)
			ipp_yw_str(out, reason);
		else
			fputs("null", out);
		fputs("]\n", out);
	}
}

static void write_vertices(FILE *out, const ipp_graph *g, const ipp_strtab *files)
{
	size_t nv = ipp_graph_nvertices(g);
	fputs("vertices:\n", out);
	for (ipp_id v = 0; (size_t)v < nv; v++) {
		enum ipp_vkind k = ipp_vertex_kind(g, v);
		ipp_id p = ipp_vertex_proc(g, v);
		const char *file = ipp_vertex_file(g, v);
		fprintf(out, "- [%" PRId32 ", %s, ", v, ipp_vkind_name(k));
		write_opt_int(out, p, p != IPP_NONE);
		fputs(", ", out);
		write_opt_int(out, file ? (int)ipp_strtab_find(files, file) : 0, file != NULL);
		fprintf(out, ", %d, %d, %d", ipp_vertex_line(g, v), ipp_vertex_col(g, v),
			ipp_vertex_tag(g, v));
		if (k == IPP_V_CALL) {
			ipp_id callee = ipp_call_callee(g, v);
			fputs(", ", out);
			if (callee != IPP_NONE)
				ipp_yw_str(out, ipp_proc_asm(g, callee));
			else
				fputs("null", out);
			fputs(", ", out);
			ipp_map_write_flags(out, ipp_call_flags(g, v), ipp_call_flag_names);
		}
		fputs("]\n", out);
	}
}

/* The optional 'callees' key: [call, asm-name, name], name null when it
 * is the assembler name; no key at all when there is none. */
static void write_callees(FILE *out, const ipp_graph *g)
{
	if (ipp_map_ncallees(g) == 0)
		return;
	fputs("callees:\n", out);
	for (ipp_id v = 0; (size_t)v < ipp_graph_nvertices(g); v++) {
		const char *asm_name = ipp_named_external_call(g, v), *name;
		if (!asm_name)
			continue;
		name = ipp_call_target_name(g, v);
		fprintf(out, "- [%" PRId32 ", ", v);
		ipp_yw_str(out, asm_name);
		fputs(", ", out);
		if (strcmp(name, asm_name) != 0)
			ipp_yw_str(out, name);
		else
			fputs("null", out);
		fputs("]\n", out);
	}
}

static void write_restarts(FILE *out, const ipp_graph *g)
{
	size_t nv = ipp_graph_nvertices(g), n = 0;
	ipp_id *ids = ipp_xmalloc(nv * sizeof(ipp_id));
	for (ipp_id v = 0; (size_t)v < nv; v++)
		if (ipp_vertex_is_restart(g, v))
			ids[n++] = v;
	ipp_yw_id_list(out, "restart-vertices", ids, n);
	free(ids);
}

static void write_derived(FILE *out, const ipp_fin *fin)
{
	const ipp_graph *g = ipp_fin_graph(fin);
	size_t nv = ipp_graph_nvertices(g), ne = ipp_graph_nedges(g), np = ipp_graph_nprocs(g);
	size_t nr = ipp_fin_nregions(fin), n = 0;
	ipp_id *ids = ipp_xmalloc((ne > np ? ne : np) * sizeof(ipp_id));
	bool any = false;
	mpz_t x;

	for (ipp_id e = 0; (size_t)e < ne; e++)
		if (ipp_graph_is_back_edge(g, e))
			ids[n++] = e;
	ipp_yw_id_list(out, "back-edges", ids, n);

	for (ipp_id v = 0; (size_t)v < nv; v++) {
		enum ipp_summary_why why;
		if (ipp_vertex_kind(g, v) != IPP_V_CALL)
			continue;
		why = ipp_fin_call_summary(fin, v);
		if (why == IPP_SUM_NONE)
			continue;
		if (!any)
			fputs("summaries:\n", out);
		any = true;
		fprintf(out, "- [%" PRId32 ", %s]\n", v, ipp_summary_why_name(why));
	}
	if (!any)
		fputs("summaries: []\n", out);

	n = 0;
	for (ipp_id p = 0; (size_t)p < np; p++)
		if (ipp_fin_proc_fallback(fin, p))
			ids[n++] = p;
	ipp_yw_id_list(out, "fallback", ids, n);
	free(ids);

	mpz_init(x);
	fputs(nr ? "regions:\n" : "regions: []\n", out);
	for (ipp_id r = 0; (size_t)r < nr; r++) {
		ipp_region_info info;
		ipp_fin_region(fin, r, &info);
		fputs("- [", out);
		ipp_yw_str(out, info.name);
		fprintf(out, ", %" PRId32 ", %s, ", info.proc, info.gentry ? "gentry" : "entry");
		ipp_fin_region_total(fin, r, x);
		write_mpz(out, x);
		fputs(", ", out);
		ipp_fin_region_offset(fin, r, x);
		write_mpz(out, x);
		fputs("]\n", out);
	}
	ipp_fin_total(fin, x);
	fputs("total: ", out);
	write_mpz(out, x);
	putc('\n', out);
	mpz_clear(x);
}

/* offsets: [vertex, offset] where it is not 0 (increments on chords:
 * ipp_fin_offset); no key where there is none. */
static void write_offsets(FILE *out, const ipp_fin *fin)
{
	size_t nv = ipp_fin_nvertices(fin);
	bool any = false;
	if (!ipp_fin_has_offsets(fin))
		return;
	for (ipp_id v = 0; (size_t)v < nv; v++) {
		uint64_t off = ipp_fin_offset(fin, v);
		if (!off)
			continue;
		if (!any)
			fputs("offsets:\n", out);
		any = true;
		fprintf(out, "- [%" PRId32 ", %" PRIu64 "]\n", v, off);
	}
}

int ipp_map_write(FILE *out, const ipp_fin *fin, const ipp_cuts *cuts,
		  const ipp_map_meta *meta, const mpz_t limit, char *err, size_t errlen)
{
	const ipp_graph *g = ipp_fin_graph(fin);
	enum ipp_mode mode = ipp_fin_mode(fin);
	size_t nv = ipp_graph_nvertices(g), ne = ipp_graph_nedges(g);
	ipp_strtab files = { 0 };
	ipp_cuts none;
	char hex[17];

	ipp_cuts_init(&none);
	if (!cuts)
		cuts = &none;
	if (check_write_strings(g, meta, err, errlen) < 0 ||
	    check_write_cuts(fin, cuts, meta->module, err, errlen) < 0)
		return -1;
	if (mpz_sgn(limit) < 0) {
		ipp_seterr(err, errlen, "map of %s: negative path limit", meta->module);
		return -1;
	}
	/* The file table: files in order of first use by a vertex. */
	for (ipp_id v = 0; (size_t)v < nv; v++)
		if (ipp_vertex_file(g, v))
			ipp_strtab_intern(&files, ipp_vertex_file(g, v), NULL);

	fprintf(out, "%%YAML 1.1\n---\nipp-map: %d\nmodule: ", IPP_MAP_VERSION);
	ipp_yw_str(out, meta->module);
	fputs("\nipp-version: ", out);
	ipp_yw_str(out, meta->ipp_version ? meta->ipp_version : "");
	fputs("\ngcc-version: ", out);
	ipp_yw_str(out, meta->gcc_version ? meta->gcc_version : "");
	fprintf(out, "\nmode: %s\nlimit: ", ipp_mode_name(mode));
	write_mpz(out, limit);
	fprintf(out, "\nchecksum: \"%s\"\n",
		ipp_hex64(ipp_map_checksum(g, mode, cuts, meta->module), hex));

	fputs(files.n ? "files:\n" : "files: []\n", out);
	for (size_t i = 0; i < files.n; i++) {
		fputs("- ", out);
		ipp_yw_str(out, files.names[i]);
		putc('\n', out);
	}
	write_procs(out, g, meta, &files);
	write_vertices(out, g, &files);
	fputs(ne ? "edges:\n" : "edges: []\n", out);
	for (ipp_id e = 0; (size_t)e < ne; e++)
		fprintf(out, "- [%" PRId32 ", %" PRId32 ", %" PRId32 "]\n", e,
			ipp_edge_src(g, e), ipp_edge_dst(g, e));
	write_restarts(out, g);
	ipp_yw_id_list(out, "cut-vertices", cuts->vertices, cuts->nvertices);
	ipp_yw_id_list(out, "cut-calls", cuts->calls, cuts->ncalls);
	write_callees(out, g);
	write_derived(out, fin);
	write_offsets(out, fin);
	fprintf(out, "digest: \"%s\"\n...\n", ipp_hex64(ipp_fin_digest(fin), hex));

	ipp_strtab_free(&files);
	ipp_cuts_free(&none);
	if (fflush(out) != 0 || ferror(out)) {
		ipp_seterr(err, errlen, "map of %s: write error: %s", meta->module,
			   strerror(errno));
		return -1;
	}
	return 0;
}
