#!/bin/bash
# bench/run.sh -- the ipp overhead benchmark (a benchmark, not a test):
# SQLite and zlib, five builds each, and a per-event table that explains
# the instruction ratios of the ipp builds.  bench/README says what every
# number means and where it comes from.
#
# Two real programs nobody here wrote, each with a driver of ours:
#   sqlite   the amalgamation sqlite3.c (npm package better-sqlite3) +
#            bench/sqlite-driver.c (argument: rows)
#   zlib     zlib's sources from Debian's binutils-source + bench/zlib-driver.c
#            (argument: kilobytes of input)
# five ways, with the same flags:
#   plain        gcc
#   gcov         gcc -fprofile-arcs
#   gprof        gcc -pg
#   ipp-intra    ipp (plugin + runtime), -fplugin-arg-ipp-mode=intra
#   ipp-context  ipp, -fplugin-arg-ipp-mode=context (the default mode)
# Per build: compile time; run time (wall and user+system, best of --reps);
# instructions and per-function costs under valgrind --tool=callgrind at a
# smaller size; the instructions of the exit-time profile writer; output
# equality with plain.  The ipp builds are also linked with the runtime's
# statistics build (runtime/libipprt-stats.a) and run once more, for the
# events only the runtime sees and the wall time of the exit-time write;
# every ipp profile passes `ipp check`; `ipp counts --events` derives the
# events of the callgrind run from its profile; the derived events must
# equal the statistics runtime's counts and callgrind's call counts.
#
# Usage: bench/run.sh [options]
#   --builddir DIR   an ipp build tree (has plugin/ipp-gcc-uninstalled, ipp and
#                    runtime/.libs/libipprt-stats.a: make bench builds it);
#                    default: $IPP_BUILDDIR, else the current directory if it is
#                    one, else the source tree
#   --cache DIR      where the sources are fetched to (default $IPP_BENCH_CACHE
#                    or ~/.cache/ipp-bench)
#   --work DIR       where the variants are built and run (default
#                    $TMPDIR/ipp-bench.XXXX, kept)
#   --programs LIST  comma-separated subset of zlib,sqlite (default both, in that order)
#   --variants LIST  comma-separated subset, e.g. plain,ipp-context (plain is
#                    always built: every ratio is against it)
#   --size N         SQLite's size for the timed runs (default 20000)
#   --cg-size N      SQLite's size under callgrind and the stats run (default 1000)
#   --zlib-size KB   zlib's input for the timed runs (default 2000)
#   --zlib-cg-size KB  zlib's input under callgrind and the stats run (default 200)
#   --reps N         timed runs per variant, the best counts (default 3)
#   --quick          for iteration: --size 2000 --cg-size 300 --zlib-size 400
#                    --zlib-cg-size 64 --reps 1
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
programs=zlib,sqlite
variants=plain,gcov,gprof,ipp-intra,ipp-context
size=20000 cgsize=1000 zsize=2000 zcgsize=200 reps=3
opt=-O2

while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$2; shift ;;
	--cache) cache=$2; shift ;;
	--work) work=$2; shift ;;
	--programs) programs=$2; shift ;;
	--variants) variants=$2; shift ;;
	--size) size=$2; shift ;;
	--cg-size) cgsize=$2; shift ;;
	--zlib-size) zsize=$2; shift ;;
	--zlib-cg-size) zcgsize=$2; shift ;;
	--reps) reps=$2; shift ;;
	--quick) size=2000 cgsize=300 zsize=400 zcgsize=64 reps=1 ;;
	--cflags) opt=$2; shift ;;
	-h|--help) sed -n '2,/^# Copyright/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "run.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
	esac
	shift
done

die() { echo "run.sh: $*" >&2; exit 1; }

case ",$variants," in *,plain,*) ;; *) variants=plain,$variants ;; esac
if [ -z "$builddir" ]; then
	if [ -x ./plugin/ipp-gcc-uninstalled ]; then builddir=.
	else builddir=$srcdir; fi
fi
builddir=$(cd "$builddir" && pwd) || die "no build tree $builddir"
ippgcc=$builddir/plugin/ipp-gcc-uninstalled
ipp=$builddir/ipp
statslib=$builddir/runtime/.libs/libipprt-stats.a
case ",$variants," in *,ipp-*)
	for f in "$ippgcc" "$ipp"; do
		[ -x "$f" ] || die "$f is missing: build ipp first (make), or pass --builddir"
	done
	[ -r "$statslib" ] || die "$statslib is missing: make runtime/libipprt-stats.la (make bench does)"
	# The statistics build must be of the runtime's code as it is:
	# `make' alone rebuilds libipprt.a, not it.
	for f in "$srcdir"/runtime/*.[ch]; do
		[ "$f" -nt "$statslib" ] &&
			die "$statslib is older than $f: make runtime/libipprt-stats.la (make bench does)"
	done ;;
esac
command -v valgrind >/dev/null || die "valgrind is needed (apt-get install valgrind)"

. "$here/fetch.sh"

if [ -z "$work" ]; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/ipp-bench.XXXX") || die "mktemp"
fi
mkdir -p "$work" && work=$(cd "$work" && pwd) || die "cannot create $work"

# --- the programs --------------------------------------------------------
# prog_setup NAME: sets title, srcs (array), cflags, tsize, csize
prog_setup() {
	case $1 in
	sqlite)
		fetch_sqlite || die "cannot fetch sqlite3.c"
		title="SQLite $sqver + bench/sqlite-driver.c (rows: timed $size, callgrind $cgsize)"
		srcs=("$here/sqlite-driver.c" "$sqdir/sqlite3.c")
		cflags="$opt -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -I$sqdir"
		tsize=$size csize=$cgsize ;;
	zlib)
		fetch_zlib || die "cannot fetch zlib"
		title="zlib $zver (binutils-source $zsrcver) + bench/zlib-driver.c (kB: timed $zsize, callgrind $zcgsize)"
		srcs=("$here/zlib-driver.c")
		for f in adler32 compress crc32 deflate infback inffast inflate inftrees trees uncompr zutil; do
			srcs+=("$zdir/$f.c")
		done
		cflags="$opt -I$zdir"
		tsize=$zsize csize=$zcgsize ;;
	*) die "unknown program $1 (sqlite, zlib)" ;;
	esac
}

now() { date +%s.%N; }
fmt() { awk -v x="$1" 'BEGIN { printf "%.3f", x }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0 && a != "") printf "%.2fx", a / b; else printf "-" }'; }

# clean DIR PROFILE: what a previous run left that the next one would add
# to (gcov's counters, gmon.out, the ipp profile it names)
clean() { rm -f "$1"/*.gcda "$1"/gmon.out "$1/$2" "$1/$2.lock"; }

# cg FILE NAME COLUMN: column 3 self, 4 inclusive, 5 calls received of a
# function in the parsed callgrind output (0 if absent)
cg() { awk -v n="$2" -v c="$3" '$1 == "F" && $2 == n { v = $c } END { print v + 0 }' "$1"; }
# ev FILE NAME: an event count of `ipp counts --events` or the stats file
ev() { awk -v n="$2" '$1 == n { v = $2 } END { print v + 0 }' "$1"; }

fail=0
problem() { echo "  PROBLEM: $*"; fail=1; }

# run_variant PROG VARIANT: build, run, measure; results in $work/PROG/VARIANT
run_variant() {
	local p=$1 v=$2 d=$work/$1/$2 rc t0 t1 best= bestc= n
	local cc
	mkdir -p "$d"
	case $v in
	plain)       cc=(gcc) ;;
	gcov)        cc=(gcc -fprofile-arcs) ;;
	gprof)       cc=(gcc -pg) ;;
	ipp-intra)   cc=("$ippgcc" -fplugin-arg-ipp-mode=intra) ;;
	ipp-context) cc=("$ippgcc" -fplugin-arg-ipp-mode=context) ;;
	*) die "unknown variant $v" ;;
	esac
	status[$p:$v]=ok

	# Compile every source in one command, link in a second (the objects
	# are linked once more with the statistics runtime); timed together.
	echo "[$p $v] compiling: ${cc[*]} $cflags -c ..."
	rm -f "$d"/*.o
	t0=$(now)
	(cd "$d" && "${cc[@]}" $cflags -c "${srcs[@]}" && "${cc[@]}" $opt ./*.o -o prog -lm) \
		>"$d/compile.log" 2>&1
	rc=$?
	t1=$(now)
	ctime[$p:$v]=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
	if [ $rc -ne 0 ]; then
		echo "[$p $v] COMPILE FAILED (exit $rc), see $d/compile.log:"
		tail -n 20 "$d/compile.log" | sed 's/^/    /'
		status[$p:$v]=compile-failed; fail=1
		return
	fi

	# Timed runs: best of $reps; every output must be plain's.
	for r in $(seq 1 "$reps"); do
		clean "$d" ipp.prof
		{ time { (cd "$d" && IPP_PROFILE=$d/ipp.prof exec ./prog "$tsize") \
			>"$d/out.$r" 2>"$d/err.$r"; }; } 2>"$d/time.$r"
		rc=$?
		if [ $rc -ne 0 ]; then
			echo "[$p $v] RUN FAILED (exit $rc):"; tail -n 20 "$d/err.$r" | sed 's/^/    /'
			status[$p:$v]=run-failed; fail=1; return
		fi
		read -r t tu ts <"$d/time.$r"
		best=$(awk -v a="${best:-$t}" -v b="$t" 'BEGIN { print (b < a) ? b : a }')
		bestc=$(awk -v a="${bestc:-9e9}" -v u="$tu" -v s="$ts" 'BEGIN { c = u + s; print (c < a) ? c : a }')
		cmp -s "$d/out.$r" "$d/out.1" || { status[$p:$v]=output-unstable; fail=1; }
	done
	rtime[$p:$v]=$best ctimecpu[$p:$v]=$bestc
	[ -r "$d/ipp.prof" ] && mv "$d/ipp.prof" "$d/prof.timed"
	if [ "$v" != plain ] && ! cmp -s "$d/out.1" "$work/$p/plain/out.1"; then
		echo "[$p $v] OUTPUT DIFFERS from the plain build:"
		diff "$work/$p/plain/out.1" "$d/out.1" | head -n 20 | sed 's/^/    /'
		status[$p:$v]=OUTPUT-DIFFERS; fail=1
	fi

	# Instructions under callgrind.  Under valgrind a -pg program is
	# sometimes killed by SIGPROF in its exit handlers (exit 155) after
	# main has flushed its output; try again, then count anyway and say so.
	for attempt in 1 2 3; do
		clean "$d" cg.prof
		(cd "$d" && IPP_PROFILE=$d/cg.prof exec valgrind --tool=callgrind \
			--callgrind-out-file="$d/callgrind.out" ./prog "$csize") \
			>"$d/cg.stdout" 2>"$d/cg.log"
		rc=$?
		[ "$v" = gprof ] && [ $rc -eq 155 ] || break
	done
	if [ "$v" = gprof ] && [ $rc -eq 155 ]; then
		cgnote[$p:$v]=" (SIGPROF at exit)"; rc=0
	fi
	awk -f "$here/cgparse.awk" "$d/callgrind.out" >"$d/cg.txt" 2>/dev/null
	n=$(awk '$1 == "T" { print $2 }' "$d/cg.txt")
	if [ $rc -ne 0 ] || [ -z "$n" ] || [ "$n" = 0 ]; then
		echo "[$p $v] callgrind failed (exit $rc), see $d/cg.log"; fail=1
	else
		insns[$p:$v]=$n
	fi
	if [ "$v" != plain ] && ! cmp -s "$d/cg.stdout" "$work/$p/plain/cg.stdout"; then
		echo "[$p $v] OUTPUT UNDER CALLGRIND DIFFERS from the plain build"
		status[$p:$v]=OUTPUT-DIFFERS; fail=1
	fi
	# The exit-time profile writer's instructions (inclusive).
	case $v in
	ipp-*) wins[$p:$v]=$(( $(cg "$d/cg.txt" rt_write_profile 4) + $(cg "$d/cg.txt" rt_record_exit_frames 4) )) ;;
	gcov)  wins[$p:$v]=$(cg "$d/cg.txt" __gcov_exit 4) ;;
	gprof) wins[$p:$v]=$(cg "$d/cg.txt" _mcleanup 4) ;;
	esac
	echo "[$p $v] compile $(fmt "${ctime[$p:$v]}") s, run $(fmt "$best") s wall $(fmt "$bestc") s cpu, ${insns[$p:$v]:-?} instructions, output ${status[$p:$v]}"

	# The same under callgrind in a process that has started a thread
	# first (bench-thread.h): ipp's functions then take their counters
	# from the runtime, not from the unit's own arrays.  gprof is left
	# out (its SIGPROF under valgrind, above).
	if [ "$v" != gprof ]; then
		clean "$d" mt.prof
		(cd "$d" && IPP_PROFILE=$d/mt.prof IPP_BENCH_THREAD=1 exec valgrind --tool=callgrind \
			--callgrind-out-file="$d/callgrind-mt.out" ./prog "$csize") \
			>"$d/mt.stdout" 2>"$d/mt.log"
		rc=$?
		n=$(awk -f "$here/cgparse.awk" "$d/callgrind-mt.out" 2>/dev/null | awk '$1 == "T" { print $2 }')
		if [ $rc -ne 0 ] || [ -z "$n" ] || [ "$n" = 0 ]; then
			echo "[$p $v] callgrind with a thread failed (exit $rc), see $d/mt.log"; fail=1
		else
			insns_mt[$p:$v]=$n
		fi
		if ! cmp -s "$d/mt.stdout" "$work/$p/plain/cg.stdout"; then
			echo "[$p $v] OUTPUT WITH A THREAD DIFFERS from the plain build"
			status[$p:$v]=OUTPUT-DIFFERS; fail=1
		fi
		if [ -r "$d/mt.prof" ] && ! "$ipp" check "$d/prog" "$d/mt.prof" >"$d/check.mt.prof.txt" 2>&1; then
			problem "[$p $v] ipp check mt.prof failed: $d/check.mt.prof.txt"
		fi
	fi

	case $v in ipp-*) ;; *) return ;; esac

	# The statistics runtime: the same objects, linked with libipprt-stats.a,
	# run at the callgrind size.
	(cd "$d" && IPP_RUNTIME=$statslib "${cc[@]}" $opt ./*.o -o prog-stats -lm) >"$d/stats-link.log" 2>&1 ||
		{ problem "[$p $v] linking with the statistics runtime failed: $d/stats-link.log"; return; }
	clean "$d" stats.prof
	rm -f "$d/stats.txt"
	(cd "$d" && IPP_PROFILE=$d/stats.prof IPP_RT_STATS=$d/stats.txt exec ./prog-stats "$csize") \
		>"$d/stats.stdout" 2>"$d/stats.err" || problem "[$p $v] the statistics build failed: $d/stats.err"
	cmp -s "$d/stats.stdout" "$work/$p/plain/cg.stdout" ||
		problem "[$p $v] the statistics build's output differs from plain's"

	# Every profile passes ipp check; the events of the callgrind run and
	# of the stats run; the functions' activations of the callgrind run.
	for f in prof.timed cg.prof stats.prof; do
		"$ipp" check "$d/prog" "$d/$f" >"$d/check.$f.txt" 2>&1 ||
			problem "[$p $v] ipp check $f failed: $d/check.$f.txt"
	done
	"$ipp" counts --events "$d/prog" "$d/cg.prof" >"$d/events.cg" 2>&1 ||
		problem "[$p $v] ipp counts --events failed: $d/events.cg"
	"$ipp" counts --events "$d/prog" "$d/stats.prof" >"$d/events.stats" 2>&1 ||
		problem "[$p $v] ipp counts --events (stats run) failed: $d/events.stats"
	"$ipp" counts --functions --format=yaml "$d/prog" "$d/cg.prof" 2>/dev/null |
		sed -n 's/.* asm_name: \([^,]*\),.* entries: \([0-9]*\),.*/\1 \2/p' |
		sed 's/^"\(.*\)" /\1 /' >"$d/entries.cg"
}

# activations_vs_calls PROG VARIANT: "ACTIVATIONS PLAIN-CALLS IPP-CALLS" --
# the source activations of the callgrind run (ipp's derived entry
# counts) and the calls callgrind saw into those functions (clones such as
# foo.isra.0 and foo.constprop.0 count as foo; a call from foo into its own
# split part foo.part.N does not count: it is the same activation), in the
# plain build and in this one.  Also writes the top functions by inlining
# lost to DIR/lost-inlining.txt.
activations_vs_calls() {
	local d=$work/$1/$2
	awk -v lost="$d/lost-inlining.txt" '
		function base(s) { sub(/\..*/, "", s); sub(/'"'"'.*/, "", s); return s }
		FILENAME == ARGV[1] { act[$1] = $2; next }
		$1 != "C" { next }
		{
			callee = $3; b = base(callee)
			if (!(b in act) || callee ~ /\.cold/) next
			if (callee ~ /\.part\./ && base($2) == b) next
			if (FILENAME == ARGV[2]) plain[b] += $4; else mine[b] += $4
		}
		END {
			for (f in act) { A += act[f]; P += plain[f]; M += mine[f]
				if (mine[f] > plain[f]) printf "%s %d %d %d\n", f, act[f], plain[f], mine[f] >lost }
			printf "%d %d %d\n", A, P, M
		}' "$d/entries.cg" "$work/$1/plain/cg.txt" "$d/cg.txt"
	sort -k4,4nr -k1,1 "$d/lost-inlining.txt" -o "$d/lost-inlining.txt" 2>/dev/null
}

# Nominal instructions of the inserted code per event, in user code (x86-64,
# -O2; bench/README "Nominal costs" says how they were counted).
declare -A nominal=(
	[frame_push]=6 [frame_pop]=2 [slot_entry]=1 [counts_select]=3 [counts_call]=5 [path_save]=5
	[cont_return]=2 [lazy_return]=4 [rec_array]=1 [rec_row]=3 [row_call]=8
	[record_call]=3 [hmiss_call]=4 [rec_probe]=10 [restart]=1 [increment]=1 [local_increment]=1 [multiply]=1
	[stand]=2 [stand_bare]=1 [interproc]=5 [interproc_return]=1 [arc_check]=3 [dead_mark]=1
	[dead_mark_top]=2 [lost_inline]=5 [arc_hit]=1
)

# events_table PROG: the per-event table of the ipp variants of PROG, the
# cross-checks, and the "explained" line.
events_table() {
	local p=$1 v d e s cgt extra
	echo
	echo "== $p: per-event table (callgrind run; counts derived by ipp counts --events"
	echo "   unless marked; instr/event measured by callgrind for the runtime, nominal"
	echo "   for user code; bench/README explains every row) =="
	for v in ipp-intra ipp-context; do
		d=$work/$p/$v
		case ",$variants," in *,$v,*) ;; *) continue ;; esac
		[ -r "$d/events.cg" ] && [ -r "$d/cg.txt" ] || continue
		e=$d/events.cg s=$d/stats.txt cgt=$d/cg.txt
		local mode=${v#ipp-}
		x() { ev "$e" "$1"; }
		# callgrind: calls made and inclusive cost of calls made from CALLER
		# (a regex) to CALLEE
		cgc() { awk -v a="$1" -v b="$2" -v c="$3" '$1 == "C" && $2 ~ a && $3 == b { s += $c } END { printf "%.0f", s }' "$cgt"; }
		# runtime, measured (inclusive instructions and calls)
		local rcI rcN slI slN rwI rwN rwrec coI coN hmI hmN icI icN wrI rtI other rcUser rwrecN
		rcI=$(cg "$cgt" __ipp_record 4) rcN=$(cg "$cgt" __ipp_record 5)
		slI=$(cgc '^__ipp_record$' rt_record_slow 5) slN=$(cgc '^__ipp_record$' rt_record_slow 4)
		# __ipp_row's forwards: from its out-of-line parts (rt_rows.c)
		rwrec=$(cgc '^(__ipp_row|rt_row_slow|rt_row_forward)$' __ipp_record 5)
		rwrecN=$(cgc '^(__ipp_row|rt_row_slow|rt_row_forward)$' __ipp_record 4)
		rwI=$(( $(cg "$cgt" __ipp_row 4) - rwrec )) rwN=$(cg "$cgt" __ipp_row 5)
		# __ipp_counts, or on x86-64 its entry for inline asm
		coI=$(( $(cg "$cgt" __ipp_counts 4) + $(cg "$cgt" __ipp_counts_keep 4) ))
		coN=$(( $(cg "$cgt" __ipp_counts 5) + $(cg "$cgt" __ipp_counts_keep 5) ))
		hmI=$(cg "$cgt" __ipp_hmiss 4) hmN=$(cg "$cgt" __ipp_hmiss 5)
		icI=$(cg "$cgt" __ipp_icall 4) icN=$(cg "$cgt" __ipp_icall 5)
		rcUser=$(awk '$1 == "C" && $3 == "__ipp_record" && $2 !~ /^(__ipp_|rt_)/ { s += $4 } END { printf "%.0f", s }' "$cgt")
		wrI=${wins[$p:$v]:-0}
		# everything the runtime executed: its entry points called from
		# outside it, and the exit hooks libc calls
		rtI=$(awk '$1 == "C" && $3 ~ /^__ipp_/ && $2 !~ /^(__ipp_|rt_)/ { s += $5 }
			   $1 == "F" && ($2 == "rt_atexit" || $2 == "rt_fini") { s += $4 }
			   END { printf "%.0f", s }' "$cgt")
		other=$(( rtI - rcI - rwI - coI - hmI - icI - wrI ))
		extra=$(( ${insns[$p:$v]:-0} - ${insns[$p:plain]:-0} ))
		read -r A PC MC < <(activations_vs_calls "$p" "$v")
		local lost=$(( MC - PC ))
		[ $lost -lt 0 ] && lost=0

		echo
		echo "-- $p $v: $(ratio "${insns[$p:$v]}" "${insns[$p:plain]}") instructions of plain, $extra extra --"
		printf '%-50s %16s %9s %14s  %s\n' event count instr/ev instructions source
		row() {	# label count cost source [instructions]  (cost "-": not counted)
			local ins=${5:--}
			[ "$3" != - ] && [ "$ins" = - ] && ins=$(awk -v c="$2" -v k="$3" 'BEGIN { printf "%.0f", c * k }')
			printf '%-50s %16s %9s %14s  %s\n' "$1" "$2" "$3" "$ins" "$4"
			[ "$ins" != - ] && explained=$(awk -v a="$explained" -v b="$ins" 'BEGIN { printf "%.0f", a + b }')
		}
		per() { awk -v i="$1" -v n="$2" 'BEGIN { if (n > 0) printf "%.1f", i / n; else print "-" }'; }
		explained=0
		echo "runtime (measured: callgrind's inclusive instructions / calls)"
		row "  __ipp_record calls (with rt_record_slow)" "$rcN" "$(per "$rcI" "$rcN")" "callgrind" "$rcI"
		printf '%-50s %16s %9s %14s  %s\n' "    of which rt_record_slow" "$slN" "$(per "$slI" "$slN")" "$slI" "callgrind (in the line above)"
		printf '%-50s %16s %9s %14s  %s\n' "    of which from __ipp_row" "$rwrecN" "$(per "$rwrec" "$rwrecN")" "$rwrec" "callgrind (in the line above)"
		[ "$mode" = context ] && row "  __ipp_row calls (without their __ipp_record)" "$rwN" "$(per "$rwI" "$rwN")" "callgrind" "$rwI"
		row "  __ipp_counts calls" "$coN" "$(per "$coI" "$coN")" "callgrind" "$coI"
		row "  __ipp_hmiss calls (inline probes that missed)" "$hmN" "$(per "$hmI" "$hmN")" "callgrind" "$hmI"
		[ "$mode" = context ] && row "  __ipp_icall calls" "$icN" "$(per "$icI" "$icN")" "callgrind" "$icI"
		row "  exit-time writer (rt_write_profile + frames)" 1 "$wrI" "callgrind"
		row "  other runtime (registration, ...)" 1 "$other" "callgrind"
		echo "user code (counts x nominal instructions of the inserted code)"
		row "  frame pushes" "$(x frames)" "${nominal[frame_push]}" "derived"
		row "  frame pops" "$(x frame_pops)" "${nominal[frame_pop]}" "derived"
		row "  inlined copies' slots: the entry checkpoint" "$(x slots)" "${nominal[slot_entry]}" "derived"
		row "  array activations: select the counts (inline)" "$(x counts_calls)" "${nominal[counts_select]}" "derived"
		row "  __ipp_counts call sequence (multi-threaded)" "$coN" "${nominal[counts_call]}" "callgrind"
		[ "$mode" = context ] && row "  __ipp_path saved and restored (fresh)" "$(x path_saves)" "${nominal[path_save]}" "derived"
		[ "$mode" = context ] && row "  continuing returns: __ipp_path = r" "$(x returns_continuing)" "${nominal[cont_return]}" "derived"
		[ "$mode" = context ] && row "  lazy-r returns: r from the row tables" "$(x returns_lazy)" "${nominal[lazy_return]}" "derived"
		row "  records counted in arrays: counts[n] += 1" "$(x rec_array)" "${nominal[rec_array]}" "derived"
		row "  records probed inline in hash tables" "$(x rec_probe)" "${nominal[rec_probe]}" "derived ($hmN missed into __ipp_hmiss)"
		row "  __ipp_hmiss call sequence" "$hmN" "${nominal[hmiss_call]}" "callgrind"
		if [ "$mode" = context ]; then
			row "  records counted in rows inline: row[l] += 1" "$(( $(x rec_row) - rwN ))" "${nominal[rec_row]}" "derived $(x rec_row) - callgrind __ipp_row calls"
			row "  __ipp_row call sequence" "$rwN" "${nominal[row_call]}" "callgrind"
		fi
		row "  __ipp_record call sequence" "$rcUser" "${nominal[record_call]}" "callgrind (= rec_hash, derived)"
		row "  restarts after splits" "$(x restarts)" "${nominal[restart]}" "derived"
		row "  increments of r" "$(x increments)" "${nominal[increment]}" "derived"
		[ "$mode" = context ] && row "  increments of l" "$(x local_increments)" "${nominal[local_increment]}" "derived"
		row "  multiplies by nvc" "$(x multiplies)" "${nominal[multiply]}" "derived"
		row "  checkpoints at summarized calls and inlined copies: stores" "$(( $(x calls_framed) - $(x calls_bare) ))" "${nominal[stand]}" "derived"
		row "  ... bare (the number a constant): the vertex alone" "$(x calls_bare)" "${nominal[stand_bare]}" "derived"
		if [ "$mode" = context ]; then
			row "  continuing calls: stores and 3 arguments" "$(x calls_interproc)" "${nominal[interproc]}" "derived"
			row "  continuing calls returned: r = __ipp_path" "$(x interproc_returns)" "${nominal[interproc_return]}" "derived"
			row "  indirect calls: the site's arc cache checked" "$(x calls_indirect)" "${nominal[arc_check]}" "derived"
			row "  ... hits: count += 1" "$(( $(x calls_indirect) - icN ))" "${nominal[arc_hit]}" "derived $(x calls_indirect) - callgrind __ipp_icall calls"
		fi
		row "  dead ends: frame marked recorded" "$(x dead_marks)" "${nominal[dead_mark]}" "derived"
		row "  ... through __ipp_top (frameless clones)" "$(x dead_marks_top)" "${nominal[dead_mark_top]}" "derived"
		row "  calls not inlined that plain inlined" "$lost" "${nominal[lost_inline]}" "callgrind calls vs derived activations"
		echo "counts (no cost of their own: included above)"
		row "  activations: fresh / continuing" "$(x fresh)/$(x continuing)" - "derived (of $(x activations))"
		row "  records at returns / splits / dead ends" "$(x rec_return)/$(x rec_split)/$(x rec_dead)" - "derived (sum $(x records))"
		row "  records: array / row / probed / hash" "$(x rec_array)/$(x rec_row)/$(x rec_probe)/$(x rec_hash)" - "derived ($(x rec_row_return) in rows from a return site)"
		row "  records by region size: <=4096/<=2^32/<=2^48/more" "$(x rec_region_small)/$(x rec_region_32)/$(x rec_region_48)/$(x rec_region_big)" - "derived (profile records by region)"
		row "  __ipp_record: array / probe 1 / probe 2 / slow" "$(ev "$s" record_array)/$(ev "$s" record_probe1)/$(ev "$s" record_probe2)/$(ev "$s" record_slow)" - "stats runtime (slow: $(ev "$s" slow_probe) further probes)"
		[ "$mode" = context ] && row "  __ipp_row: found / inserted / no row" "$(ev "$s" row_found)/$(ev "$s" row_inserted)/$(ev "$s" row_none)" - "stats runtime ($(ev "$s" row_number) by number)"
		row "  __ipp_counts: slow path" "$(ev "$s" counts_slow)" - "stats runtime (of $(ev "$s" counts))"
		[ "$mode" = context ] && row "  indirect-call arcs" "$(x icall_arcs)" - "profile (stats: $(ev "$s" icall_hit) hit, $(ev "$s" icall_slow) slow)"
		row "  call sites executed (continuing/summarized/dead)" "$(x calls_interproc)/$(x calls_summarized)/$(x calls_dead)" - "derived (sum $(x calls))"
		row "  source activations: inlined by plain / by ipp" "$((A - PC))/$((A - MC))" - "derived $A - callgrind calls $PC / $MC"
		echo "explained: $explained of $extra extra instructions ($(awk -v a="$explained" -v b="$extra" 'BEGIN { if (b > 0) printf "%.1f%%", 100 * a / b; else print "-" }')); remainder $(( extra - explained )) (register pressure, spills, lost optimisations)"
		echo "exit-time write: $wrI instructions; wall $(awk -v n="$(ev "$s" write_ns)" 'BEGIN { printf "%.2f ms", n / 1e6 }') in $(ev "$s" writes) writes (stats build, size $csize)"
		if [ -s "$d/lost-inlining.txt" ]; then
			echo "most calls not inlined against plain (function activations plain-calls ipp-calls):"
			head -n 5 "$d/lost-inlining.txt" | sed 's/^/    /'
		fi

		# Cross-checks: derived events against the runtime's own counts (the
		# stats build's run: its profile, its counters) and against
		# callgrind's call counts (the callgrind run: its profile, its calls).
		local es=$d/events.stats chk=ok
		xc() {	# label derived measured
			if [ "$2" != "$3" ]; then
				problem "[$p $v] cross-check $1: derived $2, measured $3"; chk=MISMATCH
			fi
		}
		y() { ev "$es" "$1"; }
		xc "records (stats run): by site = the profile's sum" "$(y records)" "$(y path_counts)"
		xc "records (stats run): by route = by site" "$(( $(y rec_array) + $(y rec_row) + $(y rec_probe) + $(y rec_hash) ))" "$(y records)"
		xc "__ipp_counts calls (stats run)" "$(y counts_calls)" "$(ev "$s" counts)"
		# the runtime's records: every __ipp_record call the derivation
		# sees, __ipp_row's, and the misses of the inline probes (which
		# only the run knows, at most the probed records)
		xc "records in the runtime (stats run): rec_hash + __ipp_row's + __ipp_hmiss" \
			"$(( $(y rec_hash) + $(ev "$s" row_record) + $(ev "$s" hmiss) ))" \
			"$(( $(ev "$s" record_array) + $(ev "$s" record_probe1) + $(ev "$s" record_probe2) + $(ev "$s" record_slow) ))"
		[ "$(ev "$s" hmiss)" -le "$(y rec_probe)" ] ||
			xc "__ipp_hmiss calls (stats run) at most the probed records" "$(y rec_probe)" "$(ev "$s" hmiss)"
		xc "row records from a return site (stats run)" "$(y rec_row_return)" "$(ev "$s" row_number)"
		xc "__ipp_row: found + inserted + none = calls (stats run)" \
			"$(ev "$s" row)" "$(( $(ev "$s" row_found) + $(ev "$s" row_inserted) + $(ev "$s" row_none) ))"
		[ "$(ev "$s" row)" -le "$(y rec_row)" ] ||
			xc "__ipp_row calls (stats run) at most the row records" "$(y rec_row)" "$(ev "$s" row)"
		# The workloads are single-threaded, so the normal runtime's run
		# takes every array body's counts inline (the statistics run makes
		# them all calls, rt_stats.c).
		xc "__ipp_counts calls (callgrind run, single-threaded: none)" "0" "$coN"
		xc "__ipp_record calls from user code (callgrind run)" "$(x rec_hash)" "$rcUser"
		[ "$hmN" -le "$(x rec_probe)" ] ||
			xc "__ipp_hmiss calls (callgrind run) at most the probed records" "$(x rec_probe)" "$hmN"
		xc "__ipp_row's __ipp_record calls (callgrind run): from a return site + no row (stats)" \
			"$(( $(x rec_row_return) + $(ev "$s" row_record) - $(ev "$s" row_number) ))" "$rwrecN"
		[ "$rwN" -le "$(x rec_row)" ] ||
			xc "__ipp_row calls (callgrind run) at most the row records" "$(x rec_row)" "$rwN"
		if [ "$mode" = context ]; then
			# every indirect call is counted at its site: in place
			# when the site's cache holds the target (ipp_abi.h, struct
			# ipp_rt_arc), else by __ipp_icall; the profile's arcs are
			# those whose target an instrumented unit lists
			local icc=$(( $(ev "$s" icall_hit) + $(ev "$s" icall_slow) ))
			[ "$icc" -le "$(y calls_indirect)" ] && [ $(( $(y calls_indirect) > 0 )) = $(( icc > 0 )) ] ||
				xc "__ipp_icall calls (stats run): 1.. the indirect calls derived" "1..$(y calls_indirect)" "$icc"
			[ "$icN" -le "$(x calls_indirect)" ] && [ $(( $(x calls_indirect) > 0 )) = $(( icN > 0 )) ] ||
				xc "__ipp_icall calls (callgrind run): 1.. the indirect calls derived" "1..$(x calls_indirect)" "$icN"
			[ "$(x icall_arcs)" -le "$(x calls_indirect)" ] ||
				xc "indirect arcs in the profile: at most the indirect calls derived" "..$(x calls_indirect)" "$(x icall_arcs)"
		fi
		echo "cross-checks (derived = stats runtime = callgrind): $chk"
	done
}

declare -A ctime rtime ctimecpu insns insns_mt status cgnote wins
TIMEFORMAT="%R %U %S"	# bash's time: wall, user and system seconds

for p in ${programs//,/ }; do
	prog_setup "$p"
	echo "== $p: $title"
	echo "   flags: $cflags   gcc: $(gcc -dumpfullversion 2>/dev/null || gcc -dumpversion)"
	echo "   work: $work/$p"
	for v in ${variants//,/ }; do
		run_variant "$p" "$v"
	done

	echo
	echo "== $p: overhead vs plain ($title) =="
	printf '%-12s %8s %6s %7s %6s %7s %6s %13s %6s %6s %11s %8s  %s\n' variant compile-s ratio run-s ratio cpu-s ratio instructions ratio /gcov write-insns write-ms output
	for v in ${variants//,/ }; do
		k=$p:$v
		wms=-
		[ -r "$work/$p/$v/stats.txt" ] && wms=$(awk -v n="$(ev "$work/$p/$v/stats.txt" write_ns)" 'BEGIN { printf "%.2f", n / 1e6 }')
		printf '%-12s %8s %6s %7s %6s %7s %6s %13s %6s %6s %11s %8s  %s\n' "$v" \
			"$( [ -n "${ctime[$k]:-}" ] && fmt "${ctime[$k]}" || echo -)" "$(ratio "${ctime[$k]:-}" "${ctime[$p:plain]:-}")" \
			"$( [ -n "${rtime[$k]:-}" ] && fmt "${rtime[$k]}" || echo -)" "$(ratio "${rtime[$k]:-}" "${rtime[$p:plain]:-}")" \
			"$( [ -n "${ctimecpu[$k]:-}" ] && fmt "${ctimecpu[$k]}" || echo -)" "$(ratio "${ctimecpu[$k]:-}" "${ctimecpu[$p:plain]:-}")" \
			"${insns[$k]:--}" "$(ratio "${insns[$k]:-}" "${insns[$p:plain]:-}")" "$(ratio "${insns[$k]:-}" "${insns[$p:gcov]:-}")" \
			"${wins[$k]:--}" "$wms" "${status[$k]:-not-run}${cgnote[$k]:-}"
	done
	echo "(compile: wall seconds of compiling every source in one command and linking;"
	echo " run-s / cpu-s: wall / user+system seconds, best of $reps, at size $tsize; instructions:"
	echo " callgrind's total at size $csize; write-insns: the exit-time profile writer's"
	echo " inclusive instructions in that run; write-ms: its wall time in the statistics"
	echo " build's run; load: $(cut -d' ' -f1-3 /proc/loadavg))"
	echo
	echo "== $p: instructions with a thread started first (IPP_BENCH_THREAD=1) =="
	printf '%-12s %13s %6s %14s\n' variant instructions ratio single-thread
	for v in ${variants//,/ }; do
		k=$p:$v
		[ -n "${insns_mt[$k]:-}" ] || continue
		printf '%-12s %13s %6s %14s\n' "$v" "${insns_mt[$k]}" \
			"$(ratio "${insns_mt[$k]}" "${insns_mt[$p:plain]:-}")" "$(ratio "${insns_mt[$k]}" "${insns[$k]:-}")"
	done
	echo "(callgrind at size $csize, in a process that started and joined a thread before"
	echo " the workload; ratio: against plain's run with the thread; single-thread: against"
	echo " the same build's run without it)"
	events_table "$p"
	echo
done

if [ $fail -ne 0 ]; then
	echo "run.sh: PROBLEMS (see above); results in $work"
	exit 1
fi
echo "run.sh: every variant built and ran, printed plain's output, every profile passed"
echo "ipp check, and the derived events agreed with the runtime's and callgrind's counts;"
echo "results in $work"
