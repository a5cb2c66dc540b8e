/* program.h -- the maps embedded in a program: every unit's map read out of
 * the program's .ipp_map section and renumbered (G*fin, checked against the
 * map's digest), so that paths can be decoded exactly as the plugin
 * numbered them.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_DECODER_PROGRAM_H
#define IPP_DECODER_PROGRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "ipp_core.h"
#include "ipp_format.h"

#define IPP_MAP_SECTION ".ipp_map"

/* One unit of the program. */
struct prog_module {
	ipp_map *map;		/* owned */
	ipp_fin *fin;		/* owned; NULL if the program was loaded without */
	char checksum[17];	/* map->checksum in hex */
};

struct program {
	char *path;
	struct prog_module *mods;	/* sorted by (module name, checksum) */
	size_t nmods;
};

/* Reads and parses every map of the program 'path' (an ELF executable,
 * shared object, object file or archive) and, if 'renumber', builds and
 * checks each unit's G*fin (else fin stays NULL until program_renumber*:
 * renumbering is most of the cost of loading a large program, and a
 * profile usually touches a few of its units).  Units that appear twice with the same name and
 * checksum (the same graph) are kept once.  Returns 0, or -1 with a message
 * starting with the file it is about. */
int program_load(struct program *p, const char *path, bool renumber, char *err,
		 size_t errlen);
/* Renumbers unit i (its G*fin, checked against the map) if not done yet.
 * Returns 0, or -1 with a message. */
int program_renumber(struct program *p, size_t i, char *err, size_t errlen);
/* Renumbers the units whose name the profile holds (with any checksum):
 * the only ones a report of it decodes.  Returns 0, or -1. */
int program_renumber_profile(struct program *p, const ipp_profile *prof, char *err,
			     size_t errlen);

/* The same for several files at once: a program and its shared libraries
 * (their units together; 'path' is the first). */
int program_load_objects(struct program *p, const char *const *paths, size_t npaths,
			 bool renumber, char *err, size_t errlen);
void program_free(struct program *p);

/* Does the file start with the ELF magic number? */
bool program_is_elf(const char *path);

/* Reads the raw contents of the program's .ipp_map section(s), NUL padding
 * removed: a YAML stream.  Returns 0 and a malloc'd buffer, or -1. */
int program_map_text(const char *path, char **text, size_t *len, char *err, size_t errlen);

/* The index of the unit named 'name' with this checksum, or -1. */
long program_find(const struct program *p, const char *name, uint64_t checksum);

/* Selects a unit by name, by checksum (16 hex digits), or by
 * "name@checksum"; the name may be the unit's base name when no unit has
 * it as its full name; NULL selects the only unit.  Returns its index, or -1
 * with a message (unknown, or ambiguous: the candidates are listed). */
long program_select(const struct program *p, const char *spec, char *err, size_t errlen);

#endif
