/* test_rt_files.c -- the profile's files are opened safely
 * (docs/RUNTIME.md, "Files and safety"):
 *
 *  - a symbolic link at the profile's name, at its lock file (both also
 *    dangling) and at the temporary name older runtimes used
 *    (P.<pid>.tmp) is never followed: the file it points to keeps its
 *    contents (and a dangling link's target is not created); the first two
 *    are refused with a message naming the link, the third is ignored
 *    (temporary names are mkostemps's, unpredictable);
 *  - a FIFO at the profile's name or its lock file, and a device
 *    (/dev/null) as the profile, are refused without blocking: the program
 *    ends at once with its status and its buffered stdout; no lock file is
 *    created next to /dev/null;
 *  - a lock another process holds longer than IPP_LOCK_TIMEOUT ends the
 *    write with a message naming the holder; the program does not hang;
 *  - an existing profile's mode is kept (0600 stays 0600, 0640 stays
 *    0640); a new one is 0644 minus the umask (umask 077: 0600, 022:
 *    0644, 0: 0644); no temporary file is left;
 *  - temporary files of dead writers are removed by the next writer;
 *    those of a live process and unrelated names stay.
 *
 * The set-user-ID case is test_rt_setuid.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static struct ipp_rt_module m;
static struct ipp_rt_region r[1] = { { "main", 8, &m, 0, 0 } };
static struct ipp_rt_module m = { IPP_ABI_VERSION, 1, "files.c", "f11ef11ef11ef11e", "intra", r,
				  NULL, 0, 0 };

#define VICTIM "precious contents\n"

static int child(const char *role)
{
	if (strcmp(role, "umask077") == 0)
		umask(077);
	if (strcmp(role, "umask0") == 0)
		umask(0);
	__ipp_record(&r[0], 3);
	__ipp_record(&r[0], 3);
	if (strcmp(role, "oldtmp") == 0) {
		/* an attacker who predicted the old temporary name P.<pid>.tmp */
		char name[64];
		snprintf(name, sizeof(name), "p.prof.%ld.tmp", (long)getpid());
		if (symlink("victim", name) < 0)
			return 3;
	}
	/* buffered (stdout is a file): lost if the program hangs at exit */
	printf("the program's output\n");
	return 5;
}

/* Runs role with env, stderr to err.txt and stdout to out.txt; fails if
 * it takes more than 'limit' seconds.  Returns the wait status and the
 * seconds it took in *secs. */
static int run_timed(const char *role, const char *const *env, int limit, double *secs)
{
	struct timespec t0, t1;
	pid_t pid;
	int st, fd;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	fflush(NULL);
	fd = open("out.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	{
		int saved = dup(1);
		CHECK(saved >= 0 && dup2(fd, 1) == 1);
		pid = rtt_start(role, NULL, env, "err.txt");
		CHECK(dup2(saved, 1) == 1);
		close(saved);
		close(fd);
	}
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w == pid)
			break;
		CHECK(w == 0 || errno == EINTR);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (t1.tv_sec - t0.tv_sec > limit) {
			kill(pid, SIGKILL);
			rtt_wait(pid);
			rtt_fail(__FILE__, __LINE__, "role %s hangs (killed after %d s)", role, limit);
		}
		usleep(10000);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	*secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	return st;
}

static int run(const char *role, const char *const *env)
{
	double secs;
	return run_timed(role, env, 10, &secs);
}

static void check_victim(void)
{
	char *s = rtt_slurp("victim", NULL);
	CHECK(s && strcmp(s, VICTIM) == 0);
	free(s);
}

static void check_profile(const char *path, uint64_t count)
{
	ipp_profile *p = rtt_read(path);
	CHECK_U64(rtt_path(rtt_module(p, "files.c", "f11ef11ef11ef11e"), "main", "3"), count);
	ipp_profile_free(p);
}

static mode_t mode_of(const char *path)
{
	struct stat st;
	CHECK(lstat(path, &st) == 0);
	return st.st_mode & 07777;
}

static bool is_link(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

/* No file in the directory has a name ending in .tmp. */
static void check_no_tmp(void)
{
	FILE *f = popen("ls -a", "r");
	char line[512];
	CHECK(f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, ".tmp\n"))
			rtt_fail(__FILE__, __LINE__, "a temporary file is left: %s", line);
	pclose(f);
}

/* A pid that no process has (a child that has exited and been reaped). */
static pid_t dead_pid(void)
{
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0)
		_exit(0);
	rtt_wait(pid);
	return pid;
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_files");
	static const char *env[] = { "IPP_PROFILE=p.prof", NULL };
	static const char *env_null[] = { "IPP_PROFILE=/dev/null", NULL };
	static const char *env_t1[] = { "IPP_PROFILE=p.prof", "IPP_LOCK_TIMEOUT=1", NULL };
	double secs;

	if (role)
		return child(role);

	rtt_write_file("victim", VICTIM);

	/* 1. A symbolic link at the profile's name: refused, not followed. */
	CHECK(symlink("victim", "p.prof") == 0);
	CHECK_EXIT(run("plain", env), 5);
	check_victim();
	CHECK(is_link("p.prof"));
	CHECK(rtt_contains("err.txt", "ipp: cannot write the profile "));
	CHECK(rtt_contains("err.txt", "/p.prof: it is a symbolic link"));
	CHECK(rtt_contains("out.txt", "the program's output\n"));
	CHECK(!rtt_exists("p.prof.lock"));
	remove("p.prof");
	/* dangling: its target is not created */
	CHECK(symlink("created-through-link", "p.prof") == 0);
	CHECK_EXIT(run("plain", env), 5);
	CHECK(!rtt_exists("created-through-link"));
	CHECK(rtt_contains("err.txt", "/p.prof: it is a symbolic link"));
	remove("p.prof");

	/* 2. A symbolic link at the lock file: refused, not followed. */
	CHECK(symlink("victim", "p.prof.lock") == 0);
	CHECK_EXIT(run("plain", env), 5);
	check_victim();
	CHECK(is_link("p.prof.lock"));
	CHECK(!rtt_exists("p.prof"));
	CHECK(rtt_contains("err.txt", "/p.prof.lock: it is a symbolic link"));
	remove("p.prof.lock");
	CHECK(symlink("created-through-link", "p.prof.lock") == 0);
	CHECK_EXIT(run("plain", env), 5);
	CHECK(!rtt_exists("created-through-link"));
	CHECK(!rtt_exists("p.prof"));
	remove("p.prof.lock");

	/* 3. A symbolic link at the old predictable temporary name: ignored;
	 * the profile is right and the victim untouched. */
	CHECK_EXIT(run("oldtmp", env), 5);
	check_victim();
	check_profile("p.prof", 2);
	CHECK(rtt_exists("err.txt") && !rtt_contains("err.txt", "ipp: "));
	CHECK(system("rm -f p.prof.*.tmp") == 0);
	remove("p.prof");
	remove("p.prof.lock");	/* (lock files stay after a write) */

	/* 4. A FIFO at the profile's name or at its lock file, a device as
	 * the profile: refused at once, stdout and status kept. */
	CHECK(mkfifo("p.prof", 0644) == 0);
	CHECK_EXIT(run_timed("plain", env, 10, &secs), 5);
	CHECK(rtt_contains("err.txt", "/p.prof: it is not a regular file (a FIFO)"));
	CHECK(rtt_contains("out.txt", "the program's output\n"));
	CHECK(!rtt_exists("p.prof.lock"));
	remove("p.prof");
	CHECK(mkfifo("p.prof.lock", 0644) == 0);
	CHECK_EXIT(run("plain", env), 5);
	CHECK(rtt_contains("err.txt", "/p.prof.lock: it is not a regular file (a FIFO)"));
	CHECK(rtt_contains("out.txt", "the program's output\n"));
	CHECK(!rtt_exists("p.prof"));
	remove("p.prof.lock");
	/* The device is refused before any lock is taken: no /dev/null.lock
	 * is created.  (/dev is shared: should another process have left one
	 * there, it must be the same file, untouched, afterwards.) */
	{
		struct stat before, after;
		int had = lstat("/dev/null.lock", &before) == 0;
		CHECK_EXIT(run("plain", env_null), 5);
		CHECK(rtt_contains("err.txt", "/dev/null: it is not a regular file (a device)"));
		if (!had)
			CHECK(!rtt_exists("/dev/null.lock"));
		else
			CHECK(lstat("/dev/null.lock", &after) == 0 &&
			      after.st_ino == before.st_ino &&
			      after.st_mtime == before.st_mtime &&
			      after.st_size == before.st_size);
	}

	/* 5. A lock held by another process (this one) for longer than
	 * IPP_LOCK_TIMEOUT=1: a message naming the holder after about a
	 * second; once released, the write goes through. */
	{
		int fd = open("p.prof.lock", O_RDWR | O_CREAT, 0644);
		struct flock fl;
		char want[128];
		CHECK(fd >= 0);
		memset(&fl, 0, sizeof(fl));
		fl.l_type = F_WRLCK;
		fl.l_whence = SEEK_SET;
		CHECK(fcntl(fd, F_SETLK, &fl) == 0);
		CHECK_EXIT(run_timed("plain", env_t1, 10, &secs), 5);
		CHECK(secs >= 0.9 && secs < 8);
		snprintf(want, sizeof(want), "/p.prof.lock is locked by process %ld; gave up after "
			 "1 s (IPP_LOCK_TIMEOUT); profile not written", (long)getpid());
		CHECK(rtt_contains("err.txt", want));
		CHECK(rtt_contains("out.txt", "the program's output\n"));
		CHECK(!rtt_exists("p.prof"));
		close(fd);	/* releases the lock */
		CHECK_EXIT(run("plain", env_t1), 5);
		check_profile("p.prof", 2);
	}

	/* 6. Modes.  An existing profile's mode is kept. */
	CHECK(chmod("p.prof", 0600) == 0);
	CHECK_EXIT(run("plain", env), 5);
	check_profile("p.prof", 4);
	CHECK_U64(mode_of("p.prof"), 0600);
	CHECK(chmod("p.prof", 0640) == 0);
	CHECK_EXIT(run("umask077", env), 5);
	check_profile("p.prof", 6);
	CHECK_U64(mode_of("p.prof"), 0640);
	remove("p.prof");
	/* a new profile: 0644 minus the umask */
	CHECK_EXIT(run("umask077", env), 5);
	CHECK_U64(mode_of("p.prof"), 0600);
	remove("p.prof");
	umask(022);
	CHECK_EXIT(run("plain", env), 5);
	CHECK_U64(mode_of("p.prof"), 0644);
	remove("p.prof");
	CHECK_EXIT(run("umask0", env), 5);
	CHECK_U64(mode_of("p.prof"), 0644);
	check_no_tmp();
	remove("p.prof");

	/* 7. Temporary files of writers that were killed: removed when their
	 * pid is gone (both name forms); a live pid's and other names stay. */
	{
		char dead1[64], dead2[64], live[64];
		pid_t d = dead_pid();
		snprintf(dead1, sizeof(dead1), "p.prof.%ld.a1B2c3.tmp", (long)d);
		snprintf(dead2, sizeof(dead2), "p.prof.%ld.tmp", (long)d);
		snprintf(live, sizeof(live), "p.prof.%ld.zZ9yY8.tmp", (long)getpid());
		rtt_write_file(dead1, "half a profile");
		rtt_write_file(dead2, "half a profile");
		rtt_write_file(live, "being written");
		rtt_write_file("p.prof.notes.tmp", "not ipp's");
		CHECK_EXIT(run("plain", env), 5);
		check_profile("p.prof", 2);
		CHECK(!rtt_exists(dead1));
		CHECK(!rtt_exists(dead2));
		CHECK(rtt_exists(live));
		CHECK(rtt_exists("p.prof.notes.tmp"));
		remove(live);
		remove("p.prof.notes.tmp");
	}
	rtt_done();
	return 0;
}
