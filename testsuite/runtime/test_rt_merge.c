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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct ipp_rt_module m;
static struct ipp_rt_region r[1] = { { "main", 8, &m, 0, 0 } };
static struct ipp_rt_module m = { IPP_ABI_VERSION, 1, "merge.c", "00000000000000aa", "intra", r,
				  NULL, 0, 0 };

#define HEAD "%YAML 1.1\n---\nipp-profile: 1\n"

/* A module of another program, with everything the format allows. */
#define OTHER \
	"- module: other.c\n" \
	"  checksum: \"0123456789ABCDEF\"\n" \
	"  mode: context\n" \
	"  runs: 3\n" \
	"  paths:\n" \
	"  - [main, 1267650600228229401496703205376, 9]\n" \
	"  - [\"weird region\", 0, 1]\n" \
	"  # a comment inside a module\n" \
	"  partial:\n" \
	"  - ['main', \"12\", [5, 7], 1]\n" \
	"  x-note: kept as it is\n"

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
static void check_untouched(const char *text, const char *why)
{
	char alt[64];
	char *after;
	pid_t pid;
	ipp_profile *p;
	rtt_write_file("merge.prof", text);
	pid = rtt_start("add", "5", env, "err.txt");
	CHECK_EXIT(rtt_wait(pid), 0);
	after = rtt_slurp("merge.prof", NULL);
	CHECK(after && strcmp(after, text) == 0);
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
	char *text, *old, *old2;
	size_t len;

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

	/* 2. Other programs' modules and x- keys are kept byte for byte; our
	 * module (listed after it, with an x- key of its own) merges in place. */
	rtt_write_file("merge.prof", HEAD "x-producer: \"a test\"\nmodules:\n" OTHER
		       "- module: merge.c\n  checksum: \"00000000000000AA\"\n  mode: intra\n"
		       "  runs: 3\n  x-mine: [1, [2, 3]]\n  paths:\n  - [main, 1, 100]\n"
		       "  - [main, 7, 1]\n  partial: []\n...\n");
	CHECK_EXIT(rtt_run("add", "5", env, NULL), 0);
	text = rtt_slurp("merge.prof", &len);
	CHECK(strstr(text, "\nmodules:\n" OTHER "- module: merge.c\n") != NULL);
	CHECK(strstr(text, "\nx-producer: \"a test\"\n") != NULL);
	CHECK(strstr(text, "\n  x-mine: [1, [2, 3]]\n") != NULL);
	free(text);
	p = rtt_read("merge.prof");
	CHECK_U64(ours(p)->runs, 4);				/* 3 + 1 */
	CHECK_U64(rtt_path(ours(p), "main", "1"), 105);		/* 100 + 5 */
	CHECK_U64(rtt_path(ours(p), "main", "2"), 1);
	CHECK_U64(rtt_path(ours(p), "main", "7"), 1);
	o = rtt_module(p, "other.c", "0123456789abcdef");
	CHECK_U64(o->runs, 3);
	CHECK_U64(rtt_path(o, "main", "1267650600228229401496703205376"), 9);	/* 2^100 */
	ipp_profile_free(p);
	remove("merge.prof");

	/* 3. An older build of merge.c (checksum 1111...): the old file is
	 * kept as merge.prof.stale, merge.c starts afresh, other.c stays. */
	old = HEAD "modules:\n"
	      "- module: merge.c\n  checksum: \"1111111111111111\"\n  mode: intra\n  runs: 9\n"
	      "  paths:\n  - [main, 1, 40]\n" OTHER "...\n";
	rtt_write_file("merge.prof", old);
	CHECK_EXIT(rtt_run("add", "5", env, "err.txt"), 0);
	text = rtt_slurp("merge.prof.stale", NULL);
	CHECK(text && strcmp(text, old) == 0);
	free(text);
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
	rtt_write_file("merge.prof", old2);
	CHECK_EXIT(rtt_run("add", "5", env, "err.txt"), 0);
	text = rtt_slurp("merge.prof.stale", NULL);
	CHECK(text && strcmp(text, old2) == 0);
	free(text);
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
	rtt_write_file("merge.prof", HEAD "modules:\n"
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
	check_untouched("garbage: [\n", "merge.prof:1: ");
	check_untouched(HEAD "modules: []\n", "does not end with '...' (truncated?)");
	check_untouched(HEAD "modules:\n- module: merge.c\n  checksum: \"00000000000000aa\"\n"
			"  mode: context\n  runs: 1\n...\n", "recorded in mode context");
	check_untouched(HEAD "modules:\n- module: merge.c\n  checksum: \"00000000000000aa\"\n"
			"  mode: intra\n  runs: 1\n  paths:\n  - [main, 1, 1]\n  - [main, 1, 2]\n"
			"...\n", "duplicate path record");
	check_untouched(HEAD "modules:\n- module: merge.c\n  checksum: \"00000000000000aa\"\n"
			"  mode: intra\n  runs: 1\n  paths:\n  - [main, 1, 18446744073709551616]\n"
			"...\n", "does not fit in 64 bits");
	check_untouched("%YAML 1.1\n---\nipp-profile: 2\nmodules: []\n...\n",
			"merge.prof:3: unsupported profile version '2'");
	rtt_done();
	return 0;
}
