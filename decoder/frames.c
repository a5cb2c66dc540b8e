/* frames.c -- a decoded path cut into frames (frames.h).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "frames.h"
#include "util.h"

/* Steps that stand for no source statement of their own: a surrogate
 * Entry_P / GEntry_P (located at the function's declaration), GExit_P. */
static bool synthetic(enum step_kind k)
{
	switch (k) {
	case SK_SURR_ENTRY: case SK_CUT_ENTRY: case SK_RESTART_ENTRY:
	case SK_SURR_EXIT: case SK_CUT_EXIT: case SK_GEXIT: case SK_GENTRY:
		return true;
	default:
		return false;
	}
}

size_t path_frames(const ipp_graph *g, const struct steps *s, struct frame **out)
{
	struct frame *f = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < s->n; i++) {
		const struct step *st = &s->v[i];
		const struct step *prev = i > 0 ? &s->v[i - 1] : NULL;
		int line = ipp_vertex_line(g, st->origin);

		if (prev == NULL || prev->kind == SK_CALL || (prev->kind == SK_EXIT && prev->returns) ||
		    prev->proc != st->proc) {
			GROW(f, n, cap);
			f[n] = (struct frame){ .proc = st->proc, .first_step = i, .context = true,
				.returned = prev != NULL && prev->kind == SK_EXIT };
			n++;
		}
		struct frame *cur = &f[n - 1];
		cur->nsteps++;
		if (i >= s->context)
			cur->context = false;
		if (line > 0 && !synthetic(st->kind)) {
			if (cur->first_line == 0)
				cur->first_line = line;
			cur->last_line = line;
		}
	}
	*out = f;
	return n;
}

void write_frame_name(FILE *out, const ipp_graph *g, const struct frame *f, bool lines)
{
	fputs(f->proc != IPP_NONE ? ipp_proc_name(g, f->proc) : "?", out);
	if (lines && f->first_line > 0) {
		if (f->first_line == f->last_line)
			fprintf(out, ":%d", f->first_line);
		else
			fprintf(out, ":%d-%d", f->first_line, f->last_line);
	}
	if (f->returned)
		fputs(" (return)", out);
}
