#!/bin/bash
# bench/run.sh -- the ipp overhead benchmark on SQLite (a benchmark, not a test).
#
# Builds SQLite (the amalgamation shipped in the npm package better-sqlite3)
# together with bench/sqlite-driver.c five ways, with the same flags:
#   plain        gcc
#   gcov         gcc -fprofile-arcs
#   gprof        gcc -pg
#   ipp-intra    ipp (plugin + runtime), -fplugin-arg-ipp-mode=intra
#   ipp-context  ipp, -fplugin-arg-ipp-mode=context (the default mode)
# records each compile time, runs each one (time: best of --reps runs;
# instructions: valgrind --tool=callgrind with a smaller size), checks that
# every variant prints exactly what the plain build prints, and prints the
# ratios against plain.  For ipp it also prints the regions and cuts, the
# profile's size, the number of distinct paths recorded, `ipp report --top 5`
# and `ipp counts --check`.
#
# Usage: bench/run.sh [options]
#   --builddir DIR   an ipp build tree (has plugin/ipp-gcc-uninstalled and ipp);
#                    default: $IPP_BUILDDIR, else the current directory if it is
#                    one, else the source tree
#   --cache DIR      where sqlite3.c is fetched to (default $IPP_BENCH_CACHE or
#                    ~/.cache/ipp-bench)
#   --work DIR       where the variants are built and run (default
#                    $TMPDIR/ipp-bench.XXXX, kept)
#   --size N         the driver's size for the timed runs (default 20000)
#   --cg-size N      the driver's size under callgrind (default 3000)
#   --reps N         timed runs per variant, the best counts (default 3)
#   --variants LIST  comma-separated subset, e.g. plain,ipp-context
#   --no-callgrind   skip the instruction counts
#   --cflags FLAGS   replaces -O2
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.

set -u
LC_ALL=C
export LC_ALL

here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/.." && pwd)

builddir=${IPP_BUILDDIR:-}
cache=${IPP_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ipp-bench}
work=
size=20000
cgsize=3000
reps=3
variants=plain,gcov,gprof,ipp-intra,ipp-context
callgrind=yes
opt=-O2

while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$2; shift ;;
	--cache) cache=$2; shift ;;
	--work) work=$2; shift ;;
	--size) size=$2; shift ;;
	--cg-size) cgsize=$2; shift ;;
	--reps) reps=$2; shift ;;
	--variants) variants=$2; shift ;;
	--no-callgrind) callgrind=no ;;
	--cflags) opt=$2; shift ;;
	-h|--help) sed -n '2,/^# Copyright/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "run.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
	esac
	shift
done

die() { echo "run.sh: $*" >&2; exit 1; }

if [ -z "$builddir" ]; then
	if [ -x ./plugin/ipp-gcc-uninstalled ]; then builddir=.
	else builddir=$srcdir; fi
fi
builddir=$(cd "$builddir" && pwd) || die "no build tree $builddir"
ippgcc=$builddir/plugin/ipp-gcc-uninstalled
ipp=$builddir/ipp
case ",$variants," in *,ipp-*)
	[ -x "$ippgcc" ] || die "$ippgcc is missing: build ipp first (make), or pass --builddir"
	[ -x "$ipp" ] || die "$ipp is missing: build ipp first (make), or pass --builddir" ;;
esac

# --- sqlite3.c: from the npm package better-sqlite3, cached ---------------
sqdir=$cache/package/deps/sqlite3
if [ ! -r "$sqdir/sqlite3.c" ] || [ ! -r "$sqdir/sqlite3.h" ]; then
	command -v npm >/dev/null || die "npm is needed to fetch sqlite3.c (npm pack better-sqlite3)"
	mkdir -p "$cache" || die "cannot create $cache"
	echo "fetching sqlite3.c: npm pack better-sqlite3 (into $cache)"
	tgz=$(cd "$cache" && npm pack better-sqlite3 2>/dev/null | tail -n 1)
	[ -n "$tgz" ] && [ -r "$cache/$tgz" ] || die "npm pack better-sqlite3 failed"
	(cd "$cache" && tar xzf "$tgz" package/deps/sqlite3/sqlite3.c \
		package/deps/sqlite3/sqlite3.h) || die "cannot unpack $cache/$tgz"
fi
sqver=$(sed -n 's/^#define SQLITE_VERSION  *"\(.*\)"/\1/p' "$sqdir/sqlite3.h")

if [ -z "$work" ]; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/ipp-bench.XXXX") || die "mktemp"
fi
mkdir -p "$work" && work=$(cd "$work" && pwd) || die "cannot create $work"

cflags="$opt -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION"
srcs="$here/sqlite-driver.c $sqdir/sqlite3.c"

echo "ipp overhead benchmark: SQLite $sqver + bench/sqlite-driver.c"
echo "  flags: $cflags   size: $size (timed, best of $reps), $cgsize (callgrind)"
echo "  gcc: $(gcc -dumpfullversion 2>/dev/null || gcc -dumpversion)   build tree: $builddir"
echo "  work: $work"
echo

now() { date +%s.%N; }
# fmt NUMBER -> 3 decimals; ratio A B -> A/B with 2 decimals
fmt() { awk -v x="$1" 'BEGIN { printf "%.3f", x }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0 && a != "") printf "%.2fx", a / b; else printf "-" }'; }

# clean VARIANT: remove what a previous run of the variant left (profiles
# merge and gcov's counters accumulate, so every run starts from none).
clean() {
	local d=$work/$1
	rm -f "$d"/*.gcda "$d"/gmon.out "$d"/ipp.prof
}

declare -A ctime rtime ctimecpu insns status cgnote
TIMEFORMAT="%R %U %S"
fail=0

for v in ${variants//,/ }; do
	d=$work/$v
	mkdir -p "$d"
	case $v in
	plain)       cc=(gcc) ;;
	gcov)        cc=(gcc -fprofile-arcs) ;;
	gprof)       cc=(gcc -pg) ;;
	ipp-intra)   cc=("$ippgcc" -fplugin-arg-ipp-mode=intra) ;;
	ipp-context) cc=("$ippgcc" -fplugin-arg-ipp-mode=context) ;;
	*) die "unknown variant $v" ;;
	esac
	case $v in
	ipp-*) verbose=(-fplugin-arg-ipp-verbose) ;;
	*) verbose=() ;;
	esac

	# Compile and link in one command, as a user would; timed.
	echo "[$v] compiling: ${cc[*]} $cflags ${verbose[*]}"
	t0=$(now)
	(cd "$d" && "${cc[@]}" $cflags "${verbose[@]}" -I"$sqdir" $srcs -o prog -lm) \
		>"$d/compile.log" 2>&1
	rc=$?
	t1=$(now)
	ctime[$v]=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
	if [ $rc -ne 0 ]; then
		echo "[$v] COMPILE FAILED (exit $rc), see $d/compile.log:"
		tail -n 20 "$d/compile.log" | sed 's/^/    /'
		status[$v]="compile-failed"; fail=1
		continue
	fi
	echo "[$v] compiled in $(fmt "${ctime[$v]}") s"

	# Timed runs: best of $reps; the output of every run must match plain.
	best= bestc=
	for r in $(seq 1 "$reps"); do
		clean "$v"
		# bash's time: wall, user and system seconds of the subshell.
		{ time { (cd "$d" && IPP_PROFILE=$d/ipp.prof exec ./prog "$size") \
			>"$d/out.$r" 2>"$d/err.$r"; }; } 2>"$d/time.$r"
		rc=$?
		read -r t tu ts <"$d/time.$r"
		tc=$(awk -v a="$tu" -v b="$ts" 'BEGIN { print a + b }')
		if [ $rc -ne 0 ]; then
			echo "[$v] RUN FAILED (exit $rc), stderr:"
			tail -n 20 "$d/err.$r" | sed 's/^/    /'
			status[$v]="run-failed"; fail=1
			break
		fi
		best=$(awk -v a="${best:-$t}" -v b="$t" 'BEGIN { print (b < a) ? b : a }')
		bestc=$(awk -v a="${bestc:-$tc}" -v b="$tc" 'BEGIN { print (b < a) ? b : a }')
	done
	[ "${status[$v]:-}" = run-failed ] && continue
	rtime[$v]=$best
	ctimecpu[$v]=$bestc
	cp "$d/out.1" "$d/out"
	status[$v]=ok
	for r in $(seq 1 "$reps"); do
		if ! cmp -s "$d/out.$r" "$d/out"; then
			status[$v]="output-unstable"; fail=1
		fi
	done
	if [ "$v" != plain ] && [ -r "$work/plain/out" ] && ! cmp -s "$d/out" "$work/plain/out"; then
		echo "[$v] OUTPUT DIFFERS from the plain build:"
		diff "$work/plain/out" "$d/out" | head -n 20 | sed 's/^/    /'
		status[$v]="OUTPUT-DIFFERS"; fail=1
	fi
	echo "[$v] ran in $(fmt "$best") s wall, $(fmt "$bestc") s user+sys (best of $reps), output ${status[$v]}"

	# The ipp profile of the last timed run (size N).
	if [ -r "$d/ipp.prof" ]; then cp "$d/ipp.prof" "$d/prof.timed"; fi

	# Instructions under callgrind, at the smaller size.
	if [ $callgrind = yes ]; then
		# Under valgrind, a -pg program is sometimes killed by SIGPROF
		# ("Profiling timer expired", exit 155) in its exit handlers, after
		# main has returned and flushed its output: gprof's timer signal
		# arrives once _mcleanup has restored SIGPROF's default action.
		# Try again (up to 3 times); if it still happens, keep the count
		# (it misses only the writing of gmon.out) and say so.
		for attempt in 1 2 3; do
			clean "$v"
			(cd "$d" && IPP_PROFILE=$d/cg.prof exec valgrind --tool=callgrind \
				--callgrind-out-file="$d/callgrind.out" ./prog "$cgsize") \
				>"$d/cg.stdout" 2>"$d/cg.log"
			rc=$?
			[ "$v" = gprof ] && [ $rc -eq 155 ] || break
		done
		if [ "$v" = gprof ] && [ $rc -eq 155 ]; then
			echo "[$v] killed by SIGPROF at exit under valgrind 3 times; counted anyway"
			cgnote[$v]=" (SIGPROF at exit)"
			rc=0
		fi
		rm -f "$d/cg.prof"
		n=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$d/callgrind.out" 2>/dev/null | head -n 1)
		if [ $rc -ne 0 ] || [ -z "$n" ]; then
			echo "[$v] callgrind failed (exit $rc), see $d/cg.log"
			fail=1
		else
			insns[$v]=$n
			echo "[$v] $n instructions at size $cgsize"
		fi
		if [ -r "$work/plain/cg.stdout" ] && ! cmp -s "$d/cg.stdout" "$work/plain/cg.stdout"; then
			echo "[$v] OUTPUT UNDER CALLGRIND DIFFERS from the plain build"
			status[$v]="OUTPUT-DIFFERS"; fail=1
		fi
	fi
	echo
done

# --- the table --------------------------------------------------------------
echo "== Overhead vs plain (SQLite $sqver, $cflags) =="
printf '%-12s %9s %6s %8s %6s %8s %6s %14s %6s  %s\n' variant compile-s ratio run-s ratio cpu-s ratio instructions ratio output
for v in ${variants//,/ }; do
	printf '%-12s %9s %6s %8s %6s %8s %6s %14s %6s  %s\n' "$v" \
		"$( [ -n "${ctime[$v]:-}" ] && fmt "${ctime[$v]}" || echo -)" \
		"$(ratio "${ctime[$v]:-}" "${ctime[plain]:-}")" \
		"$( [ -n "${rtime[$v]:-}" ] && fmt "${rtime[$v]}" || echo -)" \
		"$(ratio "${rtime[$v]:-}" "${rtime[plain]:-}")" \
		"$( [ -n "${ctimecpu[$v]:-}" ] && fmt "${ctimecpu[$v]}" || echo -)" \
		"$(ratio "${ctimecpu[$v]:-}" "${ctimecpu[plain]:-}")" \
		"${insns[$v]:--}" \
		"$(ratio "${insns[$v]:-}" "${insns[plain]:-}")" \
		"${status[$v]:-not-run}${cgnote[$v]:-}"
done
echo "(compile: wall time of one gcc command compiling and linking sqlite3.c and the"
echo " driver; run-s: wall time, cpu-s: user+system time, each the best of $reps runs"
echo " at size $size; instructions: callgrind's total at size $cgsize; load: $(cut -d' ' -f1-3 /proc/loadavg))"

# --- ipp details -------------------------------------------------------------
for v in ipp-intra ipp-context; do
	case ",$variants," in *,$v,*) ;; *) continue ;; esac
	d=$work/$v
	[ -x "$d/prog" ] || continue
	echo
	echo "== $v =="
	# The plugin's -fplugin-arg-ipp-verbose notes (full text in compile.log).
	echo "verbose notes: $(grep -c 'note: ipp: region ' "$d/compile.log") regions," \
		"$(grep -c 'note: ipp: cut in ' "$d/compile.log") cut vertices," \
		"$(grep -c 'note: ipp: call site cut (summarized to fit)' "$d/compile.log") call sites cut (summarized to fit)," \
		"$(grep -c 'not instrumented' "$d/compile.log") functions not instrumented"
	# ipp report --cuts: every module's totals (full list in cuts.txt).
	"$ipp" report --cuts "$d/prog" >"$d/cuts.txt" 2>&1
	rc=$?
	echo "ipp report --cuts (exit $rc; the full list in $d/cuts.txt):"
	grep -v '^    \|^ipp report\|^$' "$d/cuts.txt" | sed 's/^/    /'
	[ $rc -eq 0 ] || fail=1
	if [ -r "$d/prof.timed" ]; then
		echo "profile (size $size): $(stat -c %s "$d/prof.timed") bytes"
		"$ipp" report --all --format=json "$d/prog" "$d/prof.timed" >"$d/report.json" 2>"$d/report.err"
		rc=$?
		npaths=$(sed -n 's/^  "paths_recorded": *\([0-9]*\).*/\1/p' "$d/report.json" | head -n 1)
		echo "distinct paths recorded: ${npaths:-?} (ipp report --all --format=json, exit $rc)"
		[ $rc -eq 0 ] || fail=1
		echo "ipp report --top 5:"
		"$ipp" report --top 5 "$d/prog" "$d/prof.timed" 2>&1 | sed 's/^/    /'
		echo "ipp counts --check:"
		"$ipp" counts --check "$d/prog" "$d/prof.timed" >"$d/check.txt" 2>&1
		rc=$?
		tail -n 5 "$d/check.txt" | sed 's/^/    /'
		echo "    (exit $rc)"
		[ $rc -eq 0 ] || fail=1
	fi
done

echo
if [ $fail -ne 0 ]; then
	echo "run.sh: PROBLEMS (see above); results in $work"
	exit 1
fi
echo "run.sh: all variants built, ran and printed the same output; results in $work"
