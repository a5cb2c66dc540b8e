/* needed.c -- the shared libraries a program was linked against (its
 * DT_NEEDED entries), found where the dynamic linker finds them (ld.so(8)):
 * a name with a '/' as it is; else in DT_RPATH (if there is no DT_RUNPATH),
 * $LD_LIBRARY_PATH, DT_RUNPATH, then the system's directories.  $ORIGIN in
 * a path is the program's directory.  ld.so.cache is not read: a library
 * found only through it is a system library, never built with ipp-gcc.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "elfsec.h"
#include "util.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const system_dirs[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64",
	"/lib", "/usr/lib", NULL
};

static bool is_regular(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Looks for 'name' in the ':'-separated directories of 'dirs' ($ORIGIN
 * replaced by 'origin').  Returns a malloc'd path, or NULL. */
static char *search_dirs(const char *dirs, const char *name, const char *origin)
{
	char path[2 * PATH_MAX + 2];

	while (dirs != NULL && *dirs != '\0') {
		size_t len = strcspn(dirs, ":");
		char dir[PATH_MAX];
		if (len > 0 && len < sizeof(dir)) {
			memcpy(dir, dirs, len);
			dir[len] = '\0';
			if (strncmp(dir, "$ORIGIN", 7) == 0 || strncmp(dir, "${ORIGIN}", 9) == 0)
				snprintf(path, sizeof(path), "%s%s/%s", origin,
					 dir + (dir[1] == '{' ? 9 : 7), name);
			else
				snprintf(path, sizeof(path), "%s/%s", dir, name);
			if (is_regular(path))
				return xstrdup(path);
		}
		dirs += len + (dirs[len] == ':');
	}
	return NULL;
}

/* Resolves one DT_NEEDED name.  Returns a malloc'd path, or NULL. */
static char *find_library(const char *name, const char *rpath, const char *runpath,
			  const char *origin)
{
	char *found = NULL;

	if (strchr(name, '/') != NULL)
		return is_regular(name) ? xstrdup(name) : NULL;
	if (runpath == NULL)
		found = search_dirs(rpath, name, origin);
	if (found == NULL)
		found = search_dirs(getenv("LD_LIBRARY_PATH"), name, origin);
	if (found == NULL)
		found = search_dirs(runpath, name, origin);
	for (size_t i = 0; found == NULL && system_dirs[i] != NULL; i++)
		found = search_dirs(system_dirs[i], name, origin);
	return found;
}

int elfsec_needed_libraries(const char *program, char ***libs, size_t *nlibs)
{
	const char *needed[256], *rpath = NULL, *runpath = NULL;
	size_t nneeded = 0, cap = 0;
	char origin[PATH_MAX], *real, *slash;
	Elf_Scn *scn = NULL;
	Elf *e;
	int fd;

	*libs = NULL;
	*nlibs = 0;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -1;
	fd = open(program, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e == NULL || elf_kind(e) != ELF_K_ELF) {
		if (e != NULL)
			elf_end(e);
		close(fd);
		return -1;
	}
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;
		GElf_Dyn dyn;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_DYNAMIC ||
		    sh.sh_entsize == 0 || (d = elf_getdata(scn, NULL)) == NULL)
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			const char *s;
			if (gelf_getdyn(d, (int)i, &dyn) == NULL || dyn.d_tag == DT_NULL)
				break;
			if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_RPATH &&
			    dyn.d_tag != DT_RUNPATH)
				continue;
			s = elf_strptr(e, sh.sh_link, dyn.d_un.d_val);
			if (s == NULL)
				continue;
			if (dyn.d_tag == DT_RPATH)
				rpath = s;
			else if (dyn.d_tag == DT_RUNPATH)
				runpath = s;
			else if (nneeded < sizeof(needed) / sizeof(needed[0]))
				needed[nneeded++] = s;
		}
	}
	real = realpath(program, NULL);
	snprintf(origin, sizeof(origin), "%s", real != NULL ? real : program);
	free(real);
	slash = strrchr(origin, '/');
	if (slash != NULL)
		*slash = '\0';
	else
		snprintf(origin, sizeof(origin), ".");
	for (size_t i = 0; i < nneeded; i++) {
		char *path = find_library(needed[i], rpath, runpath, origin);
		if (path == NULL)
			continue;
		GROW(*libs, *nlibs, cap);
		(*libs)[(*nlibs)++] = path;
	}
	elf_end(e);	/* the strings above live in e */
	close(fd);
	return 0;
}
