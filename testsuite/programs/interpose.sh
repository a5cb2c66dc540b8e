#!/bin/bash
# interpose.sh -- a call to a definition the link may replace runs what the
# plain build runs.  The oracle is the plain build of the same sources: its
# output and exit status.
#   1. Weak: unit b defines a weak hidden `pick` and calls it; unit a's
#      strong `pick` replaces it at the link (GCC's gcc.dg
#      attr-weak-hidden-1.c).  In context mode b's call once went to the
#      continuing clone of b's own pick -- the weak one, which the plain
#      program never runs -- and the program printed the other answer;
#      in intra mode the profile claimed a call to b's pick that never
#      came (ipp check: entries < calls).
#   2. Interposable: a shared library (-fPIC, GCC's default
#      -fsemantic-interposition) calls its own exported `hook`; the
#      executable defines `hook` too, and the dynamic linker binds the
#      library's call to the executable's.  Plain and instrumented must
#      both print the executable's answer.  The library also calls `hook`
#      through a pointer the executable passes it: in context mode the
#      profile's arc from the library's call site names the executable's
#      `hook` (both units list the address: the unit registered later,
#      the executable, is the one the dynamic linker bound).
#   3. Aliased: unit al.c defines a static `impl` and a public alias
#      `api` of it; unit ptr.c calls `api` through a pointer three times.
#      In context mode the call site's arc must name `impl` (its unit
#      lists `impl` among the functions a pointer can reach because of
#      the alias): "main -> impl 3" among ptr.c's indirect calls.  Before,
#      the list left `impl` out, and the arc was counted but not written.
# Each in both modes at -O0 and -O2; every profile passes `ipp check`.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u
. "$(dirname "$0")/prog-lib.sh"
prog_begin interpose
cd "$work" || exit 1

cat >a.c <<'C'
int __attribute__((visibility("hidden"))) pick(void) { return 1; }
C
cat >b.c <<'C'
#include <stdio.h>
int __attribute__((weak, visibility("hidden"))) pick(void) { return 2; }
int main(void)
{
	int s = 0;
	for (int i = 0; i < 3; i++)
		s += pick();
	printf("pick: %d\n", s);
	return s == 3 ? 0 : 1;
}
C
cat >lib.c <<'C'
int hook(int x) { return x + 1; }
int through(int x) { return hook(x) * 10; }
int via(int (*f)(int), int x) { return f(x); }
C
cat >exe.c <<'C'
#include <stdio.h>
int through(int);
int via(int (*)(int), int);
int hook(int x) { return x + 100; }
int main(void)
{
	int v = through(1), w = via(hook, 5);
	printf("through: %d\nvia: %d\n", v, w);
	return v == 1010 && w == 105 ? 0 : 1;
}
C
cat >al.c <<'C'
static int impl(int x) { return x * 2; }
int api(int x) __attribute__((alias("impl")));
C
cat >ptr.c <<'C'
#include <stdio.h>
extern int api(int);
int (*volatile fp)(int) = api;
int main(void)
{
	int s = 0;
	for (int i = 0; i < 3; i++)
		s += fp(i);
	printf("alias: %d\n", s);
	return s == 6 ? 0 : 1;
}
C

# run NAME: runs ./NAME with its own profile; prints output and status
run() {
	IPP_PROFILE=$work/$1.prof LD_LIBRARY_PATH=$work/$1.d ./"$1" >"$1.out" 2>&1
	echo "status $?" >>"$1.out"
}

# plain oracles
gcc -O2 a.c b.c -o weak-plain && run weak-plain || { bad "the plain weak build"; exit 1; }
mkdir -p lib-plain.d
gcc -O2 -fPIC -shared lib.c -o lib-plain.d/libhook.so &&
	gcc -O2 exe.c -Llib-plain.d -lhook -o lib-plain && run lib-plain ||
	{ bad "the plain library build"; exit 1; }
gcc -O2 al.c ptr.c -o alias-plain && run alias-plain || { bad "the plain alias build"; exit 1; }
grep -q "^pick: 3$" weak-plain.out && grep -q "^through: 1010$" lib-plain.out &&
	grep -q "^via: 105$" lib-plain.out && grep -q "^alias: 6$" alias-plain.out ||
	{ bad "the plain programs do not print what the test expects"
	  cat weak-plain.out lib-plain.out alias-plain.out; exit 1; }

# as_plain T N PLAIN: runs the built ./N and compares it with PLAIN's run
# (output, exit status), then checks its profile; FAIL and status 1 if
# either differs
as_plain() {
	run $2
	if ! cmp -s $3.out $2.out; then
		bad "$1: the program differs from the plain build"; diff $3.out $2.out; return 1
	elif ! "$ipp" check ./$2 $2.prof >$2.check 2>&1; then
		bad "$1: ipp check"; cat $2.check; return 1
	fi
}

for O in -O0 -O2; do
	for m in intra context; do
		t="weak $O $m"
		n=weak$O$m
		if ! "$wrap" -fplugin-arg-ipp-mode=$m $O a.c b.c -o $n 2>$n.err; then
			bad "$t: does not build"; cat $n.err
		elif as_plain "$t" $n weak-plain; then
			ok "$t: runs the strong pick, as plain; the profile checks"
		fi

		t="interposed $O $m"
		n=lib$O$m
		mkdir -p $n.d
		if ! "$wrap" -fplugin-arg-ipp-mode=$m $O -fPIC -shared lib.c -o $n.d/libhook.so 2>$n.err ||
		   ! "$wrap" -fplugin-arg-ipp-mode=$m $O exe.c -L$n.d -lhook -o $n 2>>$n.err; then
			bad "$t: does not build"; cat $n.err
		elif ! as_plain "$t" $n lib-plain; then
			:
		elif [ $m = context ] &&
		     ! { "$ipp" profile $n.prof >$n.txt 2>&1 &&
			 grep -A1 "indirect-calls:" $n.txt | grep -q ", exe.c, \"[0-9a-f]*\", hook, 1\]$"; }; then
			bad "$t: the indirect call's arc does not name the executable's hook"
			grep -A2 "indirect-calls:" $n.txt
		else
			ok "$t: the library's calls run the executable's hook, as plain; the profile checks"
		fi

		t="aliased $O $m"
		n=alias$O$m
		if ! "$wrap" -fplugin-arg-ipp-mode=$m $O al.c ptr.c -o $n 2>$n.err; then
			bad "$t: does not build"; cat $n.err
		elif ! as_plain "$t" $n alias-plain; then
			:
		elif [ $m = context ] &&
		     ! { "$ipp" counts --calls ./$n $n.prof >$n.calls 2>&1 &&
			 sed -n '/^# module ptr.c/,/^# module /p' $n.calls |
			 sed -n '/^# indirect calls/,/^# arcs/p' | grep -q "^main -> impl 3 "; }; then
			bad "$t: the indirect call's arc does not name impl, 3 calls"
			cat $n.calls
		else
			what=""
			[ $m = context ] && what="; the arc names impl"
			ok "$t: runs as plain; the profile checks$what"
		fi
	done
done

prog_end
