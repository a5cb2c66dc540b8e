#!/bin/bash
# bench/oracle.sh -- gcov as an oracle for ipp's derived counts on SQLite.
#
# testsuite/programs/gcov.sh at scale: the SQLite workload of bench/ (the
# amalgamation of better-sqlite3 + bench/sqlite-driver.c) is built twice at
# -O0 -fno-inline, with gcc --coverage and with ipp in context mode, each
# build runs the same workload (sqlite-driver N), and
#   - every function's entry count from `ipp counts --functions` is
#     compared with gcov's "function NAME called N" (gcov -b);
#   - unless --no-lines, every source line in a single basic block of gcov's
#     graph and a single segment of ipp's is compared, with the functions of
#     testsuite/programs/gcov-lib.sh (docs/DERIVE.md section 3).
# SQLite is not quite deterministic from run to run: it seeds its PRNG
# from /dev/urandom and the time, and a few of its decisions depend on
# addresses, so both builds are run twice, and
# the mismatches are split into those where gcov's or ipp's own two runs
# disagree on that function (run-to-run variation) and the others (real).
#
# Usage: bench/oracle.sh [options]
#   --builddir DIR   an ipp build tree (default $IPP_BUILDDIR, else .)
#   --cache DIR      where sqlite3.c is (as in bench/run.sh; default
#                    $IPP_BENCH_CACHE or ~/.cache/ipp-bench; fetched with npm
#                    if missing)
#   --work DIR       where to build (default $TMPDIR/ipp-oracle.XXXX, kept)
#   --size N         the driver's size (default 2000)
#   --no-lines       compare function entry counts only
# Prints the counts and exits 1 if a mismatch is not explained by run-to-run
# variation, a function is listed by one side only (unless SQLite forces it
# inline: gcov never sees it), or anything fails to build or run.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.

set -u
LC_ALL=C
export LC_ALL
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/.." && pwd)

builddir=${IPP_BUILDDIR:-.}
cache=${IPP_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ipp-bench}
work=
size=2000
lines=yes
while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$2; shift ;;
	--cache) cache=$2; shift ;;
	--work) work=$2; shift ;;
	--size) size=$2; shift ;;
	--no-lines) lines=no ;;
	-h|--help) sed -n '2,/^# Copyright/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "oracle.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
	esac
	shift
done
die() { echo "oracle.sh: $*" >&2; exit 1; }

builddir=$(cd "$builddir" && pwd) || die "no build tree $builddir"
ippgcc=$builddir/plugin/ipp-gcc-uninstalled
ipp=$builddir/ipp
[ -x "$ippgcc" ] && [ -x "$ipp" ] || die "no ipp in $builddir: build it first (make), or pass --builddir"
command -v gcov >/dev/null || die "gcov not found"
. "$srcdir/testsuite/programs/gcov-lib.sh"

# sqlite3.c, as bench/run.sh fetches it
. "$here/fetch.sh"
fetch_sqlite || die "cannot fetch sqlite3.c"
[ -n "$work" ] || work=$(mktemp -d "${TMPDIR:-/tmp}/ipp-oracle.XXXX") || die mktemp
mkdir -p "$work/gcov" "$work/ipp" && work=$(cd "$work" && pwd) || die "cannot create $work"
flags="-O0 -fno-inline -w -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -I$sqdir"
echo "gcov oracle on SQLite $sqver, size $size; work: $work"

# Build: one object per source file (the notes are then DIR/sqlite3.gcno).
for f in sqlite3 sqlite-driver; do
	case $f in sqlite3) s=$sqdir/sqlite3.c ;; *) s=$here/sqlite-driver.c ;; esac
	gcc $flags --coverage -c "$s" -o "$work/gcov/$f.o" >"$work/gcov/$f.log" 2>&1 ||
		die "gcov build of $f.c failed: $work/gcov/$f.log"
	"$ippgcc" $flags -fplugin-arg-ipp-mode=context -c "$s" -o "$work/ipp/$f.o" \
		>"$work/ipp/$f.log" 2>&1 || die "ipp build of $f.c failed: $work/ipp/$f.log"
done
gcc --coverage "$work"/gcov/*.o -o "$work/gcov/prog" -lm || die "gcov link failed"
"$ippgcc" "$work"/ipp/*.o -o "$work/ipp/prog" -lm || die "ipp link failed"

# Run each build twice on the same input; keep each run's counts.
for r in 1 2; do
	rm -f "$work"/gcov/*.gcda "$work"/gcov/*.gcov
	(cd "$work/gcov" && ./prog "$size" >"out.$r") || die "gcov run $r failed"
	(cd "$work/gcov" && gcov -b -o "$work/gcov" "$sqdir/sqlite3.c" "$here/sqlite-driver.c" \
		>/dev/null 2>&1) || die "gcov failed"
	cat "$work"/gcov/*.gcov >"$work/gcov/all.$r"
	gcov_entries "$work/gcov/all.$r" 0 >"$work/gcov/entries.$r"
	gcov_line_counts "$work"/gcov/*.gcov >"$work/gcov/lines.$r"
	rm -f "$work/ipp/prof.$r"
	(cd "$work/ipp" && IPP_PROFILE=$work/ipp/prof.$r ./prog "$size" >"out.$r") ||
		die "ipp run $r failed"
	"$ipp" counts --functions --format=yaml "$work/ipp/prog" "$work/ipp/prof.$r" \
		>"$work/ipp/counts.$r" || die "ipp counts failed"
	sed -n 's/.* asm_name: \([^,]*\),.* entries: \([0-9]*\),.*/\1 \2/p' "$work/ipp/counts.$r" |
		sed 's/^"\(.*\)" /\1 /' | sort >"$work/ipp/entries.$r"
	cmp -s "$work/gcov/out.$r" "$work/ipp/out.$r" || die "the two builds print different results"
done

# FUNCTION GCOV1 GCOV2 IPP1 IPP2, "-" where a side does not list it
join -a1 -a2 -e - -o 0,1.2,2.2 "$work/gcov/entries.1" "$work/gcov/entries.2" >"$work/g12"
join -a1 -a2 -e - -o 0,1.2,2.2 "$work/ipp/entries.1" "$work/ipp/entries.2" >"$work/i12"
join -a1 -a2 -e - -o 0,1.2,1.3,2.2,2.3 "$work/g12" "$work/i12" >"$work/functions.txt"
awk '
	$2 != "-" && $4 != "-" { n++; if ($2 == $4) same++; else {
		if ($2 != $3 || $4 != $5) var++; else { real++; print "    " $1 ": gcov " $2 ", ipp " $4 >"/dev/stderr" } } }
	$2 != $3 { gvar++ }
	$4 != $5 { ivar++ }
	$2 == "-" || $4 == "-" { one++; ones = ones " " $1 ($2 == "-" ? " (ipp only)" : " (gcov only)") }
	END {
		printf "functions: %d compared, %d mismatched (%d of them vary between runs, %d do not)\n", n, n - same, var, real
		printf "  run to run: gcov %d functions differ, ipp %d\n", gvar, ivar
		printf "  %d functions listed by one side only:%s\n", one, ones
		exit real > 0
	}' "$work/functions.txt" 2>"$work/functions.real"
st=$?
# A function only ipp lists is explained when SQLite forces it inline
# (SQLITE_INLINE: always_inline, which GCC inlines even at -fno-inline,
# before gcov instruments and after ipp does); so is an inlined copy of
# such a function that `ipp counts` lists apart, as CALLER/FUNC:K (a copy
# GCC's early passes changed: README, "inlined copies"); any other is a
# failure.
for f in $(awk '$2 == "-" || $4 == "-" { print $1 }' "$work/functions.txt"); do
	origin=${f#*/}
	origin=${origin%%:*}
	if awk -v f="$f" '$1 == f && $2 == "-"' "$work/functions.txt" | grep -q . &&
	   grep -q "SQLITE_INLINE .*[ *]$origin(" "$sqdir/sqlite3.c"; then
		if [ "$origin" = "$f" ]; then
			echo "  $f: always_inline (SQLITE_INLINE), so gcov has no function"
		else
			echo "  $f: a copy of $origin, always_inline (SQLITE_INLINE), so gcov has no function"
		fi
	else
		echo "  $f: listed by one side only, unexplained"; st=1
	fi
done
[ $st -eq 0 ] || [ ! -s "$work/functions.real" ] || { echo "  not explained by run-to-run variation:"; cat "$work/functions.real"; }

if [ $lines = yes ]; then
	"$ipp" map "$work/ipp/prog" >"$work/ipp/map" || die "ipp map failed"
	ipp_segment_lines "$work/ipp/map" >"$work/ipp/seglines"
	gcno_lines "$work/gcov/sqlite3.gcno" >"$work/gcov/gcno.lines" || die "cannot read sqlite3.gcno"
	gcno_lines "$work/gcov/sqlite-driver.gcno" >>"$work/gcov/gcno.lines" || die "cannot read sqlite-driver.gcno"
	for r in 1 2; do
		"$ipp" counts --vertices "$work/ipp/prog" "$work/ipp/prof.$r" >"$work/ipp/vertices.$r" ||
			die "ipp counts --vertices failed"
		compare_lines "$work/gcov/gcno.lines" "$work/gcov/lines.$r" "$work/ipp/seglines" \
			"$work/ipp/vertices.$r" >"$work/lines.$r"
	done
	# gcov's own variation: the lines whose count differs between its runs
	join -t "$(printf '\t')" <(awk -F'\t' '{ print $1 ":" $2 "\t" $3 }' "$work/gcov/lines.1" | sort) \
		<(awk -F'\t' '{ print $1 ":" $2 "\t" $3 }' "$work/gcov/lines.2" | sort) |
		awk -F'\t' '$2 != $3' >"$work/gcov/lines.vary"
	# a mismatch is real when it is there in both pairs of runs and gcov's
	# count of the line does not vary
	sed '$d; s/ .*//' "$work/lines.1" | sort >"$work/lm.1"
	sed '$d; s/ .*//' "$work/lines.2" | sort >"$work/lm.2"
	cut -f1 "$work/gcov/lines.vary" | sort >"$work/lv"
	comm -12 "$work/lm.1" "$work/lm.2" | comm -23 - "$work/lv" >"$work/lines.real"
	echo "lines (run 1): $(tail -n 1 "$work/lines.1"); $(($(wc -l <"$work/lines.1") - 1)) mismatched"
	echo "lines (run 2): $(tail -n 1 "$work/lines.2"); $(($(wc -l <"$work/lines.2") - 1)) mismatched"
	echo "  run to run: gcov $(wc -l <"$work/gcov/lines.vary") lines differ, ipp $(diff "$work/ipp/vertices.1" "$work/ipp/vertices.2" | grep -c '^<') vertices; mismatched in both runs and stable in gcov: $(wc -l <"$work/lines.real")"
	if [ -s "$work/lines.real" ]; then
		grep -F -f <(sed 's/$/ /' "$work/lines.real") "$work/lines.1" | head -n 20 | sed 's/^/    /'
		st=1
	fi
fi
exit $st
