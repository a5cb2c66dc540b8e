/* elfsec.c -- reading a named section out of an ELF file or an ar archive
 * of ELF objects, with libelf (elf_begin, elf_nextscn, elf_strptr).
 *
 * Truncated files are caught before libelf is trusted with them: the
 * section header table and the contents of every section we read must lie
 * inside the file (libelf would otherwise report some truncations only as a
 * missing section).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "elfsec.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Appends the sections named 'section' of the ELF image e (of 'size' bytes)
 * to *chunks if it has any.  Returns 0, or -1 with a message. */
static int read_image(Elf *e, size_t size, const char *origin, const char *section,
		      struct elfsec_chunk **chunks, size_t *n, size_t *cap,
		      char *err, size_t errlen)
{
	GElf_Ehdr eh;
	size_t shstrndx, shnum;
	Elf_Scn *scn = NULL;
	char *data = NULL;
	size_t len = 0;
	bool found = false;

	(void)elf_errno();	/* clear any stale error */
	if (gelf_getehdr(e, &eh) == NULL || elf_getshdrnum(e, &shnum) != 0 ||
	    elf_getshdrstrndx(e, &shstrndx) != 0) {
		set_err(err, errlen, "%s: invalid ELF file: %s", origin, elf_errmsg(-1));
		return -1;
	}
	/* libelf reports no sections at all when the header table is cut off:
	 * check against the ELF header's own count (e_shnum is 0 when the
	 * count is in section 0, which must be there anyway). */
	if (eh.e_shoff != 0 &&
	    (eh.e_shoff > size || eh.e_shentsize == 0 ||
	     (size - eh.e_shoff) / eh.e_shentsize < (eh.e_shnum ? eh.e_shnum : 1) ||
	     (size - eh.e_shoff) / eh.e_shentsize < shnum)) {
		set_err(err, errlen, "%s: truncated ELF file: the section header table "
			"ends past the end of the file (%zu bytes)", origin, size);
		return -1;
	}
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d = NULL;

		if (gelf_getshdr(scn, &sh) == NULL)
			goto elf_error;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (name == NULL)
			goto elf_error;
		if (strcmp(name, section) != 0)
			continue;
		if (sh.sh_type == SHT_NOBITS) {
			set_err(err, errlen, "%s: section %s has no contents (SHT_NOBITS)",
				origin, section);
			goto fail;
		}
		if (sh.sh_offset > size || sh.sh_size > size - sh.sh_offset) {
			set_err(err, errlen, "%s: truncated ELF file: section %s ends past the "
				"end of the file (%zu bytes)", origin, section, size);
			goto fail;
		}
		if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
			goto elf_error;
		found = true;
		while ((d = elf_getdata(scn, d)) != NULL) {
			if (d->d_size == 0 || d->d_buf == NULL)
				continue;
			data = xrealloc(data, len + d->d_size);
			memcpy(data + len, d->d_buf, d->d_size);
			len += d->d_size;
		}
		if (elf_errno() != 0)
			goto elf_error;
	}
	if (elf_errno() != 0)
		goto elf_error;
	if (found) {
		GROW(*chunks, *n, *cap);
		(*chunks)[*n].origin = xstrdup(origin);
		(*chunks)[*n].data = data;
		(*chunks)[*n].len = len;
		(*n)++;
	}
	return 0;
elf_error:
	set_err(err, errlen, "%s: invalid or truncated ELF file: %s", origin, elf_errmsg(-1));
fail:
	free(data);
	return -1;
}

int elfsec_read(const char *path, const char *section, struct elfsec_chunk **chunks,
		size_t *nchunks, char *err, size_t errlen)
{
	struct elfsec_chunk *v = NULL;
	size_t n = 0, cap = 0;
	struct stat st;
	Elf *e = NULL;
	int fd, rc = -1;

	*chunks = NULL;
	*nchunks = 0;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		set_err(err, errlen, "%s: libelf is too old: %s", path, elf_errmsg(-1));
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		set_err(err, errlen, "%s: not a regular file", path);
		goto out;
	}
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e == NULL) {
		set_err(err, errlen, "%s: cannot read as ELF: %s", path, elf_errmsg(-1));
		goto out;
	}
	switch (elf_kind(e)) {
	case ELF_K_ELF:
		if (read_image(e, (size_t)st.st_size, path, section, &v, &n, &cap, err,
			       errlen) < 0)
			goto out;
		break;
	case ELF_K_AR: {
		Elf_Cmd cmd = ELF_C_READ;
		Elf *m;
		while ((m = elf_begin(fd, cmd, e)) != NULL) {
			Elf_Arhdr *h = elf_getarhdr(m);
			int mrc = 0;
			if (h != NULL && h->ar_name != NULL && h->ar_name[0] != '/' &&
			    elf_kind(m) == ELF_K_ELF) {
				size_t olen = strlen(path) + strlen(h->ar_name) + 3;
				char *origin = xmalloc(olen);
				snprintf(origin, olen, "%s(%s)", path, h->ar_name);
				mrc = read_image(m, (size_t)h->ar_size, origin, section, &v, &n,
						 &cap, err, errlen);
				free(origin);
			}
			cmd = elf_next(m);
			elf_end(m);
			if (mrc < 0)
				goto out;
		}
		break;
	}
	default:
		set_err(err, errlen, "%s: not an ELF file", path);
		goto out;
	}
	rc = 0;
out:
	if (e != NULL)
		elf_end(e);
	close(fd);
	if (rc == 0) {
		*chunks = v;
		*nchunks = n;
	} else {
		elfsec_free(v, n);
	}
	return rc;
}

void elfsec_free(struct elfsec_chunk *chunks, size_t nchunks)
{
	for (size_t i = 0; i < nchunks; i++) {
		free(chunks[i].origin);
		free(chunks[i].data);
	}
	free(chunks);
}
