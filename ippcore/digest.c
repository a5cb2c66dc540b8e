/* digest.c -- the profile's digest (docs/FORMAT.md, "Digest"): XXH64
 * (seed 0) of every byte of the file before the line
 *
 *     digest: "<16 hex digits>"
 *
 * which is the last line before the document end '...'.  The runtime and
 * ipp_profile_write write it; every reader checks it, so a profile edited
 * by hand (a record deleted, a count changed) or corrupted is refused
 * instead of read as valid.  A profile without the line (earlier runtimes,
 * hand-written inputs) is read as before.  No key makes a profile safe
 * from someone who recomputes the digest: this is evidence of edits and
 * corruption, not a signature.
 *
 * XXH64 comes from Debian's libxxhash-dev, header only (XXH_INLINE_ALL),
 * as in the runtime (runtime/rt_internal.h), so that both compute it with
 * the same code.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "internal.h"
#include "format_internal.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

uint64_t ipp_profile_digest(const char *buf, size_t len)
{
	return XXH64(buf, len, 0);
}

static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The line [s, e) is "..." (the document end), CR allowed. */
static bool is_end_line(const char *s, const char *e)
{
	if (e > s && e[-1] == '\r')
		e--;
	return e - s == 3 && memcmp(s, "...", 3) == 0;
}

int ipp_profile_digest_check(const char *buf, size_t len, const char *name, size_t *where,
			     char *err, size_t errlen)
{
	static const char key[] = "digest:";
	const char *end = buf + len, *ls = NULL, *le, *prev = NULL;
	uint64_t want = 0, got;
	int line = 1, dline = 0;
	char h1[17], h2[17];

	*where = 0;
	/* the last "..." line, and the line before it */
	for (const char *s = buf, *pl = NULL; s < end; line++) {
		const char *e = memchr(s, '\n', (size_t)(end - s));
		if (!e)
			e = end;
		if (is_end_line(s, e)) {
			ls = s;
			prev = pl;
			dline = line - 1;
		}
		pl = s;
		s = e + 1;
	}
	if (!ls || !prev || (size_t)(ls - prev) < sizeof(key) - 1 ||
	    memcmp(prev, key, sizeof(key) - 1) != 0)
		return 0;	/* no digest */
	le = ls - 1;	/* the '\n' that ends the digest line */
	if (le - prev != 26 || memcmp(prev, "digest: \"", 9) != 0 || prev[25] != '"')
		goto bad;
	for (int k = 0; k < 16; k++) {
		int v = hexval((unsigned char)prev[9 + k]);
		if (v < 0)
			goto bad;
		want = want << 4 | (uint64_t)v;
	}
	got = ipp_profile_digest(buf, (size_t)(prev - buf));
	if (got != want) {
		ipp_seterr(err, errlen, "%s:%d: profile digest mismatch: the file says %s, its "
			   "contents give %s (the profile was edited or corrupted after it was "
			   "written; ipp writes profiles only through the runtime and ipp merge)",
			   name, dline, ipp_hex64(want, h1), ipp_hex64(got, h2));
		return -1;
	}
	*where = (size_t)dline;
	return 1;
bad:
	ipp_seterr(err, errlen, "%s:%d: malformed digest line: expected 'digest: \"<16 hex "
		   "digits>\"' before '...'", name, dline);
	return -1;
}
