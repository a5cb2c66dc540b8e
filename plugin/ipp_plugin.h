/* ipp_plugin.h -- shared between the plugin's files: options and the pass.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
 */
#ifndef IPP_PLUGIN_H
#define IPP_PLUGIN_H

#include <gmp.h>
#include "ipp_core.h"

struct ipp_options {
	enum ipp_mode mode;	/* -fplugin-arg-ipp-mode= */
	bool verbose;		/* -fplugin-arg-ipp-verbose */
	mpz_t limit;		/* -fplugin-arg-ipp-limit=N: paths per region */
};
extern struct ipp_options ipp_opts;

/* The pass: a SIMPLE_IPA_PASS to insert after build_ssa_passes. */
opt_pass *ipp_make_pass(gcc::context *ctxt);

/* The unit's map (a YAML document), produced by the pass; emitted into the
 * .ipp_map section at the end of the unit.  NULL if nothing was instrumented. */
extern char *ipp_unit_map;
extern size_t ipp_unit_map_len;

#define IPP_MAP_SECTION ".ipp_map"

#ifndef IPP_VERSION
#define IPP_VERSION "unknown"	/* the build passes -DIPP_VERSION */
#endif

#endif
