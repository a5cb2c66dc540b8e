#!/bin/bash
# fetch.sh CACHEDIR [SUITE] -- put GCC's c-torture tests into CACHEDIR and
# print the directory of SUITE: CACHEDIR/execute (the default) or
# CACHEDIR/compile.
#
# The tests come from Debian's gcc-12-source package, which installs the
# GCC source tarball under /usr/src/gcc-12/.  Two directories of
# gcc/testsuite/gcc.c-torture/ are extracted, their top level only:
#   execute/  its 1592 *.c tests and the one header they include
#             (gcc_tmpnam.h); a few tests #include a sibling test, which is
#             there too.  The ieee/ and builtins/ subdirectories have their
#             own drivers and are not part of this harness.
#   compile/  its 1903 *.c tests (compile.exp's other inputs, *.S, there
#             are none in GCC 12); a few #include a sibling.
#
# The extraction (about 10 s: the whole .tar.xz is decompressed) is done
# once, both directories in one pass: CACHEDIR/.stamp records which
# tarball they came from, and a later call with the same tarball does
# nothing.
#
# Environment: GCC_SOURCE_TARBALL overrides the tarball.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).

set -euo pipefail
HARNESS_NAME=torture
. "$(dirname "$0")/common.sh"

[ $# -eq 1 ] || [ $# -eq 2 ] || die "usage: fetch.sh CACHEDIR [execute|compile]"
cache=$1
suite=${2:-execute}
case $suite in
execute | compile) ;;
*) die "fetch.sh: no suite '$suite' (execute or compile)" ;;
esac

# Find the tarball: /usr/src/gcc-12/gcc-12.*.tar.* (not the gm2 one).
tarball=${GCC_SOURCE_TARBALL:-}
if [ -z "$tarball" ]; then
	for f in /usr/src/gcc-12/gcc-12*.tar.*; do
		[ -r "$f" ] && tarball=$f
	done
fi
[ -n "$tarball" ] && [ -r "$tarball" ] ||
	die "no GCC 12 source tarball in /usr/src/gcc-12/: install it with 'apt-get install gcc-12-source' (or set GCC_SOURCE_TARBALL)"

# One extraction at a time (two harnesses may share the cache).
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9

# Already extracted from this very tarball?
stamp="$tarball $(stat -c '%s %Y' "$tarball")"
if [ -f "$cache/.stamp" ] && [ "$(cat "$cache/.stamp")" = "$stamp" ] &&
	[ -d "$cache/execute" ] && [ -d "$cache/compile" ]; then
	echo "$cache/$suite"
	exit 0
fi

msg "extracting the torture tests from $tarball into $cache"
rm -rf "$cache/execute" "$cache/compile" "$cache/.tmp" "$cache/.stamp"
mkdir -p "$cache/.tmp"
# The members are gcc-12.x.y/gcc/testsuite/gcc.c-torture/{execute,compile}/NAME;
# --no-wildcards-match-slash keeps '*' from descending into subdirectories.
tar -xf "$tarball" -C "$cache/.tmp" --wildcards --no-wildcards-match-slash \
	'gcc-*/gcc/testsuite/gcc.c-torture/execute/*.c' \
	'gcc-*/gcc/testsuite/gcc.c-torture/execute/*.h' \
	'gcc-*/gcc/testsuite/gcc.c-torture/compile/*.c'
for d in execute compile; do
	mv "$cache"/.tmp/gcc-*/gcc/testsuite/gcc.c-torture/$d "$cache/$d"
	n=$(find "$cache/$d" -maxdepth 1 -name '*.c' | wc -l)
	[ "$n" -gt 1000 ] || die "only $n tests of $d/ extracted from $tarball"
	msg "$d: $n tests"
done
rm -rf "$cache/.tmp"
echo "$stamp" >"$cache/.stamp"
echo "$cache/$suite"
