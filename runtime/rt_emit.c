/* rt_emit.c -- writing the profile (docs/FORMAT.md, runtime/ipp_profile.h)
 * through the profile codec's writer, with write(2) only: no stdio, no
 * malloc (the write's arena), no locale, so that a fatal-signal handler
 * can use it.
 *
 * The records of a module are written as the snapshot holds them, each
 * field copied: nothing is formatted.  A module's name table is its name,
 * then each region (and callee unit) name where it differs from the one
 * before it in the records (the snapshot keeps them grouped, so a region
 * is named about once).  Modules of the existing file that this program
 * does not have are copied verbatim: a module is self-contained.
 *
 * Also the flight recorder's file, P.last (rt_last_write; the file's
 * format is described in rt_last.c).
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
#define _GNU_SOURCE 1	/* mkostemps */
#include "rt_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>	/* rename */
#include <string.h>
#include <sys/stat.h>	/* fchmod */
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* The buffered writer                                                  */
/* ------------------------------------------------------------------ */

static RT_NOINST int fd_sink(void *ctx, const void *p, size_t n)
{
	const struct rt_out *o = ctx;
	const char *s = p;
	while (n) {
		ssize_t w = write(o->fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? errno : EIO;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

RT_HIDDEN void rt_out_open(struct rt_out *o, int fd)
{
	o->fd = fd;
	ipp_pf_out_init(&o->pf, fd_sink, o);
}

RT_HIDDEN int rt_out_flush(struct rt_out *o)
{
	return ipp_pf_flush(&o->pf);
}

RT_HIDDEN void rt_out_str(struct rt_out *o, const char *s)
{
	ipp_pf_put(&o->pf, s, strlen(s));
}

RT_HIDDEN void rt_out_u64(struct rt_out *o, uint64_t v)
{
	char b[21];
	rt_out_str(o, rt_fmt_u64(v, b));
}

/* ------------------------------------------------------------------ */
/* The profile                                                          */
/* ------------------------------------------------------------------ */

/* A module's name table, and its size once planned. */
struct ntab {
	const char **v;
	uint32_t n;
	uint64_t tlen;			/* bytes of text, NULs included */
	uint64_t npgroups;		/* runs of paths of one name */
	uint64_t size;			/* of the whole module */
	uint32_t mode;
};

/* The index of s: the last name if it is s, else a new one. */
static RT_NOINST uint32_t name_of(struct ntab *t, const char *s)
{
	if (!t->n || (t->v[t->n - 1] != s && strcmp(t->v[t->n - 1], s) != 0)) {
		t->v[t->n++] = s;
		t->tlen += strlen(s) + 1;
	}
	return t->n - 1;
}

static RT_NOINST const char *ntab_get(void *ctx, uint32_t i)
{
	return ((const struct ntab *)ctx)->v[i];
}

static RT_NOINST uint64_t plan_stops(struct ntab *t, struct rt_rec *v, size_t n)
{
	uint64_t bytes = 0;
	for (size_t i = 0; i < n; i++) {
		v[i].ni = name_of(t, v[i].region);
		bytes += ipp_pf_stop_size(v[i].nstack);
	}
	return bytes;
}

/* Names the records of pm and sizes the module.  -1 if out of memory. */
static RT_NOINST int plan_module(struct ntab *t, struct rt_pmod *pm, struct rt_arena *a)
{
	uint64_t stops;
	t->v = rt_arena_alloc(a, (1 + pm->npaths + pm->npartials + pm->nforked + 2 * pm->nicalls) *
				     sizeof(*t->v));
	if (!t->v)
		return -1;
	t->mode = 0;
	for (uint32_t k = 0; k < IPP_PF_MODE_COUNT; k++)
		if (strcmp(pm->mode, ipp_pf_mode_names[k]) == 0)
			t->mode = k;
	name_of(t, pm->name);
	t->npgroups = 0;
	for (size_t i = 0; i < pm->npaths; i++) {
		pm->paths[i].ni = name_of(t, pm->paths[i].region);
		t->npgroups += !i || pm->paths[i].ni != pm->paths[i - 1].ni;
	}
	stops = plan_stops(t, pm->partials, pm->npartials) + plan_stops(t, pm->forked, pm->nforked);
	for (size_t i = 0; i < pm->nicalls; i++) {
		pm->icalls[i].ni_cmod = name_of(t, pm->icalls[i].cmod);
		pm->icalls[i].ni = name_of(t, pm->icalls[i].region);
	}
	t->size = ipp_pf_module_size(ipp_pf_names_size(t->n, t->tlen), t->npgroups, pm->npaths,
				     stops, pm->nicalls);
	return 0;
}

static RT_NOINST void emit_module(struct ipp_pf_out *o, const struct rt_pmod *pm,
				  struct ntab *t)
{
	struct ipp_pf_module h;
	memset(&h, 0, sizeof(h));
	h.size = t->size;
	h.checksum = rt_pmod_checksum(pm);
	h.runs = pm->runs;
	h.mode = t->mode;
	h.nnames = t->n;
	h.names_size = ipp_pf_names_size(t->n, t->tlen);
	h.npgroups = t->npgroups;
	h.npaths = pm->npaths;
	h.npartials = pm->npartials;
	h.nforked = pm->nforked;
	h.nicalls = pm->nicalls;
	ipp_pf_put(o, &h, sizeof(h));
	ipp_pf_put_names(o, t->n, ntab_get, t);
	for (size_t i = 0, j; i < pm->npaths; i = j) {
		for (j = i + 1; j < pm->npaths && pm->paths[j].ni == pm->paths[i].ni; j++)
			;
		ipp_pf_put_pgroup(o, pm->paths[i].ni, j - i);
		for (size_t k = i; k < j; k++) {
			struct ipp_pf_path p = { pm->paths[k].num, pm->paths[k].count };
			ipp_pf_put(o, &p, sizeof(p));
		}
	}
	for (size_t i = 0; i < pm->npartials; i++) {
		const struct rt_rec *r = &pm->partials[i];
		ipp_pf_put_stop(o, r->ni, r->num, r->count, r->stack, r->nstack);
	}
	for (size_t i = 0; i < pm->nforked; i++) {
		const struct rt_rec *r = &pm->forked[i];
		ipp_pf_put_stop(o, r->ni, r->num, r->count, r->stack, r->nstack);
	}
	for (size_t i = 0; i < pm->nicalls; i++) {
		const struct rt_rec *r = &pm->icalls[i];
		struct ipp_pf_icall c = { (int32_t)r->num, r->ni_cmod, rt_hex64(r->ccs), r->ni, 0,
					  r->count };
		ipp_pf_put(o, &c, sizeof(c));
	}
}

RT_HIDDEN int rt_emit_profile(struct rt_out *o, struct rt_snapshot *s, const struct rt_file *f,
			      struct rt_arena *a)
{
	struct ntab *t = rt_arena_alloc(a, (s->npmods + 1) * sizeof(*t));
	uint64_t bytes = 0;
	uint32_t n = 0;

	if (!t) {
		o->pf.err = ENOMEM;
		return -1;
	}
	for (size_t i = 0; i < s->npmods; i++)
		if (plan_module(&t[i], &s->pmods[i], a) < 0) {
			o->pf.err = ENOMEM;
			return -1;
		}
	for (size_t i = 0; i < f->nmods; i++) {
		const struct rt_fmod *fm = &f->mods[i];
		if (fm->stale)
			continue;
		n++;
		bytes += fm->ours ? t[fm->ours - s->pmods].size : fm->v.h->size;
	}
	for (size_t i = 0; i < s->npmods; i++)
		if (!s->pmods[i].in_file) {
			n++;
			bytes += t[i].size;
		}

	ipp_pf_out_init(&o->pf, o->pf.sink, o);
	ipp_pf_put_header(&o->pf, n, bytes);
	for (size_t i = 0; i < f->nmods; i++) {
		const struct rt_fmod *fm = &f->mods[i];
		if (fm->stale)
			continue;
		if (fm->ours)
			emit_module(&o->pf, fm->ours, &t[fm->ours - s->pmods]);
		else
			ipp_pf_put(&o->pf, fm->v.bytes, (size_t)fm->v.h->size);
	}
	for (size_t i = 0; i < s->npmods; i++)
		if (!s->pmods[i].in_file)
			emit_module(&o->pf, &s->pmods[i], &t[i]);
	return ipp_pf_put_digest(&o->pf);
}

/* ------------------------------------------------------------------ */
/* The flight recorder's file (rt_last.c has the rings)                 */
/* ------------------------------------------------------------------ */

/* One thread's ring, oldest first. */
static RT_NOINST void write_ring(struct rt_out *o, const struct rt_thread *t, unsigned id)
{
	struct rt_last *ring = __atomic_load_n(&t->last, __ATOMIC_ACQUIRE);
	uint64_t next = __atomic_load_n(&t->last_next, __ATOMIC_ACQUIRE);
	uint64_t size = (uint64_t)t->last_mask + 1;
	uint64_t first = next > size ? next - size : 0;
	rt_out_str(o, "thread\t");
	rt_out_u64(o, id);
	rt_out_str(o, t == rt_tls_self ? "\tcurrent\n" : "\n");
	for (uint64_t k = first; ring && k < next; k++) {
		const struct rt_last *e = &ring[k & t->last_mask];
		struct ipp_rt_region r;
		struct ipp_rt_module m;
		/* read carefully: a library may have been dlclose'd since */
		if (!rt_safe_read(&r, e->region, sizeof(r)) || e->num >= r.npaths ||
		    !rt_safe_read(&m, r.module, sizeof(m)) || !rt_safe_string(r.name, 4096) ||
		    !rt_safe_string(m.name, 4096) || !rt_safe_string(m.checksum, 17) ||
		    strchr(m.name, '\n'))
			continue;	/* torn (another thread's newest), gone, unprintable */
		rt_out_u64(o, e->num);
		rt_out_str(o, "\t");
		rt_out_str(o, m.checksum);
		rt_out_str(o, "\t");
		rt_out_str(o, r.name);
		rt_out_str(o, "\t");
		rt_out_str(o, m.name);
		rt_out_str(o, "\n");
	}
}

RT_HIDDEN void rt_last_write(const char *profile, struct rt_arena *a)
{
	struct rt_out *o;
	char *name, *tmp;
	unsigned id = 0;
	size_t n = strlen(profile);
	bool any = false;
	int fd, e;

	for (struct rt_thread *t = __atomic_load_n(&rt_threads, __ATOMIC_ACQUIRE); t; t = t->next)
		any |= __atomic_load_n(&t->last_next, __ATOMIC_ACQUIRE) != 0;
	if (!any)
		return;
	o = rt_arena_alloc(a, sizeof(*o));
	name = rt_arena_alloc(a, n + sizeof(".last"));
	tmp = rt_arena_alloc(a, n + sizeof(".last.XXXXXX.tmp"));
	if (!o || !name || !tmp)
		return;
	memcpy(name, profile, n);
	memcpy(name + n, ".last", sizeof(".last"));
	memcpy(tmp, name, n + 5);
	memcpy(tmp + n + 5, ".XXXXXX.tmp", sizeof(".XXXXXX.tmp"));
	/* as the profile's temporary file: O_EXCL, an unpredictable name;
	 * rename() replaces a link at P.last, never what it points to */
	fd = mkostemps(tmp, 4, O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		rt_msg("cannot write the last paths ", name, ": cannot create ", tmp, ": ",
		       rt_strerror(e), (const char *)NULL);
		return;
	}
	rt_out_open(o, fd);
	rt_out_str(o, "ipp-last 1\n");
	for (struct rt_thread *t = __atomic_load_n(&rt_threads, __ATOMIC_ACQUIRE); t; t = t->next)
		if (__atomic_load_n(&t->last_next, __ATOMIC_ACQUIRE))
			write_ring(o, t, ++id);
	if (rt_out_flush(o) < 0 || fchmod(fd, 0644 & ~rt_umask()) < 0 || close(fd) < 0 ||
	    rename(tmp, name) < 0) {
		e = o->pf.err ? o->pf.err : errno;
		unlink(tmp);
		rt_msg("cannot write the last paths ", name, ": ", rt_strerror(e),
		       (const char *)NULL);
	}
}
