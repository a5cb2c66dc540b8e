#!/bin/bash
# last.sh -- the flight recorder (-fplugin-arg-ipp-last, docs/RUNTIME.md
# "Flight recorder"): a program that crashes (SIGSEGV) after a loop leaves
# PROFILE.last, and `ipp report --last` decodes its thread's last paths,
# newest last.  The expected sequence comes from the program's logic (intra
# mode: each call of step() is a path of its own, recorded when it
# returns; each of the 5 iterations of main's loop is a path, recorded at
# its back edge, after step() returned -- the fifth leads to the test that
# leaves the loop; main's path from there to crash() never completes, nor
# does crash()'s):
#     step, main, step, main, step, main, step, main, step, main, (crash)
# so with IPP_LAST=4 the last four are step, main, step, main; with the
# default (64) all ten.  The profile itself is the same as without the
# recorder, and the death is the plain build's.  A build without the
# option writes no .last file.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u
. "$(dirname "$0")/prog-lib.sh"
prog_begin last
cd "$work" || exit 1

cat >crash.c <<'C'
#include <stdio.h>
static volatile int sink;
static __attribute__((noinline)) int step(int i)
{
	return i * 3 % 7;
}
static __attribute__((noinline)) void crash(int *volatile *p)
{
	**p = sink;
}
int main(void)
{
	static int *volatile nowhere;
	for (int i = 0; i < 5; i++)
		sink += step(i);
	crash(&nowhere);
	printf("not reached\n");
	return 0;
}
C
# the kinds of the last paths, "REGION" per line, oldest first
kinds() { sed -n 's/^ *[0-9]*\. \([^ ]*\) path [0-9]*: .*/\1/p' "$1" | tr '\n' ' '; }

for opt in -O0 -O2; do
	gcc $opt crash.c -o plain 2>/dev/null
	./plain >/dev/null 2>&1
	want=$?
	if ! "$wrap" $opt -fplugin-arg-ipp-mode=intra -fplugin-arg-ipp-last crash.c -o prog \
	     2>err; then
		bad "$opt: does not build with -fplugin-arg-ipp-last"; cat err; continue
	fi
	for n in 4 64; do
		rm -f prog.ipp.prof*
		IPP_LAST=$n ./prog >/dev/null 2>err
		got=$?
		if [ "$got" -ne "$want" ]; then
			bad "$opt IPP_LAST=$n: status $got, the plain build's $want"; continue
		fi
		if ! "$ipp" report --last ./prog >out 2>err; then
			bad "$opt IPP_LAST=$n: ipp report --last failed"; cat err; continue
		fi
		case $n in
		4) expect="step main step main " ;;
		*) expect="step main step main step main step main step main " ;;
		esac
		if [ "$(kinds out)" = "$expect" ] &&
		   grep -q "^thread 1 (the thread that crashed or exited):" out; then
			ok "$opt IPP_LAST=$n: the crashing thread's last paths, newest last: $expect"
		else
			bad "$opt IPP_LAST=$n: expected '$expect'"; cat out
		fi
		"$ipp" check ./prog >/dev/null 2>&1 || bad "$opt IPP_LAST=$n: ipp check failed"
	done
	# the step paths decode to the function's code
	if grep -q "step path [0-9]*: .*step" out; then
		ok "$opt: the paths are decoded"
	else
		bad "$opt: step's path text"; cat out
	fi
done

# without the option: no recorder, no file; the same counts as the last
# -O2 run of prog (IPP_LAST=64)
"$wrap" -O2 -fplugin-arg-ipp-mode=intra crash.c -o noprog 2>/dev/null
rm -f noprog.ipp.prof*
./noprog >/dev/null 2>&1
if "$ipp" counts --vertices ./prog >with 2>&1 && "$ipp" counts --vertices ./noprog >without 2>&1 &&
   cmp -s with without; then
	ok "the recorder changes no count"
else
	bad "the counts with and without the recorder differ"; diff with without | head
fi
if [ -e noprog.ipp.prof ] && [ ! -e noprog.ipp.prof.last ] &&
   ! "$ipp" report --last ./noprog >out 2>&1 && grep -q "cannot read" out; then
	ok "a build without -fplugin-arg-ipp-last writes no .last file"
else
	bad "a build without the option"; ls; cat out
fi

prog_end
