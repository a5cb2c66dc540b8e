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
#include "report.h"
#include "writers.h"

static void decode_usage(FILE *f)
{
	fputs("Usage: ipp decode [OPTIONS] PROGRAM NUMBER\n"
	      "       ipp decode [OPTIONS] --partial --stack=V1,V2,... PROGRAM NUMBER\n"
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
	      "Options:\n"
	      "  -m, --module=MODULE  the unit: its source file name as in the map, its\n"
	      "                       checksum, or NAME@CHECKSUM; needed if PROGRAM has\n"
	      "                       several units\n"
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
		CLI_COMMON_LONGOPTS,
	};
	const char *cmd = argv[0], *module = NULL, *region = NULL, *output = NULL;
	const char *stack_arg = NULL, *program, *number;
	enum out_format format = FORMAT_TEXT;
	bool global = false, partial = false, regions = false;
	ipp_id *stack = NULL;
	size_t nstack = 0;
	struct program prog;
	struct report r;
	char err[1024];
	int c, status;
	long mod;
	mpz_t num, local;
	FILE *out;

	while ((c = getopt_long(argc, argv, "m:R:gps:f:ro:h", longopts, NULL)) != -1) {
		switch (c) {
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

	if (program_load(&prog, program, true, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		goto out_noprog;
	}
	mod = program_select(&prog, module, err, sizeof(err));
	if (mod < 0) {
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
	r.show_regions = regions;
	out = open_output(output);
	if (out != NULL) {
		write_report(out, format, &r);
		status = close_output(out, output);
	}
	report_free(&r);
out:
	program_free(&prog);
out_noprog:
	free(stack);
	mpz_clear(num);
	mpz_clear(local);
	return status;
}
