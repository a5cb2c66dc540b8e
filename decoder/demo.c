/* demo.c -- `ipp demo`: the paper's Figure 4 program numbered and its
 * Figure 9 profile decoded, from the supergraph built by fig4.c; no plugin,
 * map or profile needed.  `make demo` runs it.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "ipp_core.h"
#include "fig4.h"
#include "cli.h"
#include "report.h"

static void demo_usage(FILE *f)
{
	fprintf(f,
		"Usage: ipp demo [--help]\n"
		"\n"
		"Numbers the paths of the paper's Figure 4 program (supergraph of\n"
		"Figure 5, interprocedural context mode), prints how many there are,\n"
		"then decodes the paths executed in the paper's Figure 9 run, most\n"
		"frequent first: count, path number, path.\n");
}

/* Sorts observations by count, descending, then by number, ascending. */
static int obs_cmp(const void *a, const void *b)
{
	const struct fig4_obs *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->number != y->number)
		return x->number < y->number ? -1 : 1;
	return 0;
}

int cmd_demo(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			demo_usage(stdout);
			return EXIT_SUCCESS;
		default:	/* getopt_long has printed the error */
			fputc('\n', stderr);
			demo_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "ipp demo: unexpected argument '%s'\n\n", argv[optind]);
		demo_usage(stderr);
		return EXIT_USAGE;
	}

	char err[256] = "";
	int status = EXIT_FAILURE;
	ipp_graph *g = NULL;
	ipp_fin *fin = NULL;
	struct fig4_obs *obs = NULL;
	mpz_t total, global, local;

	mpz_init(total);
	mpz_init(global);
	mpz_init(local);

	g = fig4_graph();
	if (g == NULL) {
		fprintf(stderr, "ipp demo: cannot build the Figure 4 supergraph\n");
		goto out;
	}
	fin = ipp_fin_new(g, IPP_MODE_CONTEXT, NULL, err, sizeof err);
	if (fin == NULL) {
		fprintf(stderr, "ipp demo: cannot number the Figure 4 supergraph: %s\n", err);
		goto out;
	}

	/* Figure 9's observations, most frequent first. */
	obs = malloc(fig4_figure9_len * sizeof *obs);
	if (obs == NULL) {
		perror("ipp demo");
		goto out;
	}
	memcpy(obs, fig4_figure9, fig4_figure9_len * sizeof *obs);
	qsort(obs, fig4_figure9_len, sizeof *obs, obs_cmp);

	unsigned long runs = 0;
	for (size_t i = 0; i < fig4_figure9_len; i++)
		runs += obs[i].count;

	ipp_fin_total(fin, total);
	gmp_printf("The paper's Figure 4 program, interprocedural context mode:\n"
		   "%Zd paths in all; the run of Figure 9 executed %zu of them, %lu times.\n"
		   "\n"
		   "count  path  decoded path\n",
		   total, fig4_figure9_len, runs);

	for (size_t i = 0; i < fig4_figure9_len; i++) {
		ipp_path path;
		ipp_id region;

		mpz_set_ui(global, obs[i].number);
		region = region_of_global(fin, global, local);
		if (region == IPP_NONE) {
			fprintf(stderr, "ipp demo: path #%u is out of range\n", obs[i].number);
			goto out;
		}
		ipp_path_init(&path);
		if (ipp_decode(fin, region, local, &path, err, sizeof err) != 0) {
			fprintf(stderr, "ipp demo: cannot decode path #%u: %s\n",
				obs[i].number, err);
			ipp_path_free(&path);
			goto out;
		}
		printf("%5u  #%-3u  ", obs[i].count, obs[i].number);
		fig4_print_path(stdout, fin, &path);
		putchar('\n');
		ipp_path_free(&path);
	}
	status = EXIT_SUCCESS;

out:
	free(obs);
	mpz_clear(total);
	mpz_clear(global);
	mpz_clear(local);
	if (fin != NULL)
		ipp_fin_free(fin);
	if (g != NULL)
		ipp_graph_free(g);
	if (fflush(stdout) != 0) {
		perror("ipp demo: stdout");
		status = EXIT_FAILURE;
	}
	return status;
}

