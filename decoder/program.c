/* program.c -- loading the maps embedded in a program (see program.h).
 *
 * The linker may pad between the .ipp_map contributions of two units with
 * NUL bytes (section alignment); NUL is never part of a YAML document, so
 * it is dropped before parsing.  Line numbers in messages are unaffected.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "program.h"
#include "elfsec.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Removes the NUL bytes of buf[0..*len-1] in place. */
static void drop_nuls(char *buf, size_t *len)
{
	size_t k = 0;
	for (size_t i = 0; i < *len; i++)
		if (buf[i] != '\0')
			buf[k++] = buf[i];
	*len = k;
}

static int no_map(const char *path, char *err, size_t errlen)
{
	set_err(err, errlen, "%s: has no ipp map (no %s section): was it built with ipp-gcc / "
		"-fplugin=ipp.so?", path, IPP_MAP_SECTION);
	return -1;
}

int program_map_text(const char *path, char **text, size_t *len, char *err, size_t errlen)
{
	struct elfsec_chunk *chunks;
	size_t n, total = 0;
	char *buf;

	*text = NULL;
	*len = 0;
	if (elfsec_read(path, IPP_MAP_SECTION, &chunks, &n, err, errlen) < 0)
		return -1;
	if (n == 0) {
		elfsec_free(chunks, n);
		return no_map(path, err, errlen);
	}
	for (size_t i = 0; i < n; i++)
		total += chunks[i].len;
	buf = xmalloc(total + 1);
	total = 0;
	for (size_t i = 0; i < n; i++) {
		memcpy(buf + total, chunks[i].data, chunks[i].len);
		total += chunks[i].len;
	}
	drop_nuls(buf, &total);
	buf[total] = '\0';
	elfsec_free(chunks, n);
	*text = buf;
	*len = total;
	return 0;
}

static int mod_cmp(const void *x, const void *y)
{
	const struct prog_module *a = x, *b = y;
	int c = strcmp(a->map->module, b->map->module);
	if (c != 0)
		return c;
	return a->map->checksum < b->map->checksum ? -1 : a->map->checksum > b->map->checksum;
}

/* Parses one chunk's maps and appends them to p->mods. */
static int add_chunk(struct program *p, size_t *cap, struct elfsec_chunk *c,
		     char *err, size_t errlen)
{
	size_t nmaps, namelen = strlen(c->origin) + sizeof(":" IPP_MAP_SECTION);
	char *name = xmalloc(namelen);
	ipp_map **maps;
	int rc;

	snprintf(name, namelen, "%s:%s", c->origin, IPP_MAP_SECTION);
	drop_nuls(c->data, &c->len);
	rc = ipp_map_read_buffer(c->data, c->len, name, &maps, &nmaps, err, errlen);
	free(name);
	if (rc < 0)
		return -1;
	for (size_t i = 0; i < nmaps; i++) {
		GROW(p->mods, p->nmods, *cap);
		memset(&p->mods[p->nmods], 0, sizeof(p->mods[0]));
		p->mods[p->nmods].map = maps[i];
		ipp_hex64(maps[i]->checksum, p->mods[p->nmods].checksum);
		p->nmods++;
	}
	free(maps);
	return 0;
}

bool program_is_elf(const char *path)
{
	unsigned char magic[4];
	FILE *f = fopen(path, "rb");
	bool elf;

	if (f == NULL)
		return false;
	elf = fread(magic, 1, 4, f) == 4 && memcmp(magic, "\177ELF", 4) == 0;
	fclose(f);
	return elf;
}

/* Reads the maps of one file into p->mods. */
static int load_file(struct program *p, size_t *cap, const char *path, char *err, size_t errlen)
{
	struct elfsec_chunk *chunks;
	size_t n;

	if (elfsec_read(path, IPP_MAP_SECTION, &chunks, &n, err, errlen) < 0)
		return -1;
	if (n == 0) {
		elfsec_free(chunks, n);
		return no_map(path, err, errlen);
	}
	for (size_t i = 0; i < n; i++)
		if (add_chunk(p, cap, &chunks[i], err, errlen) < 0) {
			elfsec_free(chunks, n);
			return -1;
		}
	elfsec_free(chunks, n);
	return 0;
}

int program_load_objects(struct program *p, const char *const *paths, size_t npaths,
			 bool renumber, char *err, size_t errlen)
{
	size_t cap = 0, k;

	memset(p, 0, sizeof(*p));
	p->path = xstrdup(paths[0]);
	for (size_t i = 0; i < npaths; i++)
		if (load_file(p, &cap, paths[i], err, errlen) < 0)
			goto fail;

	/* Sort, and keep one copy of units with the same name and checksum:
	 * the checksum covers the whole graph, so the copies are identical. */
	qsort(p->mods, p->nmods, sizeof(p->mods[0]), mod_cmp);
	k = 0;
	for (size_t i = 0; i < p->nmods; i++) {
		if (k > 0 && mod_cmp(&p->mods[k - 1], &p->mods[i]) == 0) {
			ipp_map_free(p->mods[i].map);
			continue;
		}
		p->mods[k++] = p->mods[i];
	}
	p->nmods = k;

	if (renumber)
		for (size_t i = 0; i < p->nmods; i++)
			if (program_renumber(p, i, err, errlen) < 0)
				goto fail;
	return 0;
fail:
	program_free(p);
	return -1;
}

int program_renumber(struct program *p, size_t i, char *err, size_t errlen)
{
	if (p->mods[i].fin == NULL)
		p->mods[i].fin = ipp_map_fin(p->mods[i].map, err, errlen);
	return p->mods[i].fin != NULL ? 0 : -1;
}

int program_renumber_profile(struct program *p, const ipp_profile *prof, char *err,
			     size_t errlen)
{
	for (size_t i = 0; i < p->nmods; i++)
		for (size_t k = 0; k < prof->nmodules; k++)
			if (strcmp(prof->modules[k]->module, p->mods[i].map->module) == 0) {
				if (program_renumber(p, i, err, errlen) < 0)
					return -1;
				break;
			}
	return 0;
}

int program_load(struct program *p, const char *path, bool renumber, char *err,
		 size_t errlen)
{
	return program_load_objects(p, &path, 1, renumber, err, errlen);
}

void program_free(struct program *p)
{
	for (size_t i = 0; i < p->nmods; i++) {
		if (p->mods[i].fin != NULL)
			ipp_fin_free(p->mods[i].fin);
		ipp_map_free(p->mods[i].map);
	}
	free(p->mods);
	free(p->path);
	memset(p, 0, sizeof(*p));
}

long program_find(const struct program *p, const char *name, uint64_t checksum)
{
	for (size_t i = 0; i < p->nmods; i++)
		if (p->mods[i].map->checksum == checksum && strcmp(p->mods[i].map->module, name) == 0)
			return (long)i;
	return -1;
}

/* Does unit i match spec ("name", "checksum" or "name@checksum")?  With
 * 'base', the name may also be the unit's base name (after its last '/'). */
static bool spec_matches(const struct prog_module *m, const char *spec, bool base)
{
	const char *at = strrchr(spec, '@');
	const char *name = m->map->module, *slash = strrchr(name, '/');
	size_t len = at != NULL ? (size_t)(at - spec) : strlen(spec);

	if (base && slash != NULL)
		name = slash + 1;
	if (at != NULL)
		return strncmp(name, spec, len) == 0 && name[len] == '\0' &&
		       strcmp(m->checksum, at + 1) == 0;
	return strcmp(name, spec) == 0 || strcmp(m->checksum, spec) == 0;
}

long program_select(const struct program *p, const char *spec, char *err, size_t errlen)
{
	long found = -1;
	size_t nfound = 0;
	size_t used = 0;

	if (spec == NULL) {
		if (p->nmods == 1)
			return 0;
		used = (size_t)snprintf(err, errlen, "%s: has %zu modules; choose one with "
					"--module:", p->path, p->nmods);
		for (size_t i = 0; i < p->nmods && used < errlen; i++)
			used += (size_t)snprintf(err + used, errlen - used, " %s@%s",
						 p->mods[i].map->module, p->mods[i].checksum);
		return -1;
	}
	/* the unit's name as in the map first; else its base name */
	for (int base = 0; base < 2 && nfound == 0; base++)
		for (size_t i = 0; i < p->nmods; i++)
			if (spec_matches(&p->mods[i], spec, base)) {
				found = (long)i;
				nfound++;
			}
	if (nfound == 1)
		return found;
	if (nfound == 0) {
		used = (size_t)snprintf(err, errlen, "%s: no module '%s'; its modules are:",
					p->path, spec);
		for (size_t i = 0; i < p->nmods && used < errlen; i++)
			used += (size_t)snprintf(err + used, errlen - used, " %s",
						 p->mods[i].map->module);
		return -1;
	}
	used = (size_t)snprintf(err, errlen, "%s: module '%s' is ambiguous; "
				"choose one of:", p->path, spec);
	for (size_t i = 0; i < p->nmods && used < errlen; i++)
		if (spec_matches(&p->mods[i], spec, false) || spec_matches(&p->mods[i], spec, true))
			used += (size_t)snprintf(err + used, errlen - used, " %s@%s",
						 p->mods[i].map->module, p->mods[i].checksum);
	return -1;
}
