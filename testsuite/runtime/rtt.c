/* rtt.c -- helpers shared by the runtime tests; see rtt.h.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#define _GNU_SOURCE 1
#include "rtt.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char self[4096];
static char dir[4096];
static const char *tname = "test";

/* Ends the driver (or a role) with STATUS.  The driver leaves by _exit,
 * which skips the runtime's write at exit (docs/RUNTIME.md, "When the
 * profile is written"): it is linked with the runtime like the program
 * under test, so modules that a constructor registers in it (test_rt_counts
 * does) would otherwise be written at exit, under a name resolved at that
 * registration, before rtt_init entered the fresh directory -- an ipp.prof
 * in the directory the test was started in.  A role (the program under
 * test) ends with exit(), so that its profile is written as usual. */
__attribute__((noreturn)) static void driver_exit(int status)
{
	fflush(NULL);
	if (dir[0])
		_exit(status);
	exit(status);
}

void rtt_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s:%d: FAIL (%s): ", file, line, tname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (dir[0])
		fprintf(stderr, "\n  (files left in %s)", dir);
	fputc('\n', stderr);
	driver_exit(1);
}

const char *rtt_init(int argc, char **argv, const char *name)
{
	ssize_t n;
	tname = name;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		rtt_fail(__FILE__, __LINE__, "readlink /proc/self/exe: %s", strerror(errno));
	self[n] = '\0';
	if (argc > 1)
		return argv[1];
	{
		const char *tmp = getenv("TMPDIR");
		snprintf(dir, sizeof(dir), "%s/ipp-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", name);
		if (!mkdtemp(dir))
			rtt_fail(__FILE__, __LINE__, "mkdtemp %s: %s", dir, strerror(errno));
		if (chdir(dir) < 0)
			rtt_fail(__FILE__, __LINE__, "chdir %s: %s", dir, strerror(errno));
	}
	unsetenv("IPP_PROFILE");
	unsetenv("IPP_SIGNALS");
	return NULL;
}

const char *rtt_dir(void)
{
	return dir;
}

pid_t rtt_start(const char *role, const char *arg, const char *const *env, const char *errfile)
{
	pid_t pid;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		rtt_fail(__FILE__, __LINE__, "fork: %s", strerror(errno));
	if (pid == 0) {
		for (size_t i = 0; env && env[i]; i++)
			putenv((char *)env[i]);
		if (errfile) {
			int fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (fd < 0 || dup2(fd, 2) < 0)
				_exit(126);
			close(fd);
		}
		execl(self, self, role, arg, (char *)NULL);
		_exit(127);
	}
	return pid;
}

int rtt_wait(pid_t pid)
{
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			rtt_fail(__FILE__, __LINE__, "waitpid: %s", strerror(errno));
	return st;
}

int rtt_run(const char *role, const char *arg, const char *const *env, const char *errfile)
{
	return rtt_wait(rtt_start(role, arg, env, errfile));
}

char *rtt_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;
	if (!f)
		return NULL;
	for (;;) {
		size_t r;
		if (n + 4096 + 1 > cap) {
			cap = 2 * cap + 8192;
			buf = realloc(buf, cap);
			if (!buf)
				rtt_fail(__FILE__, __LINE__, "out of memory");
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

void rtt_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		rtt_fail(__FILE__, __LINE__, "cannot write %s", path);
}

void rtt_write_bytes(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0)
		rtt_fail(__FILE__, __LINE__, "cannot write %s", path);
}

void rtt_write_profile(const char *path, const char *text)
{
	char err[1024];
	ipp_profile *p = ipp_profile_read_buffer(text, strlen(text), "text", err, sizeof(err));
	FILE *f;
	if (!p)
		rtt_fail(__FILE__, __LINE__, "a test profile does not read: %s", err);
	f = fopen(path, "wb");
	if (!f || ipp_profile_write(f, p, err, sizeof(err)) != 0 || fclose(f) != 0)
		rtt_fail(__FILE__, __LINE__, "cannot write %s: %s", path, err);
	ipp_profile_free(p);
}

char *rtt_profile_text(const char *path)
{
	char err[1024], *text = NULL;
	size_t len = 0;
	ipp_profile *p = rtt_read(path);
	FILE *f = open_memstream(&text, &len);
	if (!f || ipp_profile_write_text(f, p, err, sizeof(err)) != 0 || fclose(f) != 0)
		rtt_fail(__FILE__, __LINE__, "cannot print %s: %s", path, err);
	ipp_profile_free(p);
	return text;
}

bool rtt_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

bool rtt_contains(const char *path, const char *needle)
{
	char *s = rtt_slurp(path, NULL);
	bool r = s && strstr(s, needle);
	free(s);
	return r;
}

void rtt_done(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		char p[8192];
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		unlink(p);
	}
	if (d)
		closedir(d);
	if (chdir("/") == 0)
		rmdir(dir);
	printf("PASS %s\n", tname);
	driver_exit(0);
}

ipp_profile *rtt_read(const char *path)
{
	char err[1024];
	ipp_profile *p = ipp_profile_read_file(path, err, sizeof(err));
	if (!p)
		rtt_fail(__FILE__, __LINE__, "the profile does not parse: %s", err);
	return p;
}

const ipp_prof_module *rtt_module(const ipp_profile *p, const char *name, const char *checksum)
{
	uint64_t cs = strtoull(checksum, NULL, 16);
	const ipp_prof_module *m = ipp_profile_find(p, name, cs);
	if (!m)
		rtt_fail(__FILE__, __LINE__, "the profile has no module %s (checksum %s)", name,
			 checksum);
	return m;
}

static bool num_is(const ipp_pnum *num, const char *s)
{
	char *t = ipp_pnum_str(num);
	bool r = strcmp(t, s) == 0;
	free(t);
	return r;
}

uint64_t rtt_path(const ipp_prof_module *m, const char *region, const char *num)
{
	for (size_t i = 0; i < m->npaths; i++)
		if (strcmp(m->regions[m->paths[i].region], region) == 0 &&
		    num_is(&m->paths[i].num, num))
			return m->paths[i].count;
	return 0;
}

static uint64_t stop_record(const ipp_prof_module *m, const ipp_prof_partial *recs, size_t n,
			    const char *region, const char *num, const int32_t *stack,
			    size_t nstack)
{
	for (size_t i = 0; i < n; i++) {
		const ipp_prof_partial *q = &recs[i];
		if (strcmp(m->regions[q->region], region) == 0 && num_is(&q->num, num) &&
		    q->nstack == nstack && memcmp(q->stack, stack, nstack * sizeof(*stack)) == 0)
			return q->count;
	}
	return 0;
}

uint64_t rtt_partial(const ipp_prof_module *m, const char *region, const char *num,
		     const int32_t *stack, size_t nstack)
{
	return stop_record(m, m->partials, m->npartials, region, num, stack, nstack);
}

uint64_t rtt_forked(const ipp_prof_module *m, const char *region, const char *num,
		    const int32_t *stack, size_t nstack)
{
	return stop_record(m, m->forked, m->nforked, region, num, stack, nstack);
}

uint64_t rtt_total(const ipp_prof_module *m)
{
	uint64_t t = 0;
	for (size_t i = 0; i < m->npaths; i++)
		t += m->paths[i].count;
	return t;
}
