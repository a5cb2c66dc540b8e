/* rt_longjmp.c -- setjmp/longjmp (ipp_abi.h, docs/PROTOCOL.md): which
 * frame receives a jmp_buf, and recording the frames a longjmp abandons
 * while they are still alive.
 *
 * After a longjmp the abandoned frames are dead stack memory: the first
 * call the receiver makes (even a call to the runtime) overwrites them.  So
 * an instrumented longjmp is preceded by __ipp_longjmp_note(buf), which
 * runs __ipp_unwind_to(receiver) from the deepest frame, where everything
 * is alive.  The receiver is known from __ipp_setjmp_note(buf, frame),
 * called on the normal in-edges of the block that calls setjmp.  When the
 * longjmp was not instrumented (it came from a library), __ipp_receive()
 * finds the top of the list is not the receiver and discards the frames
 * above it without reading them.
 *
 * The notes (jmp_buf address -> frame) are per thread, in a small
 * open-addressing table.  A note whose frame is no longer on the frame
 * list belongs to a function that has returned; such notes are dropped
 * when the table fills up, so the table stays as small as the number of
 * live receivers.
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

struct rt_jnote {
	const void *buf;
	struct ipp_rt_frame *f;
};

static RT_TLS struct rt_jnote *rt_tls_notes;
static RT_TLS uint32_t rt_tls_ncap, rt_tls_nused;

static RT_NOINST uint32_t slot(const void *buf, uint32_t cap)
{
	return (uint32_t)(rt_hash64((uintptr_t)buf) >> 32) & (cap - 1);
}

static RT_NOINST struct rt_jnote *find(const void *buf)
{
	uint32_t mask = rt_tls_ncap - 1, i;
	if (!rt_tls_ncap)
		return NULL;
	for (i = slot(buf, rt_tls_ncap); rt_tls_notes[i].buf; i = (i + 1) & mask)
		if (rt_tls_notes[i].buf == buf)
			return &rt_tls_notes[i];
	return NULL;
}

/* Rebuilds the table with the notes whose frame is still on the list
 * (the others belong to functions that have returned), growing it if
 * needed.  (Not by address: inlined frames are in no particular order.) */
static RT_NOINST int rebuild(void)
{
	uint32_t keep = 0, cap = rt_tls_ncap ? rt_tls_ncap : 16;
	struct rt_jnote *old = rt_tls_notes, *t;
	for (uint32_t i = 0; i < rt_tls_ncap; i++) {
		if (old[i].buf && !rt_frame_on_list(old[i].f))
			old[i].buf = NULL;
		keep += old[i].buf != NULL;
	}
	while ((keep + 1) * 2 > cap)
		cap *= 2;
	t = rt_alloc(cap * sizeof(*t));
	if (!t)
		return -1;
	for (uint32_t i = 0; i < rt_tls_ncap; i++)
		if (old[i].buf) {
			uint32_t k = slot(old[i].buf, cap);
			while (t[k].buf)
				k = (k + 1) & (cap - 1);
			t[k] = old[i];
		}
	/* (the old table is left behind: the runtime never frees) */
	rt_tls_notes = t;
	rt_tls_ncap = cap;
	rt_tls_nused = keep;
	return 0;
}

RT_API void __ipp_setjmp_note(const void *buf, struct ipp_rt_frame *f)
{
	struct rt_jnote *n;
	uint32_t i;
	if (!buf || !f)
		return;
	n = find(buf);
	if (n) {
		n->f = f;	/* a later setjmp on the same buf replaces the note */
		return;
	}
	if ((rt_tls_nused + 1) * 2 > rt_tls_ncap && rebuild() < 0)
		return;
	i = slot(buf, rt_tls_ncap);
	while (rt_tls_notes[i].buf)
		i = (i + 1) & (rt_tls_ncap - 1);
	rt_tls_notes[i].buf = buf;
	rt_tls_notes[i].f = f;
	rt_tls_nused++;
}

RT_API void __ipp_longjmp_note(const void *buf)
{
	struct rt_jnote *n = find(buf);
	/* Only a receiver that is on the list is believable; anything else is
	 * a longjmp into uninstrumented code or a stale buffer, and
	 * __ipp_receive will discard the frames unread. */
	if (n && rt_frame_on_list(n->f))
		__ipp_unwind_to(n->f);
}

RT_API uint64_t __ipp_receive(struct ipp_rt_frame *f, int ret, uint64_t cur, uint64_t restart)
{
	if (!ret)
		return cur;	/* setjmp's first return */
	/* A longjmp arrived.  If it was instrumented, __ipp_longjmp_note made
	 * f the top and recorded f's pending path already (f->vertex = -1).
	 * Otherwise the frames above f are dead: discard them unread. */
	__ipp_top = f;
	if (f->vertex >= 0)
		rt_record_pending(f, f, RT_WALK_TO);
	return restart;
}
