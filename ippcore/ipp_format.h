/* ipp_format.h -- the on-disk formats of ipp: the map and the profile.
 *
 * The MAP describes one compilation unit: its supergraph G* (procedures,
 * vertices, edges in id order, locations), the mode and the cuts, i.e.
 * everything the decoder needs to rebuild the very same ipp_graph, call
 * ipp_fin_new() and number paths exactly as the plugin did.  It also
 * records derived facts (back edges, summarized call sites, regions and
 * their totals, a psi/rho digest) so that a decoder can check its own
 * renumbering.  The plugin writes one YAML document per unit into a
 * non-allocated ELF section; the linker concatenates them, so a map is read
 * as a YAML *stream* of documents.
 *
 * The PROFILE holds, per module (source path + map checksum + mode), the
 * counts of complete paths (region, number within the region) and of
 * partial paths (region, number so far, stop stack), the counts of
 * indirect call arcs (call site, callee), and how many runs were merged
 * into it.  The runtime writes it by hand, line by line; this
 * library reads (with libyaml), writes, merges and checks it.
 *
 * docs/FORMAT.md is the specification of both formats.
 *
 * Every function that can fail returns -1 (or NULL) and writes a message
 * into err[errlen] ("file:line:column: what was expected"); on failure
 * nothing is leaked and no output argument needs freeing.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_FORMAT_H
#define IPP_FORMAT_H

#include <stdio.h>
#include "ipp_core.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPP_MAP_VERSION 1
#define IPP_PROFILE_VERSION 1

/* Writes v as 16 lowercase hex digits and a NUL (the form checksums and
 * digests take in both formats).  Returns out. */
char *ipp_hex64(uint64_t v, char out[17]);

/* ------------------------------------------------------------------ */
/* The map                                                              */
/* ------------------------------------------------------------------ */

/* What the writer needs besides G*fin and the cuts. */
typedef struct ipp_map_meta {
	const char *module;		/* the unit's source file path (required) */
	const char *ipp_version;	/* free-form, may be NULL */
	const char *gcc_version;	/* free-form, may be NULL */
	const char *const *skip_reason;	/* indexed by procedure id; NULL, or NULL
					 * entries, when there is no reason */
} ipp_map_meta;

/* One row of the region table (see ipp_fin_region()). */
typedef struct ipp_map_region {
	char *name;		/* assembler name, "#g" appended for GEntry regions */
	ipp_id proc;
	bool gentry;
	mpz_t total;		/* paths in the region */
	mpz_t offset;		/* sum of the totals of the earlier regions */
} ipp_map_region;

/* A summarized call site of G*fin and why (ipp_fin_call_summary()). */
typedef struct ipp_map_summary {
	ipp_id call;
	enum ipp_summary_why why;
} ipp_map_summary;

/* One unit, as read.  Everything is owned by the struct (ipp_map_free). */
typedef struct ipp_map {
	char *source;		/* the input it came from (file or buffer name) */
	int line;		/* 1-based line where the document starts in 'source' */

	char *module;		/* the unit's source file path */
	char *ipp_version;	/* producer strings; "" when the writer had none */
	char *gcc_version;
	enum ipp_mode mode;
	mpz_t limit;		/* the per-region path limit the cuts were chosen for */
	ipp_graph *graph;	/* G*, rebuilt with the ids of the writer */
	char **skip_reason;	/* [ipp_graph_nprocs(graph)]; entries may be NULL */
	ipp_cuts cuts;
	uint64_t checksum;	/* verified against ipp_map_checksum() */

	/* Derived facts, as stored.  The reader only checks that they are
	 * well formed; ipp_map_fin() checks them against its renumbering. */
	ipp_id *back_edges;	/* G* edges that are DFS back edges, increasing */
	size_t nback_edges;
	ipp_map_summary *summaries;	/* call sites not IPP_SUM_NONE, increasing */
	size_t nsummaries;
	ipp_id *fallback;	/* procedures with ipp_fin_proc_fallback(), increasing */
	size_t nfallback;
	ipp_map_region *regions;	/* in region id order */
	size_t nregions;
	mpz_t total;		/* sum of the region totals */
	uint64_t digest;	/* ipp_fin_digest() of the writer's G*fin */
	/* Increments on chords (intra mode; ipp_fin_offset): vertex
	 * offset_v[i] has offset[i], by increasing vertex; the others 0.
	 * Not derived: the plugin chose them from GCC's edge frequencies.
	 * ipp_map_fin() gives them to its G*fin. */
	ipp_id *offset_v;
	uint64_t *offset;
	size_t noffsets;
} ipp_map;

/* The checksum identifying a unit's build: 64-bit FNV-1a over a canonical
 * serialization of the module name, mode, graph (procedures, vertices with
 * their locations, tags and call data, edges, restart vertices), cuts and
 * the names of the callees that are not procedures of the graph
 * (ipp_set_call_target; only if there are any).  It never depends on
 * the YAML text.  See docs/FORMAT.md for the exact byte sequence. */
uint64_t ipp_map_checksum(const ipp_graph *g, enum ipp_mode mode, const ipp_cuts *cuts,
			  const char *module);

/* Writes the map document of the unit whose G*fin is 'fin' (built with
 * 'cuts', which may be NULL) to 'out'.  'limit' is the per-region limit the
 * cuts were chosen for.  Names and paths must be valid UTF-8. */
int ipp_map_write(FILE *out, const ipp_fin *fin, const ipp_cuts *cuts,
		  const ipp_map_meta *meta, const mpz_t limit, char *err, size_t errlen);

/* Reads every map document of a YAML stream (at least one).  On success
 * *maps is a malloc'd array of *nmaps maps (free with ipp_map_free_all).
 * 'name' names the input in messages. */
int ipp_map_read_buffer(const char *buf, size_t len, const char *name,
			ipp_map ***maps, size_t *nmaps, char *err, size_t errlen);
int ipp_map_read_file(const char *path, ipp_map ***maps, size_t *nmaps,
		      char *err, size_t errlen);

/* One document of a map stream, located and its head read, not parsed
 * whole: a program's tools parse only the units they decode (objdump holds
 * 11 MB of maps; a profile touches a few of its units). */
typedef struct ipp_map_span {
	size_t offset, len;	/* the document's text in the stream */
	int line;		/* 1-based line of the stream where it starts */
	char *module;		/* its head: the keys the writer emits first */
	enum ipp_mode mode;
	uint64_t checksum;
} ipp_map_span;

/* Splits a YAML stream of map documents at their end markers ('...' lines)
 * and reads each one's head (module, mode, checksum), checked as
 * ipp_map_read_buffer checks them.  *spans: malloc'd, *nspans of them
 * (free with ipp_map_spans_free).  Returns 0, or -1 with the message. */
int ipp_map_index_buffer(const char *buf, size_t len, const char *name,
			 ipp_map_span **spans, size_t *nspans, char *err, size_t errlen);
/* Reads the document of span s of buf (the stream indexed) whole, as
 * ipp_map_read_buffer reads it (messages give the stream's lines), and
 * checks that it is the document its head announced.  Returns 0, or -1. */
int ipp_map_read_span(const char *buf, const ipp_map_span *s, const char *name,
		      ipp_map **out, char *err, size_t errlen);
/* The same through a cache of parsed documents in the directory
 * 'cache_dir' (map_cache.c): a cache file made from this very text (its
 * hash and length), intact, whose records rebuild into a graph of the
 * checksum the head gives, replaces the YAML parse; else the document is
 * parsed and, if it reads, its cache file written.  Same result, same
 * messages as ipp_map_read_span. */
int ipp_map_read_span_cached(const char *buf, const ipp_map_span *s, const char *name,
			     const char *cache_dir, ipp_map **out, char *err, size_t errlen);
void ipp_map_spans_free(ipp_map_span *spans, size_t n);
/* What the cache did since the last reset (for tests and measurements):
 * files used, files found but not used (damaged, of another text, not
 * rebuilding), files written. */
struct ipp_map_cache_stats {
	size_t hits, rejected, written;
};
extern struct ipp_map_cache_stats ipp_map_cache_stats;
void ipp_map_cache_stats_reset(void);
void ipp_map_free(ipp_map *m);
void ipp_map_free_all(ipp_map **maps, size_t n);

/* Builds G*fin from the map and checks that it matches what the writer
 * recorded: the psi/rho digest, the region table and total, the summarized
 * call sites, the DFS back edges and the fallback procedures. */
ipp_fin *ipp_map_fin(const ipp_map *m, char *err, size_t errlen);

/* ------------------------------------------------------------------ */
/* The profile                                                          */
/* ------------------------------------------------------------------ */

/* A complete path: 'count' executions of path 'num' of region
 * regions[region] of its module. */
typedef struct ipp_prof_path {
	uint32_t region;	/* index into ipp_prof_module.regions */
	ipp_pnum num;		/* 64 bits, or (text profiles only) more */
	uint64_t count;
} ipp_prof_path;

/* A partial path (abandoned by exit, longjmp or a signal): number so far
 * and stop stack (see ipp_core.h), as G*fin vertex ids. */
typedef struct ipp_prof_partial {
	uint32_t region;
	ipp_pnum num;
	ipp_id *stack;		/* at least one vertex */
	size_t nstack;
	uint64_t count;
} ipp_prof_partial;

/* An indirect call arc (context mode, docs/PROTOCOL.md rule 7): 'count'
 * calls from call vertex 'site' of this module (a call vertex flagged
 * IPP_CALL_INDIRECT) through a pointer to the function whose Entry region
 * is named 'callee_region' (its assembler name) in the unit
 * (callee_module, callee_checksum) -- this module or another one. */
typedef struct ipp_prof_icall {
	ipp_id site;
	char *callee_module;
	uint64_t callee_checksum;
	char *callee_region;
	uint64_t count;
} ipp_prof_icall;

struct ipp_prof_index;		/* private: record and name lookup */

/* One module of a profile.  Records are unique by key: (region, num) for
 * paths, (region, num, stack) for partial paths, (site, callee_module,
 * callee_checksum, callee_region) for indirect calls. */
typedef struct ipp_prof_module {
	char *module;		/* source path, as in the map */
	uint64_t checksum;	/* the map checksum of the build */
	enum ipp_mode mode;
	uint64_t runs;		/* runs merged into this module */
	char **regions;		/* distinct region names the records use */
	size_t nregions;
	ipp_prof_path *paths;
	size_t npaths;
	ipp_prof_partial *partials;
	size_t npartials;
	ipp_prof_icall *icalls;
	size_t nicalls;
	/* Forked prefixes: a path pending at a fork() is completed (or
	 * abandoned) by both processes, so its prefix up to the fork, run
	 * once, is in two records; the child writes the prefix here (as a
	 * partial path: region, number so far, stop stack) and the
	 * derivation subtracts it (docs/FORMAT.md, "forked"). */
	ipp_prof_partial *forked;
	size_t nforked;
	struct ipp_prof_index *index;	/* private */
	size_t cap_paths, cap_partials, cap_icalls, cap_forked;	/* private */
} ipp_prof_module;

typedef struct ipp_profile {
	ipp_prof_module **modules;
	size_t nmodules;
	size_t cap_modules;	/* private */
} ipp_profile;

ipp_profile *ipp_profile_new(void);
void ipp_profile_free(ipp_profile *p);

/* Adds an empty module with runs = 0.  Returns NULL if the profile already
 * has a module with this name and checksum. */
ipp_prof_module *ipp_profile_add_module(ipp_profile *p, const char *module,
					uint64_t checksum, enum ipp_mode mode);
/* The module with this name and checksum, or NULL. */
ipp_prof_module *ipp_profile_find(const ipp_profile *p, const char *module,
				  uint64_t checksum);

/* Add 'count' to a record, creating it if needed (counts saturate at
 * UINT64_MAX).  Return the record's index in paths[] / partials[] /
 * icalls[] / forked[]. */
size_t ipp_prof_add_path(ipp_prof_module *m, const char *region, const mpz_t num,
			 uint64_t count);
size_t ipp_prof_add_partial(ipp_prof_module *m, const char *region, const mpz_t num,
			    const ipp_id *stack, size_t nstack, uint64_t count);
size_t ipp_prof_add_icall(ipp_prof_module *m, ipp_id site, const char *callee_module,
			  uint64_t callee_checksum, const char *callee_region, uint64_t count);
size_t ipp_prof_add_forked(ipp_prof_module *m, const char *region, const mpz_t num,
			   const ipp_id *stack, size_t nstack, uint64_t count);

/* The indirect-call records of m in canonical order (site, then callee
 * module, checksum and region): a malloc'd array of m->nicalls pointers
 * into m->icalls (free() it). */
const ipp_prof_icall **ipp_prof_icalls_sorted(const ipp_prof_module *m);

/* Merges src into dst.  Modules are matched by (name, checksum): their runs
 * and counts add (saturating), records with the same key merge, and new
 * records and modules are appended.  Fails, leaving dst unchanged, if a
 * module of src has a name that dst holds with another checksum (profiles
 * of different builds) or a mode that differs. */
int ipp_profile_merge(ipp_profile *dst, const ipp_profile *src, char *err, size_t errlen);

/* Frees the record index, which only adding records needs (the next
 * ipp_prof_add_* or ipp_profile_merge into p rebuilds it): for a profile
 * that will only be read or written from now on.  The readers return
 * profiles without it. */
void ipp_profile_trim(ipp_profile *p);

/* Writes the profile in the binary format the runtime writes
 * (runtime/ipp_profile.h, docs/FORMAT.md section 3); records in canonical
 * order (region name, number, stack; indirect calls by site, callee
 * module, checksum, region).  Returns 0, or -1 on a write error or a path
 * number beyond 64 bits. */
int ipp_profile_write(FILE *out, const ipp_profile *p, char *err, size_t errlen);
/* Writes the profile as text, the YAML form `ipp profile` prints
 * (docs/FORMAT.md section 3.6, version 1), records in the same order. */
int ipp_profile_write_text(FILE *out, const ipp_profile *p, char *err, size_t errlen);

/* Read a profile: the binary format (version 2), or its text form
 * (version 1: one YAML document, what ipp_profile_write_text prints).
 * NULL on error. */
ipp_profile *ipp_profile_read_buffer(const char *buf, size_t len, const char *name,
				     char *err, size_t errlen);
ipp_profile *ipp_profile_read_file(const char *path, char *err, size_t errlen);

/* Finds the module of profile p (named 'profname' in messages) recorded from
 * the build described by 'map'.  Sets *out to it, or to NULL if p has no
 * module of that name (the unit never ran); fails if p has the module only
 * with another checksum ("recorded from a different build"). */
int ipp_profile_match(const ipp_profile *p, const char *profname, const ipp_map *map,
		      const ipp_prof_module **out, char *err, size_t errlen);
/* The same for the unit 'module' of this checksum, its map not at hand. */
int ipp_profile_match_unit(const ipp_profile *p, const char *profname, const char *module,
			   uint64_t checksum, const ipp_prof_module **out, char *err,
			   size_t errlen);
/* Does pm hold any record (a path, a partial path, an indirect call)?  A
 * module without one (its unit was linked in and never ran) needs no map
 * to be checked. */
bool ipp_prof_module_has_records(const ipp_prof_module *pm);

/* Checks profile module pm against the map and its G*fin (ipp_map_fin()):
 * module, checksum and mode agree, every region exists, every number is
 * below its region's total, every stop stack (partial paths and forked
 * prefixes) is a list of G*fin vertices whose all but last are call
 * vertices, and every indirect call
 * site is an indirect call vertex of the map.  (Callees of other units
 * are not checked: they need those units' maps.) */
int ipp_profile_check(const ipp_prof_module *pm, const char *profname, const ipp_map *map,
		      const ipp_fin *fin, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif /* IPP_FORMAT_H */
