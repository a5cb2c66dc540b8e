/* map_internal.h -- what the files of the map (map_*.c, checksum.c) share
 * and nothing else sees.  The API is in ipp_format.h; the YAML and string
 * helpers they use with profile.c are in format_internal.h.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_MAP_INTERNAL_H
#define IPP_MAP_INTERNAL_H

#include "format_internal.h"

/* ---- the optional 'callees' key (checksum.c) ---- */

/* The assembler name of the function call vertex v calls if the map must
 * record it in its 'callees' key: v is a direct call whose callee is not a
 * procedure of the map but was named (ipp_set_call_target).  Else NULL.
 * The checksum covers exactly these names, so it and the writer share
 * this one definition. */
const char *ipp_named_external_call(const ipp_graph *g, ipp_id v);
/* How many call vertices ipp_named_external_call() names. */
size_t ipp_map_ncallees(const ipp_graph *g);

/* ---- flag words (map_flags.c) ---- */

struct ipp_flag_name {
	unsigned bit;
	const char *name;
};
/* Every IPP_PROC_* / IPP_CALL_* bit and its name; each ends with {0, NULL}. */
extern const struct ipp_flag_name ipp_proc_flag_names[];
extern const struct ipp_flag_name ipp_call_flag_names[];

/* Writes the flags set in 'flags' as a flow list, e.g. "[entry]" or "[]". */
void ipp_map_write_flags(FILE *out, unsigned flags, const struct ipp_flag_name *names);
/* Whether every bit of 'flags' has a name in 'names'. */
bool ipp_map_flags_known(unsigned flags, const struct ipp_flag_name *names);
/* Reads item 'it' (a flow list of flag names) into *out. */
int ipp_map_read_flags(ipp_yreader *r, const ipp_yitem *it, const char *what,
		       const struct ipp_flag_name *names, unsigned *out);

/* ---- the document as records, between map_read.c and map_rebuild.c ---- */

/* Records as read, in the document's order; ids and positions not yet
 * checked against each other.  pline/pcol: where the record starts. */
struct rawproc {
	char *name, *asm_name, *reason;
	unsigned flags;
	int64_t file;		/* -1 if null */
	int64_t line;
	int pline, pcol;	/* position of the record */
};

struct rawvert {
	enum ipp_vkind kind;
	int64_t proc, file;	/* -1 if null */
	int64_t line, col, tag;
	char *callee;		/* call vertices; NULL for none */
	unsigned cflags;
	int pline, pcol;
};

struct rawedge {
	int64_t src, dst;
	int pline, pcol;
};

struct idlist {
	ipp_id *ids;
	size_t n, cap;
};

struct rawcallee {
	int64_t call;
	char *asm_name, *name;	/* name NULL: the assembler name */
	int pline, pcol;
};

/* The keys of a map document, in the order the writer emits them. */
enum map_key {
	K_MODULE, K_IPP_VERSION, K_GCC_VERSION, K_MODE, K_LIMIT, K_CHECKSUM, K_FILES, K_PROCS,
	K_VERTICES, K_EDGES, K_RESTART_VERTICES, K_CUT_VERTICES, K_CUT_CALLS, K_CALLEES,
	K_BACK_EDGES, K_SUMMARIES, K_FALLBACK, K_REGIONS, K_TOTAL, K_OFFSETS, K_DIGEST, K_COUNT
};
/* Every key is required but these (maps from before them lack them;
 * 'offsets' is also left out where no vertex has one). */
#define K_OPTIONAL(k) ((k) == K_CALLEES || (k) == K_OFFSETS)
/* The names of the keys, indexed by enum map_key. */
extern const char *const ipp_map_key_names[K_COUNT];

/* One document: which keys it has and where (for messages), and its
 * records.  The lists of ids are increasing (read_id_list checks it). */
struct mapdoc {
	ipp_map *m;		/* scalars, summaries and regions go straight here */
	bool seen[K_COUNT];
	int kline[K_COUNT], kcol[K_COUNT];
	char **files;
	size_t nfiles, capfiles;
	struct rawproc *procs;
	size_t nprocs, capprocs;
	struct rawvert *verts;
	size_t nverts, capverts;
	struct rawedge *edges;
	size_t nedges, capedges;
	struct rawcallee *callees;
	size_t ncallees, capcallees;
	struct idlist restart, cutv, cutc, back, fallback;
	size_t capsum, capreg, capoff;
};

/* (map_cache.c) The records of a document read (step 1, before step 2
 * moves any of them) in the binary form of a cache file, naming the text
 * they were read from by its hash and length; line numbers are stored
 * relative to line0, the lines before the document.  Returns a malloc'd
 * buffer of *len bytes. */
char *ipp_mapdoc_save(const struct mapdoc *d, int line0, uint64_t text_hash, size_t text_len,
		      size_t *len);
/* Fills d (d->m allocated, everything else zero) from a cache file's
 * contents if they are intact and name this text.  Returns 0, or -1 (then
 * d holds what was read so far, for mapdoc_free and ipp_map_free). */
int ipp_mapdoc_load(const char *buf, size_t len, int line0, uint64_t text_hash,
		    size_t text_len, struct mapdoc *d);

/* Step 2: rebuilds d->m's graph, cuts and facts from the records of a
 * document read whole; 0, or -1 with the error in r. */
int ipp_map_rebuild(ipp_yreader *r, struct mapdoc *d);

#endif /* IPP_MAP_INTERNAL_H */
