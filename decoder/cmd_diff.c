/* cmd_diff.c -- `ipp diff PROGRAM A B`: where two runs of a program
 * parted.  The comparison is diff.c's, the printing write_diff.c's; this
 * file reads the command line and the inputs.  The exit status is diff(1)'s:
 * 0 the path spectra are equal, 1 they differ, 2 trouble (any error).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diff.h"
#include "diff_write.h"

#define DEFAULT_TOP 10
#define EXIT_TROUBLE 2		/* diff(1): an error, whatever it is */

static void diff_usage(FILE *f)
{
	fprintf(f,
		"Usage: ipp diff [OPTIONS] PROGRAM A B\n"
		"\n"
		"Compares the paths recorded in the profiles A and B of PROGRAM (their path\n"
		"spectra) and says where B went another way than A: typically A is a\n"
		"passing run and B a failing one.\n"
		"\n"
		"For every path that B executed and A never did, the closest path of A is\n"
		"the one of the same region with the longest common prefix (paths compared\n"
		"vertex by vertex, calls and returns included, so the calling context is\n"
		"the same); the vertex where the two part is the divergence point: the\n"
		"branch (function, file:line) where B went the other way, with the calls\n"
		"that were open there.  Paths that part at the same point in the same\n"
		"context are grouped; groups are ranked by how often B executed them:\n"
		"branches first (and paths that stop where the other goes on), then\n"
		"restarts of a loop that A never made in that context, then regions that A\n"
		"never entered.\n"
		"\n"
		"Then the paths only in B, the paths only in A, and the paths in both whose\n"
		"counts differ by more than a factor of --ratio, each list ranked and\n"
		"decoded as in ipp report.  Counts are compared as recorded (runs are not\n"
		"divided out).\n"
		"\n"
		"Options:\n"
		"  -r, --ratio=R        a path in both is listed when its larger count\n"
		"                       exceeds R times its smaller one (R >= 1; default 1:\n"
		"                       any difference)\n"
		"  -n, --top=N          print N entries of each list (default %d)\n"
		"  -a, --all            print every entry\n"
		"  -f, --format=FORMAT  text (default), yaml or json (docs/REPORT.md, \"The\n"
		"                       diff document\": a top-level 'divergences' list)\n"
		"  -o, --output=FILE    write to FILE instead of standard output\n"
		"  -h, --help           show this help and exit\n"
		"\n"
		"Exit status (as diff's): 0 if the path spectra are equal (the same paths,\n"
		"counts within the ratio), 1 if they differ, 2 on any error.\n"
		"\n"
		"Example:\n"
		"  IPP_PROFILE=pass.prof ./prog good-input\n"
		"  IPP_PROFILE=fail.prof ./prog bad-input\n"
		"  ipp diff ./prog pass.prof fail.prof\n",
		DEFAULT_TOP);
}

static int parse_ratio(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !isfinite(v) || v < 1.0)
		return -1;
	*out = v;
	return 0;
}

/* The records any list may print, decoded before the first line is written
 * (so that a failure prints nothing). */
static int decode_shown(struct diff *d, size_t top, char *err, size_t errlen)
{
	struct diff_path **lists[3] = { d->only_b, d->only_a, d->changed };
	size_t sizes[3] = { d->nonly_b, d->nonly_a, d->nchanged };

	for (size_t i = 0; i < d->ndivs && i < top; i++)
		for (size_t k = 0; k < d->divs[i].nmembers; k++) {
			const struct div_member *m = &d->divs[i].members[k];
			if (diff_decode(d, m->p->b, err, errlen) < 0 ||
			    (m->closest != NULL && diff_decode(d, m->closest, err, errlen) < 0))
				return -1;
		}
	for (size_t l = 0; l < 3; l++)
		for (size_t i = 0; i < sizes[l] && i < top; i++) {
			struct diff_path *p = lists[l][i];
			if (diff_decode(d, p->b != NULL ? p->b : p->a, err, errlen) < 0)
				return -1;
		}
	return 0;
}

int cmd_diff(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "ratio", required_argument, NULL, 'r' },
		{ "top", required_argument, NULL, 'n' },
		{ "all", no_argument, NULL, 'a' },
		CLI_COMMON_LONGOPTS,
	};
	const char *cmd = argv[0], *output = NULL, *program, *name_a, *name_b;
	enum out_format format = FORMAT_TEXT;
	size_t top = DEFAULT_TOP;
	double ratio = 1.0;
	ipp_profile *pa = NULL, *pb = NULL;
	struct program prog;
	struct diff d;
	char err[1024];
	int c, status;
	FILE *out;

	while ((c = getopt_long(argc, argv, "r:n:af:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			if (parse_ratio(optarg, &ratio) < 0)
				return cmd_usage_error(cmd, diff_usage, "--ratio: '%s' is not a "
						       "number >= 1", optarg);
			break;
		case 'n':
			if (parse_count(optarg, &top) < 0)
				return cmd_usage_error(cmd, diff_usage, "--top: '%s' is not a "
						       "positive number", optarg);
			break;
		case 'a':
			top = SIZE_MAX;
			break;
		default:
			status = cli_common_option(c, cmd, diff_usage, &format, &output);
			if (status != CLI_CONTINUE)
				return status;
		}
	}
	if (argc - optind < 3)
		return cmd_usage_error(cmd, diff_usage, argc == optind ? "no PROGRAM given" :
				       argc - optind == 1 ? "no profiles A and B given" :
				       "no profile B given");
	if (argc - optind > 3)
		return cmd_usage_error(cmd, diff_usage, "unexpected argument '%s'",
				       argv[optind + 3]);
	program = argv[optind];
	name_a = argv[optind + 1];
	name_b = argv[optind + 2];

	if (program_load(&prog, program, false, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		return EXIT_TROUBLE;
	}
	status = EXIT_TROUBLE;
	pa = cli_read_profile(name_a, program);
	if (pa == NULL)
		goto out;
	pb = cli_read_profile(name_b, program);
	if (pb == NULL)
		goto out;
	if (program_renumber_profile(&prog, pa, err, sizeof(err)) < 0 ||
	    program_renumber_profile(&prog, pb, err, sizeof(err)) < 0 ||
	    diff_build(&d, &prog, pa, name_a, pb, name_b, ratio, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		goto out;
	}
	if (decode_shown(&d, top, err, sizeof(err)) < 0) {
		cli_error("%s", err);
	} else if ((out = open_output(output)) != NULL) {
		if (write_diff(out, format, &d, top, err, sizeof(err)) < 0)
			cli_error("%s", err);
		else if (close_output(out, output) == EXIT_SUCCESS)
			status = diff_equal(&d) ? EXIT_SUCCESS : EXIT_FAILURE;
	}
	diff_free(&d);
out:
	ipp_profile_free(pa);
	ipp_profile_free(pb);
	program_free(&prog);
	return status;
}
