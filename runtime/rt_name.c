/* rt_name.c -- the name of the profile file.
 *
 * The pattern is $IPP_PROFILE if set and not empty, else RT_DEFAULT_NAME,
 * "%e.ipp.prof": the program's own name, so that the runs of different
 * programs (readelf and objdump, built from shared sources) never mix; or
 * what ipp_set_profile() set.  A relative pattern is made absolute against
 * the working directory at the time it is set (the first registration, or
 * the ipp_set_profile() call), so a program that chdir()s still writes
 * where it was started.  At each write the pattern is expanded:
 *
 *     %e  the executable's base name (/proc/self/exe; else argv[0]'s)
 *     %m  its build: the first 16 hex digits of its GNU build-id (16 zeros
 *         without one), so that each build writes its own file
 *     %p  the process id (of the writing process: a fork child has its own)
 *     %h  the host name (uname's nodename)
 *     %%  a single %
 *
 * Any other % sequence is kept as it is.  Expansion uses values read at
 * start-up, getpid and uname only, all async-signal-safe.  A name with %p is
 * this process's alone, so its lock file is removed after each write
 * (rt_write.c).  `ipp report PROGRAM` looks for PROGRAM's default name.
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

#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static char rt_pattern[RT_PATH_MAX];	/* rt_dump_lock (or init) */
static bool rt_explicit;		/* set by ipp_set_profile(name) */

RT_HIDDEN int rt_name_set(const char *p)
{
	char buf[RT_PATH_MAX];
	bool given = p && *p;
	if (!given)
		p = RT_DEFAULT_NAME;
	buf[0] = '\0';
	if (p[0] != '/' && getcwd(buf, sizeof(buf))) {
		size_t n = strlen(buf);
		if ((n == 0 || buf[n - 1] != '/') && rt_cat(buf, sizeof(buf), "/") < 0)
			return -1;
		while (p[0] == '.' && p[1] == '/')
			p += 2;
	} else {
		buf[0] = '\0';	/* absolute, or no working directory: as given */
	}
	if (rt_cat(buf, sizeof(buf), p) < 0)
		return -1;
	memcpy(rt_pattern, buf, strlen(buf) + 1);
	rt_explicit = given;
	return 0;
}

RT_HIDDEN bool rt_pattern_set(void)
{
	return rt_pattern[0] != '\0';
}

RT_HIDDEN bool rt_name_explicit(void)
{
	return rt_explicit;
}

RT_HIDDEN void rt_name_init(void)
{
	rt_env_init();
	/* IPP_PROFILE is read again here, at the first record (a program may
	 * set it in main); never in a fatal-signal handler. */
	if (!rt_tls_crash)
		rt_env_profile();
	if (rt_name_set(rt_env.profile) < 0) {
		rt_msg("warning: IPP_PROFILE is too long; writing " RT_DEFAULT_NAME " instead",
		       (const char *)NULL);
		rt_name_set(NULL);
	}
	rt_explicit = false;
}

RT_HIDDEN int rt_name_expand(char *out)
{
	size_t n = 0;
	char num[21];
	struct utsname u;

	rt_env_init();
	if (!rt_pattern[0])
		rt_name_init();	/* a dump before the first record: IPP_PROFILE too */
	for (const char *p = rt_pattern; *p; p++) {
		const char *ins = NULL;
		size_t k;
		char one[2] = { *p, '\0' };
		if (*p == '%' && p[1] == 'p') {
			ins = rt_fmt_u64((uint64_t)getpid(), num);
			p++;
		} else if (*p == '%' && p[1] == 'e') {
			ins = rt_env.exe;
			p++;
		} else if (*p == '%' && p[1] == 'm') {
			ins = rt_env.build;
			p++;
		} else if (*p == '%' && p[1] == 'h') {
			ins = uname(&u) == 0 ? u.nodename : "localhost";
			p++;
		} else if (*p == '%' && p[1] == '%') {
			ins = "%";
			p++;
		} else {
			ins = one;
		}
		k = strlen(ins);
		if (n + k + 1 > RT_PATH_MAX - RT_PATH_SUFFIX)
			return -1;
		memcpy(out + n, ins, k);
		n += k;
	}
	out[n] = '\0';
	return 0;
}

RT_HIDDEN bool rt_name_per_process(void)
{
	for (const char *p = rt_pattern; *p; p++) {
		if (p[0] == '%' && p[1] == 'p')
			return true;
		if (p[0] == '%' && p[1])
			p++;	/* %% and the like */
	}
	return false;
}

