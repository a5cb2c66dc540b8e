/* rt_pthread.c -- pthread_exit, wrapped (ipp-gcc links with
 * -Wl,--wrap=pthread_exit, as it wraps the exec family: rt_exec.c).
 *
 * pthread_exit removes every activation of the calling thread by a forced
 * unwind, which runs code of an activation only at its landing pads
 * (rt_unwind.c), and code built without -fexceptions has none.  But
 * pthread_exit is known before it unwinds: the wrapper records every
 * pending path of the thread while all its frames are alive, as exit()
 * does, and empties the list.  The pads that run then find their frames
 * recorded and only pop them.  Calls from shared libraries are not
 * wrapped.  In a file of its own: only a program that calls pthread_exit
 * links it, and so needs __real_pthread_exit (ld's --wrap).
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

void __real_pthread_exit(void *retval) __attribute__((noreturn));

RT_API void __wrap_pthread_exit(void *retval)
{
	rt_slots_link();
	if (__ipp_top)
		rt_record_pending(__ipp_top, NULL, RT_WALK_ALL);
	/* Every pending path is recorded, and the unwind frees the frames'
	 * stack: none may stay on the list.  The main thread's pthread_exit
	 * ends in exit(), whose walk read the dead frames (garbage once the
	 * unwinder and the exit handlers had reused their stack: a crash in
	 * rt_slots_link).  A landing pad the unwind runs makes its own
	 * (recorded, live) frame the top again and pops it; a cleanup
	 * handler's calls push theirs on an empty list. */
	__ipp_top = NULL;
	__real_pthread_exit(retval);
}
