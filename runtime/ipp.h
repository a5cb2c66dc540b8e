/* ipp.h -- the public interface of libipprt, the runtime library of ipp,
 * the interprocedural path profiler.  Programs built with the ipp plugin
 * are linked with libipprt; they need this header only to control when
 * the profile is written.
 *
 * The profile is written to $IPP_PROFILE (default ./ipp.prof; %p = pid,
 * %h = host name, %% = %) when the process ends normally (return from
 * main, or exit() from anywhere), and merged with what the file already
 * holds.  See docs/RUNTIME.md.
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
#ifndef IPP_H
#define IPP_H

#ifdef __cplusplus
extern "C" {
#endif

/* Writes (merges) everything counted so far into the profile now, then
 * goes on counting from zero: a later ipp_dump() or the write at exit adds
 * only what was counted after this one, so nothing is counted twice (the
 * semantics of gcov's __gcov_dump followed by __gcov_reset).  The process
 * is counted as one run of the profile however often it dumps.  Paths
 * still in progress are not written (they are counted when they finish).
 * Call it before _exit(), exec*() or a fork child's end, which skip the
 * write at exit.  Failures are reported on stderr.  Not async-signal-safe. */
void ipp_dump(void) __attribute__((no_instrument_function));

/* Forgets everything counted so far, in every thread (complete and
 * partial paths).  Not async-signal-safe. */
void ipp_reset(void) __attribute__((no_instrument_function));

/* Sets the profile file name pattern (as IPP_PROFILE) for the next writes;
 * NULL restores $IPP_PROFILE or the default.  A relative name is taken
 * relative to the current working directory now.  Returns 0, or -1 if the
 * name is too long. */
int ipp_set_profile(const char *path) __attribute__((no_instrument_function));

#ifdef __cplusplus
}
#endif
#endif /* IPP_H */
