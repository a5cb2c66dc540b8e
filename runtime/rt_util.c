/* rt_util.c -- messages and small string helpers that are safe in a
 * fatal-signal handler: no stdio, no malloc, no locale.
 *
 * Every message the runtime prints goes through rt_msg(): one line on
 * stderr, prefixed "ipp: ", written with a single write(2) when it fits
 * (so that lines of concurrent processes do not interleave).
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

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

RT_HIDDEN void rt_msg(const char *first, ...)
{
	char buf[1024];
	size_t n = 0;
	va_list ap;
	int saved = errno;

	memcpy(buf, "ipp: ", 5);
	n = 5;
	va_start(ap, first);
	for (const char *s = first; s; s = va_arg(ap, const char *)) {
		size_t k = strlen(s);
		if (k > sizeof(buf) - 1 - n)
			k = sizeof(buf) - 1 - n;
		memcpy(buf + n, s, k);
		n += k;
	}
	va_end(ap);
	buf[n++] = '\n';
	for (size_t off = 0; off < n;) {
		ssize_t w = write(2, buf + off, n - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	errno = saved;
}

RT_HIDDEN const char *rt_strerror(int err)
{
	/* strerrordesc_np (glibc 2.32): the untranslated text, a plain table
	 * lookup.  strerror() may translate, which may allocate. */
	const char *s = strerrordesc_np(err);
	return s ? s : "unknown error";
}

RT_HIDDEN char *rt_fmt_u64(uint64_t v, char buf[21])
{
	char tmp[21];
	size_t n = 0, k = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		buf[k++] = tmp[--n];
	buf[k] = '\0';
	return buf;
}

RT_HIDDEN uint64_t rt_hex64(const char *s)
{
	uint64_t x = 0;
	for (int k = 0; k < 16; k++) {
		int c = (unsigned char)s[k];
		x = x << 4 | (uint64_t)(c >= 'a' ? c - 'a' + 10 : c - '0');
	}
	return x;
}

RT_HIDDEN int rt_cat(char *dst, size_t cap, const char *src)
{
	size_t n = strlen(dst), k = strlen(src);
	if (n + k + 1 > cap)
		return -1;
	memcpy(dst + n, src, k + 1);
	return 0;
}

RT_HIDDEN bool rt_safe_read(void *dst, const void *src, size_t n)
{
	static int unavailable;		/* the kernel refuses process_vm_readv */
	struct iovec local = { dst, n }, remote = { (void *)src, n };
	ssize_t r;
	if (!src)
		return false;
	if (!__atomic_load_n(&unavailable, __ATOMIC_RELAXED)) {
		r = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
		if (r == (ssize_t)n)
			return true;
		if (r >= 0 || errno == EFAULT)
			return false;
		/* ENOSYS, EPERM (seccomp, ptrace policy): trust the pointer */
		__atomic_store_n(&unavailable, 1, __ATOMIC_RELAXED);
	}
	memcpy(dst, src, n);
	return true;
}

RT_HIDDEN bool rt_safe_string(const char *s, size_t max)
{
	char chunk[64];
	size_t off = 0;
	while (off < max) {
		/* never read across a page boundary in one go: the string may
		 * end just before an unmapped page */
		size_t n = 4096 - ((uintptr_t)(s + off) & 4095);
		if (n > sizeof(chunk))
			n = sizeof(chunk);
		if (!rt_safe_read(chunk, s + off, n))
			return false;
		if (memchr(chunk, '\0', n))
			return true;
		off += n;
	}
	return false;
}

/* ------------------------------------------------------------------ */
/* The module tables a walk searches (rt_internal.h)                   */
/* ------------------------------------------------------------------ */

static RT_NOINST int32_t i32_at(const void *e, size_t off)
{
	int32_t x;
	memcpy(&x, (const char *)e + off, sizeof(x));
	return x;
}

/* The element whose run, from the int32_t at offset 0 to the one at
 * last_off, holds v: a key table is a table of runs of one vertex. */
static RT_NOINST const void *table_find(const void *t, uint32_t n, size_t size, int32_t v,
					size_t last_off)
{
	uint32_t lo = 0, hi = n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const void *e = (const char *)t + (size_t)mid * size;
		if (v < i32_at(e, 0))
			hi = mid;
		else if (v > i32_at(e, last_off))
			lo = mid + 1;
		else
			return e;
	}
	return NULL;
}

RT_HIDDEN const void *rt_table_key(const void *t, uint32_t n, size_t size, int32_t key)
{
	return table_find(t, n, size, key, 0);
}

RT_HIDDEN const void *rt_table_run(const void *t, uint32_t n, size_t size, int32_t v)
{
	return table_find(t, n, size, v, 4);
}

RT_HIDDEN bool rt_read_frame(struct ipp_rt_frame *copy, const struct ipp_rt_frame *g)
{
	if (!g || ((uintptr_t)g & (_Alignof(struct ipp_rt_frame) - 1)))
		return false;
	return rt_safe_read(copy, g, sizeof(*copy));
}
