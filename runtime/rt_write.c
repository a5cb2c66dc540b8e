/* rt_write.c -- writing the profile file: lock, read, merge, write a
 * temporary file, fsync, rename.  Async-signal-safe (system calls, the
 * write's arena, hand formatting), so the fatal-signal path uses it too.
 *
 * The protocol, for each write (docs/RUNTIME.md, "Writing the profile"):
 *
 *  1. Lock "<profile>.lock" with fcntl(F_SETLK), polled for at most
 *     IPP_LOCK_TIMEOUT seconds (30 by default): a lock another process
 *     holds longer ends the write with a message naming the holder, never
 *     a hang at exit.  Not the profile itself: the profile is replaced by
 *     rename(), and a lock held on the old inode would not exclude a
 *     writer that opened the new one.  The lock file is left in place
 *     (removing it would reopen that race), except for a per-process name
 *     (%p), which no one else writes.
 *  2. Read the existing profile, if any, and parse it (rt_merge.c).  If it
 *     is not a profile this runtime understands, it is left untouched and
 *     this run's data goes to "<profile>.<pid>" instead (merged into it if
 *     an earlier ipp_dump() of this process wrote it), with a warning.
 *  3. Write everything to a new temporary file "<profile>.<pid>.XXXXXX.tmp"
 *     in the same directory (mkostemps: an unpredictable name, created
 *     with O_EXCL, mode 0600), give it the mode of the profile it replaces
 *     (0644 minus the umask for a new one), fsync it, and rename() it over
 *     the profile.  Readers see the old or the new file, never a torn one.
 *     Temporary files that a killed writer left (their pid is gone) are
 *     removed first.
 *  4. If the existing profile holds one of our modules only under another
 *     checksum (another build), the old file is first hard-linked (or
 *     renamed) to "<profile>.stale", replacing an older one, and the new
 *     profile starts afresh for that module: nothing is merged across
 *     builds, and the files of one profile stay two at most.  One warning
 *     names the file and both checksums.
 *
 * Files are opened safely (gcov's and compiler-rt's bar): neither the
 * profile nor its lock file is ever opened through a symbolic link
 * (refused with a message: lstat first, then O_NOFOLLOW), and anything at
 * those names but a regular file -- a FIFO, a device, a directory -- is
 * refused without being opened (and opened O_NONBLOCK in case it changed
 * meanwhile), so a write can neither block on a FIFO nor read or write
 * another file's contents.  rename(), link() and unlink() act on names,
 * never on what a link points to.
 *
 * Any failure prints one "ipp: ..." line naming the path and the reason,
 * and leaves the existing profile as it was; the program's exit status
 * never changes.
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
#define _GNU_SOURCE 1	/* mkostemps, getdents64 */
#include "rt_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>	/* rename */
#include <stdlib.h>	/* mkostemps */
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

char rt_run_target[RT_PATH_MAX];	/* rt_dump_lock */

/* Flags of every open of an existing name: never through a symbolic link,
 * never blocking (a FIFO), never acquiring a controlling terminal. */
#define RT_OPEN_SAFE (O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)

/* dst = a + b + c (NULL pieces skipped); -1 if too long. */
static RT_NOINST int join(char *dst, const char *a, const char *b, const char *c)
{
	dst[0] = '\0';
	if (rt_cat(dst, RT_PATH_MAX, a) < 0 || (b && rt_cat(dst, RT_PATH_MAX, b) < 0) ||
	    (c && rt_cat(dst, RT_PATH_MAX, c) < 0))
		return -1;
	return 0;
}

/* Why a name that exists is not something the runtime may open: NULL for
 * a regular file. */
static RT_NOINST const char *not_regular(mode_t mode)
{
	if (S_ISREG(mode))
		return NULL;
	if (S_ISLNK(mode))
		return "it is a symbolic link (ipp does not follow links at the profile's "
		       "name or its lock file)";
	if (S_ISDIR(mode))
		return "it is not a regular file (a directory)";
	if (S_ISFIFO(mode))
		return "it is not a regular file (a FIFO)";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "it is not a regular file (a device)";
	return "it is not a regular file";
}

/* Refuses 'name' (the profile or its lock file) with the reason. */
static RT_NOINST void refuse(const char *path, const char *name, const char *why)
{
	if (strcmp(path, name) == 0)
		rt_msg("cannot write the profile ", path, ": ", why, "; profile not written",
		       (const char *)NULL);
	else
		rt_msg("cannot write the profile ", path, ": ", name, ": ", why,
		       "; profile not written", (const char *)NULL);
}

static RT_NOINST int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static RT_NOINST void nap_ms(int64_t ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Takes the write lock on fd (lockpath), waiting at most
 * rt_env.lock_timeout seconds.  0: locked (or a file system without
 * locks, with one warning); -1 after a message. */
static RT_NOINST int wait_lock(int fd, const char *path, const char *lockpath)
{
	int64_t start = now_ms(), limit = (int64_t)rt_env.lock_timeout * 1000, nap = 1;
	for (;;) {
		struct flock fl;
		int e;
		memset(&fl, 0, sizeof(fl));
		fl.l_type = F_WRLCK;
		fl.l_whence = SEEK_SET;
		if (fcntl(fd, F_SETLK, &fl) == 0)
			return 0;
		e = errno;
		if (e == EINTR)
			continue;
		if (e == ENOLCK || e == EINVAL || e == EOPNOTSUPP) {
			/* A file system without locks: go on, warn once. */
			static int warned;
			if (!warned++)
				rt_msg("warning: cannot lock ", lockpath, ": ", rt_strerror(e),
				       "; concurrent writers of ", path, " may lose counts",
				       (const char *)NULL);
			return 0;
		}
		if (e != EACCES && e != EAGAIN) {
			rt_msg("cannot write the profile ", path, ": cannot lock ", lockpath, ": ",
			       rt_strerror(e), (const char *)NULL);
			return -1;
		}
		/* Held by another process: poll, 1 ms doubling to 50 ms. */
		int64_t left = limit - (now_ms() - start);
		if (left <= 0) {
			char pid[21], secs[21];
			memset(&fl, 0, sizeof(fl));
			fl.l_type = F_WRLCK;
			fl.l_whence = SEEK_SET;
			bool known = fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK &&
				     fl.l_pid > 0;
			rt_msg("cannot write the profile ", path, ": ", lockpath, " is locked by ",
			       known ? "process " : "another process",
			       known ? rt_fmt_u64((uint64_t)fl.l_pid, pid) : "", "; gave up after ",
			       rt_fmt_u64(rt_env.lock_timeout, secs),
			       " s (IPP_LOCK_TIMEOUT); profile not written", (const char *)NULL);
			return -1;
		}
		nap_ms(nap < left ? nap : left);
		if (nap < 50)
			nap *= 2;
	}
}

/* Opens <path>.lock (created if absent: a regular file, never a link) and
 * locks it.  The descriptor, or -1 after a message. */
static RT_NOINST int lock_profile(const char *path, char *lockpath)
{
	struct stat st;
	const char *why;
	int fd;
	if (join(lockpath, path, ".lock", NULL) < 0) {
		rt_msg("cannot write the profile ", path, ": the name is too long",
		       (const char *)NULL);
		return -1;
	}
	if (lstat(lockpath, &st) == 0 && (why = not_regular(st.st_mode)) != NULL) {
		refuse(path, lockpath, why);
		return -1;
	}
	fd = open(lockpath, O_RDWR | O_CREAT | RT_OPEN_SAFE, 0666);
	if (fd < 0) {
		int e = errno;
		if (e == ELOOP)		/* a link planted since the lstat */
			refuse(path, lockpath, not_regular(S_IFLNK));
		else
			rt_msg("cannot write the profile ", path, ": cannot open ", lockpath, ": ",
			       rt_strerror(e), (const char *)NULL);
		return -1;
	}
	if (fstat(fd, &st) < 0 || (why = not_regular(st.st_mode)) != NULL) {
		close(fd);
		refuse(path, lockpath, why ? why : "cannot stat it");
		return -1;
	}
	if (wait_lock(fd, path, lockpath) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Removes the temporary files that writers of path killed while writing
 * left behind: "<base>.<pid>.XXXXXX.tmp" (and "<base>.<pid>.tmp" of
 * runtimes before mkostemps) whose pid is no live process.  Called under
 * the lock; never in the crash path (the next writer cleans up). */
static RT_NOINST void remove_dead_tmps(const char *path, struct rt_arena *a)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	size_t blen = strlen(base), dlen = slash ? (size_t)(slash - path) : 0;
	char *dir = rt_arena_alloc(a, RT_PATH_MAX), *buf = rt_arena_alloc(a, 16384);
	int dfd;
	ssize_t n;

	if (!dir || !buf)
		return;
	if (slash) {
		memcpy(dir, path, dlen);
		dir[dlen ? dlen : 1] = '\0';	/* "/" for a file at the root */
		if (!dlen)
			dir[0] = '/';
	} else {
		dir[0] = '.';
		dir[1] = '\0';
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return;
	while ((n = getdents64(dfd, buf, 16384)) > 0) {
		for (ssize_t off = 0; off < n;) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);
			const char *q = d->d_name + blen;
			uint64_t pid = 0;
			size_t digits = 0, rest;
			off += d->d_reclen;
			if (strncmp(d->d_name, base, blen) != 0 || *q != '.' || d->d_type == DT_DIR)
				continue;
			for (q++; *q >= '0' && *q <= '9' && digits < 10; q++, digits++)
				pid = pid * 10 + (uint64_t)(*q - '0');
			rest = strlen(q);
			if (!digits || pid == 0 || pid > INT32_MAX ||
			    !(strcmp(q, ".tmp") == 0 ||
			      (rest == 11 && q[0] == '.' && strcmp(q + 7, ".tmp") == 0)))
				continue;
			if ((pid_t)pid == getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
				continue;	/* a live writer (or not ours to judge) */
			unlinkat(dfd, d->d_name, 0);
		}
	}
	close(dfd);
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

/* Keeps the old profile as <path>.stale, replacing an older one; the
 * name in stale.  Where hard links work, path stays in place until the
 * new profile is renamed over it (a reader never finds it missing): the
 * old file is linked to a private name, which is renamed over the old
 * <path>.stale.  Elsewhere it is renamed. */
static RT_NOINST int keep_stale(const char *path, char *stale, char *scratch)
{
	char pid[21];
	if (join(stale, path, ".stale", NULL) < 0 ||
	    join(scratch, stale, ".", rt_fmt_u64((uint64_t)getpid(), pid)) < 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (link(path, stale) == 0)
		return 0;
	if (errno == EEXIST) {
		unlink(scratch);	/* our own, left by an earlier failure */
		if (link(path, scratch) == 0) {
			if (rename(scratch, stale) == 0)
				return 0;
			int e = errno;
			unlink(scratch);
			errno = e;
			return -1;
		}
	}
	/* No hard links here (EPERM on some file systems). */
	return rename(path, stale);
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

/* Opens the existing profile for reading: 0 with *fd >= 0 and its mode in
 * *mode; 0 with *fd = -1 if there is none; -1 with errno (and *why for a
 * name the runtime refuses, else NULL). */
static RT_NOINST int open_existing(const char *path, int *fd, mode_t *mode, const char **why)
{
	struct stat ls, st;
	*fd = -1;
	*why = NULL;
	if (lstat(path, &ls) < 0)
		return errno == ENOENT ? 0 : -1;
	if ((*why = not_regular(ls.st_mode)) != NULL)
		return -1;
	*fd = open(path, O_RDONLY | RT_OPEN_SAFE);
	if (*fd < 0) {
		if (errno == ENOENT)
			return 0;	/* removed meanwhile (not by an ipp writer) */
		if (errno == ELOOP)
			*why = not_regular(S_IFLNK);
		return -1;
	}
	if (fstat(*fd, &st) < 0 || (*why = not_regular(st.st_mode)) != NULL ||
	    st.st_dev != ls.st_dev || st.st_ino != ls.st_ino) {
		if (!*why)
			*why = "it changed while being opened";
		close(*fd);
		*fd = -1;
		return -1;
	}
	*mode = st.st_mode & 0777;
	return 0;
}

/* The partial records a failed exec takes back (rt_write_profile_undo),
 * during that write only. */
static const struct rt_undo *rt_cur_undo;	/* rt_dump_lock */

/* Subtracts the undo amounts from the merged partial records of s. */
static RT_NOINST void apply_undo(struct rt_snapshot *s, const struct rt_undo *u)
{
	for (size_t i = 0; u && i < u->n; i++) {
		const struct rt_pent *p = u->p[i];
		const struct ipp_rt_module *m = p->region->module;
		struct rt_rec key = { p->region->name, p->num, 0, p->stack, p->nstack, 0, NULL,
				      NULL, 0 };
		for (size_t k = 0; k < s->npmods; k++) {
			struct rt_pmod *pm = &s->pmods[k];
			if (strcmp(pm->name, m->name) != 0 || strcmp(pm->checksum, m->checksum) != 0)
				continue;
			for (size_t j = 0; j < pm->npartials; j++) {
				struct rt_rec *r = &pm->partials[j];
				if (!rt_rec_eq(r, &key))
					continue;
				r->count -= r->count < u->d[i] ? r->count : u->d[i];
				if (!r->count) {
					memmove(r, r + 1, (pm->npartials - j - 1) * sizeof(*r));
					pm->npartials--;
				}
				break;
			}
		}
	}
}

/* Steps 2-4 for one target.  fallback: may redirect to <path>.<pid>. */
static RT_NOINST int write_one(const char *path, struct rt_snapshot *s, struct rt_arena *a,
			       bool fallback)
{
	char *tmp = rt_arena_alloc(a, RT_PATH_MAX), *alt = rt_arena_alloc(a, RT_PATH_MAX);
	char *stale = rt_arena_alloc(a, RT_PATH_MAX), *err = rt_arena_alloc(a, 1024);
	char *scratch = rt_arena_alloc(a, RT_PATH_MAX);
	struct rt_file *f = rt_arena_alloc(a, sizeof(*f));
	struct rt_out *o = rt_arena_alloc(a, sizeof(*o));
	const char *why;
	mode_t mode = 0644 & ~rt_umask();	/* a new profile's */
	char pid[21];
	int fd, e;

	if (!tmp || !alt || !stale || !err || !scratch || !f || !o) {
		rt_msg("cannot write the profile ", path, ": out of memory", (const char *)NULL);
		return -1;
	}
	rt_fmt_u64((uint64_t)getpid(), pid);
	if (join(alt, path, ".", pid) < 0 || join(tmp, alt, ".XXXXXX.tmp", NULL) < 0) {
		rt_msg("cannot write the profile ", path, ": the name is too long",
		       (const char *)NULL);
		return -1;
	}

	if (open_existing(path, &fd, &mode, &why) < 0) {
		e = errno;
		if (why) {
			refuse(path, path, why);
			return -1;
		}
		if (!fallback) {
			rt_msg("cannot read the profile ", path, ": ", rt_strerror(e),
			       "; profile not written", (const char *)NULL);
			return -1;
		}
		rt_msg("warning: cannot read ", path, ": ", rt_strerror(e), "; this run's profile "
		       "goes to ", alt, (const char *)NULL);
		return write_one(alt, s, a, false);
	}
	if (fd >= 0) {
		struct stat st;
		char *buf;
		size_t len;
		int rc;
		rc = fstat(fd, &st) < 0 ? -1 : read_all(fd, (size_t)st.st_size, a, &buf, &len);
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
	}

	apply_undo(s, rt_cur_undo);
	if (!rt_tls_crash)
		remove_dead_tmps(path, a);
	/* O_EXCL (mkostemps) never follows a link nor opens an existing file. */
	fd = mkostemps(tmp, 4, O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		rt_msg("cannot write the profile ", path, ": cannot create ", tmp, ": ",
		       rt_strerror(e), (const char *)NULL);
		return -1;
	}
	rt_out_open(o, fd);
	if (rt_emit_profile(o, s, f, a) < 0 || fchmod(fd, mode) < 0 || fsync(fd) < 0) {
		e = o->pf.err ? o->pf.err : errno;
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
	if (f->nstale && keep_stale(path, stale, scratch) < 0) {
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

RT_HIDDEN int rt_write_profile_undo(const struct rt_undo *undo)
{
	int rc;
	/* in memory: as if the paths had never been recorded (the owner is
	 * this thread, the baselines are the dump lock's) */
	for (size_t i = 0; i < undo->n; i++) {
		undo->p[i]->count -= undo->d[i];
		undo->p[i]->base -= undo->d[i];
	}
	rt_cur_undo = undo;
	rc = rt_write_profile(RT_WRITE_DUMP);
	rt_cur_undo = NULL;
	return rc;
}

RT_HIDDEN int rt_write_profile(enum rt_write_mode mode)
{
	struct rt_arena a = { NULL, false, NULL };
	struct rt_snapshot *s = rt_arena_alloc(&a, sizeof(*s));
	char *path = rt_arena_alloc(&a, RT_PATH_MAX), *lockpath = rt_arena_alloc(&a, RT_PATH_MAX);
	uint32_t n = __atomic_load_n(&rt_nmods, __ATOMIC_ACQUIRE);
	struct rt_modinfo **mods = __atomic_load_n(&rt_mods, __ATOMIC_ACQUIRE);
	int rc = -1, lfd;

	rt_env_init();
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
	/* Forked prefixes go with the final writes only: until then, the
	 * paths they begin may still be pending (docs/RUNTIME.md, fork). */
	if (rt_snapshot_take(s, &a, mode != RT_WRITE_CRASH, mode != RT_WRITE_DUMP) < 0) {
		rt_msg("cannot write the profile ", path, ": out of memory", (const char *)NULL);
		goto out;
	}
	if (mode != RT_WRITE_DUMP && mode != RT_WRITE_EXEC && s->bad_records) {
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
	if (mode != RT_WRITE_DUMP && mode != RT_WRITE_EXEC && s->bad_frames && rt_env.verbose) {
		static int warned;
		char num[21];
		if (!warned++)
			rt_msg("warning: ", rt_fmt_u64(s->bad_frames, num), " abandoned paths had "
			       "inconsistent frames and were not recorded", (const char *)NULL);
	}
	if (!s->any && !rt_cur_undo) {
		rc = 0;		/* nothing new since the last write */
		goto out;
	}
	/* A set-user-ID or set-group-ID process writes only where the
	 * program itself said (rt_env.c). */
	if (rt_env.secure && !rt_name_explicit()) {
		static int warned;
		if (!warned++)
			rt_msg("warning: this program runs set-user-ID or set-group-ID: it writes no "
			       "profile unless it names one with ipp_set_profile() (IPP_PROFILE is "
			       "ignored)", (const char *)NULL);
		goto out;
	}
	/* Refuse a FIFO, device, directory or link at the name before a
	 * lock file is created next to it (write_one checks again). */
	{
		struct stat st;
		const char *why;
		if (lstat(path, &st) == 0 && (why = not_regular(st.st_mode)) != NULL) {
			refuse(path, path, why);
			goto out;
		}
	}
	lfd = lock_profile(path, lockpath);
	if (lfd < 0)
		goto out;
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
	if (mode == RT_WRITE_FINAL || mode == RT_WRITE_CRASH)
		rt_last_write(path, &a);
out:
	rt_arena_free(&a);
	return rc;
}
