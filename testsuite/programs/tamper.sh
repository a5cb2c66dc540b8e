#!/bin/bash
# tamper.sh -- the profile's digest (docs/FORMAT.md, "Digest") makes hand
# edits evident.  Two edits that keep the flow conserved, so that `ipp
# check` cannot see them from the counts (checked: with the digest line
# removed, check says "flow conserved"), are refused by every reader
# (ipp check, report, counts, merge) with the digest message, and by the
# runtime, which leaves the edited file untouched and writes P.<pid>:
#   1. deleting a record (a loop iteration: a cycle of G*);
#   2. setting a loop path's count to 2^31 - 1.
# `ipp merge` writes a valid digest (its output checks, and the runtime
# merges into it); a malformed digest line and a digest key elsewhere are
# refused; a profile without a digest line (earlier runtimes) is read.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u
srcdir=$(cd "${srcdir:-.}" && pwd)
builddir=$(cd "${builddir:-.}" && pwd)
wrap=$builddir/plugin/ipp-gcc-uninstalled
ipp=$builddir/ipp
work=$(mktemp -d "${TMPDIR:-/tmp}/ipp-tamper.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
cd "$work" || exit 1

# A loop whose iterations are paths of their own (intra mode): the path
# from the loop header around the body back to it is a cycle of G*, so
# dropping one of its records, or changing its count, conserves flow.
cat >loop.c <<'C'
#include <stdio.h>
static volatile int sink;
int main(void)
{
	for (int i = 0; i < 10; i++)
		sink += i;
	printf("%d\n", sink);
	return 0;
}
C
if ! "$wrap" -O0 -fplugin-arg-ipp-mode=intra loop.c -o loop 2>err; then
	bad "loop.c does not build with ipp"; cat err; exit 1
fi
IPP_PROFILE=$work/good.prof ./loop >/dev/null && IPP_PROFILE=$work/good.prof ./loop >/dev/null
if "$ipp" check loop good.prof >out 2>&1 && grep -q "flow conserved" out &&
   grep -q '^digest: "[0-9a-f]\{16\}"$' good.prof; then
	ok "the runtime's profile has a digest and checks"
else
	bad "the runtime's profile"; cat out good.prof
fi

# the loop's path: count 18 (9 iterations from the header, 2 runs)
loopline=$(grep -n '^  - \[main, [0-9]*, 18\]$' good.prof | cut -d: -f1)
if [ -z "$loopline" ]; then
	bad "no loop path with count 18 in the profile"; cat good.prof
fi
sed "${loopline}d" good.prof >deleted.prof
sed "${loopline}s/, 18\]\$/, 2147483647]/" good.prof >bigcount.prof
for f in deleted bigcount; do
	grep -v '^digest: ' $f.prof >$f.nodigest.prof
	if "$ipp" check loop $f.nodigest.prof >out 2>&1 && grep -q "flow conserved" out; then
		ok "$f: without the digest the edit conserves flow (what the digest is for)"
	else
		bad "$f: expected a flow-preserving edit"; cat out
	fi
	for cmd in check report counts; do
		if "$ipp" $cmd loop $f.prof >out 2>&1; then
			bad "$f: ipp $cmd accepted the edited profile"
		elif grep -q "$f.prof:[0-9]*: profile digest mismatch: the file says" out; then
			ok "$f: ipp $cmd refuses it ($(head -c 60 out)...)"
		else
			bad "$f: ipp $cmd: unexpected message"; cat out
		fi
	done
	if "$ipp" merge m.prof good.prof $f.prof >out 2>&1 || [ -e m.prof ]; then
		bad "$f: ipp merge accepted it"; rm -f m.prof
	elif grep -q "profile digest mismatch" out; then
		ok "$f: ipp merge refuses it"
	else
		bad "$f: ipp merge: unexpected message"; cat out
	fi
	# the runtime never merges into it (a new digest would launder it)
	cp $f.prof victim.prof
	IPP_PROFILE=$work/victim.prof ./loop >/dev/null 2>err
	if cmp -s $f.prof victim.prof && ls victim.prof.[0-9]* >/dev/null 2>&1 &&
	   grep -q "profile digest mismatch" err; then
		ok "$f: the runtime leaves it untouched and writes victim.prof.<pid>"
	else
		bad "$f: the runtime merged into it"; cat err
	fi
	rm -f victim.prof*
done

# ipp merge writes a valid digest: it checks, the runtime merges into it
if "$ipp" merge m.prof good.prof good.prof >out 2>&1 && "$ipp" check loop m.prof >out 2>&1 &&
   grep -q "runs: 4" m.prof && grep -q '^  - \[main, [0-9]*, 36\]$' m.prof; then
	IPP_PROFILE=$work/m.prof ./loop >/dev/null 2>err
	if [ ! -s err ] && grep -q "runs: 5" m.prof && grep -q '^  - \[main, [0-9]*, 45\]$' m.prof &&
	   "$ipp" check loop m.prof >/dev/null 2>&1; then
		ok "ipp merge's output has a valid digest (checked by ipp and by the runtime)"
	else
		bad "the runtime did not merge into ipp merge's output"; cat err m.prof
	fi
else
	bad "ipp merge"; cat out
fi

# malformed digest lines, a digest elsewhere, no digest
sed 's/^digest: "\(.*\)"$/digest: "\1x"/' good.prof >malformed.prof
{ sed -n '1,3p' good.prof; grep '^digest: ' good.prof; sed -n '4,$p' good.prof |
	grep -v '^digest: '; } >moved.prof
grep -v '^digest: ' good.prof >none.prof
for f in malformed moved; do
	if "$ipp" check loop $f.prof >out 2>&1; then
		bad "$f digest: accepted"
	elif grep -q "digest" out; then
		ok "$f digest: refused ($(head -c 70 out)...)"
	else
		bad "$f digest: unexpected message"; cat out
	fi
done
if "$ipp" check loop none.prof >out 2>&1; then
	ok "a profile without a digest line is read (earlier runtimes)"
else
	bad "no digest: refused"; cat out
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
