/* rt_exec.c -- the profile before exec.
 *
 * exec replaces the process image: nothing counted since the last write
 * would ever be written, and the paths in progress would never end.  As
 * libgcov does for the code gcc compiles with -fprofile-arcs, the exec
 * family is wrapped: ipp-gcc links with
 *
 *     -Wl,--wrap=execl,--wrap=execle,--wrap=execlp,--wrap=execv,
 *         --wrap=execve,--wrap=execvp,--wrap=execvpe,--wrap=fexecve
 *
 * so that every call to one of them in the program's own objects comes
 * here first.  Before the real call the calling thread's pending paths are
 * recorded as partial paths (as at exit: they are abandoned) and the
 * profile is written as by ipp_dump().  If the exec fails and the program
 * goes on, those paths go on too: the partial paths just written are taken
 * back out of the profile (rt_write_profile_undo), so nothing is counted
 * twice.
 *
 * Not covered: calls from shared libraries and from libc itself (system,
 * popen, posix_spawn exec in a child that has nothing to write); programs
 * linked without ipp-gcc's flags (call ipp_dump() before exec there); a
 * vfork() child, which shares its parent's memory and must not write the
 * parent's profile (it is recognised by its pid, which no fork handler
 * updated).
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
#define _GNU_SOURCE 1	/* execvpe */
#include "rt_internal.h"

#include <alloca.h>
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

/* The real functions (resolved by the linker's --wrap). */
int __real_execv(const char *path, char *const argv[]);
int __real_execve(const char *path, char *const argv[], char *const envp[]);
int __real_execvp(const char *file, char *const argv[]);
int __real_execvpe(const char *file, char *const argv[], char *const envp[]);
int __real_fexecve(int fd, char *const argv[], char *const envp[]);

/* What before_exec recorded, to take back if the exec fails: the partial
 * records it added, and the frames whose vertex the recording set to -1
 * ("recorded"), with their checkpoints. */
struct rt_exec_state {
	struct rt_arena arena;
	struct rt_undo undo;
	bool written;
	struct ipp_rt_frame **frames;
	int32_t *vertex;
	size_t nframes;
};

/* Notes the checkpoints of the thread's frames (read as the walk reads
 * them: a stale frame stops it). */
static RT_NOINST void note_frames(struct rt_exec_state *x)
{
	struct ipp_rt_frame copy, *f = __ipp_top;
	size_t n = 0;
	for (struct ipp_rt_frame *g = f; n < RT_MAX_FRAMES && rt_safe_read(&copy, g, sizeof(copy));
	     g = copy.prev)
		n++;
	x->frames = rt_arena_alloc(&x->arena, (n + 1) * sizeof(*x->frames));
	x->vertex = rt_arena_alloc(&x->arena, (n + 1) * sizeof(*x->vertex));
	if (!x->frames || !x->vertex)
		return;
	for (struct ipp_rt_frame *g = f; x->nframes < n && rt_safe_read(&copy, g, sizeof(copy));
	     g = copy.prev) {
		x->frames[x->nframes] = g;
		x->vertex[x->nframes++] = copy.vertex;
	}
}

/* Before exec: record the calling thread's pending paths and write. */
static RT_NOINST void before_exec(struct rt_exec_state *x)
{
	struct rt_thread *t;
	size_t n = 0, k = 0;	/* k: records before the recording */
	struct rt_pent **was;
	uint64_t *had;

	memset(x, 0, sizeof(*x));
	if (getpid() != rt_pid || !(t = rt_thread_self()))
		return;		/* a vfork child: the memory is its parent's */
	/* the partial records and their counts before */
	for (struct rt_pent *p = t->partials.head; p; p = p->next)
		n++;
	was = rt_arena_alloc(&x->arena, (n + 1) * sizeof(*was));
	had = rt_arena_alloc(&x->arena, (n + 1) * sizeof(*had));
	if (!was || !had)
		return;
	for (struct rt_pent *p = t->partials.head; p; p = p->next, k++) {
		was[k] = p;
		had[k] = p->count;
	}
	rt_slots_link();	/* the slots' checkpoints are noted too */
	note_frames(x);
	rt_record_pending(__ipp_top, NULL, RT_WALK_ALL);
	rt_slots_unlink();
	/* what the recording added: new records first on the list, then
	 * increments of the old ones */
	n = 0;
	for (struct rt_pent *p = t->partials.head; p; p = p->next)
		n++;
	x->undo.p = rt_arena_alloc(&x->arena, (n + 1) * sizeof(*x->undo.p));
	x->undo.d = rt_arena_alloc(&x->arena, (n + 1) * sizeof(*x->undo.d));
	if (!x->undo.p || !x->undo.d)
		return;
	for (struct rt_pent *p = t->partials.head; p; p = p->next) {
		uint64_t before = 0;
		for (size_t i = 0; i < k; i++)
			if (was[i] == p) {
				before = had[i];
				break;
			}
		if (p->count > before) {
			x->undo.p[x->undo.n] = p;
			x->undo.d[x->undo.n++] = p->count - before;
		}
	}
	rt_dump_lock_acquire();
	x->written = rt_write_profile(RT_WRITE_EXEC) == 0;
	rt_dump_lock_release();
}

/* After a failed exec: the paths go on.  Their frames get their
 * checkpoints back, and their partial records are taken back out of the
 * profile and out of memory: they were not abandoned after all. */
static RT_NOINST void after_failed_exec(struct rt_exec_state *x)
{
	int e = errno;
	for (size_t i = 0; i < x->nframes; i++)
		if (x->frames[i]->vertex == -1)
			x->frames[i]->vertex = x->vertex[i];
	if (x->undo.n && x->written) {
		rt_dump_lock_acquire();
		rt_write_profile_undo(&x->undo);
		rt_dump_lock_release();
	} else {
		for (size_t i = 0; i < x->undo.n; i++)
			x->undo.p[i]->count -= x->undo.d[i];	/* never written */
	}
	rt_arena_free(&x->arena);
	errno = e;
}

/* A wrapper's body: write, the real call, take back if it failed. */
#define AROUND_EXEC(call)                                                      \
	do {                                                                   \
		struct rt_exec_state x_;                                       \
		int rc_;                                                       \
		before_exec(&x_);                                              \
		rc_ = (call);                                                  \
		after_failed_exec(&x_);                                        \
		return rc_;                                                    \
	} while (0)

RT_API int __wrap_execve(const char *path, char *const argv[], char *const envp[])
{
	AROUND_EXEC(__real_execve(path, argv, envp));
}

RT_API int __wrap_execv(const char *path, char *const argv[])
{
	AROUND_EXEC(__real_execv(path, argv));
}

RT_API int __wrap_execvp(const char *file, char *const argv[])
{
	AROUND_EXEC(__real_execvp(file, argv));
}

RT_API int __wrap_execvpe(const char *file, char *const argv[], char *const envp[])
{
	AROUND_EXEC(__real_execvpe(file, argv, envp));
}

RT_API int __wrap_fexecve(int fd, char *const argv[], char *const envp[])
{
	AROUND_EXEC(__real_fexecve(fd, argv, envp));
}

/* The list forms: collect the arguments (and execle's environment), as
 * glibc itself does, then the vector form. */
#define COLLECT_ARGS(arg0, ap, argv)                                           \
	do {                                                                   \
		size_t n_ = 1;                                                 \
		va_start(ap, arg0);                                            \
		while (va_arg(ap, const char *))                               \
			n_++;                                                  \
		va_end(ap);                                                    \
		argv = alloca((n_ + 1) * sizeof(char *));                      \
		argv[0] = (char *)arg0;                                        \
		va_start(ap, arg0);                                            \
		for (size_t i_ = 1; i_ <= n_; i_++)                            \
			argv[i_] = va_arg(ap, char *);                         \
	} while (0)

RT_API int __wrap_execl(const char *path, const char *arg0, ...)
{
	va_list ap;
	char **argv;
	COLLECT_ARGS(arg0, ap, argv);
	va_end(ap);
	AROUND_EXEC(__real_execv(path, argv));
}

RT_API int __wrap_execlp(const char *file, const char *arg0, ...)
{
	va_list ap;
	char **argv;
	COLLECT_ARGS(arg0, ap, argv);
	va_end(ap);
	AROUND_EXEC(__real_execvp(file, argv));
}

RT_API int __wrap_execle(const char *path, const char *arg0, ...)
{
	va_list ap;
	char **argv, **envp;
	COLLECT_ARGS(arg0, ap, argv);
	envp = va_arg(ap, char **);	/* after the NULL that ends the arguments */
	va_end(ap);
	AROUND_EXEC(__real_execve(path, argv, envp));
}
