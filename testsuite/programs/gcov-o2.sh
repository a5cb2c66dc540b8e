#!/bin/bash
# gcov-o2.sh NAME FILE... -- gcov as the oracle at -O2 for the programs
# FILE... (gcov.sh is at -O0 for every program): function entries and
# single-block line counts equal gcov's, and `ipp check` finds the profile
# valid, in every mode of IPP_TEST_MODES.  Every comparison must run: a
# program gcov.sh skips is a failure here.  NAME names the caller in the
# verdict line.  Used by fork.sh and unwind.sh.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u
name=$1
shift
here=$(dirname "${BASH_SOURCE[0]}")
nprog=$#
out=$(IPP_GCOV_CFLAGS="-O2 ${IPP_GCOV_CFLAGS:-}" bash "$here/gcov.sh" "$@")
rc=$?
printf '%s\n' "$out"
[ "$rc" -eq 77 ] && exit 77	# no gcov
set -- ${IPP_TEST_MODES:-intra context}
want=$((nprog * $# * 3))	# programs x modes x (entries, lines, check)
if [ "$rc" -ne 0 ] || ! printf '%s\n' "$out" | grep -qx "$want passed, 0 failed"; then
	echo "FAIL: $name: expected $want passed, 0 failed, nothing skipped"
	exit 1
fi
echo "PASS: $name (-O2: $want comparisons)"
