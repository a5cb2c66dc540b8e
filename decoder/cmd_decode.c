/* cmd_decode.c -- `ipp decode PROGRAM NUMBER`: one path decoded from its
 * number (any size: parsed with GMP), and with --stack the partial path
 * that stopped there.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "cli.h"
#include "program.h"
#include "text.h"
#include "report.h"
#include "writers.h"

static void decode_usage(FILE *f)
{
	fputs("Usage: ipp decode [OPTIONS] PROGRAM NUMBER\n"
	      "       ipp decode [OPTIONS] --partial --stack=V1,V2,... PROGRAM NUMBER\n"
	      "       ipp decode [OPTIONS] --rank=N PROGRAM [PROFILE]\n"
	      "\n"
	      "Decodes path NUMBER of a region of one unit of PROGRAM into the vertices\n"
	      "it goes through, with the maps embedded in PROGRAM (see ipp report\n"
	      "--help).  Paths are numbered from 0 within each region; a region is a\n"
	      "function through which paths enter the unit, named by its assembler name\n"
	      "(\"NAME#g\" for a piecewise GEntry region).  NUMBER may have any number of\n"
	      "digits.\n"
	      "\n"
	      "A partial path (one abandoned by exit, longjmp or a signal) is identified\n"
	      "by its number so far and its stop stack: the call vertices of the calls\n"
	      "still open, outermost first, then the vertex where it stopped (G*fin\n"
	      "vertex ids, as in the profile and in the 'stack' field of the YAML\n"
	      "report).\n"
	      "\n"
	      "With --rank, the path is the one at rank N of the profile (default\n"
	      "" DEFAULT_PROFILE "): the ranking ipp report computes for it (by count,\n"
	      "ties by unit, region and number), so ranks read in a report of the same\n"
	      "profile, filtered or not, name the same paths.\n"
	      "\n"
	      "Options:\n"
	      "  -m, --module=MODULE  the unit: its source file name as in the map (or\n"
	      "                       its base name, if no other unit has it), its\n"
	      "                       checksum, or NAME@CHECKSUM; needed if PROGRAM has\n"
	      "                       several units\n"
	      "  -k, --rank=N         the path at rank N of PROFILE (see above)\n"
	      "  -w, --width=N        text: fit the path in N columns (0: no limit;\n"
	      "                       default: the terminal's width, else $COLUMNS)\n"
	      "  -R, --region=REGION  the region; needed if the unit has several\n"
	      "  -g, --global         NUMBER is a global number (region offset + number\n"
	      "                       within the region, the paper's numbering); the\n"
	      "                       region is found from it\n"
	      "  -p, --partial        decode a partial path; needs --stack\n"
	      "  -s, --stack=LIST     the stop stack, comma-separated vertex ids\n"
	      "  -f, --format=FORMAT  text (default), yaml or json (docs/REPORT.md)\n"
	      "  -r, --regions        also print the unit's region table\n"
	      "  -o, --output=FILE    write to FILE instead of standard output\n"
	      "  -h, --help           show this help and exit\n"
	      "\n"
	      "Exit status: 0 on success, 1 on error (unknown module or region, number\n"
	      "out of range, no such partial path, unreadable program), 2 on a usage\n"
	      "error.\n"
	      "\n"
	      "Examples:\n"
	      "  ipp decode ./prog --region main 35\n"
	      "  ipp decode --rank 3 ./prog run.prof\n"
	      "  ipp decode ./prog --module fig4.c --region main --partial --stack 8,27 40\n",
	      f);
}

/* A non-negative decimal number of any size. */
static int parse_number(const char *s, mpz_t out)
{
	if (*s == '\0' || strspn(s, "0123456789") != strlen(s))
		return -1;
	return mpz_set_str(out, s, 10) == 0 ? 0 : -1;
}

/* "3,17,42" into a malloc'd array. */
static int parse_stack(const char *s, ipp_id **out, size_t *n)
{
	size_t cap = 0;
	const char *p = s;

	*out = NULL;
	*n = 0;
	for (;;) {
		long v;
		char *end;

		if (*p < '0' || *p > '9')
			goto bad;
		errno = 0;
		v = strtol(p, &end, 10);
		if (errno != 0 || v > INT32_MAX - 1)
			goto bad;
		GROW(*out, *n, cap);
		(*out)[(*n)++] = (ipp_id)v;
		if (*end == '\0')
			return 0;
		if (*end != ',')
			goto bad;
		p = end + 1;
	}
bad:
	free(*out);
	*out = NULL;
	*n = 0;
	return -1;
}

static int print_path(struct report *r, enum out_format format, const char *output,
		      bool regions, size_t width)
{
	FILE *out = open_output(output);

	if (out == NULL)
		return EXIT_FAILURE;
	r->show_regions = regions;
	r->width = width != SIZE_MAX ? width : text_width(out);
	write_report(out, format, r);
	return close_output(out, output);
}

/* ipp decode --rank=N PROGRAM [PROFILE]: the record at rank N of the
 * profile's ranking (report_from_profile's), decoded as by its number. */
static int decode_rank(int argc, char **argv, size_t rank, enum out_format format,
		       const char *output, bool regions, size_t width, bool by_number)
{
	const char *cmd = argv[0], *program, *profile = DEFAULT_PROFILE;
	struct report ranking, r;
	struct program prog;
	ipp_profile *prof;
	ipp_region_info info;
	char err[1024];
	int status;

	if (by_number)
		return cmd_usage_error(cmd, decode_usage, "--rank names the path: it excludes "
				       "--module, --region, --global, --partial and --stack");
	status = cli_program_profile(argc, argv, cmd, decode_usage, &program, &profile);
	if (status != CLI_CONTINUE)
		return status;
	if (program_load(&prog, program, regions, err, sizeof(err)) < 0)
		return cli_error("%s", err);
	status = EXIT_FAILURE;
	prof = cli_read_profile(profile, program);
	if (prof == NULL)
		goto out;
	if (program_renumber_profile(&prog, prof, true, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		goto out_prof;
	}
	if (report_from_profile(&ranking, &prog, prof, profile, 0, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		goto out_prof;
	}
	if (rank > ranking.nrecs) {
		cli_error("%s: has no path of rank %zu: it records %zu %s", profile, rank,
			  ranking.nrecs, ranking.nrecs == 1 ? "path" : "paths");
	} else {
		const struct rec *x = &ranking.recs[rank - 1];
		mpz_t num;
		int rc;
		mpz_init(num);
		ipp_pnum_get(&x->num, num);
		ipp_fin_region(prog.mods[x->mod].fin, x->region, &info);
		rc = report_single(&r, &prog, x->mod, info.name, num, x->stack,
				   x->partial ? x->nstack : 0, err, sizeof(err));
		mpz_clear(num);
		if (rc < 0) {
			cli_error("%s", err);
		} else {
			/* a path that counts inlined copies' runs as its
			 * function's says so, as in the ranking */
			if (x->nfolds > 0) {
				struct rec *y = &r.recs[0];
				y->folds = xmalloc(x->nfolds * sizeof(*y->folds));
				memcpy(y->folds, x->folds, x->nfolds * sizeof(*y->folds));
				y->nfolds = x->nfolds;
			}
			status = print_path(&r, format, output, regions, width);
			report_free(&r);
		}
	}
	report_free(&ranking);
out_prof:
	ipp_profile_free(prof);
out:
	program_free(&prog);
	return status;
}

int cmd_decode(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "module", required_argument, NULL, 'm' },
		{ "region", required_argument, NULL, 'R' },
		{ "global", no_argument, NULL, 'g' },
		{ "partial", no_argument, NULL, 'p' },
		{ "stack", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "regions", no_argument, NULL, 'r' },
		{ "rank", required_argument, NULL, 'k' },
		{ "width", required_argument, NULL, 'w' },
		CLI_COMMON_LONGOPTS,
	};
	const char *cmd = argv[0], *module = NULL, *region = NULL, *output = NULL;
	const char *stack_arg = NULL, *program, *number;
	enum out_format format = FORMAT_TEXT;
	bool global = false, partial = false, regions = false;
	ipp_id *stack = NULL;
	size_t nstack = 0, rank = 0, width = SIZE_MAX;
	struct program prog;
	struct report r;
	char err[1024];
	int c, status;
	long mod;
	mpz_t num, local;

	while ((c = getopt_long(argc, argv, "m:R:gps:f:rk:w:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'k':
			if (parse_count(optarg, &rank) < 0)
				return cmd_usage_error(cmd, decode_usage, "--rank: '%s' is not a "
						       "positive number", optarg);
			break;
		case 'w':
			if (parse_width(optarg, &width) < 0)
				return cmd_usage_error(cmd, decode_usage, "--width: '%s' is not 0 "
						       "or a number of columns from 20", optarg);
			break;
		case 'm':
			module = optarg;
			break;
		case 'R':
			region = optarg;
			break;
		case 'g':
			global = true;
			break;
		case 'p':
			partial = true;
			break;
		case 's':
			stack_arg = optarg;
			break;
		case 'r':
			regions = true;
			break;
		default:
			status = cli_common_option(c, cmd, decode_usage, &format, &output);
			if (status != CLI_CONTINUE)
				return status;
		}
	}
	if (rank > 0)
		return decode_rank(argc, argv, rank, format, output, regions, width,
				   module != NULL || region != NULL || global || partial ||
				   stack_arg != NULL);
	if (argc - optind < 2)
		return cmd_usage_error(cmd, decode_usage, argc == optind ? "no PROGRAM given" :
				       "no NUMBER given");
	if (argc - optind > 2)
		return cmd_usage_error(cmd, decode_usage, "unexpected argument '%s'",
				       argv[optind + 2]);
	program = argv[optind];
	number = argv[optind + 1];
	if (partial != (stack_arg != NULL))
		return cmd_usage_error(cmd, decode_usage, partial ? "--partial needs --stack" :
				       "--stack needs --partial");
	if (global && region != NULL)
		return cmd_usage_error(cmd, decode_usage, "--global and --region exclude each "
				       "other: a global number determines its region");

	status = EXIT_FAILURE;
	mpz_init(num);
	mpz_init(local);
	if (parse_number(number, num) < 0) {
		mpz_clear(num);
		mpz_clear(local);
		return cmd_usage_error(cmd, decode_usage, "NUMBER: '%s' is not a non-negative "
				       "decimal number", number);
	}
	if (stack_arg != NULL && parse_stack(stack_arg, &stack, &nstack) < 0) {
		mpz_clear(num);
		mpz_clear(local);
		return cmd_usage_error(cmd, decode_usage, "--stack: '%s' is not a comma-separated "
				       "list of vertex ids", stack_arg);
	}

	if (program_load(&prog, program, false, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		goto out_noprog;
	}
	mod = program_select(&prog, module, err, sizeof(err));
	if (mod < 0 || program_renumber(&prog, (size_t)mod, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		goto out;
	}
	if (global) {
		const ipp_fin *fin = prog.mods[mod].fin;
		ipp_id rid = region_of_global(fin, num, local);
		ipp_region_info info;
		if (rid == IPP_NONE) {
			mpz_t total;
			mpz_init(total);
			ipp_fin_total(fin, total);
			gmp_snprintf(err, sizeof(err), "%s: global path number %Zd is out of range: "
				     "module %s has %Zd paths, numbered from 0", program, num,
				     prog.mods[mod].map->module, total);
			mpz_clear(total);
			cli_error("%s", err);
			goto out;
		}
		ipp_fin_region(fin, rid, &info);
		region = info.name;
		mpz_set(num, local);
	}
	if (report_single(&r, &prog, (size_t)mod, region, num, stack, nstack, err,
			  sizeof(err)) < 0) {
		cli_error("%s", err);
		goto out;
	}
	status = print_path(&r, format, output, regions, width);
	report_free(&r);
out:
	program_free(&prog);
out_noprog:
	free(stack);
	mpz_clear(num);
	mpz_clear(local);
	return status;
}
