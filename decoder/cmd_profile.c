/* cmd_profile.c -- `ipp profile PROFILE`: the records of a profile as
 * text.  The profile on disk is binary (docs/FORMAT.md section 3); this
 * prints it in its text form (section 3.6), records in canonical order,
 * which `ipp` reads back: what a person or a test reads a profile
 * through, and how one is written by hand (`ipp merge OUT TEXT` turns the
 * text back into a binary profile the runtime can merge into).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void profile_usage(FILE *f)
{
	fputs("Usage: ipp profile [OPTIONS] PROFILE\n"
	      "\n"
	      "Prints the records of PROFILE (the binary file the runtime writes) as\n"
	      "YAML text: per unit its name, checksum, mode and runs, its paths\n"
	      "[region, number, count], partial paths and forked prefixes [region,\n"
	      "number, [stop stack], count] and indirect calls [site, callee unit,\n"
	      "checksum, callee region, count], sorted (docs/FORMAT.md, section 3).\n"
	      "The text is a profile too: ipp reads it, and `ipp merge OUT TEXT`\n"
	      "writes it back as a binary profile.\n"
	      "\n"
	      "Options:\n"
	      "      --format=yaml  the text form (the only one, and the default)\n"
	      "  -h, --help         show this help and exit\n"
	      "\n"
	      "Exit status: 0 on success, 1 if PROFILE cannot be read, 2 on a usage\n"
	      "error.\n",
	      f);
}

int cmd_profile(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd = argv[0];
	char err[1024];
	ipp_profile *p;
	int c, status;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == 'f') {
			if (strcmp(optarg, "yaml") != 0)
				return cmd_usage_error(cmd, profile_usage, "unknown format '%s' "
						       "(known: yaml)", optarg);
			continue;
		}
		status = cli_common_option(c, cmd, profile_usage, NULL, NULL);
		if (status != CLI_CONTINUE)
			return status;
	}
	if (optind >= argc)
		return cmd_usage_error(cmd, profile_usage, "no PROFILE given");
	if (optind + 1 < argc)
		return cmd_usage_error(cmd, profile_usage, "one PROFILE only");
	p = ipp_profile_read_file(argv[optind], err, sizeof(err));
	if (!p) {
		cli_error("%s", err);
		return EXIT_FAILURE;
	}
	status = ipp_profile_write_text(stdout, p, err, sizeof(err)) < 0 ? EXIT_FAILURE
									 : EXIT_SUCCESS;
	if (status != EXIT_SUCCESS)
		cli_error("%s", err);
	ipp_profile_free(p);
	return status;
}
