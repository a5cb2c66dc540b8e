# prog-lib.sh -- the set-up that the end-to-end scripts of
# testsuite/programs share (callgraph, exports, gprof, html, interpose,
# last, lcov, lto, man, tamper, wrapper).  Sourced, never run.
#
#   prog_begin NAME   srcdir and builddir made absolute (automake gives
#                     them; "." otherwise), wrap = the uninstalled ipp-gcc,
#                     ipp = the tool, work = a fresh directory (removed at
#                     exit), the counters pass and fail, and ok/bad, which
#                     count and print one check;
#   prog_end          prints "N passed, N failed"; its status is the
#                     script's: 0 only if no check failed.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.

prog_begin() {
	srcdir=$(cd "${srcdir:-.}" && pwd)
	builddir=$(cd "${builddir:-.}" && pwd)
	wrap=$builddir/plugin/ipp-gcc-uninstalled
	ipp=$builddir/ipp
	work=$(mktemp -d "${TMPDIR:-/tmp}/ipp-$1.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	pass=0
	fail=0
}

ok() { pass=$((pass + 1)); echo "PASS: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

prog_end() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
