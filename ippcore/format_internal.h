/* format_internal.h -- helpers private to the files that read and write
 * ipp's formats (the map_*.c files and profile.c): string interning, the
 * YAML scalar writer, the pull reader of YAML events and its field
 * decoders, and reading a whole file.  Not part of the API (ipp_format.h).
 *
 * The reader never trusts what it reads: every number, id and count is
 * checked before use, and every problem becomes "file:line:col: what was
 * expected" in the caller's err buffer.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_FORMAT_INTERNAL_H
#define IPP_FORMAT_INTERNAL_H

#include "ipp_format.h"

#include <yaml.h>

/* A set of strings with dense indices (open addressing on FNV-1a). */
typedef struct ipp_strtab {
	char **names;		/* index -> string (owned) */
	size_t n, cap;
	uint32_t *slots;	/* 0 empty, else index + 1 */
	size_t nslots;
} ipp_strtab;
uint32_t ipp_strtab_intern(ipp_strtab *t, const char *s, bool *added);
int64_t ipp_strtab_find(const ipp_strtab *t, const char *s);	/* -1 if absent */
void ipp_strtab_free(ipp_strtab *t);

/* '0' to '9' (isdigit() without the locale and the sign of char). */
static inline bool ipp_ascii_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* Writes s as a YAML scalar: plain if it is a "simple name" (see
 * docs/FORMAT.md), else double-quoted.  s must be valid UTF-8. */
void ipp_yw_str(FILE *out, const char *s);
bool ipp_yw_utf8_ok(const char *s);
/* Writes "key: [a, b, ...]" and a newline, wrapping long lists. */
void ipp_yw_id_list(FILE *out, const char *key, const ipp_id *ids, size_t n);

/* A value read by ipp_yr_value() / ipp_yr_tuple(): a scalar, a null, or a
 * flow list of scalars (one level of nesting, as the formats use). */
enum ipp_yitem_type { IPP_YI_SCALAR, IPP_YI_NULL, IPP_YI_LIST };
typedef struct ipp_yitem {
	enum ipp_yitem_type type;
	size_t text;		/* SCALAR: offset of its NUL-terminated text in the arena */
	size_t len;		/* SCALAR: length of the text */
	size_t first, n;	/* LIST: its elements are sub[first .. first+n-1] */
	int line, col;		/* 1-based position */
} ipp_yitem;

/* A pull reader of YAML events with position-carrying error messages. */
typedef struct ipp_yreader {
	yaml_parser_t parser;
	yaml_event_t ev;	/* the lookahead event, valid if 'have' */
	bool have;
	bool failed;		/* an error is in err; every call now fails */
	const char *name;
	char *err;
	size_t errlen;
	/* the last value or tuple read; reset by each ipp_yr_value/tuple */
	ipp_yitem *items, *sub;
	size_t nitems, capitems, nsub, capsub;
	char *arena;
	size_t narena, caparena;
	int tline, tcol;	/* position of the last tuple */
	char *key;		/* the last key read by ipp_yr_key() */
} ipp_yreader;

void ipp_yr_init(ipp_yreader *r, const char *buf, size_t len, const char *name,
		 char *err, size_t errlen);
void ipp_yr_fini(ipp_yreader *r);
int ipp_yr_fail(ipp_yreader *r, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The lookahead event (NULL after an error); aliases are rejected here. */
const yaml_event_t *ipp_yr_peek(ipp_yreader *r);
void ipp_yr_next(ipp_yreader *r);
/* 1-based position of the lookahead event (0 after an error). */
int ipp_yr_line(ipp_yreader *r);
int ipp_yr_col(ipp_yreader *r);
/* Consumes an event of 'type' or fails with "expected WHAT, got ...". */
int ipp_yr_expect(ipp_yreader *r, yaml_event_type_t type, const char *what);
/* Next key of a block mapping: 1 and its text in *key (valid until the next
 * read), 0 at the end of the mapping (consumed), -1 on error. */
int ipp_yr_key(ipp_yreader *r, char **key, int *line, int *col);
/* Next key of a block mapping whose keys are names[0 .. n-1]: 1 with its
 * index in *k (and seen[*k] set), 0 at the end of the mapping (consumed),
 * -1 on error: a key given twice, or one not in names ("unknown key 'K'
 * in IN").  Keys starting with "x-" are extensions: skipped with their
 * values. */
int ipp_yr_known_key(ipp_yreader *r, const char *const *names, int n, const char *in,
		     bool *seen, int *k, int *line, int *col);
/* Starts a list: 1 if a sequence started, 0 for an empty (null) value, -1. */
int ipp_yr_begin_list(ipp_yreader *r, const char *what);
/* 1 if the current sequence has another item, 0 at its end (consumed), -1. */
int ipp_yr_more(ipp_yreader *r);
/* Reads a scalar, null or flow list of scalars into r->items[0]. */
int ipp_yr_value(ipp_yreader *r, const char *what);
/* Reads a sequence of values into r->items[0 .. *n-1]. */
int ipp_yr_tuple(ipp_yreader *r, const char *what, size_t *n);
/* 0 if a tuple of n items has the 'want' items of WHAT, else fails with
 * "expected a sequence of WANT items for WHAT, got N" at the tuple. */
int ipp_yr_arity(ipp_yreader *r, size_t n, size_t want, const char *what);
/* Skips one node. */
int ipp_yr_skip(ipp_yreader *r);
/* Reads the start of a document whose first key must be "KEY: VERSION"
 * (e.g. "ipp-map: 1") up to that key's value; *line is the line the
 * document starts on.  DOC ("a map document") and KIND ("map") name it in
 * messages: "expected 'ipp-map: 1' as the first key of a map document",
 * "unsupported map version 2; this ipp reads version 1". */
int ipp_yr_begin_document(ipp_yreader *r, const char *key, int version, const char *doc,
			  const char *kind, int *line);
/* Checks the document end is explicit ("..."), consuming it. */
int ipp_yr_end_document(ipp_yreader *r);

static inline const char *ipp_yr_text(const ipp_yreader *r, const ipp_yitem *it)
{
	return r->arena + it->text;
}
/* "null", "a list" or "a scalar", for "got ..." in messages. */
const char *ipp_yr_type_name(const ipp_yitem *it);
/* Field decoders: each fails with "WHAT: ..." at the item's position. */
int ipp_yr_str(ipp_yreader *r, const ipp_yitem *it, const char *what, const char **out);
/* A string that is not "" ("WHAT: must not be empty"). */
int ipp_yr_nonempty_str(ipp_yreader *r, const ipp_yitem *it, const char *what,
			const char **out);
int ipp_yr_u64(ipp_yreader *r, const ipp_yitem *it, const char *what, uint64_t *out);
int ipp_yr_int(ipp_yreader *r, const ipp_yitem *it, const char *what,
	       int64_t min, int64_t max, int64_t *out);
int ipp_yr_mpz(ipp_yreader *r, const ipp_yitem *it, const char *what, mpz_t out);
int ipp_yr_hex64(ipp_yreader *r, const ipp_yitem *it, const char *what, uint64_t *out);
int ipp_yr_mode(ipp_yreader *r, const ipp_yitem *it, const char *what,
		enum ipp_mode *out);
/* Reads a whole file into memory; NULL with a message on error. */
char *ipp_read_whole_file(const char *path, size_t *len, char *err, size_t errlen);

#endif /* IPP_FORMAT_INTERNAL_H */
