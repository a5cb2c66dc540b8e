/* rt_unwind.c -- activations an unwinder removes (ipp_abi.h,
 * docs/PROTOCOL.md "Exceptions and forced unwinds"): a C++ exception,
 * _Unwind_ForcedUnwind, pthread_exit or pthread_cancel through code built
 * with -fexceptions.
 *
 * The unwinder runs an activation's code only at its landing pads, the
 * innermost activation first, and only once it has left the activations
 * below: when a pad calls us, the frames above the pad's own on the list
 * are dead stack memory (their functions had no pad: built without
 * -fexceptions, or not instrumented), possibly overwritten by this very
 * call.  They are dropped unread, as after a longjmp from uninstrumented
 * code.  The pad's own frame is alive, and so are its callers'.
 * (pthread_exit is wrapped before it unwinds: rt_pthread.c.)
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

RT_API void __ipp_eh_land(struct ipp_rt_frame *f)
{
	struct ipp_rt_frame cont;
	__ipp_top = f;
	/* the path the exception interrupted stops at f's checkpoint (the
	 * throwing call); with f's group if f continues its caller's path,
	 * and after the inlined copies active in f's slots, linked above it
	 * (rt_slots.c).  If the exception left a callee without a frame (a
	 * trap with -fnon-call-exceptions, a leaf call that throws), the
	 * callee's activation stops at its entry, as after a fatal signal. */
	if (f->vertex >= 0) {
		rt_slots_link();
		rt_record_pending(rt_callee_fixup(__ipp_top, &cont), f, RT_WALK_TO);
		rt_slots_unlink();
	}
}

RT_API void __ipp_eh_leave(struct ipp_rt_frame *f)
{
	__ipp_eh_land(f);
	/* f's group's path is recorded now (above, or at the dead end before
	 * the resx of one of f's own pads): its caller, the next innermost
	 * frame of the group, has nothing pending either (PROTOCOL.md, rule
	 * 9).  A continuing frame's caller has a frame of its own and is the
	 * next on the list (a function that makes continuing calls has one). */
	if ((f->flags & IPP_FRAME_CONTINUES) && f->prev)
		f->prev->vertex = -1;
	__ipp_top = f->prev;
}

