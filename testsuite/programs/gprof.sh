#!/bin/bash
# gprof.sh -- gprof as an oracle for the call arcs derived from a path
# profile (issue 4/5: "equal gprof's arcs ... for arcs whose caller is
# inside the executable").
#
# For every single-threaded program in testsuite/programs/ and examples/:
#   1. build it with gcc -pg -O0 -fno-inline, run it, and read the arcs
#      caller -> callee (count) of `gprof -b -q`: each parent line "a/b
#      CALLER [i]" above a function's primary line [j];
#   2. build it with ipp at -O0 -fno-inline in each mode, run it the same
#      way, and read `ipp counts --calls` (its "# arcs" section);
#   3. require equal counts for every arc gprof reports, except
#      - arcs from <spontaneous> (glibc's mcount cannot see a caller: libc
#        callbacks such as qsort's comparator, signal handlers);
#      - recursive arcs (gprof prints self-calls and calls inside a cycle
#        without an a/b count);
#      - arcs of call sites through function pointers: ipp does not yet
#        record the callee of an indirect call (issue 4); they are listed
#        as NOT COMPARED, never counted as passes;
#      and require every direct arc ipp reports to be in gprof's list.
# Programs with "ipp-cflags: -pthread" are left out: mcount drops arcs of
# concurrent threads.
#
# Environment: srcdir, builddir (automake sets them), IPP_TEST_MODES.
# Prints "N passed, N failed" and exits non-zero if anything failed.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u

srcdir=$(cd "${srcdir:-.}" && pwd)
builddir=$(cd "${builddir:-.}" && pwd)
wrap=$builddir/plugin/ipp-gcc-uninstalled
ipp=$builddir/ipp
modes=${IPP_TEST_MODES:-intra context}
work=$(mktemp -d "${TMPDIR:-/tmp}/ipp-gprof.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "PASS: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# "CALLER CALLEE COUNT" for each parent line with an a/b count
gprof_arcs() {
	awk '
	    BEGIN { n = 0 }
	    /^-+$/ { n = 0; next }
	    /^\[[0-9]+\]/ {
		callee = $0
		sub(/ \[[0-9]+\] *$/, "", callee)
		sub(/ <cycle [0-9]+>$/, "", callee)
		sub(/.*[0-9] +/, "", callee)
		for (i = 0; i < n; i++) print par[i], callee, cnt[i]
		n = 0; next
	    }
	    /[0-9]+\/[0-9]+ / && /\[[0-9]+\] *$/ {
		for (f = 1; f <= NF; f++) if ($f ~ /^[0-9]+\/[0-9]+$/) break
		split($f, ab, "/")
		name = $(f + 1)
		if (name ~ /^</) next		# <spontaneous>, <cycle N>
		par[n] = name; cnt[n] = ab[1]; n++
	    }' "$1" | awk '$1 != $2' | sort
}

for src in "$srcdir"/testsuite/programs/*.c "$srcdir"/examples/*.c; do
	[ -f "$src" ] || continue
	name=$(basename "$src" .c)
	cflags=$(sed -n 's/.*ipp-cflags: *//p' "$src")
	case " $cflags " in *" -pthread "*) continue ;; esac
	dir=$work/$(basename "$(dirname "$src")")-$name
	mkdir -p "$dir/pg"
	if ! gcc -O0 -fno-inline -w -pg $cflags "$src" -o "$dir/pg/$name" 2>"$work/err"; then
		bad "$name: does not compile with -pg"
		continue
	fi
	(cd "$dir/pg" && timeout 20 "./$name" >/dev/null 2>&1 </dev/null)
	if ! gprof -b -q "$dir/pg/$name" "$dir/pg/gmon.out" >"$dir/pg/graph" 2>"$work/err"; then
		# a program that calls none of its own functions has no call graph
		if [ -s "$dir/pg/gmon.out" ] && grep -q "call-graph" "$work/err"; then
			: >"$dir/pg/graph"
		else
			bad "$name: gprof failed"
			sed 's/^/    /' "$work/err"
			continue
		fi
	fi
	gprof_arcs "$dir/pg/graph" >"$dir/gprof"
	# members of a recursion cycle: gprof prints their arcs without counts
	sed -n 's/^\[[0-9]*\].* \([^ ]*\) <cycle [0-9]*> \[[0-9]*\] *$/\1/p' "$dir/pg/graph" |
		sort -u >"$dir/cycle"
	for mode in $modes; do
		t="$name $mode"
		exe=$dir/$name.$mode
		prof=$dir/$name.$mode.prof
		if ! "$wrap" -O0 -fno-inline -w $cflags -fplugin-arg-ipp-mode=$mode "$src" \
		     -o "$exe" 2>"$work/err"; then
			bad "$t: does not compile with ipp"
			continue
		fi
		(cd "$dir" && IPP_PROFILE=$prof timeout 20 "$exe" >/dev/null 2>&1 </dev/null)
		if ! "$ipp" counts --calls "$exe" "$prof" >"$exe.calls" 2>"$work/err"; then
			bad "$t: ipp counts failed"
			sed 's/^/    /' "$work/err"
			continue
		fi
		# direct arcs, and callers that have indirect call sites
		awk '/^# arcs/ { a = 1; next } /^#/ { a = 0 }
		     a && $2 == "->" && $1 != $3 { print $1, $3, $4 }' "$exe.calls" | sort >"$exe.ipp"
		awk '$2 == "->" && $3 == "(indirect)" { print $1 }' "$exe.calls" | sort -u >"$exe.ind"
		errs=0
		skipped=""
		while read -r caller callee count; do
			got=$(awk -v a="$caller" -v b="$callee" '$1 == a && $2 == b { print $3 }' "$exe.ipp")
			if [ -z "$got" ] && grep -qx "$caller" "$exe.ind"; then
				skipped="$skipped $caller->$callee"
				continue
			fi
			if [ "$got" != "$count" ]; then
				echo "    $caller -> $callee: gprof $count, ipp ${got:-none}"
				errs=$((errs + 1))
			fi
		done <"$dir/gprof"
		while read -r caller callee count; do
			if grep -qx "$caller" "$dir/cycle" && grep -qx "$callee" "$dir/cycle"; then
				continue	# inside a cycle: gprof gives no count
			fi
			if ! awk -v a="$caller" -v b="$callee" '$1 == a && $2 == b { f = 1 } END { exit !f }' "$dir/gprof"; then
				echo "    $caller -> $callee: ipp $count, not in gprof's call graph"
				errs=$((errs + 1))
			fi
		done <"$exe.ipp"
		[ -n "$skipped" ] && echo "NOT COMPARED: $t: indirect arcs$skipped (ipp does not record indirect callees yet)"
		if [ "$errs" -eq 0 ]; then
			ok "$t ($(wc -l <"$exe.ipp") direct arcs)"
		else
			bad "$t: call arcs differ from gprof's"
		fi
	done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
