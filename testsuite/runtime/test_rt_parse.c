/* test_rt_parse.c -- the runtime's own reader of existing profiles
 * (runtime/rt_merge.c), tested directly.  It must
 *   - accept what docs/FORMAT.md allows in the forms writers produce and
 *     people edit (comments, CRLF, indentation, quoting styles, key order,
 *     empty lists, x- keys), and copy other programs' modules so that the
 *     core reader sees exactly the same profile after the rewrite;
 *   - reject everything else, naming the line;
 *   - reject every truncation of a profile;
 *   - never accept what the core reader rejects: checked on thousands of
 *     random mutations of valid profiles (whatever it accepts, it copies
 *     verbatim, so this is what keeps a bad file from spreading).
 * And merging into a module of this program adds counts and runs.
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
	/* 0: as the writers write it */
	H "modules:\n"
	"- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: context\n  runs: 2\n"
	"  paths:\n  - [main, 16, 1]\n  - [power, 1267650600228229401496703205379, 9]\n"
	"  partial:\n  - [main, 12, [5, 7], 1]\n"
	"  indirect-calls:\n  - [7, a.c, \"0123456789abcdef\", power, 3]\n"
	"  - [7, \"dir/my file.c\", \"00000000000000ff\", \"null\", 1]\n"
	"- module: \"dir/my file.c\"\n  checksum: \"00000000000000ff\"\n  mode: intra\n"
	"  runs: 1\n  paths: []\n  partial: []\n...\n",
	/* 1: no directive, comments, blank lines, trailing spaces, CRLF */
	"# a profile\r\n---  \r\nipp-profile: 1   # version\r\n\r\nmodules:\r\n"
	"- module: a.c   \r\n  checksum: \"0123456789abcdef\" # build\r\n  mode: intra\r\n"
	"  runs: 2\r\n  # the paths\r\n  paths:\r\n  - [main, 16, 1]  # hot\r\n\r\n"
	"  - [main, 17, 1]\r\n...\r\n# end\r\n",
	/* 2: an indented module list, keys in another order, empty lists */
	H "modules:\n  - runs: 4\n    paths:\n      - [f, 0, 3]\n    module: b.c\n"
	"    partial:\n    mode: piecewise\n    checksum: 00000000000000AB\n"
	"  - module: c.c\n    checksum: \"0000000000000001\"\n    mode: intra-context\n"
	"    runs: 0\n    paths: null\n...\n",
	/* 3: quoting styles and escapes; a quoted number */
	H "modules:\n- module: 'it''s.c'\n  checksum: '0123456789abcdef'\n  mode: \"intra\"\n"
	"  runs: \"3\"\n  paths:\n  - [\"\\x41\\u00e9\\\"q\\\\\", \"16\", 1]\n"
	"  - ['sp ace', 0, 2]\n  partial:\n  - [\"main#g\", 0, [\"0\", 1], 5]\n...\n",
	/* 4: x- keys: scalar, flow list, block sequence, block mapping */
	H "x-producer: ipp 0.1\nx-list: [1, [2, \"3\"], four]\nmodules:\n"
	"- x-first: 1\n  module: x.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n"
	"  runs: 1\n  x-seq:\n  - a\n  - [b, c]\n  x-map:\n    k: v\n    l: [1]\n"
	"  paths: []\nx-after:\n- 1\n- 2\n...\n",
	/* 5: no modules */
	H "modules: []\n...\n",
	/* 6: with this program's module, to merge */
	H "modules:\n- module: ours.c\n  checksum: \"00000000000000ab\"\n  mode: intra\n"
	"  runs: 5\n  x-mine: kept\n  paths:\n  - [main, 1, 10]\n  - [main, 2, 1]\n"
	"  indirect-calls:\n  - [\"9\", 'lib.c', 00000000000000CD, f, 4]\n"
	"  - [8, ours.c, \"00000000000000ab\", main, 2]\n"
	"  partial:\n  - [main, 3, [4, 5], 7]\n"
	"- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: context\n  runs: 2\n"
	"  paths:\n  - [main, 16, 1]\n...\n",
};

struct bad {
	const char *text;
	const char *why;	/* expected in the message */
};

static const struct bad invalid[] = {
	{ H "modules:\n- {module: a.c}\n...\n", ":5: " },
	{ H "modules:\n- module: &x a.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n"
	  "  runs: 1\n...\n", "unsupported YAML" },
	{ H "modules:\n- module: *x\n...\n", "unsupported YAML" },
	{ H "modules:\n- module: !!str a.c\n...\n", "unsupported YAML" },
	{ H "modules:\n-\tmodule: a.c\n...\n", ":5: " },
	{ H "modules:\n\t- module: a.c\n...\n", "a tab in the indentation" },
	{ H "modules:\n- module: \"a\n  b.c\"\n...\n", "multi-line" },
	{ H "modules: []\n", "truncated" },
	{ H "modules: []\n...\n---\nipp-profile: 1\nmodules: []\n...\n", "one document" },
	{ H "modules: []\nfoo: 1\n...\n", "unknown key 'foo'" },
	{ H "modules: []\nmodules: []\n...\n", "given twice" },
	{ H "modules:\n- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n"
	  "  runs: 1\n- module: a.c\n  checksum: \"0123456789ABCDEF\"\n  mode: intra\n"
	  "  runs: 1\n...\n", "listed twice" },
	{ H "modules:\n- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n"
	  "  runs: 1\n  paths:\n  - [f, 2, 1]\n  - [f, \"2\", 1]\n...\n", "duplicate path record" },
	{ H "modules:\n- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n"
	  "  runs: 1\n  partial:\n  - [f, 2, [1], 1]\n  - [f, 2, [1], 1]\n...\n",
	  "duplicate partial-path record" },
	{ H "modules:\n- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n"
	  "  runs: 1\n  indirect-calls:\n  - [3, b.c, \"0000000000000001\", f, 1]\n"
	  "  - [3, b.c, \"0000000000000001\", f, 1]\n...\n", "duplicate indirect-call record" },
	{ H "modules:\n- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n"
	  "  runs: 1\n  indirect-calls:\n  - [3, b.c, \"0000000000000001\", 1]\n...\n",
	  "expected an indirect-call record" },
	{ H "modules:\n- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n"
	  "  runs: 1\n  indirect-calls:\n  - [3, [1], \"0000000000000001\", f, 1]\n...\n",
	  "expected an indirect-call record" },
	{ H "modules:\n- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n"
	  "  runs: 1\n  indirect-calls:\n  - [2147483647, b.c, \"0000000000000001\", f, 1]\n"
	  "...\n", "call site: expected a vertex id" },
	{ H "modules:\n- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n"
	  "  runs: 1\n  indirect-calls:\n  - [3, b.c, \"000000000000001\", f, 1]\n...\n",
	  "16 hex digits" },
	{ H "modules:\n- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n"
	  "  runs: 1\n  indirect-calls:\n  - [3, b.c, \"0000000000000001\", \"\", 1]\n...\n",
	  "callee region: must not be empty" },
	{ H "modules:\n- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n"
	  "  runs: 1\n  indirect-calls:\n  - [3, b.c, \"0000000000000001\", f, 1, 2]\n...\n",
	  "more than 5 fields" },
	{ H "modules:\n- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n"
	  "  runs: 1\n  paths:\n  - [f, 2, 18446744073709551616]\n...\n", "does not fit in 64 bits" },
	{ H "modules:\n- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n"
	  "  runs: 1\n  paths:\n  - [f, -2, 1]\n...\n", "path number" },
	{ H "modules:\n- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n"
	  "  runs: 007\n...\n", "runs: expected a decimal integer" },
	{ H "modules:\n- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n"
	  "  runs: 1\n  partial:\n  - [f, 2, [2147483647], 1]\n...\n", "stop stack vertex" },
	{ H "modules:\n- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n"
	  "  runs: 1\n  partial:\n  - [f, 2, [], 1]\n...\n", "non-empty list" },
	{ H "modules:\n- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n"
	  "  runs: 1\n  paths:\n  - [f, 2]\n...\n", "expected a path record" },
	{ H "modules:\n- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: fast\n"
	  "  runs: 1\n...\n", "unknown mode 'fast'" },
	{ H "modules:\n- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n...\n",
	  "lacks the key 'runs'" },
	{ H "modules:\n- module: a.c\n  checksum: \"0123456789abcde\"\n  mode: intra\n"
	  "  runs: 1\n...\n", "16 hex digits" },
	{ H "modules:\n- module: \"\"\n  checksum: \"0123456789abcdef\"\n  mode: intra\n"
	  "  runs: 1\n...\n", "must not be empty" },
	{ "%YAML 1.1\n---\nipp-profile: 2\nmodules: []\n...\n", "unsupported profile version" },
	{ "%YAML 1.1\n---\nmodules: []\nipp-profile: 1\n...\n", "first key" },
	{ H "modules: []\n...\n\001\n", "control character" },
	{ H "modules:\n- module: \"\xff\"\n...\n", "not valid UTF-8" },
	{ H "modules: []\r...\n", "carriage return" },
	{ H "x-text: |\n  block\nmodules: []\n...\n", "unsupported YAML" },
	{ H "modules: []\n...\nmore\n", "after the end" },
	{ H "modules:\n- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n"
	  "  runs: 1\n  paths:\n  - [f, 2, 1] x\n...\n", "unexpected text" },
	{ H "modules:\n- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n"
	  "  runs: 1\n   paths: []\n...\n", "indentation" },
	{ H "modules:\n- module: a.c\n  checksum: \"0123456789abcdef\"\n  mode: intra\n"
	  "  runs: 1\n  paths:\n  - [f, 2, 1\n...\n", "does not end on its line" },
	{ H "modules:\n- module: \"a\\q.c\"\n...\n", "unknown escape" },
	{ H "modules:\n- module: \"a\\x00.c\"\n...\n", "NUL" },
};

/* Our module: ours.c with main 1 x 2, a partial (main, 3, [4, 5]) x 1 and
 * indirect calls (9 -> lib.c f) x 1, (8 -> ours.c g) x 5. */
static int32_t st45[] = { 4, 5 };
static struct rt_rec our_paths[2], our_partials[1], our_icalls[2];
static struct rt_pmod our_pm;

static void reset_ours(struct rt_snapshot *s, bool with_ours)
{
	memset(s, 0, sizeof(*s));
	memset(&our_pm, 0, sizeof(our_pm));
	our_paths[0] = (struct rt_rec){ "main", 1, 2, NULL, 0, 0, NULL, NULL, NULL };
	our_paths[1] = (struct rt_rec){ "other", 0, 1, NULL, 0, 0, NULL, NULL, NULL };
	our_partials[0] = (struct rt_rec){ "main", 3, 1, st45, 2, 0, NULL, NULL, NULL };
	our_icalls[0] = (struct rt_rec){ "f", 9, 1, NULL, 0, 0, NULL, "lib.c", "00000000000000cd" };
	our_icalls[1] = (struct rt_rec){ "g", 8, 5, NULL, 0, 0, NULL, "ours.c", "00000000000000ab" };
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

/* rt_file_parse on text: 0, -1 (with the message in err). */
static int rt_parse(const char *text, size_t len, struct rt_snapshot *s, struct rt_arena *a,
		    struct rt_file *f, char *err, size_t errlen)
{
	int rc = rt_file_parse(text, len, "t.prof", s, a, f, err, errlen);
	if (rc == -2)
		rtt_fail(__FILE__, __LINE__, "out of memory");
	return rc;
}

/* Canonical text of what the core reader makes of buf, or NULL. */
static char *core_canon(const char *buf, size_t len)
{
	char err[512], *out = NULL;
	size_t n;
	ipp_profile *p = ipp_profile_read_buffer(buf, len, "t.prof", err, sizeof(err));
	FILE *f;
	if (!p)
		return NULL;
	f = open_memstream(&out, &n);
	if (ipp_profile_write(f, p, err, sizeof(err)) != 0)
		rtt_fail(__FILE__, __LINE__, "core cannot write what it read: %s", err);
	fclose(f);
	ipp_profile_free(p);
	return out;
}

/* What the runtime writes after reading text (and merging s). */
static char *rt_rewrite(const struct rt_snapshot *s, const struct rt_file *f)
{
	struct rt_out *o = calloc(1, sizeof(*o));
	FILE *t = tmpfile();
	char *buf;
	long n;
	o->fd = fileno(t);
	if (rt_emit_profile(o, s, f) != 0)
		rtt_fail(__FILE__, __LINE__, "rt_emit_profile failed");
	n = lseek(o->fd, 0, SEEK_END);
	buf = malloc((size_t)n + 1);
	if (pread(o->fd, buf, (size_t)n, 0) != n)
		rtt_fail(__FILE__, __LINE__, "pread");
	buf[n] = '\0';
	fclose(t);
	free(o);
	return buf;
}

/* Accepted text: the rewrite must read (core) as the text itself does. */
static void check_rewrite(const char *text, size_t len, int i)
{
	struct rt_snapshot s;
	struct rt_arena a = { NULL, false };
	struct rt_file f;
	char err[512], *in, *out, *outc;
	reset_ours(&s, false);
	if (rt_parse(text, len, &s, &a, &f, err, sizeof(err)) != 0)
		rtt_fail(__FILE__, __LINE__, "input %d: %s", i, err);
	in = core_canon(text, len);
	if (!in)
		rtt_fail(__FILE__, __LINE__, "input %d: the runtime accepts what the core reader "
			 "rejects:\n%.*s", i, (int)len, text);
	out = rt_rewrite(&s, &f);
	outc = core_canon(out, strlen(out));
	if (!outc || strcmp(in, outc) != 0)
		rtt_fail(__FILE__, __LINE__, "input %d: the rewrite differs:\n%s\n---- became\n%s", i,
			 text, out);
	free(in);
	free(out);
	free(outc);
	rt_arena_free(&a);
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
	size_t nvalid = sizeof(valid) / sizeof(valid[0]);
	size_t ninvalid = sizeof(invalid) / sizeof(invalid[0]);
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
	for (size_t i = 0; i < nvalid; i++)
		check_rewrite(valid[i], strlen(valid[i]), (int)i);

	/* 2. invalid ones: rejected, saying why */
	for (size_t i = 0; i < ninvalid; i++) {
		reset_ours(&s, false);
		if (rt_parse(invalid[i].text, strlen(invalid[i].text), &s, &a, &f, err,
			     sizeof(err)) == 0)
			rtt_fail(__FILE__, __LINE__, "invalid input %zu accepted:\n%s", i,
				 invalid[i].text);
		if (!strstr(err, invalid[i].why) || strncmp(err, "t.prof:", 7) != 0)
			rtt_fail(__FILE__, __LINE__, "invalid input %zu: message '%s' lacks '%s'", i,
				 err, invalid[i].why);
		rt_arena_free(&a);
	}

	/* 3. every truncation is rejected (but the last newline is optional) */
	for (size_t i = 0; i < nvalid; i++) {
		size_t len = strlen(valid[i]);
		for (size_t cut = 1; cut + 1 < len; cut++) {
			const char *t = valid[i];
			reset_ours(&s, false);
			/* cutting trailing comment lines or a CR is harmless */
			if (cut >= (size_t)(strstr(t, "\n...") - t) + 4)
				break;
			if (rt_parse(t, cut, &s, &a, &f, err, sizeof(err)) == 0)
				rtt_fail(__FILE__, __LINE__, "input %zu cut at %zu accepted", i, cut);
			rt_arena_free(&a);
		}
	}

	/* 4. merging: ours.c 5 runs + 1; main 1: 10 + 2; main 2: 1; other 0:
	 * 1 (new); partial (main, 3, [4, 5]): 7 + 1; indirect calls (9 ->
	 * lib.c f): 4 + 1, (8 -> ours.c main): 2, (8 -> ours.c g): 5 (new),
	 * written in canonical order; x-mine kept; a.c kept */
	{
		char *out;
		ipp_profile *p;
		const ipp_prof_module *m;
		static const int32_t s45[] = { 4, 5 };
		reset_ours(&s, true);
		CHECK(rt_parse(valid[6], strlen(valid[6]), &s, &a, &f, err, sizeof(err)) == 0);
		CHECK(our_pm.in_file);
		out = rt_rewrite(&s, &f);
		CHECK(strstr(out, "\n  x-mine: kept\n") != NULL);
		p = ipp_profile_read_buffer(out, strlen(out), "out", err, sizeof(err));
		CHECK(p != NULL);
		m = rtt_module(p, "ours.c", "00000000000000ab");
		CHECK_U64(m->runs, 6);
		CHECK_U64(rtt_path(m, "main", "1"), 12);
		CHECK_U64(rtt_path(m, "main", "2"), 1);
		CHECK_U64(rtt_path(m, "other", "0"), 1);
		CHECK_U64(rtt_partial(m, "main", "3", s45, 2), 8);
		CHECK(strstr(out, "  indirect-calls:\n"
			     "  - [8, ours.c, \"00000000000000ab\", g, 5]\n"
			     "  - [8, ours.c, \"00000000000000ab\", main, 2]\n"
			     "  - [9, lib.c, \"00000000000000cd\", f, 5]\n"
			     "  x-mine: kept\n") != NULL);
		CHECK_U64(m->nicalls, 3);
		CHECK_U64(rtt_module(p, "a.c", "0123456789abcdef")->runs, 2);
		/* ours first (where it was in the file), then a.c */
		CHECK(strcmp(p->modules[0]->module, "ours.c") == 0);
		ipp_profile_free(p);
		free(out);
		rt_arena_free(&a);
	}

	/* 5. mutations: whatever the runtime accepts, the core reader
	 * accepts, and the rewrite means the same */
	for (int round = 0; round < rounds; round++) {
		const char *base = valid[rnd() % nvalid];
		size_t len = strlen(base);
		char *t = malloc(len + 64);
		int nm = 1 + (int)(rnd() % 3);
		static const char alphabet[] = "-[]{},:#\"'\\ \n\t0123456789abx.&*!|>~%\r";
		memcpy(t, base, len);
		for (int k = 0; k < nm && len; k++) {
			size_t at = rnd() % len;
			switch (rnd() % 3) {
			case 0:		/* replace */
				t[at] = alphabet[rnd() % (sizeof(alphabet) - 1)];
				break;
			case 1:		/* delete */
				memmove(t + at, t + at + 1, len - at - 1);
				len--;
				break;
			default:	/* insert */
				memmove(t + at + 1, t + at, len - at);
				t[at] = alphabet[rnd() % (sizeof(alphabet) - 1)];
				len++;
			}
		}
		mutants++;
		reset_ours(&s, false);
		if (rt_parse(t, len, &s, &a, &f, err, sizeof(err)) == 0) {
			accepted++;
			rt_arena_free(&a);
			check_rewrite(t, len, 1000 + round);
		} else {
			rt_arena_free(&a);
		}
		free(t);
	}
	printf("%u of %u mutants accepted, all read the same by the core reader\n", accepted,
	       mutants);
	rtt_done();
	return 0;
}
