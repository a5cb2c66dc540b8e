/* fuzz_map.c -- libFuzzer target: the core's map reader
 * (ipp_map_read_buffer: a YAML stream of map documents, what `ipp` reads
 * from a program's .ipp_map section) on arbitrary bytes, and the lazy
 * reader the tool uses (ipp_map_index_buffer, then ipp_map_read_span per
 * document).  The sanitizers (ASan, UBSan) catch what they must never do:
 * crash, overflow, leak.  And whenever the whole stream reads, the lazy
 * reader must read the same documents (abort() otherwise: a finding).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ipp_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	char err[512];
	ipp_map **maps = NULL;
	ipp_map_span *spans = NULL;
	size_t n = 0, ns = 0;
	int whole = ipp_map_read_buffer(buf, size, "input", &maps, &n, err, sizeof(err));

	if (ipp_map_index_buffer(buf, size, "input", &spans, &ns, err, sizeof(err)) == 0) {
		if (whole == 0 && ns != n)
			abort();
		for (size_t i = 0; i < ns; i++) {
			ipp_map *m = NULL;
			int rc = ipp_map_read_span(buf, &spans[i], "input", &m, err, sizeof(err));
			if (whole == 0 && (rc != 0 || m->checksum != maps[i]->checksum ||
					   m->line != maps[i]->line ||
					   strcmp(m->module, maps[i]->module) != 0))
				abort();
			if (rc == 0)
				ipp_map_free(m);
		}
		ipp_map_spans_free(spans, ns);
	} else if (whole == 0) {
		abort();	/* a stream that reads whole must index */
	}
	if (whole == 0)
		ipp_map_free_all(maps, n);
	return 0;
}
