#!/bin/bash
# html.sh -- `ipp html` end to end, and in headless Chromium.
#
#   1. examples/fig4.c (context mode, -O0): `ipp html -o DIR` writes
#      index.html, data.js, path-1..10.html, src-1.html and the assets;
#      the hottest path is the paper's Figure 9 path 18 (count 9, the first
#      of the two paths of count 9 by number): main's loop header to its
#      first call, then power from its entry to its back edge -- frames
#      "main:34-36 → power:20-24" (fig4.c's lines: the loop test 34, the
#      call 36; power's declaration 20, its loop body 24);
#      path-1.html highlights exactly the lines of those frames that the
#      path executes: 34, 35, 36 in main, 20, 22, 23, 24, 25 in power.
#   2. The two-unit program: a source page per file, the header's included.
#   3. Assets missing at build time: with IPP_HTML_ASSETS naming a directory
#      whose UNAVAILABLE file gives the reason, ipp html fails with a message
#      saying so, and writes no page.
#   4. In Chromium (Debian's chromium, driven by playwright-core from npm):
#      html-check.mjs loads index.html: no console error, the hottest path
#      shown, the flame graph drawn by d3-flame-graph with a bar for each of
#      its frames, and a screenshot whose pixels under the first bar are
#      colored; the screenshot is kept as testsuite/programs/html.png in the
#      build tree.
# Without /usr/bin/chromium (or $CHROMIUM), or when npm cannot fetch
# playwright-core, steps 1-3 run and the test exits 77 (SKIP), never 0.
# Skips at once when ipp html's assets were not vendored at build time.
# Prints "N passed, N failed" and exits non-zero if anything failed.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u
. "$(dirname "$0")/prog-lib.sh"
prog_begin html
chromium=${CHROMIUM:-/usr/bin/chromium}
playwright=playwright-core@1.65.1
skip=""

if [ -f "$builddir/decoder/html/assets/UNAVAILABLE" ]; then
	echo "SKIP: ipp html's assets were not vendored at build time: $(cat "$builddir/decoder/html/assets/UNAVAILABLE")"
	exit 77
fi

# 1. fig4
d=$work/fig4
mkdir -p "$d"
"$wrap" -O0 -fno-inline "$srcdir/examples/fig4.c" -o "$d/fig4" &&
	(cd "$d" && IPP_PROFILE=fig4.prof ./fig4 >/dev/null) &&
	"$ipp" html -o "$d/site" "$d/fig4" "$d/fig4.prof" 2>"$work/err"
if [ $? -ne 0 ]; then
	bad "fig4: build, run or ipp html failed"
	sed 's/^/    /' "$work/err"
else
	files=$(cd "$d/site" && ls index.html data.js src-1.html path-{1,2,3,4,5,6,7,8,9,10}.html \
		assets/d3.min.js assets/d3-flamegraph.umd.min.js assets/d3-flamegraph.css \
		assets/LICENSE.d3 assets/LICENSE.d3-flame-graph assets/ipp-report.js \
		assets/ipp-report.css 2>&1 | grep -c 'No such')
	if [ "$files" -eq 0 ] && [ ! -e "$d/site/path-11.html" ]; then
		ok "fig4: index, data, 10 path pages, 1 source page and the assets"
	else
		bad "fig4: $files files missing (or more than 10 path pages)"
	fi
	hot=$(sed -n 's/.*<li id="hot-1">.*<span class="frames">\(.*\)<\/span><\/li>/\1/p' "$d/site/index.html" |
		sed 's/<[^>]*>//g; s/&rarr;/→/g')
	count=$(sed -n 's/.*<li id="hot-1"><a href="path-1.html">\([0-9]*\) executions.*/\1/p' "$d/site/index.html")
	if [ "$hot" = "main:34-36 → power:20-24" ] && [ "$count" = 9 ]; then
		ok "fig4: the hottest path is Figure 9's path 18: $hot, $count executions"
	else
		bad "fig4: the hottest path shows '$hot', $count executions"
	fi
	lit=$(grep -o 'class="l on" id="L[0-9]*"' "$d/site/path-1.html" | sed 's/.*L//; s/"//' | tr '\n' ' ')
	if [ "$lit" = "34 35 36 20 22 23 24 25 " ]; then
		ok "fig4: path-1.html highlights lines $lit"
	else
		bad "fig4: path-1.html highlights lines '$lit', expected 34 35 36 20 22 23 24 25"
	fi
fi

# 2. two units
d=$work/tu
mkdir -p "$d"
tu=$srcdir/testsuite/programs/twounits
if "$wrap" -O0 -fno-inline "$tu/main.c" "$tu/lib.c" -o "$d/tu" &&
   (cd "$d" && IPP_PROFILE=tu.prof ./tu >/dev/null) &&
   "$ipp" html -o "$d/site" "$d/tu" "$d/tu.prof" 2>"$work/err"; then
	names=$(sed -n 's/.*<a href="src-[0-9]*.html">\(.*\)<\/a>.*/\1/p' "$d/site/index.html" |
		sed 's|.*/||' | sort | tr '\n' ' ')
	if [ "$names" = "lib.c lib.h main.c " ]; then
		ok "twounits: a page per source file ($names)"
	else
		bad "twounits: source pages for '$names'"
	fi
else
	bad "twounits: build, run or ipp html failed"
	sed 's/^/    /' "$work/err"
fi

# 3. assets missing at build time
mkdir -p "$work/noassets"
echo "npm was not found when ipp was built" >"$work/noassets/UNAVAILABLE"
if IPP_HTML_ASSETS=$work/noassets "$ipp" html -o "$work/nosite" "$work/fig4/fig4" \
	"$work/fig4/fig4.prof" 2>"$work/err"; then
	bad "no assets: ipp html succeeded"
elif grep -q "not available when ipp was built: npm was not found" "$work/err" &&
     [ ! -e "$work/nosite/index.html" ]; then
	ok "no assets: ipp html says so ($(head -c 120 "$work/err")...)"
else
	bad "no assets: unclear message"
	sed 's/^/    /' "$work/err"
fi

# 4. Chromium
if [ ! -x "$chromium" ]; then
	skip="$chromium not found (Debian package chromium)"
else
	node_dir=$builddir/testsuite/node
	if [ ! -d "$node_dir/node_modules/playwright-core" ]; then
		mkdir -p "$node_dir"
		(cd "$node_dir" && npm install --no-save --no-audit --no-fund --ignore-scripts \
			"$playwright" >"$work/npm.log" 2>&1) || skip="npm could not fetch $playwright: $(tail -n 1 "$work/npm.log")"
	fi
	if [ -z "$skip" ]; then
		cp "$srcdir/testsuite/programs/html-check.mjs" "$node_dir/"
		shot=$builddir/testsuite/programs/html.png
		if CHROMIUM=$chromium node "$node_dir/html-check.mjs" "$work/fig4/site/index.html" "$shot" \
			"main:34-36 → power:20-24" >"$work/check" 2>&1 && ! grep -q '^error' "$work/check"; then
			ok "chromium: $(grep -c '^ok' "$work/check") checks ($(sed -n 's/^ok: //p' "$work/check" | tr '\n' ';'))"
		else
			bad "chromium:"
			sed 's/^/    /' "$work/check"
		fi
	fi
fi

if [ -n "$skip" ]; then
	echo "$pass passed, $fail failed, 1 skipped"
	[ "$fail" -eq 0 ] || exit 1
	echo "SKIP: $skip"
	exit 77
fi
prog_end
