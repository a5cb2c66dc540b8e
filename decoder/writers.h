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

/* Pieces of the YAML / JSON documents (write_struct.c): "key: value"
 * pairs; file and line of a G* vertex (null when unknown); a vertex of a
 * decoded path (docs/REPORT.md, "A vertex"). */
static inline void key_str(emitter *e, const char *k, const char *v)
{
	emit_key(e, k);
	emit_str(e, v);
}
static inline void key_int(emitter *e, const char *k, long long v)
{
	emit_key(e, k);
	emit_int(e, v);
}
static inline void key_big(emitter *e, const char *k, const mpz_t v)
{
	emit_key(e, k);
	emit_big(e, v);
}
static inline void key_pnum(emitter *e, const char *k, const ipp_pnum *v)
{
	mpz_t z;
	mpz_init(z);
	ipp_pnum_get(v, z);
	key_big(e, k, z);
	mpz_clear(z);
}
void key_location(emitter *e, const ipp_graph *g, ipp_id v);
void struct_vertex(emitter *e, const struct prog_module *m, const struct step *s);
/* "stack: [...]" of a partial record (nothing for a complete one); the
 * decoded "vertices" of a record. */
void struct_stack(emitter *e, const struct rec *x);
void struct_vertices(emitter *e, const struct prog_module *m, const struct rec *x);
/* Pieces of the documents, for other documents (ipp export --json): the
 * `regions` key of a unit, and one path of a report (a mapping). */
void emit_regions(emitter *e, const struct prog_module *m);
void emit_report_path(emitter *e, const struct report *r, const struct rec *x);

/* Writes the report in any format. */
void write_report(FILE *out, enum out_format f, const struct report *r);
void write_cuts(FILE *out, enum out_format f, const struct cuts_report *c);

#endif
