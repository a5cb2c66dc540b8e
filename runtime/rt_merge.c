/* rt_merge.c -- reading the existing profile, to merge into it.
 *
 * The file is checked whole by the one profile reader (ipp_profile.c:
 * magic, version, byte order, size, digest, every length and index) before
 * anything is taken from it; a file it rejects is left alone by the caller
 * (rt_write.c), which then writes this run elsewhere.
 *
 * Modules of the file that this program has (same name and checksum) are
 * taken into the snapshot's records and merged; the others are kept as
 * they are, their bytes copied verbatim into the new profile (a module is
 * self-contained: its own name table).  A module with the name of one of
 * ours but only other checksums is "stale" (an older build).
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
#include "rt_internal.h"

#include <string.h>

static RT_NOINST struct rt_pmod *find_pmod(struct rt_snapshot *s, const char *name, uint64_t cs)
{
	for (size_t i = 0; i < s->npmods; i++)
		if (rt_pmod_checksum(&s->pmods[i]) == cs && strcmp(s->pmods[i].name, name) == 0)
			return &s->pmods[i];
	return NULL;
}

/* Makes room in *v (arena) for add more records. */
static RT_NOINST int grow_recs(struct rt_arena *a, struct rt_rec **v, size_t *n, size_t *cap,
			       size_t add)
{
	if (*n + add > *cap) {
		size_t nc = *n + add;
		struct rt_rec *g = rt_arena_alloc(a, nc * sizeof(*g));
		if (!g)
			return -1;
		if (*n)
			memcpy(g, *v, *n * sizeof(*g));
		*v = g;
		*cap = nc;
	}
	return 0;
}

/* Takes the stop records (partial paths or forked prefixes) at p. */
static RT_NOINST int take_stops(struct rt_arena *a, const struct ipp_pf_mview *v,
				const unsigned char *p, uint64_t n, struct rt_rec **recs,
				size_t *nrecs, size_t *cap)
{
	if (grow_recs(a, recs, nrecs, cap, (size_t)n) < 0)
		return -1;
	for (uint64_t i = 0; i < n; i++) {
		const struct ipp_pf_stop *s = ipp_pf_stop_next(&p);
		struct rt_rec *r = &(*recs)[(*nrecs)++];
		memset(r, 0, sizeof(*r));
		r->region = ipp_pf_name(v, s->name);
		r->num = s->num;
		r->count = s->count;
		r->stack = ipp_pf_stack(s);
		r->nstack = s->nstack;
	}
	return (*nrecs = rt_recs_dedup(*recs, *nrecs, a)) == (size_t)-1 ? -1 : 0;
}

/* Merges the records of file module v into pm. */
static RT_NOINST int take_module(struct rt_arena *a, struct rt_pmod *pm,
				 const struct ipp_pf_mview *v)
{
	static const char hex[] = "0123456789abcdef";
	const struct ipp_pf_module *h = v->h;
	pm->in_file = true;
	pm->runs = rt_sat_add(pm->runs, h->runs);
	if (grow_recs(a, &pm->paths, &pm->npaths, &pm->cap_paths, (size_t)h->npaths) < 0)
		return -1;
	{
		const unsigned char *p = v->pgroups;
		for (uint64_t i = 0; i < h->npgroups; i++) {
			const struct ipp_pf_path *q;
			const struct ipp_pf_pgroup *g = ipp_pf_pgroup_next(&p, &q);
			const char *region = ipp_pf_name(v, g->name);
			for (uint64_t j = 0; j < g->n; j++) {
				struct rt_rec *r = &pm->paths[pm->npaths++];
				memset(r, 0, sizeof(*r));
				r->region = region;
				r->num = q[j].num;
				r->count = q[j].count;
			}
		}
	}
	if ((pm->npaths = rt_recs_dedup(pm->paths, pm->npaths, a)) == (size_t)-1)
		return -1;
	if (take_stops(a, v, v->partials, h->npartials, &pm->partials, &pm->npartials,
		       &pm->cap_partials) < 0 ||
	    take_stops(a, v, v->forked, h->nforked, &pm->forked, &pm->nforked,
		       &pm->cap_forked) < 0)
		return -1;
	if (grow_recs(a, &pm->icalls, &pm->nicalls, &pm->cap_icalls, (size_t)h->nicalls) < 0)
		return -1;
	for (uint64_t i = 0; i < h->nicalls; i++) {
		const struct ipp_pf_icall *c = &v->icalls[i];
		struct rt_rec *r = &pm->icalls[pm->nicalls++];
		char *ccs = rt_arena_alloc(a, 17);
		if (!ccs)
			return -1;
		for (int k = 0; k < 16; k++)
			ccs[k] = hex[(c->ccs >> (60 - 4 * k)) & 15];
		memset(r, 0, sizeof(*r));
		r->num = (uint64_t)c->site;
		r->count = c->count;
		r->cmod = ipp_pf_name(v, c->cmod);
		r->ccs = ccs;
		r->region = ipp_pf_name(v, c->cregion);
	}
	return (pm->nicalls = rt_recs_dedup(pm->icalls, pm->nicalls, a)) == (size_t)-1 ? -1 : 0;
}

RT_HIDDEN int rt_file_parse(const char *buf, size_t len, const char *path,
			    struct rt_snapshot *s, struct rt_arena *a, struct rt_file *f,
			    char *err, size_t errlen)
{
	struct ipp_pf_reader r;
	struct ipp_pf_mview v;

	memset(f, 0, sizeof(*f));
	if (ipp_pf_open(&r, buf, len, path, err, errlen) < 0)
		return -1;
	f->mods = rt_arena_alloc(a, (r.nmodules + 1) * sizeof(*f->mods));
	if (!f->mods)
		return -2;
	while (ipp_pf_next(&r, &v)) {
		struct rt_fmod *m = &f->mods[f->nmods++];
		m->v = v;
		m->name = ipp_pf_name(&v, 0);
		m->checksum = v.h->checksum;
		m->ours = find_pmod(s, m->name, m->checksum);
		if (m->ours && strcmp(m->ours->mode, ipp_pf_mode_names[v.h->mode]) != 0) {
			/* "PATH: module M is recorded in mode X but ..." */
			char *e = err;
			size_t n = errlen;
			e[0] = '\0';
			if (rt_cat(e, n, path) < 0 || rt_cat(e, n, ": module ") < 0 ||
			    rt_cat(e, n, m->name) < 0 || rt_cat(e, n, " is recorded in mode ") < 0 ||
			    rt_cat(e, n, ipp_pf_mode_names[v.h->mode]) < 0 ||
			    rt_cat(e, n, " but this program has it in mode ") < 0)
				return -1;
			rt_cat(e, n, m->ours->mode);
			return -1;
		}
	}

	/* Stale modules: a name we have, none of whose checksums is ours. */
	for (size_t i = 0; i < f->nmods; i++) {
		struct rt_fmod *m = &f->mods[i];
		bool ours_name = false, matched = false;
		if (m->ours)
			continue;
		for (size_t k = 0; k < s->npmods; k++)
			ours_name |= strcmp(s->pmods[k].name, m->name) == 0;
		for (size_t k = 0; ours_name && k < f->nmods; k++)
			matched |= f->mods[k].ours && strcmp(f->mods[k].name, m->name) == 0;
		if (ours_name && !matched) {
			m->stale = true;
			if (!f->nstale++)
				f->first_stale = m;
		}
	}
	/* Merge (nothing can fail but memory from here on). */
	for (size_t i = 0; i < f->nmods; i++)
		if (f->mods[i].ours && take_module(a, f->mods[i].ours, &f->mods[i].v) < 0)
			return -2;
	return 0;
}
