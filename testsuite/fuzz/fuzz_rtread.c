/* fuzz_rtread.c -- libFuzzer target: the runtime's reading of an existing
 * profile (rt_file_parse in runtime/rt_merge.c over the one profile reader,
 * runtime/ipp_profile.c), which every profiled program runs on whatever
 * file lies at its profile's name.  No module is registered, so every
 * module of the input is another program's and is kept verbatim.  The
 * sanitizers (ASan, UBSan) catch crashes and overflows; the arena's memory
 * is the runtime's own (mmap).
 *
 * Properties: what the runtime accepts, the core's reader accepts too; and
 * what the runtime writes back (its modules copied verbatim, a new header
 * and digest) reads as the input does (test_rt_parse checks the same on
 * random mutations of valid profiles; here on whatever the fuzzer finds).
 *
 * The input is copied to an 8-byte aligned buffer, as the runtime reads a
 * file into its arena.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_internal.h"
#include "ipp_format.h"

/* The core's canonical text of a profile, or NULL if it does not read. */
static char *canon(const void *buf, size_t len, char *err, size_t errlen)
{
	char *text = NULL;
	size_t n;
	ipp_profile *p = ipp_profile_read_buffer(buf, len, "input", err, errlen);
	FILE *f;
	if (!p)
		return NULL;
	f = open_memstream(&text, &n);
	if (!f || ipp_profile_write_text(f, p, err, errlen) < 0)
		abort();
	fclose(f);
	ipp_profile_free(p);
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_arena a = { NULL, false };
	struct rt_snapshot s;
	struct rt_file f;
	char err[1024];
	char *buf = aligned_alloc(8, (size + 8) & ~(size_t)7);
	int rc;

	memcpy(buf, data, size);
	memset(&s, 0, sizeof(s));
	rc = rt_file_parse(buf, size, "input", &s, &a, &f, err, sizeof(err));
	if (rc == 0) {
		char cerr[512], *in = canon(buf, size, cerr, sizeof(cerr)), *out;
		FILE *t = tmpfile();
		struct rt_out *o = calloc(1, sizeof(*o));
		char *back;
		long n;
		if (!in) {
			fprintf(stderr, "fuzz_rtread: the runtime accepts what the core rejects: "
				"%s\n", cerr);
			abort();
		}
		rt_out_open(o, fileno(t));
		if (rt_emit_profile(o, &s, &f, &a) != 0)
			abort();
		n = lseek(o->fd, 0, SEEK_END);
		back = aligned_alloc(8, ((size_t)n + 8) & ~(size_t)7);
		if (pread(o->fd, back, (size_t)n, 0) != n)
			abort();
		out = canon(back, (size_t)n, cerr, sizeof(cerr));
		if (!out || strcmp(in, out) != 0) {
			fprintf(stderr, "fuzz_rtread: the rewrite differs: %s\n", out ? "" : cerr);
			abort();
		}
		free(in);
		free(out);
		free(back);
		free(o);
		fclose(t);
	}
	rt_arena_free(&a);
	free(buf);
	return 0;
}
