#!/bin/bash
# run-unit.sh VDIR SLOT KIND MODE LEVEL -- one runtest process of the
# gcc.dg harness, started by run.sh through xargs.  Not meant to be run by
# hand: run.sh sets up the environment and reads the results.
#
# A *variant* is one compiler (KIND plain: $IPP_CC; KIND ipp: the ipp-gcc
# wrapper with -fplugin-arg-ipp-mode=MODE) at one LEVEL (the DejaGnu board
# variant, e.g. -O2 or -O2/-fcompare-debug); its directory VDIR holds
#   SLOT/        the runtest process's own directory (objdir and tmpdir):
#                site.exp, gcc.sum, gcc.log, the tests' scratch files
#   rec/         the records of its test programs (record-run.sh)
#   par/         GCC's parallelization markers, shared by the slots
# A variant runs as several slots at once when run.sh says so
# (GCC_DG_SLOTS > 1): GCC's own lib/gcc-defs.exp then hands each test to
# the first slot that reaches it (GCC_RUNTEST_PARALLELIZE_DIR), exactly as
# `make -jN check' in a GCC build tree does.
#
# Environment (set by run.sh): GCC_DG_SRCDIR (the DejaGnu source tree that
# fetch.sh extracted), GCC_DG_TESTS (the file of the test names to run; a
# single "*.c" runs them all), GCC_DG_SLOTS, GCC_DG_WRAPPER (the
# instrumenting compiler), GCC_DG_IPP (the ipp tool), GCC_DG_TIMEOUT, and
# IPP_CC, IPP_PLUGIN, IPP_RUNTIME (common.sh).
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).

set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 5 ] || { echo "usage: run-unit.sh VDIR SLOT KIND MODE LEVEL" >&2; exit 2; }
vdir=$1 slot=$2 kind=$3 mode=$4 level=$5

case $kind in
plain) cut="$IPP_CC" ;;
ipp) cut="$GCC_DG_WRAPPER -fplugin-arg-ipp-mode=$mode" ;;
*) echo "run-unit.sh: unknown kind $kind" >&2; exit 2 ;;
esac

obj=$vdir/$slot
mkdir -p "$obj" "$vdir/rec" "$vdir/par"
# The site.exp of GCC's contrib/test_installed (an installed compiler under
# test, no build tree), plus where the sources and our board are.  The
# source tree is not named "testsuite", so DejaGnu is told that it is the
# testsuite's root (testsuitedir) rather than left to guess.
cat >"$obj/site.exp" <<EOF
set rootme "."
set tmpdir "$obj"
set srcdir "$GCC_DG_SRCDIR"
set testsuitedir "$GCC_DG_SRCDIR"
set CFLAGS ""
set CXXFLAGS ""
set GCC_UNDER_TEST "$cut"
lappend boards_dir "$here/boards"
EOF

export GCC_DG_RECORDER=$here/record-run.sh GCC_DG_RECORD=$vdir/rec GCC_DG_KIND=$kind
if [ "${GCC_DG_SLOTS:-1}" -gt 1 ]; then
	export GCC_RUNTEST_PARALLELIZE_DIR=$vdir/par
else
	unset GCC_RUNTEST_PARALLELIZE_DIR
fi
# The tests: dg.exp's own list (gcc.dg/*.[cSi]) narrowed to the names
# (runtest's "dg.exp=NAME NAME ..." is a list of glob patterns).
tests=$(tr '\n' ' ' <"$GCC_DG_TESTS")
st=0
(cd "$obj" && runtest --tool gcc --target_board="ipp-native/$level" "dg.exp=$tests") \
	>"$obj/runtest.out" 2>&1 || st=$?
# runtest exits 1 when a test failed (which the comparison deals with);
# anything else means it could not run.
echo "$st" >"$obj/runtest.status"
