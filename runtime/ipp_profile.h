/* ipp_profile.h -- the on-disk profile, defined once (as gcov's gcov-io.h
 * and LLVM's InstrProfData.inc define theirs): the binary layout, and the
 * one reader and writer (ipp_profile.c) that the runtime (libipprt) and the
 * core (libippcore, hence `ipp`) both compile.  docs/FORMAT.md section 3
 * describes the same layout in prose.
 *
 * Layout (version 2).  Every integer is in the byte order of the machine
 * that wrote the file, which the header's byte-order mark tells; every
 * structure starts at a multiple of 8 bytes from the start of the file.
 *
 *   header        struct ipp_pf_header (32 bytes)
 *   module * N    struct ipp_pf_module (80 bytes), then
 *                   names:     uint32_t offset[nnames] into the text, then
 *                              the text: NUL-terminated UTF-8 strings,
 *                              padded with NULs to a multiple of 8
 *                              (names_size bytes for both);
 *                   paths:     npgroups groups of paths of one region:
 *                              struct ipp_pf_pgroup, then its n
 *                              struct ipp_pf_path (npaths in all)
 *                   partial:   npartials stop records
 *                   forked:    nforked stop records
 *                   icalls:    struct ipp_pf_icall [nicalls]
 *                 A stop record is struct ipp_pf_stop followed by its
 *                 int32_t stack[nstack], padded with zeros to 8 bytes.
 *   digest        uint64_t: XXH64 (seed 0) of every byte before it
 *
 * Records name their region (a group of paths names it once; an indirect
 * call names its callee's unit and region) by index into the module's
 * name table; name 0 is the module's own name.  A name may appear in the table more than once.  Records are
 * in no particular order, and a key (region and number; region, number
 * and stack; site and callee) may appear more than once: readers add the
 * counts (saturating at 2^64 - 1).  That lets the runtime write its
 * tables as they are, without sorting or merging them first.
 *
 * Path numbers are 64-bit: every region has at most 2^64 - 1 paths (the
 * plugin's limit; docs/NUMBERING.md, "Cuts").
 *
 * The reader checks everything before it returns a module: the magic,
 * the version, the byte order, the file size against the header's (a
 * truncated or extended file), the digest, and every count, length, name
 * index and offset against the bytes that hold them, so a caller may walk
 * the views it gets without further checks.  It rejects the old text
 * format (version 1, YAML) with a message saying so.
 *
 * Plain C, no malloc, no stdio, no locale: the runtime calls it in a
 * fatal-signal handler.  Errors are formatted by hand into the caller's
 * buffer.
 *
 * Copyright (c) 2026 the ipp authors.
 * SPDX-License-Identifier: MIT (see runtime/LICENSE)
 *
 * Permission is hereby granted, free of charge, to any person obtaining a
 * copy of this software and associated documentation files (the "Software"),
 * to deal in the Software without restriction, including without limitation
 * the rights to use, copy, modify, merge, publish, distribute, sublicense,
 * and/or sell copies of the Software, and to permit persons to whom the
 * Software is furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in
 * all copies or substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 * IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 * FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT.  IN NO EVENT SHALL THE
 * AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 * LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING
 * FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS
 * IN THE SOFTWARE.
 */
#ifndef IPP_PROFILE_FORMAT_H
#define IPP_PROFILE_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* XXH64 from Debian's libxxhash-dev, header only: no library to link, no
 * malloc, pure computation on the caller's state (async-signal-safe). */
#define XXH_INLINE_ALL
#include <xxhash.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Internal to whatever links it (the runtime exports only its ABI), never
 * instrumented by the ipp plugin. */
#define IPP_PF_FN __attribute__((no_instrument_function, visibility("hidden")))
#define IPP_PF_LOCAL __attribute__((no_instrument_function))

/* The first 8 bytes.  Like PNG's: the high byte catches a 7-bit channel,
 * the line feed a text-mode conversion. */
#define IPP_PF_MAGIC "\211IPPROF\n"
#define IPP_PF_MAGIC_LEN 8
#define IPP_PF_VERSION 2u
/* The byte-order mark: 0x01020304 as the writer stores it. */
#define IPP_PF_BOM 0x01020304u
#define IPP_PF_BOM_SWAPPED 0x04030201u

/* Modes, as enum ipp_mode numbers them (ippcore/ipp_core.h). */
#define IPP_PF_MODE_COUNT 4u
extern const char *const ipp_pf_mode_names[IPP_PF_MODE_COUNT]
	__attribute__((visibility("hidden")));

struct ipp_pf_header {
	unsigned char magic[IPP_PF_MAGIC_LEN];
	uint32_t version;	/* IPP_PF_VERSION */
	uint32_t bom;		/* IPP_PF_BOM */
	uint64_t size;		/* bytes of the whole file, digest included */
	uint32_t nmodules;
	uint32_t flags;		/* 0 (reserved) */
};

struct ipp_pf_module {
	uint64_t size;		/* bytes of the module, this header included */
	uint64_t checksum;	/* the map's checksum */
	uint64_t runs;		/* runs merged into the module */
	uint32_t mode;		/* ipp_pf_mode_names */
	uint32_t nnames;	/* at least 1: name 0 is the module's (non-empty) */
	uint64_t names_size;	/* bytes of the offsets and the text */
	uint64_t npgroups;	/* groups of paths */
	uint64_t npaths, npartials, nforked, nicalls;
};

/* A group of n complete paths of region names[name]: a region's table. */
struct ipp_pf_pgroup {
	uint32_t name;
	uint32_t zero;		/* 0 */
	uint64_t n;		/* struct ipp_pf_path follow */
};

/* A complete path: count executions of path num. */
struct ipp_pf_path {
	uint64_t num;
	uint64_t count;
};

/* A partial path or a forked prefix (docs/FORMAT.md): the path num so far
 * of region names[name], and its stop stack of nstack >= 1 G*fin vertex
 * ids, which follows. */
struct ipp_pf_stop {
	uint32_t name;
	uint32_t nstack;
	uint64_t num;
	uint64_t count;
};

/* count calls from the indirect call vertex `site` of this module to the
 * function whose Entry region is names[cregion] in the unit
 * (names[cmod], ccs). */
struct ipp_pf_icall {
	int32_t site;
	uint32_t cmod;
	uint64_t ccs;
	uint32_t cregion;
	uint32_t zero;		/* 0 */
	uint64_t count;
};

/* The bytes of a stop record with nstack vertices. */
static inline IPP_PF_LOCAL uint64_t ipp_pf_stop_size(uint64_t nstack)
{
	return sizeof(struct ipp_pf_stop) + ((4 * nstack + 7) & ~(uint64_t)7);
}

/* ------------------------------------------------------------------ */
/* Reading                                                              */
/* ------------------------------------------------------------------ */

/* A module of a checked file: views into the caller's buffer. */
struct ipp_pf_mview {
	const struct ipp_pf_module *h;
	const unsigned char *bytes;	/* the whole module (h->size bytes) */
	const uint32_t *offs;		/* [h->nnames] */
	const char *text;
	const unsigned char *pgroups;	/* h->npgroups groups of paths */
	const unsigned char *partials;	/* h->npartials stop records */
	const unsigned char *forked;	/* h->nforked stop records */
	const struct ipp_pf_icall *icalls;
	uint32_t index;			/* 0-based position in the file */
};

struct ipp_pf_reader {
	const unsigned char *buf;
	size_t len;
	uint32_t nmodules;
	uint32_t next;			/* modules returned so far */
	size_t off;			/* of the next module */
};

/* Checks the whole file buf[0, len) (8-byte aligned) named 'name' in
 * messages: header, size, digest, every module.  Returns 0 and sets up r;
 * -1 with a one-line message "NAME: ..." in err (errlen >= 1). */
int ipp_pf_open(struct ipp_pf_reader *r, const void *buf, size_t len, const char *name,
		char *err, size_t errlen) IPP_PF_FN;
/* The next module of a checked file: 1, or 0 after the last. */
int ipp_pf_next(struct ipp_pf_reader *r, struct ipp_pf_mview *m) IPP_PF_FN;
/* Name i of module m (i < nnames, as every index of a checked file is). */
static inline IPP_PF_LOCAL const char *ipp_pf_name(const struct ipp_pf_mview *m, uint32_t i)
{
	return m->text + m->offs[i];
}
/* Walks groups of paths: the group at *p, its paths in *paths, *p
 * advanced past them. */
static inline IPP_PF_LOCAL const struct ipp_pf_pgroup *
ipp_pf_pgroup_next(const unsigned char **p, const struct ipp_pf_path **paths)
{
	const struct ipp_pf_pgroup *g = (const struct ipp_pf_pgroup *)(const void *)*p;
	*paths = (const struct ipp_pf_path *)(const void *)(g + 1);
	*p += sizeof(*g) + g->n * sizeof(struct ipp_pf_path);
	return g;
}
/* Walks stop records: the record at *p, *p advanced past it. */
static inline IPP_PF_LOCAL const struct ipp_pf_stop *ipp_pf_stop_next(const unsigned char **p)
{
	const struct ipp_pf_stop *s = (const struct ipp_pf_stop *)(const void *)*p;
	*p += ipp_pf_stop_size(s->nstack);
	return s;
}
static inline IPP_PF_LOCAL const int32_t *ipp_pf_stack(const struct ipp_pf_stop *s)
{
	return (const int32_t *)(const void *)(s + 1);
}

/* ------------------------------------------------------------------ */
/* Writing                                                              */
/* ------------------------------------------------------------------ */

/* A buffered writer that computes the digest of what it writes.  sink
 * writes n bytes, returning 0 or an errno value. */
struct ipp_pf_out {
	int (*sink)(void *ctx, const void *p, size_t n);
	void *ctx;
	int err;			/* the first error, 0 if none */
	size_t n;
	uint64_t written;		/* bytes passed to the sink */
	XXH64_state_t digest;		/* of everything passed to the sink */
	unsigned char buf[8192];
};
void ipp_pf_out_init(struct ipp_pf_out *o, int (*sink)(void *, const void *, size_t),
		     void *ctx) IPP_PF_FN;
void ipp_pf_put(struct ipp_pf_out *o, const void *p, size_t n) IPP_PF_FN;
/* Zeros up to the next multiple of 8 bytes of the file. */
void ipp_pf_pad(struct ipp_pf_out *o) IPP_PF_FN;
/* Passes the buffer to the sink; -1 if any write failed (o->err). */
int ipp_pf_flush(struct ipp_pf_out *o) IPP_PF_FN;

/* The bytes of a name table of nnames names of tlen bytes of text in all
 * (their NULs included). */
static inline IPP_PF_LOCAL uint64_t ipp_pf_names_size(uint64_t nnames, uint64_t tlen)
{
	return (4 * nnames + tlen + 7) & ~(uint64_t)7;
}
/* The bytes of a module: its name table and records (stop_bytes: the
 * sum of ipp_pf_stop_size of its partial and forked records). */
static inline IPP_PF_LOCAL uint64_t ipp_pf_module_size(uint64_t names_size, uint64_t npgroups,
						      uint64_t npaths, uint64_t stop_bytes,
						      uint64_t nicalls)
{
	return sizeof(struct ipp_pf_module) + names_size +
	       npgroups * sizeof(struct ipp_pf_pgroup) + npaths * sizeof(struct ipp_pf_path) +
	       stop_bytes + nicalls * sizeof(struct ipp_pf_icall);
}

/* The header of a file of nmodules modules of module_bytes bytes in all. */
void ipp_pf_put_header(struct ipp_pf_out *o, uint32_t nmodules, uint64_t module_bytes)
	IPP_PF_FN;
/* A name table from the names' offsets: writes offs[0..n) and then the
 * text of each name (name(ctx, i)), NUL-terminated, and the padding. */
void ipp_pf_put_names(struct ipp_pf_out *o, uint32_t n,
		      const char *(*name)(void *ctx, uint32_t i), void *ctx) IPP_PF_FN;
void ipp_pf_put_pgroup(struct ipp_pf_out *o, uint32_t name, uint64_t n) IPP_PF_FN;
void ipp_pf_put_stop(struct ipp_pf_out *o, uint32_t name, uint64_t num, uint64_t count,
		     const int32_t *stack, uint32_t nstack) IPP_PF_FN;
/* Flushes and writes the digest of everything before it; 0 or -1. */
int ipp_pf_put_digest(struct ipp_pf_out *o) IPP_PF_FN;

/* s is valid UTF-8 (up to its NUL): no overlong form, surrogate or code
 * point beyond U+10FFFF.  Names must be. */
bool ipp_pf_utf8_ok(const char *s, size_t len) IPP_PF_FN;

#ifdef __cplusplus
}
#endif

#endif /* IPP_PROFILE_FORMAT_H */
