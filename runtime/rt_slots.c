/* rt_slots.c -- the slots of inlined copies, linked into the thread's
 * frame list while the runtime reads it (ipp_abi.h, struct ipp_rt_slot).
 *
 * An intra-mode inlined copy that keeps a checkpoint writes it to a slot
 * of its function's frames instead of pushing a frame of its own: a push
 * and a pop cost SQLite 8 instructions per copy activation, 0.58M of them.
 * The code never links a slot.  A frame that stands at the call vertex of
 * such a copy has the copy active in the slot the module's slots table
 * gives for that vertex (element `slot` of the array whose element 0 is
 * the function's frame), and that slot may stand at the call of a copy
 * inside it in turn.
 *
 * rt_slots_link puts every such chain on the list, between the frame that
 * owns the array and the frame above it (or __ipp_top), innermost slot
 * first, each slot with its region and IPP_FRAME_SLOT set: then the list
 * is what it would be had each copy pushed a frame, and every reader (the
 * walk, the signal handler's fixup, exec's notes, __ipp_callee_recorded,
 * a landing pad's __ipp_eh_land)
 * reads it unchanged.  rt_slots_unlink takes the chains out again,
 * restoring the links the code keeps, before the program runs on.  Both
 * run on the list's own thread, and each changes the list with one store
 * (a chain is complete before it is published), so a signal that
 * interrupts either, and walks, finds a well-formed list.  Linking is
 * idempotent: a chain already on the list (a fatal signal during a walk)
 * is passed over.
 *
 * Invariants relied on:
 *   - a frame stands at a slotted call vertex only while that copy is
 *     active: the copy's Entry checkpoint is stored in the slot first, and
 *     the frame around it stands at the return site once it returns;
 *   - IPP_FRAME_SLOT is set in a frame only here (the code stores 0 in a
 *     slot's flags at the copy's entry, and a frame's at its push), so a
 *     frame reached on the list with it is a slot this file linked;
 *   - elements 0 .. slot of the array exist (the plugin sizes it).
 *
 * Copyright (c) 2026 the ipp authors.
 * SPDX-License-Identifier: MIT (see runtime/LICENSE)
 */
#include "rt_internal.h"

/* The innermost slot of the chain of frame g (c: its copy), each slot
 * linked to the frame around it, or g if none of its copies is active. */
static RT_NOINST struct ipp_rt_frame *chain_of(struct ipp_rt_frame *g, const struct ipp_rt_frame *c)
{
	struct ipp_rt_region rc;
	const struct ipp_rt_module *m;
	struct ipp_rt_frame sc, *inner = g;
	const struct ipp_rt_slot *e;
	int32_t v = c->vertex;
	uint32_t depth = 0;
	if (c->flags & IPP_FRAME_CONTINUES || !c->region ||
	    !rt_safe_read(&rc, c->region, sizeof(rc)) || !rc.module)
		return g;
	m = rc.module;
	while (v >= 0 && depth++ < IPP_FRAME_SLOT_MAX && m->nslots &&
	       (e = rt_table_key(m->slots, m->nslots, sizeof(*e), IPP_VERTEX_ID(v))) != NULL && e->slot >= 1 &&
	       e->slot <= IPP_FRAME_SLOT_MAX) {
		struct ipp_rt_frame *s = g + e->slot;
		if (!rt_read_frame(&sc, s) || sc.vertex < -1)
			break;	/* not a checkpoint: link nothing more */
		s->region = e->region;
		s->flags = IPP_FRAME_SLOT;
		s->prev = inner;
		inner = s;
		v = sc.vertex;
	}
	return inner;
}

RT_HIDDEN void rt_slots_link(void)
{
	struct ipp_rt_frame **link = &__ipp_top, *g = __ipp_top, c;
	uint32_t steps = 0;
	while (steps++ < RT_MAX_FRAMES && rt_read_frame(&c, g)) {
		if (c.flags & IPP_FRAME_SLOT) {
			/* a chain on the list already: on to the frame
			 * that owns it, linked too */
			link = &g->prev;
			g = c.prev;
			while (steps++ < RT_MAX_FRAMES && rt_read_frame(&c, g) &&
			       (c.flags & IPP_FRAME_SLOT)) {
				link = &g->prev;
				g = c.prev;
			}
			if (!rt_read_frame(&c, g))
				return;
		} else {
			struct ipp_rt_frame *inner = chain_of(g, &c);
			if (inner != g)
				*link = inner;	/* publish: the chain is complete */
		}
		if (c.prev == g)
			return;
		link = &g->prev;
		g = c.prev;
	}
}

RT_HIDDEN void rt_slots_unlink(void)
{
	struct ipp_rt_frame **link = &__ipp_top, *g = __ipp_top, c;
	uint32_t steps = 0;
	while (steps++ < RT_MAX_FRAMES && rt_read_frame(&c, g)) {
		if (c.flags & IPP_FRAME_SLOT) {
			/* a chain: the frame that owns it takes its place */
			struct ipp_rt_frame *h = c.prev;
			while (steps++ < RT_MAX_FRAMES && rt_read_frame(&c, h) &&
			       (c.flags & IPP_FRAME_SLOT))
				h = c.prev;
			*link = h;
			g = h;
			if (!rt_read_frame(&c, g))
				return;
		}
		if (c.prev == g)
			return;
		link = &g->prev;
		g = c.prev;
	}
}
