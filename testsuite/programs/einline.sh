#!/bin/bash
# einline.sh -- the pass after early inlining (-fplugin-arg-ipp-einline,
# docs/NUMBERING.md "Inlined copies"), end to end.
#
#  1. Every program here, at -O0 and -O2, in both modes: the build with
#     -fplugin-arg-ipp-einline behaves as the plain build (output, exit
#     status) and `ipp check` finds its profile valid.
#  2. Inlined copies read and count as source paths: the programs below,
#     whose inlined callees GCC keeps as single-entry copies without calls,
#     give exactly their context-mode annotations (run.sh) with
#     -fplugin-arg-ipp-einline, Figure 9 among them at -O2, where GCC
#     inlines power into main.
#  3. That inlining is not vacuous: at -O2 the map of fig4whole lists two
#     virtual procedures main/power:1 and main/power:2, and `ipp report`
#     names their steps "power:N (inlined into main:M)" with M the lines of
#     the two calls (32 and 36 of fig4pub.c).
#
# Not checked here, because not built yet (README, "Limitations"): intra
# mode's counts of inlined copies (each copy is a region of its own), and
# copies that make calls (left to their caller's blocks, so the caller's
# paths are not source paths).
#
# Environment: srcdir, builddir (automake sets them).
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u

. "$(dirname "$0")/prog-lib.sh"
prog_begin einline
here=$srcdir/testsuite/programs
flag=-fplugin-arg-ipp-einline

# 1. semantics and valid profiles
for src in "$here"/*.c; do
	name=$(basename "$src" .c)
	cflags=$(sed -n 's/.*ipp-cflags: *//p' "$src")
	for O in -O0 -O2; do
		plain=$work/$name$O.plain
		if ! gcc $O -w $cflags "$src" -o "$plain" 2>/dev/null; then
			bad "$name $O: does not compile plain"
			continue
		fi
		(cd "$work" && timeout 20 "$plain" >"$plain.out" 2>/dev/null </dev/null)
		echo $? >"$plain.rc"
		for mode in intra context; do
			exe=$work/$name$O.$mode
			t="$name $O $mode $flag"
			if ! "$wrap" $O -w $cflags -fplugin-arg-ipp-mode=$mode $flag "$src" \
			     -o "$exe" 2>"$work/err"; then
				bad "$t: does not compile"
				sed 's/^/    /' "$work/err" | head -20
				continue
			fi
			(cd "$work" && IPP_PROFILE=$exe.prof timeout 20 "$exe" >"$exe.out" \
				2>/dev/null </dev/null)
			echo $? >"$exe.rc"
			if ! cmp -s "$plain.out" "$exe.out" || ! cmp -s "$plain.rc" "$exe.rc"; then
				bad "$t: output or exit status differs from the plain build"
			elif ! "$ipp" -q check "$exe" "$exe.prof" >"$work/err" 2>&1; then
				bad "$t: ipp check"
				sed 's/^/    /' "$work/err" | head -20
			else
				ok "$t (output, ipp check)"
			fi
		done
	done
done

# 2. the annotations, in context mode
progs="constcall diamonds fig4pub fig4whole irreducible longjmp objsize signal straight"
progs="$progs switch tailcalls threads"
out=$(IPP_TEST_MODES=context IPP_TEST_IPPFLAGS=$flag IPP_TEST_PROGRAMS=$progs \
      bash "$here/run.sh")
printf '%s\n' "$out" | grep -v '^[0-9]* passed'
if printf '%s\n' "$out" | grep -qx '24 passed, 0 failed'; then
	ok "context-mode annotations with $flag (24 builds)"
else
	bad "context-mode annotations with $flag: $(printf '%s\n' "$out" | tail -n 1)"
fi

# 3. the copies of power in Figure 4, and their names
exe=$work/fig4whole
if "$wrap" -O2 -fwhole-program $flag "$here/fig4whole.c" -o "$exe" 2>"$work/err" &&
   (cd "$work" && IPP_PROFILE=$exe.prof "$exe" >/dev/null) &&
   "$ipp" map "$exe" >"$exe.map" && "$ipp" report --all "$exe" "$exe.prof" >"$exe.rep"; then
	procs=$(grep -c '^- \[[0-9]*, power, "main/power:[12]", \[inlined\]' "$exe.map")
	named=$(grep -o 'power:[0-9]* (inlined into main:[0-9]*)' "$exe.rep" |
		sed 's/.*main:/main:/; s/)//' | sort -u | tr '\n' ' ')
	if [ "$procs" = 2 ] && [ "$named" = "main:32 main:36 " ]; then
		ok "fig4whole -O2: power inlined twice, virtual procedures, named at main:32 and main:36"
	else
		bad "fig4whole -O2: $procs virtual procedures of power (want 2), named at '$named' (want 'main:32 main:36 ')"
	fi
else
	bad "fig4whole -O2 $flag: build, run or report failed"
	sed 's/^/    /' "$work/err"
fi

prog_end
