#!/bin/bash
# unwind.sh -- activations removed by an unwinder (docs/PROTOCOL.md,
# "Exceptions and forced unwinds"): pthread_cancel (unwcancel.c),
# pthread_exit from a nested call (unwexit.c) and _Unwind_ForcedUnwind
# (unwforced.c), all built with -fexceptions and cleanups.  gcov is the
# oracle at -O2 here, as gcov.sh is at -O0 for every program: function
# entries and single-block line counts equal gcov's, and `ipp check` finds
# the profile valid (every removed activation left its partial path and
# its frame), in both modes.  Every comparison must run: a program gcov.sh
# skips is a failure here.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u
srcdir=${srcdir:-.}
here=$srcdir/testsuite/programs
out=$(IPP_GCOV_CFLAGS="-O2 ${IPP_GCOV_CFLAGS:-}" bash "$here/gcov.sh" \
	"$here/unwcancel.c" "$here/unwexit.c" "$here/unwforced.c")
rc=$?
printf '%s\n' "$out"
[ "$rc" -eq 77 ] && exit 77	# no gcov
modes=${IPP_TEST_MODES:-intra context}
set -- $modes
want=$((3 * $# * 3))	# programs x modes x (entries, lines, check)
if [ "$rc" -ne 0 ] || ! printf '%s\n' "$out" | grep -qx "$want passed, 0 failed"; then
	echo "FAIL: unwind.sh: expected $want passed, 0 failed, nothing skipped"
	exit 1
fi
echo "PASS: unwind.sh (-O2: $want comparisons)"
