/* report.c -- building the report model (report.h): matching a profile to
 * the program, ranking its records, decoding them.
 *
 * A profile module is decoded only with the map of the very build it was
 * recorded from (same module name and checksum): ipp_profile_match() finds
 * it and refuses a module recorded from another build, and
 * ipp_profile_check() checks every region name, number and stop stack
 * against the renumbered G*fin before anything is decoded.  Everything that
 * can fail is done before the first line of output.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "report.h"
#include "util.h"

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static void report_init(struct report *r, enum report_kind kind, const struct program *prog)
{
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->prog = prog;
	mpz_init(r->total);
	r->mods = xcalloc(prog->nmods ? prog->nmods : 1, sizeof(r->mods[0]));
	for (size_t i = 0; i < prog->nmods; i++) {
		mpz_init(r->mods[i].recorded);
		if (prog->mods[i].fin != NULL)	/* units a profile holds */
			step_ctx_init(&r->mods[i].ctx, prog->mods[i].fin);
	}
}

void report_free(struct report *r)
{
	for (size_t i = 0; i < r->nrecs; i++) {
		ipp_pnum_clear(&r->recs[i].num);
		steps_free(&r->recs[i].steps);
		free(r->recs[i].folds);
	}
	free(r->recs);
	free(r->shown);
	if (r->mods != NULL)
		for (size_t i = 0; i < r->prog->nmods; i++) {
			mpz_clear(r->mods[i].recorded);
			step_ctx_fini(&r->mods[i].ctx);
		}
	free(r->mods);
	mpz_clear(r->total);
	memset(r, 0, sizeof(*r));
}

/* ------------------------------------------------------------------ */
/* Decoding one record                                                  */
/* ------------------------------------------------------------------ */

int report_rec_edges(const struct report *r, const struct rec *x, ipp_path *path, char *err,
		     size_t errlen)
{
	const struct prog_module *m = &r->prog->mods[x->mod];
	ipp_region_info info;
	char msg[256];
	int rc;

	rc = ipp_decode_pnum(m->fin, x->region, &x->num, x->partial ? x->stack : NULL, x->nstack,
			     path, msg, sizeof(msg));
	if (rc < 0) {
		char *n = ipp_pnum_str(&x->num);
		ipp_fin_region(m->fin, x->region, &info);
		set_err(err, errlen, "%s: %s: cannot decode %spath %.60s of region %s: %s",
			r->kind == REPORT_PROFILE ? r->profile_name : r->prog->path,
			m->map->module, x->partial ? "partial " : "", n, info.name, msg);
		free(n);
	}
	return rc;
}

int report_decode(struct report *r, struct rec *x, char *err, size_t errlen)
{
	const struct prog_module *m = &r->prog->mods[x->mod];
	ipp_path path;
	char msg[256];

	if (x->decoded)
		return 0;
	ipp_path_init(&path);
	if (report_rec_edges(r, x, &path, err, errlen) < 0) {
		ipp_path_free(&path);
		return -1;
	}
	if (steps_build(&r->mods[x->mod].ctx, &path, x->partial, &x->steps, msg,
			sizeof(msg)) < 0) {
		set_err(err, errlen, "%s: %s: %s",
			r->kind == REPORT_PROFILE ? r->profile_name : r->prog->path,
			m->map->module, msg);
		ipp_path_free(&path);
		return -1;
	}
	ipp_path_free(&path);
	x->decoded = true;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Matching a profile to the program                                    */
/* ------------------------------------------------------------------ */

/* Does another unit of the program with the same name as unit i have a
 * module in the profile?  Then unit i simply did not run. */
static bool sibling_ran(const struct program *prog, size_t i, const ipp_profile *prof)
{
	for (size_t j = 0; j < prog->nmods; j++)
		if (j != i && strcmp(prog->mods[j].name, prog->mods[i].name) == 0 &&
		    ipp_profile_find(prof, prog->mods[j].name, prog->mods[j].sum) != NULL)
			return true;
	return false;
}

static bool program_has_name(const struct program *prog, const char *name)
{
	for (size_t j = 0; j < prog->nmods; j++)
		if (strcmp(prog->mods[j].name, name) == 0)
			return true;
	return false;
}

/* The core's messages about a profile start "profile NAME: "; ours start
 * "NAME: " like every other message of the tool. */
static void strip_profile_word(char *err, const char *profname)
{
	size_t n = strlen(profname);
	if (strncmp(err, "profile ", 8) == 0 && strncmp(err + 8, profname, n) == 0 &&
	    err[8 + n] == ':')
		memmove(err, err + 8, strlen(err + 8) + 1);
}

static int match_modules(struct report *r, const ipp_profile *prof, char *err, size_t errlen)
{
	const struct program *prog = r->prog;
	size_t matched = 0;

	for (size_t i = 0; i < prog->nmods; i++) {
		const struct prog_module *m = &prog->mods[i];
		const ipp_prof_module *pm = NULL;
		char msg[512];

		if (ipp_profile_match_unit(prof, r->profile_name, m->name, m->sum, &pm, msg,
					   sizeof(msg)) < 0) {
			if (sibling_ran(prog, i, prof))
				continue;
			set_err(err, errlen, "%s: %s", prog->path, msg);
			return -1;
		}
		if (pm == NULL)
			continue;
		if (pm->mode != m->mode) {
			set_err(err, errlen, "%s: %s was recorded in %s mode, the map says %s",
				r->profile_name, m->name, ipp_mode_name(pm->mode),
				ipp_mode_name(m->mode));
			return -1;
		}
		/* A module without records needs no map (program_renumber_profile
		 * numbers the others): nothing to check, nothing to decode. */
		if (m->fin != NULL &&
		    ipp_profile_check(pm, r->profile_name, m->map, m->fin, err, errlen) < 0) {
			strip_profile_word(err, r->profile_name);
			return -1;
		}
		r->mods[i].pm = pm;
		matched++;
	}
	/* Profile modules left over: another build of one of our units (a
	 * profile mixing builds: refused), or a unit the program does not have
	 * (left out, with a warning; an error if nothing is left). */
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < prof->nmodules; k++) {
			const ipp_prof_module *pm = prof->modules[k];
			bool used = false;
			size_t nrec = pm->npaths + pm->npartials;
			char hex[17];

			for (size_t i = 0; i < prog->nmods && !used; i++)
				used = r->mods[i].pm == pm;
			if (used)
				continue;
			ipp_hex64(pm->checksum, hex);
			if (pass == 0 && program_has_name(prog, pm->module)) {
				size_t len = (size_t)snprintf(err, errlen, "%s: was recorded from a "
					"different build of %s (profile checksum %s) than %s, whose "
					"%s has checksum", r->profile_name, pm->module, hex,
					prog->path, pm->module);
				for (size_t i = 0; i < prog->nmods && len < errlen; i++)
					if (strcmp(prog->mods[i].name, pm->module) == 0)
						len += (size_t)snprintf(err + len, errlen - len, " %s",
									prog->mods[i].checksum);
				return -1;
			}
			if (pass == 1 && matched > 0)
				cli_warning("%s: module %s (checksum %s) is not part of %s: its %zu "
					    "recorded %s left out", r->profile_name, pm->module, hex,
					    prog->path, nrec, nrec == 1 ? "path is" : "paths are");
		}
	if (matched == 0 && prof->nmodules > 0) {
		size_t len = (size_t)snprintf(err, errlen, "%s: none of its modules is part of "
					      "%s (it has", r->profile_name, prog->path);
		for (size_t k = 0; k < prof->nmodules && len < errlen; k++)
			len += (size_t)snprintf(err + len, errlen - len, "%s %s", k ? "," : "",
						prof->modules[k]->module);
		if (len < errlen)
			snprintf(err + len, errlen - len, "): is it the profile of another program?");
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Ranking                                                              */
/* ------------------------------------------------------------------ */

static int rec_cmp(const void *x, const void *y)
{
	const struct rec *a = x, *b = y;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return rec_key_cmp(a, b);
}

int rec_key_cmp(const struct rec *a, const struct rec *b)
{
	int c;

	if (a->mod != b->mod)
		return a->mod < b->mod ? -1 : 1;
	if (a->region != b->region)
		return a->region < b->region ? -1 : 1;
	c = ipp_pnum_cmp(&a->num, &b->num);
	if (c != 0)
		return c < 0 ? -1 : 1;
	if (a->partial != b->partial)
		return a->partial ? 1 : -1;
	for (size_t i = 0; i < a->nstack && i < b->nstack; i++)
		if (a->stack[i] != b->stack[i])
			return a->stack[i] < b->stack[i] ? -1 : 1;
	return a->nstack < b->nstack ? -1 : a->nstack > b->nstack;
}

/* acc += v, exactly (counts go up to 2^64 - 1). */
static void add_u64(mpz_t acc, uint64_t v)
{
	if (v <= ULONG_MAX) {
		mpz_add_ui(acc, acc, (unsigned long)v);
	} else {
		mpz_t c;
		mpz_init(c);
		ipp_mpz_set_u64(c, v);
		mpz_add(acc, acc, c);
		mpz_clear(c);
	}
}

static struct rec *new_rec(struct report *r, size_t *cap)
{
	struct rec *x;
	GROW(r->recs, r->nrecs, *cap);
	x = &r->recs[r->nrecs++];
	memset(x, 0, sizeof(*x));	/* num is 0, small */
	return x;
}

/* Appends a record of unit 'mod' in its G*fin region 'region' and counts
 * it. */
static struct rec *add_rec(struct report *r, size_t *cap, size_t mod, ipp_id region,
			   const ipp_pnum *num, uint64_t count)
{
	struct rec *x = new_rec(r, cap);

	x->mod = mod;
	x->region = region;
	ipp_pnum_copy(&x->num, num);
	x->count = count;
	add_u64(r->mods[mod].recorded, count);
	add_u64(r->total, count);
	r->mods[mod].nrecords++;
	return x;
}

static int rec_key_qsort(const void *x, const void *y)
{
	return rec_key_cmp(x, y);
}

/* Adds record y's count to x's, both complete paths of the same number of
 * twin regions (x's region the one they count as), noting where each count
 * came from.  False, and nothing changed, if the sum would not fit in 64
 * bits: the two then stay apart. */
static bool fold_into(struct rec *x, ipp_id x_region, const struct rec *y, ipp_id y_region)
{
	if (x->count > UINT64_MAX - y->count)
		return false;
	if (x->folds == NULL) {
		x->folds = xmalloc(2 * sizeof(x->folds[0]));
		x->folds[0] = (struct rec_fold){ x_region, x->count };
		x->nfolds = 1;
	} else {
		x->folds = xrealloc(x->folds, (x->nfolds + 1) * sizeof(x->folds[0]));
	}
	x->folds[x->nfolds++] = (struct rec_fold){ y_region, y->count };
	x->count += y->count;
	return true;
}

static int fold_cmp(const void *a, const void *b)
{
	const struct rec_fold *x = a, *y = b;
	return x->region < y->region ? -1 : x->region > y->region;
}

/* The complete paths of twin regions as one record each: a path of an
 * inlined copy counted as its function's (ipp_fin_region_twins).  The
 * records of unit 'mod' are r->recs[from ..], their regions already the
 * twins they count as; own[k] is the region record from + k was counted
 * in. */
static void fold_twins(struct report *r, size_t mod, size_t from, const ipp_id *own)
{
	size_t n = r->nrecs - from, out = from;
	struct rec *v = &r->recs[from];
	ipp_id last_own = IPP_NONE;

	for (size_t k = 0; k < n; k++)
		v[k].rank = k;	/* the index into own[], until the ranking */
	qsort(v, n, sizeof(v[0]), rec_key_qsort);
	for (size_t k = 0; k < n; k++) {
		struct rec *x = &r->recs[out - 1];
		ipp_id o = own[v[k].rank];

		if (out > from && !v[k].partial && !x->partial && x->region == v[k].region &&
		    ipp_pnum_cmp(&x->num, &v[k].num) == 0 && fold_into(x, last_own, &v[k], o)) {
			ipp_pnum_clear(&v[k].num);
			r->mods[mod].nrecords--;
			continue;
		}
		r->recs[out++] = v[k];	/* out - from <= k: moves down, if at all */
		last_own = o;
	}
	for (size_t k = from; k < out; k++)
		if (r->recs[k].nfolds > 1)
			qsort(r->recs[k].folds, r->recs[k].nfolds, sizeof(r->recs[k].folds[0]),
			      fold_cmp);
	r->nrecs = out;
}

/* The records of every matched unit -- only its partial paths, unless
 * 'complete' -- ranked.  A complete path of an inlined copy's region counts
 * as the same path of its twin, the function's (fold_twins). */
static void collect(struct report *r, bool complete)
{
	size_t cap = 0;

	for (size_t i = 0; i < r->prog->nmods; i++) {
		const ipp_prof_module *pm = r->mods[i].pm;
		ipp_id *rid;

		if (pm == NULL)
			continue;
		/* ipp_profile_check() has checked that the regions exist */
		rid = xmalloc((pm->nregions + 1) * sizeof(*rid));
		for (size_t k = 0; k < pm->nregions; k++)
			rid[k] = ipp_fin_region_find(r->prog->mods[i].fin, pm->regions[k]);
		size_t from = r->nrecs;
		ipp_id *own = NULL;
		if (complete && pm->npaths > 0) {
			const ipp_fin *fin = r->prog->mods[i].fin;
			ipp_id *twin = xmalloc((ipp_fin_nregions(fin) + 1) * sizeof(*twin));
			ipp_fin_region_twins(fin, twin);
			own = xmalloc((pm->npaths + pm->npartials + 1) * sizeof(*own));
			for (size_t k = 0; k < pm->npaths; k++) {
				const ipp_prof_path *pp = &pm->paths[k];
				ipp_id reg = rid[pp->region];
				own[k] = reg;
				add_rec(r, &cap, i, twin[reg], &pp->num, pp->count);
			}
			free(twin);
		}
		for (size_t k = 0; k < pm->npartials; k++) {
			const ipp_prof_partial *pq = &pm->partials[k];
			struct rec *x = add_rec(r, &cap, i, rid[pq->region], &pq->num,
						pq->count);
			x->partial = true;
			x->stack = pq->stack;
			x->nstack = pq->nstack;
			if (own != NULL)
				own[r->nrecs - 1 - from] = rid[pq->region];
		}
		if (own != NULL)
			fold_twins(r, i, from, own);
		free(own);
		free(rid);
	}
	qsort(r->recs, r->nrecs, sizeof(r->recs[0]), rec_cmp);
	for (size_t i = 0; i < r->nrecs; i++)
		r->recs[i].rank = i + 1;
}

static int from_profile(struct report *r, const struct program *prog, const ipp_profile *prof,
			const char *profname, bool complete, size_t top, char *err,
			size_t errlen)
{
	report_init(r, REPORT_PROFILE, prog);
	r->profile_name = profname;
	if (match_modules(r, prof, err, errlen) < 0)
		goto fail;
	collect(r, complete);
	/* Every partial path is decoded: its stop stack is only fully checked
	 * by decoding it. */
	for (size_t i = 0; i < r->nrecs; i++) {
		struct rec *x = &r->recs[i];
		if (!x->partial)
			continue;
		if (report_decode(r, x, err, errlen) < 0)
			goto fail;
		steps_free(&x->steps);
		x->decoded = false;
	}
	if (report_select(r, NULL, top, err, errlen) < 0)
		goto fail;
	return 0;
fail:
	report_free(r);
	return -1;
}

int report_from_profile(struct report *r, const struct program *prog, const ipp_profile *prof,
			const char *profname, size_t top, char *err, size_t errlen)
{
	return from_profile(r, prog, prof, profname, true, top, err, errlen);
}

int report_check_profile(struct report *r, const struct program *prog, const ipp_profile *prof,
			 const char *profname, char *err, size_t errlen)
{
	/* the partial paths alone keep the order they have among all records
	 * (rec_cmp), so the first that fails to decode is the same */
	return from_profile(r, prog, prof, profname, false, 0, err, errlen);
}

/* ------------------------------------------------------------------ */
/* A single path                                                        */
/* ------------------------------------------------------------------ */

/* "main, power#g" etc. into buf, for messages. */
static void region_list(const ipp_fin *fin, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < ipp_fin_nregions(fin) && used < len; i++) {
		ipp_region_info info;
		ipp_fin_region(fin, (ipp_id)i, &info);
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", info.name);
	}
}

int report_single(struct report *r, const struct program *prog, size_t mod, const char *region,
		  const mpz_t num, const ipp_id *stack, size_t nstack, char *err, size_t errlen)
{
	const struct prog_module *m = &prog->mods[mod];
	char regions[256];
	struct rec *x;
	size_t cap = 0;
	ipp_id rid;
	mpz_t total;

	report_init(r, REPORT_DECODE, prog);
	region_list(m->fin, regions, sizeof(regions));
	if (region == NULL) {
		if (ipp_fin_nregions(m->fin) != 1) {
			set_err(err, errlen, "%s: module %s has %zu regions; choose one with "
				"--region: %s", prog->path, m->map->module,
				ipp_fin_nregions(m->fin), regions);
			goto fail;
		}
		rid = 0;
	} else {
		rid = ipp_fin_region_find(m->fin, region);
		if (rid == IPP_NONE) {
			set_err(err, errlen, "%s: module %s has no region '%s'; its regions are: %s",
				prog->path, m->map->module, region, regions);
			goto fail;
		}
	}
	mpz_init(total);
	ipp_fin_region_total(m->fin, rid, total);
	if (mpz_cmp(num, total) >= 0) {
		ipp_region_info info;
		ipp_fin_region(m->fin, rid, &info);
		gmp_snprintf(err, errlen, "%s: path number %Zd is out of range: region %s of "
			     "%s has %Zd paths, numbered from 0", prog->path, num, info.name,
			     m->map->module, total);
		mpz_clear(total);
		goto fail;
	}
	mpz_clear(total);
	for (size_t k = 0; k < nstack; k++)
		if (stack[k] < 0 || (size_t)stack[k] >= ipp_fin_nvertices(m->fin)) {
			set_err(err, errlen, "%s: module %s has no vertex %" PRId32 " (its vertices "
				"are numbered 0 to %zu)", prog->path, m->map->module, stack[k],
				ipp_fin_nvertices(m->fin) - 1);
			goto fail;
		}
	x = new_rec(r, &cap);
	x->mod = mod;
	x->region = rid;
	ipp_pnum_set(&x->num, num);
	x->partial = nstack > 0;
	x->stack = stack;
	x->nstack = nstack;
	if (report_select(r, NULL, 1, err, errlen) < 0)
		goto fail;
	return 0;
fail:
	report_free(r);
	return -1;
}

/* ------------------------------------------------------------------ */
/* Selecting what is shown                                              */
/* ------------------------------------------------------------------ */

bool name_or_base(const char *path, const char *name)
{
	const char *slash = strrchr(path, '/');
	return strcmp(path, name) == 0 || (slash != NULL && strcmp(slash + 1, name) == 0);
}

static bool active_suffix_has(const struct report *r, const struct rec *x,
			      const struct report_filter *f)
{
	const ipp_graph *g = r->prog->mods[x->mod].map->graph;
	bool fn = f->function == NULL, file = f->file == NULL;

	for (size_t i = x->steps.context; i < x->steps.n && !(fn && file); i++) {
		const struct step *s = &x->steps.v[i];
		const char *vf = ipp_vertex_file(g, s->origin);
		if (!fn && s->proc != IPP_NONE)
			fn = strcmp(ipp_proc_name(g, s->proc), f->function) == 0 ||
			     strcmp(ipp_proc_asm(g, s->proc), f->function) == 0;
		if (!file && vf != NULL)
			file = name_or_base(vf, f->file);
	}
	return fn && file;
}

int report_select(struct report *r, const struct report_filter *f, size_t top, char *err,
		  size_t errlen)
{
	bool decode_all = f != NULL && (f->function != NULL || f->file != NULL);

	free(r->shown);
	r->shown = xmalloc((r->nrecs ? r->nrecs : 1) * sizeof(r->shown[0]));
	r->nshown = 0;
	r->nmatching = 0;
	for (size_t i = 0; i < r->nrecs; i++) {
		struct rec *x = &r->recs[i];
		bool show;

		if (f != NULL && f->module != NULL &&
		    !name_or_base(r->prog->mods[x->mod].map->module, f->module))
			continue;
		if (!decode_all) {
			r->nmatching++;
			if (r->nshown < top) {
				if (report_decode(r, x, err, errlen) < 0)
					return -1;
				r->shown[r->nshown++] = x;
			}
			continue;
		}
		if (report_decode(r, x, err, errlen) < 0)
			return -1;
		show = active_suffix_has(r, x, f);
		r->nmatching += show;
		if (show && r->nshown < top) {
			r->shown[r->nshown++] = x;
		} else {
			steps_free(&x->steps);
			x->decoded = false;
		}
	}
	return 0;
}

ipp_id region_of_global(const ipp_fin *fin, const mpz_t global, mpz_t local)
{
	mpz_t offset, total;
	ipp_id found = IPP_NONE;

	mpz_init(offset);
	mpz_init(total);
	for (size_t r = 0; r < ipp_fin_nregions(fin); r++) {
		ipp_fin_region_offset(fin, (ipp_id)r, offset);
		ipp_fin_region_total(fin, (ipp_id)r, total);
		mpz_sub(local, global, offset);
		if (mpz_sgn(local) >= 0 && mpz_cmp(local, total) < 0) {
			found = (ipp_id)r;
			break;
		}
	}
	mpz_clear(offset);
	mpz_clear(total);
	return found;
}
