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

/* One unit of the program.  Its map document is located and its head read
 * when the program is opened; the document is parsed whole (map) only when
 * a command needs the unit (program_parse), and numbered (fin) only when it
 * decodes its paths (program_renumber): objdump holds 11 MB of maps, and a
 * run touches a fraction of its units. */
struct prog_module {
	ipp_map *map;		/* owned; NULL until program_parse() */
	ipp_fin *fin;		/* owned; NULL until program_renumber() */
	const char *name;	/* the unit's name (span.module; map->module once parsed) */
	uint64_t sum;		/* its checksum (map->checksum once parsed) */
	enum ipp_mode mode;
	char checksum[17];	/* sum in hex */
	size_t text;		/* the stream (program.texts) its document is in */
	ipp_map_span span;	/* where in it */
};

/* A stream of map documents read from a file (one per ELF section or
 * archive member), kept while the program is: units are parsed from it. */
struct prog_text {
	char *name;		/* "FILE:.ipp_map", for messages */
	char *data;
	size_t len;
};

struct program {
	char *path;
	struct prog_module *mods;	/* sorted by (module name, checksum) */
	size_t nmods;
	struct prog_text *texts;
	size_t ntexts;
};

/* Opens the program 'path' (an ELF executable, shared object, object file
 * or archive): locates every unit's map document and reads its head
 * (ipp_map_index_buffer), and if 'parse' parses every map (else map stays
 * NULL until program_parse), and if 'renumber' also builds and checks each
 * unit's G*fin (else fin stays NULL until program_renumber*).  Units that
 * appear twice with the same name and checksum (the same graph) are kept
 * once.  Returns 0, or -1 with a message starting with the file it is
 * about. */
int program_load(struct program *p, const char *path, bool renumber, char *err,
		 size_t errlen);
/* The same for several files at once: a program and its shared libraries
 * (their units together; 'paths[0]' is the program).  'renumber' implies
 * 'parse'. */
int program_load_objects(struct program *p, const char *const *paths, size_t npaths,
			 bool parse, bool renumber, char *err, size_t errlen);
/* The directory of the cache of parsed maps (ipp_map_read_span_cached):
 * $IPP_CACHE_DIR, else $XDG_CACHE_HOME/ipp, else ~/.cache/ipp, made if
 * missing; NULL (no cache) if IPP_CACHE=0 or it cannot be made. */
const char *map_cache_dir(void);
/* Parses unit i's map if not done yet (through the cache).  Returns 0, or -1 with a message. */
int program_parse(struct program *p, size_t i, char *err, size_t errlen);
/* Parses every unit's map.  Returns 0, or -1. */
int program_parse_all(struct program *p, char *err, size_t errlen);
/* Renumbers unit i (parsed first; its G*fin, checked against the map) if
 * not done yet.  Returns 0, or -1 with a message. */
int program_renumber(struct program *p, size_t i, char *err, size_t errlen);
/* Renumbers every unit.  Returns 0, or -1. */
int program_renumber_all(struct program *p, char *err, size_t errlen);
/* Parses and renumbers the units whose name a module of the profile with
 * records has (with any checksum; with 'empty_too', a module without
 * records too): the only ones a report of it decodes.  Invariant after it:
 * a unit not renumbered has a name no module of the profile with records
 * has (or, with 'empty_too', no module at all).  Returns 0, or -1. */
int program_renumber_profile(struct program *p, const ipp_profile *prof, bool empty_too,
			     char *err, size_t errlen);
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
