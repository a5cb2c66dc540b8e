#!/bin/bash
# tamper.sh -- the profile's digest (docs/FORMAT.md, "Digest") makes hand
# edits evident.  Two edits of the binary profile that keep the flow
# conserved, so that `ipp check` cannot see them from the counts (checked:
# the same edits made on the text form `ipp profile` prints, without its
# digest line, give "flow conserved"), are refused by every reader (ipp
# check, report, counts, merge) with the digest message, and by the
# runtime, which leaves the edited file untouched and writes P.<pid>:
#   1. deleting a record (a loop iteration: a cycle of G*), the counts and
#      sizes in the headers fixed to match;
#   2. setting a loop path's count to 2^31 - 1.
# The bytes are patched with printf and dd at offsets found with od, from
# the layout of runtime/ipp_profile.h.  `ipp merge` writes a valid digest
# (its output checks, and the runtime merges into it); a damaged digest, a
# truncated file and the old text format are refused by the runtime; the
# text form without a digest line is read by ipp.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u
. "$(dirname "$0")/prog-lib.sh"
prog_begin tamper
cd "$work" || exit 1

# le64 N: the 8 bytes of N, little endian, as printf escapes
le64() {
	local i s=
	for i in 0 1 2 3 4 5 6 7; do s=$s$(printf '\\x%02x' $((($1 >> (8 * i)) & 255))); done
	printf '%s' "$s"
}
# put64 FILE OFFSET N: writes N at OFFSET, in place
put64() { printf "$(le64 "$3")" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }
# get64 FILE OFFSET: the 64-bit word at OFFSET
get64() { od -A n -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }
# runtime_refuses FILE WHY: run over a copy of FILE, the runtime leaves it
# untouched, writes its run to victim.prof.<pid> and says WHY on stderr
runtime_refuses() {
	local rc
	cp "$1" victim.prof
	IPP_PROFILE=$work/victim.prof ./loop >/dev/null 2>err
	cmp -s "$1" victim.prof && ls victim.prof.[0-9]* >/dev/null 2>&1 && grep -q "$2" err
	rc=$?
	rm -f victim.prof*
	return $rc
}

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
   [ "$(head -c 8 good.prof | od -A n -t x1 | tr -d ' ')" = 89495050524f460a ] &&
   "$ipp" profile good.prof >good.txt && grep -q '^digest: "[0-9a-f]\{16\}"$' good.txt; then
	ok "the runtime's profile is binary, with a digest, and checks"
else
	bad "the runtime's profile"; cat out
fi

# The loop's path: count 18 (9 iterations from the header, 2 runs).  One
# module (at byte 32); after its 80-byte header and its name table come
# its groups of paths: {u32 name, u32 0, u64 n} and n paths {u64 number,
# u64 count}.
size=$(stat -c %s good.prof)
ngroups=$(get64 good.prof 72)
npaths=$(get64 good.prof 80)
names=$(get64 good.prof 64)
at=$((32 + 80 + names))
rec= grp=
for ((g = 0; g < ngroups; g++)); do
	n=$(get64 good.prof $((at + 8)))
	for ((k = 0; k < n; k++)); do
		[ "$(get64 good.prof $((at + 16 + 16 * k + 8)))" = 18 ] && rec=$((at + 16 + 16 * k)) grp=$at
	done
	at=$((at + 16 + 16 * n))
done
if [ "$(get64 good.prof 16)" != "$size" ] || [ "$(od -A n -t u4 -j 24 -N 4 good.prof | tr -d ' ')" != 1 ] ||
   [ -z "$rec" ]; then
	bad "no loop path with count 18 in the profile's one module"; "$ipp" profile good.prof
fi
num=$(get64 good.prof $rec)
# 1. deleted: the path's 16 bytes cut out; its group's n, npaths, the
#    module's size and the file's size fixed
{ head -c "$rec" good.prof; tail -c +$((rec + 17)) good.prof; } >deleted.prof
put64 deleted.prof $((grp + 8)) $(($(get64 good.prof $((grp + 8))) - 1))
put64 deleted.prof 80 $((npaths - 1))
put64 deleted.prof 32 $(($(get64 good.prof 32) - 16))
put64 deleted.prof 16 $((size - 16))
# 2. bigcount: the count set to 2^31 - 1
cp good.prof bigcount.prof
put64 bigcount.prof $((rec + 8)) 2147483647
# the same edits on the text form, without its digest line
grep -v "^  - \[main, $num, 18\]\$" good.txt | grep -v '^digest: ' >deleted.nodigest.prof
sed "s/^  - \[main, $num, 18\]\$/  - [main, $num, 2147483647]/" good.txt |
	grep -v '^digest: ' >bigcount.nodigest.prof
for f in deleted bigcount; do
	if cmp -s good.txt $f.nodigest.prof; then
		bad "$f: the text edit changed nothing"
	elif "$ipp" check loop $f.nodigest.prof >out 2>&1 && grep -q "flow conserved" out; then
		ok "$f: without the digest the edit conserves flow (what the digest is for)"
	else
		bad "$f: expected a flow-preserving edit"; cat out
	fi
	for cmd in check report counts; do
		if "$ipp" $cmd loop $f.prof >out 2>&1; then
			bad "$f: ipp $cmd accepted the edited profile"
		elif grep -q "$f.prof: profile digest mismatch: the file says" out; then
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
	if runtime_refuses $f.prof "profile digest mismatch"; then
		ok "$f: the runtime leaves it untouched and writes victim.prof.<pid>"
	else
		bad "$f: the runtime merged into it"; cat err
	fi
done

# ipp merge writes a valid digest: it checks, the runtime merges into it
if "$ipp" merge m.prof good.prof good.prof >out 2>&1 && "$ipp" check loop m.prof >out 2>&1 &&
   "$ipp" profile m.prof >m.txt && grep -q "runs: 4" m.txt &&
   grep -q "^  - \[main, $num, 36\]\$" m.txt; then
	IPP_PROFILE=$work/m.prof ./loop >/dev/null 2>err
	if [ ! -s err ] && "$ipp" profile m.prof >m.txt && grep -q "runs: 5" m.txt &&
	   grep -q "^  - \[main, $num, 45\]\$" m.txt && "$ipp" check loop m.prof >/dev/null 2>&1; then
		ok "ipp merge's output has a valid digest (checked by ipp and by the runtime)"
	else
		bad "the runtime did not merge into ipp merge's output"; cat err m.txt
	fi
else
	bad "ipp merge"; cat out
fi

# a damaged digest, a truncated file, the text form: the runtime refuses
# each (and leaves it as it was); ipp refuses the first two
cp good.prof digest.prof
put64 digest.prof $((size - 8)) $(($(get64 good.prof $((size - 8))) ^ 1))
head -c $((size - 8)) good.prof >truncated.prof
cp good.txt text.prof
for f in digest:"profile digest mismatch" truncated:"truncated: the header says" \
	 text:"this profile is in the old text format (version 1)"; do
	name=${f%%:*} why=${f#*:}
	if [ $name != text ]; then
		if "$ipp" check loop $name.prof >out 2>&1; then
			bad "$name: ipp accepted it"
		elif grep -q "$name.prof: $why" out; then
			ok "$name: ipp refuses it ($(head -c 70 out)...)"
		else
			bad "$name: ipp: unexpected message"; cat out
		fi
	fi
	if runtime_refuses $name.prof "victim.prof: $why"; then
		ok "$name: the runtime leaves it untouched ($(head -c 70 err)...)"
	else
		bad "$name: the runtime"; cat err
	fi
done
grep -v '^digest: ' good.txt >none.prof
if "$ipp" check loop none.prof >out 2>&1 && "$ipp" check loop text.prof >out 2>&1; then
	ok "ipp reads the text form, with or without its digest line"
else
	bad "ipp refuses the text form"; cat out
fi

prog_end
