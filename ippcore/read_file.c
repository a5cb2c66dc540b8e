/* read_file.c -- reading a whole file into memory, for the map and profile
 * readers (format_internal.h), which hand libyaml one buffer.
 *
 * The buffer starts at 64 KiB and doubles whenever less than 64 KiB of it
 * is free; it is not NUL-terminated (the readers take a length).  A file
 * that cannot be opened or read gives "path: <strerror>" and no buffer.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "internal.h"
#include "format_internal.h"

#include <errno.h>

char *ipp_read_whole_file(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;
	if (!f) {
		ipp_seterr(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t got;
		if (cap - n < 65536) {
			cap = cap ? 2 * cap : 65536;
			buf = ipp_xrealloc(buf, cap);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		ipp_seterr(err, errlen, "%s: read error: %s", path, strerror(errno));
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}
