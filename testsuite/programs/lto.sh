#!/bin/bash
# lto.sh -- a program built with -flto keeps its map and counts exactly.
#
# With -flto a unit's object holds GIMPLE and the link compiles the program
# from it, so a map written into the object's assembly was lost: the
# program ran instrumented and `ipp check` found no map (gcc.dg
# initpri3.c).  The map is now a variable of section .ipp_map, which LTO
# streams (plugin/ipp_plugin.cc).  Two units, a.c's loop calling b.c's
# classify for i = 0..9; the oracle is the program's logic:
#   classify: 10 entries; i % 3 == 0 four times (0 3 6 9), == 1 three
#             times (1 4 7), == 2 three times (2 5 8): paths 4, 3, 3;
#   main:     1 entry; paths 1 (entry to the first call), 9 (a restart
#             at the loop to the next call), 1 (the last restart to exit).
# In both modes at -O2 with -flto, with -flto -ffat-lto-objects linked
# without LTO, and at -O0 -flto: output as plain, `ipp check` passes,
# `ipp counts` and `ipp report` say the numbers above.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u
. "$(dirname "$0")/prog-lib.sh"
prog_begin lto
cd "$work" || exit 1

cat >a.c <<'C'
#include <stdio.h>
int classify(int);
int main(void)
{
	int s = 0;
	for (int i = 0; i < 10; i++)
		s += classify(i);
	printf("%d\n", s);
	return 0;
}
C
cat >b.c <<'C'
int classify(int x)
{
	if (x % 3 == 0)
		return 1;
	if (x % 3 == 1)
		return 2;
	return 3;
}
C
gcc -O2 a.c b.c -o plain && ./plain >plain.out || { bad "the plain build"; exit 1; }

# build NAME MODE FLAGS...: a.c and b.c compiled with FLAGS, linked with
# FLAGS unless LINKFLAGS is set
build() {
	local n=$1 m=$2
	shift 2
	"$wrap" -fplugin-arg-ipp-mode=$m "$@" -c a.c -o $n-a.o &&
		"$wrap" -fplugin-arg-ipp-mode=$m "$@" -c b.c -o $n-b.o &&
		"$wrap" -fplugin-arg-ipp-mode=$m ${LINKFLAGS:-"$@"} $n-a.o $n-b.o -o $n
}

for m in intra context; do
	for v in "O2-lto:-O2 -flto" "O0-lto:-O0 -flto" "fat-nolto:-O2 -flto -ffat-lto-objects"; do
		name=${v%%:*}
		flags=${v#*:}
		t="$name $m"
		n=$name-$m
		link=
		[ "$name" = fat-nolto ] && link="-O2 -fno-lto"
		if ! LINKFLAGS=$link build $n $m $flags 2>$n.err; then
			bad "$t: does not build"; cat $n.err; continue
		fi
		IPP_PROFILE=$work/$n.prof ./$n >$n.out 2>&1
		if ! cmp -s plain.out $n.out; then
			bad "$t: the output differs from the plain build's"; continue
		fi
		if ! "$ipp" check ./$n $n.prof >$n.check 2>&1; then
			bad "$t: ipp check"; cat $n.check; continue
		fi
		"$ipp" counts ./$n $n.prof >$n.counts 2>&1
		"$ipp" report --all ./$n $n.prof >$n.report 2>&1
		got_fn=$(grep -E '^(main|classify) ' $n.counts | sort | tr '\n' ' ')
		got_cl=$(awk '$4 == "b.c" && $5 == "classify" { print $2 }' $n.report | sort -n | tr '\n' ' ')
		got_main=$(awk '$4 == "a.c" && $5 == "main" { print $2 }' $n.report | sort -n | tr '\n' ' ')
		if [ "$got_fn" = "classify 10 main 1 " ] && [ "$got_cl" = "3 3 4 " ] &&
		   [ "$got_main" = "1 1 9 " ]; then
			ok "$t: map kept; classify entered 10 times on paths 4, 3, 3; main once, 9 restarts"
		else
			bad "$t: counts '$got_fn', classify's paths '$got_cl', main's '$got_main'"
			cat $n.counts $n.report
		fi
	done
done

prog_end
