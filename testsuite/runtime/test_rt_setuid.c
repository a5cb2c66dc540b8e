/* test_rt_setuid.c -- a set-user-ID (or set-group-ID) program writes no
 * profile unless it names one itself (docs/RUNTIME.md, "Set-user-ID
 * programs"):
 *
 *  - a set-user-ID-root copy of this test, run as 'nobody' with
 *    IPP_PROFILE naming a root-owned profile of another program in a
 *    directory only root may write, leaves that profile byte for byte as
 *    it was and creates nothing there (no lock file, no .<pid> file); one
 *    warning says why; the exit status is the program's;
 *  - the same without IPP_PROFILE, started in that directory: nothing is
 *    created there either;
 *  - a set-group-ID copy: the same;
 *  - a program that calls ipp_set_profile() itself writes there (its
 *    author's choice), with its count.
 *
 * Needs root (to make the set-user-ID copy and to become nobody) and a
 * file system that honours the set-user-ID bit: otherwise the test says
 * SKIP (exit 77), never PASS.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

static struct ipp_rt_module m;
static struct ipp_rt_region r[1] = { { "main", 8, &m, 0, 0 } };
static struct ipp_rt_module m = { IPP_ABI_VERSION, 1, "suid.c", "5e75e75e75e75e75", "intra", r,
				  NULL, 0, 0 };

#define NOBODY 65534

/* The profile of another program that the attacker would like the
 * privileged program to rewrite. */
#define OTHER "%YAML 1.1\n---\nipp-profile: 1\nmodules:\n" \
	      "- module: other.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n  runs: 1\n" \
	      "  paths:\n  - [main, 1, 1]\n  partial: []\n...\n"

static int child(const char *role, const char *arg)
{
	if (!getauxval(AT_SECURE))
		return 77;	/* the set-user-ID bit had no effect here */
	if (strcmp(role, "named") == 0 && ipp_set_profile(arg) != 0)
		return 3;
	__ipp_record(&r[0], 4);
	return 6;
}

/* Runs the privileged copy 'exe' as nobody in directory 'cwd' with role,
 * arg and env; stderr to err.txt (in the test's directory). */
static int run_as_nobody(const char *exe, const char *cwd, const char *role, const char *arg,
			 const char *const *env)
{
	pid_t pid;
	int fd = open("err.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	fflush(NULL);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		if (dup2(fd, 2) < 0 || chdir(cwd) < 0 || setgroups(0, NULL) < 0 ||
		    setgid(NOBODY) < 0 || setuid(NOBODY) < 0)
			_exit(126);
		for (size_t i = 0; env && env[i]; i++)
			putenv((char *)env[i]);
		execl(exe, exe, role, arg, (char *)NULL);
		_exit(127);
	}
	close(fd);
	return rtt_wait(pid);
}

/* Copies this program to 'to' with owner root and mode 'mode'. */
static void privileged_copy(const char *to, mode_t mode)
{
	size_t len;
	char *s = rtt_slurp("/proc/self/exe", &len);
	int fd = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0700);
	CHECK(s && fd >= 0);
	CHECK(write(fd, s, len) == (ssize_t)len);
	CHECK(close(fd) == 0);
	free(s);
	CHECK(chown(to, 0, 0) == 0);
	CHECK(chmod(to, mode) == 0);
}

static int count_entries(const char *dir)
{
	char cmd[4200];
	FILE *f;
	int n = 0;
	char line[512];
	snprintf(cmd, sizeof(cmd), "ls -A '%s'", dir);
	f = popen(cmd, "r");
	CHECK(f);
	while (fgets(line, sizeof(line), f))
		n++;
	pclose(f);
	return n;
}

static void skip(const char *why)
{
	printf("SKIP rt_setuid: %s\n", why);
	exit(77);
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_setuid");
	char rootonly[4200], victim[4300], suid[4200], sgid[4200], named[4300], envp[4400];
	const char *env[2] = { envp, NULL };
	char *s, *other;
	size_t len, olen;
	int st;

	if (role)
		return child(role, argc > 2 ? argv[2] : NULL);
	if (geteuid() != 0)
		skip("needs root to make a set-user-ID copy and to run it as nobody");

	/* nobody must reach the directory and run the copies */
	CHECK(chmod(rtt_dir(), 0755) == 0);
	snprintf(rootonly, sizeof(rootonly), "%s/rootonly", rtt_dir());
	snprintf(victim, sizeof(victim), "%s/victim.prof", rootonly);
	snprintf(named, sizeof(named), "%s/named.prof", rootonly);
	snprintf(suid, sizeof(suid), "%s/suid", rtt_dir());
	snprintf(sgid, sizeof(sgid), "%s/sgid", rtt_dir());
	CHECK(mkdir(rootonly, 0755) == 0);
	rtt_write_profile(victim, OTHER);
	other = rtt_slurp(victim, &olen);
	privileged_copy(suid, 04755);
	privileged_copy(sgid, 02755);

	/* 1. IPP_PROFILE names the root-owned profile: untouched. */
	snprintf(envp, sizeof(envp), "IPP_PROFILE=%s", victim);
	st = run_as_nobody(suid, rtt_dir(), "plain", NULL, env);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 77)
		skip("the set-user-ID bit has no effect here (nosuid mount or no_new_privs)");
	CHECK_EXIT(st, 6);
	s = rtt_slurp(victim, &len);
	CHECK(s && len == olen && memcmp(s, other, len) == 0);
	free(s);
	CHECK(count_entries(rootonly) == 1);	/* victim.prof alone */
	CHECK(rtt_contains("err.txt", "ipp: warning: this program runs set-user-ID or "
			   "set-group-ID: it writes no profile unless it names one with "
			   "ipp_set_profile()"));

	/* 2. No IPP_PROFILE, started in the root-only directory. */
	st = run_as_nobody(suid, rootonly, "plain", NULL, NULL);
	CHECK_EXIT(st, 6);
	CHECK(count_entries(rootonly) == 1);

	/* 3. Set-group-ID: the same. */
	st = run_as_nobody(sgid, rtt_dir(), "plain", NULL, env);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 77)
		skip("the set-group-ID bit has no effect here");
	CHECK_EXIT(st, 6);
	s = rtt_slurp(victim, &len);
	CHECK(s && len == olen && memcmp(s, other, len) == 0);
	free(s);
	CHECK(count_entries(rootonly) == 1);

	/* 4. The program names its profile itself: written, root's. */
	st = run_as_nobody(suid, rtt_dir(), "named", named, env);
	CHECK_EXIT(st, 6);
	{
		ipp_profile *p = rtt_read(named);
		struct stat sb;
		CHECK_U64(rtt_path(rtt_module(p, "suid.c", "5e75e75e75e75e75"), "main", "4"), 1);
		ipp_profile_free(p);
		CHECK(stat(named, &sb) == 0 && sb.st_uid == 0);
	}
	CHECK(!rtt_contains("err.txt", "ipp: "));
	CHECK(system("rm -rf rootonly") == 0);
	rtt_done();
	return 0;
}
