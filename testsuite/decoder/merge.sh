#!/bin/bash
# merge.sh -- `ipp merge` against the runtime's own merging.
#
# A two-unit program runs 8 times at once with IPP_PROFILE=run.%p.prof (one
# profile per process), and the same 8 runs at once into one shared file
# (the runtime merges them under its lock: docs/RUNTIME.md section 5).  Then:
#   1. `ipp merge` of the 8 profiles holds exactly the shared file's paths
#      and counts (their `ipp report --all` documents are equal), runs 8,
#      and work() entered 1 + 2 + ... + 8 = 36 times (the program's logic);
#   2. the merge order and grouping do not matter: other orders, and
#      merging merged halves, give the same file byte for byte;
#   3. a profile of another build of a unit is refused, naming both files;
#      with --keep-going it is skipped (status 1) and the rest merged;
#   4. counts and runs saturate at 2^64-1 (hand-written profiles in the
#      text form of docs/FORMAT.md section 3.6, which ipp reads; the sum,
#      a binary file, read back through `ipp profile`).
#
# Environment: srcdir, builddir (automake sets them).
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u

builddir=$(cd "${builddir:-.}" && pwd)
ipp=$builddir/ipp
cc=$builddir/plugin/ipp-gcc-uninstalled
work=$(mktemp -d "${TMPDIR:-/tmp}/ipp-merge.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 99
fail=0
bad() { echo "FAIL: $*"; fail=1; }
pass() { echo "PASS: $*"; }

cat >main.c <<'EOF'
#include <stdlib.h>
int work(int i);
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 0, s = 0;
	for (int i = 0; i < n; i++)
		s += work(i);
	return s < 0;
}
EOF
cat >work.c <<'EOF'
int work(int i)
{
	if (i % 3 == 0)
		return i;
	if (i % 3 == 1)
		return 2 * i;
	return -i;
}
EOF
$cc -O2 -g main.c work.c -o prog || exit 99

# 8 concurrent runs, twice: one file per process, then one shared file.
for k in 1 2 3 4 5 6 7 8; do IPP_PROFILE=run.%p.prof ./prog $k & done
wait
for k in 1 2 3 4 5 6 7 8; do IPP_PROFILE=shared.prof ./prog $k & done
wait
runs=(run.*.prof)
[ ${#runs[@]} = 8 ] || bad "expected 8 per-process profiles, found ${#runs[@]}"

# 1. The sum equals the runtime's shared file.
"$ipp" merge merged.prof "${runs[@]}" || bad "ipp merge failed"
"$ipp" report --all --format=yaml ./prog merged.prof | grep -v '^profile:' >merged.yaml
"$ipp" report --all --format=yaml ./prog shared.prof | grep -v '^profile:' >shared.yaml
if cmp -s merged.yaml shared.yaml && [ -s merged.yaml ]; then
	pass "merged profiles = the shared file's ($(grep -c 'rank:' merged.yaml) paths)"
else
	bad "merged profiles differ from the shared file:"
	diff shared.yaml merged.yaml | head -20
fi
grep -q '^    runs: 8$' merged.yaml || bad "runs of the merged profile are not 8"
entries=$("$ipp" counts --functions ./prog merged.prof | awk '$1 == "work" { print $2 }')
[ "$entries" = 36 ] || bad "work entered $entries times in the sum, not 36"

# 2. Order and grouping.
"$ipp" merge reversed.prof $(printf '%s\n' "${runs[@]}" | sort -r) || bad "reversed merge"
"$ipp" merge rotated.prof "${runs[@]:3}" "${runs[@]:0:3}" || bad "rotated merge"
"$ipp" merge half1.prof "${runs[@]:0:4}" && "$ipp" merge half2.prof "${runs[@]:4}" &&
	"$ipp" merge halves.prof half2.prof half1.prof || bad "merge of halves"
"$ipp" merge nested.prof "${runs[0]}" half2.prof "${runs[@]:1:3}" || bad "nested merge"
for f in reversed rotated halves nested; do
	cmp -s merged.prof $f.prof || bad "$f.prof differs from merged.prof"
done
[ $fail = 0 ] && pass "merge order and grouping do not matter"

# 3. Another build of work.c.
mkdir v2 && sed 's/return -i;/if (i > 100)\n\t\treturn 0;\n\treturn -i;/' work.c >v2/work.c
(cd v2 && $cc -O2 -g ../main.c work.c -o ../prog2) || exit 99
IPP_PROFILE=other.prof ./prog2 3
"$ipp" merge out.prof merged.prof other.prof 2>err.txt
st=$?
[ $st = 1 ] || bad "merging another build exited $st, not 1"
grep -q 'other.prof.*work.c.*merged.prof' err.txt || { bad "the message names not both files:"; cat err.txt; }
[ -e out.prof ] && bad "out.prof was written after an error"
"$ipp" merge --keep-going out.prof "${runs[@]:0:4}" other.prof "${runs[@]:4}" 2>err.txt
st=$?
[ $st = 1 ] || bad "--keep-going with a skipped input exited $st, not 1"
grep -q 'other.prof.*skipped' err.txt || { bad "no 'skipped' message:"; cat err.txt; }
cmp -s out.prof merged.prof || bad "--keep-going did not merge the other inputs"
[ $fail = 0 ] && pass "another build refused, or skipped with --keep-going"

# 4. Saturation.
profile() {	# RUNS COUNT3
	printf 'ipp-profile: 1\nmodules:\n- module: s.c\n  checksum: "00000000000000aa"\n'
	printf '  mode: context\n  runs: %s\n  paths:\n  - [main, 3, %s]\n' "$1" "$2"
	printf '  - [main, 4, 1]\n  partial: []\n...\n'
}
profile 18446744073709551000 18446744073709551610 >big.prof
profile 1000 10 >small.prof
"$ipp" merge sat.prof big.prof small.prof || bad "merge of big counts failed"
"$ipp" profile sat.prof >sat.txt || bad "ipp profile cannot read the sum"
grep -q '^  runs: 18446744073709551615$' sat.txt || bad "runs did not saturate"
grep -q '^  - \[main, 3, 18446744073709551615\]$' sat.txt || bad "count did not saturate"
grep -q '^  - \[main, 4, 2\]$' sat.txt || bad "the unsaturated count is not 2"
[ $fail = 0 ] && pass "counts and runs saturate at 2^64-1"

exit $fail
