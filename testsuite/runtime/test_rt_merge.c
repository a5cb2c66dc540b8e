/* test_rt_merge.c -- merging into an existing profile: runs and counts add
 * (5 + 7 = 12), modules of other programs and x- keys are kept byte for
 * byte, a profile of an older build of our module is kept as
 * <profile>.stale (a third build's replaces it) with one warning naming
 * both checksums,
 * and a file the runtime cannot read as a profile (garbage, truncated,
 * conflicting) is left untouched while this run's data goes to
 * <profile>.<pid>.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct ipp_rt_module m;
static struct ipp_rt_region r[1] = { { "main", 8, &m, 0, 0 } };
static struct ipp_rt_module m = { IPP_ABI_VERSION, 1, "merge.c", "00000000000000aa", "intra", r,
				  NULL, 0, 0 };

#define HEAD "%YAML 1.1\n---\nipp-profile: 1\n"

/* A module of another program, with every kind of record.  (Profiles
 * are written here from text through the core library: rtt.h.) */
#define OTHER \
	"- module: other.c\n" \
	"  checksum: \"0123456789ABCDEF\"\n" \
	"  mode: context\n" \
	"  runs: 3\n" \
	"  paths:\n" \
	"  - [main, 18446744073709551614, 9]\n" \
	"  - [\"weird region\", 0, 1]\n" \
	"  partial:\n" \
	"  - ['main', \"12\", [5, 7], 1]\n" \
	"  forked:\n" \
	"  - [main, 12, [5], 1]\n" \
	"  indirect-calls:\n" \
	"  - [7, lib.c, \"00000000000000cd\", f, 4]\n"

/* child: records path 1 n times, and path 2 once if n is odd */
static int child(const char *arg)
{
	int n = atoi(arg);
	for (int i = 0; i < n; i++)
		__ipp_record(&r[0], 1);
	if (n % 2)
		__ipp_record(&r[0], 2);
	return 0;
}

static const char *env[] = { "IPP_PROFILE=merge.prof", NULL };

static const ipp_prof_module *ours(ipp_profile *p)
{
	return rtt_module(p, "merge.c", "00000000000000aa");
}

/* A profile the runtime must not touch: its bytes stay, our data goes to
 * merge.prof.<pid>, and stderr says so. */
static void check_untouched(const void *bytes, size_t blen, const char *why)
{
	char alt[64];
	char *after;
	size_t alen;
	pid_t pid;
	ipp_profile *p;
	rtt_write_bytes("merge.prof", bytes, blen);
	pid = rtt_start("add", "5", env, "err.txt");
	CHECK_EXIT(rtt_wait(pid), 0);
	after = rtt_slurp("merge.prof", &alen);
	CHECK(after && alen == blen && memcmp(after, bytes, blen) == 0);
	free(after);
	snprintf(alt, sizeof(alt), "merge.prof.%d", (int)pid);
	p = rtt_read(alt);
	CHECK_U64(rtt_path(ours(p), "main", "1"), 5);
	CHECK_U64(ours(p)->runs, 1);
	ipp_profile_free(p);
	if (!rtt_contains("err.txt", why) || !rtt_contains("err.txt", alt))
		rtt_fail(__FILE__, __LINE__, "stderr does not say '%s' and name %s", why, alt);
	remove(alt);
	remove("merge.prof");
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_merge");
	ipp_profile *p;
	const ipp_prof_module *o;
	char *text, *old, *old2, *oldb;
	size_t len, olen;

	if (role)
		return child(argv[2]);

	/* 1. Two runs: 5 + 7 = 12 of path 1, 1 + 1 of path 2, runs 2. */
	CHECK_EXIT(rtt_run("add", "5", env, NULL), 0);
	CHECK_EXIT(rtt_run("add", "7", env, NULL), 0);
	p = rtt_read("merge.prof");
	CHECK_U64(p->nmodules, 1);
	CHECK_U64(ours(p)->runs, 2);
	CHECK_U64(rtt_path(ours(p), "main", "1"), 12);
	CHECK_U64(rtt_path(ours(p), "main", "2"), 2);
	ipp_profile_free(p);
	remove("merge.prof");

	/* 2. Other programs' modules are kept byte for byte (a module is
	 * self-contained: docs/FORMAT.md), our module (listed after it)
	 * merges in place. */
	rtt_write_profile("merge.prof", HEAD "modules:\n" OTHER
			  "- module: merge.c\n  checksum: \"00000000000000AA\"\n  mode: intra\n"
			  "  runs: 3\n  paths:\n  - [main, 1, 100]\n"
			  "  - [main, 7, 1]\n  partial: []\n...\n");
	old = rtt_slurp("merge.prof", &olen);
	CHECK_EXIT(rtt_run("add", "5", env, NULL), 0);
	text = rtt_slurp("merge.prof", &len);
	{
		/* the first module starts after the 32-byte header, its size first */
		uint64_t msize;
		memcpy(&msize, old + 32, 8);
		CHECK(msize < olen && len > 32 + msize);
		CHECK(memcmp(text + 32, old + 32, msize) == 0);
	}
	free(text);
	free(old);
	p = rtt_read("merge.prof");
	CHECK_U64(ours(p)->runs, 4);				/* 3 + 1 */
	CHECK_U64(rtt_path(ours(p), "main", "1"), 105);		/* 100 + 5 */
	CHECK_U64(rtt_path(ours(p), "main", "2"), 1);
	CHECK_U64(rtt_path(ours(p), "main", "7"), 1);
	o = rtt_module(p, "other.c", "0123456789abcdef");
	CHECK_U64(o->runs, 3);
	CHECK_U64(rtt_path(o, "main", "18446744073709551614"), 9);	/* 2^64 - 2 */
	CHECK_U64(rtt_path(o, "weird region", "0"), 1);
	CHECK_U64(o->npartials, 1);
	CHECK_U64(o->nforked, 1);
	CHECK_U64(o->nicalls, 1);
	ipp_profile_free(p);
	remove("merge.prof");

	/* 3. An older build of merge.c (checksum 1111...): the old file is
	 * kept as merge.prof.stale, merge.c starts afresh, other.c stays. */
	old = HEAD "modules:\n"
	      "- module: merge.c\n  checksum: \"1111111111111111\"\n  mode: intra\n  runs: 9\n"
	      "  paths:\n  - [main, 1, 40]\n" OTHER "...\n";
	rtt_write_profile("merge.prof", old);
	oldb = rtt_slurp("merge.prof", &olen);
	CHECK_EXIT(rtt_run("add", "5", env, "err.txt"), 0);
	text = rtt_slurp("merge.prof.stale", &len);
	CHECK(text && len == olen && memcmp(text, oldb, len) == 0);
	free(text);
	free(oldb);
	p = rtt_read("merge.prof");
	CHECK_U64(p->nmodules, 2);		/* other.c, merge.c (new build) */
	CHECK(ipp_profile_find(p, "merge.c", 0x1111111111111111ull) == NULL);
	CHECK_U64(ours(p)->runs, 1);
	CHECK_U64(rtt_path(ours(p), "main", "1"), 5);
	CHECK_U64(rtt_module(p, "other.c", "0123456789abcdef")->runs, 3);
	ipp_profile_free(p);
	CHECK(rtt_contains("err.txt", "ipp: warning: "));
	CHECK(rtt_contains("err.txt", "merge.c from another build (checksum 1111111111111111 in "
			   "the file, 00000000000000aa in this program)"));
	CHECK(rtt_contains("err.txt", "merge.prof.stale"));
	/* ... and again with a third build (checksum 3333...): it replaces
	 * the older .stale, so one profile never spreads over more than two
	 * files (docs/RUNTIME.md). */
	old2 = HEAD "modules:\n"
	       "- module: merge.c\n  checksum: \"3333333333333333\"\n  mode: intra\n  runs: 2\n"
	       "  paths:\n  - [main, 2, 8]\n...\n";
	rtt_write_profile("merge.prof", old2);
	oldb = rtt_slurp("merge.prof", &olen);
	CHECK_EXIT(rtt_run("add", "5", env, "err.txt"), 0);
	text = rtt_slurp("merge.prof.stale", &len);
	CHECK(text && len == olen && memcmp(text, oldb, len) == 0);
	free(text);
	free(oldb);
	CHECK(!rtt_exists("merge.prof.stale.1"));
	CHECK(rtt_contains("err.txt", "checksum 3333333333333333 in the file"));
	p = rtt_read("merge.prof");
	CHECK_U64(rtt_path(ours(p), "main", "1"), 5);
	CHECK_U64(rtt_path(ours(p), "main", "2"), 1);	/* this run's 1, not + 8 */
	ipp_profile_free(p);
	remove("merge.prof.stale");
	remove("merge.prof");

	/* 4. Two builds of merge.c in the file, one of them ours: that one
	 * merges, the other is another program's (no stale). */
	rtt_write_profile("merge.prof", HEAD "modules:\n"
			  "- module: merge.c\n  checksum: \"2222222222222222\"\n  mode: intra\n"
			  "  runs: 1\n  paths:\n  - [main, 1, 1]\n"
			  "- module: merge.c\n  checksum: \"00000000000000aa\"\n  mode: intra\n"
			  "  runs: 1\n  paths:\n  - [main, 1, 1]\n...\n");
	CHECK_EXIT(rtt_run("add", "5", env, "err.txt"), 0);
	CHECK(!rtt_exists("merge.prof.stale"));
	p = rtt_read("merge.prof");
	CHECK_U64(rtt_path(ours(p), "main", "1"), 6);
	CHECK_U64(rtt_path(rtt_module(p, "merge.c", "2222222222222222"), "main", "1"), 1);
	ipp_profile_free(p);
	remove("merge.prof");

	/* 5. An empty file (touch) holds nothing: written normally. */
	rtt_write_file("merge.prof", "");
	CHECK_EXIT(rtt_run("add", "5", env, NULL), 0);
	p = rtt_read("merge.prof");
	CHECK_U64(rtt_path(ours(p), "main", "1"), 5);
	ipp_profile_free(p);
	remove("merge.prof");

	/* 6. Files that are not profiles this runtime reads: untouched. */
	check_untouched("garbage: [\n", 11, "merge.prof: not an ipp profile");
	text = HEAD "modules: []\n...\n";
	check_untouched(text, strlen(text), "merge.prof: this profile is in the old text format "
			"(version 1)");
	rtt_write_profile("merge.prof", HEAD "modules:\n- module: merge.c\n"
			  "  checksum: \"00000000000000aa\"\n  mode: context\n  runs: 1\n...\n");
	old = rtt_slurp("merge.prof", &olen);
	check_untouched(old, olen, "recorded in mode context");
	free(old);
	rtt_write_profile("merge.prof", HEAD "modules:\n- module: merge.c\n"
			  "  checksum: \"00000000000000aa\"\n  mode: intra\n  runs: 1\n"
			  "  paths:\n  - [main, 1, 1]\n...\n");
	old = rtt_slurp("merge.prof", &olen);
	check_untouched(old, olen - 1, "merge.prof: truncated: ");
	old[olen - 20] ^= 4;	/* a count */
	check_untouched(old, olen, "merge.prof: profile digest mismatch");
	old[olen - 20] ^= 4;
	old[8] = 3;		/* the version, and a digest to match */
	{
		uint64_t d = XXH64(old, olen - 8, 0);
		memcpy(old + olen - 8, &d, 8);
	}
	check_untouched(old, olen, "merge.prof: unsupported profile version 3");
	free(old);
	rtt_done();
	return 0;
}
