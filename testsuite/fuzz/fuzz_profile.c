/* fuzz_profile.c -- libFuzzer target: the core's profile reader
 * (ipp_profile_read_buffer, what `ipp` reads: the binary file and its text
 * form) on arbitrary bytes.
 *
 * Besides what the sanitizers catch (ASan, UBSan: no crash, overflow or
 * leak on any input), it checks properties: what the reader accepts, the
 * text writer writes, and the written text reads back and writes the same
 * bytes again (the canonical form is a fixed point); and the binary writer
 * writes it (unless a path number needs more than 64 bits, which only the
 * text form can hold), and the binary reads back to the same text.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipp_format.h"

static char *write_text(const ipp_profile *p, size_t *len)
{
	char err[512], *text = NULL;
	FILE *f = open_memstream(&text, len);
	if (!f || ipp_profile_write_text(f, p, err, sizeof(err)) < 0) {
		fprintf(stderr, "fuzz_profile: cannot write an accepted profile: %s\n", err);
		abort();
	}
	fclose(f);
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	ipp_profile *p = ipp_profile_read_buffer((const char *)data, size, "input", err,
						 sizeof(err)), *q;
	char *t1, *t2;
	size_t n1, n2;

	if (!p)
		return 0;
	t1 = write_text(p, &n1);
	q = ipp_profile_read_buffer(t1, n1, "rewritten", err, sizeof(err));
	if (!q) {
		fprintf(stderr, "fuzz_profile: the rewritten profile does not read: %s\n%s", err,
			t1);
		abort();
	}
	t2 = write_text(q, &n2);
	if (n1 != n2 || memcmp(t1, t2, n1) != 0) {
		fprintf(stderr, "fuzz_profile: writing is not a fixed point:\n%s---\n%s", t1, t2);
		abort();
	}
	{
		char *bin = NULL, *t3;
		size_t nb, n3;
		ipp_profile *r;
		FILE *f = open_memstream(&bin, &nb);
		int rc = ipp_profile_write(f, p, err, sizeof(err));
		fclose(f);
		if (rc < 0 && !strstr(err, "does not fit in 64 bits")) {
			fprintf(stderr, "fuzz_profile: cannot write the binary: %s\n", err);
			abort();
		}
		if (rc == 0) {
			r = ipp_profile_read_buffer(bin, nb, "binary", err, sizeof(err));
			if (!r) {
				fprintf(stderr, "fuzz_profile: the binary does not read: %s\n", err);
				abort();
			}
			t3 = write_text(r, &n3);
			if (n1 != n3 || memcmp(t1, t3, n1) != 0) {
				fprintf(stderr, "fuzz_profile: the binary reads otherwise:\n%s---\n%s",
					t1, t3);
				abort();
			}
			free(t3);
			ipp_profile_free(r);
		}
		free(bin);
	}
	free(t1);
	free(t2);
	ipp_profile_free(p);
	ipp_profile_free(q);
	return 0;
}
