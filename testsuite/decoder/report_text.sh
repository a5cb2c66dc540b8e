#!/bin/bash
# report_text.sh -- the readable report (docs/REPORT.md, "Text output",
# "Ranking", "A program and its libraries", "Several programs in one
# profile") on programs built with the plugin, against facts of the
# programs' logic:
#   1. and.c: f(i & 1, i & 2) for i = 0..7 takes three paths through
#      `if (a && b) r = 1;`, all on one line: the report prints them three
#      different ways; with --width the paths fold and every line fits;
#   2. the iterations that call f are every path but the loop exit:
#      --function=f shows exactly those ranks (4 of 5), with their ranks in
#      the whole ranking, and `ipp decode --rank N` decodes the same number
#      as the report's rank N;
#   3. a program of two units, one never run: the unit that ran is listed,
#      the other counted; a unit compiled as sub/w.c is found by its base
#      name;
#   4. a program and a shared library it calls: `ipp report PROG LIB PROF`
#      decodes the library's paths, which PROG alone leaves out;
#   5. two programs sharing a unit write into one profile (2 runs and 1):
#      the report of the first says the shared unit has 3 runs to its 2.
#
# Environment: builddir (automake sets it).
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u

builddir=$(cd "${builddir:-.}" && pwd)
ipp=$builddir/ipp
cc=$builddir/plugin/ipp-gcc-uninstalled
work=$(mktemp -d "${TMPDIR:-/tmp}/ipp-report-text.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 99
fail=0
bad() { echo "FAIL: $*"; fail=1; }
pass() { echo "PASS: $*"; }

# 1. Three paths on one line.
cat >and.c <<'EOF'
int f(int a, int b)
{
	int r = 0; if (a && b) r = 1;
	return r;
}

int main(void)
{
	int s = 0;
	for (int i = 0; i < 8; i++)
		s += f(i & 1, i & 2);
	return s != 2;
}
EOF
$cc -O0 -g and.c -o and || exit 99
IPP_PROFILE=ipp.prof ./and || bad "and.c exited $?"
"$ipp" report --width=0 ./and ipp.prof >report.txt || bad "ipp report failed"
# the path lines of the iterations that restart main's loop and call f
grep '^      main:10 (loop restart) -> main:11 (call)' report.txt >iter.txt
[ "$(wc -l <iter.txt)" = 3 ] || bad "expected 3 loop iterations calling f, got $(wc -l <iter.txt)"
[ "$(sort -u iter.txt | wc -l)" = 3 ] || { bad "two paths print alike:"; cat iter.txt; }
grep -q 'branch to and.c:3:' iter.txt || bad "no 'branch to' note on line 3"
[ $fail = 0 ] && pass "three paths through one line print three ways"

"$ipp" report --width=60 ./and ipp.prof >narrow.txt || bad "ipp report --width=60 failed"
# a line longer than the width holds a single piece (no " -> " inside it)
awk '{ sub(/ ->$/, "") } length($0) > 60 && / -> / { bad = 1; print "    " $0 }
     END { exit bad }' narrow.txt || bad "lines longer than 60 columns hold several pieces"
grep -q '^      main 10-11 (loop restart) ->$' narrow.txt || bad "main's visit is not folded"
grep -q '^          f 1,3-4 (' narrow.txt || bad "f's visit is not folded to 'f 1,3-4'"
[ "$(grep -c '^          f 1,3-4 (3: branch to' narrow.txt)" = 3 ] ||
	bad "the folded forms lost the notes that tell paths apart"
[ $fail = 0 ] && pass "--width=60 folds and wraps"

# 2. --function and ranks.
"$ipp" report --all --format=yaml ./and ipp.prof >all.yaml
exit_rank=$(awk '/- rank:/ { r = $3 } /kind: exit/ && /function: main/ { print r }' all.yaml |
	    sort -u)
"$ipp" report --function=f --width=0 ./and ipp.prof >f.txt
shown=$(awk '$1 ~ /^[0-9]+$/ && NF >= 6 { print $1 }' f.txt | sort -n | tr '\n' ' ')
want=$(for r in 1 2 3 4 5; do [ "$r" != "$exit_rank" ] && printf '%s ' $r; done)
[ -n "$exit_rank" ] || bad "no path returns from main"
[ "$shown" = "$want" ] || bad "--function=f shows ranks '$shown', want '$want'"
grep -q 'All 4 of the 4 paths that match (of 5 recorded' f.txt || bad "no match count"
for r in 1 3 5; do
	want=$(awk -v r=$r '/- rank:/ { on = ($3 == r) } on && /number:/ { print $2; exit }' all.yaml)
	got=$("$ipp" decode --rank $r --format=yaml ./and ipp.prof | awk '/number:/ { print $2; exit }')
	[ "$got" = "$want" ] || bad "decode --rank $r: number $got, the report's rank $r is $want"
done
[ $fail = 0 ] && pass "--function keeps ranks; decode --rank reads them back"

# 3. A unit that never ran; a module by its base name.
mkdir sub
cat >sub/w.c <<'EOF'
int never(int x)
{
	return x * 2;
}
EOF
cat >m.c <<'EOF'
int never(int x);
int main(int argc, char **argv)
{
	(void)argv;
	return argc > 5 ? never(argc) : 0;
}
EOF
$cc -O0 -g m.c sub/w.c -o two || exit 99
IPP_PROFILE=two.prof ./two
"$ipp" report --width=0 ./two two.prof >two.txt
grep -q '^  m.c: ' two.txt || bad "the unit that ran is not listed"
grep -q 'sub/w.c' two.txt && bad "the unit that never ran is listed"
grep -q '^  and 1 unit never ran$' two.txt || bad "no count of the units that never ran"
"$ipp" decode --module w.c ./two 0 >/dev/null 2>err.txt || { bad "--module w.c:"; cat err.txt; }
[ $fail = 0 ] && pass "units that never ran are counted; a module by its base name"

# 4. A program and its shared library.
cat >lib.c <<'EOF'
int twice(int x)
{
	if (x > 2)
		return 2 * x;
	return x;
}
EOF
cat >app.c <<'EOF'
int twice(int x);
int main(void)
{
	int s = 0;
	for (int i = 0; i < 4; i++)
		s += twice(i);
	return s != 9;
}
EOF
$cc -O0 -g -fPIC -shared lib.c -o libtw.so && $cc -O0 -g app.c -L. -ltw -o app || exit 99
LD_LIBRARY_PATH=. IPP_PROFILE=app.prof ./app || bad "app exited $?"
"$ipp" report --width=0 ./app app.prof >alone.txt 2>alone.err
grep -q 'module lib.c .* is not part of ./app' alone.err || bad "no warning without the library"
"$ipp" report --all --width=0 ./app ./libtw.so app.prof >both.txt 2>both.err ||
	{ bad "ipp report ./app ./libtw.so failed:"; cat both.err; }
[ -s both.err ] && { bad "warnings with the library:"; cat both.err; }
# twice() ran 4 times: 3 times x <= 2 (i = 0, 1, 2), once x > 2
grep -q '^   *[0-9]*  *3 .*lib.c  *twice ' both.txt || bad "lib.c's path of count 3 missing"
grep -q '^   *[0-9]*  *1 .*lib.c  *twice ' both.txt || bad "lib.c's path of count 1 missing"
[ $fail = 0 ] && pass "a program and its library report together"

# 5. Two programs sharing a unit, one profile.
cat >shared.c <<'EOF'
int shared(int x)
{
	return x + 1;
}
EOF
printf 'int shared(int);\nint main(void) { return shared(1) != 2; }\n' >pa.c
printf 'int shared(int);\nint main(void) { return shared(2) != 3; }\n' >pb.c
$cc -O0 -g -c shared.c -o shared.o && $cc -O0 -g pa.c shared.o -o pa &&
	$cc -O0 -g pb.c shared.o -o pb || exit 99
IPP_PROFILE=mix.prof ./pa && IPP_PROFILE=mix.prof ./pa && IPP_PROFILE=mix.prof ./pb
"$ipp" report ./pa mix.prof >mix.txt 2>/dev/null
grep -q 'note: shared.c has 3 runs but pa.c, the unit of main, has 2' mix.txt ||
	{ bad "no note about the runs of other programs:"; cat mix.txt; }
[ $fail = 0 ] && pass "a unit holding other programs' runs is named"

exit $fail
