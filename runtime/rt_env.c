/* rt_env.c -- the environment the runtime obeys, read once.
 *
 * Every variable is read here, once, with secure_getenv, by the runtime's
 * constructor (before main), and kept: later code, the fatal-signal
 * handler included, reads the copies and never calls getenv.  IPP_PROFILE
 * alone is read again when the profile's name is first needed (the first
 * recorded path or ipp_dump()), so that a program may still set it in
 * main.
 *
 *     IPP_PROFILE        the profile's name pattern (rt_name.c)
 *     IPP_SIGNALS        0: no profile at a fatal signal; 1: even where the
 *                        program has its own handler (rt_signal.c)
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

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

struct rt_env rt_env;

/* The process's umask now, without changing it: the "Umask:" line of
 * /proc/self/status (Linux 4.7; open and read, async-signal-safe); else
 * umask() set and put back at once (a window in which another thread
 * creating a file gets different mode bits; only where /proc is
 * missing). */
RT_HIDDEN mode_t rt_umask(void)
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

/* The executable's base name: /proc/self/exe, else argv[0]'s. */
static RT_NOINST void read_exe_name(void)
{
	char buf[RT_PATH_MAX];
	const char *base = program_invocation_short_name;
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = '\0';
		base = strrchr(buf, '/') ? strrchr(buf, '/') + 1 : buf;
	}
	if (!base || !*base)
		base = "a.out";
	if (strlen(base) >= sizeof(rt_env.exe))
		base = "a.out";
	memcpy(rt_env.exe, base, strlen(base) + 1);
}

/* dl_iterate_phdr's first object is the executable: the first 8 bytes of
 * its GNU build-id note, in hex, into rt_env.build. */
static RT_NOINST int build_id_of(struct dl_phdr_info *info, size_t size, void *data)
{
	static const char hex[] = "0123456789abcdef";
	(void)size;
	(void)data;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const char *p, *end;
		if (ph->p_type != PT_NOTE)
			continue;
		p = (const char *)(info->dlpi_addr + ph->p_vaddr);
		end = p + ph->p_memsz;
		while (p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
			const char *name = p + sizeof(*nh);
			const unsigned char *desc =
				(const unsigned char *)name + ((nh->n_namesz + 3) & ~3u);
			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    memcmp(name, "GNU", 4) == 0 && nh->n_descsz >= 8) {
				for (int k = 0; k < 8; k++) {
					rt_env.build[2 * k] = hex[desc[k] >> 4];
					rt_env.build[2 * k + 1] = hex[desc[k] & 15];
				}
				rt_env.build[16] = '\0';
				return 1;
			}
			p = (const char *)desc + ((nh->n_descsz + 3) & ~3u);
		}
	}
	return 1;	/* the executable only */
}

RT_HIDDEN void rt_env_profile(void)
{
	const char *e = secure_getenv("IPP_PROFILE");
	rt_env.profile = e && *e ? e : NULL;
}

RT_HIDDEN void rt_env_init(void)
{
	const char *e;
	if (rt_env.ready)
		return;
	rt_env.secure = getauxval(AT_SECURE) != 0;
	rt_env_profile();
	e = secure_getenv("IPP_SIGNALS");
	rt_env.signals = !e || !*e ? -1 : strcmp(e, "0") == 0 ? 0 : 1;
	e = secure_getenv("IPP_VERBOSE");
	rt_env.verbose = e && *e && strcmp(e, "0") != 0;
	rt_env.lock_timeout = seconds(secure_getenv("IPP_LOCK_TIMEOUT"), RT_LOCK_TIMEOUT);
	e = secure_getenv("IPP_ROW_BYTES");
	{
		char *end;
		unsigned long long v = e && *e ? strtoull(e, &end, 10) : 0;
		rt_env.row_bytes = e && *e && !*end ? (size_t)v : RT_ROW_BYTES;
	}
	read_exe_name();
	memcpy(rt_env.build, "0000000000000000", 17);
	dl_iterate_phdr(build_id_of, NULL);
	rt_env.ready = true;
}
