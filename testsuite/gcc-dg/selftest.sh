#!/bin/bash
# selftest.sh -- the gcc.dg harness's verdicts on known input: sum.awk and
# compare.awk on two hand-written DejaGnu summaries (selftest/plain.sum,
# selftest/ipp.sum: an ICE, a scan-* difference, a result lost, an XPASS, a
# warning found fewer times, an extra UNRESOLVED, ...), then apply_xfails
# with selftest/xfail.txt; the checks must be exactly those of
# selftest/expected.txt, written by hand from the rules in compare.awk.
# The sample (sample.sh) shows the harness on real tests; this shows that
# each kind of difference fails a check, which the sample cannot, since
# only the tests that pass are in it.  Run by make check.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).

set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../torture/common.sh"
d=$here/selftest
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

awk -f "$here/sum.awk" "$d/plain.sum" >"$tmp/plain.txt"
awk -f "$here/sum.awk" "$d/ipp.sum" >"$tmp/ipp.txt"
awk -f "$here/compare.awk" -v level=-O2 -v mode=intra \
	"$d/tests.txt" "$tmp/plain.txt" "$tmp/ipp.txt" >"$tmp/checks.txt"
st=0
# RUN (column 5): the tests whose plain program ran and passed.
run=$(awk -F'\t' '$5 == 1 { printf "%s ", $2 }' "$tmp/checks.txt")
if [ "$run" != "f.c j.c " ]; then
	echo "FAIL: the tests that ran plain are '$run', expected 'f.c j.c '"
	st=1
fi
# The DejaGnu error that names no test is kept, under the name "-".
if ! grep -q '^-	ERROR	tcl error' "$tmp/plain.txt"; then
	echo "FAIL: sum.awk dropped DejaGnu's own ERROR"
	st=1
fi
cut -f1-4,6 "$tmp/checks.txt" >"$tmp/raw.txt"
apply_xfails "$d/xfail.txt" "$tmp/raw.txt" >"$tmp/results.txt"
if ! diff -u "$d/expected.txt" "$tmp/results.txt"; then
	echo "FAIL: the checks differ from selftest/expected.txt (- expected, + got)"
	st=1
fi
[ "$st" = 1 ] || echo "PASS: $(wc -l <"$d/expected.txt") checks as expected"
exit "$st"
