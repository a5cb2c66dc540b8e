#!/bin/bash
# fetch.sh CACHEDIR -- put GCC's execution torture tests into CACHEDIR.
#
# The tests come from Debian's gcc-12-source package, which installs the
# GCC source tarball under /usr/src/gcc-12/.  Only the top level of
# gcc/testsuite/gcc.c-torture/execute/ is extracted: its 1592 *.c tests and
# the one header they include (gcc_tmpnam.h); a few tests #include a sibling
# test, which is there too.  The ieee/ and builtins/ subdirectories have
# their own drivers and are not part of this harness.
#
# The extraction (about 5 s: the whole .tar.xz is decompressed) is done
# once: CACHEDIR/.stamp records which tarball it came from, and a later
# call with the same tarball does nothing.  Prints CACHEDIR/execute.
#
# Environment: GCC_SOURCE_TARBALL overrides the tarball.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).

set -euo pipefail
HARNESS_NAME=torture
. "$(dirname "$0")/common.sh"

[ $# -eq 1 ] || die "usage: fetch.sh CACHEDIR"
cache=$1

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
	[ -d "$cache/execute" ]; then
	echo "$cache/execute"
	exit 0
fi

msg "extracting the torture tests from $tarball into $cache"
rm -rf "$cache/execute" "$cache/.tmp"
mkdir -p "$cache/.tmp"
# The members are gcc-12.x.y/gcc/testsuite/gcc.c-torture/execute/NAME;
# --no-wildcards-match-slash keeps '*' from descending into subdirectories.
tar -xf "$tarball" -C "$cache/.tmp" --wildcards --no-wildcards-match-slash \
	'gcc-*/gcc/testsuite/gcc.c-torture/execute/*.c' \
	'gcc-*/gcc/testsuite/gcc.c-torture/execute/*.h'
mv "$cache"/.tmp/gcc-*/gcc/testsuite/gcc.c-torture/execute "$cache/execute"
rm -rf "$cache/.tmp"
n=$(find "$cache/execute" -maxdepth 1 -name '*.c' | wc -l)
[ "$n" -gt 1000 ] || die "only $n tests extracted from $tarball"
echo "$stamp" >"$cache/.stamp"
msg "$n tests"
echo "$cache/execute"
