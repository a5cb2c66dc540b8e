#!/bin/bash
# report_alike.sh -- many printed paths that read alike (docs/REPORT.md,
# "Distinct paths read differently"): a loop whose body is twelve branches
# on one source line (a macro), run for v = 0..4095, takes every
# combination of the branches once.  The first iteration (v = 0) belongs to
# the path that enters main; v = 1..4095 are 4095 loop-restart paths that
# all read "work:4 (loop restart) -> work:6 -> work:4 (back edge)" and must
# be told apart by "branch to" notes.
#   1. `ipp report -n 2000` and `--all` finish in time (telling the paths
#      apart once cost a decode and a formatting per pair of alike paths:
#      minutes for 4000 paths);
#   2. no printed path names the same note twice; every restart path has a
#      note, and no two printed paths read alike;
#   3. with --all, restart path v parts from another restart path at each
#      of the twelve branches (from v ^ 1 << k with any higher bits), except
#      v = 2048 at the last one (its only partner there is v = 0, which is
#      not a restart path): 4094 paths with 12 notes, one with 11.
#
# Environment: builddir (automake sets it).
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u

builddir=$(cd "${builddir:-.}" && pwd)
ipp=$builddir/ipp
cc=$builddir/plugin/ipp-gcc-uninstalled
work=$(mktemp -d "${TMPDIR:-/tmp}/ipp-report-alike.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 99
fail=0
bad() { echo "FAIL: $*"; fail=1; }
pass() { echo "PASS: $*"; }

cat >alike.c <<'EOF'
static unsigned work(unsigned n)
{
	unsigned s = 0;
	for (unsigned v = 0; v < n; v++) {
#define D(k) if (v & (1u << k)) s += k; else s ^= k;
		D(0) D(1) D(2) D(3) D(4) D(5) D(6) D(7) D(8) D(9) D(10) D(11)
	}
	return s;
}

int main(void)
{
	return work(4096) == 0;
}
EOF
$cc -O0 -g -fplugin-arg-ipp-mode=context alike.c -o alike || exit 99
IPP_PROFILE=ipp.prof ./alike || bad "alike exited $?"

# One line per printed path: its notes "branch to ...", separated by '|',
# after its text without them.  A path continued on further lines (--width)
# is joined first.
notes() {
	awk '
	function flush() {
		if (path == "")
			return
		rest = path; list = ""; n = 0
		while (match(rest, /branch to (successor [0-9]+ of [0-9]+ \([^)]*\)|[^,)]*)/)) {
			list = list "|" substr(rest, RSTART, RLENGTH)
			rest = substr(rest, RSTART + RLENGTH)
		}
		plain = path
		gsub(/,? ?(branch to (successor [0-9]+ of [0-9]+ \([^)]*\)|[^,)]*))/, "", plain)
		gsub(/ \(\)/, "", plain)
		print plain "\t" list
		path = ""
	}
	/^ *[0-9]+ +[0-9]+ +[0-9.]+% / { flush(); on = 1; next }
	on && /^      / { sub(/^ +/, path == "" ? "" : " "); path = path $0; next }
	END { flush() }' "$1"
}

restart='[main:11 -> main:13 (call)] -> work:4 (loop restart) -> work:6 -> work:4 (back edge)'

for args in "-n 2000 --width=0" "--all --width=0" "-n 2000 --width=80"; do
	t="ipp report $args"
	timeout 60 "$ipp" report $args ./alike ipp.prof >out.txt 2>err.txt
	rc=$?
	[ $rc = 124 ] && { bad "$t: not done in 60 s"; continue; }
	[ $rc = 0 ] || { bad "$t: exit $rc"; cat err.txt; continue; }
	notes out.txt >notes.txt
	shown=$(wc -l <notes.txt)
	case $args in
	-n\ 2000*) [ "$shown" = 2000 ] || bad "$t: $shown paths printed, want 2000" ;;
	*) [ "$shown" = 4097 ] || bad "$t: $shown paths printed, want 4097 (1 + 4095 + 1)" ;;
	esac
	# 2. no note twice on a path
	awk -F'\t' '{ n = split($2, v, "|"); delete seen
		      for (i = 2; i <= n; i++) if (seen[v[i]]++) { print; exit 1 } }' notes.txt >dup.txt ||
		{ bad "$t: a path names a note twice:"; cut -c1-300 dup.txt; }
	if [ "$args" != "-n 2000 --width=80" ]; then
		# every restart path has a note; the printed texts all differ
		awk -F'\t' -v r="$restart" '$1 == r && $2 == "" { bad = 1 } END { exit bad }' \
			notes.txt || bad "$t: a restart path without a note"
		# all but the paths that enter and leave main are restart paths
		n=$(awk -F'\t' -v r="$restart" '$1 == r' notes.txt | wc -l)
		[ "$n" -ge $((shown - 2)) ] || bad "$t: $n restart paths of $shown printed"
		[ "$(sort -u out.txt | grep -c '^      ')" = "$shown" ] ||
			bad "$t: two printed paths read alike"
	fi
	case $args in
	--all*)
		# 3. the notes of the 4095 restart paths
		got=$(awk -F'\t' -v r="$restart" '$1 == r { print split($2, v, "|") - 1 }' notes.txt |
		      sort -n | uniq -c | awk '{ printf "%s:%s ", $2, $1 }')
		[ "$got" = "11:1 12:4094 " ] ||
			bad "$t: notes per restart path (notes:paths) $got, want 11:1 12:4094"
		;;
	esac
	[ $fail = 0 ] && pass "$t"
done

exit $fail
