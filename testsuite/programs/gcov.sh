#!/bin/bash
# gcov.sh -- gcov as an oracle for the counts derived from a path profile.
#
# For every program in testsuite/programs/ and examples/ (or the C files
# given as arguments: e.g. a sample of GCC's torture tests):
#   1. build it with gcov (gcc -O0 -fno-inline --coverage), run it (stdin
#      /dev/null, in a temporary directory) and take each function's entry
#      count from `gcov -b`: the lines "function NAME called N returned ..."
#      of its .gcov file; and each source line's count;
#   2. build it with ipp at -O0 -fno-inline in every mode of IPP_TEST_MODES
#      (default: intra context), run it the same way, and print
#      `ipp counts --functions` and `ipp counts --vertices`;
#   3. require every function's entry count to equal gcov's exactly.  A
#      function that only one side lists is a failure too (reported by name),
#      except a function the map says ipp does not instrument (a nonlocal
#      goto receiver: named in the PASS line).  Functions are named by their
#      assembler names, as gcov names them (a nested function f is f.0).
#   4. require the count of every source line that lies in a single basic
#      block to equal gcov's exactly (docs/DERIVE.md section 3, "gcov's line
#      counts"): a line is compared when gcov's notes (.gcno) put it in
#      exactly one block, and the map's x-lines key puts it in exactly one
#      segment of ipp's graph -- the statements from a block's head vertex,
#      or from a call's return site, to the next call.  gcov's count of such
#      a line is its block's count; ipp's is the vertex count of the
#      segment's first vertex.  A function's declaration line, which gcov
#      puts in the function's first block, is given to the block that
#      Entry_P leads to.
#   5. require `ipp check` to find the profile valid: every run of these
#      programs is complete (it returns from main or calls exit, no thread
#      left running), so the derived counts conserve flow (docs/DERIVE.md
#      section 4).
# Programs that leave through exit() or longjmp are included on purpose: the
# counts of their partial paths must add up like gcov's counters.
#
# A program given as an argument is skipped (SKIP line, not a failure) if it
# does not build at -O0 even without --coverage, or its gcov build does not
# exit 0 (as in testsuite/torture/: it needs options not given here).
#
# Environment: srcdir, builddir (automake sets them), IPP_TEST_MODES;
# IPP_GCOV_TALLY=FILE appends to FILE, for testsuite/torture/oracle.sh, one
# tab-separated record per comparison: "functions PROGRAM MODE COMPARED
# MISMATCHED", "lines PROGRAM MODE COMPARED MISMATCHED
# SINGLE" (SINGLE: the lines in one block of gcov's graph), "mismatch PROGRAM
# MODE ITEM DETAIL" (ITEM: NAME() or FILE:LINE, the file's base name) and
# "fail MESSAGE" for every FAIL line.  IPP_GCOV_CFLAGS: more options for every
# build of every program (a torture test's dg-options).
# Skips (exit 77) if gcov is missing.
# Prints "N passed, N failed[, N skipped]" and exits non-zero if anything
# failed.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u

srcdir=$(cd "${srcdir:-.}" && pwd)	# absolute: the builds run in a temporary directory
builddir=$(cd "${builddir:-.}" && pwd)
wrap=$builddir/plugin/ipp-gcc-uninstalled
ipp=$builddir/ipp
modes=${IPP_TEST_MODES:-intra context}
work=$(mktemp -d "${TMPDIR:-/tmp}/ipp-gcov.XXXXXX")
trap 'rm -rf "$work"' EXIT
tally=${IPP_GCOV_TALLY:-}
pass=0
fail=0
skipped_programs=0

ok() { pass=$((pass + 1)); echo "PASS: $*"; }
bad() {
	fail=$((fail + 1)); echo "FAIL: $*"
	[ -z "$tally" ] || printf 'fail\t%s\n' "$*" >>"$tally"
}

if ! command -v gcov >/dev/null 2>&1; then
	echo "SKIP: gcov not found"
	exit 77
fi

# gcov_entries, gcno_lines, gcov_line_counts, ipp_segment_lines and
# compare_lines: shared with bench/oracle.sh.
. "$(dirname "${BASH_SOURCE[0]}")/gcov-lib.sh"

if [ $# -gt 0 ]; then
	sources=("$@")
else
	sources=("$srcdir"/testsuite/programs/*.c "$srcdir"/examples/*.c)
fi
for src in "${sources[@]}"; do
	[ -f "$src" ] || continue	# a pattern that matched nothing
	src=$(cd "$(dirname "$src")" && pwd)/$(basename "$src")
	name=$(basename "$src" .c)
	dir=$work/$(basename "$(dirname "$src")")-$name
	mkdir -p "$dir/gcov"

	# 1. gcov: compile to an object so that the notes are DIR/NAME.gcno
	# the program's own flags (ipp-cflags); atomic counters where threads run
	cflags="$(sed -n 's/.*ipp-cflags: *//p' "$src") ${IPP_GCOV_CFLAGS:-}"
	gflags=$cflags
	case " $cflags " in *" -pthread "*) gflags="$cflags -fprofile-update=atomic" ;; esac
	if ! gcc -O0 -fno-inline -w $gflags --coverage -c "$src" -o "$dir/gcov/$name.o" \
	     2>"$work/err" ||
	   ! gcc $gflags --coverage "$dir/gcov/$name.o" -o "$dir/gcov/$name" 2>"$work/err"; then
		if ! gcc -O0 -fno-inline -w $gflags "$src" -o "$dir/plain" 2>/dev/null; then
			# e.g. a torture test that needs the optimizer to drop a call
			echo "SKIP: $name: does not build at -O0, even without --coverage"
			skipped_programs=$((skipped_programs + 1))
			continue
		fi
		bad "$name: does not compile with --coverage"
		sed 's/^/    /' "$work/err"
		continue
	fi
	(cd "$dir/gcov" && timeout 20 "./$name" >/dev/null 2>&1 </dev/null)
	status=$?
	if [ $# -gt 0 ] && [ "$status" -ne 0 ]; then
		# a program named on the command line (a torture test) must exit
		# 0, as in testsuite/torture/: otherwise it needs options we do
		# not give it, or does not apply here
		echo "SKIP: $name: exits with status $status at -O0"
		skipped_programs=$((skipped_programs + 1))
		continue
	fi
	if ! (cd "$dir/gcov" && gcov -b -o "$dir/gcov" "$src" >/dev/null 2>"$work/err") ||
	   ! ls "$dir"/gcov/*.gcov >/dev/null 2>&1; then
		bad "$name: gcov failed"
		sed 's/^/    /' "$work/err"
		continue
	fi
	by_line=0
	grep -q "goto *\*" "$src" && by_line=1	# computed gotos: see gcov_entries
	# every .gcov file: a program may #include another file's functions
	cat "$dir"/gcov/*.gcov >"$dir/all.gcov"
	gcov_entries "$dir/all.gcov" "$by_line" >"$dir/want"
	gcov_line_counts "$dir"/gcov/*.gcov >"$dir/gcov.lines"
	if ! gcno_lines "$dir/gcov/$name.gcno" >"$dir/gcno.lines" 2>"$work/err"; then
		bad "$name: cannot read $name.gcno"
		sed 's/^/    /' "$work/err"
		continue
	fi

	# 2. and 3. ipp, per mode
	for mode in $modes; do
		t="$name $mode"
		exe=$dir/$name.$mode
		prof=$dir/$name.$mode.prof
		if ! "$wrap" -O0 -fno-inline -w $cflags -fplugin-arg-ipp-mode=$mode "$src" -o "$exe" \
		     2>"$work/err"; then
			bad "$t: does not compile with ipp"
			sed 's/^/    /' "$work/err"
			continue
		fi
		(cd "$dir" && IPP_PROFILE=$prof timeout 20 "$exe" >/dev/null 2>&1 </dev/null)
		if ! "$ipp" counts --functions --format=yaml "$exe" "$prof" >"$exe.counts" \
		     2>"$work/err" ||
		   ! "$ipp" map "$exe" >"$exe.map" 2>>"$work/err"; then
			bad "$t: ipp counts or ipp map failed"
			sed 's/^/    /' "$work/err"
			continue
		fi
		# "ASM_NAME ENTRIES" of every instrumented function
		sed -n 's/.* asm_name: \([^,]*\),.* entries: \([0-9]*\),.*/\1 \2/p' "$exe.counts" |
			sed 's/^"\(.*\)" /\1 /' | sort >"$exe.got"
		# the functions ipp does not instrument (flag "skipped" in the map)
		skipped=$(sed -n 's/^- \[[0-9]*, [^,]*, \([^,]*\), \[[^]]*skipped[^]]*\],.*/\1/p' \
			"$exe.map" | sed 's/^"\(.*\)"$/\1/' | sort | tr '\n' ' ')
		# one line per function: "NAME gcov=N ipp=M", a missing side "-"
		join -a1 -a2 -e - -o 0,1.2,2.2 "$dir/want" "$exe.got" |
			awk -v skipped=" $skipped" 'index(skipped, " " $1 " ") == 0' >"$exe.cmp"
		nf=$(wc -l <"$exe.cmp")
		[ -z "$tally" ] || awk -v t="$name" -v m="$mode" '
		    $2 != $3 { d++; print "mismatch\t" t "\t" m "\t" $1 "()\tgcov " $2 ", ipp " $3 }
		    END { print "functions\t" t "\t" m "\t" NR "\t" d + 0 }' "$exe.cmp" >>"$tally"
		if awk '$2 != $3 { exit 1 }' "$exe.cmp"; then
			ok "$t ($nf functions: $(awk '{ printf "%s%s=%s", (NR > 1 ? " " : ""), $1, $2 }' \
				"$exe.cmp")${skipped:+; not instrumented: ${skipped% }})"
		else
			bad "$t: function entry counts differ from gcov's"
			awk '$2 != $3 { print "    " $1 ": gcov " $2 ", ipp " $3 }' "$exe.cmp"
		fi

		# 4. line counts
		if ! "$ipp" counts --vertices "$exe" "$prof" >"$exe.vertices" 2>"$work/err"; then
			bad "$t: ipp counts --vertices failed"
			sed 's/^/    /' "$work/err"
			continue
		fi
		ipp_segment_lines "$exe.map" >"$exe.seglines"
		compare_lines "$dir/gcno.lines" "$dir/gcov.lines" "$exe.seglines" "$exe.vertices" \
			>"$exe.lines"
		summary=$(tail -n 1 "$exe.lines")
		[ -z "$tally" ] || awk -v t="$name" -v m="$mode" '
		    { l[NR] = $0 }
		    END { for (i = 1; i < NR; i++) {
				w = l[i]; sub(/ .*/, "", w); sub(/.*\//, "", w); r = l[i]; sub(/^[^ ]* /, "", r)
				print "mismatch\t" t "\t" m "\t" w "\t" r
			  }
			  split(l[NR], f, " "); print "lines\t" t "\t" m "\t" f[1] "\t" NR - 1 "\t" f[3] }' \
			"$exe.lines" >>"$tally"
		# a failure: a mismatch, or no line compared out of some (the two
		# sides do not name the same files?)
		if [ "$(wc -l <"$exe.lines")" -eq 1 ] && ! grep -q '^0 of [1-9]' "$exe.lines"; then
			ok "$t ($summary)"
		else
			bad "$t: line counts differ from gcov's ($summary)"
			sed '$d; s/^/    /' "$exe.lines"
		fi

		# 5. flow conservation
		if "$ipp" check "$exe" "$prof" >"$exe.check" 2>&1; then
			ok "$t (ipp check: $(tail -n 1 "$exe.check"))"
		else
			bad "$t: ipp check finds the profile invalid"
			sed 's/^/    /' "$exe.check"
		fi
	done
done
if [ "$skipped_programs" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skipped_programs skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
