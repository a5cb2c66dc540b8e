#!/bin/bash
# exports.sh -- `ipp export --folded` and `--json` on the paper's Figure 4
# program (examples/fig4.c, context mode, -O0), whose paths and counts are
# known from the paper's Figure 9 (../shared/reference/design-notes.md,
# "Figure 9, path by path"): 12 paths, 49 executions.
#
# --folded --lines: one line per path, its frames FUNCTION:FIRST-LAST (the
# lines of the first and last vertices of the frame, a vertex being located
# at its block's first statement) joined by ';', then the count.  fig4.c's
# lines: main's loop test 34, "i even" 35, the first call 36 (its return
# site 36, "result += t" 37), "i % 3" 39, the second call 40 (then 41),
# "i++" 43, printf 45; power's declaration 20, "value = 1.0" 22, its loop
# test 23, the body 24-25, "return" 27.  So, from Figure 9:
#   path 16 (1): main's first iteration from its entry, no call: main:30-43
#   path 34 (5): an iteration from the loop header without calls: main:34-43
#   path 35 (1): the loop's exit: main:34-45
#   path 18 (9): power's first iteration from site 1: main:34-36;power:20-24
#   path 24 (9): its second iteration: main:34-36;power:23-24
#   path 29 (6): the iteration that called from site 1 only, after power's
#                loop exit: main:34-36;power:23-27;main:36-43 (return)
#   paths 25, 27, 28 (3 each): site 1 then site 2: the prefix
#                main:34-36;power:23-27;main:36-40 (return) followed by
#                power:20-24, power:23-24, power:23-27;main:40-43 (return)
#   paths 30, 32, 33 (3 each): site 2 only: main:34-40 followed by the same
#                three endings
# Without --lines the frames are the function names: the counts of the
# lines must still add up to 49.
#
# --json: parsed by jq, an independent JSON reader: ipp_export 1, 12 paths
# whose counts (strings, as every count) add up to 49, 36 paths numbered,
# power entered 15 times (9 even i, 6 multiples of 3), and gcov's line count
# of power's loop test, 45 (15 entries + 30 back edges; lcov.sh checks every
# line against gcov).
# Prints "N passed, N failed" and exits non-zero if anything failed.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u
. "$(dirname "$0")/prog-lib.sh"
prog_begin exports

if ! "$wrap" -O0 -fno-inline "$srcdir/examples/fig4.c" -o "$work/fig4" 2>"$work/err" ||
   ! (cd "$work" && IPP_PROFILE=fig4.prof ./fig4 >/dev/null); then
	bad "fig4: build or run failed"
	sed 's/^/    /' "$work/err"
	echo "$pass passed, $fail failed"
	exit 1
fi

cat >"$work/want" <<'END'
main:30-43 1
main:34-43 5
main:34-45 1
main:34-36;power:20-24 9
main:34-36;power:23-24 9
main:34-36;power:23-27;main:36-43 (return) 6
main:34-36;power:23-27;main:36-40 (return);power:20-24 3
main:34-36;power:23-27;main:36-40 (return);power:23-24 3
main:34-36;power:23-27;main:36-40 (return);power:23-27;main:40-43 (return) 3
main:34-40;power:20-24 3
main:34-40;power:23-24 3
main:34-40;power:23-27;main:40-43 (return) 3
END
if "$ipp" export --folded --lines "$work/fig4" "$work/fig4.prof" >"$work/folded" 2>"$work/err" &&
   diff <(sort "$work/want") <(sort "$work/folded") >"$work/diff"; then
	ok "--folded --lines: Figure 9's 12 paths ($(head -n 1 "$work/folded"), ...)"
else
	bad "--folded --lines differs from Figure 9 (< expected, > got):"
	cat "$work/err" "$work/diff" | sed 's/^/    /'
fi
if "$ipp" export --folded "$work/fig4" "$work/fig4.prof" >"$work/folded2" &&
   [ "$(wc -l <"$work/folded2")" -eq 12 ] &&
   [ "$(awk '{ s += $NF } END { print s }' "$work/folded2")" -eq 49 ] &&
   ! grep -q ':[0-9]' "$work/folded2"; then
	ok "--folded: 12 lines of function frames, 49 executions"
else
	bad "--folded:"
	sed 's/^/    /' "$work/folded2"
fi

if ! command -v jq >/dev/null 2>&1; then
	bad "jq not found (Debian package jq)"
elif "$ipp" export --json "$work/fig4" "$work/fig4.prof" >"$work/json" 2>"$work/err" &&
     got=$(jq -r '[.ipp_export, (.modules | length), (.modules[0].paths | length),
		    ([.modules[0].paths[].count | tonumber] | add),
		    ([.. | objects | .count? // empty | type] | unique | join("+")),
		    .modules[0].total_paths,
		    (.modules[0].functions[] | select(.function == "power") | .entries),
		    (.modules[0].lines[] | select(.line == 23) | .count)] | map(tostring) | join(" ")' \
		    "$work/json") &&
     [ "$got" = "1 1 12 49 string 36 15 45" ]; then
	ok "--json: read by jq: $got"
else
	bad "--json: got '${got:-}', want '1 1 12 49 string 36 15 45'"
	sed 's/^/    /' "$work/err"
fi

prog_end
