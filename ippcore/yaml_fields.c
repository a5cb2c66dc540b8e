/* yaml_fields.c -- the field decoders of the YAML reader (format_internal.h):
 * an item read by ipp_yr_value()/ipp_yr_tuple() as a string, an integer in
 * a range, a uint64, an exact (GMP) integer, 16 hex digits or a mode name.
 *
 * Each fails with "name:line:col: WHAT: expected ..., got ..." at the
 * item's position and never writes a value it did not fully check.
 * Numbers are canonical decimals only: digits without sign, leading zeros,
 * spaces or '+' ("-" where a range allows negatives, never "-0"); a number
 * that does not fit is an error, never wrapped or clamped.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "internal.h"
#include "format_internal.h"

#include <inttypes.h>

const char *ipp_yr_type_name(const ipp_yitem *it)
{
	return it->type == IPP_YI_NULL ? "null" : it->type == IPP_YI_LIST ? "a list" : "a scalar";
}

int ipp_yr_str(ipp_yreader *r, const ipp_yitem *it, const char *what, const char **out)
{
	*out = "";
	if (it->type != IPP_YI_SCALAR)
		return ipp_yr_fail(r, it->line, it->col, "%s: expected a string, got %s", what,
				   ipp_yr_type_name(it));
	*out = ipp_yr_text(r, it);
	return 0;
}

int ipp_yr_nonempty_str(ipp_yreader *r, const ipp_yitem *it, const char *what,
			const char **out)
{
	if (ipp_yr_str(r, it, what, out) < 0)
		return -1;
	if (!**out)
		return ipp_yr_fail(r, it->line, it->col, "%s: must not be empty", what);
	return 0;
}

/* Parses the digits of s (no sign, no leading zero unless "0") as a uint64.
 * Returns 0, -1 if not a number, -2 on overflow. */
static int parse_digits(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	if (!ipp_ascii_digit(s[0]) || (s[0] == '0' && s[1]))
		return -1;
	for (; *s; s++) {
		if (!ipp_ascii_digit(*s))
			return -1;
		if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -2;
		v = 10 * v + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

static int fail_number(ipp_yreader *r, const ipp_yitem *it, const char *what, bool neg_ok)
{
	const char *s = ipp_yr_text(r, it);
	if (s[0] == '-' && !neg_ok && parse_digits(s + 1, &(uint64_t){0}) != -1)
		return ipp_yr_fail(r, it->line, it->col, "%s: negative numbers are not allowed "
				   "here (got %.40s)", what, s);
	return ipp_yr_fail(r, it->line, it->col, "%s: expected a%s decimal integer, got '%.40s'",
			   what, neg_ok ? "" : " non-negative", s);
}

int ipp_yr_u64(ipp_yreader *r, const ipp_yitem *it, const char *what, uint64_t *out)
{
	int rc;
	if (it->type != IPP_YI_SCALAR)
		return ipp_yr_fail(r, it->line, it->col, "%s: expected an integer, got %s", what,
				   ipp_yr_type_name(it));
	rc = parse_digits(ipp_yr_text(r, it), out);
	if (rc == -2)
		return ipp_yr_fail(r, it->line, it->col, "%s: %.40s does not fit in 64 bits",
				   what, ipp_yr_text(r, it));
	if (rc < 0)
		return fail_number(r, it, what, false);
	return 0;
}

int ipp_yr_int(ipp_yreader *r, const ipp_yitem *it, const char *what,
	       int64_t min, int64_t max, int64_t *out)
{
	const char *s;
	uint64_t mag = 0;	/* parse_digits() sets it only on success */
	bool neg;
	int rc;
	if (it->type != IPP_YI_SCALAR)
		return ipp_yr_fail(r, it->line, it->col, "%s: expected an integer, got %s", what,
				   ipp_yr_type_name(it));
	s = ipp_yr_text(r, it);
	neg = s[0] == '-';
	rc = parse_digits(s + neg, &mag);
	if (rc == -1 || (rc == 0 && neg && mag == 0))	/* "-0" is not canonical */
		return fail_number(r, it, what, min < 0);
	if (neg && min >= 0)
		return fail_number(r, it, what, false);
	if (rc == -2 || mag > (uint64_t)INT64_MAX ||
	    (neg ? -(int64_t)mag < min : (int64_t)mag > max))
		return ipp_yr_fail(r, it->line, it->col, "%s: %.40s is out of range [%" PRId64
				   ", %" PRId64 "]", what, s, min, max);
	*out = neg ? -(int64_t)mag : (int64_t)mag;
	return 0;
}

int ipp_yr_mpz(ipp_yreader *r, const ipp_yitem *it, const char *what, mpz_t out)
{
	const char *s;
	if (it->type != IPP_YI_SCALAR)
		return ipp_yr_fail(r, it->line, it->col, "%s: expected an integer, got %s", what,
				   ipp_yr_type_name(it));
	s = ipp_yr_text(r, it);
	if (!ipp_ascii_digit(s[0]) || (s[0] == '0' && s[1]))
		return fail_number(r, it, what, false);
	for (const char *p = s; *p; p++)
		if (!ipp_ascii_digit(*p))
			return fail_number(r, it, what, false);
	if (mpz_set_str(out, s, 10) != 0)
		return fail_number(r, it, what, false);
	return 0;
}

int ipp_yr_hex64(ipp_yreader *r, const ipp_yitem *it, const char *what, uint64_t *out)
{
	const char *s;
	uint64_t v = 0;
	if (it->type != IPP_YI_SCALAR)
		return ipp_yr_fail(r, it->line, it->col, "%s: expected 16 hex digits, got %s",
				   what, ipp_yr_type_name(it));
	s = ipp_yr_text(r, it);
	if (it->len != 16)
		goto bad;
	for (int i = 0; i < 16; i++) {
		int c = s[i], d;
		if (ipp_ascii_digit(c))
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			goto bad;
		v = (v << 4) | (uint64_t)d;
	}
	*out = v;
	return 0;
bad:
	return ipp_yr_fail(r, it->line, it->col, "%s: expected 16 hex digits, got '%.40s'",
			   what, s);
}

int ipp_yr_mode(ipp_yreader *r, const ipp_yitem *it, const char *what, enum ipp_mode *out)
{
	const char *s;
	if (ipp_yr_str(r, it, what, &s) < 0)
		return -1;
	if (ipp_mode_parse(s, out) < 0)
		return ipp_yr_fail(r, it->line, it->col, "%s: unknown mode '%.40s' (expected "
				   "context, piecewise, intra or intra-context)", what, s);
	return 0;
}
