/* srclines.c -- the source lines of a program's units with gcov's counts,
 * and source file names made absolute (srclines.h).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "srclines.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int srclines_load(struct srclines *s, const struct derived *d)
{
	char err[1024];
	char *text;
	size_t len;

	memset(s, 0, sizeof(*s));
	if (program_map_text(d->program, &text, &len, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		return -1;
	}
	if (ipp_xlines_read_buffer(text, len, d->program, &s->x, &s->nx, err, sizeof(err)) < 0) {
		free(text);
		cli_error("%s", err);
		return -1;
	}
	free(text);
	s->units = xcalloc(d->nunits ? d->nunits : 1, sizeof(s->units[0]));
	s->unit_x = xcalloc(d->nunits ? d->nunits : 1, sizeof(s->unit_x[0]));
	for (; s->nunits < d->nunits; s->nunits++) {
		const struct unit *u = &d->units[s->nunits];
		const ipp_xlines *x = NULL;

		for (size_t k = 0; k < s->nx && x == NULL; k++)
			if (s->x[k].checksum == u->m->map->checksum &&
			    strcmp(s->x[k].module, u->m->map->module) == 0)
				x = &s->x[k];
		s->unit_x[s->nunits] = x;
		if (x == NULL || x->nruns == 0) {
			cli_error("%s: the map of %s has no source lines (no x-lines key): "
				  "rebuild it with this version of ipp", d->program,
				  u->m->map->module);
			srclines_free(s);
			return -1;
		}
		if (ipp_src_lines_gcov(u->m->fin, u->ran ? &u->c : NULL, x, &s->units[s->nunits],
				       err, sizeof(err)) < 0) {
			cli_error("%s: %s: %s", d->program, u->m->map->module, err);
			srclines_free(s);
			return -1;
		}
		s->ninexact += s->units[s->nunits].ninexact;
	}
	return 0;
}

void srclines_free(struct srclines *s)
{
	for (size_t i = 0; i < s->nunits; i++)
		ipp_src_lines_free(&s->units[i]);
	free(s->units);
	free(s->unit_x);
	ipp_xlines_free_all(s->x, s->nx);
	memset(s, 0, sizeof(*s));
}

char *source_path(const char *file, const char *base)
{
	char *joined, *out, *cwd = NULL;
	size_t n = 0;

	if (file[0] != '/') {
		if (base == NULL || base[0] != '/') {
			cwd = getcwd(NULL, 0);
			if (cwd == NULL)
				cwd = xstrdup("/");
		}
		if (base != NULL && base[0] != '/') {	/* relative to the cwd itself */
			char *b = xmalloc(strlen(cwd) + strlen(base) + 2);
			sprintf(b, "%s/%s", cwd, base);
			free(cwd);
			cwd = b;
		}
		const char *dir = cwd != NULL ? cwd : base;
		joined = xmalloc(strlen(dir) + strlen(file) + 2);
		sprintf(joined, "%s/%s", dir, file);
	} else {
		joined = xstrdup(file);
	}
	free(cwd);

	/* lexical normalization: components, "." dropped, ".." pops */
	out = xmalloc(strlen(joined) + 2);
	for (char *p = joined, *tok; (tok = strtok(p, "/")) != NULL; p = NULL) {
		if (strcmp(tok, ".") == 0)
			continue;
		if (strcmp(tok, "..") == 0) {
			while (n > 0 && out[n - 1] != '/')
				n--;
			if (n > 0)
				n--;
			continue;
		}
		out[n++] = '/';
		strcpy(out + n, tok);
		n += strlen(tok);
	}
	if (n == 0)
		out[n++] = '/';
	out[n] = '\0';
	free(joined);
	return out;
}

char *relative_path(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return xstrdup(path[0] == '/' ? path + 1 : path);
	if (strncmp(path, dir, n) == 0 && path[n] == '/')
		return xstrdup(path + n + 1);
	return xstrdup(path);
}
