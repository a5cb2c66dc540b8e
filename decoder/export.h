/* export.h -- `ipp export`: the formats other tools read, one file each
 * (cmd_export.c parses the command line and dispatches):
 *
 *   cmd_export_lcov.c    --lcov     lcov's tracefile (geninfo(1), genhtml)
 *   cmd_export_folded.c  --folded   folded stacks (flamegraph.pl, speedscope)
 *   cmd_export_json.c    --json     the whole decoded profile (docs/REPORT.md)
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_DECODER_EXPORT_H
#define IPP_DECODER_EXPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"

struct export_opts {
	const char *test_name;	/* --lcov: TN, "" by default */
	const char *base_dir;	/* --lcov: relative source names are taken from here */
	const char *relative_to;	/* --lcov: names below it are written relative to it */
	bool lines;		/* --folded: frames carry their lines */
};

/* Each writes d (derived_load(), every path decoded: export_decode_all())
 * to out.  Returns 0, or -1 after the message. */
int export_lcov(FILE *out, const struct derived *d, const struct export_opts *o);
int export_folded(FILE *out, const struct derived *d, const struct export_opts *o);
int export_json(FILE *out, const struct derived *d, const struct export_opts *o);

/* Decodes every record of d's report (derived_load() decodes none but the
 * partial paths).  Returns 0, or -1 after the message. */
int export_decode_all(struct derived *d);

#endif
