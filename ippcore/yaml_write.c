/* yaml_write.c -- writing the text of ipp's YAML formats (the map writer
 * and profile.c): scalars quoted only when they must be, lists of ids, the
 * 16-hex-digit form of checksums and digests, and the UTF-8 check every
 * string passes before it is written.
 *
 * Invariants: a string given to ipp_yw_str() has passed ipp_yw_utf8_ok()
 * (YAML text is UTF-8; the writers check and refuse bad strings first).  A
 * scalar is written plain only if it is a "simple name" (docs/FORMAT.md),
 * which no YAML 1.1 reader takes for a null, a boolean or a number; every
 * other string is double-quoted with escapes, so it reads back unchanged.
 *
 * This is the core's one UTF-8 decoder.  (The runtime keeps its own copy:
 * it is MIT-licensed and cannot link this file.)
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "internal.h"
#include "format_internal.h"

#include <inttypes.h>

char *ipp_hex64(uint64_t v, char out[17])
{
	static const char digits[] = "0123456789abcdef";
	for (int i = 15; i >= 0; i--) {
		out[i] = digits[v & 15];
		v >>= 4;
	}
	out[16] = '\0';
	return out;
}

static bool ascii_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* A "simple name" is written plain: it starts with a letter, '_' or '/',
 * goes on with letters, digits and _ . / $ # + -, and is not one of the
 * words YAML 1.1 reads as null or a boolean.  Everything else is quoted. */
static bool simple_name(const char *s)
{
	static const char *const reserved[] = {
		"null", "true", "false", "yes", "no", "on", "off", "y", "n"
	};
	if (!ascii_alpha(s[0]) && s[0] != '_' && s[0] != '/')
		return false;
	for (const char *p = s; *p; p++)
		if (!ascii_alpha(*p) && !ipp_ascii_digit(*p) && !strchr("_./$#+-", *p))
			return false;
	for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
		if (strcasecmp(s, reserved[i]) == 0)
			return false;
	return true;
}

/* Decodes one UTF-8 sequence at s; returns its length (0 if invalid:
 * truncated, overlong, a surrogate or beyond U+10FFFF) and the code point. */
static size_t utf8_decode(const unsigned char *s, uint32_t *cp)
{
	size_t n;
	uint32_t c = s[0], min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if ((c & 0xe0) == 0xc0) {
		n = 2, c &= 0x1f, min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		n = 3, c &= 0x0f, min = 0x800;
	} else if ((c & 0xf8) == 0xf0) {
		n = 4, c &= 0x07, min = 0x10000;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;	/* also stops at the NUL */
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

bool ipp_yw_utf8_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t cp;
	while (*p) {
		size_t n = utf8_decode(p, &cp);
		if (!n)
			return false;
		p += n;
	}
	return true;
}

/* YAML's c-printable set, minus what a double-quoted scalar must escape. */
static bool yaml_printable(uint32_t c)
{
	return (c >= 0x20 && c <= 0x7e) || c == 0x85 || (c >= 0xa0 && c <= 0xd7ff) ||
	       (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
}

void ipp_yw_str(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	if (simple_name(s)) {
		fputs(s, out);
		return;
	}
	putc('"', out);
	while (*p) {
		uint32_t c;
		size_t n = utf8_decode(p, &c);
		if (!n) {	/* callers check ipp_yw_utf8_ok() first */
			c = *p;
			n = 1;
		}
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", (int)c);
		else if (!yaml_printable(c))
			fprintf(out, c < 0x100 ? "\\x%02" PRIX32 : "\\u%04" PRIX32, c);
		else
			fwrite(p, 1, n, out);
		p += n;
	}
	putc('"', out);
}

void ipp_yw_id_list(FILE *out, const char *key, const ipp_id *ids, size_t n)
{
	int col = fprintf(out, "%s: [", key);
	for (size_t i = 0; i < n; i++) {
		if (i && col > 90) {
			fputs(",\n  ", out);
			col = 2;
		} else if (i) {
			col += fprintf(out, ", ");
		}
		col += fprintf(out, "%" PRId32, ids[i]);
	}
	fputs("]\n", out);
}
