/* cmd_map.c -- `ipp map PROGRAM`: the maps embedded in a program, as the
 * YAML stream stored in its .ipp_map section (for debugging), or with
 * --list one line per unit after checking that it renumbers exactly.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "cli.h"
#include "program.h"

static void map_usage(FILE *f)
{
	fputs("Usage: ipp map [OPTIONS] PROGRAM\n"
	      "\n"
	      "Prints the maps embedded in PROGRAM (an executable, shared object, object\n"
	      "file or archive built with ipp-gcc): the contents of its .ipp_map\n"
	      "section, a YAML stream with one map document per compilation unit\n"
	      "(docs/FORMAT.md), exactly as stored, with the linker's NUL padding\n"
	      "removed.  Nothing is parsed, so a corrupt map can be inspected too.\n"
	      "\n"
	      "With --list, every map is parsed and renumbered instead (as ipp report\n"
	      "does, checking the psi/rho digest), and one line per unit is printed:\n"
	      "module, checksum, mode, number of regions, total number of paths.\n"
	      "\n"
	      "Options:\n"
	      "  -l, --list           one checked line per unit instead of the YAML\n"
	      "  -o, --output=FILE    write to FILE instead of standard output\n"
	      "  -h, --help           show this help and exit\n"
	      "\n"
	      "Exit status: 0 on success, 1 on error (no map, not ELF, truncated; with\n"
	      "--list also a corrupt map or one this ipp renumbers differently), 2 on a\n"
	      "usage error.\n",
	      f);
}

static int list_units(FILE *out, const char *program)
{
	struct program prog;
	char err[1024];
	mpz_t total;

	if (program_load(&prog, program, true, err, sizeof(err)) < 0)
		return cli_error("%s", err);
	mpz_init(total);
	for (size_t i = 0; i < prog.nmods; i++) {
		const struct prog_module *m = &prog.mods[i];
		ipp_fin_total(m->fin, total);
		size_t nreg = ipp_fin_nregions(m->fin);
		gmp_fprintf(out, "%s  %s  %s  %zu %s  %Zd %s\n", m->map->module, m->checksum,
			    ipp_mode_name(m->map->mode), nreg, nreg == 1 ? "region" : "regions",
			    total, mpz_cmp_ui(total, 1) == 0 ? "path" : "paths");
	}
	mpz_clear(total);
	program_free(&prog);
	return EXIT_SUCCESS;
}

int cmd_map(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "list", no_argument, NULL, 'l' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd = argv[0], *output = NULL, *program;
	bool list = false;
	char err[1024], *text = NULL;
	size_t len = 0;
	int c, status;
	FILE *out;

	while ((c = getopt_long(argc, argv, "lo:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			list = true;
			break;
		default:
			status = cli_common_option(c, cmd, map_usage, NULL, &output);
			if (status != CLI_CONTINUE)
				return status;
		}
	}
	if (optind >= argc)
		return cmd_usage_error(cmd, map_usage, "no PROGRAM given");
	if (argc - optind > 1)
		return cmd_usage_error(cmd, map_usage, "unexpected argument '%s'", argv[optind + 1]);
	program = argv[optind];

	if (list) {
		out = open_output(output);
		if (out == NULL)
			return EXIT_FAILURE;
		status = list_units(out, program);
		if (close_output(out, output) != EXIT_SUCCESS)
			status = EXIT_FAILURE;
		return status;
	}
	if (program_map_text(program, &text, &len, err, sizeof(err)) < 0)
		return cli_error("%s", err);
	out = open_output(output);
	if (out == NULL) {
		free(text);
		return EXIT_FAILURE;
	}
	fwrite(text, 1, len, out);
	free(text);
	return close_output(out, output);
}
