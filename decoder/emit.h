/* emit.h -- a small streaming writer of YAML and JSON documents from one
 * sequence of calls, so that `ipp report --format=yaml` and `--format=json`
 * print the same tree.
 *
 * YAML comes out in block style (flow style for containers begun with
 * *_flow), strings plain when that is unambiguous and double-quoted
 * otherwise, big integers as plain integers.  JSON comes out indented by two
 * spaces (flow containers on one line), and big integers -- path numbers,
 * counts and totals, which exceed 2^53 -- as strings.
 *
 * Usage:  emit_begin_map(e); emit_key(e, "name"); emit_str(e, "x"); ...
 *         emit_end(e); emit_finish(e);
 * Calls must nest properly; a key must precede each value in a mapping.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_DECODER_EMIT_H
#define IPP_DECODER_EMIT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <gmp.h>

enum emit_format { EMIT_YAML, EMIT_JSON };

typedef struct emitter emitter;

emitter *emit_new(FILE *out, enum emit_format format);
/* Ends the document (a final newline) and frees the emitter. */
void emit_finish(emitter *e);

void emit_begin_map(emitter *e);
void emit_begin_map_flow(emitter *e);
void emit_begin_seq(emitter *e);
void emit_begin_seq_flow(emitter *e);
void emit_end(emitter *e);		/* ends the innermost container */

void emit_key(emitter *e, const char *key);
void emit_str(emitter *e, const char *s);	/* NULL writes null */
void emit_str_quoted(emitter *e, const char *s);	/* always "..." (checksums) */
void emit_int(emitter *e, long long v);		/* a small number: a number in JSON too */
void emit_bool(emitter *e, bool v);
void emit_null(emitter *e);
/* A number that may exceed 2^53: an integer in YAML, a string in JSON. */
void emit_big(emitter *e, const mpz_t v);
void emit_big_u64(emitter *e, uint64_t v);
/* A finite double (a number in both formats; ratios, not counts). */
void emit_double(emitter *e, double v);

/* A key and its value, in one call. */
void emit_key_str(emitter *e, const char *key, const char *s);
void emit_key_int(emitter *e, const char *key, long long v);
void emit_key_big(emitter *e, const char *key, const mpz_t v);
void emit_key_u64(emitter *e, const char *key, uint64_t v);

#endif
