/* html_assets.c -- where `ipp html` finds the assets it copies into a
 * report (d3 and d3-flame-graph from npm, vendored at build time by
 * decoder/html/vendor.sh, and ipp's own script and style sheet), and the
 * copy.  Looked for, in order: $IPP_HTML_ASSETS; decoder/html/assets next
 * to the executable (an uninstalled build tree); ../share/ipp/html from
 * the executable's directory (an installation, moved or not); the
 * configured $(pkgdatadir)/html.
 *
 * Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).
 */
#include <config.h>

#include "html.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef IPP_HTML_ASSETS_DIR
#define IPP_HTML_ASSETS_DIR "/usr/local/share/ipp/html"
#endif

/* The files a report needs. */
static const char *const needed[] = {
	"d3.min.js", "d3-flamegraph.umd.min.js", "d3-flamegraph.css", "LICENSE.d3",
	"LICENSE.d3-flame-graph", "ipp-report.js", "ipp-report.css",
};
#define NNEEDED (sizeof needed / sizeof needed[0])

static bool is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static char *join(const char *a, const char *b)
{
	char *s = xmalloc(strlen(a) + strlen(b) + 2);
	sprintf(s, "%s/%s", a, b);
	return s;
}

char *html_assets_find(void)
{
	const char *env = getenv("IPP_HTML_ASSETS");
	char exe[4096];
	ssize_t n;

	if (env != NULL && *env != '\0')
		return xstrdup(env);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash, *p;
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash != NULL) {
			*slash = '\0';
			p = join(exe, "decoder/html/assets");
			if (is_dir(p))
				return p;
			free(p);
			p = join(exe, "../share/ipp/html");
			if (is_dir(p))
				return p;
			free(p);
		}
	}
	return xstrdup(IPP_HTML_ASSETS_DIR);
}

/* Reads the first line of dir/UNAVAILABLE into buf, if the file exists. */
static bool unavailable(const char *dir, char *buf, size_t len)
{
	char *p = join(dir, "UNAVAILABLE");
	FILE *f = fopen(p, "r");
	free(p);
	if (f == NULL)
		return false;
	if (fgets(buf, (int)len, f) == NULL)
		snprintf(buf, len, "no reason given");
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return true;
}

static int copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "rb"), *out;
	char buf[65536];
	size_t n;
	int rc = 0;

	if (in == NULL) {
		cli_error("%s: %s", from, strerror(errno));
		return -1;
	}
	out = fopen(to, "wb");
	if (out == NULL) {
		fclose(in);
		cli_error("%s: %s", to, strerror(errno));
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n) {
			rc = -1;
			break;
		}
	if (ferror(in) || fclose(out) != 0 || rc < 0) {
		cli_error("%s: write error: %s", to, strerror(errno));
		rc = -1;
	}
	fclose(in);
	return rc;
}

int html_assets_copy(const char *outdir)
{
	char reason[512];
	char *dir = html_assets_find(), *dst;
	int rc = 0;

	if (unavailable(dir, reason, sizeof(reason))) {
		cli_error("the flame graph's assets (d3 and d3-flame-graph from npm) were not "
			  "available when ipp was built: %s; rebuild ipp (make) where npm reaches "
			  "its registry, or point IPP_HTML_ASSETS at a directory holding them (%s)",
			  reason, dir);
		free(dir);
		return -1;
	}
	for (size_t i = 0; i < NNEEDED; i++) {
		char *p = join(dir, needed[i]);
		if (access(p, R_OK) != 0) {
			cli_error("%s: missing: the flame graph's assets are not installed (make "
				  "vendors them from npm into decoder/html/assets, make install into "
				  "$(pkgdatadir)/html); or set IPP_HTML_ASSETS", p);
			free(p);
			free(dir);
			return -1;
		}
		free(p);
	}
	dst = join(outdir, "assets");
	if (mkdir(dst, 0777) != 0 && errno != EEXIST) {
		cli_error("%s: %s", dst, strerror(errno));
		rc = -1;
	}
	for (size_t i = 0; i < NNEEDED && rc == 0; i++) {
		char *from = join(dir, needed[i]), *to = join(dst, needed[i]);
		rc = copy_file(from, to);
		free(from);
		free(to);
	}
	free(dst);
	free(dir);
	return rc;
}
