/* rt_env.c -- the environment the runtime obeys, read once.
 *
 * Every variable is read here, at initialisation (the first registration,
 * or the first ipp_dump() if that comes first), with secure_getenv, and
 * kept: later code, the fatal-signal handler included, reads the copies
 * and never calls getenv.
 *
 *     IPP_PROFILE        the profile's name pattern (rt_name.c)
 *     IPP_SIGNALS=1      write the profile at a fatal signal (rt_signal.c)
 *     IPP_VERBOSE        diagnostics about expected events
 *     IPP_LOCK_TIMEOUT   seconds to wait for another writer's lock
 *
 * A set-user-ID or set-group-ID process (the kernel's AT_SECURE) sees none
 * of them (secure_getenv returns NULL), and writes no profile at all
 * unless the program itself names one with ipp_set_profile()
 * (docs/RUNTIME.md, "Set-user-ID programs"): otherwise whoever runs it
 * could make it create or replace files with its privileges.
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
#define _GNU_SOURCE 1
#include "rt_internal.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

struct rt_env rt_env;

/* The process's umask without changing it: the "Umask:" line of
 * /proc/self/status (Linux 4.7); else umask() set and put back at once
 * (a window in which another thread creating a file gets mode 0 bits
 * cleared; only where /proc is missing). */
static RT_NOINST mode_t read_umask(void)
{
	char buf[2048];
	ssize_t n = -1;
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	if (n > 0) {
		char *p;
		buf[n] = '\0';
		p = strstr(buf, "\nUmask:");
		if (p) {
			mode_t m = 0;
			for (p += 7; *p == '\t' || *p == ' '; p++)
				;
			for (; *p >= '0' && *p <= '7'; p++)
				m = (mode_t)(m * 8 + (mode_t)(*p - '0'));
			return m & 0777;
		}
	}
	{
		mode_t m = umask(022);
		umask(m);
		return m & 0777;
	}
}

/* A decimal number of seconds, at most a day; dflt if absent or bad. */
static RT_NOINST unsigned seconds(const char *s, unsigned dflt)
{
	unsigned v = 0;
	if (!s || !*s)
		return dflt;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 86400)
			return dflt;
		v = v * 10 + (unsigned)(*s - '0');
	}
	return v > 86400 ? 86400 : v;
}

RT_HIDDEN void rt_env_init(void)
{
	const char *e;
	if (rt_env.ready)
		return;
	rt_env.secure = getauxval(AT_SECURE) != 0;
	e = secure_getenv("IPP_PROFILE");
	rt_env.profile = e && *e ? e : NULL;
	e = secure_getenv("IPP_SIGNALS");
	rt_env.signals = e && strcmp(e, "1") == 0;
	e = secure_getenv("IPP_VERBOSE");
	rt_env.verbose = e && *e && strcmp(e, "0") != 0;
	rt_env.lock_timeout = seconds(secure_getenv("IPP_LOCK_TIMEOUT"), RT_LOCK_TIMEOUT);
	rt_env.umask = read_umask();
	rt_env.ready = true;
}
