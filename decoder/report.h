/* report.h -- the report model: the paths of a profile matched to the
 * program's maps, ranked, and decoded; or a single path decoded from its
 * number (ipp decode).  The writers (write_text.c, write_struct.c) print it.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_DECODER_REPORT_H
#define IPP_DECODER_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipp_core.h"
#include "ipp_format.h"
#include "program.h"
#include "steps.h"

/* One recorded path (or partial path) of a unit. */
struct rec {
	size_t mod;		/* index into program.mods */
	ipp_id region;		/* G*fin region */
	ipp_pnum num;		/* number within the region (owned) */
	uint64_t count;
	bool partial;
	const ipp_id *stack;	/* partial: the stop stack (borrowed) */
	size_t nstack;
	size_t rank;		/* 1-based position in the ranking; 0 for ipp decode */
	bool decoded;
	struct steps steps;	/* if decoded */
	/* A complete path whose count adds up the twins of its region
	 * (ipp_fin_region_twins: an inlined copy's paths counted as its
	 * function's): every region that counted it, with its count, in
	 * region order; NULL when only 'region' did. */
	struct rec_fold *folds;
	size_t nfolds;
};

struct rec_fold {
	ipp_id region;
	uint64_t count;
};

/* Per unit of the program. */
struct mod_report {
	const ipp_prof_module *pm;	/* its profile module, or NULL (never ran) */
	mpz_t recorded;			/* executions recorded (sum of counts) */
	size_t nrecords;		/* distinct paths and partial paths recorded */
	struct step_ctx ctx;
};

enum report_kind { REPORT_PROFILE, REPORT_DECODE };

struct report {
	enum report_kind kind;
	const struct program *prog;
	const char *profile_name;	/* REPORT_PROFILE */
	struct mod_report *mods;	/* [prog->nmods] */
	struct rec *recs;		/* sorted: count descending, then (module,
					 * region, number, complete first, stack) */
	size_t nrecs;
	struct rec **shown;		/* the records printed, decoded, by rank */
	size_t nshown;
	size_t nmatching;		/* records the filter selects (all without) */
	mpz_t total;			/* executions recorded in all the units */
	bool show_regions;		/* print each unit's region table */
	size_t width;			/* text: columns to fit paths in; 0 none */
};

/* Which records a report shows (report_select); NULL fields select all.
 * A record matches when its unit is 'module' (its name, or its base name),
 * and its active suffix (the vertices it counts: docs/REPORT.md) has a
 * vertex of function 'function' (source or assembler name) and a vertex
 * in file 'file' (the name in the map, or its base name). */
struct report_filter {
	const char *module, *function, *file;
};

/* Matches 'prof' (read from 'profname') to the program's units, checks it,
 * ranks its records and decodes the first 'top' of them (all of them if top
 * is SIZE_MAX) and every partial path.  Refuses a profile recorded from a
 * different build of a unit; warns about units of the profile that the
 * program does not have.  Returns 0, or -1 with a message. */
int report_from_profile(struct report *r, const struct program *prog, const ipp_profile *prof,
			const char *profname, size_t top, char *err, size_t errlen);

/* The same without the complete paths: matches and checks 'prof' and
 * decodes its partial paths (what every record must pass: the first
 * failure is the one report_from_profile would give), but r->recs holds
 * only the partial paths, ranked among themselves (r->total and
 * mods[].recorded count them alone), and nothing is shown.
 * A report of a million paths costs a hundred bytes each. */
int report_check_profile(struct report *r, const struct program *prog, const ipp_profile *prof,
			 const char *profname, char *err, size_t errlen);

/* The single path 'num' of region 'region' of unit 'mod' (or, with a stack,
 * the partial path).  Returns 0, or -1 with a message (unknown region, number
 * out of range, no such prefix). */
int report_single(struct report *r, const struct program *prog, size_t mod, const char *region,
		  const mpz_t num, const ipp_id *stack, size_t nstack, char *err, size_t errlen);

void report_free(struct report *r);

/* Orders records by the profile's key: unit, region, number, complete
 * before partial, stop stack (the ranking's order among equal counts). */
int rec_key_cmp(const struct rec *a, const struct rec *b);

/* Shows the first 'top' records (by rank) that match filter f (NULL: all),
 * decoded; counts every match in r->nmatching (decoding every record when f
 * names a function or a file).  Returns 0, or -1 with a message. */
int report_select(struct report *r, const struct report_filter *f, size_t top, char *err,
		  size_t errlen);

/* Is 'name' the path 'path' or its base name (the part after the last
 * '/')? */
bool name_or_base(const char *path, const char *name);

/* Decodes record x into x->steps (nothing if x->decoded).  Returns 0, or
 * -1 with a message. */
int report_decode(struct report *r, struct rec *x, char *err, size_t errlen);
/* The G*fin edges of record x (ipp_decode / ipp_decode_partial) into
 * 'path' (initialised).  Returns 0, or -1 with a message. */
int report_rec_edges(const struct report *r, const struct rec *x, ipp_path *path, char *err,
		     size_t errlen);

/* The paper numbers paths globally (equation 27): region offset + number
 * within the region.  Returns the region holding global number 'global' and
 * sets 'local' to the number within it; IPP_NONE if out of range. */
ipp_id region_of_global(const ipp_fin *fin, const mpz_t global, mpz_t local);

#endif
