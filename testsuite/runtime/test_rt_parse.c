/* test_rt_parse.c -- the runtime's reading of existing profiles
 * (runtime/rt_merge.c over the profile reader of runtime/ipp_profile.c),
 * tested directly.  It must
 *   - accept the binary profiles ipp writes, and copy other programs'
 *     modules so that the core reader sees exactly the same profile after
 *     the runtime's rewrite;
 *   - reject a wrong magic, version or byte order, the old text format, a
 *     size that is not the file's, a bad digest, and every length, count,
 *     name index and offset that does not fit, naming the problem;
 *   - reject every truncation of a profile;
 *   - never accept what the core reader rejects: checked on thousands of
 *     random mutations of valid profiles, half of them with their digest
 *     recomputed so that the structural checks are reached (whatever the
 *     runtime accepts, it copies verbatim, so this is what keeps a bad
 *     file from spreading).
 * And merging into a module of this program adds counts and runs.
 *
 * The valid inputs are written as text (the form `ipp profile` prints,
 * read by the core's YAML reader) and converted with ipp_profile_write;
 * the expected counts are the text's.  Invalid inputs are valid ones with
 * bytes patched at offsets computed from the layout of
 * runtime/ipp_profile.h, and their digest recomputed here with XXH64.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#define _GNU_SOURCE 1
#include "rtt.h"
#include "rt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define H "%YAML 1.1\n---\nipp-profile: 1\n"

/* Valid profiles; the last module of some is this program's (ours.c). */
static const char *const valid[] = {
	/* 0: every kind of record */
	H "modules:\n"
	"- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: context\n  runs: 2\n"
	"  paths:\n  - [main, 16, 1]\n  - [power, 18446744073709551614, 9]\n"
	"  partial:\n  - [main, 12, [5, 7], 1]\n"
	"  forked:\n  - [main, 12, [5], 1]\n"
	"  indirect-calls:\n  - [7, a.c, \"0123456789abcdef\", power, 3]\n"
	"  - [7, \"dir/my file.c\", \"00000000000000ff\", \"null\", 1]\n"
	"- module: \"dir/my file.c\"\n  checksum: \"00000000000000ff\"\n  mode: intra\n"
	"  runs: 1\n  paths: []\n  partial: []\n...\n",
	/* 1: names that are not simple */
	H "modules:\n- module: 'it''s.c'\n  checksum: '0123456789abcdef'\n  mode: \"intra\"\n"
	"  runs: \"3\"\n  paths:\n  - [\"\\x41\\u00e9\\\"q\\\\\", \"16\", 1]\n"
	"  - ['sp ace', 0, 2]\n  partial:\n  - [\"main#g\", 0, [\"0\", 1], 5]\n...\n",
	/* 2: no modules */
	H "modules: []\n...\n",
	/* 3: with this program's module, to merge */
	H "modules:\n- module: ours.c\n  checksum: \"00000000000000ab\"\n  mode: intra\n"
	"  runs: 5\n  paths:\n  - [main, 1, 10]\n  - [main, 2, 1]\n"
	"  indirect-calls:\n  - [\"9\", 'lib.c', 00000000000000CD, f, 4]\n"
	"  - [8, ours.c, \"00000000000000ab\", main, 2]\n"
	"  partial:\n  - [main, 3, [4, 5], 7]\n"
	"- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: context\n  runs: 2\n"
	"  paths:\n  - [main, 16, 1]\n...\n",
	/* 4: an intra-context module and a piecewise one */
	H "modules:\n- module: b.c\n  checksum: \"00000000000000AB\"\n  mode: piecewise\n"
	"  runs: 4\n  paths:\n  - [f, 0, 3]\n"
	"- module: c.c\n  checksum: \"0000000000000001\"\n  mode: intra-context\n"
	"  runs: 0\n...\n",
};
#define NVALID (sizeof(valid) / sizeof(valid[0]))

/* The binary of valid[i] (8-byte aligned, malloc'd), through the core. */
static unsigned char *binary(const char *text, size_t *len)
{
	char err[512], *buf = NULL;
	size_t n = 0;
	unsigned char *out;
	ipp_profile *p = ipp_profile_read_buffer(text, strlen(text), "text", err, sizeof(err));
	FILE *f;
	if (!p)
		rtt_fail(__FILE__, __LINE__, "a valid input does not read: %s", err);
	f = open_memstream(&buf, &n);
	if (ipp_profile_write(f, p, err, sizeof(err)) != 0)
		rtt_fail(__FILE__, __LINE__, "core cannot write: %s", err);
	fclose(f);
	ipp_profile_free(p);
	out = aligned_alloc(8, (n + 64 + 7) & ~(size_t)7);
	memcpy(out, buf, n);
	free(buf);
	*len = n;
	return out;
}

/* Recomputes the digest after a patch (the last 8 bytes: XXH64 of the
 * bytes before them). */
static void redigest(unsigned char *b, size_t len)
{
	uint64_t d = XXH64(b, len - 8, 0);
	memcpy(b + len - 8, &d, 8);
}

/* Our module: ours.c with main 1 x 2, a partial (main, 3, [4, 5]) x 1 and
 * indirect calls (9 -> lib.c f) x 1, (8 -> ours.c g) x 5. */
static int32_t st45[] = { 4, 5 };
static struct rt_rec our_paths[2], our_partials[1], our_icalls[2];
static struct rt_pmod our_pm;

static void reset_ours(struct rt_snapshot *s, bool with_ours)
{
	memset(s, 0, sizeof(*s));
	memset(&our_pm, 0, sizeof(our_pm));
	our_paths[0] = (struct rt_rec){ "main", 1, 2, NULL, 0, 0, NULL, NULL, 0 };
	our_paths[1] = (struct rt_rec){ "other", 0, 1, NULL, 0, 0, NULL, NULL, 0 };
	our_partials[0] = (struct rt_rec){ "main", 3, 1, st45, 2, 0, NULL, NULL, 0 };
	our_icalls[0] = (struct rt_rec){ "f", 9, 1, NULL, 0, 0, "lib.c", "00000000000000cd", 0 };
	our_icalls[1] = (struct rt_rec){ "g", 8, 5, NULL, 0, 0, "ours.c", "00000000000000ab", 0 };
	our_pm.name = "ours.c";
	memcpy(our_pm.checksum, "00000000000000ab", 17);
	our_pm.mode = "intra";
	our_pm.runs = 1;
	our_pm.paths = our_paths;
	our_pm.npaths = our_pm.cap_paths = 2;
	our_pm.partials = our_partials;
	our_pm.npartials = our_pm.cap_partials = 1;
	our_pm.icalls = our_icalls;
	our_pm.nicalls = our_pm.cap_icalls = 2;
	s->pmods = &our_pm;
	s->npmods = with_ours ? 1 : 0;
}

/* rt_file_parse: 0, -1 (with the message in err). */
static int rt_parse(const unsigned char *b, size_t len, struct rt_snapshot *s, struct rt_arena *a,
		    struct rt_file *f, char *err, size_t errlen)
{
	int rc = rt_file_parse((const char *)b, len, "t.prof", s, a, f, err, errlen);
	if (rc == -2)
		rtt_fail(__FILE__, __LINE__, "out of memory");
	return rc;
}

/* Canonical text of what the core reader makes of buf, or NULL. */
static char *core_canon(const void *buf, size_t len)
{
	char err[512], *out = NULL;
	size_t n;
	ipp_profile *p = ipp_profile_read_buffer(buf, len, "t.prof", err, sizeof(err));
	FILE *f;
	if (!p)
		return NULL;
	f = open_memstream(&out, &n);
	if (ipp_profile_write_text(f, p, err, sizeof(err)) != 0)
		rtt_fail(__FILE__, __LINE__, "core cannot write what it read: %s", err);
	fclose(f);
	ipp_profile_free(p);
	return out;
}

/* What the runtime writes after reading a file (and merging s). */
static unsigned char *rt_rewrite(struct rt_snapshot *s, const struct rt_file *f, size_t *len)
{
	struct rt_out *o = calloc(1, sizeof(*o));
	struct rt_arena a = { NULL, false };
	FILE *t = tmpfile();
	unsigned char *buf;
	long n;
	rt_out_open(o, fileno(t));
	if (rt_emit_profile(o, s, f, &a) != 0)
		rtt_fail(__FILE__, __LINE__, "rt_emit_profile failed");
	n = lseek(o->fd, 0, SEEK_END);
	buf = aligned_alloc(8, ((size_t)n + 8) & ~(size_t)7);
	if (pread(o->fd, buf, (size_t)n, 0) != n)
		rtt_fail(__FILE__, __LINE__, "pread");
	*len = (size_t)n;
	fclose(t);
	free(o);
	rt_arena_free(&a);
	return buf;
}

/* An accepted file: the rewrite must read (core) as the file itself does. */
static void check_rewrite(const unsigned char *b, size_t len, int i)
{
	struct rt_snapshot s;
	struct rt_arena a = { NULL, false };
	struct rt_file f;
	char err[512], *in, *outc;
	unsigned char *out;
	size_t olen;
	reset_ours(&s, false);
	if (rt_parse(b, len, &s, &a, &f, err, sizeof(err)) != 0)
		rtt_fail(__FILE__, __LINE__, "input %d: %s", i, err);
	in = core_canon(b, len);
	if (!in)
		rtt_fail(__FILE__, __LINE__, "input %d: the runtime accepts what the core reader "
			 "rejects", i);
	out = rt_rewrite(&s, &f, &olen);
	outc = core_canon(out, olen);
	if (!outc || strcmp(in, outc) != 0)
		rtt_fail(__FILE__, __LINE__, "input %d: the rewrite differs:\n%s\n---- became\n%s", i,
			 in, outc ? outc : "(unreadable)");
	free(in);
	free(out);
	free(outc);
	rt_arena_free(&a);
}

/* Layout offsets (runtime/ipp_profile.h): the header is 32 bytes; the
 * first module's header (80 bytes) follows. */
#define OFF_VERSION 8
#define OFF_BOM 12
#define OFF_SIZE 16
#define OFF_NMOD 24
#define OFF_FLAGS 28
#define M0 32
#define OFF_M_SIZE (M0 + 0)
#define OFF_M_MODE (M0 + 24)
#define OFF_M_NNAMES (M0 + 28)
#define OFF_M_NAMES_SIZE (M0 + 32)
#define OFF_M_NPGROUPS (M0 + 40)
#define OFF_M_NPATHS (M0 + 48)
#define OFF_M_NPARTIALS (M0 + 56)
#define OFF_M_NICALLS (M0 + 72)
#define OFF_M_OFFS (M0 + 80)

static void put32(unsigned char *b, size_t off, uint32_t v) { memcpy(b + off, &v, 4); }
static void put64(unsigned char *b, size_t off, uint64_t v) { memcpy(b + off, &v, 8); }
static uint64_t get64(const unsigned char *b, size_t off)
{
	uint64_t v;
	memcpy(&v, b + off, 8);
	return v;
}

static void p_text(unsigned char *b, size_t *len);

/* valid[0] patched by 'patch', digest recomputed unless keep_digest:
 * rejected with a message containing why. */
static void check_bad(int line, void (*patch)(unsigned char *b, size_t *len), bool keep_digest,
		      const char *why)
{
	struct rt_snapshot s;
	struct rt_arena a = { NULL, false };
	struct rt_file f;
	char err[512];
	size_t len;
	unsigned char *b = binary(valid[0], &len);
	patch(b, &len);
	if (!keep_digest)
		redigest(b, len);
	reset_ours(&s, false);
	if (rt_parse(b, len, &s, &a, &f, err, sizeof(err)) == 0)
		rtt_fail(__FILE__, line, "a bad file was accepted (expected '%s')", why);
	if (!strstr(err, why) || strncmp(err, "t.prof: ", 8) != 0)
		rtt_fail(__FILE__, line, "message '%s' lacks '%s'", err, why);
	/* (ipp reads the text form, which the runtime refuses) */
	if (patch != p_text && core_canon(b, len))
		rtt_fail(__FILE__, line, "the core reader accepts it (expected '%s')", why);
	rt_arena_free(&a);
	free(b);
}

static void p_magic(unsigned char *b, size_t *len) { (void)len; b[1] = 'X'; }
static void p_version(unsigned char *b, size_t *len) { (void)len; put32(b, OFF_VERSION, 3); }
static void p_bom(unsigned char *b, size_t *len) { (void)len; put32(b, OFF_BOM, 0x04030201u); }
static void p_flags(unsigned char *b, size_t *len) { (void)len; put32(b, OFF_FLAGS, 1); }
static void p_grow(unsigned char *b, size_t *len)
{
	/* 8 more bytes than the header says, the digest moved after them */
	memmove(b + *len, b + *len - 8, 8);
	memset(b + *len - 8, 0, 8);
	*len += 8;
}
static void p_size(unsigned char *b, size_t *len) { put64(b, OFF_SIZE, *len + 8); }
static void p_nmod(unsigned char *b, size_t *len) { (void)len; put32(b, OFF_NMOD, 3); }
static void p_msize(unsigned char *b, size_t *len) { (void)len; put64(b, OFF_M_SIZE, 1u << 30); }
static void p_mode(unsigned char *b, size_t *len) { (void)len; put32(b, OFF_M_MODE, 4); }
static void p_npaths(unsigned char *b, size_t *len)
{
	(void)len;
	put64(b, OFF_M_NPATHS, UINT64_MAX / 8);
}
static void p_npartials(unsigned char *b, size_t *len)
{
	(void)len;
	put64(b, OFF_M_NPARTIALS, get64(b, OFF_M_NPARTIALS) + 1);
}
static void p_nicalls(unsigned char *b, size_t *len)
{
	(void)len;
	put64(b, OFF_M_NICALLS, get64(b, OFF_M_NICALLS) - 1);
}
static void p_names_size(unsigned char *b, size_t *len)
{
	(void)len;
	put64(b, OFF_M_NAMES_SIZE, get64(b, OFF_M_SIZE));
}
static void p_offset(unsigned char *b, size_t *len) { (void)len; put32(b, OFF_M_OFFS, 1u << 20); }
static void p_utf8(unsigned char *b, size_t *len)
{
	uint32_t nn;
	(void)len;
	memcpy(&nn, b + OFF_M_NNAMES, 4);
	b[OFF_M_OFFS + 4 * nn] = 0xff;	/* the first byte of the module's name */
}
static void p_region(unsigned char *b, size_t *len)
{
	/* the first group of paths' name index */
	uint64_t ns = get64(b, OFF_M_NAMES_SIZE);
	(void)len;
	put32(b, (size_t)(OFF_M_OFFS + ns), 1000);
}
static void p_group(unsigned char *b, size_t *len)
{
	/* the first group of paths holds one path more than there are */
	uint64_t ns = get64(b, OFF_M_NAMES_SIZE);
	(void)len;
	put64(b, (size_t)(OFF_M_OFFS + ns + 8), get64(b, (size_t)(OFF_M_OFFS + ns + 8)) + 1);
}
static void p_npgroups(unsigned char *b, size_t *len)
{
	(void)len;
	put64(b, OFF_M_NPGROUPS, get64(b, OFF_M_NPGROUPS) + 1);
}
static void p_flip(unsigned char *b, size_t *len) { b[*len / 2] ^= 1; }
static void p_text(unsigned char *b, size_t *len)
{
	static const char t[] = "%YAML 1.1\n---\nipp-profile: 1\nmodules: []\n...\n";
	memcpy(b, t, sizeof(t) - 1);
	*len = sizeof(t) - 1;
}

static uint64_t rnd_state = 88172645463325252ull;
static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

int main(int argc, char **argv)
{
	struct rt_snapshot s;
	struct rt_arena a = { NULL, false };
	struct rt_file f;
	char err[512];
	unsigned accepted = 0, mutants = 0;
	/* RTT_FUZZ_ROUNDS=N for a longer run (and RTT_FUZZ_SEED) */
	int rounds = getenv("RTT_FUZZ_ROUNDS") ? atoi(getenv("RTT_FUZZ_ROUNDS")) : 4000;
	if (getenv("RTT_FUZZ_SEED"))
		rnd_state ^= strtoull(getenv("RTT_FUZZ_SEED"), NULL, 10) * 0x9e3779b97f4a7c15ull;

	rtt_init(argc, argv, "rt_parse");

	/* 1. valid profiles: accepted, rewritten to the same profile */
	for (size_t i = 0; i < NVALID; i++) {
		size_t len;
		unsigned char *b = binary(valid[i], &len);
		check_rewrite(b, len, (int)i);
		free(b);
	}

	/* 2. invalid ones: rejected, saying why */
	check_bad(__LINE__, p_magic, false, "not an ipp profile");
	check_bad(__LINE__, p_text, true, "old text format (version 1)");
	check_bad(__LINE__, p_version, false, "unsupported profile version 3");
	check_bad(__LINE__, p_bom, false, "other byte order");
	check_bad(__LINE__, p_flags, false, "unknown header flags");
	check_bad(__LINE__, p_grow, false, "data after the end");
	check_bad(__LINE__, p_size, false, "truncated: the header says");
	check_bad(__LINE__, p_nmod, false, "module 2 is cut short");
	check_bad(__LINE__, p_msize, false, "which the file cannot hold");
	check_bad(__LINE__, p_mode, false, "unknown mode 4");
	check_bad(__LINE__, p_npaths, false, "do not fit its");
	check_bad(__LINE__, p_npartials, false, "module 0: ");
	check_bad(__LINE__, p_nicalls, false, "do not fit its");
	check_bad(__LINE__, p_names_size, false, "do not fit its");
	check_bad(__LINE__, p_offset, false, "beyond the name table");
	check_bad(__LINE__, p_utf8, false, "is not valid UTF-8");
	check_bad(__LINE__, p_region, false, "path group 0 is malformed");
	check_bad(__LINE__, p_group, false, "do not fit its");
	check_bad(__LINE__, p_npgroups, false, "do not fit its");
	check_bad(__LINE__, p_flip, true, "profile digest mismatch: the file says");
	{
		/* the same module twice */
		static const char twice[] = H "modules:\n"
			"- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n  runs: 1\n"
			"- module: b.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n  runs: 1\n...\n";
		size_t len;
		unsigned char *b = binary(twice, &len);
		/* b.c -> a.c: the second module's name (its first text byte) */
		uint64_t m1 = M0 + get64(b, OFF_M_SIZE);
		uint32_t nn;
		memcpy(&nn, b + m1 + 28, 4);
		b[m1 + 80 + 4 * nn] = 'a';
		redigest(b, len);
		reset_ours(&s, false);
		CHECK(rt_parse(b, len, &s, &a, &f, err, sizeof(err)) != 0);
		CHECK(strstr(err, "module a.c (checksum 0123456789abcdef) appears twice") != NULL);
		rt_arena_free(&a);
		free(b);
	}
	{
		/* empty: rt_write.c treats an empty file as no profile; the
		 * reader itself says so */
		unsigned char z[8] = { 0 };
		reset_ours(&s, false);
		CHECK(rt_parse(z, 0, &s, &a, &f, err, sizeof(err)) != 0);
		CHECK(strstr(err, "the file is empty") != NULL);
	}

	/* 3. every truncation is rejected */
	for (size_t i = 0; i < NVALID; i++) {
		size_t len;
		unsigned char *b = binary(valid[i], &len);
		for (size_t cut = 1; cut < len; cut++) {
			reset_ours(&s, false);
			if (rt_parse(b, cut, &s, &a, &f, err, sizeof(err)) == 0)
				rtt_fail(__FILE__, __LINE__, "input %zu cut at %zu accepted", i, cut);
			rt_arena_free(&a);
		}
		free(b);
	}

	/* 4. merging: ours.c 5 runs + 1; main 1: 10 + 2; main 2: 1; other 0:
	 * 1 (new); partial (main, 3, [4, 5]): 7 + 1; indirect calls (9 ->
	 * lib.c f): 4 + 1, (8 -> ours.c main): 2, (8 -> ours.c g): 5 (new);
	 * a.c kept, after ours as in the file */
	{
		unsigned char *b, *out;
		size_t len, olen;
		ipp_profile *p;
		const ipp_prof_module *m;
		const ipp_prof_icall **ic;
		static const int32_t s45[] = { 4, 5 };
		b = binary(valid[3], &len);
		reset_ours(&s, true);
		CHECK(rt_parse(b, len, &s, &a, &f, err, sizeof(err)) == 0);
		CHECK(our_pm.in_file);
		out = rt_rewrite(&s, &f, &olen);
		p = ipp_profile_read_buffer((const char *)out, olen, "out", err, sizeof(err));
		CHECK(p != NULL);
		m = rtt_module(p, "ours.c", "00000000000000ab");
		CHECK_U64(m->runs, 6);
		CHECK_U64(rtt_path(m, "main", "1"), 12);
		CHECK_U64(rtt_path(m, "main", "2"), 1);
		CHECK_U64(rtt_path(m, "other", "0"), 1);
		CHECK_U64(rtt_partial(m, "main", "3", s45, 2), 8);
		CHECK_U64(m->nicalls, 3);
		ic = ipp_prof_icalls_sorted(m);
		CHECK(ic[0]->site == 8 && strcmp(ic[0]->callee_module, "ours.c") == 0 &&
		      ic[0]->callee_checksum == 0xab && strcmp(ic[0]->callee_region, "g") == 0 &&
		      ic[0]->count == 5);
		CHECK(ic[1]->site == 8 && strcmp(ic[1]->callee_region, "main") == 0 &&
		      ic[1]->count == 2);
		CHECK(ic[2]->site == 9 && strcmp(ic[2]->callee_module, "lib.c") == 0 &&
		      ic[2]->callee_checksum == 0xcd && strcmp(ic[2]->callee_region, "f") == 0 &&
		      ic[2]->count == 5);
		free(ic);
		CHECK_U64(rtt_module(p, "a.c", "0123456789abcdef")->runs, 2);
		CHECK_U64(p->nmodules, 2);
		CHECK(strcmp(p->modules[0]->module, "ours.c") == 0);
		ipp_profile_free(p);
		free(out);
		free(b);
		rt_arena_free(&a);
	}

	/* 5. mutations: whatever the runtime accepts, the core reader
	 * accepts, and the rewrite means the same */
	for (int round = 0; round < rounds; round++) {
		size_t len;
		unsigned char *t = binary(valid[rnd() % NVALID], &len);
		int nm = 1 + (int)(rnd() % 3);
		for (int k = 0; k < nm; k++) {
			size_t at = rnd() % len;
			switch (rnd() % 3) {
			case 0:		/* a random byte */
				t[at] = (unsigned char)rnd();
				break;
			case 1:		/* a small or huge value over a 32-bit field */
				at &= ~(size_t)3;
				if (at + 4 <= len)
					put32(t, at, rnd() % 2 ? (uint32_t)(rnd() % 8)
							       : (uint32_t)rnd());
				break;
			default:	/* a cut */
				len = at ? at : 1;
			}
		}
		if (rnd() % 2 && len >= 8)
			redigest(t, len);
		mutants++;
		reset_ours(&s, false);
		if (rt_parse(t, len, &s, &a, &f, err, sizeof(err)) == 0) {
			accepted++;
			rt_arena_free(&a);
			check_rewrite(t, len, 1000 + round);
		} else {
			rt_arena_free(&a);
			if (core_canon(t, len))
				rtt_fail(__FILE__, __LINE__, "mutant %d: the runtime rejects what the "
					 "core reads: %s", round, err);
		}
		free(t);
	}
	printf("%u of %u mutants accepted, all read the same by the core reader\n", accepted,
	       mutants);
	rtt_done();
	return 0;
}
