/* fuzz_rtparse.c -- libFuzzer target: the runtime's own reader of an
 * existing profile (rt_file_parse in runtime/rt_merge.c), which every
 * profiled program runs on whatever file lies at its profile's name.  No
 * module is registered, so every module of the input is another program's
 * and is kept verbatim.  The sanitizers (ASan, UBSan) catch crashes and
 * overflows; the arena's memory is the runtime's own (mmap).
 *
 * Property: what the runtime accepts, the core's reader accepts too
 * (test_rt_parse checks the same on random mutations of valid profiles;
 * here on whatever the fuzzer finds).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"
#include "ipp_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_arena a = { NULL, false };
	struct rt_snapshot s;
	struct rt_file f;
	char err[1024];
	int rc;

	memset(&s, 0, sizeof(s));
	rc = rt_file_parse((const char *)data, size, "input", &s, &a, &f, err, sizeof(err));
	if (rc == 0 && size > 0) {
		char cerr[512];
		ipp_profile *p = ipp_profile_read_buffer((const char *)data, size, "input", cerr,
							 sizeof(cerr));
		if (!p) {
			fprintf(stderr, "fuzz_rtparse: the runtime accepts what the core rejects: "
				"%s\n", cerr);
			abort();
		}
		ipp_profile_free(p);
	}
	rt_arena_free(&a);
	return 0;
}
