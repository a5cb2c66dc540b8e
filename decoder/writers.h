/* writers.h -- printing the report and cuts models: as readable text
 * (write_text.c) or as the stable YAML / JSON schema of docs/REPORT.md
 * (write_struct.c).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_DECODER_WRITERS_H
#define IPP_DECODER_WRITERS_H

#include <stdio.h>

#include "cuts.h"
#include "emit.h"
#include "report.h"

enum out_format { FORMAT_TEXT, FORMAT_YAML, FORMAT_JSON };

/* "text", "yaml" or "json"; returns 0, or -1 if s is none of them. */
int parse_format(const char *s, enum out_format *out);

/* The version of the YAML / JSON schema (docs/REPORT.md). */
#define REPORT_SCHEMA_VERSION 1

void write_report_text(FILE *out, const struct report *r);
void write_report_struct(FILE *out, enum emit_format f, const struct report *r);
void write_cuts_text(FILE *out, const struct cuts_report *c);
void write_cuts_struct(FILE *out, enum emit_format f, const struct cuts_report *c);

/* Pieces of the documents, for other documents (ipp export --json): the
 * `regions` key of a unit, and one path of a report (a mapping). */
void emit_regions(emitter *e, const struct prog_module *m);
void emit_report_path(emitter *e, const struct report *r, const struct rec *x);

/* Writes the report in any format. */
void write_report(FILE *out, enum out_format f, const struct report *r);
void write_cuts(FILE *out, enum out_format f, const struct cuts_report *c);

#endif
