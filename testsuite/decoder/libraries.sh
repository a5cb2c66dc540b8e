#!/bin/bash
# libraries.sh -- a program and its shared libraries report together
# (docs/REPORT.md, "A program and its libraries"), and the cache of parsed
# maps (docs/REPORT.md, "Reading a large program quickly"), on a program
# built with the plugin:
#
#   app calls twice() and sum_twice() of libtw.so (DT_NEEDED, found through
#   its RUNPATH $ORIGIN) and plug() of libplug.so (dlopen'ed).  From the
#   programs' logic: main runs once; sum_twice(4) calls twice 4 times and
#   main's loop 3 times more (twice: 7 entries, sum_twice: 1); main calls
#   plug 6 times.  The same counts come from gcov, an independent oracle,
#   on a plain --coverage build of the same sources and the same run.
#
#   1. `ipp counts ./app ./libplug.so PROF` gives every function's entry
#      count equal to gcov's and to the numbers above; libtw.so is found
#      from app's DT_NEEDED without being named; naming it gives the same
#      output; `ipp check` finds flow conserved in all three units;
#      `ipp report` decodes the libraries' paths with no warning;
#   2. without a RUNPATH the library is found through LD_LIBRARY_PATH, as
#      the dynamic linker finds it, and not otherwise (then a warning
#      names the unit left out);
#   3. the cache: the first report parses and caches only the units the
#      profile has records of (the never-run unit of a two-unit program is
#      not parsed); the second uses the cache, and prints the same; damaged
#      or swapped cache files are never used (same output, files rewritten);
#      IPP_CACHE=0 writes nothing; a profile of another build is still
#      refused, naming both checksums, with the cache warm.
#
# Environment: builddir (automake sets it).  Skips (77) without gcov.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u

builddir=$(cd "${builddir:-.}" && pwd)
ipp=$builddir/ipp
cc=$builddir/plugin/ipp-gcc-uninstalled
command -v gcov >/dev/null || { echo "SKIP: no gcov"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ipp-libraries.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 99
export IPP_CACHE_DIR=$work/cache
fail=0
bad() { echo "FAIL: $*"; fail=1; }
pass() { echo "PASS: $*"; }

cat >lib.c <<'EOF'
int twice(int x)
{
	if (x > 2)
		return 2 * x;
	return x;
}

int sum_twice(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += twice(i);
	return s;
}
EOF
cat >plug.c <<'EOF'
int plug(int x)
{
	return x % 3 == 0 ? x : -x;
}
EOF
cat >app.c <<'EOF'
#include <dlfcn.h>
#include <stdio.h>

int twice(int x);
int sum_twice(int n);

int main(void)
{
	int s = sum_twice(4);
	void *h;
	int (*p)(int);

	for (int i = 0; i < 3; i++)
		s += twice(i + 5);
	h = dlopen("./libplug.so", RTLD_NOW);
	if (h == NULL)
		return 2;
	p = (int (*)(int))dlsym(h, "plug");
	for (int i = 0; i < 6; i++)
		s += p(i);
	printf("%d\n", s);
	return s != 36;
}
EOF
# 9 + (10 + 12 + 14) + (0 - 1 - 2 + 3 - 4 - 5) = 36
want='main 1
plug 6
sum_twice 1
twice 7'

# The oracle: gcov on a plain build, the same run.
mkdir gcov && (
	cd gcov && cp ../*.c . &&
	gcc -O0 --coverage -fPIC -c lib.c -o lib.o && gcc -O0 --coverage -fPIC -c plug.c -o plug.o &&
	gcc -O0 --coverage -c app.c -o app.o &&
	gcc --coverage -shared lib.o -o libtw.so && gcc --coverage -shared plug.o -o libplug.so &&
	gcc --coverage app.o -L. -ltw -Wl,-rpath,'$ORIGIN' -ldl -o app && ./app >/dev/null &&
	gcov -b -o . app.c lib.c plug.c >/dev/null
) || { echo "ERROR: the gcov build or run failed"; exit 99; }
gcov_counts=$(cat gcov/*.c.gcov | awk '$1 == "function" && $3 == "called" { print $2, $4 }' |
	      sort)
[ "$gcov_counts" = "$want" ] || bad "gcov's counts are not the program's: $gcov_counts"

# 1. ipp on the same sources and run.
$cc -O0 -g -fPIC -shared lib.c -o libtw.so && $cc -O0 -g -fPIC -shared plug.c -o libplug.so &&
	$cc -O0 -g app.c -L. -ltw -Wl,-rpath,'$ORIGIN' -ldl -o app || exit 99
IPP_PROFILE=app.prof ./app >/dev/null || bad "app exited $?"
"$ipp" counts ./app ./libplug.so app.prof >auto.txt 2>auto.err || bad "ipp counts failed"
[ -s auto.err ] && { bad "warnings with libtw.so found from DT_NEEDED:"; cat auto.err; }
got=$(grep -v '^#' auto.txt | sort)
[ "$got" = "$gcov_counts" ] || bad "ipp counts: '$got', gcov: '$gcov_counts'"
"$ipp" counts ./app ./libtw.so ./libplug.so app.prof >named.txt 2>&1
cmp -s auto.txt named.txt || bad "naming libtw.so changes the counts"
"$ipp" check ./app ./libplug.so app.prof >check.txt 2>&1 || bad "ipp check failed"
[ "$(grep -c ': flow conserved$' check.txt)" = 3 ] || { bad "three units conserve flow:"; cat check.txt; }
"$ipp" report --all --width=0 ./app ./libplug.so app.prof >report.txt 2>report.err ||
	bad "ipp report failed"
[ -s report.err ] && { bad "ipp report warned:"; cat report.err; }
for unit in app.c lib.c plug.c; do
	grep -q "^  $unit: context mode" report.txt || bad "the report lists no unit $unit"
done
[ $fail = 0 ] && pass "a program and its libraries: counts equal gcov's, flow conserved"

# 2. Without a RUNPATH: LD_LIBRARY_PATH, as the dynamic linker.
$cc -O0 -g app.c -L. -ltw -ldl -o app2 || exit 99
LD_LIBRARY_PATH=. IPP_PROFILE=app2.prof ./app2 >/dev/null || bad "app2 exited $?"
LD_LIBRARY_PATH=. "$ipp" counts ./app2 ./libplug.so app2.prof >ld.txt 2>ld.err
[ "$(grep -v '^#' ld.txt | sort)" = "$want" ] || bad "not found through LD_LIBRARY_PATH"
"$ipp" counts ./app2 ./libplug.so app2.prof >none.txt 2>none.err
grep -q 'module lib.c .* is not part of ./app2' none.err ||
	bad "no warning when the library cannot be found"
[ $fail = 0 ] && pass "libraries found as the dynamic linker finds them"

# 3. The cache.
cat >ran.c <<'EOF'
int never(int x);
int main(int argc, char **argv)
{
	(void)argv;
	return argc > 5 ? never(argc) : 0;
}
EOF
printf 'int never(int x)\n{\n\treturn x * 2;\n}\n' >never.c
$cc -O0 -g ran.c never.c -o two || exit 99
IPP_PROFILE=two.prof ./two
rm -rf cache
"$ipp" report ./two two.prof >first.txt 2>&1 || bad "ipp report ./two failed"
[ "$(ls cache | wc -l)" = 1 ] ||
	bad "the first report cached $(ls cache | wc -l) units, not only the one that ran"
"$ipp" report ./two two.prof >second.txt 2>&1
cmp -s first.txt second.txt || bad "the report read from the cache differs"
f=$(ls cache/*)
cp "$f" good.mapdoc
for off in 20 60 300 1000; do
	printf 'Z' | dd of="$f" bs=1 seek=$off conv=notrunc status=none
	"$ipp" report ./two two.prof >damaged.txt 2>&1
	cmp -s first.txt damaged.txt || bad "a damaged cache file (byte $off) changed the report"
	cmp -s "$f" good.mapdoc || bad "a damaged cache file (byte $off) was not rewritten"
done
# another unit's cache file under ran.c's name: made from another text,
# not used
rm -rf cache
"$ipp" report ./app ./libplug.so app.prof >/dev/null 2>&1
ls cache >before.txt
"$ipp" report ./two two.prof >/dev/null 2>&1
ls cache >after.txt
two_file=cache/$(comm -13 before.txt after.txt)
[ "$(wc -l <before.txt) $(wc -l <after.txt)" = "3 4" ] ||
	bad "expected 3 cached units of app, then ran.c's"
cp "cache/$(head -1 before.txt)" "$two_file"
"$ipp" report ./two two.prof >swapped.txt 2>&1
cmp -s first.txt swapped.txt || bad "another unit's cache file changed the report"
rm -rf cache
IPP_CACHE=0 "$ipp" report ./two two.prof >nocache.txt 2>&1
cmp -s first.txt nocache.txt || bad "IPP_CACHE=0 changed the report"
[ -e cache ] && bad "IPP_CACHE=0 made the cache"
# another build of ran.c: the profile is refused, the cache warm
"$ipp" report ./two two.prof >/dev/null 2>&1
sed -i 's/return argc > 5/if (argc > 7)\n\t\treturn 7;\n\treturn argc > 5/' ran.c
$cc -O0 -g ran.c never.c -o two || exit 99
"$ipp" report ./two two.prof >/dev/null 2>other.err && bad "a profile of another build was decoded"
grep -q 'two.prof was recorded from a different build of ran.c (profile checksum [0-9a-f]\{16\}, binary has [0-9a-f]\{16\})' other.err ||
	{ bad "no clear message for another build:"; cat other.err; }
[ $fail = 0 ] && pass "the cache: only the units that ran, never a damaged or foreign file"

exit $fail
