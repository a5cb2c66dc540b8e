/* test_rt_rows.c -- two-level counting (runtime/rt_rows.c, ipp_abi.h
 * __ipp_row): rows keyed by (region, procedure, base, nvc), counted inline
 * by the caller, turned back into path numbers when the profile is
 * written.
 *
 * Procedure Q (descriptor dq) has n = 4 local paths with the tables
 *   a = {0, 1, 2, 0},  b = {3, 5, 7, 0}:
 * local path l of an activation entered with (base, nvc) is path
 * base + a[l] * nvc + b[l] of region R (10^6 paths).  Local path 3 ends at
 * a call: never counted.
 *
 * One "activation" act(base, nvc, k) counts local path 0 once, local path
 * 1 k times and local path 2 once, as the plugin's code does: the first
 * record through __ipp_row (which counts it and returns the row), the
 * others inline.  Then a record of a path that started at a return site
 * (idx 7 >= n) goes through __ipp_row to __ipp_record with its own number.
 *
 * Role "basic": act(100, 1, 3); act(100, 1, 2); act(1000, 10, 1) and the
 * return-site record of path 555555.  Rows (R, dq, 100, 1) and (R, dq,
 * 1000, 10).  Paths: 103 (l 0) 2, 106 (l 1) 3+2 = 5, 109 (l 2) 2;
 * 1003 1, 1015 1, 1027 1; 555555 1.
 * Role "threads": act(100, 1, 3) in main and in 3 threads: 103 and 109
 *   4 each, 106 12 (one row per thread, summed).
 * Role "reset": act(100, 1, 3), ipp_reset(), act(100, 1, 2): 103 1, 106 2,
 *   109 1.
 * Role "fork": act(100, 1, 1); fork; the child (its own profile) acts
 *   (100, 1, 2): 103 1, 106 2, 109 1 in the child; the parent acts
 *   (100, 1, 1) once more: 103 2, 106 2, 109 2.
 * Role "budget": IPP_ROW_BYTES=1 leaves no room for rows: every record
 *   goes through __ipp_row to __ipp_record, which counts the number the
 *   runtime computes from the tables: the same counts as "basic".
 *
 * Role "probes", white box (rt_internal.h): __ipp_row finds a row within
 *   the first probes of the thread's index inline and leaves everything
 *   else to the general lookup.  NCOLL rows (R, dq, base, 1) whose keys
 *   (rt_row_key) share one home slot of the first index (64 slots) take
 *   the slots HOME .. HOME + NCOLL - 1 in the order they are made, so the
 *   later ones lie beyond the inline probes; then NGROW more rows (nvc 2)
 *   grow the index to 256 slots and every row is looked up again, a
 *   return-site record (idx 7 >= n) in each.  Every lookup of a key must
 *   return that key's one row (the pointer the first returned), the
 *   thread must hold exactly NCOLL + NGROW rows, and the profile exactly
 *   the counts the test adds up as it records (checked by the parent from
 *   the file "probes.want" the role writes).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include "rtt.h"
#include "rt_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct ipp_rt_module m;
static struct ipp_rt_region r[1] = { { "R", 1000000, &m, 0, 0 } };
static struct ipp_rt_module m = { IPP_ABI_VERSION, 1, "rows.c", "00000000000000ee", "context",
				  r, NULL, 0, 0 };
static const uint64_t qa[4] = { 0, 1, 2, 0 }, qb[4] = { 3, 5, 7, 0 };
static const struct ipp_rt_rows dq = { 4, qa, qb };

/* One record of local path l, as the plugin emits it. */
static void rec(uint64_t **row, uint64_t base, uint64_t nvc, uint64_t l)
{
	if (*row)
		(*row)[l]++;
	else
		*row = __ipp_row(&r[0], &dq, base, nvc, l, 0);
}

static __attribute__((noinline)) void act(uint64_t base, uint64_t nvc, int k)
{
	uint64_t *row = NULL;
	rec(&row, base, nvc, 0);
	for (int i = 0; i < k; i++)
		rec(&row, base, nvc, 1);
	rec(&row, base, nvc, 2);
}

/* Role "probes" (see above).  Bases are multiples of 16 so that no two
 * rows share a path number (a row's paths are base + 3 .. base + 11);
 * the colliding ones are found from 16 * 1000 up, the others are 16 *
 * (1 .. NGROW). */
#define NCOLL 9
#define NGROW 100
#define NWANT (3 * (NCOLL + NGROW) + 2 * (NCOLL + NGROW))
static uint64_t coll_base[NCOLL];
static uint32_t coll_home;
static struct {
	uint64_t num, count;
} want_paths[NWANT];
static size_t nwant;

static void want(uint64_t num, uint64_t count)
{
	for (size_t i = 0; i < nwant; i++)
		if (want_paths[i].num == num) {
			want_paths[i].count += count;
			return;
		}
	CHECK(nwant < NWANT);
	want_paths[nwant].num = num;
	want_paths[nwant++].count = count;
}

static uint32_t home_of(uint64_t base, uint64_t nvc, uint32_t cap)
{
	return (uint32_t)rt_htab_index(rt_row_key(&r[0], &dq, base, nvc),
				       64 - (uint64_t)__builtin_ctz(cap));
}

static void find_colliding_bases(void)
{
	int n = 0;
	for (uint64_t s = 1000; n < NCOLL && s < 60000; s++) {
		uint32_t h = home_of(16 * s, 1, 64);
		if (n == 0) {
			if (h + NCOLL > 64)
				continue;	/* the run must not wrap */
			coll_home = h;
		}
		if (h == coll_home)
			coll_base[n++] = 16 * s;
	}
	CHECK(n == NCOLL);
}

/* act(base, nvc, k) with a return-site record of path `ret` at its end
 * (if ret): the row it counted in, which must be `row` if that is set. */
static uint64_t *act_row(uint64_t base, uint64_t nvc, int k, uint64_t ret, uint64_t *row)
{
	uint64_t *w = NULL;
	rec(&w, base, nvc, 0);
	CHECK(w != NULL);
	CHECK(row == NULL || w == row);
	for (int i = 0; i < k; i++)
		rec(&w, base, nvc, 1);
	rec(&w, base, nvc, 2);
	want(base + 3, 1);
	want(base + nvc + 5, (uint64_t)k);
	want(base + 2 * nvc + 7, 1);
	if (ret) {
		/* found again, the record counted by number */
		CHECK(__ipp_row(&r[0], &dq, base, nvc, 7, ret) == w);
		want(ret, 1);
	}
	return w;
}

static size_t nrows(void)
{
	size_t n = 0;
	for (const struct rt_row *w = rt_tls_self->rows; w; w = w->next)
		n++;
	return n;
}

static void role_probes(void)
{
	uint64_t *coll_row[NCOLL], *grow_row[NGROW];
	FILE *f;

	find_colliding_bases();
	for (int i = 0; i < NCOLL; i++)
		coll_row[i] = act_row(coll_base[i], 1, 1, 0, NULL);
	/* they collided: one probe run, in the order they were made */
	CHECK(rt_tls_self->rowidx->cap == 64);
	for (int i = 0; i < NCOLL; i++) {
		const struct rt_row *w = rt_tls_self->rowidx->slot[coll_home + (uint32_t)i];
		CHECK(w != NULL && w->base == coll_base[i] && w->counts == coll_row[i]);
		CHECK(w->key == rt_row_key(&r[0], &dq, coll_base[i], 1));
	}
	/* found again, the last ones after the inline probes */
	for (int k = 0; k < 3; k++)
		for (int i = NCOLL - 1; i >= 0; i--)
			act_row(coll_base[i], 1, k, 700000 + (uint64_t)i, coll_row[i]);
	CHECK(nrows() == NCOLL);

	/* grow the index, then find every row again */
	for (int i = 0; i < NGROW; i++)
		grow_row[i] = act_row(16 * (uint64_t)(i + 1), 2, i % 3, 0, NULL);
	CHECK(rt_tls_self->rowidx->cap == 256);
	CHECK(nrows() == NCOLL + NGROW);
	for (int k = 0; k < 2; k++) {
		for (int i = 0; i < NCOLL; i++)
			act_row(coll_base[i], 1, 2, 700000 + (uint64_t)i, coll_row[i]);
		for (int i = 0; i < NGROW; i++)
			act_row(16 * (uint64_t)(i + 1), 2, 1, 800000 + (uint64_t)i, grow_row[i]);
	}
	CHECK(nrows() == NCOLL + NGROW);
	for (int i = 0; i < NGROW; i++)
		for (int j = 0; j < i; j++)
			CHECK(grow_row[i] != grow_row[j]);

	f = fopen("probes.want", "w");
	CHECK(f != NULL);
	for (size_t i = 0; i < nwant; i++)
		fprintf(f, "%llu %llu\n", (unsigned long long)want_paths[i].num,
			(unsigned long long)want_paths[i].count);
	CHECK(fclose(f) == 0);
}

/* The profile holds exactly the paths of "probes.want", with their counts. */
static void check_want_file(const char *prof)
{
	ipp_profile *p = rtt_read(prof);
	const ipp_prof_module *mm = rtt_module(p, "rows.c", "00000000000000ee");
	FILE *f = fopen("probes.want", "r");
	unsigned long long num, count;
	size_t n = 0;
	char buf[32];
	CHECK(f != NULL);
	while (fscanf(f, "%llu %llu", &num, &count) == 2) {
		snprintf(buf, sizeof(buf), "%llu", num);
		CHECK_U64(rtt_path(mm, "R", buf), count);
		n++;
	}
	fclose(f);
	CHECK(n == 4 * (NCOLL + NGROW));	/* 3 paths and a return site each */
	CHECK_U64(mm->npaths, n);
	ipp_profile_free(p);
	remove("probes.want");
}

static void *thread_main(void *arg)
{
	(void)arg;
	act(100, 1, 3);
	return NULL;
}

static int role_main(const char *role)
{
	if (strcmp(role, "basic") == 0 || strcmp(role, "budget") == 0) {
		uint64_t *row;
		act(100, 1, 3);
		act(100, 1, 2);
		act(1000, 10, 1);
		/* a path that started at a return site: counted by number */
		row = __ipp_row(&r[0], &dq, 100, 1, 7, 555555);
		if (strcmp(role, "basic") == 0)
			CHECK(row != NULL);
		else
			CHECK(row == NULL);
	} else if (strcmp(role, "threads") == 0) {
		pthread_t t[3];
		act(100, 1, 3);
		for (int i = 0; i < 3; i++)
			CHECK(pthread_create(&t[i], NULL, thread_main, NULL) == 0);
		for (int i = 0; i < 3; i++)
			CHECK(pthread_join(t[i], NULL) == 0);
	} else if (strcmp(role, "reset") == 0) {
		act(100, 1, 3);
		ipp_reset();
		act(100, 1, 2);
	} else if (strcmp(role, "fork") == 0) {
		pid_t pid;
		act(100, 1, 1);
		pid = fork();
		if (pid == 0) {
			ipp_set_profile("child.prof");
			act(100, 1, 2);
			exit(0);
		}
		CHECK_EXIT(rtt_wait(pid), 0);
		act(100, 1, 1);
	} else if (strcmp(role, "probes") == 0) {
		role_probes();
	}
	return 0;
}

struct want {
	const char *num;
	uint64_t count;
};

static void check_paths(const char *path, const struct want *w, size_t n)
{
	ipp_profile *p = rtt_read(path);
	const ipp_prof_module *mm = rtt_module(p, "rows.c", "00000000000000ee");
	for (size_t i = 0; i < n; i++)
		CHECK_U64(rtt_path(mm, "R", w[i].num), w[i].count);
	CHECK_U64(mm->npaths, n);
	ipp_profile_free(p);
}

int main(int argc, char **argv)
{
	const char *role = rtt_init(argc, argv, "rt_rows");
	static const char *env[] = { "IPP_PROFILE=rows.prof", NULL };
	static const char *env_budget[] = { "IPP_PROFILE=rows.prof", "IPP_ROW_BYTES=1", NULL };
	static const struct want basic[] = { { "103", 2 }, { "106", 5 }, { "109", 2 },
					     { "1003", 1 }, { "1015", 1 }, { "1027", 1 },
					     { "555555", 1 } };
	static const struct want threads[] = { { "103", 4 }, { "106", 12 }, { "109", 4 } };
	static const struct want reset[] = { { "103", 1 }, { "106", 2 }, { "109", 1 } };
	static const struct want parent[] = { { "103", 2 }, { "106", 2 }, { "109", 2 } };

	if (role)
		return role_main(role);

	CHECK_EXIT(rtt_run("basic", NULL, env, NULL), 0);
	check_paths("rows.prof", basic, 7);
	remove("rows.prof");

	CHECK_EXIT(rtt_run("threads", NULL, env, NULL), 0);
	check_paths("rows.prof", threads, 3);
	remove("rows.prof");

	CHECK_EXIT(rtt_run("reset", NULL, env, NULL), 0);
	check_paths("rows.prof", reset, 3);
	remove("rows.prof");

	CHECK_EXIT(rtt_run("fork", NULL, env, NULL), 0);
	check_paths("rows.prof", parent, 3);
	check_paths("child.prof", reset, 3);	/* the child: 1, 2, 1 too */
	remove("rows.prof");
	remove("child.prof");

	CHECK_EXIT(rtt_run("probes", NULL, env, NULL), 0);
	check_want_file("rows.prof");
	remove("rows.prof");

	CHECK_EXIT(rtt_run("budget", NULL, env_budget, NULL), 0);
	check_paths("rows.prof", basic, 7);
	rtt_done();
	return 0;
}
