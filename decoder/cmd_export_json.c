/* cmd_export_json.c -- `ipp export --json`: the whole decoded profile in
 * one JSON document, `ipp_export: 1` (docs/REPORT.md, "The export
 * document"): per unit its regions, every recorded path decoded (the path
 * objects of the report document), the counts derived from them (the lists
 * of the counts document: functions, call sites, indirect calls, arcs,
 * vertices) and its source lines with gcov's counts (ippcore/ipp_lines.h).
 * Counts, path numbers and totals are strings (they can exceed 2^53).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include <stdlib.h>

#include "export.h"
#include "srclines.h"

static void unit_lines(emitter *e, const ipp_src_lines *s)
{
	emit_key(e, "lines");
	emit_begin_seq(e);
	for (size_t k = 0; k < s->nlines; k++) {
		emit_begin_map_flow(e);
		emit_key_str(e, "file", s->lines[k].file);
		emit_key_int(e, "line", s->lines[k].line);
		emit_key_u64(e, "count", s->lines[k].count);
		emit_key(e, "exact");
		emit_bool(e, s->lines[k].exact);
		emit_end(e);
	}
	emit_end(e);
	emit_key(e, "branches");
	emit_begin_seq(e);
	for (size_t k = 0; k < s->nbranches; k++) {
		const ipp_src_branch *b = &s->branches[k];
		emit_begin_map_flow(e);
		emit_key_str(e, "file", b->file);
		emit_key_int(e, "line", b->line);
		emit_key_int(e, "block", (long long)b->block);
		emit_key_int(e, "branch", (long long)b->succ);
		emit_key(e, "taken");
		if (b->known)
			emit_big_u64(e, b->taken);
		else
			emit_null(e);
		emit_key_int(e, "vertex", b->vertex);
		emit_end(e);
	}
	emit_end(e);
}

int export_json(FILE *out, const struct derived *d, const struct export_opts *o)
{
	struct srclines sl;
	emitter *e;
	mpz_t x;

	(void)o;
	if (srclines_load(&sl, d) < 0)
		return -1;
	e = emit_new(out, EMIT_JSON);
	mpz_init(x);
	emit_begin_map(e);
	emit_key_int(e, "ipp_export", REPORT_SCHEMA_VERSION);
	emit_key_str(e, "program", d->program);
	emit_key_str(e, "profile", d->profile);
	emit_key_big(e, "total_recorded", d->r.total);
	emit_key_int(e, "paths_recorded", (long long)d->r.nrecs);
	emit_key(e, "modules");
	emit_begin_seq(e);
	for (size_t i = 0; i < d->nunits; i++) {
		const struct prog_module *m = d->units[i].m;
		const struct mod_report *mr = &d->r.mods[i];

		emit_begin_map(e);
		emit_key_str(e, "name", m->map->module);
		emit_key(e, "checksum");
		emit_str_quoted(e, m->checksum);
		emit_key_str(e, "mode", ipp_mode_name(m->map->mode));
		emit_key_u64(e, "runs", d->units[i].runs);
		emit_key_big(e, "recorded", mr->recorded);
		emit_key_int(e, "paths_recorded", (long long)mr->nrecords);
		ipp_fin_total(m->fin, x);
		emit_key_big(e, "total_paths", x);
		emit_regions(e, m);
		emit_key(e, "paths");
		emit_begin_seq(e);
		for (size_t k = 0; k < d->r.nrecs; k++)
			if (d->r.recs[k].mod == i)
				emit_report_path(e, &d->r, &d->r.recs[k]);
		emit_end(e);
		emit_unit_counts(e, d, i);
		unit_lines(e, &sl.units[i]);
		emit_end(e);
	}
	emit_end(e);
	emit_end(e);
	emit_finish(e);
	mpz_clear(x);
	srclines_free(&sl);
	return 0;
}
