/* cmd_export_folded.c -- `ipp export --folded`: one line per recorded path,
 * in rank order (count descending), its frames (frames.h) joined by ';', a
 * space and its count -- the "folded stacks" that flamegraph.pl and
 * speedscope read (d3-flame-graph reads the same tree as JSON).
 *
 * What the picture means: the frames of a path are the pieces it runs
 * through in order, so a flame graph of these lines is the prefix tree of
 * the paths -- the bottom row is where paths start, each row above the next
 * piece -- and a frame's width is how often paths through that prefix ran.
 * A piece entered by a call sits above its caller's piece as in a stack; a
 * piece entered by a return is marked "(return)".  Partial paths (abandoned
 * by exit, longjmp, a signal) end where they stopped.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>

#include "export.h"
#include "frames.h"

int export_folded(FILE *out, const struct derived *d, const struct export_opts *o)
{
	for (size_t i = 0; i < d->r.nrecs; i++) {
		const struct rec *x = &d->r.recs[i];
		const ipp_graph *g = d->prog.mods[x->mod].map->graph;
		struct frame *f;
		size_t n = path_frames(g, &x->steps, &f);

		for (size_t k = 0; k < n; k++) {
			if (k > 0)
				fputc(';', out);
			write_frame_name(out, g, &f[k], o->lines);
		}
		fprintf(out, " %" PRIu64 "\n", x->count);
		free(f);
	}
	return 0;
}
