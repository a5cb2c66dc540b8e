#!/bin/bash
# run.sh -- does GCC's own gcc.dg testsuite give the same verdicts with the
# ipp plugin as without it?
#
#   run.sh [--list FILE | --every N] [--out DIR] [--cache DIR]
#          [--levels LEVELS] [--jobs N] [--timeout SECS] [TEST.c ...]
#   run.sh --compare-only [--out DIR] [--levels LEVELS]
#
# GCC 12's gcc.dg/*.c (the top directory: 5798 tests, from Debian's
# gcc-12-source, extracted by testsuite/torture/fetch.sh), or those named in
# FILE or on the command line, run by DejaGnu's own runtest with GCC's own
# drivers (gcc.dg/dg.exp, lib/gcc-dg.exp, lib/target-supports.exp, ...)
# against the installed gcc, once per *variant*: a compiler (plain $IPP_CC,
# or the ipp-gcc wrapper in one plugin mode) at one *level*.  A level is a
# DejaGnu board variant ("-O0", "-O2", "-O2/-fcompare-debug"): its options
# come before the test's own (its dg-options, or gcc.dg's default
# "-ansi -pedantic-errors"), so a test that names its own -O runs at that
# level in every variant.  Test programs run through record-run.sh, which
# records their output, exit status and profile.
#
# One *check* is a (test, level, mode) triple, plain against instrumented
# at that level.  It
#   - is skipped when no DejaGnu result of the test holds plain (it fails
#     or is UNSUPPORTED here);
#   - fails when a result that holds plain (PASS or XFAIL, scan-* results
#     aside) differs instrumented, when the instrumented build has a
#     failure the plain one does not (an ICE, an error, a -fcompare-debug
#     failure, ...), and, for a test whose plain program ran and passed,
#     when the instrumented program exits with another status, prints
#     anything else (stdout and stderr, byte for byte), hangs, writes no
#     profile although it exited normally, or writes a profile that
#     `ipp check' finds invalid;
#   - passes otherwise.
# Expected failures are listed with their reasons in xfail.txt (an
# unexpected pass fails the run).  Prints "N passed, N failed, N skipped",
# a table per level and mode, the skip reasons and the failures, and exits
# 1 if a check failed, 99 if the harness could not run.
#
# Options:
#   --list FILE       the tests named in FILE (one a line, '#' comments)
#   --every N         every Nth test of gcc.dg/*.c in C-locale order (the
#                     Nth, the 2Nth, ...): --every 4 is the fixed quarter
#                     that issue 13 and testsuite/gcc-dg/README report
#   --out DIR         the output directory (default: testsuite/gcc-dg/out
#                     of the build tree)
#   --cache DIR       where the tests are extracted (default:
#                     testsuite/gcc-dg/cache of the build tree)
#   --levels LEVELS   the levels (default: "-O0 -O2 -O2/-fcompare-debug")
#   --jobs N          runtest processes at once (default: the cores)
#   --timeout SECS    per recorded run of a test program (default 30)
#   --compare-only    run nothing: compare again what the last run in DIR
#                     left (after a change to xfail.txt, or the variants
#                     finished so far of a run still going; IPP_MODES and
#                     --levels then pick the variants to compare)
#
# Files written in DIR:
#   summary.txt   what was printed
#   results.txt   one line per check: PASS|FAIL|XFAIL|SKIP, test, level,
#                 mode, detail
#   failures.txt  each failure with DejaGnu's log of it (the compiler's
#                 command line and output), the differences in behaviour,
#                 and the commands that rerun it
#   skips.txt     the skip reasons with counts
#   work/VARIANT/ each variant's runtest directories (gcc.sum, gcc.log)
#                 and records (rec/)
#
# Environment: see testsuite/torture/common.sh (IPP_CC, IPP_PLUGIN,
# IPP_RUNTIME, IPP_GCC, IPP_MODES, IPP_BUILDDIR); GCC_DG_JOBS,
# GCC_DG_TIMEOUT and GCC_DG_LEVELS are the defaults of --jobs, --timeout
# and --levels.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).

set -euo pipefail
HARNESS_NAME=gcc-dg
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../torture/common.sh"

## ---------------------------------------------------------------------
## Options.
## ---------------------------------------------------------------------
list=
every=
out=
cache=
levels=${GCC_DG_LEVELS:--O0 -O2 -O2/-fcompare-debug}
jobs=${GCC_DG_JOBS:-$(nproc 2>/dev/null || echo 2)}
timeout=${GCC_DG_TIMEOUT:-30}
compare_only=0
tests=()
while [ $# -gt 0 ]; do
	case $1 in
	--list) list=$2; shift 2 ;;
	--every) every=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--cache) cache=$2; shift 2 ;;
	--levels) levels=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--compare-only) compare_only=1; shift ;;
	-h | --help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	-*) die "unknown option $1 (see --help)" ;;
	*) tests+=("$(basename "$1")"); shift ;;
	esac
done
[ -z "$every" ] || [[ $every =~ ^[1-9][0-9]*$ ]] || die "--every takes a positive whole number, not '$every'"
for lv in $levels; do
	[[ $lv == -* ]] || die "a level is DejaGnu variant options such as -O2 or -O2/-fcompare-debug, not '$lv'"
done

ipp_resolve_tools
command -v runtest >/dev/null ||
	die "DejaGnu's runtest is missing: install it with 'apt-get install dejagnu'"
: "${out:=$IPP_BUILDDIR/testsuite/gcc-dg/out}"
: "${cache:=$IPP_BUILDDIR/testsuite/gcc-dg/cache}"
mkdir -p "$out"
out=$(cd "$out" && pwd)
start=$SECONDS

## ---------------------------------------------------------------------
## The tests: extract them (once), pick the ones to run.
## ---------------------------------------------------------------------
srcdir=$(bash "$here/../torture/fetch.sh" "$cache" gcc.dg)
work=$out/work
if [ "$compare_only" = 1 ]; then
	[ -z "$list" ] && [ ${#tests[@]} -eq 0 ] || die "--compare-only compares the tests of the last run: name none"
	[ -f "$work/tests.txt" ] || die "no earlier run in $out to compare"
	mapfile -t tests <"$work/tests.txt"
fi
if [ -n "$list" ]; then
	while read -r t; do tests+=("$t"); done < <(list_names "$list")
fi
all=0
if [ -n "$every" ]; then
	[ -z "$list" ] && [ ${#tests[@]} -eq 0 ] && [ "$compare_only" = 0 ] || die "--every picks the tests: name none, and no --list"
	while read -r t; do tests+=("$t"); done < <(cd "$srcdir/gcc.dg" && printf '%s\n' *.c | LC_ALL=C sort | awk -v n="$every" 'NR % n == 0')
elif [ ${#tests[@]} -eq 0 ]; then
	all=1
	for f in "$srcdir"/gcc.dg/*.c; do tests+=("$(basename "$f")"); done
fi
for t in "${tests[@]}"; do
	[ -r "$srcdir/gcc.dg/$t" ] || die "no test $t in $srcdir/gcc.dg"
done

## ---------------------------------------------------------------------
## Fresh work area (unless comparing again); the modes the plugin
## accepts; the instrumenting compiler as one executable (GCC_UNDER_TEST
## is a command line).
## ---------------------------------------------------------------------
rm -f "$out/results.txt" "$out/failures.txt" "$out/skips.txt" "$out/summary.txt"
if [ "$compare_only" = 0 ]; then
	rm -rf "$work"
	mkdir -p "$work"
	printf '%s\n' "${tests[@]}" >"$work/tests.txt"
	if [ "$all" = 1 ]; then echo '*.c' >"$work/runtest-tests.txt"; else cp "$work/tests.txt" "$work/runtest-tests.txt"; fi
fi
ipp_probe_modes "$work/probe"
ipp_wrap
if [ "${IPP_WRAP[0]}" = sh ]; then
	printf '#!/bin/sh\nexec sh %s "$@"\n' "$(shell_quote "$IPP_GCC")" >"$work/ipp-gcc"
	chmod +x "$work/ipp-gcc"
	wrapper=$work/ipp-gcc
else
	wrapper=$IPP_GCC
fi

## ---------------------------------------------------------------------
## The variants, each run by $slots runtest processes (run-unit.sh) that
## share its tests the way GCC's parallel `make check' does; $jobs
## processes at once, variant after variant.
## ---------------------------------------------------------------------
ntests=${#tests[@]}
slots=$jobs
# A small run is not worth a second process per variant.
[ "$ntests" -ge 100 ] || slots=1
# vdir LEVEL KIND: a variant's directory name, e.g. context_-O2_-fcompare-debug.
vdir() { echo "$work/$2_${1//\//_}"; }
units=$work/units.txt
if [ "$compare_only" = 0 ]; then
	: >"$units"
	for lv in $levels; do
		for k in plain $IPP_MODES; do
			kind=ipp mode=$k
			[ "$k" = plain ] && kind=plain mode=-
			for s in $(seq 1 "$slots"); do
				printf '%s %s %s %s %s\n' "$(vdir "$lv" "$k")" "s$s" "$kind" "$mode" "$lv" >>"$units"
			done
		done
	done
	msg "running $ntests tests x levels ($levels) x (plain, $IPP_MODES): $(wc -l <"$units") runtest processes, $jobs at a time, $slots per variant"
	export GCC_DG_SRCDIR=$srcdir GCC_DG_TESTS=$work/runtest-tests.txt GCC_DG_SLOTS=$slots \
		GCC_DG_WRAPPER=$wrapper GCC_DG_IPP=$IPP_TOOL GCC_DG_TIMEOUT=$timeout
	xargs -P "$jobs" -L 1 bash "$here/run-unit.sh" <"$units" || true
fi

## ---------------------------------------------------------------------
## Collect each variant's results (sum.awk), then compare plain and
## instrumented at each level (compare.awk, then the recorded runs).
## ---------------------------------------------------------------------
harness_errors=
while read -r vd slot _ _ lv; do
	case " $levels " in *" $lv "*) ;; *) continue ;; esac
	st=$(cat "$vd/$slot/runtest.status" 2>/dev/null || echo none)
	if [ "$st" != 0 ] && [ "$st" != 1 ]; then
		harness_errors="$harness_errors $(basename "$vd")/$slot (runtest status $st, see $vd/$slot/runtest.out)"
	fi
done <"$units"
for lv in $levels; do
	for k in plain $IPP_MODES; do
		vd=$(vdir "$lv" "$k")
		awk -f "$here/sum.awk" "$vd"/s*/gcc.sum >"$vd/results.txt" 2>/dev/null || true
		# A result that names no test is DejaGnu's own error (a Tcl
		# error in a driver, a missing file): the variant's verdicts
		# cannot be trusted.
		if e=$(grep -m1 '^-	' "$vd/results.txt"); then
			harness_errors="$harness_errors $(basename "$vd") (DejaGnu ${e#-	})"
		fi
	done
done

# compare_runs PREC IREC: compare the recorded runs of a test's plain and
# instrumented programs (record-run.sh); prints the difference, or a note
# prefixed with "note: ", or nothing.
compare_runs() {
	local p=$1 i=$2 st
	if [ ! -f "$p/status" ]; then
		echo "note: no record of the plain run; only DejaGnu's verdict compared"
		return
	fi
	if timed_out "$p"; then
		echo "note: the plain recorded run timed out (${timeout}s); only DejaGnu's verdict compared"
		return
	fi
	if [ ! -f "$i/status" ]; then
		echo "instrumented program not run (no record)"
		return
	fi
	if timed_out "$i"; then
		echo "instrumented run times out (${timeout}s), plain does not"
		return
	fi
	local varies=0
	if ! cmp -s "$p/out" "$p/again/out" || ! cmp -s "$p/err" "$p/again/err"; then
		varies=1
	fi
	same_behaviour "$p" "$i" "$varies" || return 0
	st=$(cat "$i/status")
	if [ -f "$i/ipp.prof" ]; then
		if [ "$(cat "$i/check" 2>/dev/null)" != 0 ]; then
			echo "ipp check finds the profile invalid: $(grep -m1 -i 'violation\|error' "$i/check.log" || tail -n 1 "$i/check.log")"
			return
		fi
	elif [ "$st" = 0 ]; then
		echo "no profile written (the program exited normally)"
		return
	fi
	[ "$varies" = 0 ] || echo "note: exit status only: the plain output varies from run to run"
}

: >"$work/raw.txt"
for lv in $levels; do
	pv=$(vdir "$lv" plain)
	for m in $IPP_MODES; do
		iv=$(vdir "$lv" "$m")
		awk -f "$here/compare.awk" -v level="$lv" -v mode="$m" \
			"$work/tests.txt" "$pv/results.txt" "$iv/results.txt" |
			while IFS=$'\t' read -r kind t l md run detail; do
				if [ "$kind" = PASS ] && [ "$run" = 1 ]; then
					x=${t%.c}.exe
					d=$(compare_runs "$pv/rec/$x" "$iv/rec/$x")
					case $d in
					'') ;;
					note:*) detail=${d#note: } ;;
					*) kind=FAIL detail=$d ;;
					esac
				fi
				printf '%s\t%s\t%s\t%s\t%s\n' "$kind" "$t" "$l" "$md" "$detail"
			done >>"$work/raw.txt"
	done
done
apply_xfails "$here/xfail.txt" "$work/raw.txt" >"$out/results.txt"

## ---------------------------------------------------------------------
## failures.txt: each failure with DejaGnu's log of the test (the
## commands and the compiler's output) and how to rerun it.
## ---------------------------------------------------------------------
# dg_log VDIR TEST: the lines of the variant's gcc.log about TEST, from
# its first command to its last result.
dg_log() {
	awk -v t="gcc.dg/$2" '
		index($0, "/" t " ") || index($0, "/" t "\t") { on = 1 }
		on { buf[++n] = $0 }
		on && index($0, ": " t) && $0 ~ /^[A-Z]+: / { last = n }
		END { for (k = 1; k <= last; k++) print buf[k] }' "$1"/s*/gcc.log
}
{
	echo "# Failures of the gcc.dg harness: each with DejaGnu's log of the test"
	echo "# instrumented (commands and compiler output), the difference in"
	echo "# behaviour, and the commands that rerun it."
	while IFS=$'\t' read -r kind t lv m detail; do
		[ "$kind" = FAIL ] || continue
		iv=$(vdir "$lv" "$m")
		pv=$(vdir "$lv" plain)
		x=${t%.c}.exe
		echo
		echo "== $t $lv $m: $detail"
		echo "   rerun:    IPP_MODES=$m $here/run.sh --out $out/rerun --levels $lv $t"
		dg_log "$iv" "$t" >"$work/dglog.txt"
		cmd=$(sed -n 's/^Executing on host: \(.*[^ ]\) *(timeout = [0-9]*)$/\1/p' "$work/dglog.txt" | head -n 1)
		[ -z "$cmd" ] ||
			echo "   by hand:  cd \$(mktemp -d) && $(shell_quote IPP_CC="$IPP_CC" IPP_PLUGIN="$IPP_PLUGIN" IPP_RUNTIME="$IPP_RUNTIME") $cmd"
		echo "   DejaGnu's log, instrumented ($iv/s*/gcc.log):"
		{ grep -v -e '^spawn ' -e '^Setting LD_LIBRARY_PATH' "$work/dglog.txt" || true; } |
			sed -n '1,25s/^/     | /p'
		if [ -f "$iv/rec/$x/status" ] && [ -f "$pv/rec/$x/status" ]; then
			echo "   recorded runs: plain exit $(cat "$pv/rec/$x/status"), instrumented exit $(cat "$iv/rec/$x/status") ($iv/rec/$x)"
			diff_outputs "$pv/rec/$x" "$iv/rec/$x"
			if [ -f "$iv/rec/$x/check.log" ]; then
				echo "   ipp check (exit $(cat "$iv/rec/$x/check")):"
				sed -n '1,10s/^/     | /p' "$iv/rec/$x/check.log"
			fi
		fi
	done <"$out/results.txt"
	true
} >"$out/failures.txt"

## ---------------------------------------------------------------------
## The summary: the totals, a table per level and mode, skips, failures.
## ---------------------------------------------------------------------
status=0
{
	summarize "$out/results.txt" "$out" \
		"gcc.dg: $ntests tests x levels ($levels) x modes ($IPP_MODES), one check each" || status=1
	echo "per level and mode (checks):"
	awk -F'\t' '{ k = $3 "\t" $4; if (!(k in seen)) { seen[k] = 1; order[++n] = k }
			c[k, $1]++ }
		END { printf "  %-22s %-10s %7s %7s %7s %7s\n", "level", "mode", "passed", "failed", "xfailed", "skipped"
			for (i = 1; i <= n; i++) { split(order[i], f, "\t")
				printf "  %-22s %-10s %7d %7d %7d %7d\n", f[1], f[2], c[order[i], "PASS"],
					c[order[i], "FAIL"], c[order[i], "XFAIL"], c[order[i], "SKIP"] } }' "$out/results.txt"
	if [ -n "$harness_errors" ]; then
		echo "harness errors (runtest did not finish):$harness_errors"
		status=1
	fi
	echo "time: $((SECONDS - start)) s ($jobs jobs)"
} >"$out/summary.txt"
cat "$out/summary.txt"
exit $status
