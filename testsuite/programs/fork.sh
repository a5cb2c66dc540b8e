#!/bin/bash
# fork.sh -- a path pending at a fork() counts its prefix once: gcov (whose
# fork wrapper resets the child's counters) as the oracle at -O2, as
# gcov.sh is at -O0 for every program.  forkmain.c forks in main,
# forkhelper.c two calls deep (main -> outer -> spawn -> fork), so the
# pending frames further out than fork's caller are covered too.  In both
# modes: function entries and single-block line counts equal gcov's, and
# `ipp check` finds the merged profile (parent and child) valid.  Every
# comparison must run: a program gcov.sh skips is a failure here.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u
srcdir=${srcdir:-.}
here=$srcdir/testsuite/programs
out=$(IPP_GCOV_CFLAGS="-O2 ${IPP_GCOV_CFLAGS:-}" bash "$here/gcov.sh" \
	"$here/forkmain.c" "$here/forkhelper.c")
rc=$?
printf '%s\n' "$out"
[ "$rc" -eq 77 ] && exit 77	# no gcov
modes=${IPP_TEST_MODES:-intra context}
set -- $modes
want=$((2 * $# * 3))	# programs x modes x (entries, lines, check)
if [ "$rc" -ne 0 ] || ! printf '%s\n' "$out" | grep -qx "$want passed, 0 failed"; then
	echo "FAIL: fork.sh: expected $want passed, 0 failed, nothing skipped"
	exit 1
fi
echo "PASS: fork.sh (-O2: $want comparisons)"
