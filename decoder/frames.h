/* frames.h -- a decoded path cut into FRAMES, the unit of ipp export
 * --folded and of the flame graph of ipp html.
 *
 * A frame is a maximal run of a path's steps in one activation of one
 * function: a call the path follows starts a frame in the callee, and a
 * return into the caller starts a frame in the caller, marked 'returned'
 * (the caller continues after the call).  Synthetic steps (a surrogate
 * Entry_P, GExit_P) belong to their function's frame.  So a path of the
 * paper's Figure 4 that enters power from main's first call site and ends
 * at power's back edge has the frames main, power; one that returns and
 * calls power again has main, power, main (returned), power.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_DECODER_FRAMES_H
#define IPP_DECODER_FRAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ipp_core.h"
#include "steps.h"

struct frame {
	ipp_id proc;
	bool returned;		/* entered by a return from a callee */
	int first_line, last_line;	/* of its first and last located steps but
					 * the synthetic ones (surrogate entries and
					 * exits, GExit_P); 0 if none */
	size_t first_step, nsteps;	/* its steps: s->v[first_step ..] */
	bool context;		/* all its steps are in the path's context prefix */
};

/* The frames of s into a malloc'd *out; returns their number. */
size_t path_frames(const ipp_graph *g, const struct steps *s, struct frame **out);

/* Writes a frame's folded name: FUNCTION, "FUNCTION (return)" for a
 * returned frame; with 'lines', ":FIRST-LAST" (":LINE" if they are equal)
 * after FUNCTION. */
void write_frame_name(FILE *out, const ipp_graph *g, const struct frame *f, bool lines);

#endif
