/* fuzz_map.c -- libFuzzer target: the core's map reader
 * (ipp_map_read_buffer: a YAML stream of map documents, what `ipp` reads
 * from a program's .ipp_map section) on arbitrary bytes.  The sanitizers
 * (ASan, UBSan) catch what it must never do: crash, overflow, leak.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <stdint.h>
#include <stdlib.h>

#include "ipp_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	ipp_map **maps = NULL;
	size_t n = 0;
	if (ipp_map_read_buffer((const char *)data, size, "input", &maps, &n, err,
				sizeof(err)) == 0)
		ipp_map_free_all(maps, n);
	return 0;
}
