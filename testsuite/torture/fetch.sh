#!/bin/bash
# fetch.sh CACHEDIR [PART] -- put a part of GCC's testsuite into CACHEDIR.
#
# The tests come from Debian's gcc-12-source package, which installs the
# GCC source tarball under /usr/src/gcc-12/.  PART is one of
#   execute  (the default) the top level of gcc/testsuite/gcc.c-torture/
#            execute/: its 1592 *.c tests and the one header they include
#            (gcc_tmpnam.h); a few tests #include a sibling test, which is
#            there too.  The ieee/ and builtins/ subdirectories have their
#            own drivers and are not part of this harness.  Extracted into
#            CACHEDIR/execute.
#   compile  the top level of gcc/testsuite/gcc.c-torture/compile/: its
#            1903 *.c tests (compile.exp's other inputs, *.S, there are
#            none in GCC 12); a few #include a sibling.  Extracted into
#            CACHEDIR/compile.
#   gcc.dg   a DejaGnu source tree (what runtest's --srcdir names) for
#            GCC's gcc.dg tests, for testsuite/gcc-dg/: the top level of
#            gcc.dg/ (its 5798 *.c tests, their headers, specs and .x
#            files, and the driver dg.exp), lib/*.exp (GCC's DejaGnu
#            libraries), config/default.exp, and the 12 files of other
#            directories that top-level tests #include (the list below:
#            grep '#include "[^"]*/' gcc.dg/*.c).  Extracted into
#            CACHEDIR/gcc.dg, which then holds gcc.dg/, lib/, config/, ...
#
# The extraction (about 5 s: the whole .tar.xz is decompressed) is done
# once per part: CACHEDIR/.stamp-PART records which tarball it came from,
# and a later call with the same tarball does nothing.  Prints the
# directory the part is in (CACHEDIR/execute, CACHEDIR/compile or
# CACHEDIR/gcc.dg).
#
# Environment: GCC_SOURCE_TARBALL overrides the tarball.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).

set -euo pipefail
HARNESS_NAME=torture
. "$(dirname "$0")/common.sh"

[ $# -eq 1 ] || [ $# -eq 2 ] || die "usage: fetch.sh CACHEDIR [execute|compile|gcc.dg]"
cache=$1
part=${2:-execute}

# The part's members (under gcc-*/gcc/testsuite/; --no-wildcards-match-slash
# keeps '*' from descending into subdirectories), the directory of the
# extracted tree that becomes CACHEDIR/PART, and where its tests are and how
# many there must be at least (a check that the extraction worked).
case $part in
execute)
	members=(gcc.c-torture/execute/'*.c' gcc.c-torture/execute/'*.h')
	keep=gcc.c-torture/execute tests=. min_tests=1000 ;;
compile)
	members=(gcc.c-torture/compile/'*.c')
	keep=gcc.c-torture/compile tests=. min_tests=1000 ;;
gcc.dg)
	members=(gcc.dg/{'*.c','*.h','*.x','*.exp','*.spec','*.specs'} lib/'*.exp'
		config/default.exp gcc.c-torture/execute/builtins/chk.h
		gcc.c-torture/compile/pr69102.c
		gcc.c-torture/execute/{pr61682.c,pr68376-1.c,pr68376-2.c,pr89434.c}
		gcc.dg/gomp/openmp-simd-2.c gcc.dg/graphite/scop-10.c gcc.dg/torture/pr69714.c
		gcc.dg/tree-ssa/{pr77664.c,pr81588.c,pr88676.c})
	keep= tests=gcc.dg min_tests=5000 ;;
*) die "unknown part $part (execute, compile or gcc.dg)" ;;
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

# Already extracted from this very tarball, these very members?
stamp="$tarball $(stat -c '%s %Y' "$tarball") ${members[*]}"
if [ -f "$cache/.stamp-$part" ] && [ "$(cat "$cache/.stamp-$part")" = "$stamp" ] &&
	[ -d "$cache/$part" ]; then
	echo "$cache/$part"
	exit 0
fi

msg "extracting the $part tests from $tarball into $cache"
rm -rf "${cache:?}/$part" "$cache/.tmp"
mkdir -p "$cache/.tmp"
# The members are gcc-12.x.y/gcc/testsuite/...
tar -xf "$tarball" -C "$cache/.tmp" --wildcards --no-wildcards-match-slash \
	"${members[@]/#/gcc-*/gcc/testsuite/}"
mv "$cache"/.tmp/gcc-*/gcc/testsuite${keep:+/$keep} "$cache/$part"
rm -rf "$cache/.tmp"
n=$(find "$cache/$part/$tests" -maxdepth 1 -name '*.c' | wc -l)
[ "$n" -gt "$min_tests" ] || die "only $n tests extracted from $tarball"
echo "$stamp" >"$cache/.stamp-$part"
msg "$n tests"
echo "$cache/$part"
