#!/bin/bash
# test.sh -- runs the walkthrough of examples/divergence/README.md exactly
# as written (every line of it that starts with "$ ", in order, with ipp-gcc
# and ipp from the build tree first in PATH) and checks that:
#   1. the program behaves as the README says: the passing input decodes
#      right, the failing one shows the bug (facts of run-length decoding,
#      computed here, not ipp's);
#   2. `ipp diff` names the guilty branch: the first divergence of its YAML
#      document is read_count in rle.c at the line of the source marked
#      "divergence:" (found with grep, not with ipp), kind branch, in the
#      context main -> decode -> read_count, and it exits with status 1;
#   3. the output the README shows is what ipp diff prints (the README
#      stays true), and comparing a profile with itself exits 0.
#
# Environment: srcdir, builddir (automake sets them).
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u

srcdir=${srcdir:-.}
builddir=${builddir:-.}
here=$srcdir/examples/divergence
work=$(mktemp -d "${TMPDIR:-/tmp}/ipp-divergence.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

mkdir "$work/bin"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$(cd "$builddir" && pwd)/plugin/ipp-gcc-uninstalled" \
	>"$work/bin/ipp-gcc"
ln -s "$(cd "$builddir" && pwd)/ipp" "$work/bin/ipp"
chmod +x "$work/bin/ipp-gcc"
cp "$here/rle.c" "$work/"

# 1. The walkthrough, command by command; each command's output is kept.
n=0
while IFS= read -r line; do
	n=$((n + 1))
	(cd "$work" && PATH="$work/bin:$PATH" bash -c "${line#\$ }") >"$work/out.$n" 2>&1
	echo "$?" >"$work/status.$n"
	echo "ran: ${line#\$ } (status $(cat "$work/status.$n"))"
done < <(grep '^\$ ' "$here/README.md")
[ "$n" = 4 ] || bad "the README should have 4 commands, found $n"

[ "$(cat "$work/status.1")" = 0 ] || { bad "ipp-gcc failed:"; cat "$work/out.1"; }
[ "$(cat "$work/out.2")" = aaabbcccc ] || bad "3a2b4c decoded to '$(cat "$work/out.2")'"
want=aaa$(printf 'b%.0s' $(seq 60))	# the bug: '2' is 50, so 1 * 10 + 50 b's
[ "$(cat "$work/out.3")" = "$want" ] || bad "3a12b decoded to '$(cat "$work/out.3")'"
[ "$(cat "$work/status.4")" = 1 ] || bad "ipp diff exited $(cat "$work/status.4"), not 1"

# 2. The guilty branch, from the YAML document.
line=$(grep -n 'divergence: the second digit' "$work/rle.c" | cut -d: -f1)
(cd "$work" && "$work"/bin/ipp diff --format=yaml ./rle pass.prof fail.prof) >"$work/diff.yaml"
[ $? = 1 ] || bad "ipp diff --format=yaml did not exit 1"
first=$(awk '/^divergences:/ { on = 1; next }
	     on && /^  - / { k++ }
	     on && (k > 1 || /^[a-z]/) { exit }
	     on { print }' "$work/diff.yaml")
field() { printf '%s\n' "$first" | sed -n "s/^ *-\{0,1\} *$1: //p" | head -1; }
[ "$(field kind)" = branch ] || bad "first divergence kind '$(field kind)', want branch"
[ "$(field function)" = read_count ] || bad "function '$(field function)', want read_count"
[ "$(field file)" = rle.c ] || bad "file '$(field file)', want rle.c"
[ "$(field line)" = "$line" ] || bad "line '$(field line)', want $line (the marked if)"
callers=$(printf '%s\n' "$first" | sed -n 's/.*{caller: \([a-z_]*\), callee: \([a-z_]*\),.*/\1->\2/p' |
	  tr '\n' ' ')
[ "$callers" = "main->decode decode->read_count " ] ||
	bad "context '$callers', want main->decode decode->read_count"

# 3. The README shows what ipp prints.
sed -n '/^ipp diff: \.\/rle$/,/^```$/p' "$here/README.md" | sed '$d' >"$work/readme-head"
head -n "$(wc -l <"$work/readme-head")" "$work/out.4" >"$work/actual-head"
if ! cmp -s "$work/readme-head" "$work/actual-head"; then
	bad "the README's output differs from ipp diff's (< README, > actual):"
	diff "$work/readme-head" "$work/actual-head"
fi
grep -q "at rle.c:$line: branch" "$work/readme-head" || bad "the README does not name line $line"
(cd "$work" && "$work"/bin/ipp diff ./rle pass.prof pass.prof >/dev/null)
[ $? = 0 ] || bad "ipp diff of a profile with itself did not exit 0"

[ $fail = 0 ] && echo "PASS: ipp diff names read_count at rle.c:$line"
exit $fail
