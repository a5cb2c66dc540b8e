#!/bin/bash
# lcov.sh -- `ipp export --lcov` against lcov's own tools.
#
# For every program in testsuite/programs/ and examples/ (single files), in
# every mode of IPP_TEST_MODES (default: intra context), and for the
# two-unit program testsuite/programs/twounits/ (two units sharing the
# static inline function of a header):
#   1. build it with gcov (gcc -O0 -fno-inline --coverage, as gcov.sh),
#      run it (stdin /dev/null, in a temporary directory) and make lcov's
#      tracefile with geninfo --rc lcov_branch_coverage=1: the oracle;
#   2. build it with ipp at -O0 -fno-inline, run it the same way, and write
#      `ipp export --lcov`;
#   3. compare the two tracefiles record by record, keyed by source file:
#      DA (every line's count; a line on one side only differs too), FNDA
#      (each function's entries) and BRDA (per line, the sorted list of its
#      branches' taken counts).  The differences must be exactly those of
#      lcov-known.txt for that program (each with its reason): a new
#      difference fails, and so does a known one that went away;
#   4. render ipp's tracefile with genhtml --branch-coverage: it must exit 0
#      without a warning and write the source's page, and its summary
#      (lines, functions, branches: hit of found) must equal genhtml's
#      summary of geninfo's tracefile when nothing differs;
#   5. names: the two-unit program is also compiled from its directory with
#      relative names; `ipp export --lcov -b DIR` from elsewhere must give
#      the absolute SF names geninfo gives, and --relative=DIR names
#      relative to DIR that genhtml, run in DIR, renders.
# Skips (exit 77) if lcov (geninfo, genhtml) is missing.
# Prints "N passed, N failed" and exits non-zero if anything failed.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u
. "$(dirname "$0")/prog-lib.sh"
prog_begin lcov
modes=${IPP_TEST_MODES:-intra context}
known=$srcdir/testsuite/programs/lcov-known.txt

for tool in geninfo genhtml; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "SKIP: $tool not found (Debian package lcov)"
		exit 77
	fi
done

# "KIND FILE:KEY VALUE" lines of a tracefile, sorted: DA FILE:LINE COUNT,
# FN FILE:NAME ENTRIES, BR FILE:LINE TAKEN,TAKEN,... (sorted counts); FILE
# is the base name.  Records of one file (geninfo writes one per unit) are
# summed per line, function and (line, block, branch), as lcov -a sums
# tracefiles.
records() {
	awk -F'[:,]' '
	    /^SF:/ { f = substr($0, 4); n = split(f, p, "/"); f = p[n]; next }
	    /^DA:/ { da[f ":" $2] += $3 }
	    /^FNDA:/ { fn[f ":" $3] += $2 }
	    /^BRDA:/ { k = f ":" $2 SUBSEP $3 SUBSEP $4; line[k] = f ":" $2
		       br[k] += ($5 == "-" ? 0 : $5) }
	    END { for (k in da) print "DA " k, da[k]
		  for (k in fn) print "FN " k, fn[k]
		  for (k in br) l[line[k]] = l[line[k]] " " br[k]
		  for (k in l) { n = split(l[k], t, " "); s = ""
		      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
			  if (t[j] + 0 < t[i] + 0) { x = t[i]; t[i] = t[j]; t[j] = x }
		      for (i = 1; i <= n; i++) s = s (i > 1 ? "," : "") t[i]
		      print "BR " k, s } }' "$1" | sort
}

# "KIND KEY" of every record that differs (FILE: part dropped when the
# program is one file), sorted and unique
differences() {
	join -a1 -a2 -e - -o 0,1.2,2.2 <(records "$1" | awk '{ print $1 "|" $2, $3 }' | sort) \
		<(records "$2" | awk '{ print $1 "|" $2, $3 }' | sort) |
		awk '$2 != $3 { split($1, k, "|"); sub(/^[^:]*:/, "", k[2]); print k[1], k[2] }' |
		sort -u
}

# genhtml's summary lines ("lines......: 100.0% (19 of 19 lines)" ...)
render() {	# TRACEFILE OUTDIR LOG
	genhtml --branch-coverage --quiet -o "$2" "$1" >"$3" 2>&1 &&
		! grep -qi warning "$3" && [ -f "$2/index.html" ]
}
summary() {
	genhtml --branch-coverage -o "$work/sum.$$" "$1" 2>/dev/null |
		sed -n 's/^ *\(lines\|functions\|branches\)\.*: .*(\(.*\))$/\1 \2/p'
	rm -rf "$work/sum.$$"
}

# compare PROGRAM WANT GOT: steps 3 and 4
compare() {
	local name=$1 want=$2 got=$3 t=$4 diffs expect
	differences "$want" "$got" >"$got.diff"
	awk -v p="$name" '$1 == p { print $2, $3 }' "$known" | sort -u >"$got.known"
	if cmp -s "$got.diff" "$got.known"; then
		ok "$t: tracefiles equal$([ -s "$got.known" ] && echo " but the $(wc -l <"$got.known") known differences of lcov-known.txt") ($(grep -c '^DA:' "$got") lines, $(grep -c '^FNDA:' "$got") functions, $(grep -c '^BRDA:' "$got") branches)"
	else
		bad "$t: differences with geninfo's tracefile (< unexpected, > known but gone):"
		diff "$got.diff" "$got.known" | grep '^[<>]' | sed 's/^/    /'
	fi
	if ! render "$got" "$got.html" "$got.genhtml"; then
		bad "$t: genhtml does not render ipp's tracefile"
		sed 's/^/    /' "$got.genhtml"
	elif [ ! -s "$got.known" ] && [ "$(summary "$got")" != "$(summary "$want")" ]; then
		bad "$t: genhtml's summaries differ: ipp $(summary "$got" | tr '\n' ' '); gcov $(summary "$want" | tr '\n' ' ')"
	else
		ok "$t: genhtml renders it ($(summary "$got" | tr '\n' ' '))"
	fi
}

# build_gcov DIR SOURCES...: the oracle's tracefile DIR/want.info
build_gcov() {
	local dir=$1 cflags=$2 obj=()
	shift 2
	mkdir -p "$dir/gcov"
	for s in "$@"; do
		gcc -O0 -fno-inline -w $cflags --coverage -c "$s" -o "$dir/gcov/$(basename "$s" .c).o" ||
			return 1
		obj+=("$dir/gcov/$(basename "$s" .c).o")
	done
	gcc $cflags --coverage "${obj[@]}" -o "$dir/gcov/prog" || return 1
	(cd "$dir/gcov" && timeout 20 ./prog >/dev/null 2>&1 </dev/null)
	geninfo --rc lcov_branch_coverage=1 --quiet -o "$dir/want.info" "$dir/gcov" >/dev/null 2>&1
}

run_one() {	# NAME CFLAGS SOURCES...
	local name=$1 cflags=$2 dir=$work/$1
	shift 2
	if ! build_gcov "$dir" "$cflags" "$@" 2>"$work/err"; then
		bad "$name: the gcov build or geninfo failed"
		sed 's/^/    /' "$work/err"
		return
	fi
	for mode in $modes; do
		local t="$name $mode" exe=$dir/$name.$mode
		if ! "$wrap" -O0 -fno-inline -w $cflags -fplugin-arg-ipp-mode=$mode "$@" -o "$exe" \
		     2>"$work/err"; then
			bad "$t: does not compile with ipp"
			sed 's/^/    /' "$work/err"
			continue
		fi
		(cd "$dir" && IPP_PROFILE=$exe.prof timeout 20 "$exe" >/dev/null 2>&1 </dev/null)
		if ! "$ipp" export --lcov "$exe" "$exe.prof" >"$exe.info" 2>"$work/err" ||
		   [ -s "$work/err" ]; then
			bad "$t: ipp export --lcov failed or warned"
			sed 's/^/    /' "$work/err"
			continue
		fi
		compare "$name" "$dir/want.info" "$exe.info" "$t"
	done
}

for src in "$srcdir"/testsuite/programs/*.c "$srcdir"/examples/*.c; do
	[ -f "$src" ] || continue
	run_one "$(basename "$src" .c)" "$(sed -n 's/.*ipp-cflags: *//p' "$src")" "$src"
done
tu=$srcdir/testsuite/programs/twounits
run_one twounits "" "$tu/main.c" "$tu/lib.c"

# 5. relative names: compiled from a copy of the sources as sub/main.c,
# sub/lib.c; geninfo resolves them with the .gcno's directory, ipp with -b.
proj=$work/proj
mkdir -p "$proj/sub" "$work/elsewhere"
cp "$tu"/main.c "$tu"/lib.c "$tu"/lib.h "$proj/sub/"
if (cd "$proj" && "$wrap" -O0 -fno-inline sub/main.c sub/lib.c -o prog 2>"$work/err" &&
    IPP_PROFILE=prog.prof ./prog >/dev/null) &&
   (cd "$proj" && gcc -O0 -fno-inline --coverage sub/main.c sub/lib.c -o gprog &&
    ./gprog >/dev/null && geninfo --quiet -o want.info . >/dev/null 2>&1); then
	sfs() { sed -n 's/^SF://p' "$1" | sort -u; }
	(cd "$work/elsewhere" && "$ipp" export --lcov -b "$proj" "$proj/prog" "$proj/prog.prof") \
		>"$work/abs.info"
	if [ -n "$(sfs "$work/abs.info")" ] && [ "$(sfs "$work/abs.info")" = "$(sfs "$proj/want.info")" ]; then
		ok "-b DIR: SF names as geninfo's ($(sfs "$work/abs.info" | tr '\n' ' '))"
	else
		bad "-b DIR: SF names $(sfs "$work/abs.info" | tr '\n' ' '), geninfo's $(sfs "$proj/want.info" | tr '\n' ' ')"
	fi
	(cd "$work/elsewhere" && "$ipp" export --lcov -b "$proj" --relative="$proj" \
		"$proj/prog" "$proj/prog.prof") >"$proj/rel.info"
	if [ "$(sfs "$proj/rel.info" | tr '\n' ' ')" = "sub/lib.c sub/lib.h sub/main.c " ] &&
	   (cd "$proj" && render rel.info rel.html rel.log) && [ -f "$proj/rel.html/sub/main.c.gcov.html" ]; then
		ok "--relative=DIR: SF names relative to DIR, rendered by genhtml from DIR"
	else
		bad "--relative=DIR: SF names $(sfs "$proj/rel.info" | tr '\n' ' ')"
		sed 's/^/    /' "$proj/rel.log" 2>/dev/null
	fi
else
	bad "relative names: the builds in $proj failed"
	sed 's/^/    /' "$work/err"
fi

prog_end
