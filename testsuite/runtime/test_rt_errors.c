/* test_rt_errors.c -- when the profile cannot be written, one clear line
 * on stderr names the path and the system's reason, and the program's
 * exit status is unchanged (return from main, or exit(7)); a profile name
 * that is not a regular file is refused, not replaced.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct ipp_rt_module m;
static struct ipp_rt_region r[1] = { { "main", 8, &m, 0, 0 } };
static struct ipp_rt_module m = { IPP_ABI_VERSION, 1, "err.c", "eeeeeeeeeeeeeeee", "intra", r,
				  NULL, 0, 0 };

static int child(const char *role)
{
	__ipp_record(&r[0], 1);
	if (strcmp(role, "exit7") == 0)
		exit(7);
	if (strcmp(role, "dump") == 0) {
		ipp_dump();		/* fails: reported, the program goes on */
		__ipp_record(&r[0], 1);
	}
	return 0;
}

/* Lines of the file that start with "ipp: ". */
static int ipp_lines(const char *path)
{
	char *s = rtt_slurp(path, NULL), *p = s;
	int n = 0;
	while (p && (p = strstr(p, "ipp: ")) != NULL) {
		if (p == s || p[-1] == '\n')
			n++;
		p += 5;
	}
	free(s);
	return n;
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_errors");
	static const char *env1[] = { "IPP_PROFILE=/nonexistent/dir/x.prof", NULL };
	static const char *env2[] = { "IPP_PROFILE=adir", NULL };
	const char *want = "ipp: cannot write the profile /nonexistent/dir/x.prof: cannot open "
			   "/nonexistent/dir/x.prof.lock: No such file or directory\n";

	if (role)
		return child(role);

	CHECK_EXIT(rtt_run("return", NULL, env1, "err.txt"), 0);
	CHECK(rtt_contains("err.txt", want));
	CHECK(ipp_lines("err.txt") == 1);	/* once, not at atexit and again at the end */

	CHECK_EXIT(rtt_run("exit7", NULL, env1, "err.txt"), 7);
	CHECK(rtt_contains("err.txt", want));
	CHECK(ipp_lines("err.txt") == 1);

	/* an ipp_dump() that fails, then the final write that fails */
	CHECK_EXIT(rtt_run("dump", NULL, env1, "err.txt"), 0);
	CHECK(rtt_contains("err.txt", want));
	CHECK(ipp_lines("err.txt") == 2);

	/* the profile's name is a directory */
	CHECK(mkdir("adir", 0755) == 0);
	CHECK_EXIT(rtt_run("return", NULL, env2, "err.txt"), 0);
	CHECK(rtt_contains("err.txt", "/adir: it is not a regular file"));
	CHECK(ipp_lines("err.txt") == 1);
	{
		struct stat st;
		CHECK(stat("adir", &st) == 0 && S_ISDIR(st.st_mode));
	}
	remove("adir.lock");
	rmdir("adir");
	rtt_done();
	return 0;
}
