#!/bin/bash
# run.sh -- differential testing of ipp with Csmith's random programs.
#
#   run.sh [-n N | --seeds "S1 S2 ..."] [--out DIR] [--levels "-O0 -O2"]
#          [--jobs N] [--timeout SECS] [--keep]
#
# For each seed (1..N, default N=10, or the list), Csmith generates a
# program (`csmith --seed S`); it is built at each level plainly with
# $IPP_CC and once per plugin mode with ipp-gcc, and every build runs under
# a time limit with the argument "1", which makes a Csmith program print
# the checksum of every global variable and then the total ("checksum =
# ..."): the instrumented build must print the same lines and exit with the
# same status.  One check is a (seed, level, mode) triple.  It
#   - is skipped when Csmith fails, or the program does not compile plainly,
#     times out plainly (Csmith programs may loop for very long) or exits
#     non-zero plainly; the reason is kept;
#   - fails when the instrumented build does not compile (ICE or error),
#     times out where the plain one did not, behaves differently, or its
#     profile is missing or fails `ipp check` (check_profile in
#     ../torture/common.sh);
#   - passes otherwise.
# Prints "N passed, N failed, N skipped" on a line of its own, the skip
# reasons with their counts, and exits 1 if a check failed.
#
# Files written in DIR (default: testsuite/csmith/out in the build tree):
#   results.txt, failures.txt, skips.txt, summary.txt as in the torture
#   harness; work/seed-S/ keeps the program and builds of failed checks.
#
# Environment: see ../torture/common.sh (IPP_CC, IPP_PLUGIN, IPP_RUNTIME,
# IPP_GCC, IPP_TOOL, IPP_MODES, IPP_BUILDDIR); CSMITH (the generator, default csmith),
# CSMITH_INCLUDE (its runtime headers, default /usr/include/csmith);
# CSMITH_JOBS, CSMITH_TIMEOUT and CSMITH_LEVELS: defaults of the options.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).

set -euo pipefail
HARNESS_NAME=csmith
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../torture/common.sh"

## ---------------------------------------------------------------------
## Options.
## ---------------------------------------------------------------------
n=10
seeds=
out=
levels=${CSMITH_LEVELS:--O0 -O2}
jobs=${CSMITH_JOBS:-$(nproc 2>/dev/null || echo 2)}
timeout=${CSMITH_TIMEOUT:-10}
keep=0
while [ $# -gt 0 ]; do
	case $1 in
	-n) n=$2; shift 2 ;;
	--seeds) seeds=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--levels) levels=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	-h | --help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "unknown argument $1 (see --help)" ;;
	esac
done
[[ $n =~ ^[0-9]+$ ]] || die "-n takes a number, not '$n'"
[ -n "$seeds" ] || seeds=$(seq 1 "$n")
read -r -a seed_list <<<"$(tr '\n' ' ' <<<"$seeds")"
for s in "${seed_list[@]}"; do
	[[ $s =~ ^[0-9]+$ ]] || die "a seed is a number, not '$s'"
done

ipp_resolve_tools
: "${out:=$IPP_BUILDDIR/testsuite/csmith/out}"
mkdir -p "$out"
out=$(cd "$out" && pwd)
start=$SECONDS

## ---------------------------------------------------------------------
## Csmith and its headers (Debian: packages csmith and libcsmith-dev).
## ---------------------------------------------------------------------
: "${CSMITH:=csmith}"
command -v "$CSMITH" >/dev/null ||
	die "no $CSMITH: install it with 'apt-get install csmith libcsmith-dev' (or set CSMITH)"
: "${CSMITH_INCLUDE:=/usr/include/csmith}"
[ -r "$CSMITH_INCLUDE/csmith.h" ] ||
	die "no csmith.h in $CSMITH_INCLUDE: install it with 'apt-get install libcsmith-dev' (or set CSMITH_INCLUDE)"
export CSMITH CSMITH_INCLUDE

## ---------------------------------------------------------------------
## Fresh work area; the modes the plugin accepts.
## ---------------------------------------------------------------------
work=$out/work
rm -rf "$work" "$out/results.txt" "$out/failures.txt" "$out/skips.txt" "$out/summary.txt"
mkdir -p "$work/results"
ipp_probe_modes "$work/probe"

## ---------------------------------------------------------------------
## Generate, build, run and compare: one seed per job.
## ---------------------------------------------------------------------
msg "running ${#seed_list[@]} seeds x levels ($levels) x modes ($IPP_MODES), $jobs jobs, ${timeout}s per run"
export C_WORK=$work C_LEVELS=$levels C_TIMEOUT=$timeout C_KEEP=$keep
printf '%s\n' "${seed_list[@]}" | xargs -P "$jobs" -n 1 bash "$here/run-one.sh" || true

## ---------------------------------------------------------------------
## Collect.
## ---------------------------------------------------------------------
for s in "${seed_list[@]}"; do
	if [ -f "$work/results/$s.res" ]; then
		cat "$work/results/$s.res"
	else
		printf 'FAIL\tseed-%s\t-\t-\tharness error: no result (run-one.sh died)\n' "$s"
	fi
done >"$out/results.txt"

{
	echo "# Failures of the csmith harness: each with the commands that"
	echo "# reproduce it (generate, instrumented build and run, plain build and run)."
	for s in "${seed_list[@]}"; do
		[ -f "$work/results/$s.fail" ] && cat "$work/results/$s.fail"
	done
	true
} >"$out/failures.txt"

status=0
summarize "$out/results.txt" "$out" \
	"csmith: ${#seed_list[@]} seeds x levels ($levels) x modes ($IPP_MODES), one check each" \
	>"$out/summary.txt" || status=1
echo "time: $((SECONDS - start)) s ($jobs jobs)" >>"$out/summary.txt"
cat "$out/summary.txt"
exit $status
