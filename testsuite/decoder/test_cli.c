/* test_cli.c -- the ipp tool end to end (CUnit).
 *
 * Without the plugin: the maps are written with ipp_map_write() (the paper's
 * Figure 4 graph, and a synthetic unit that needs cuts), embedded into real
 * ELF programs (objcopy --add-section on an object built with $CC, and an
 * assembler .incbin; two units linked into one program, through ld -r),
 * and the profiles are written with ipp_profile_write() (Figure 9's counts
 * plus a partial path).  Then ./ipp runs in a temporary directory and its
 * output is compared
 *   - with facts derived here from decoder/fig4.c and the paper (the
 *     ranking of Figure 9, the vertices of path 16, the loop-exit path 35),
 *     independently of the decoder, and
 *   - with the files in testsuite/decoder/expected/ (checksums replaced by
 *     <checksum>), which pin the text layout and the YAML/JSON schema.
 *
 * Environment: IPP (the binary; default ./ipp), srcdir (for expected/),
 * IPP_TEST_WRAPPER (a command put before every ipp, e.g. "valgrind -q
 * --error-exitcode=99 --leak-check=full"), IPP_TEST_KEEP (keep the
 * temporary directory), IPP_TEST_REGEN=DIR (write the actual outputs to
 * DIR/NAME instead of comparing: for updating expected/ after a deliberate
 * change -- review the diff).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include <CUnit/Basic.h>
#include <ctype.h>
#include <elf.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fig4.h"
#include "inputs.h"

#ifndef IPP_TEST_CC
#define IPP_TEST_CC "cc"
#endif

static char tmpdir[PATH_MAX];
static char ipp_bin[PATH_MAX];
static char expected_dir[PATH_MAX];
static const char *wrapper = "";
static const char *regen_dir;
static char fig4_sum[17], chain_sum[17], cut_sum[17], weird_sum[17];

/* A module name that needs quoting and escaping in YAML and JSON. */
#define WEIRD_MODULE "dir with space/\xc3\xbcn\xc3\xaf" "code \"q\" \\ #1: true.c"

/* ------------------------------------------------------------------ */
/* Helpers                                                              */
/* ------------------------------------------------------------------ */

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf == NULL)
		abort();
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		n = 0;
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f == NULL)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* Runs a shell command in tmpdir; returns its exit status. */
__attribute__((format(printf, 1, 2)))
static int sh(const char *fmt, ...)
{
	char cmd[4096], full[sizeof(tmpdir) + 4096 + 32];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	snprintf(full, sizeof(full), "cd '%s' && { %s ; }", tmpdir, cmd);
	st = system(full);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

struct run {
	int status;
	char *out, *err;
};

static void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
}

/* Runs "ipp ARGS" in tmpdir (ARGS is shell text). */
__attribute__((format(printf, 2, 3)))
static void ipp(struct run *r, const char *fmt, ...)
{
	char args[2048], path[PATH_MAX + 16];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	r->status = sh("%s '%s' %s >ipp.out 2>ipp.err", wrapper, ipp_bin, args);
	snprintf(path, sizeof(path), "%s/ipp.out", tmpdir);
	r->out = slurp(path);
	snprintf(path, sizeof(path), "%s/ipp.err", tmpdir);
	r->err = slurp(path);
	if (r->out == NULL)
		r->out = strdup("");
	if (r->err == NULL)
		r->err = strdup("");
	if (r->out == NULL || r->err == NULL)
		abort();
}

/* s with every run of exactly 16 lowercase hex digits replaced by
 * <checksum>.  malloc'd. */
static char *normalize(const char *s)
{
	size_t n = strlen(s);
	char *out = malloc(n + 1), *o = out;

	if (out == NULL)
		abort();
	for (size_t i = 0; i < n;) {
		size_t k = i;
		while (k < n && (isdigit((unsigned char)s[k]) || (s[k] >= 'a' && s[k] <= 'f')))
			k++;
		if (k - i == 16 && (i == 0 || !isalnum((unsigned char)s[i - 1])) &&
		    (k == n || !isalnum((unsigned char)s[k]))) {
			o += sprintf(o, "<checksum>");	/* shorter than 16: fits */
			i = k;
		} else if (k > i) {
			memcpy(o, s + i, k - i);
			o += k - i;
			i = k;
		} else {
			*o++ = s[i++];
		}
	}
	*o = '\0';
	return out;
}

/* Compares 'actual' (normalized) with expected/NAME; on a mismatch prints
 * a diff into the test log. */
static void golden(const char *name, const char *actual)
{
	char path[PATH_MAX + 64], apath[PATH_MAX + 64];
	char *norm = normalize(actual), *want;

	if (regen_dir != NULL) {
		snprintf(path, sizeof(path), "%s/%s", regen_dir, name);
		CU_ASSERT_EQUAL(write_text(path, norm), 0);
		free(norm);
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", expected_dir, name);
	want = slurp(path);
	if (want == NULL) {
		printf("\nmissing expected file %s\n", path);
		CU_FAIL("expected file missing");
	} else if (strcmp(want, norm) != 0) {
		snprintf(apath, sizeof(apath), "%s/actual-%s", tmpdir, name);
		write_text(apath, norm);
		printf("\n%s differs from the expected output:\n", name);
		fflush(stdout);
		sh("diff -u '%s' '%s'", path, apath);
		CU_FAIL("output differs from expected/");
	}
	free(want);
	free(norm);
}

#define CONTAINS(hay, needle) CU_ASSERT_PTR_NOT_NULL(strstr((hay), (needle)))
#define LACKS(hay, needle) CU_ASSERT_PTR_NULL(strstr((hay), (needle)))
#define STARTS(s, prefix) CU_ASSERT(strncmp((s), (prefix), strlen(prefix)) == 0)

/* ------------------------------------------------------------------ */
/* Inputs                                                               */
/* ------------------------------------------------------------------ */

static int tmp_path(char *buf, size_t len, const char *name)
{
	return snprintf(buf, len, "%s/%s", tmpdir, name) < (int)len ? 0 : -1;
}

static int write_map(const char *name, const ipp_graph *g, enum ipp_mode mode,
		     const char *module, unsigned long limit, char sum[17])
{
	char path[PATH_MAX + 32];
	uint64_t cs;

	if (tmp_path(path, sizeof(path), name) < 0 ||
	    inputs_write_map(path, g, mode, module, limit, &cs) < 0)
		return -1;
	ipp_hex64(cs, sum);
	return 0;
}

/* Adds Figure 9's counts to module m: in the single region of context mode,
 * the paper's numbers are the numbers within region main. */
static void add_figure9(ipp_prof_module *m)
{
	mpz_t n;
	mpz_init(n);
	for (size_t i = 0; i < fig4_figure9_len; i++) {
		mpz_set_ui(n, fig4_figure9[i].number);
		ipp_prof_add_path(m, "main", n, fig4_figure9[i].count);
	}
	mpz_clear(n);
}

static uint64_t parse_hex(const char *s)
{
	return strtoull(s, NULL, 16);
}

/* The partial path of the profiles: path 18 (pow's first iteration,
 * entered from call site 1) abandoned at u4, after its first 8 edges:
 * Entry_global->v1, v1->v4, v4->v5, v5->v6, v6->u1, u1->u2, u2->u3, u3->u4.
 * Its stop stack is [v6, u4]. */
static mpz_t partial_num;
static ipp_id *partial_stack;
static size_t partial_nstack;

static int write_profiles(const ipp_graph *fig4)
{
	char path[PATH_MAX + 32];
	ipp_profile *p;
	ipp_prof_module *m;
	mpz_t n;
	int rc = 0;

	mpz_init(n);
	if (inputs_prefix(fig4, IPP_MODE_CONTEXT, "main", 18, 8, partial_num, &partial_stack,
			  &partial_nstack) < 0)
		return -1;

	/* fig4.prof: Figure 9 and the partial path, twice */
	p = ipp_profile_new();
	m = ipp_profile_add_module(p, "fig4.c", parse_hex(fig4_sum), IPP_MODE_CONTEXT);
	m->runs = 1;
	add_figure9(m);
	ipp_prof_add_partial(m, "main", partial_num, partial_stack, partial_nstack, 2);
	tmp_path(path, sizeof(path), "fig4.prof");
	rc |= inputs_write_profile(path, p);

	/* ghost.prof: the same and a unit the program does not have */
	m = ipp_profile_add_module(p, "ghost.c", 0x1234, IPP_MODE_CONTEXT);
	mpz_set_ui(n, 0);
	ipp_prof_add_path(m, "ghost", n, 5);
	tmp_path(path, sizeof(path), "ghost.prof");
	rc |= inputs_write_profile(path, p);
	ipp_profile_free(p);

	/* fig9.prof: Figure 9 alone, the profile of one complete run of the
	 * paper's program (examples/fig4.c built with ipp-gcc records exactly
	 * these counts) */
	p = ipp_profile_new();
	m = ipp_profile_add_module(p, "fig4.c", parse_hex(fig4_sum), IPP_MODE_CONTEXT);
	m->runs = 1;
	add_figure9(m);
	tmp_path(path, sizeof(path), "fig9.prof");
	rc |= inputs_write_profile(path, p);
	ipp_profile_free(p);

	/* onlyghost.prof: nothing of the program */
	p = ipp_profile_new();
	m = ipp_profile_add_module(p, "ghost.c", 0x1234, IPP_MODE_CONTEXT);
	ipp_prof_add_path(m, "ghost", n, 5);
	tmp_path(path, sizeof(path), "onlyghost.prof");
	rc |= inputs_write_profile(path, p);
	ipp_profile_free(p);

	/* wrongsum.prof: fig4.c recorded from another build */
	p = ipp_profile_new();
	m = ipp_profile_add_module(p, "fig4.c", UINT64_C(0x0123456789abcdef), IPP_MODE_CONTEXT);
	add_figure9(m);
	tmp_path(path, sizeof(path), "wrongsum.prof");
	rc |= inputs_write_profile(path, p);
	ipp_profile_free(p);

	/* badregion.prof and badnum.prof: records the map cannot have */
	p = ipp_profile_new();
	m = ipp_profile_add_module(p, "fig4.c", parse_hex(fig4_sum), IPP_MODE_CONTEXT);
	ipp_prof_add_path(m, "nosuch", n, 1);
	tmp_path(path, sizeof(path), "badregion.prof");
	rc |= inputs_write_profile(path, p);
	ipp_profile_free(p);
	p = ipp_profile_new();
	m = ipp_profile_add_module(p, "fig4.c", parse_hex(fig4_sum), IPP_MODE_CONTEXT);
	mpz_set_ui(n, 36);
	ipp_prof_add_path(m, "main", n, 1);
	tmp_path(path, sizeof(path), "badnum.prof");
	rc |= inputs_write_profile(path, p);
	ipp_profile_free(p);

	/* empty.prof: a run that recorded nothing */
	p = ipp_profile_new();
	tmp_path(path, sizeof(path), "empty.prof");
	rc |= inputs_write_profile(path, p);
	ipp_profile_free(p);

	/* two.prof: both units of twoprog */
	p = ipp_profile_new();
	m = ipp_profile_add_module(p, "fig4.c", parse_hex(fig4_sum), IPP_MODE_CONTEXT);
	m->runs = 1;
	add_figure9(m);
	m = ipp_profile_add_module(p, "chain.c", parse_hex(chain_sum), IPP_MODE_INTRA);
	m->runs = 1;
	mpz_set_ui(n, 5);
	ipp_prof_add_path(m, "chain", n, 20);
	mpz_set_ui(n, 0);
	ipp_prof_add_path(m, "chain", n, 9);
	ipp_prof_add_path(m, "main", n, 1);
	tmp_path(path, sizeof(path), "two.prof");
	rc |= inputs_write_profile(path, p);
	ipp_profile_free(p);

	mpz_clear(n);
	return rc;
}

/* Sets the size of section 'name' of the ELF64 file 'path' to 'size' in its
 * section header (a corrupt program for the tests).  Returns 0 or -1. */
static int patch_section_size(const char *path, const char *name, uint64_t size)
{
	char *buf;
	FILE *f = fopen(path, "r+b");
	long len;
	int rc = -1;
	Elf64_Ehdr *eh;
	Elf64_Shdr *sh;

	if (f == NULL)
		return -1;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)len);
	if (fread(buf, 1, (size_t)len, f) != (size_t)len)
		goto out;
	eh = (Elf64_Ehdr *)buf;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64)
		goto out;
	sh = (Elf64_Shdr *)(buf + eh->e_shoff);
	for (size_t i = 0; i < eh->e_shnum; i++)
		if (strcmp(buf + sh[eh->e_shstrndx].sh_offset + sh[i].sh_name, name) == 0) {
			sh[i].sh_size = size;
			fseek(f, 0, SEEK_SET);
			if (fwrite(buf, 1, (size_t)len, f) == (size_t)len)
				rc = 0;
			break;
		}
out:
	free(buf);
	if (fclose(f) != 0)
		rc = -1;
	return rc;
}

static int suite_init(void)
{
	const char *tmp = getenv("TMPDIR"), *bin = getenv("IPP"), *src = getenv("srcdir");
	ipp_graph *fig4 = NULL, *chain = NULL;
	char path[PATH_MAX + 32];
	int rc = -1;

	mpz_init(partial_num);
	if (getenv("IPP_TEST_WRAPPER") != NULL)
		wrapper = getenv("IPP_TEST_WRAPPER");
	regen_dir = getenv("IPP_TEST_REGEN");
	if (realpath(bin != NULL ? bin : "ipp", ipp_bin) == NULL) {
		fprintf(stderr, "test_cli: cannot find the ipp binary (%s)\n", bin ? bin : "./ipp");
		return -1;
	}
	snprintf(expected_dir, sizeof(expected_dir), "%s/testsuite/decoder/expected",
		 src != NULL ? src : ".");
	snprintf(tmpdir, sizeof(tmpdir), "%s/ipp-test-XXXXXX", tmp != NULL && *tmp ? tmp : "/tmp");
	if (mkdtemp(tmpdir) == NULL) {
		perror("test_cli: mkdtemp");
		return -1;
	}

	fig4 = inputs_fig4_graph();
	chain = inputs_chain_graph(5);
	if (write_map("fig4.yaml", fig4, IPP_MODE_CONTEXT, "fig4.c", 0, fig4_sum) < 0 ||
	    write_map("chain.yaml", chain, IPP_MODE_INTRA, "chain.c", 16, chain_sum) < 0 ||
	    write_map("fig4cut.yaml", fig4, IPP_MODE_CONTEXT, "fig4.c", 7, cut_sum) < 0 ||
	    write_map("weird.yaml", fig4, IPP_MODE_INTRA, WEIRD_MODULE, 0, weird_sum) < 0 ||
	    write_profiles(fig4) < 0)
		goto out;

	/* The programs.  fig4prog: objcopy adds the map to a real object.
	 * twoprog: that object and one made by ld -r of a plain object and an
	 * assembled .incbin of chain.c's map; the linker concatenates them. */
	if (sh("printf 'int main(void) { return 0; }\\n' > main.c && "
	       "printf 'int other(void) { return 1; }\\n' > other.c && "
	       "printf '\\t.section .ipp_map,\"\",@progbits\\n\\t.incbin \"chain.yaml\"\\n"
	       "\\t.section .note.GNU-stack,\"\",@progbits\\n' > chainmap.s && "
	       "%s -c main.c -o main.o && %s -c other.c -o other.o && "
	       "%s -c chainmap.s -o chainmap.o && ld -r other.o chainmap.o -o chain.o && "
	       "objcopy --add-section .ipp_map=fig4.yaml --set-section-flags .ipp_map=readonly "
	       "main.o fig4.o && "
	       "objcopy --add-section .ipp_map=fig4cut.yaml --set-section-flags "
	       ".ipp_map=readonly main.o fig4cut.o && "
	       "%s fig4.o -o fig4prog && %s fig4.o chain.o -o twoprog && "
	       "%s fig4cut.o -o cutprog && %s main.o -o plainprog && "
	       "objcopy --add-section .ipp_map=weird.yaml --set-section-flags "
	       ".ipp_map=readonly main.o weird.o && %s weird.o -o weirdprog && "
	       "ar rc libunits.a fig4.o chain.o && "
	       "head -c 1000 fig4prog > truncprog && "
	       "printf 'hello\\n' > notelf",
	       IPP_TEST_CC, IPP_TEST_CC, IPP_TEST_CC, IPP_TEST_CC, IPP_TEST_CC, IPP_TEST_CC,
	       IPP_TEST_CC, IPP_TEST_CC) != 0) {
		fprintf(stderr, "test_cli: cannot build the test programs (in %s)\n", tmpdir);
		goto out;
	}
	/* corrupt.prof: fig4.prof cut in the middle of a record; maps that are
	 * corrupt (bad version, wrong digest, wrong checksum) in real ELF
	 * programs; and a program whose .ipp_map claims more bytes than the
	 * file has */
	if (sh("head -c 300 fig4.prof > corrupt.prof && "
	       "sed 's/^ipp-map: 1/ipp-map: 9/' fig4.yaml > badversion.yaml && "
	       "sed 's/^digest: .*/digest: \"0000000000000000\"/' fig4.yaml > baddigest.yaml && "
	       "sed 's/^checksum: .*/checksum: \"0000000000000001\"/' fig4.yaml > badsum.yaml && "
	       "for b in badversion baddigest badsum; do "
	       "objcopy --add-section .ipp_map=$b.yaml --set-section-flags .ipp_map=readonly "
	       "main.o $b.o && %s $b.o -o $b || exit 1; done && cp fig4prog bigsection",
	       IPP_TEST_CC) != 0)
		goto out;
	tmp_path(path, sizeof(path), "bigsection");
	if (patch_section_size(path, ".ipp_map", UINT64_C(1) << 40) < 0) {
		fprintf(stderr, "test_cli: cannot patch %s\n", path);
		goto out;
	}
	rc = 0;
out:
	if (rc != 0 && getenv("IPP_TEST_KEEP") == NULL)
		sh("cd / && rm -rf '%s'", tmpdir);
	else if (rc != 0)
		fprintf(stderr, "test_cli: test files kept in %s\n", tmpdir);
	if (fig4 != NULL)
		ipp_graph_free(fig4);
	if (chain != NULL)
		ipp_graph_free(chain);
	return rc;
}

static int suite_clean(void)
{
	if (getenv("IPP_TEST_KEEP") != NULL)
		printf("\ntest files kept in %s\n", tmpdir);
	else if (tmpdir[0] != '\0')
		sh("cd / && rm -rf '%s'", tmpdir);
	free(partial_stack);
	mpz_clear(partial_num);
	return 0;
}

/* ------------------------------------------------------------------ */
/* The paper's facts, derived from decoder/fig4.c                       */
/* ------------------------------------------------------------------ */

/* "main:30 -> main:32 -> ..." for a list of the paper's vertex names: the
 * text form of a path, built here, not by the decoder. */
static void steps_text(char *buf, size_t len, const char *const *names, size_t n,
		       const char *last_note)
{
	size_t used = 0;
	for (size_t i = 0; i < n; i++) {
		const char *fn = names[i][0] == 'v' ? "main" : "pow";
		used += (size_t)snprintf(buf + used, len - used, "%s%s:%d", i ? " -> " : "", fn,
					 fig4_line_of(names[i]));
	}
	if (last_note != NULL)
		snprintf(buf + used, len - used, " (%s)", last_note);
}

/* The YAML line of the paper's vertex 'name' in a path, with 'kind'. */
static void vertex_yaml(char *buf, size_t len, const char *name, const char *kind)
{
	int line = fig4_line_of(name);
	const char *fn = name[0] == 'v' ? "main" : "pow";
	if (line > 0)
		snprintf(buf, len, "{function: %s, file: fig4.c, line: %d, kind: %s, vertex: %d}",
			 fn, line, kind, (int)fig4_vertex(name));
	else
		snprintf(buf, len, "{function: %s, file: null, line: null, kind: %s, vertex: %d}",
			 fn, kind, (int)fig4_vertex(name));
}

static int obs_cmp(const void *a, const void *b)
{
	const struct fig4_obs *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->number < y->number ? -1 : x->number > y->number;
}

/* ------------------------------------------------------------------ */
/* ipp report                                                           */
/* ------------------------------------------------------------------ */

/* The text report's row for a path of fig4.c's region main: rank, count,
 * share of the 51 recorded executions (49 of Figure 9 and the partial path
 * twice), module, region, number. */
static void ranking_row(char *buf, size_t len, size_t rank, unsigned count, unsigned number)
{
	char pct[16];
	snprintf(pct, sizeof(pct), "%.2f%%", 100.0 * count / 51);
	snprintf(buf, len, "\n%4zu  %5u  %6s  fig4.c  main    %6u\n", rank, count, pct, number);
}

static void test_report_text(void)
{
	struct fig4_obs obs[32];
	struct run r;
	const char *p;
	char want[128];

	ipp(&r, "report ./fig4prog fig4.prof");
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.err, "");
	golden("report_top.txt", r.out);

	/* The ranking is Figure 9's: by count, ties by number (9, 9, 6, 5,
	 * 3 x 6, ...): the top 10 rows, in this order. */
	memcpy(obs, fig4_figure9, fig4_figure9_len * sizeof(obs[0]));
	qsort(obs, fig4_figure9_len, sizeof(obs[0]), obs_cmp);
	CU_ASSERT_EQUAL(obs[0].count, 9);
	CU_ASSERT_EQUAL(obs[0].number, 18);
	CU_ASSERT_EQUAL(obs[1].number, 24);
	p = r.out;
	for (size_t i = 0; i < 10 && p != NULL; i++) {
		ranking_row(want, sizeof(want), i + 1, obs[i].count, obs[i].number);
		p = strstr(p, want);
		CU_ASSERT_PTR_NOT_NULL(p);
		if (p == NULL)
			printf("\nrow %zu missing or out of order: %s", i + 1, want + 1);
		else
			p++;
	}
	/* the 11th is not shown without --all */
	LACKS(r.out, "\n  11  ");
	run_free(&r);
}

static void test_report_all_yaml(void)
{
	static const char *const path16[] = { "v1", "v2", "v3", "v4", "v5", "v9", "v13" };
	struct run r;
	char want[256], block[2048];
	size_t used = 0;

	ipp(&r, "report --all --format=yaml ./fig4prog fig4.prof");
	CU_ASSERT_EQUAL(r.status, 0);
	golden("report_all.yaml", r.out);

	/* Path 16, main's first iteration: Entry_main, the blocks up to the
	 * back edge v13 -> v4, then GExit_main (decoder/fig4.c, Figure 5). */
	used += (size_t)snprintf(block + used, sizeof(block) - used,
				 "        region: main\n        number: 16\n        global: 16\n"
				 "        count: 1\n        partial: false\n        context_prefix: 0\n"
				 "        vertices:\n");
	for (size_t i = 0; i < sizeof(path16) / sizeof(path16[0]); i++) {
		vertex_yaml(want, sizeof(want), path16[i], i == 0 ? "entry" : "block");
		used += (size_t)snprintf(block + used, sizeof(block) - used, "          - %s\n",
					 want);
	}
	vertex_yaml(want, sizeof(want), "v14", "surrogate-exit");
	snprintf(block + used, sizeof(block) - used, "          - %s\n", want);
	CONTAINS(r.out, block);

	/* YAML writes numbers as plain integers */
	CONTAINS(r.out, "total_recorded: 51\n");
	CONTAINS(r.out, "number: 35\n");
	CONTAINS(r.out, "partial: true\n");
	run_free(&r);
}

static void test_report_json(void)
{
	struct run r;

	ipp(&r, "report --all --format=json ./fig4prog fig4.prof");
	CU_ASSERT_EQUAL(r.status, 0);
	golden("report_all.json", r.out);
	/* JSON writes path numbers, counts and totals as strings */
	CONTAINS(r.out, "\"number\": \"16\"");
	CONTAINS(r.out, "\"count\": \"9\"");
	CONTAINS(r.out, "\"total_recorded\": \"51\"");
	CONTAINS(r.out, "\"total_paths\": \"36\"");
	CONTAINS(r.out, "\"line\": 30");
	run_free(&r);
}

static void test_report_text_paths(void)
{
	static const char *const path16[] = { "v1", "v2", "v3", "v4", "v5", "v9", "v13" };
	struct run r;
	char want[512];

	ipp(&r, "report --all --regions ./fig4prog fig4.prof");
	CU_ASSERT_EQUAL(r.status, 0);
	golden("report_all_regions.txt", r.out);
	steps_text(want, sizeof(want), path16, 7, "back edge");
	CONTAINS(r.out, want);
	/* path 24, pow's second iteration in the context of call site 1: the
	 * context prefix Entry_main -> v4 -> v5 -> v6 is in brackets, the active
	 * suffix restarts at pow's loop header u3 */
	CONTAINS(r.out, "\n      [main:34 (loop restart) -> main:35 -> main:36 (call)] -> "
		 "pow:23 (loop restart) -> pow:24 -> pow:25 (back edge)\n");
	/* the partial path: ranked 11th (count 2), stopped in pow at u4 */
	CONTAINS(r.out, "  11      2   3.92%  fig4.c  main");
	CONTAINS(r.out, "main:36 (call) -> pow:20 -> pow:22 -> pow:23 -> pow:24 (stopped)");
	run_free(&r);
}

static void test_wrong_build(void)
{
	struct run r;
	char want[64];

	ipp(&r, "report ./fig4prog wrongsum.prof");
	CU_ASSERT_EQUAL(r.status, 1);
	CU_ASSERT_STRING_EQUAL(r.out, "");
	CONTAINS(r.err, "0123456789abcdef");
	CONTAINS(r.err, fig4_sum);
	CONTAINS(r.err, "./fig4prog");
	CONTAINS(r.err, "wrongsum.prof");
	CONTAINS(r.err, "different build");
	snprintf(want, sizeof(want), "ipp: ./fig4prog: ");
	CU_ASSERT(strncmp(r.err, want, strlen(want)) == 0);
	run_free(&r);
}

static void test_two_units(void)
{
	struct run r;
	const char *first, *second;

	/* the linker concatenated the two maps into one section */
	ipp(&r, "map ./twoprog");
	CU_ASSERT_EQUAL(r.status, 0);
	first = strstr(r.out, "ipp-map: 1");
	CU_ASSERT_PTR_NOT_NULL(first);
	second = first ? strstr(first + 1, "ipp-map: 1") : NULL;
	CU_ASSERT_PTR_NOT_NULL(second);
	CU_ASSERT_PTR_NULL(second ? strstr(second + 1, "ipp-map: 1") : NULL);
	CU_ASSERT_PTR_NULL(memchr(r.out, '\0', strlen(r.out)));
	run_free(&r);

	/* --output: the same bytes, in a file; the first document is fig4.c's
	 * map exactly as ipp_map_write() wrote it (the link order) */
	ipp(&r, "map -o twomaps.yaml ./twoprog && head -c $(wc -c < fig4.yaml) twomaps.yaml "
	    "| cmp - fig4.yaml");
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.out, "");
	run_free(&r);

	ipp(&r, "map --list ./twoprog");
	CU_ASSERT_EQUAL(r.status, 0);
	golden("map_list.txt", r.out);
	run_free(&r);

	/* an archive of the two objects */
	ipp(&r, "map --list libunits.a");
	CU_ASSERT_EQUAL(r.status, 0);
	golden("map_list.txt", r.out);
	run_free(&r);

	/* one ranking across both units; the tie at 9 goes to chain.c first */
	ipp(&r, "report --top 5 ./twoprog two.prof");
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.err, "");
	golden("report_two.txt", r.out);
	run_free(&r);

	ipp(&r, "report --top 3 --format=yaml ./twoprog two.prof");
	CU_ASSERT_EQUAL(r.status, 0);
	golden("report_two.yaml", r.out);
	run_free(&r);
}

/* ipp counts --calls names every direct callee.  chain.c's only recorded
 * path is main's path 0 (count 1), which passes main's two call sites once
 * each: chain, and ext, a function out of the unit that the map names
 * (inputs_chain_graph), of unknown unit (no unit of the program defines
 * it).  fig4.c: Figure 9's main calls pow 9 times at line 36 (even i, i <
 * 18) and 6 times at line 40 (multiples of 3): one arc main -> pow 15.
 * The path text names ext too. */
static void test_calls(void)
{
	struct run r;

	ipp(&r, "counts --calls ./twoprog two.prof");
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.out,
			       "# module chain.c\n"
			       "# call sites\n"
			       "main -> chain 1 chain.c:18\n"
			       "main -> ext 1 chain.c:19\n"
			       "# indirect calls\n"
			       "# arcs\n"
			       "main -> chain 1\n"
			       "main -> ext 1\n"
			       "# module fig4.c\n"
			       "# call sites\n"
			       "main -> pow 9 fig4.c:36\n"
			       "main -> pow 6 fig4.c:40\n"
			       "# indirect calls\n"
			       "# arcs\n"
			       "main -> pow 15\n");
	run_free(&r);

	ipp(&r, "counts --calls --format=yaml ./twoprog two.prof");
	CU_ASSERT_EQUAL(r.status, 0);
	CONTAINS(r.out, "      - {caller: main, callee: ext, callee_asm_name: ext, kind: external, "
		 "file: chain.c, line: 19, calls: 1, returns: 1, vertex: 25}\n");
	CONTAINS(r.out, "      - {caller: main, callee: ext, callee_asm_name: ext, callee_module: "
		 "null, callee_checksum: null, calls: 1}\n");
	CONTAINS(r.out, "      - {caller: main, callee: chain, callee_asm_name: chain, "
		 "callee_module: chain.c, callee_checksum: \"");
	run_free(&r);

	ipp(&r, "report --all ./twoprog two.prof");
	CU_ASSERT_EQUAL(r.status, 0);
	CONTAINS(r.out, "      main:16 -> main:18 (summary: chain) -> main:19 (summary: ext) -> "
		 "main:20 (return)\n");
	run_free(&r);
}

/* ipp counts --events on Figure 9, the profile of one complete run of the
 * paper's program (context mode).  main is entered once, fresh, and calls
 * pow 15 times through interprocedural sites (9 + 6, test_calls): 15
 * continuing activations of pow's clone.  main makes continuing calls, so
 * it has a frame and saves __ipp_path; its region has 36 paths, so it counts inline in an array
 * (one __ipp_counts).  pow makes no call, but it records at its loop's
 * back edge, so it has a frame whose checkpoint moves on with its
 * restarts: 16 frames pushed and popped.  It counts its paths in rows
 * without a path register on its edges (lazy r): each of its 30 restarts
 * stores its restart value, 1 * nvc + 1 + pathNumOnEntry (Figure 8), in
 * its checkpoint, a multiply by nvc; each of its 15 returns computes the
 * number from the row tables, a multiply by nvc; main's nvc is the
 * constant 1.  Figure 9's 49 path
 * executions are 49 records: main's return and 18 at main's back edge in
 * main's array, 30 at pow's back edge (ranks 1, 2, 5, 6, 8, 9 of `ipp
 * report`) in pow's rows, none through __ipp_record.  The real program
 * (examples/fig4.c built with ipp-gcc and runtime/libipprt-stats.a) makes
 * exactly 1 __ipp_counts call, 15 __ipp_row calls (one per activation of
 * pow) and no __ipp_record call. */
static void test_events(void)
{
	static const char *const want[] = {
		"\nfresh 1\n", "\ncontinuing 15\n", "\nframes 16\n",
		"\ncounts_calls 1\n", "\npath_saves 1\n", "\nreturns 16\n",
		"\nframe_pops 16\n", "\nreturns_continuing 15\n", "\nreturns_lazy 15\n",
		"\nrecords 49\n", "\nrec_return 1\n", "\nrec_split 48\n", "\nrec_dead 0\n",
		"\nrec_array 19\n", "\nrec_row 30\n", "\nrec_row_return 0\n", "\nrec_hash 0\n",
		"\nrec_region_small 49\n", "\nrestarts 48\n", "\nmultiplies 45\n",
		"\ncalls_interproc 15\n", "\ninterproc_returns 15\n", "\nicall_arcs 0\n",
		"\npath_counts 49\n", "\npartial_counts 0\n",
	};
	struct run r;

	ipp(&r, "counts --events ./fig4prog fig9.prof");
	CU_ASSERT_EQUAL(r.status, 0);
	STARTS(r.out, "activations 16\n");
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		CONTAINS(r.out, want[i]);
	run_free(&r);
	ipp(&r, "counts --events --format=yaml ./fig4prog fig9.prof");
	CU_ASSERT_EQUAL(r.status, 0);
	CONTAINS(r.out, "    events:\n      activations: 16\n");
	CONTAINS(r.out, "      records: 49\n");
	run_free(&r);
}

static void test_cuts(void)
{
	struct run r;

	ipp(&r, "report --cuts ./cutprog");
	CU_ASSERT_EQUAL(r.status, 0);
	golden("cuts_fig4.txt", r.out);
	CONTAINS(r.out, "main -> pow");
	run_free(&r);

	ipp(&r, "report --cuts ./twoprog");
	CU_ASSERT_EQUAL(r.status, 0);
	golden("cuts_two.txt", r.out);
	CONTAINS(r.out, "cut vertices (");
	run_free(&r);

	ipp(&r, "report --cuts --format=yaml ./twoprog");
	CU_ASSERT_EQUAL(r.status, 0);
	golden("cuts_two.yaml", r.out);
	run_free(&r);

	ipp(&r, "report --cuts --format=json ./cutprog");
	CU_ASSERT_EQUAL(r.status, 0);
	golden("cuts_fig4.json", r.out);
	run_free(&r);

	/* --cuts reads no profile */
	ipp(&r, "report --cuts ./cutprog fig4.prof");
	CU_ASSERT_EQUAL(r.status, 2);
	run_free(&r);
}

/* ------------------------------------------------------------------ */
/* ipp decode                                                           */
/* ------------------------------------------------------------------ */

static void test_decode(void)
{
	static const char *const path35[] = { "v4", "v15", "v16" };
	struct run r;
	char want[512], stack[64];
	char *num;

	/* path 35: the loop exit (i = 19) to main's return; it starts at the
	 * loop header v4, through the surrogate edge Entry_main -> v4 */
	ipp(&r, "decode ./fig4prog --module fig4.c --region main 35");
	CU_ASSERT_EQUAL(r.status, 0);
	golden("decode_35.txt", r.out);
	steps_text(want, sizeof(want), path35, 3, "return");
	CONTAINS(r.out, "main:34 (loop restart) -> main:45 -> main:47 (return)");
	CONTAINS(r.out, want + strlen("main:34"));
	run_free(&r);

	/* the same by global number, the only unit and region chosen */
	ipp(&r, "decode --global ./fig4prog 35");
	CU_ASSERT_EQUAL(r.status, 0);
	golden("decode_35.txt", r.out);
	run_free(&r);

	ipp(&r, "decode --format=json ./fig4prog 35");
	CU_ASSERT_EQUAL(r.status, 0);
	golden("decode_35.json", r.out);
	CONTAINS(r.out, "\"number\": \"35\"");
	LACKS(r.out, "\"count\"");
	run_free(&r);

	/* the partial path of the profile, from its number and stop stack */
	num = mpz_get_str(NULL, 10, partial_num);
	snprintf(stack, sizeof(stack), "%d,%d", (int)partial_stack[0], (int)partial_stack[1]);
	CU_ASSERT_EQUAL(partial_stack[0], fig4_vertex("v6"));
	CU_ASSERT_EQUAL(partial_stack[1], fig4_vertex("u4"));
	ipp(&r, "decode --region main --partial --stack %s --format=yaml ./fig4prog %s", stack,
	    num);
	CU_ASSERT_EQUAL(r.status, 0);
	golden("decode_partial.yaml", r.out);
	CONTAINS(r.out, "partial: true\n");
	run_free(&r);
	free(num);

	/* a partial number with a stack no prefix has */
	ipp(&r, "decode --partial --stack 3 ./fig4prog 30");
	CU_ASSERT_EQUAL(r.status, 1);
	CU_ASSERT_STRING_EQUAL(r.out, "");
	run_free(&r);
}

static void test_decode_errors(void)
{
	struct run r;

	ipp(&r, "decode --region nosuch ./fig4prog 3");
	CU_ASSERT_EQUAL(r.status, 1);
	CONTAINS(r.err, "no region 'nosuch'");
	CONTAINS(r.err, "main");
	run_free(&r);

	ipp(&r, "decode ./fig4prog 36");
	CU_ASSERT_EQUAL(r.status, 1);
	CONTAINS(r.err, "out of range");
	CONTAINS(r.err, "36 paths");
	run_free(&r);

	/* a number far past 2^64 */
	ipp(&r, "decode ./fig4prog 1180591620717411303424123");
	CU_ASSERT_EQUAL(r.status, 1);
	CONTAINS(r.err, "1180591620717411303424123 is out of range");
	run_free(&r);

	ipp(&r, "decode ./fig4prog -- -3");
	CU_ASSERT_EQUAL(r.status, 2);
	run_free(&r);

	ipp(&r, "decode ./fig4prog 12x");
	CU_ASSERT_EQUAL(r.status, 2);
	run_free(&r);

	ipp(&r, "decode --module nosuch.c ./twoprog 1");
	CU_ASSERT_EQUAL(r.status, 1);
	CONTAINS(r.err, "no module 'nosuch.c'");
	run_free(&r);

	ipp(&r, "decode ./twoprog 1");
	CU_ASSERT_EQUAL(r.status, 1);
	CONTAINS(r.err, "--module");
	run_free(&r);

	ipp(&r, "decode --module chain.c ./twoprog 1");
	CU_ASSERT_EQUAL(r.status, 1);
	CONTAINS(r.err, "--region");
	run_free(&r);

	ipp(&r, "decode --stack 1,2 ./fig4prog 1");
	CU_ASSERT_EQUAL(r.status, 2);
	run_free(&r);

	ipp(&r, "decode --partial --stack 1,,2 ./fig4prog 1");
	CU_ASSERT_EQUAL(r.status, 2);
	run_free(&r);

	ipp(&r, "decode --partial --stack 99999 ./fig4prog 1");
	CU_ASSERT_EQUAL(r.status, 1);
	CONTAINS(r.err, "no vertex 99999");
	run_free(&r);
}

/* ------------------------------------------------------------------ */
/* Errors                                                               */
/* ------------------------------------------------------------------ */

/* A failing run: exit 1, nothing on stdout, stderr starting with
 * "ipp: PREFIX" and containing 'what'. */
static void fails(const char *args, const char *prefix, const char *what)
{
	struct run r;

	ipp(&r, "%s", args);
	CU_ASSERT_EQUAL(r.status, 1);
	CU_ASSERT_STRING_EQUAL(r.out, "");
	CU_ASSERT(strncmp(r.err, "ipp: ", 5) == 0 && strncmp(r.err + 5, prefix,
							     strlen(prefix)) == 0);
	CONTAINS(r.err, what);
	if (r.status != 1 || strstr(r.err, what) == NULL)
		printf("\nipp %s: status %d, stderr: %s\n", args, r.status, r.err);
	run_free(&r);
}

static void test_errors(void)
{
	struct run r;

	fails("report ./plainprog fig4.prof", "./plainprog: ", "has no ipp map");
	fails("report ./plainprog fig4.prof", "./plainprog: ", "-fplugin=ipp.so");
	fails("report ./notelf fig4.prof", "./notelf: ", "not an ELF file");
	fails("report ./truncprog fig4.prof", "./truncprog: ", "truncated");
	fails("report ./nosuchprog fig4.prof", "./nosuchprog: ", "No such file");
	fails("report ./fig4prog nosuch.prof", "nosuch.prof: ", "no such file");
	fails("report ./fig4prog corrupt.prof", "corrupt.prof:", "corrupt.prof");
	fails("report ./fig4prog badregion.prof", "badregion.prof: ", "nosuch");
	fails("report ./fig4prog badnum.prof", "badnum.prof: ", "out of range");
	fails("report ./fig4prog onlyghost.prof", "onlyghost.prof: ", "ghost.c");
	fails("report ./fig4prog fig4.yaml", "fig4.yaml:", "fig4.yaml");
	fails("map ./plainprog", "./plainprog: ", "has no ipp map");
	fails("map ./truncprog", "./truncprog: ", "truncated");
	/* an ELF operand is a library of the program, not its profile */
	fails("report ./fig4prog ./fig4prog", "fig4prog.ipp.prof: ", "no such file");
	fails("report ./bigsection fig4.prof", "./bigsection: ", "truncated");
	fails("report ./badversion fig4.prof", "./badversion:.ipp_map:", "unsupported map version");
	fails("report ./baddigest fig4.prof", "./baddigest:.ipp_map:", "digest");
	fails("report ./badsum fig4.prof", "./badsum:.ipp_map:", "checksum");
	fails("map --list ./baddigest", "./baddigest:.ipp_map:", "digest");

	/* a unit the program does not have: a warning, the rest is reported */
	ipp(&r, "report ./fig4prog ghost.prof");
	CU_ASSERT_EQUAL(r.status, 0);
	CONTAINS(r.err, "ipp: warning: ghost.prof: module ghost.c");
	CONTAINS(r.err, "not part of ./fig4prog");
	{
		char want[128];
		ranking_row(want, sizeof(want), 1, 9, 18);
		CONTAINS(r.out, want);
	}
	run_free(&r);

	ipp(&r, "report ./fig4prog empty.prof");
	CU_ASSERT_EQUAL(r.status, 0);
	CONTAINS(r.out, "No paths recorded.");
	run_free(&r);

	/* the profile defaults to the one the program writes by default:
	 * its executable's name + ".ipp.prof" (runtime/rt_name.c), links
	 * resolved */
	sh("cp fig4.prof fig4prog.ipp.prof && ln -sf fig4prog linkprog");
	ipp(&r, "report ./fig4prog");
	CU_ASSERT_EQUAL(r.status, 0);
	CONTAINS(r.out, "ipp report: ./fig4prog, profile fig4prog.ipp.prof\n");
	{
		char want[128];
		ranking_row(want, sizeof(want), 10, 3, 33);
		CONTAINS(r.out, want);
	}
	run_free(&r);
	ipp(&r, "report ./linkprog");
	CU_ASSERT_EQUAL(r.status, 0);
	CONTAINS(r.out, "ipp report: ./linkprog, profile fig4prog.ipp.prof\n");
	run_free(&r);
	sh("rm -f fig4prog.ipp.prof linkprog");
}

/* ------------------------------------------------------------------ */
/* ipp check (and ipp counts --check)                                   */
/* ------------------------------------------------------------------ */

/* The text of `ipp check ./fig4prog P` when Figure 9's loop-header arrivals
 * are wrong: main's loop header v4 (while (i <= 18), fig4.c:34) is left
 * through its back edge v13 -> v4 once per iteration, 18 times, and each
 * departure is followed by one path restarting at v4 through the surrogate
 * edge Entry_main -> v4: 18 arrivals in a run.  'arrivals' is what profile
 * P says; the back edge is v4's only removed in-edge, so its count is
 * determined by v13's 18 departures.  'partials' records of P, 'execs'
 * executions in all. */
static void check_violation_text(char *buf, size_t len, unsigned arrivals, unsigned partials,
				 unsigned long execs)
{
	snprintf(buf, len,
		 "fig4.c: violation: main: removed edges: surrogate arrivals != surrogate "
		 "departures: %u != 18\n"
		 "fig4.c: violation: main: vertex %d (block, fig4.c:%d): removed in-edges != "
		 "surrogate arrivals: 18 != %u\n"
		 "fig4.c: 1 run, 12 paths, %u partial path%s, %lu executions: 2 flow violations\n"
		 "2 flow violations\n", arrivals, (int)fig4_vertex("v4"), fig4_line_of("v4"),
		 arrivals, partials, partials == 1 ? "" : "s", execs);
}

static void test_check(void)
{
	unsigned long execs = 0;
	char want[1024];
	struct run r, r2;

	for (size_t i = 0; i < fig4_figure9_len; i++)
		execs += fig4_figure9[i].count;		/* 49 */

	/* fig9.prof, the profile of one complete run: valid */
	ipp(&r, "check ./fig4prog fig9.prof");
	CU_ASSERT_EQUAL(r.status, 0);
	snprintf(want, sizeof(want), "fig4.c: 1 run, %zu paths, 0 partial paths, %lu executions: "
		 "flow conserved\nflow conserved\n", fig4_figure9_len, execs);
	CU_ASSERT_STRING_EQUAL(r.out, want);
	CU_ASSERT_STRING_EQUAL(r.err, "");
	run_free(&r);

	/* Edited: path 35, main's last path (the loop exit: Entry_main -> v4
	 * (surrogate) -> v15 -> Exit_main), recorded twice instead of once.
	 * Its active suffix starts with the surrogate entry into v4, so v4
	 * counts 19 arrivals for the 18 departures through the back edge.
	 * Nothing else involves a removed edge (v4 -> v15 -> Exit_main and
	 * main's return balance locally), so exactly the two messages of the
	 * removed edges: the procedure's totals and v4's.  The edit is made
	 * on the profile's text form (`ipp profile`, which ipp reads back)
	 * and drops its digest line (docs/FORMAT.md), which would refuse the
	 * edited file before any flow is checked: this is what the flow
	 * check finds in a profile without one. */
	CU_ASSERT_EQUAL_FATAL(sh("'%s' profile fig9.prof | "
				 "sed -e 's/^  - \\[main, 35, 1\\]$/  - [main, 35, 2]/' "
				 "-e '/^digest: /d' > fig9bad.prof && "
				 "grep -q '\\[main, 35, 2\\]' fig9bad.prof", ipp_bin), 0);
	ipp(&r, "check ./fig4prog fig9bad.prof");
	CU_ASSERT_EQUAL(r.status, 1);
	check_violation_text(want, sizeof(want), 19, 0, execs + 1);
	CU_ASSERT_STRING_EQUAL(r.out, want);
	CU_ASSERT_STRING_EQUAL(r.err, "ipp: fig9bad.prof: flow is not conserved (2 violations)\n");

	/* ipp counts --check is the same check */
	ipp(&r2, "counts --check ./fig4prog fig9bad.prof");
	CU_ASSERT_EQUAL(r2.status, 1);
	CU_ASSERT_STRING_EQUAL(r2.out, r.out);
	CU_ASSERT_STRING_EQUAL(r2.err, r.err);
	run_free(&r);
	run_free(&r2);

	/* YAML: the check document; counts --check keeps its first key */
	ipp(&r, "check --format=yaml ./fig4prog fig9bad.prof");
	CU_ASSERT_EQUAL(r.status, 1);
	STARTS(r.out, "ipp_check: 1\nprogram: ./fig4prog\nprofile: fig9bad.prof\n");
	CONTAINS(r.out, "    runs: 1\n    paths: 12\n    partial_paths: 0\n    executions: 50\n"
		 "    violations: 2\n    inconclusive: 0\n");
	CONTAINS(r.out, "      - \"violation: main: removed edges: surrogate arrivals != surrogate "
		 "departures: 19 != 18\"\n");
	CONTAINS(r.out, "\nconserved: false\n");
	run_free(&r);
	ipp(&r, "counts --check --format=json ./fig4prog fig9.prof");
	CU_ASSERT_EQUAL(r.status, 0);
	STARTS(r.out, "{\n  \"ipp_counts\": 1,\n");
	CONTAINS(r.out, "\"executions\": \"49\",\n      \"violations\": 0,\n");
	CONTAINS(r.out, "  \"conserved\": true\n}\n");
	run_free(&r);

	/* fig4.prof is not the profile of a run either: its partial path (path
	 * 18 cut at u4, recorded twice) starts with the surrogate edge
	 * Entry_main -> v4, a loop restart that no back edge preceded: 18 + 2
	 * arrivals. */
	ipp(&r, "check ./fig4prog fig4.prof");
	CU_ASSERT_EQUAL(r.status, 1);
	check_violation_text(want, sizeof(want), 20, 1, execs + 2);
	CU_ASSERT_STRING_EQUAL(r.out, want);
	run_free(&r);

	/* Saturated: path 35 recorded 2^64-1 times.  Every check that involves
	 * a count it passes is inconclusive, not a violation: in- and out-flow
	 * of the three vertices of its active suffix, v4 (fig4.c:34), v15
	 * (return 0, fig4.c:45) and Exit_main (fig4.c:47) -- 6 checks -- and
	 * the two removed-edge checks at main and v4: 8.  The profile is not
	 * refused. */
	CU_ASSERT_EQUAL_FATAL(sh("'%s' profile fig9.prof | "
				 "sed -e 's/^  - \\[main, 35, 1\\]$/  - [main, 35, "
				 "18446744073709551615]/' -e '/^digest: /d' > fig9sat.prof && "
				 "grep -q '\\[main, 35, 18446744073709551615\\]' fig9sat.prof",
				 ipp_bin), 0);
	ipp(&r, "check ./fig4prog fig9sat.prof");
	CU_ASSERT_EQUAL(r.status, 0);
	CONTAINS(r.out, "fig4.c: inconclusive: main: removed edges: surrogate arrivals != "
		 "surrogate departures: a count saturated\n");
	snprintf(want, sizeof(want), "fig4.c: 1 run, 12 paths, 0 partial paths, "
		 "18446744073709551615 executions: no flow violation (8 checks inconclusive: "
		 "counts saturated)\nno flow violation (8 checks inconclusive: counts "
		 "saturated)\n");
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, want));
	LACKS(r.out, "violation: ");
	run_free(&r);
	ipp(&r, "check --format=yaml ./fig4prog fig9sat.prof");
	CONTAINS(r.out, "    violations: 0\n    inconclusive: 8\n");
	CONTAINS(r.out, "\nconserved: true\n");
	run_free(&r);

	/* a unit that did not run is valid */
	ipp(&r, "check ./twoprog fig9.prof");
	CU_ASSERT_EQUAL(r.status, 0);
	snprintf(want, sizeof(want), "chain.c: not in the profile (never ran)\n"
		 "fig4.c: 1 run, %zu paths, 0 partial paths, %lu executions: flow conserved\n"
		 "flow conserved\n", fig4_figure9_len, execs);
	CU_ASSERT_STRING_EQUAL(r.out, want);
	run_free(&r);

	/* a profile that does not match the maps: an error, as for report */
	fails("check ./fig4prog wrongsum.prof", "./fig4prog: ", "different build of fig4.c");
	fails("check ./fig4prog badnum.prof", "badnum.prof: ", "out of range");
	fails("check ./fig4prog badregion.prof", "badregion.prof: ", "nosuch");
	fails("check ./fig4prog corrupt.prof", "corrupt.prof:", "corrupt.prof");
	fails("check ./fig4prog nosuch.prof", "nosuch.prof: ", "no such file");
	fails("check ./plainprog fig9.prof", "./plainprog: ", "has no ipp map");

	/* usage */
	ipp(&r, "check");
	CU_ASSERT_EQUAL(r.status, 2);
	CONTAINS(r.err, "ipp check: no PROGRAM given");
	CONTAINS(r.err, "Usage: ipp check");
	run_free(&r);
	ipp(&r, "check ./fig4prog fig9.prof extra");
	CU_ASSERT_EQUAL(r.status, 2);
	CONTAINS(r.err, "unexpected argument 'extra'");
	run_free(&r);
	ipp(&r, "check --format=xml ./fig4prog fig9.prof");
	CU_ASSERT_EQUAL(r.status, 2);
	CONTAINS(r.err, "unknown format 'xml'");
	run_free(&r);
	ipp(&r, "counts --check --lines ./fig4prog fig9.prof");
	CU_ASSERT_EQUAL(r.status, 2);
	CONTAINS(r.err, "--check and --lines: choose one");
	run_free(&r);
}

static void test_usage(void)
{
	static const char *const cmds[] = { "report", "decode", "map", "demo", "counts", "check" };
	struct run r;

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char want[64];
		ipp(&r, "%s --help", cmds[i]);
		CU_ASSERT_EQUAL(r.status, 0);
		snprintf(want, sizeof(want), "Usage: ipp %s", cmds[i]);
		CU_ASSERT(strncmp(r.out, want, strlen(want)) == 0);
		run_free(&r);

		ipp(&r, "%s --no-such-option ./fig4prog", cmds[i]);
		CU_ASSERT_EQUAL(r.status, 2);
		CU_ASSERT_STRING_EQUAL(r.out, "");
		CONTAINS(r.err, "no-such-option");
		CONTAINS(r.err, want);
		run_free(&r);
	}
	ipp(&r, "report");
	CU_ASSERT_EQUAL(r.status, 2);
	CONTAINS(r.err, "no PROGRAM");
	run_free(&r);
	ipp(&r, "report --format=xml ./fig4prog");
	CU_ASSERT_EQUAL(r.status, 2);
	CONTAINS(r.err, "xml");
	run_free(&r);
	ipp(&r, "report --top 0 ./fig4prog");
	CU_ASSERT_EQUAL(r.status, 2);
	run_free(&r);
	ipp(&r, "report ./fig4prog fig4.prof extra");
	CU_ASSERT_EQUAL(r.status, 2);
	run_free(&r);
	ipp(&r, "nosuchcommand");
	CU_ASSERT_EQUAL(r.status, 2);
	run_free(&r);

	/* --output writes the file, and nothing to stdout */
	ipp(&r, "report -o out.txt ./fig4prog fig4.prof");
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.out, "");
	run_free(&r);
	{
		char path[PATH_MAX + 16], *text;
		tmp_path(path, sizeof(path), "out.txt");
		text = slurp(path);
		CU_ASSERT_PTR_NOT_NULL(text);
		if (text != NULL)
			golden("report_top.txt", text);
		free(text);
	}
}

/* Names that YAML and JSON must quote and escape come back intact. */
static void test_escaping(void)
{
	struct run r;

	ipp(&r, "report --cuts --format=yaml ./weirdprog");
	CU_ASSERT_EQUAL(r.status, 0);
	CONTAINS(r.out, "  - name: \"dir with space/\xc3\xbcn\xc3\xaf" "code \\\"q\\\" \\\\ "
		 "#1: true.c\"\n");
	CONTAINS(r.out, "    mode: intra\n");
	run_free(&r);

	ipp(&r, "report --cuts --format=json ./weirdprog");
	CU_ASSERT_EQUAL(r.status, 0);
	CONTAINS(r.out, "      \"name\": \"dir with space/\xc3\xbcn\xc3\xaf" "code \\\"q\\\" "
		 "\\\\ #1: true.c\",\n");
	run_free(&r);
}

/* `ipp demo` (make demo) is unchanged */
static void test_demo(void)
{
	struct run r;

	ipp(&r, "demo");
	CU_ASSERT_EQUAL(r.status, 0);
	golden("demo.txt", r.out);
	run_free(&r);
}

int main(void)
{
	CU_pSuite s;
	unsigned failures;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("ipp tool", suite_init, suite_clean);
	if (s == NULL ||
	    CU_add_test(s, "report: Figure 9 ranking, text", test_report_text) == NULL ||
	    CU_add_test(s, "report: --all YAML, path 16", test_report_all_yaml) == NULL ||
	    CU_add_test(s, "report: JSON strings", test_report_json) == NULL ||
	    CU_add_test(s, "report: text paths, partial, regions", test_report_text_paths) == NULL ||
	    CU_add_test(s, "report: profile of another build", test_wrong_build) == NULL ||
	    CU_add_test(s, "two units linked, archive", test_two_units) == NULL ||
	    CU_add_test(s, "report --cuts", test_cuts) == NULL ||
	    CU_add_test(s, "counts --calls: callees named", test_calls) == NULL ||
	    CU_add_test(s, "counts --events: Figure 9", test_events) == NULL ||
	    CU_add_test(s, "decode: path 35, partial", test_decode) == NULL ||
	    CU_add_test(s, "decode: errors", test_decode_errors) == NULL ||
	    CU_add_test(s, "check: flow conservation, counts --check", test_check) == NULL ||
	    CU_add_test(s, "errors", test_errors) == NULL ||
	    CU_add_test(s, "usage", test_usage) == NULL ||
	    CU_add_test(s, "escaping", test_escaping) == NULL ||
	    CU_add_test(s, "demo unchanged", test_demo) == NULL) {
		CU_cleanup_registry();
		return 2;
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	if (CU_basic_run_tests() != CUE_SUCCESS) {
		CU_cleanup_registry();
		return 2;
	}
	failures = CU_get_number_of_failures() + CU_get_number_of_suites_failed();
	CU_cleanup_registry();
	return failures ? 1 : 0;
}
