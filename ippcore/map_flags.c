/* map_flags.c -- the flag words of the map (docs/FORMAT.md): the names of
 * the procedure flags (IPP_PROC_*) and call flags (IPP_CALL_*), written as
 * a flow list like [indirect, noreturn] and read back.
 *
 * Invariants: each table ends with { 0, NULL } and names every flag bit of
 * ipp_core.h once; the writer refuses a graph with a bit no table names
 * (ipp_map_flags_known) and the reader refuses an unknown or repeated
 * name, so a flag word always reads back as the word written.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "internal.h"
#include "map_internal.h"

const struct ipp_flag_name ipp_proc_flag_names[] = {
	{ IPP_PROC_ENTRY, "entry" },
	{ IPP_PROC_SKIPPED, "skipped" },
	{ IPP_PROC_INLINED, "inlined" },
	{ 0, NULL }
};

const struct ipp_flag_name ipp_call_flag_names[] = {
	{ IPP_CALL_INDIRECT, "indirect" },
	{ IPP_CALL_FORCE_SUMMARY, "force-summary" },
	{ IPP_CALL_NORETURN, "noreturn" },
	{ IPP_CALL_TAIL, "tail" },
	{ IPP_CALL_INLINED, "inlined" },
	{ IPP_CALL_LEAF, "leaf" },
	{ IPP_CALL_SLOT, "slot" },
	{ IPP_CALL_BARE, "bare" },
	{ 0, NULL }
};

void ipp_map_write_flags(FILE *out, unsigned flags, const struct ipp_flag_name *names)
{
	bool first = true;
	putc('[', out);
	for (const struct ipp_flag_name *f = names; f->name; f++)
		if (flags & f->bit) {
			fprintf(out, "%s%s", first ? "" : ", ", f->name);
			first = false;
		}
	putc(']', out);
}

bool ipp_map_flags_known(unsigned flags, const struct ipp_flag_name *names)
{
	for (const struct ipp_flag_name *f = names; f->name; f++)
		flags &= ~f->bit;
	return flags == 0;
}

int ipp_map_read_flags(ipp_yreader *r, const ipp_yitem *it, const char *what,
		       const struct ipp_flag_name *names, unsigned *out)
{
	*out = 0;
	if (it->type != IPP_YI_LIST)
		return ipp_yr_fail(r, it->line, it->col, "%s: expected a list of flags like "
				   "[%s], got %s", what, names[0].name, ipp_yr_type_name(it));
	for (size_t i = 0; i < it->n; i++) {
		const ipp_yitem *f = &r->sub[it->first + i];
		const struct ipp_flag_name *fn;
		const char *s;
		if (ipp_yr_str(r, f, what, &s) < 0)
			return -1;
		for (fn = names; fn->name && strcmp(fn->name, s) != 0; fn++)
			;
		if (!fn->name)
			return ipp_yr_fail(r, f->line, f->col, "%s: unknown flag '%.40s'", what, s);
		if (*out & fn->bit)
			return ipp_yr_fail(r, f->line, f->col, "%s: flag '%s' given twice", what,
					   s);
		*out |= fn->bit;
	}
	return 0;
}
