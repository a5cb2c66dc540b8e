/* checksum.c -- the checksum that identifies a unit's build
 * (ipp_map_checksum, ipp_format.h): 64-bit FNV-1a (hash.c) over a
 * canonical serialization of the module name, mode, procedures, vertices,
 * edges, restart vertices, cuts and the names of the callees outside the
 * unit.  docs/FORMAT.md, "Checksum", gives the exact sequence; this file
 * must follow it to the byte, because a profile is matched to its map by
 * this number.
 *
 * It depends on the graph only, never on the YAML text, so the writer and
 * the reader (which recomputes it from the rebuilt graph) agree whatever
 * the text looks like.  The 'callees' part is hashed only when there are
 * such callees, so maps without them keep the checksum they always had.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "internal.h"
#include "map_internal.h"

static uint64_t hash_int(uint64_t h, int64_t v)
{
	return ipp_hash_u64(h, (uint64_t)v);
}

static uint64_t hash_opt_str(uint64_t h, const char *s)
{
	if (!s)
		return ipp_hash_u64(h, 0);
	return ipp_hash_str(ipp_hash_u64(h, 1), s);
}

const char *ipp_named_external_call(const ipp_graph *g, ipp_id v)
{
	if (ipp_vertex_kind(g, v) != IPP_V_CALL || ipp_call_callee(g, v) != IPP_NONE)
		return NULL;
	return ipp_call_target_asm(g, v);
}

size_t ipp_map_ncallees(const ipp_graph *g)
{
	size_t n = 0;
	for (ipp_id v = 0; (size_t)v < ipp_graph_nvertices(g); v++)
		n += ipp_named_external_call(g, v) != NULL;
	return n;
}

/* The canonical serialization is specified in docs/FORMAT.md, "Checksum". */
uint64_t ipp_map_checksum(const ipp_graph *g, enum ipp_mode mode, const ipp_cuts *cuts,
			  const char *module)
{
	uint64_t h = IPP_HASH_INIT;
	size_t np = ipp_graph_nprocs(g), nv = ipp_graph_nvertices(g), ne = ipp_graph_nedges(g);
	size_t nrestart = 0;

	h = ipp_hash_str(h, "ipp-map-checksum 1");
	h = ipp_hash_str(h, module);
	h = ipp_hash_u64(h, (uint64_t)mode);
	h = ipp_hash_u64(h, np);
	for (ipp_id p = 0; (size_t)p < np; p++) {
		h = ipp_hash_str(h, ipp_proc_name(g, p));
		h = ipp_hash_str(h, ipp_proc_asm(g, p));
		h = ipp_hash_u64(h, ipp_proc_flags(g, p));
	}
	h = ipp_hash_u64(h, nv);
	for (ipp_id v = 0; (size_t)v < nv; v++) {
		enum ipp_vkind k = ipp_vertex_kind(g, v);
		h = ipp_hash_u64(h, (uint64_t)k);
		h = hash_int(h, ipp_vertex_proc(g, v));
		h = hash_opt_str(h, ipp_vertex_file(g, v));
		h = hash_int(h, ipp_vertex_line(g, v));
		h = hash_int(h, ipp_vertex_col(g, v));
		h = hash_int(h, ipp_vertex_tag(g, v));
		if (k == IPP_V_CALL) {
			h = hash_int(h, ipp_call_callee(g, v));
			/* without IPP_CALL_SLOT and IPP_CALL_BARE: they change
			 * the code, never the numbering, so builds with and
			 * without slots or bare calls share their profiles (as
			 * with and without chords) */
			h = ipp_hash_u64(h, ipp_call_flags(g, v) &
						    ~(unsigned)(IPP_CALL_SLOT | IPP_CALL_BARE));
		}
	}
	h = ipp_hash_u64(h, ne);
	for (ipp_id e = 0; (size_t)e < ne; e++) {
		h = hash_int(h, ipp_edge_src(g, e));
		h = hash_int(h, ipp_edge_dst(g, e));
	}
	for (ipp_id v = 0; (size_t)v < nv; v++)
		nrestart += ipp_vertex_is_restart(g, v);
	h = ipp_hash_u64(h, nrestart);
	for (ipp_id v = 0; (size_t)v < nv; v++)
		if (ipp_vertex_is_restart(g, v))
			h = hash_int(h, v);
	h = ipp_hash_u64(h, cuts ? cuts->nvertices : 0);
	for (size_t i = 0; cuts && i < cuts->nvertices; i++)
		h = hash_int(h, cuts->vertices[i]);
	h = ipp_hash_u64(h, cuts ? cuts->ncalls : 0);
	for (size_t i = 0; cuts && i < cuts->ncalls; i++)
		h = hash_int(h, cuts->calls[i]);
	/* the callees' names (the map's optional 'callees' key), only if
	 * there are any: the checksum of a map without them is unchanged */
	if (ipp_map_ncallees(g) > 0) {
		h = ipp_hash_u64(h, ipp_map_ncallees(g));
		for (ipp_id v = 0; (size_t)v < nv; v++) {
			const char *asm_name = ipp_named_external_call(g, v);
			const char *name;
			if (!asm_name)
				continue;
			name = ipp_call_target_name(g, v);
			h = hash_int(h, v);
			h = ipp_hash_str(h, asm_name);
			h = hash_opt_str(h, strcmp(name, asm_name) != 0 ? name : NULL);
		}
	}
	return h;
}
