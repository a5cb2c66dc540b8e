#!/bin/bash
# run.sh -- does instrumenting with ipp preserve the semantics of GCC's
# execution torture tests, and does the plugin compile GCC's compile
# torture tests?
#
#   run.sh [--suite execute|compile] [--list FILE] [--out DIR] [--cache DIR]
#          [--levels "-O0 -O2"] [--jobs N] [--timeout SECS] [--keep]
#          [TEST.c ...]
#
# The suite execute (the default) is gcc/testsuite/gcc.c-torture/execute/*.c
# from GCC 12's source; compile is gcc.c-torture/compile/*.c.  Every test
# of the suite (or those named in FILE or on the command line) is built at
# each level, plainly with $IPP_CC and then once per plugin mode with
# ipp-gcc, with the test's own options (dg-options, dg-additional-options,
# dg-add-options).  An execute test is run (its default action, as in
# GCC's execute.exp), under a time limit; a compile test is compiled to an
# object file (-c: compile.exp's default action is "assemble"), or to
# assembly (-S) if it says "dg-do compile", as in GCC's testsuite.  One
# *check* is a (test, level, mode) triple.  It
#   - is skipped when the test does not apply to this target (dg-skip-if,
#     dg-require-effective-target, ...), does not compile plainly, fails
#     plainly (non-zero exit) or hangs plainly; the reason is kept;
#   - fails when the instrumented build does not compile (an ICE or an
#     error), hangs, or exits with another status or prints anything else
#     (stdout and stderr are compared byte for byte), or when the profile
#     of the instrumented run is missing or not valid (`ipp check`: see
#     check_profile in common.sh);
#   - passes otherwise.
# It prints "N passed, N failed, N skipped" on a line of its own, then the
# skip reasons grouped with their counts, and exits 1 if a check failed.
#
# Files written in DIR (default: testsuite/torture/out, or out-compile for
# the compile suite, in the build tree):
#   results.txt   one line per check: PASS|FAIL|XFAIL|SKIP, test, level, mode,
#                 detail (XFAIL: a failure listed, with its reason, in
#                 xfail.txt, or xfail-compile.txt for the compile suite; a
#                 listed check that passes is a FAIL)
#   failures.txt  every failure with the commands that reproduce it
#   skips.txt     the skip reasons with counts
#   summary.txt   what was printed
#   work/         the builds of the failed checks (all of them with --keep)
#
# Environment: see common.sh (IPP_CC, IPP_PLUGIN, IPP_RUNTIME, IPP_GCC,
# IPP_TOOL, IPP_MODES, IPP_BUILDDIR); TORTURE_JOBS, TORTURE_TIMEOUT and
# TORTURE_LEVELS are the defaults of --jobs, --timeout and --levels.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).

set -euo pipefail
HARNESS_NAME=torture
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
. "$here/dg.sh"

## ---------------------------------------------------------------------
## Options.
## ---------------------------------------------------------------------
suite=execute
list=
out=
cache=
levels=${TORTURE_LEVELS:--O0 -O2}
jobs=${TORTURE_JOBS:-$(nproc 2>/dev/null || echo 2)}
timeout=${TORTURE_TIMEOUT:-10}
keep=0
tests=()
while [ $# -gt 0 ]; do
	case $1 in
	--suite) suite=$2; shift 2 ;;
	--list) list=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--cache) cache=$2; shift 2 ;;
	--levels) levels=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	-h | --help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	-*) die "unknown option $1 (see --help)" ;;
	*) tests+=("$(basename "$1")"); shift ;;
	esac
done

# What differs between the two suites: the default action of a test
# without dg-do (dg.sh), the expected failures, where the results go.
case $suite in
execute)
	DG_DEFAULT_ACTION=run
	xfail=$here/xfail.txt
	outname=out ;;
compile)
	DG_DEFAULT_ACTION=assemble
	xfail=$here/xfail-compile.txt
	outname=out-compile
	HARNESS_NAME=torture-compile ;;
*) die "no suite '$suite' (execute or compile)" ;;
esac

ipp_resolve_tools
: "${out:=$IPP_BUILDDIR/testsuite/torture/$outname}"
: "${cache:=$IPP_BUILDDIR/testsuite/torture/cache}"
mkdir -p "$out"
out=$(cd "$out" && pwd)
start=$SECONDS

## ---------------------------------------------------------------------
## The tests: extract them (once), pick the ones to run.
## ---------------------------------------------------------------------
src=$(bash "$here/fetch.sh" "$cache" "$suite")
if [ -n "$list" ]; then
	while read -r t; do tests+=("$t"); done < <(list_names "$list")
fi
if [ ${#tests[@]} -eq 0 ]; then
	for f in "$src"/*.c; do tests+=("$(basename "$f")"); done
fi
for t in "${tests[@]}"; do
	[ -r "$src/$t" ] || die "no test $t in $src"
done

## ---------------------------------------------------------------------
## Fresh work area; the modes the plugin accepts.
## ---------------------------------------------------------------------
work=$out/work
rm -rf "$work" "$out/results.txt" "$out/failures.txt" "$out/skips.txt" "$out/summary.txt"
mkdir -p "$work/results"
ipp_probe_modes "$work/probe"

## ---------------------------------------------------------------------
## The plan: for each test and level, the options to build with or the
## reason to skip (dg.sh reads the directives).  One line per test and
## level:  name <TAB> level <TAB> run|link|compile|assemble|skip <TAB> flags|reason
## ---------------------------------------------------------------------
msg "planning ${#tests[@]} tests at levels $levels"
dg_init "$work/et"
dg_plan "$src" "$levels" "${tests[@]}" >"$work/plan.txt"

## ---------------------------------------------------------------------
## Build and run, one test per job (run-one.sh), $jobs at a time.
## ---------------------------------------------------------------------
msg "running ${#tests[@]} tests x levels ($levels) x modes ($IPP_MODES), $jobs jobs, ${timeout}s per run"
export T_SRC=$src T_WORK=$work T_PLAN=$work/plan.txt T_TIMEOUT=$timeout T_KEEP=$keep
printf '%s\n' "${tests[@]}" | xargs -P "$jobs" -n 1 bash "$here/run-one.sh" || true

## ---------------------------------------------------------------------
## Collect: results in list order, then failures.txt and the summary.
## ---------------------------------------------------------------------
for t in "${tests[@]}"; do
	if [ -f "$work/results/$t.res" ]; then
		cat "$work/results/$t.res"
	else
		printf 'FAIL\t%s\t-\t-\tharness error: no result (run-one.sh died)\n' "$t"
	fi
done >"$work/raw.txt"
# Expected failures ($xfail): FAIL -> XFAIL, PASS -> FAIL.
apply_xfails "$xfail" "$work/raw.txt" >"$out/results.txt"

{
	echo "# Failures of the torture harness: each with the commands that"
	echo "# reproduce it (instrumented build and run, then the plain one)."
	for t in "${tests[@]}"; do
		[ -f "$work/results/$t.fail" ] && cat "$work/results/$t.fail"
	done
	true
} >"$out/failures.txt"

status=0
summarize "$out/results.txt" "$out" \
	"$HARNESS_NAME: ${#tests[@]} tests x levels ($levels) x modes ($IPP_MODES), one check each" \
	"$(basename "$xfail")" >"$out/summary.txt" || status=1
echo "time: $((SECONDS - start)) s ($jobs jobs)" >>"$out/summary.txt"
cat "$out/summary.txt"
exit $status
