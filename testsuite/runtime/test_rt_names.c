/* test_rt_names.c -- the profile's name: $IPP_PROFILE with %p (pid), %h
 * (host name) and %% expanded, other % sequences kept, no lock file left
 * for such a per-process name; ./ipp.prof by
 * default; a relative name is resolved against the working directory of
 * the first record, so a later chdir() does not move the profile.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"

#include <stdio.h>
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

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_names");
	static const char *env1[] = { "IPP_PROFILE=n.%p.%h.%%.%x.prof", NULL };
	static const char *env2[] = { "IPP_PROFILE=rel.prof", NULL };
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

	/* no IPP_PROFILE: ./ipp.prof */
	CHECK_EXIT(rtt_run("plain", NULL, NULL, NULL), 0);
	check_file("ipp.prof");

	/* a chdir after the first record: still here, not in sub/ */
	CHECK(mkdir("sub", 0755) == 0);
	CHECK_EXIT(rtt_run("chdir", NULL, env2, NULL), 0);
	CHECK(!rtt_exists("sub/rel.prof"));
	check_file("rel.prof");
	rmdir("sub");
	rtt_done();
	return 0;
}
