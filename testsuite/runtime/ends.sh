#!/bin/bash
# ends.sh -- profiles of programs that end abnormally, end to end
# (plugin, runtime, ipp): at a fatal signal, and through exec.  For every
# program in testsuite/runtime/ends/, at -O0 and -O2, in intra and context
# mode:
#   1. the plain build (gcc) and the instrumented one (the build tree's
#      ipp-gcc, default environment: fatal-signal profiles are on by
#      default, and ipp-gcc wraps the exec family) end the same way, the
#      one the program annotates:
#         ipp-end: signal SEGV|FPE|ILL|ABRT|BUS     or     ipp-end: exit N
#      and print the same standard output;
#   2. the profile passes `ipp check` (flow conserved at every vertex);
#   3. the function entries of `ipp counts` and the call arcs of
#      `ipp counts --calls` equal the annotations, written from the
#      program's logic:
#         ipp-entries: FUNC N, FUNC N, ...
#         ipp-calls: CALLER -> CALLEE N, ...
#      (every function and caller named must match; others are not
#      checked);
#   4. with "ipp-stop: FUNC:LINE", some partial path stops there (the
#      faulting activation's last checkpoint).
# "ipp-cflags: FLAGS" adds FLAGS to both builds.
# Then the programs that die of a signal with IPP_SIGNALS=0: the same
# death, no profile.
#
# Environment: srcdir, builddir (automake sets them).
# Prints "N passed, N failed" and exits non-zero if anything failed.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u

srcdir=${srcdir:-.}
builddir=${builddir:-.}
wrap=$builddir/plugin/ipp-gcc-uninstalled
ipp=$builddir/ipp
work=$(mktemp -d "${TMPDIR:-/tmp}/ipp-ends.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
ulimit -c 0

ok() { pass=$((pass + 1)); echo "PASS: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# run EXE PROFILE [ENV...]: runs EXE in $work with a 20 s limit; prints its
# exit status (128 + signal for a death by signal)
run() {
	local exe=$1 prof=$2
	shift 2
	(cd "$work" && env "$@" IPP_PROFILE="$prof" timeout -k 5 20 "$exe" \
		>"$exe.out" 2>"$exe.err" </dev/null)
	echo $?
}

# the "NAME N" pairs of annotation KEY in SRC, one per line
pairs() {
	sed -n "s/.*$2: *//p" "$1" | tr ',' '\n' | sed 's/^ *//; s/ *$//' | grep -v '^$'
}

for src in "$srcdir"/testsuite/runtime/ends/*.c; do
	name=$(basename "$src" .c)
	sig=$(sed -n 's/.*ipp-end: *signal *\([A-Z]*\).*/\1/p' "$src")
	if [ -n "$sig" ]; then
		want_rc=$((128 + $(kill -l "$sig")))
		how="SIG$sig"
	else
		want_rc=$(sed -n 's/.*ipp-end: *exit *\([0-9]*\).*/\1/p' "$src")
		how="exit $want_rc"
	fi
	cflags=$(sed -n 's/.*ipp-cflags: *//p' "$src")
	for O in -O0 -O2; do
		plain=$work/$name$O.plain
		if ! gcc $O -w $cflags "$src" -o "$plain" 2>"$work/err"; then
			bad "$name $O: does not compile plain"
			continue
		fi
		rc=$(run "$plain" /dev/null)
		if [ "$rc" != "$want_rc" ]; then
			bad "$name $O: the plain build ends with $rc, not $how ($want_rc)"
			continue
		fi
		for mode in intra context; do
			t="$name $O $mode"
			exe=$work/$name$O.$mode
			prof=$exe.prof
			if ! "$wrap" $O -w $cflags -fplugin-arg-ipp-mode=$mode "$src" -o "$exe" \
			     2>"$work/err"; then
				bad "$t: does not compile with ipp"
				sed 's/^/    /' "$work/err"
				continue
			fi
			rc=$(run "$exe" "$prof")
			if [ "$rc" != "$want_rc" ] || ! cmp -s "$plain.out" "$exe.out"; then
				bad "$t: ends with $rc (want $want_rc) or prints other output"
				sed 's/^/    /' "$exe.err"
				continue
			fi
			if [ ! -s "$prof" ]; then
				bad "$t: no profile written"
				sed 's/^/    /' "$exe.err"
				continue
			fi
			if ! "$ipp" check "$exe" "$prof" >"$work/check" 2>&1; then
				bad "$t: ipp check rejects the profile"
				sed 's/^/    /' "$work/check"
				continue
			fi
			"$ipp" counts "$exe" "$prof" >"$exe.entries" 2>&1
			"$ipp" counts --calls "$exe" "$prof" |
				sed -n '/^# arcs/,$p' >"$exe.arcs" 2>&1
			diffs=$(
				pairs "$src" ipp-entries | while read -r fn n; do
					got=$(awk -v f="$fn" '$1 == f { print $2 }' "$exe.entries")
					[ "$got" = "$n" ] || echo "entries of $fn: $got, expected $n"
				done
				pairs "$src" ipp-calls | while read -r from arrow to n; do
					got=$(awk -v f="$from" -v t="$to" '$1 == f && $3 == t { print $4 }' \
						"$exe.arcs")
					[ "$got" = "$n" ] || echo "calls $from -> $to: $got, expected $n"
				done
				stop=$(sed -n 's/.*ipp-stop: *//p' "$src")
				if [ -n "$stop" ] && ! "$ipp" report --all "$exe" "$prof" |
				     grep -q -- "$stop (stopped)"; then
					echo "no partial path stops at $stop"
				fi
			)
			if [ -n "$diffs" ]; then
				bad "$t: counts differ from the annotations"
				echo "$diffs" | sed 's/^/    /'
				continue
			fi
			ok "$t"
		done
	done
	# IPP_SIGNALS=0: no handler, no profile, the same death
	exe=$work/$name-O0.intra
	[ -n "$sig" ] && [ -x "$exe" ] || continue
	rm -f "$exe.off.prof"
	rc=$(run "$exe" "$exe.off.prof" IPP_SIGNALS=0)
	if [ "$rc" = "$want_rc" ] && [ ! -e "$exe.off.prof" ]; then
		ok "$name IPP_SIGNALS=0"
	else
		bad "$name IPP_SIGNALS=0: ends with $rc (want $want_rc), or a profile was written"
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
