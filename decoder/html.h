/* html.h -- `ipp html`: static pages of a profile (cmd_html.c) and the
 * assets they load (html_assets.c).
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#ifndef IPP_DECODER_HTML_H
#define IPP_DECODER_HTML_H

#include "cli.h"

/* The directory the assets are taken from (malloc'd; it may not exist). */
char *html_assets_find(void);

/* Copies the assets into OUTDIR/assets.  Returns 0, or -1 after a message
 * that says why they are not there (not vendored at build time: the
 * reason vendor.sh recorded; not installed). */
int html_assets_copy(const char *outdir);

#endif
