/* elfsec.h -- reading a named section out of an ELF file (or out of each
 * member of an ar archive of ELF objects) with libelf.
 *
 * The ipp plugin writes each unit's map into a non-allocated section named
 * .ipp_map; the linker concatenates the sections of all units, so a program
 * holds one .ipp_map whose contents are a YAML stream of map documents.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_DECODER_ELFSEC_H
#define IPP_DECODER_ELFSEC_H

#include <stddef.h>

/* The contents of the sections named 'section' of one ELF file: every such
 * section, in section-header order, concatenated. */
struct elfsec_chunk {
	char *origin;		/* "prog", or "lib.a(member.o)" for an archive member */
	char *data;		/* malloc'd; not NUL-terminated */
	size_t len;
};

/* Reads the sections named 'section' from the ELF file 'path', or from every
 * ELF member of the ar archive 'path'.  On success returns 0 and sets
 * *chunks to a malloc'd array of *nchunks chunks (one per ELF file that has
 * the section; none if no file has it).  Returns -1 with a message naming
 * the file if it cannot be opened, is not ELF, or is corrupt or truncated. */
int elfsec_read(const char *path, const char *section, struct elfsec_chunk **chunks,
		size_t *nchunks, char *err, size_t errlen);
void elfsec_free(struct elfsec_chunk *chunks, size_t nchunks);

/* (needed.c) The paths of the shared libraries the ELF file 'program'
 * names in its DT_NEEDED entries, found as the dynamic linker finds them
 * (those not found are left out).  Returns 0 and a malloc'd array of
 * malloc'd paths, or -1 if 'program' cannot be read as ELF. */
int elfsec_needed_libraries(const char *program, char ***libs, size_t *nlibs);

#endif
