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
	mpz_t num;		/* number within the region */
	uint64_t count;
	bool partial;
	const ipp_id *stack;	/* partial: the stop stack (borrowed) */
	size_t nstack;
	size_t rank;		/* 1-based position in the ranking; 0 for ipp decode */
	bool decoded;
	struct steps steps;	/* if decoded */
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
	size_t nshown;			/* recs[0 .. nshown-1] are printed, decoded */
	mpz_t total;			/* executions recorded in all the units */
	bool show_regions;		/* print each unit's region table */
};

/* Matches 'prof' (read from 'profname') to the program's units, checks it,
 * ranks its records and decodes the first 'top' of them (all of them if top
 * is SIZE_MAX) and every partial path.  Refuses a profile recorded from a
 * different build of a unit; warns about units of the profile that the
 * program does not have.  Returns 0, or -1 with a message. */
int report_from_profile(struct report *r, const struct program *prog, const ipp_profile *prof,
			const char *profname, size_t top, char *err, size_t errlen);

/* The single path 'num' of region 'region' of unit 'mod' (or, with a stack,
 * the partial path).  Returns 0, or -1 with a message (unknown region, number
 * out of range, no such prefix). */
int report_single(struct report *r, const struct program *prog, size_t mod, const char *region,
		  const mpz_t num, const ipp_id *stack, size_t nstack, char *err, size_t errlen);

void report_free(struct report *r);

/* Decodes record x of r (a report_from_profile() report) if its steps are
 * not there yet (records past 'top' are not decoded).  Returns 0, or -1
 * with a message. */
int report_decode(struct report *r, struct rec *x, char *err, size_t errlen);

/* The paper numbers paths globally (equation 27): region offset + number
 * within the region.  Returns the region holding global number 'global' and
 * sets 'local' to the number within it; IPP_NONE if out of range. */
ipp_id region_of_global(const ipp_fin *fin, const mpz_t global, mpz_t local);

#endif
