/* zlib-driver.c -- a deterministic compression workload for the ipp
 * benchmark (bench/run.sh), built together with zlib's own sources.
 *
 * Usage: zlib-driver [KB]      (KB = kilobytes of input, default 200)
 *
 * Makes KB kilobytes of input of mixed compressibility from a fixed PRNG
 * (splitmix64) -- English-like text from a word list, random bytes, skewed
 * low-entropy bytes, long runs, and repeats of earlier data at random
 * distances -- then, at levels 1, 6 and 9, deflates it with zlib's streaming
 * API (4 KiB output buffers), inflates the result (4 KiB input pieces),
 * checks that the round trip gives the input back, and prints the sizes,
 * zlib's adler32 and crc32 of the compressed stream and an FNV-1a checksum
 * of it computed here.  The output depends only on KB and the zlib
 * version, never on time, addresses or the environment, so the outputs of
 * differently instrumented builds can be compared byte for byte.  Exits 1
 * if zlib reports an error or a round trip differs.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "zlib.h"
#include "splitmix64.h"
#include "bench-thread.h"

#define CHUNK 4096

/* A fixed 64-bit PRNG (splitmix64). */
static unsigned long long rng_state = 0x2545F4914F6CDD1DULL;
static unsigned long long rnd(void)
{
	return splitmix64(&rng_state);
}

static unsigned below(unsigned n)
{
	return (unsigned)(rnd() % n);
}

/* FNV-1a, 64 bits. */
static unsigned long long fnv(const unsigned char *p, size_t n)
{
	unsigned long long h = 0xCBF29CE484222325ULL;
	while (n--) {
		h ^= *p++;
		h *= 0x100000001B3ULL;
	}
	return h;
}

static const char *const words[] = {
	"the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was",
	"with", "be", "by", "on", "not", "he", "this", "are", "or", "his", "from",
	"at", "which", "but", "have", "an", "they", "you", "were", "their", "one",
	"all", "we", "can", "her", "has", "there", "been", "if", "more", "when",
	"will", "would", "who", "so", "no", "path", "profile", "procedure", "edge",
	"vertex", "counter", "interprocedural", "compression", "dictionary",
	"window", "literal", "distance", "Huffman", "block", "stream", "checksum",
};
#define NWORDS (sizeof(words) / sizeof(words[0]))

/* Fills buf[0 .. n-1] with segments of the kinds above. */
static void make_input(unsigned char *buf, size_t n)
{
	size_t i = 0;
	while (i < n) {
		size_t len = 256 + below(4096), end = i + len < n ? i + len : n;
		unsigned kind = below(10);
		if (kind < 4) {			/* text */
			while (i < end) {
				const char *w = words[below(NWORDS)];
				while (*w && i < end)
					buf[i++] = (unsigned char)*w++;
				if (i < end)
					buf[i++] = below(12) == 0 ? '\n' : below(9) == 0 ? ',' : ' ';
			}
		} else if (kind < 6) {		/* random bytes */
			while (i < end)
				buf[i++] = (unsigned char)rnd();
		} else if (kind < 8) {		/* skewed: few symbols, mostly small */
			while (i < end) {
				unsigned r = below(64);
				buf[i++] = (unsigned char)(r < 32 ? 'a' : r < 48 ? 'b' : r < 56 ? 'c' : 'd' + r % 8);
			}
		} else if (kind < 9) {		/* a run */
			unsigned char c = (unsigned char)rnd();
			while (i < end)
				buf[i++] = c;
		} else if (i > 0) {		/* a repeat of earlier data */
			size_t from = below((unsigned)i);
			while (i < end)
				buf[i++] = buf[from++];
		}
	}
}

static void fail(const char *what, int rc)
{
	fprintf(stderr, "zlib-driver: %s failed (%d)\n", what, rc);
	exit(1);
}

/* Deflates in[0 .. n-1] at 'level' into *out (malloc'd); returns its size. */
static size_t compress_all(const unsigned char *in, size_t n, int level, unsigned char **out)
{
	z_stream s;
	size_t cap = deflateBound(NULL, (uLong)n) + CHUNK, used = 0;
	unsigned char *buf = malloc(cap), tmp[CHUNK];
	int rc;
	if (!buf)
		fail("malloc", 0);
	memset(&s, 0, sizeof(s));
	if ((rc = deflateInit(&s, level)) != Z_OK)
		fail("deflateInit", rc);
	s.next_in = (unsigned char *)in;
	s.avail_in = (uInt)n;
	do {
		s.next_out = tmp;
		s.avail_out = CHUNK;
		rc = deflate(&s, Z_FINISH);
		if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
			fail("deflate", rc);
		if (used + (CHUNK - s.avail_out) > cap)
			fail("deflate output bound", 0);
		memcpy(buf + used, tmp, CHUNK - s.avail_out);
		used += CHUNK - s.avail_out;
	} while (rc != Z_STREAM_END);
	deflateEnd(&s);
	*out = buf;
	return used;
}

/* Inflates in[0 .. n-1], fed in pieces of CHUNK bytes, into out[0 .. cap-1];
 * returns the size. */
static size_t inflate_all(const unsigned char *in, size_t n, unsigned char *out, size_t cap)
{
	z_stream s;
	size_t fed = 0;
	int rc;
	memset(&s, 0, sizeof(s));
	if ((rc = inflateInit(&s)) != Z_OK)
		fail("inflateInit", rc);
	s.next_out = out;
	s.avail_out = (uInt)cap;
	do {
		size_t piece = n - fed < CHUNK ? n - fed : CHUNK;
		s.next_in = (unsigned char *)in + fed;
		s.avail_in = (uInt)piece;
		fed += piece;
		rc = inflate(&s, Z_NO_FLUSH);
		if (rc != Z_OK && rc != Z_STREAM_END)
			fail("inflate", rc);
	} while (rc != Z_STREAM_END && fed < n);
	if (rc != Z_STREAM_END)
		fail("inflate: stream not ended", rc);
	inflateEnd(&s);
	return cap - s.avail_out;
}

int main(int argc, char **argv)
{
	long kb = argc > 1 ? atol(argv[1]) : 200;
	static const int levels[] = { 1, 6, 9 };
	unsigned char *in, *back;
	size_t n;

	if (kb <= 0 || kb > 1 << 20) {
		fprintf(stderr, "usage: zlib-driver [KB]   (1 .. 1048576, default 200)\n");
		return 2;
	}
	/* line by line: a -pg build killed by SIGPROF in its exit handlers
	 * (it happens under valgrind, bench/run.sh) has printed everything */
	setvbuf(stdout, NULL, _IOLBF, 0);
	bench_thread_maybe();
	n = (size_t)kb * 1024;
	in = malloc(n);
	back = malloc(n + 1);
	if (!in || !back)
		fail("malloc", 0);
	make_input(in, n);
	printf("zlib %s, input %zu bytes, fnv %016llx\n", zlibVersion(), n, fnv(in, n));
	for (size_t k = 0; k < sizeof(levels) / sizeof(levels[0]); k++) {
		unsigned char *z;
		size_t zn = compress_all(in, n, levels[k], &z), bn;
		bn = inflate_all(z, zn, back, n + 1);
		if (bn != n || memcmp(back, in, n) != 0) {
			fprintf(stderr, "zlib-driver: level %d: the round trip differs\n", levels[k]);
			return 1;
		}
		printf("level %d: %zu -> %zu bytes, adler32 %08lx crc32 %08lx fnv %016llx, round trip ok\n",
		       levels[k], n, zn, adler32(adler32(0, NULL, 0), z, (uInt)zn),
		       crc32(crc32(0, NULL, 0), z, (uInt)zn), fnv(z, zn));
		free(z);
	}
	free(in);
	free(back);
	return 0;
}
