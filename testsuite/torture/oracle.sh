#!/bin/bash
# oracle.sh -- gcov as an oracle for ipp's derived counts, over GCC's
# execution torture tests.
#
#   oracle.sh [--list FILE] [--out DIR] [--cache DIR] [--jobs N]
#             [--known FILE] [TEST.c ...]
#
# testsuite/programs/gcov.sh compares, for one program, every function's
# entry count and every single-block source line's count derived from an
# ipp path profile with gcov's (-O0 -fno-inline --coverage), in the modes
# intra and context (IPP_TEST_MODES), and checks the profile with `ipp
# check`.  This script runs it over the torture sample (sample.txt; or
# --list FILE, or the tests named) at -O0, each test with its own options
# (dg-options..., as testsuite/torture/run.sh gives them, less -O levels).
# A test is compared when its directives let it run here (dg.sh), it is
# single-threaded (never mentions pthread) and its gcov build exits 0 (it
# passes plainly); the others are skipped with the reason.
#
# Every mismatch must be listed in the known differences (oracle-known.txt,
# or --known FILE), one per line:
#   TEST MODE ITEM REASON...     (MODE may be *: every mode; ITEM is
#                                FILE:LINE or FUNCTION())
# A listed mismatch is reported as KNOWN with its reason; one not listed is
# a failure, and so is a listed one that does not happen ("known difference
# gone": the list can only shrink with the truth), and any other failure of
# gcov.sh (a build, `ipp counts`, `ipp check`).
#
# Prints, on lines of their own,
#   functions: N compared, N mismatched
#   lines: N compared, N mismatched (of N in a single block of gcov's graph)
# then the known differences, the failures and the skip reasons, and exits
# 1 if anything failed, 99 if it could not run.  In DIR (default
# testsuite/torture/oracle of the build tree): summary.txt, tally.txt (the
# records of every comparison, see gcov.sh's IPP_GCOV_TALLY) and logs/
# (gcov.sh's output for each test).
#
# Environment: see common.sh (IPP_BUILDDIR, IPP_SRCDIR, ...);
# IPP_TEST_MODES, the modes (default: intra context).
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).

set -euo pipefail
HARNESS_NAME=oracle
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
. "$here/dg.sh"

list=
out=
cache=
known=$here/oracle-known.txt
jobs=$(nproc 2>/dev/null || echo 2)
tests=()
while [ $# -gt 0 ]; do
	case $1 in
	--list) list=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--cache) cache=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--known) known=$2; shift 2 ;;
	-h | --help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	-*) die "unknown option $1 (see --help)" ;;
	*) tests+=("$(basename "$1")"); shift ;;
	esac
done

ipp_resolve_tools
command -v gcov >/dev/null 2>&1 || die "gcov not found"
[ -r "$known" ] || die "cannot read the known differences $known"
: "${out:=$IPP_BUILDDIR/testsuite/torture/oracle}"
: "${cache:=$IPP_BUILDDIR/testsuite/torture/cache}"
[ -n "$list" ] || [ ${#tests[@]} -gt 0 ] || list=$here/sample.txt
mkdir -p "$out"
out=$(cd "$out" && pwd)
start=$SECONDS
src=$(bash "$here/fetch.sh" "$cache")
if [ -n "$list" ]; then
	while read -r t; do tests+=("$t"); done < <(list_names "$list")
fi
for t in "${tests[@]}"; do
	[ -r "$src/$t" ] || die "no test $t in $src"
done

work=$out/work
rm -rf "$work" "$out/logs" "$out/tally.txt" "$out/summary.txt"
mkdir -p "$work/tally" "$out/logs"

# The plan at -O0 (dg.sh): "name <TAB> -O0 <TAB> action <TAB> flags|reason".
dg_init "$work/et"
dg_plan "$src" -O0 "${tests[@]}" >"$work/plan.txt"
: >"$work/skips"
: >"$work/jobs"
while IFS=$'\t' read -r t _ action rest; do
	if [ "$action" != run ]; then
		printf '%s\t%s\n' "$t" "${rest:-does not run here ($action)}" >>"$work/skips"
	elif grep -q pthread "$src/$t" || [[ " $rest " == *" -pthread "* ]]; then
		printf '%s\t%s\n' "$t" "threads" >>"$work/skips"
	else
		# the test's options without its -O levels: gcov.sh builds at -O0
		printf '%s\t%s\n' "$t" "$(printf '%s\n' $rest | grep -v '^-O' | tr '\n' ' ')" >>"$work/jobs"
	fi
done <"$work/plan.txt"

msg "gcov.sh over $(wc -l <"$work/jobs") of ${#tests[@]} tests, modes ${IPP_TEST_MODES:-intra context}, $jobs jobs"
export T_SRC=$src T_WORK=$work T_OUT=$out T_GCOV=$IPP_SRCDIR/testsuite/programs/gcov.sh
# One test per job: gcov.sh with the test's options, its records in
# work/tally/TEST (appended by gcov.sh), its output in logs/TEST.log.
tr '\t' '\037' <"$work/jobs" | xargs -P "$jobs" -d '\n' -n 1 bash -c '
	t=${1%%$'"'"'\037'"'"'*}; f=${1#*$'"'"'\037'"'"'}
	IPP_GCOV_TALLY=$T_WORK/tally/$t IPP_GCOV_CFLAGS=$f srcdir=$IPP_SRCDIR builddir=$IPP_BUILDDIR \
		bash "$T_GCOV" "$T_SRC/$t" >"$T_OUT/logs/$t.log" 2>&1
	echo "$?" >"$T_WORK/tally/$t.status"' oracle-job || true

# Collect, in list order.  A test gcov.sh skipped: its SKIP line's reason.
while IFS=$'\t' read -r t _; do
	if [ ! -f "$work/tally/$t.status" ]; then
		printf 'fail\t%s: harness error: gcov.sh did not finish\n' "${t%.c}"
	elif grep -q '^SKIP: ' "$out/logs/$t.log"; then
		printf 'skip\t%s\t%s\n' "$t" "$(sed -n 's/^SKIP: [^:]*: //p' "$out/logs/$t.log" |
			sed 's/status [0-9]*/status N/' | head -n 1)"
	else
		printf 'test\t%s\n' "$t"
		cat "$work/tally/$t" 2>/dev/null || true
	fi
done <"$work/jobs" >"$out/tally.txt"
while IFS=$'\t' read -r t why; do printf 'skip\t%s\t%s\n' "$t" "$why"; done \
	<"$work/skips" >>"$out/tally.txt"

status=0
sed 's/#.*//' "$known" | awk -F'\t' -v tests="${tests[*]}" '
	BEGIN { n = split(tests, ts, " "); for (i = 1; i <= n; i++) { s = ts[i]; sub(/\.c$/, "", s); inlist[s] = 1 } }
	NR == FNR {	# the known differences: TEST MODE ITEM REASON
		if ($0 !~ /[^ \t]/) next
		split($0, w, " "); r = $0
		for (i = 1; i <= 3; i++) sub(/^[ \t]*[^ \t]+/, "", r)
		sub(/^[ \t]+/, "", r); t = w[1]; sub(/\.c$/, "", t)
		if (!(t in inlist)) next	# not run this time
		k = t SUBSEP w[2] SUBSEP w[3]; known[k] = r; seen[k] = 0; knames[k] = w[1] " " w[2] " " w[3]
		next
	}
	$1 == "test" { ntests++ }
	$1 == "skip" { nskip++; why[$3]++ }
	$1 == "functions" { fc += $4; fm += $5 }
	$1 == "lines" { lc += $4; lm += $5; ls += $6 }
	$1 == "mismatch" {
		k = $2 SUBSEP $3 SUBSEP $4; k2 = $2 SUBSEP "*" SUBSEP $4
		if (k in known) { seen[k]++; kn[++nk] = "KNOWN: " $2 ".c " $3 " " $4 ": " $5 " -- " known[k] }
		else if (k2 in known) { seen[k2]++; kn[++nk] = "KNOWN: " $2 ".c " $3 " " $4 ": " $5 " -- " known[k2] }
		else fl[++nf] = "FAIL: " $2 ".c " $3 " " $4 ": " $5
		next
	}
	$1 == "fail" {	# mismatches are reported above, one by one
		if ($2 ~ /: function entry counts differ from gcov.s$/) next
		if ($2 ~ /: line counts differ from gcov.s \(/ && $2 !~ /\(0 of [1-9]/) next
		fl[++nf] = "FAIL: " $2
	}
	END {
		for (k in seen) if (!seen[k]) fl[++nf] = "FAIL: known difference gone: " knames[k] " (remove it from oracle-known.txt)"
		printf "oracle: %d tests, %d compared, %d skipped\n", ntests + nskip, ntests, nskip
		printf "functions: %d compared, %d mismatched\n", fc, fm
		printf "lines: %d compared, %d mismatched (of %d in a single block of gcov'"'"'s graph)\n", lc, lm, ls
		printf "%d known differences, %d failures\n", nk, nf
		for (i = 1; i <= nk; i++) print kn[i]
		for (i = 1; i <= nf; i++) print fl[i]
		for (w in why) printf "skipped: %d: %s\n", why[w], w
		exit nf > 0
	}' - "$out/tally.txt" >"$out/summary.txt" || status=1
echo "time: $((SECONDS - start)) s ($jobs jobs)" >>"$out/summary.txt"
cat "$out/summary.txt"
exit $status
