/* rt_write.c -- writing the profile file: lock, read, merge, write a
 * temporary file, fsync, rename.  Async-signal-safe (system calls, the
 * write's arena, hand formatting), so the fatal-signal path uses it too.
 *
 * The protocol, for each write (docs/RUNTIME.md, "Writing the profile"):
 *
 *  1. Lock "<profile>.lock" with fcntl(F_SETLKW).  Not the profile itself:
 *     the profile is replaced by rename(), and a lock held on the old inode
 *     would not exclude a writer that opened the new one.  The lock file is
 *     left in place (removing it would reopen that race), except for a
 *     per-process name (%p), which no one else writes.
 *  2. Read the existing profile, if any, and parse it (rt_merge.c).  If it
 *     is not a profile this runtime understands, it is left untouched and
 *     this run's data goes to "<profile>.<pid>" instead (merged into it if
 *     an earlier ipp_dump() of this process wrote it), with a warning.
 *  3. Write everything to "<profile>.<pid>.tmp" in the same directory,
 *     fsync it, and rename() it over the profile.  Readers see the old or
 *     the new file, never a torn one.
 *  4. If the existing profile held one of our modules only under another
 *     checksum (an older build), the old file is first hard-linked (or
 *     renamed) to "<profile>.stale" (".stale.1", ".stale.2", ... if that
 *     exists), and the new profile starts afresh for that module: nothing
 *     is merged across builds and nothing is lost.  One warning names the
 *     file and both checksums.
 *
 * Any failure prints one "ipp: ..." line naming the path and the system's
 * reason, and leaves the existing profile as it was; the program's exit
 * status never changes.
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

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>	/* rename */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char rt_run_target[RT_PATH_MAX];	/* rt_dump_lock */

/* dst = a + b + c (NULL pieces skipped); -1 if too long. */
static RT_NOINST int join(char *dst, const char *a, const char *b, const char *c)
{
	dst[0] = '\0';
	if (rt_cat(dst, RT_PATH_MAX, a) < 0 || (b && rt_cat(dst, RT_PATH_MAX, b) < 0) ||
	    (c && rt_cat(dst, RT_PATH_MAX, c) < 0))
		return -1;
	return 0;
}

/* Opens and locks <path>.lock; *what says which step failed. */
static RT_NOINST int lock_profile(const char *path, char *lockpath, const char **what)
{
	struct flock fl;
	int fd;
	*what = "cannot open ";
	if (join(lockpath, path, ".lock", NULL) < 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0)
		return -1;
	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	while (fcntl(fd, F_SETLKW, &fl) < 0) {
		int e = errno;
		if (e == EINTR)
			continue;
		if (e == ENOLCK || e == EINVAL || e == EOPNOTSUPP) {
			/* A file system without locks: go on, warn once. */
			static int warned;
			if (!warned++)
				rt_msg("warning: cannot lock ", lockpath, ": ", rt_strerror(e),
				       "; concurrent writers of ", path, " may lose counts",
				       (const char *)NULL);
			break;
		}
		close(fd);
		*what = "cannot lock ";
		errno = e;
		return -1;
	}
	return fd;
}

/* Reads the whole file fd into the arena. */
static RT_NOINST int read_all(int fd, size_t size, struct rt_arena *a, char **buf, size_t *len)
{
	size_t n = 0, cap = size + 1;
	char *b = rt_arena_alloc(a, cap);
	if (!b) {
		errno = ENOMEM;
		return -1;
	}
	for (;;) {
		ssize_t r;
		if (n == cap) {
			/* The file grew (not an ipp writer): read the rest too. */
			char *g = rt_arena_alloc(a, 2 * cap);
			if (!g) {
				errno = ENOMEM;
				return -1;
			}
			memcpy(g, b, n);
			b = g;
			cap *= 2;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*buf = b;
	*len = n;
	return 0;
}

/* Keeps the old profile as <path>.stale[.N]; name out in stale. */
static RT_NOINST int keep_stale(const char *path, char *stale)
{
	char num[21];
	for (unsigned k = 0; k < 1000; k++) {
		struct stat st;
		if (join(stale, path, ".stale", k ? "." : NULL) < 0 ||
		    (k && rt_cat(stale, RT_PATH_MAX, rt_fmt_u64(k, num)) < 0)) {
			errno = ENAMETOOLONG;
			return -1;
		}
		if (link(path, stale) == 0)
			return 0;
		if (errno == EEXIST)
			continue;
		/* No hard links here (EPERM on some file systems): rename,
		 * after checking the name is free (we hold the lock). */
		if (lstat(stale, &st) == 0)
			continue;
		if (rename(path, stale) == 0)
			return 0;
		return -1;
	}
	errno = EEXIST;
	return -1;
}

static RT_NOINST void warn_stale(const char *path, const char *stale, const struct rt_file *f,
				 const struct rt_snapshot *s)
{
	const struct rt_fmod *m = f->first_stale;
	const char *now = "";
	char old[17], more[21];
	static const char hex[] = "0123456789abcdef";
	for (int i = 0; i < 16; i++)
		old[i] = hex[(m->checksum >> (60 - 4 * i)) & 15];
	old[16] = '\0';
	for (size_t i = 0; i < s->npmods; i++)
		if (strcmp(s->pmods[i].name, m->name) == 0)
			now = s->pmods[i].checksum;
	rt_msg("warning: ", path, " holds ", m->name, " from another build (checksum ", old,
	       " in the file, ", now, " in this program)",
	       f->nstale > 1 ? " and " : "", f->nstale > 1 ? rt_fmt_u64(f->nstale - 1, more) : "",
	       f->nstale > 1 ? " more such modules" : "", "; the old profile was kept as ", stale,
	       " and ", path, " starts afresh for this build", (const char *)NULL);
}

/* Steps 2-4 for one target.  fallback: may redirect to <path>.<pid>. */
static RT_NOINST int write_one(const char *path, struct rt_snapshot *s, struct rt_arena *a,
			       bool fallback)
{
	char *tmp = rt_arena_alloc(a, RT_PATH_MAX), *alt = rt_arena_alloc(a, RT_PATH_MAX);
	char *stale = rt_arena_alloc(a, RT_PATH_MAX), *err = rt_arena_alloc(a, 1024);
	struct rt_file *f = rt_arena_alloc(a, sizeof(*f));
	struct rt_out *o = rt_arena_alloc(a, sizeof(*o));
	char pid[21];
	int fd, e;

	if (!tmp || !alt || !stale || !err || !f || !o) {
		rt_msg("cannot write the profile ", path, ": out of memory", (const char *)NULL);
		return -1;
	}
	rt_fmt_u64((uint64_t)getpid(), pid);
	if (join(alt, path, ".", pid) < 0 || join(tmp, alt, ".tmp", NULL) < 0) {
		rt_msg("cannot write the profile ", path, ": the name is too long",
		       (const char *)NULL);
		return -1;
	}

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		struct stat st;
		char *buf;
		size_t len;
		int rc;
		if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
			close(fd);
			rt_msg("cannot write the profile ", path, ": it is not a regular file",
			       (const char *)NULL);
			return -1;
		}
		rc = read_all(fd, (size_t)st.st_size, a, &buf, &len);
		e = errno;
		close(fd);
		if (rc < 0) {
			rt_msg("cannot read the profile ", path, ": ", rt_strerror(e),
			       "; profile not written", (const char *)NULL);
			return -1;
		}
		/* An empty file holds no data (e.g. made by touch). */
		rc = len ? rt_file_parse(buf, len, path, s, a, f, err, 1024) : 0;
		if (rc == -2) {
			rt_msg("cannot write the profile ", path, ": out of memory",
			       (const char *)NULL);
			return -1;
		}
		if (rc == -1) {
			if (!fallback) {
				rt_msg("cannot merge into ", path, ": ", err, "; profile not written",
				       (const char *)NULL);
				return -1;
			}
			rt_msg("warning: ", err, "; ", path, " is left untouched and this run's "
			       "profile goes to ", alt, (const char *)NULL);
			return write_one(alt, s, a, false);
		}
	} else if (errno != ENOENT) {
		e = errno;
		if (!fallback) {
			rt_msg("cannot read the profile ", path, ": ", rt_strerror(e),
			       "; profile not written", (const char *)NULL);
			return -1;
		}
		rt_msg("warning: cannot read ", path, ": ", rt_strerror(e), "; this run's profile "
		       "goes to ", alt, (const char *)NULL);
		return write_one(alt, s, a, false);
	}

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0) {
		e = errno;
		rt_msg("cannot write the profile ", path, ": cannot create ", tmp, ": ",
		       rt_strerror(e), (const char *)NULL);
		return -1;
	}
	o->fd = fd;
	if (rt_emit_profile(o, s, f) < 0 || fsync(fd) < 0) {
		e = o->err ? o->err : errno;
		close(fd);
		unlink(tmp);
		rt_msg("cannot write the profile ", path, ": writing ", tmp, ": ", rt_strerror(e),
		       (const char *)NULL);
		return -1;
	}
	if (close(fd) < 0) {
		e = errno;
		unlink(tmp);
		rt_msg("cannot write the profile ", path, ": closing ", tmp, ": ", rt_strerror(e),
		       (const char *)NULL);
		return -1;
	}
	if (f->nstale && keep_stale(path, stale) < 0) {
		e = errno;
		unlink(tmp);
		rt_msg("cannot write the profile ", path, ": it holds data of another build that "
		       "could not be kept as ", stale, ": ", rt_strerror(e), (const char *)NULL);
		return -1;
	}
	if (rename(tmp, path) < 0) {
		e = errno;
		unlink(tmp);
		rt_msg("cannot write the profile ", path, ": renaming ", tmp, ": ", rt_strerror(e),
		       (const char *)NULL);
		return -1;
	}
	if (f->nstale)
		warn_stale(path, stale, f, s);
	return 0;
}

RT_HIDDEN int rt_write_profile(enum rt_write_mode mode)
{
	struct rt_arena a = { NULL, false };
	struct rt_snapshot *s = rt_arena_alloc(&a, sizeof(*s));
	char *path = rt_arena_alloc(&a, RT_PATH_MAX), *lockpath = rt_arena_alloc(&a, RT_PATH_MAX);
	uint32_t n = __atomic_load_n(&rt_nmods, __ATOMIC_ACQUIRE);
	struct rt_modinfo **mods = __atomic_load_n(&rt_mods, __ATOMIC_ACQUIRE);
	const char *what = "";
	int rc = -1, lfd;

	if (!s || !path || !lockpath) {
		rt_msg("cannot write the profile: out of memory", (const char *)NULL);
		goto out;
	}
	if (rt_name_expand(path) < 0) {
		rt_msg("cannot write the profile: its name (IPP_PROFILE) is too long",
		       (const char *)NULL);
		goto out;
	}
	/* 'runs' counts this process once per profile file. */
	if (strcmp(path, rt_run_target) != 0)
		for (uint32_t i = 0; i < n; i++)
			mods[i]->run_counted = false;
	if (rt_snapshot_take(s, &a, mode != RT_WRITE_CRASH) < 0) {
		rt_msg("cannot write the profile ", path, ": out of memory", (const char *)NULL);
		goto out;
	}
	if (mode != RT_WRITE_DUMP && s->bad_records) {
		static int warned;
		char num[21];
		if (!warned++)
			rt_msg("warning: ", rt_fmt_u64(s->bad_records, num), " records had a path "
			       "number beyond their region and were not counted (the program and "
			       "the runtime disagree: rebuild with one ipp)", (const char *)NULL);
	}
	/* Only with IPP_VERBOSE: a profiler must not change what the program
	 * writes on its stderr (the torture harness compares it), and frames
	 * left inconsistent by a longjmp into uninstrumented code or a nonlocal
	 * goto are expected. */
	if (mode != RT_WRITE_DUMP && s->bad_frames && rt_verbose()) {
		static int warned;
		char num[21];
		if (!warned++)
			rt_msg("warning: ", rt_fmt_u64(s->bad_frames, num), " abandoned paths had "
			       "inconsistent frames and were not recorded", (const char *)NULL);
	}
	if (!s->any) {
		rc = 0;		/* nothing new since the last write */
		goto out;
	}
	lfd = lock_profile(path, lockpath, &what);
	if (lfd < 0) {
		int e = errno;
		rt_msg("cannot write the profile ", path, ": ", what, lockpath, ": ",
		       rt_strerror(e), (const char *)NULL);
		goto out;
	}
	rc = write_one(path, s, &a, true);
	/* A per-process name (%p): nobody else locks it, so its lock file
	 * need not stay (and would pile up, one per process).  Others must
	 * stay: removing a lock file that another writer may be waiting on
	 * would let a third lock a new one at the same time. */
	if (rt_name_per_process())
		unlink(lockpath);
	close(lfd);	/* releases the lock */
	if (rc == 0) {
		for (uint32_t i = 0; i < s->nmods; i++)
			s->mods[i]->run_counted = true;
		memcpy(rt_run_target, path, strlen(path) + 1);
		if (mode != RT_WRITE_CRASH)
			rt_snapshot_commit(s);
	}
out:
	rt_arena_free(&a);
	return rc;
}
