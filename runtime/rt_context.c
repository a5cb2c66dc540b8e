/* rt_context.c -- context mode's entry and exit of functions with an Entry
 * region (docs/PROTOCOL.md, rules 2 and 6), and the thread-local slots
 * that stand in for the paper's pathNum (by reference) and
 * numValidCompsFromExit (by value).
 *
 * A caller about to make an interprocedural call stores the path number,
 * psi_r(nvc), the path's region and the callee's token in the slots.  The
 * callee's __ipp_enter() continues that path only if the token names it;
 * anything else (a call from another unit, through a pointer, from
 * uninstrumented code, a signal handler, a thread's start) starts a fresh
 * path in the function's own region, after saving the slots in the frame,
 * so that whatever it interrupted finds them intact.  Exactly one party
 * records each path: __ipp_leave() records a fresh path and restores the
 * slots, and hands a continued path back to the caller through
 * __ipp_path.
 *
 * A fresh entry through a function pointer (the caller stored the
 * pointer in __ipp_itgt, PROTOCOL.md rule 7) also counts the indirect
 * call arc in rt_arcs.c.
 *
 * Both are leaf functions on the hot path of every call: no locks, no
 * allocation outside the first occurrence of an arc; recording goes
 * through __ipp_record.
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

RT_ABI_TLS uint64_t __ipp_tok, __ipp_path, __ipp_nvc;
RT_ABI_TLS struct ipp_rt_region *__ipp_reg;
RT_ABI_TLS const void *__ipp_itgt;

RT_API void __ipp_enter(struct ipp_rt_frame *f, struct ipp_rt_region *region, uint64_t token,
			const void *self)
{
	struct ipp_rt_frame *prev = __ipp_top;
	bool indirect = false;
	f->prev = prev;
	f->vertex = -1;
	if (token && __ipp_tok == token) {
		/* continues the caller's path */
		RT_STAT(enter_continue);
		f->flags = IPP_FRAME_CONTINUES;
		f->path = __ipp_path;
		f->nvc = __ipp_nvc;
		f->region = __ipp_reg;
	} else {
		/* a fresh path: keep what the slots held for whoever we
		 * interrupted or were called by */
		const void *tgt = __ipp_itgt;
		RT_STAT(enter_fresh);
		f->saved_tok = __ipp_tok;
		f->saved_path = __ipp_path;
		f->saved_nvc = __ipp_nvc;
		f->saved_reg = __ipp_reg;
		/* Called through a pointer by the previous top frame, which
		 * stands at the indirect call vertex (rule 7).  Any other
		 * target found here was meant for someone else: an
		 * uninstrumented callee (stale, harmless) or the callee of a
		 * call this activation interrupted (a signal handler), which
		 * gets it back at our leave. */
		if (self != NULL && tgt == self) {
			indirect = true;
			RT_STAT(enter_indirect);
			tgt = NULL;
		}
		f->saved_itgt = tgt;
		__ipp_itgt = NULL;
		f->flags = 0;
		f->path = 0;
		f->nvc = 1;
		f->region = region;
	}
	__ipp_tok = 0;
	/* The frame is complete before it is visible to a walk (a signal
	 * handler on this thread). */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__ipp_top = f;
	/* Last, as a tail call: the rest stays a leaf function. */
	if (indirect)
		rt_icall_count(prev, region);
}

RT_API void __ipp_leave(struct ipp_rt_frame *f, uint64_t r)
{
	__ipp_top = f->prev;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (f->flags & IPP_FRAME_CONTINUES) {
		RT_STAT(leave_continue);
		__ipp_path = r;		/* the caller reloads it */
		return;
	}
	RT_STAT(leave_fresh);
	__ipp_record(f->region, r);
	__ipp_tok = f->saved_tok;
	__ipp_path = f->saved_path;
	__ipp_nvc = f->saved_nvc;
	__ipp_reg = f->saved_reg;
	__ipp_itgt = f->saved_itgt;
}
