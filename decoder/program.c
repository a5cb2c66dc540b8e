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

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Removes the NUL bytes of buf[0..*len-1] in place. */
static void drop_nuls(char *buf, size_t *len)
{
	char *nul = memchr(buf, '\0', *len);
	size_t k;

	if (nul == NULL)	/* the usual case: nothing to move */
		return;
	k = (size_t)(nul - buf);
	for (size_t i = k; i < *len; i++)
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
	int c = strcmp(a->name, b->name);
	if (c != 0)
		return c;
	return a->sum < b->sum ? -1 : a->sum > b->sum;
}

/* Keeps one chunk's map stream and appends its units to p->mods, their
 * documents located and their heads read. */
static int add_chunk(struct program *p, size_t *cap, struct elfsec_chunk *c,
		     char *err, size_t errlen)
{
	size_t nspans, namelen = strlen(c->origin) + sizeof(":" IPP_MAP_SECTION);
	struct prog_text *t;
	ipp_map_span *spans;

	p->texts = xrealloc(p->texts, (p->ntexts + 1) * sizeof(p->texts[0]));
	t = &p->texts[p->ntexts++];
	t->name = xmalloc(namelen);
	snprintf(t->name, namelen, "%s:%s", c->origin, IPP_MAP_SECTION);
	drop_nuls(c->data, &c->len);
	t->data = c->data;	/* the chunk's buffer is the program's now */
	t->len = c->len;
	c->data = NULL;
	c->len = 0;
	if (ipp_map_index_buffer(t->data, t->len, t->name, &spans, &nspans, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < nspans; i++) {
		struct prog_module *m;
		GROW(p->mods, p->nmods, *cap);
		m = &p->mods[p->nmods++];
		memset(m, 0, sizeof(*m));
		m->span = spans[i];
		m->name = m->span.module;
		m->sum = m->span.checksum;
		m->mode = m->span.mode;
		m->text = p->ntexts - 1;
		ipp_hex64(m->sum, m->checksum);
	}
	free(spans);	/* the module names moved into p->mods */
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

/* Reads the maps of one file into p. */
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

static void module_free(struct prog_module *m)
{
	if (m->fin != NULL)
		ipp_fin_free(m->fin);
	if (m->map != NULL)
		ipp_map_free(m->map);
	free(m->span.module);
}

int program_load_objects(struct program *p, const char *const *paths, size_t npaths,
			 bool parse, bool renumber, char *err, size_t errlen)
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
			module_free(&p->mods[i]);
			continue;
		}
		p->mods[k++] = p->mods[i];
	}
	p->nmods = k;

	if ((parse || renumber) && program_parse_all(p, err, errlen) < 0)
		goto fail;
	if (renumber && program_renumber_all(p, err, errlen) < 0)
		goto fail;
	return 0;
fail:
	program_free(p);
	return -1;
}

/* Makes the directory 'path' and its parents (mode 0700).  0, or -1. */
static int make_dirs(char *path)
{
	for (char *s = strchr(path + 1, '/'); ; s = strchr(s + 1, '/')) {
		if (s != NULL)
			*s = '\0';
		if (mkdir(path, 0700) != 0 && errno != EEXIST) {
			if (s != NULL)
				*s = '/';
			return -1;
		}
		if (s == NULL)
			return 0;
		*s = '/';
	}
}

const char *map_cache_dir(void)
{
	static char dir[4096];
	static int state;	/* 0 not yet looked, 1 dir, -1 none */
	const char *env = getenv("IPP_CACHE"), *home;

	if (state != 0)
		return state > 0 ? dir : NULL;
	state = -1;
	if (env != NULL && strcmp(env, "0") == 0)
		return NULL;
	if ((env = getenv("IPP_CACHE_DIR")) != NULL && env[0] != '\0')
		snprintf(dir, sizeof(dir), "%s", env);
	else if ((env = getenv("XDG_CACHE_HOME")) != NULL && env[0] == '/')
		snprintf(dir, sizeof(dir), "%s/ipp", env);
	else if ((home = getenv("HOME")) != NULL && home[0] == '/')
		snprintf(dir, sizeof(dir), "%s/.cache/ipp", home);
	else
		return NULL;
	if (make_dirs(dir) < 0)
		return NULL;
	state = 1;
	return dir;
}

int program_parse(struct program *p, size_t i, char *err, size_t errlen)
{
	struct prog_module *m = &p->mods[i];
	const struct prog_text *t = &p->texts[m->text];

	if (m->map != NULL)
		return 0;
	if (ipp_map_read_span_cached(t->data, &m->span, t->name, map_cache_dir(), &m->map, err,
				     errlen) < 0)
		return -1;
	m->name = m->map->module;
	return 0;
}

int program_parse_all(struct program *p, char *err, size_t errlen)
{
	for (size_t i = 0; i < p->nmods; i++)
		if (program_parse(p, i, err, errlen) < 0)
			return -1;
	return 0;
}

int program_renumber(struct program *p, size_t i, char *err, size_t errlen)
{
	if (program_parse(p, i, err, errlen) < 0)
		return -1;
	if (p->mods[i].fin == NULL)
		p->mods[i].fin = ipp_map_fin(p->mods[i].map, err, errlen);
	return p->mods[i].fin != NULL ? 0 : -1;
}

int program_renumber_all(struct program *p, char *err, size_t errlen)
{
	for (size_t i = 0; i < p->nmods; i++)
		if (program_renumber(p, i, err, errlen) < 0)
			return -1;
	return 0;
}

int program_renumber_profile(struct program *p, const ipp_profile *prof, bool empty_too,
			     char *err, size_t errlen)
{
	for (size_t i = 0; i < p->nmods; i++)
		for (size_t k = 0; k < prof->nmodules; k++)
			if (strcmp(prof->modules[k]->module, p->mods[i].name) == 0 &&
			    (empty_too || ipp_prof_module_has_records(prof->modules[k]))) {
				if (program_renumber(p, i, err, errlen) < 0)
					return -1;
				break;
			}
	return 0;
}

int program_load(struct program *p, const char *path, bool renumber, char *err,
		 size_t errlen)
{
	return program_load_objects(p, &path, 1, true, renumber, err, errlen);
}

void program_free(struct program *p)
{
	for (size_t i = 0; i < p->nmods; i++)
		module_free(&p->mods[i]);
	free(p->mods);
	for (size_t i = 0; i < p->ntexts; i++) {
		free(p->texts[i].name);
		free(p->texts[i].data);
	}
	free(p->texts);
	free(p->path);
	memset(p, 0, sizeof(*p));
}

long program_find(const struct program *p, const char *name, uint64_t checksum)
{
	for (size_t i = 0; i < p->nmods; i++)
		if (p->mods[i].sum == checksum && strcmp(p->mods[i].name, name) == 0)
			return (long)i;
	return -1;
}

/* Does unit i match spec ("name", "checksum" or "name@checksum")?  With
 * 'base', the name may also be the unit's base name (after its last '/'). */
static bool spec_matches(const struct prog_module *m, const char *spec, bool base)
{
	const char *at = strrchr(spec, '@');
	const char *name = m->name, *slash = strrchr(name, '/');
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
						 p->mods[i].name, p->mods[i].checksum);
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
						 p->mods[i].name);
		return -1;
	}
	used = (size_t)snprintf(err, errlen, "%s: module '%s' is ambiguous; "
				"choose one of:", p->path, spec);
	for (size_t i = 0; i < p->nmods && used < errlen; i++)
		if (spec_matches(&p->mods[i], spec, false) || spec_matches(&p->mods[i], spec, true))
			used += (size_t)snprintf(err + used, errlen - used, " %s@%s",
						 p->mods[i].name, p->mods[i].checksum);
	return -1;
}
