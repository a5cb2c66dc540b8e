#!/bin/bash
# callgraph.sh -- `ipp callgraph` against gprof, and its exact per-caller
# split against runs that have a single caller.
#
#   1. For costsplit.c (a routine cheap from one caller and expensive from
#      another, and a two-routine recursive cycle), recurse.c (a routine
#      calling itself), fig4.c and the two-unit program twounits/: build
#      with gcc -pg -O0 -fno-inline, run, and read gprof -b -q's call graph;
#      build with ipp (context mode, -O0 -fno-inline), run the same way, and
#      read `ipp callgraph`, which prints its call graph in gprof's layout.
#      The same parser reads both, and requires equal
#        - arcs with a count "a/b" between routines in different components
#          (CALLER CALLEE a b),
#        - arcs with a bare count: calls inside a cycle and to oneself,
#        - the "called" column of every routine (N or N+SELF),
#        - the cycles (members of each "<cycle N>").
#   2. The split (costsplit.c): work is called 3 times from light with n = 1
#      and 2 times from heavy with n = 40.  Run with the argument "light"
#      (only light calls it) and "heavy" (only heavy), `ipp callgraph`'s flat
#      profile gives work's blocks in each run, context-free (every block
#      count is vertex[] of DERIVE.md, checked against gcov's lines by
#      gcov.sh).  In the run with both callers, the split must give light
#      and heavy exactly those blocks, and "gprof's self" the proportional
#      shares 3/5 and 2/5 of their sum.  From the loop: each more iteration
#      runs the loop test and the body, 2 blocks: heavy's blocks per call
#      less light's are 2 * (40 - 1) = 78.
# Skips (exit 77) if gprof is missing.
# Prints "N passed, N failed" and exits non-zero if anything failed.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u
. "$(dirname "$0")/prog-lib.sh"
prog_begin callgraph

if ! command -v gprof >/dev/null 2>&1; then
	echo "SKIP: gprof not found"
	exit 77
fi

# The facts of a call graph in gprof -b's layout, one per line, sorted:
#   arc CALLER CALLEE A/B        a parent line with a count a/b
#   bare CALLER CALLEE N         a child line with a bare count (cycle, self)
#   called NAME N[+M]            the primary line's called column
#   cycle NAME                   NAME is a member of a cycle
# gprof gives routines without calls or time no entry (ipp lists main,
# whose cost it knows): "called NAME 0" is left out, and so are
# "<spontaneous>" and the cycle-as-a-whole entries.
facts() {
	sed -n '/Call graph/,/^Index by function name\|Cost per caller/p' "$1" | awk '
	    function strip(s) { sub(/ \[[0-9]+\] *$/, "", s); c = (s ~ / <cycle [0-9]+>$/)
				sub(/ <cycle [0-9]+>$/, "", s); return s }
	    BEGIN { n = 0 }
	    /^-+$/ { n = 0; primary = ""; next }
	    /^\[[0-9]+\]/ {
		if ($0 ~ /as a whole>/) { primary = ""; n = 0; next }
		line = $0; name = strip(line); sub(/.* /, "", name)
		if (c) print "cycle", name
		called = $0; sub(/ *[^ ]+( <cycle [0-9]+>)? \[[0-9]+\] *$/, "", called)
		sub(/.* /, "", called); if (called != "0") print "called", name, called
		for (i = 0; i < n; i++) print "arc", par[i], name, cnt[i]
		primary = name; n = 0; next
	    }
	    /\[[0-9]+\] *$/ {
		line = $0; name = strip(line); sub(/.* /, "", name)
		if (name ~ /^</) next
		for (f = 1; f <= NF; f++) if ($f ~ /^[0-9]+\/[0-9]+$/) break
		if (f <= NF) { if (primary == "") { par[n] = name; cnt[n] = $f; n++ } ; next }
		if (primary != "") print "bare", primary, name, $1
	    }' | sort -u
}

# compare NAME SOURCES...: step 1
compare() {
	local name=$1 dir=$work/$1
	shift
	mkdir -p "$dir"
	if ! gcc -O0 -fno-inline -w -pg "$@" -o "$dir/pg" 2>"$work/err" ||
	   ! (cd "$dir" && timeout 20 ./pg >/dev/null 2>&1 </dev/null) ||
	   ! gprof -b -q "$dir/pg" "$dir/gmon.out" >"$dir/gprof.txt" 2>"$work/err"; then
		bad "$name: the gprof build, run or gprof failed"
		sed 's/^/    /' "$work/err"
		return
	fi
	if ! "$wrap" -O0 -fno-inline -w "$@" -o "$dir/ipp" 2>"$work/err" ||
	   ! (cd "$dir" && IPP_PROFILE=ipp.prof timeout 20 ./ipp >/dev/null 2>&1 </dev/null) ||
	   ! "$ipp" callgraph "$dir/ipp" "$dir/ipp.prof" >"$dir/ipp.txt" 2>"$work/err"; then
		bad "$name: the ipp build, run or ipp callgraph failed"
		sed 's/^/    /' "$work/err"
		return
	fi
	facts "$dir/gprof.txt" >"$dir/gprof.facts"
	facts "$dir/ipp.txt" >"$dir/ipp.facts"
	if [ -s "$dir/gprof.facts" ] && cmp -s "$dir/gprof.facts" "$dir/ipp.facts"; then
		ok "$name: call graph as gprof's ($(grep -c '^arc' "$dir/ipp.facts") arcs a/b, $(grep -c '^bare' "$dir/ipp.facts") bare, $(grep -c '^called' "$dir/ipp.facts") routines, $(grep -c '^cycle' "$dir/ipp.facts") cycle members)"
	else
		bad "$name: call graph differs from gprof's (< gprof, > ipp):"
		diff "$dir/gprof.facts" "$dir/ipp.facts" | grep '^[<>]' | sed 's/^/    /'
	fi
}

P=$srcdir/testsuite/programs
compare costsplit "$P/costsplit.c"
compare recurse "$P/recurse.c"
compare fig4 "$srcdir/examples/fig4.c"
compare twounits "$P/twounits/main.c" "$P/twounits/lib.c"

# 2. the split
dir=$work/split
mkdir -p "$dir"
# "SELF CALLS" of work in the flat profile of a run with argument $1
work_flat() {
	(cd "$dir" && rm -f one.prof && IPP_PROFILE=one.prof ./cs $1 >/dev/null) &&
		"$ipp" callgraph "$dir/cs" "$dir/one.prof" |
		awk '/^Flat profile/ { f = 1 } /Call graph/ { f = 0 } f && $NF == "work" { print $3, $4 }'
}
if "$wrap" -O0 -fno-inline "$P/costsplit.c" -o "$dir/cs" 2>"$work/err" &&
   (cd "$dir" && IPP_PROFILE=both.prof ./cs >/dev/null) &&
   "$ipp" callgraph "$dir/cs" "$dir/both.prof" >"$dir/both.txt" 2>"$work/err"; then
	read -r light lcalls <<<"$(work_flat light)"
	read -r heavy hcalls <<<"$(work_flat heavy)"
	# "CALLS SELF GPROF CALLER" rows of work's split
	rows=$(awk '/^work: / { f = 1; next } f && NF == 0 { f = 0 } f && $NF ~ /^(light|heavy)$/ { print $1, $2, $4, $NF }' \
		"$dir/both.txt" | sort -k4)
	want="2 $heavy $(awk -v a="$light" -v b="$heavy" 'BEGIN { printf "%.2f", (a + b) * 2 / 5 }') heavy
3 $light $(awk -v a="$light" -v b="$heavy" 'BEGIN { printf "%.2f", (a + b) * 3 / 5 }') light"
	if [ "$lcalls $hcalls" = "3 2" ] && [ "$rows" = "$want" ] &&
	   [ $((heavy / 2 - light / 3)) -eq 78 ] && [ $((heavy % 2 + light % 3)) -eq 0 ]; then
		ok "costsplit: work's blocks per caller are those of the single-caller runs (light $light in 3 calls, heavy $heavy in 2; gprof would say $(echo "$want" | awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $4, $3 }'))"
	else
		bad "costsplit: the split of work: got"
		echo "$rows" | sed 's/^/    /'
		echo "    want (from the runs 'light': $light blocks in $lcalls calls, 'heavy': $heavy in $hcalls):"
		echo "$want" | sed 's/^/    /'
	fi
else
	bad "costsplit: build, run or ipp callgraph failed"
	sed 's/^/    /' "$work/err"
fi

prog_end
