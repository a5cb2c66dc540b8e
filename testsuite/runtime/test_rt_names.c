/* test_rt_names.c -- the profile's name: $IPP_PROFILE with %p (pid), %h
 * (host name) and %% expanded, other % sequences kept, no lock file left
 * for such a per-process name; %e (the executable's name) and %m (its
 * build: the first 16 hex digits of the GNU build-id, as readelf shows
 * it); ./test_rt_names.ipp.prof (the program's name) by default, also
 * when run through a symbolic link with another name; a relative name is
 * resolved against the working directory of the first record, so a later
 * chdir() does not move the profile.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

static struct ipp_rt_module m;
static struct ipp_rt_region r[1] = { { "main", 8, &m, 0, 0 } };
static struct ipp_rt_module m = { IPP_ABI_VERSION, 1, "names.c", "4e4e4e4e4e4e4e4e", "intra", r,
				  NULL, 0, 0 };

static int child(const char *role)
{
	__ipp_record(&r[0], 1);
	if (strcmp(role, "chdir") == 0 && chdir("sub") != 0)
		return 2;
	return 0;
}

static void check_file(const char *path)
{
	ipp_profile *p = rtt_read(path);
	CHECK_U64(rtt_path(rtt_module(p, "names.c", "4e4e4e4e4e4e4e4e"), "main", "1"), 1);
	ipp_profile_free(p);
	CHECK(remove(path) == 0);
}

/* The first 16 hex digits of this program's build-id, from readelf. */
static void build_id(char out[17])
{
	char cmd[4200], line[512], self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	FILE *f;
	CHECK(n > 0);
	self[n] = '\0';
	snprintf(cmd, sizeof(cmd), "readelf -n '%s'", self);
	f = popen(cmd, "r");
	CHECK(f);
	out[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "Build ID: ");
		if (p && strlen(p + 10) >= 16) {
			memcpy(out, p + 10, 16);
			out[16] = '\0';
		}
	}
	pclose(f);
	CHECK(strlen(out) == 16);
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_names");
	static const char *env1[] = { "IPP_PROFILE=n.%p.%h.%%.%x.prof", NULL };
	static const char *env2[] = { "IPP_PROFILE=rel.prof", NULL };
	static const char *env3[] = { "IPP_PROFILE=%e-%m.prof", NULL };
	char id[17];
	char name[512], lock[600];
	struct utsname u;
	pid_t pid;

	if (role)
		return child(role);

	pid = rtt_start("plain", NULL, env1, NULL);
	CHECK_EXIT(rtt_wait(pid), 0);
	CHECK(uname(&u) == 0);
	snprintf(name, sizeof(name), "n.%d.%s.%%.%%x.prof", (int)pid, u.nodename);
	snprintf(lock, sizeof(lock), "%s.lock", name);
	check_file(name);
	CHECK(!rtt_exists(lock));	/* a per-process name leaves no lock file */

	/* %e and %m */
	CHECK_EXIT(rtt_run("plain", NULL, env3, NULL), 0);
	build_id(id);
	snprintf(name, sizeof(name), "test_rt_names-%s.prof", id);
	check_file(name);

	/* no IPP_PROFILE: the program's name */
	CHECK_EXIT(rtt_run("plain", NULL, NULL, NULL), 0);
	check_file("test_rt_names.ipp.prof");
	CHECK(!rtt_exists("ipp.prof"));
	/* run through a link with another name: the executable's name */
	{
		char self[4096], cmd[4200];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		CHECK(n > 0);
		self[n] = '\0';
		CHECK(symlink(self, "other-name") == 0);
		snprintf(cmd, sizeof(cmd), "./other-name plain");
		CHECK(system(cmd) == 0);
		check_file("test_rt_names.ipp.prof");
		remove("other-name");
	}

	/* a chdir after the first record: still here, not in sub/ */
	CHECK(mkdir("sub", 0755) == 0);
	CHECK_EXIT(rtt_run("chdir", NULL, env2, NULL), 0);
	CHECK(!rtt_exists("sub/rel.prof"));
	check_file("rel.prof");
	rmdir("sub");
	rtt_done();
	return 0;
}
