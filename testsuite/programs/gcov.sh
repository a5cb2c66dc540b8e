#!/bin/bash
# gcov.sh -- gcov as an oracle for the counts derived from a path profile.
#
# For every program in testsuite/programs/ and examples/:
#   1. build it with gcov (gcc -O0 -fno-inline --coverage), run it (stdin
#      /dev/null, in a temporary directory) and take each function's entry
#      count from `gcov -b`: the lines "function NAME called N returned ..."
#      of its .gcov file;
#   2. build it with ipp at -O0 -fno-inline in every mode of IPP_TEST_MODES
#      (default: intra context), run it the same way, and print
#      `ipp counts --functions`;
#   3. require every function's entry count to equal gcov's exactly.  A
#      function that only one side lists is a failure too (reported by name).
# Programs that leave through exit() or longjmp are included on purpose: the
# counts of their partial paths must add up like gcov's counters.
#
# Environment: srcdir, builddir (automake sets them), IPP_TEST_MODES.
# Skips (exit 77) if gcc cannot build with --coverage or gcov is missing.
# Prints "N passed, N failed" and exits non-zero if anything failed.
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
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "PASS: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

if ! command -v gcov >/dev/null 2>&1; then
	echo "SKIP: gcov not found"
	exit 77
fi

# "NAME COUNT" lines, sorted by name, from a .gcov file (gcov -b).
# With by_line = 1 the count is that of the function's first source line
# instead of "called N": GCC's profiler gives every block a computed goto
# can jump to a fake edge from the function's entry block, so for a
# function with computed gotos "called" is calls + jumps (cgoto.c's run:
# 1 call + 7 jumps = 8), while the count of its first line is the calls.
gcov_entries() {
	awk -v by_line="$2" '
	    $1 == "function" && $3 == "called" {
		if (by_line) { pending = $2; next }
		print $2, $4; next
	    }
	    pending != "" && /^ *[0-9#=-]+\*?:/ {
		split($0, f, ":"); c = f[1]; gsub(/[ *]/, "", c)
		if (c ~ /^#+$|^=+$/) c = 0
		print pending, c; pending = ""
	    }' "$1" | sort
}

for src in "$srcdir"/testsuite/programs/*.c "$srcdir"/examples/*.c; do
	[ -f "$src" ] || continue	# a pattern that matched nothing
	name=$(basename "$src" .c)
	dir=$work/$(basename "$(dirname "$src")")-$name
	mkdir -p "$dir/gcov"

	# 1. gcov: compile to an object so that the notes are DIR/NAME.gcno
	# the program's own flags (ipp-cflags); atomic counters where threads run
	cflags=$(sed -n 's/.*ipp-cflags: *//p' "$src")
	gflags=$cflags
	case " $cflags " in *" -pthread "*) gflags="$cflags -fprofile-update=atomic" ;; esac
	if ! gcc -O0 -fno-inline -w $gflags --coverage -c "$src" -o "$dir/gcov/$name.o" \
	     2>"$work/err" ||
	   ! gcc $gflags --coverage "$dir/gcov/$name.o" -o "$dir/gcov/$name" 2>"$work/err"; then
		bad "$name: does not compile with --coverage"
		sed 's/^/    /' "$work/err"
		continue
	fi
	(cd "$dir/gcov" && timeout 20 "./$name" >/dev/null 2>&1 </dev/null)
	if ! (cd "$dir/gcov" && gcov -b -o "$dir/gcov" "$src" >/dev/null 2>"$work/err") ||
	   ! ls "$dir"/gcov/*.gcov >/dev/null 2>&1; then
		bad "$name: gcov failed"
		sed 's/^/    /' "$work/err"
		continue
	fi
	by_line=0
	grep -q "goto \*" "$src" && by_line=1	# computed gotos: see gcov_entries
	# every .gcov file: a program may #include another file's functions
	cat "$dir"/gcov/*.gcov >"$dir/all.gcov"
	gcov_entries "$dir/all.gcov" "$by_line" >"$dir/want"

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
		if ! "$ipp" counts --functions "$exe" "$prof" >"$exe.counts" 2>"$work/err"; then
			bad "$t: ipp counts failed"
			sed 's/^/    /' "$work/err"
			continue
		fi
		grep -v '^#' "$exe.counts" | sort >"$exe.got"
		# one line per function: "NAME gcov=N ipp=M", a missing side "-"
		join -a1 -a2 -e - -o 0,1.2,2.2 "$dir/want" "$exe.got" >"$exe.cmp"
		nf=$(wc -l <"$exe.cmp")
		if awk '$2 != $3 { exit 1 }' "$exe.cmp"; then
			ok "$t ($nf functions: $(awk '{ printf "%s%s=%s", (NR > 1 ? " " : ""), $1, $2 }' \
				"$exe.cmp"))"
		else
			bad "$t: function entry counts differ from gcov's"
			awk '$2 != $3 { print "    " $1 ": gcov " $2 ", ipp " $3 }' "$exe.cmp"
		fi
	done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
