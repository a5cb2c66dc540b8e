#!/bin/bash
# run.sh -- end-to-end tests of the whole pipeline (plugin, runtime, ipp).
#
# For every program here, at -O0 and -O2, in every mode the plugin offers:
#   1. build it plain (gcc) and with ipp (the build tree's ipp-gcc), run both:
#      standard output and exit status must be identical;
#   2. decode the profile with `ipp report --all --format=yaml` and compare
#      the path counts of each region with the program's annotations,
#      written from the program's logic (never from ipp's output):
#         ipp-expect MODE REGION: c1 c2 ...          complete paths
#         ipp-expect-partial MODE REGION: c1 ...     partial paths
#         ipp-expect-total MODE: N                   paths numbered in all
#      The counts are compared as multisets (path numbers depend on GCC's
#      CFG, counts do not).  When a program has annotations for a mode, every
#      region must match exactly: a region not listed records nothing.
#   3. compare the call arcs of `ipp counts --calls` with the annotations
#         ipp-expect-arc MODE: CALLER -> CALLEE COUNT     (section "# arcs")
#         ipp-expect-icall MODE: CALLER -> CALLEE COUNT   ("# indirect calls")
#      For every caller an annotation names, the section's lines from that
#      caller must be exactly the annotated ones (file:line dropped).
#   MODE may be written MODE@-O0 or MODE@-O2: a program with annotations for
#   MODE@O at optimization level O is checked against those alone at that
#   level (tail calls are sibling calls, summarized, at -O2 only:
#   docs/PROTOCOL.md, "Tail calls"), else against MODE's.
#   A line "ipp-cflags: FLAGS" adds FLAGS to both builds.  The instrumented
#   build runs with IPP_VERBOSE=1 and must print no "ipp: warning"/"ipp: error".
# The annotations are of the source program: its calls as written.  So the
# instrumented builds here instrument before GCC's early inliner
# (-fplugin-arg-ipp-einline=no: intra mode's default, not context mode's),
# whose inlining and early optimizations (tail recursion made a loop, a
# copy folded away) change the call structure at -O2.  einline.sh checks
# context mode's default build against these same annotations, on the
# programs where GCC's early passes leave the source's paths.
#
# Environment: srcdir, builddir (automake sets them), IPP_TEST_MODES, and
# IPP_TEST_IPPFLAGS: more flags for the ipp build only, IPP_TEST_PROGRAMS:
# the programs to test, by name (default: every one) (both for einline.sh).
# Prints "N passed, N failed" and exits non-zero if anything failed.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u

srcdir=${srcdir:-.}
builddir=${builddir:-.}
wrap=$builddir/plugin/ipp-gcc-uninstalled
ipp=$builddir/ipp
modes=${IPP_TEST_MODES:-intra context}
work=$(mktemp -d "${TMPDIR:-/tmp}/ipp-programs.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "PASS: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# "region complete|partial count" lines from a YAML report
counts_of() {
	awk '/^ *- rank:/ { r = ""; c = ""; p = "" }
	     /^ *region:/ { r = $2 }
	     /^ *count:/ { c = $2 }
	     /^ *partial:/ { p = ($2 == "true") ? "partial" : "complete";
			     print r, p, c }' "$1"
}

# calls_check SRC MODE EXE PROF: the ipp-expect-arc / ipp-expect-icall
# annotations of MODE against `ipp counts --calls`; prints the differences
calls_check() {
	local src=$1 mode=$2 exe=$3 prof=$4 rc=0 kind section
	if ! "$ipp" counts --calls "$exe" "$prof" >"$exe.calls" 2>"$work/err"; then
		sed 's/^/    /' "$work/err"
		return 1
	fi
	for kind in arc icall; do
		section="# arcs"
		[ $kind = icall ] && section="# indirect calls"
		sed -n "s/.*ipp-expect-$kind $mode: *//p" "$src" | sort >"$exe.$kind.want"
		[ -s "$exe.$kind.want" ] || continue
		awk -v callers="$(awk '{ print $1 }' "$exe.$kind.want" | sort -u)" -v sec="$section" '
		    BEGIN { n = split(callers, c, "\n"); for (i = 1; i <= n; i++) want[c[i]] = 1 }
		    /^#/ { on = ($0 == sec); next }
		    on && ($1 in want) { print $1, $2, $3, $4 }' "$exe.calls" | sort >"$exe.$kind.got"
		if ! cmp -s "$exe.$kind.want" "$exe.$kind.got"; then
			echo "    $section (< expected, > got):"
			diff "$exe.$kind.want" "$exe.$kind.got" | grep '^[<>]' | sed 's/^/    /'
			rc=1
		fi
	done
	return $rc
}

# the expected lines of one mode, normalized like counts_of's output
expected_of() {
	local src=$1 mode=$2
	sed -n "s/.*ipp-expect\(-partial\)\{0,1\} $mode \([^:]*\):\(.*\)/\1 \2 \3/p" "$src" |
	while read -r first rest; do
		if [ "$first" = "-partial" ]; then
			set -- $rest
			kind=partial
		else
			set -- $first $rest
			kind=complete
		fi
		region=$1
		shift
		for c in "$@"; do
			echo "$region $kind $c"
		done
	done
}

for src in "$srcdir"/testsuite/programs/*.c; do
	name=$(basename "$src" .c)
	case " ${IPP_TEST_PROGRAMS:-$name} " in *" $name "*) ;; *) continue ;; esac
	cflags=$(sed -n 's/.*ipp-cflags: *//p' "$src")
	for O in -O0 -O2; do
		plain=$work/$name$O.plain
		if ! gcc $O -w $cflags "$src" -o "$plain" 2>"$work/err"; then
			bad "$name $O: does not compile plain"
			continue
		fi
		(cd "$work" && timeout 20 "$plain" >"$plain.out" 2>/dev/null </dev/null)
		echo $? >"$plain.rc"
		for mode in $modes; do
			t="$name $O $mode"
			# the annotations' key: MODE@O if the program has any
			key=$mode
			grep -q "ipp-expect[a-z-]* $mode@$O[ :]" "$src" && key=$mode@$O
			exe=$work/$name$O.$mode
			prof=$work/$name$O.$mode.prof
			if ! "$wrap" $O -w $cflags -fplugin-arg-ipp-mode=$mode \
			     -fplugin-arg-ipp-einline=no ${IPP_TEST_IPPFLAGS:-} "$src" -o "$exe" \
			     2>"$work/err"; then
				bad "$t: does not compile with ipp"
				sed 's/^/    /' "$work/err"
				continue
			fi
			(cd "$work" && IPP_VERBOSE=1 IPP_PROFILE=$prof timeout 20 "$exe" \
				>"$exe.out" 2>"$exe.err" </dev/null)
			echo $? >"$exe.rc"
			if ! cmp -s "$plain.out" "$exe.out" || ! cmp -s "$plain.rc" "$exe.rc"; then
				bad "$t: output or exit status differs from the plain build"
				continue
			fi
			# IPP_VERBOSE=1: the runtime also reports what it could not
			# record (e.g. dead frames on the list); none is expected.
			if grep -q '^ipp: \(warning\|error\)' "$exe.err"; then
				bad "$t: the runtime complained"
				grep '^ipp: \(warning\|error\)' "$exe.err" | sed 's/^/    /'
				continue
			fi
			checked=output
			if grep -q "ipp-expect-i\{0,1\}\(arc\|call\) $key:" "$src"; then
				if ! calls_check "$src" "$key" "$exe" "$prof"; then
					bad "$t: call arcs differ from the annotations"
					continue
				fi
				checked="output, calls"
			fi
			if ! grep -q "ipp-expect\(-partial\)\{0,1\} $key " "$src"; then
				ok "$t ($checked)"
				continue
			fi
			if ! "$ipp" report --all --format=yaml "$exe" "$prof" >"$exe.yaml" \
			     2>"$work/err"; then
				bad "$t: ipp report failed"
				sed 's/^/    /' "$work/err"
				continue
			fi
			counts_of "$exe.yaml" | sort >"$exe.got"
			expected_of "$src" "$key" | sort >"$exe.want"
			want_total=$(sed -n "s/.*ipp-expect-total $key: *//p" "$src")
			if [ -n "$want_total" ]; then
				awk '/^ *total_paths:/ { t += $2 } END { print "total", t }' \
					"$exe.yaml" >>"$exe.got"
				echo "total $want_total" >>"$exe.want"
			fi
			if cmp -s "$exe.got" "$exe.want"; then
				ok "$t ($checked, counts)"
			else
				bad "$t: path counts differ from the annotations (< expected, > got)"
				diff "$exe.want" "$exe.got" | grep '^[<>]' | sed 's/^/    /'
			fi
		done
	done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
