#!/bin/bash
# einline.sh -- the pass after early inlining (-fplugin-arg-ipp-einline,
# context mode's default, docs/NUMBERING.md "Inlined copies"), end to end.
#
#  1. Every program here, at -O0 and -O2, in both modes: the build with
#     -fplugin-arg-ipp-einline behaves as the plain build (output, exit
#     status) and `ipp check` finds its profile valid.
#  2. Inlined copies read and count as source paths: the programs whose
#     call structure GCC's early passes keep (all but six, listed below)
#     give exactly their context-mode annotations (run.sh) with
#     -fplugin-arg-ipp-einline, Figure 9 among them at -O2, where GCC
#     inlines power into main.
#  3. That inlining is not vacuous: at -O2 the map of fig4whole lists two
#     virtual procedures main/power:1 and main/power:2, and `ipp report`
#     names their steps "power:N (inlined into main:M)" with M the lines of
#     the two calls (32 and 36 of fig4pub.c).
#
#  4. A copy that makes calls (in context mode it keeps its checkpoints
#     in the frame around it, in intra mode in a frame of its own), in
#     both modes: its paths' counts, and after a crash in the function it
#     calls, partial paths whose stop stacks name the copy's call site;
#     the same crash below a copy inside a copy (4b).
#  3b. In intra mode each copy of power counts its paths in a region of
#     its own, and `ipp report` counts those paths as power's: at -O2 the
#     three paths of power that ran have the numbers and counts of the -O0
#     build's out-of-line power (15 each), each "counted as" the two copies
#     (6 and 9), in `ipp report` and in `ipp decode --rank`.
#  3c. In intra mode a function of a hash region (more than 4096 paths)
#     with two copies of array regions takes the unit's counters once, at
#     its entry, for both (one __ipp_counts_tls_keep or __ipp_counts_keep
#     in its code, not one per
#     copy; ABI 11), and the copies count exactly in four threads, where
#     each thread's counters of the unit are one array.
#  5. The defaults: on in both modes; =yes and =no choose; another value
#     is refused.
#
# Environment: srcdir, builddir (automake sets them).
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u

. "$(dirname "$0")/prog-lib.sh"
prog_begin einline
here=$srcdir/testsuite/programs
flag=-fplugin-arg-ipp-einline

# 1. semantics and valid profiles
for src in "$here"/*.c; do
	name=$(basename "$src" .c)
	cflags=$(sed -n 's/.*ipp-cflags: *//p' "$src")
	for O in -O0 -O2; do
		plain=$work/$name$O.plain
		if ! gcc $O -w $cflags "$src" -o "$plain" 2>/dev/null; then
			bad "$name $O: does not compile plain"
			continue
		fi
		(cd "$work" && timeout 20 "$plain" >"$plain.out" 2>/dev/null </dev/null)
		echo $? >"$plain.rc"
		for mode in intra context; do
			exe=$work/$name$O.$mode
			t="$name $O $mode $flag"
			if ! "$wrap" $O -w $cflags -fplugin-arg-ipp-mode=$mode $flag "$src" \
			     -o "$exe" 2>"$work/err"; then
				bad "$t: does not compile"
				sed 's/^/    /' "$work/err" | head -20
				continue
			fi
			(cd "$work" && IPP_PROFILE=$exe.prof timeout 20 "$exe" >"$exe.out" \
				2>/dev/null </dev/null)
			echo $? >"$exe.rc"
			if ! cmp -s "$plain.out" "$exe.out" || ! cmp -s "$plain.rc" "$exe.rc"; then
				bad "$t: output or exit status differs from the plain build"
			elif ! "$ipp" -q check "$exe" "$exe.prof" >"$work/err" 2>&1; then
				bad "$t: ipp check"
				sed 's/^/    /' "$work/err" | head -20
			else
				ok "$t (output, ipp check)"
			fi
		done
	done
done

# 2. the annotations, in context mode (its default: $flag), of every
# program but those whose call structure GCC's early passes change at -O2
# (the annotations are the source's; run.sh):
#   costsplit  light's copy of work(1) folds to a constant: no code left
#   deeprec, recurse  the self-recursion (depth, sum) becomes a loop
#              (tail recursion with an accumulator), then inlined into main
#   exitdeep   level1..3 end in exit(): their copies are flattened into main
#   knr_args   g's summarized calls are inlined: g has no paths of its own
#   nonlocal   down's tail call to itself becomes a loop
progs=
for src in "$here"/*.c; do
	name=$(basename "$src" .c)
	case " costsplit deeprec recurse exitdeep knr_args nonlocal " in
	*" $name "*) ;;
	*) progs="$progs $name" ;;
	esac
done
nprogs=$(echo $progs | wc -w)
out=$(IPP_TEST_MODES=context IPP_TEST_IPPFLAGS=$flag IPP_TEST_PROGRAMS="$progs" \
      bash "$here/run.sh")
printf '%s\n' "$out" | grep -v '^[0-9]* passed'
if printf '%s\n' "$out" | grep -qx "$((2 * nprogs)) passed, 0 failed"; then
	ok "context-mode annotations with $flag ($((2 * nprogs)) builds)"
else
	bad "context-mode annotations with $flag: $(printf '%s\n' "$out" | tail -n 1)"
fi

# 3. the copies of power in Figure 4, and their names
exe=$work/fig4whole
if "$wrap" -O2 -fwhole-program $flag "$here/fig4whole.c" -o "$exe" 2>"$work/err" &&
   (cd "$work" && IPP_PROFILE=$exe.prof "$exe" >/dev/null) &&
   "$ipp" map "$exe" >"$exe.map" && "$ipp" report --all "$exe" "$exe.prof" >"$exe.rep"; then
	procs=$(grep -c '^- \[[0-9]*, power, "main/power:[12]", \[inlined\]' "$exe.map")
	named=$(grep -o 'power:[0-9]* (inlined into main:[0-9]*)' "$exe.rep" |
		sed 's/.*main:/main:/; s/)//' | sort -u | tr '\n' ' ')
	if [ "$procs" = 2 ] && [ "$named" = "main:32 main:36 " ]; then
		ok "fig4whole -O2: power inlined twice, virtual procedures, named at main:32 and main:36"
	else
		bad "fig4whole -O2: $procs virtual procedures of power (want 2), named at '$named' (want 'main:32 main:36 ')"
	fi
	# the copies count as their function: power entered 15 times (6
	# through the first call's copy, 9 through the second's), as out of
	# line at -O0; main calls it 15 times (the paper's Figure 4 sums 9
	# squares and 6 squares, one call of power each)
	fns=$("$ipp" counts "$exe" "$exe.prof" | tr '\n' ' ')
	arcs=$("$ipp" counts --calls "$exe" "$exe.prof" | sed -n '/^# arcs/,$p' | grep power | tr '\n' ' ')
	if [ "$fns" = "main 1 power 15 " ] && [ "$arcs" = "main -> power 15 " ]; then
		ok "fig4whole -O2: ipp counts lists power once, 15 entries, 15 calls from main"
	else
		bad "fig4whole -O2: ipp counts says '$fns' and '$arcs' (want 'main 1 power 15 ' and 'main -> power 15 ')"
	fi
else
	bad "fig4whole -O2 $flag: build, run or report failed"
	sed 's/^/    /' "$work/err"
fi

# 3b. intra mode: the copies' paths counted as power's.  The oracle is
# the -O0 build, where power is out of line: its region's numbers and
# counts (report lines "rank count % module region number").
exe=$work/fig4intra
if "$wrap" -O2 -fwhole-program -fplugin-arg-ipp-mode=intra "$here/fig4whole.c" -o "$exe" \
	2>"$work/err" &&
   "$wrap" -O0 -fwhole-program -fplugin-arg-ipp-mode=intra "$here/fig4whole.c" -o "$exe.O0" \
	2>>"$work/err" &&
   (cd "$work" && IPP_PROFILE=$exe.prof "$exe" >/dev/null &&
	IPP_PROFILE=$exe.O0.prof "$exe.O0" >/dev/null) &&
   "$ipp" report --all --width=0 "$exe" "$exe.prof" >"$exe.rep" &&
   "$ipp" report --all --width=0 "$exe.O0" "$exe.O0.prof" >"$exe.O0.rep"; then
	want=$(awk '$5 == "power" { print $6, $2 }' "$exe.O0.rep" | sort | tr '\n' ' ')
	got=$(awk '$5 ~ /^main\/power:[12]$/ { print $6, $2 }' "$exe.rep" | sort | tr '\n' ' ')
	as=$(grep -c '^ *counted as main/power:1 (inlined into main:36) 6, main/power:2 (inlined into main:32) 9$' "$exe.rep")
	if [ "$want" = "0 15 2 15 3 15 " ] && [ "$got" = "$want" ] && [ "$as" = 3 ]; then
		ok "fig4whole -O2 intra: power's copies count as power's paths ($got), as at -O0"
	else
		bad "fig4whole -O2 intra: copies' paths '$got', -O0 power's '$want' (want '0 15 2 15 3 15 '), $as of 3 'counted as' lines"
		sed 's/^/    /' "$exe.rep" | head -20
	fi
	# ipp decode --rank of such a path says so too, in text and YAML
	"$ipp" decode --rank 1 --width=0 "$exe" "$exe.prof" >"$exe.dec" 2>&1
	"$ipp" decode --rank 1 --format yaml "$exe" "$exe.prof" >"$exe.dec.yaml" 2>&1
	if grep -q '^  counted as main/power:1 (inlined into main:36) 6, main/power:2 (inlined into main:32) 9$' "$exe.dec" &&
	   grep -q '{region: "main/power:2", count: 9}' "$exe.dec.yaml"; then
		ok "fig4whole -O2 intra: ipp decode --rank 1 names the copies it counts"
	else
		bad "fig4whole -O2 intra: ipp decode --rank 1 does not say what it counts as"
		sed 's/^/    /' "$exe.dec" | head -5
	fi
else
	bad "fig4whole intra: build, run or report failed"
	sed 's/^/    /' "$work/err" | head -5
fi

# complete paths per region, "REGION: counts" sorted (ipp report's table)
region_counts() {
	awk '$1 ~ /^[0-9]+$/ && $NF != "partial" { print $5, $2 }' "$1" | sort -k1,1 -k2,2n |
		awk '$1 != r { if (r != "") print r ":" l; r = $1; l = "" } { l = l " " $2 }
		     END { if (r != "") print r ":" l }' | tr '\n' '|'
}

# 3c. the anchor: host has 2^13 paths (a hash region), its copies of odd
# and big 2 paths each.  Each of 4 threads calls host(i) for i = 0 .. 99:
# odd's odd path 50 times and its even path 50 times per thread, big's
# x > 2 path 97 times and its other 3 times.
cat >"$work/anchor.c" <<'EOF'
#include <pthread.h>
#include <stdio.h>
static inline __attribute__((always_inline)) int odd(int x)
{
	if (x & 1)
		return 3 * x;
	return x;
}
static inline __attribute__((always_inline)) int big(int x)
{
	if (x > 2)
		return x - 2;
	return 0;
}
#define B(k) if (x & (1 << k)) s += k; else s -= 1;
__attribute__((noinline)) int host(int x)
{
	int s = odd(x);
	if (x != 1000)
		s += big(x);
	B(0) B(1) B(2) B(3) B(4) B(5) B(6) B(7) B(8) B(9) B(10) B(11) B(12)
	return s;
}
static long sums[4];
static void *run(void *arg)
{
	long k = (long)arg, t = 0;
	for (int i = 0; i < 100; i++)
		t += host(i);
	sums[k] = t;
	return NULL;
}
int main(void)
{
	pthread_t th[3];
	for (long k = 0; k < 3; k++)
		pthread_create(&th[k], NULL, run, (void *)(k + 1));
	run(0);
	for (int k = 0; k < 3; k++)
		pthread_join(th[k], NULL);
	printf("%ld %ld\n", sums[0], sums[3]);
	return 0;
}
EOF
exe=$work/anchor
t="a hash-region function's copies, -O2 intra, 4 threads"
if "$wrap" -O2 -pthread -fplugin-arg-ipp-mode=intra "$work/anchor.c" -o "$exe" 2>"$work/err" &&
   "$wrap" -O2 -pthread -fplugin-arg-ipp-mode=intra -S "$work/anchor.c" -o "$exe.s" 2>>"$work/err" &&
   (cd "$work" && IPP_PROFILE=$exe.prof "$exe" >"$exe.out" 2>&1) &&
   "$ipp" report --all "$exe" "$exe.prof" >"$exe.rep" 2>&1; then
	selects=$(awk '/^host:/ { h = 1 } h && /__ipp_counts(_tls)?_keep/ { n++ } h && /\.size[ \t]+host,/ { h = 0 }
		       END { print n + 0 }' "$exe.s")
	got=$(region_counts "$exe.rep" | tr '|' '\n' | grep '^host/' | tr '\n' '|')
	want="host/big:1: 12 388|host/odd:1: 200 200|"
	if [ "$selects" = 1 ] && [ "$got" = "$want" ] &&
	   "$ipp" -q check "$exe" "$exe.prof" >/dev/null 2>&1; then
		ok "$t: one select for both copies, their counts, ipp check"
	else
		bad "$t: $selects selects in host (want 1), copies' counts '$got' (want '$want'), or ipp check failed"
	fi
else
	bad "$t: build, run or report failed"
	sed 's/^/    /' "$work/err" | head -5
fi

# 4. a copy that makes calls (always_inline: inlined at every level): its
# counts, and a crash in the function it calls, whose partial paths' stop
# stacks name the copy's call site
# the callee that crashes at i = crash_at (any argument crashes the run),
# and main, which sums TOP(i) for i = 0 .. 4: shared by this part's two
# programs (4 and 4b), each of which defines TOP's copies between them
cat >"$work/crashee.inc" <<'EOF'
#include <stdio.h>
int crash_at = -1;
__attribute__((noinline)) int callee(int x)
{
	if (x == crash_at)
		*(volatile int *)0 = 1;
	return x + 1;
}
EOF
cat >"$work/crashmain.inc" <<'EOF'
int main(int argc, char **argv)
{
	int t = 0;
	(void)argv;
	crash_at = argc > 1 ? 3 : -1;
	for (int i = 0; i < 5; i++)
		t += TOP(i);
	printf("%d\n", t);
	return 0;
}
EOF
cat >"$work/copycall.c" <<'EOF'
#include "crashee.inc"
static inline __attribute__((always_inline)) int copy(int x)
{
	int s = 0;
	if (x & 1)
		s += callee(x);
	return s;
}
#define TOP copy
#include "crashmain.inc"
EOF
for mode in intra context; do
	exe=$work/copycall.$mode
	t="a copy that makes calls, -O2 $mode"
	if ! "$wrap" -O2 -fplugin-arg-ipp-mode=$mode $flag "$work/copycall.c" -o "$exe" \
	     2>"$work/err"; then
		bad "$t: does not compile"
		continue
	fi
	if ! "$ipp" map "$exe" | grep -q '^- \[[0-9]*, copy, "main/copy:1", \[inlined\]'; then
		bad "$t: copy is not kept as a virtual procedure"
		continue
	fi
	# i = 0 .. 4: copy calls callee for i = 1, 3.  intra: main's entry,
	# loop and exit paths; the copy's even path 3 times, odd 2; callee 2.
	# context: main's first iteration from the entry, the odd ones 2,
	# the even ones restarted 2, the exit 1.
	(cd "$work" && IPP_PROFILE=$exe.prof "$exe" >/dev/null 2>&1)
	"$ipp" report --all "$exe" "$exe.prof" >"$exe.rep" 2>&1
	got=$(region_counts "$exe.rep")
	if [ "$mode" = context ]; then
		want="main: 1 1 2 2|"
	else
		want="callee: 2|main: 1 1 4|main/copy:1: 2 3|"
	fi
	if [ "$got" = "$want" ] && "$ipp" -q check "$exe" "$exe.prof" >/dev/null 2>&1; then
		ok "$t: its paths' counts, ipp check"
	else
		bad "$t: counts '$got', want '$want' (or ipp check failed)"
	fi
	# now crash in callee at i = 3
	rm -f "$exe.prof"
	(cd "$work" && IPP_PROFILE=$exe.prof "$exe" crash >/dev/null 2>&1) 2>/dev/null
	"$ipp" -q check "$exe" "$exe.prof" >"$work/err" 2>&1 || { bad "$t, crashing: ipp check"; continue; }
	"$ipp" report --all "$exe" "$exe.prof" >"$exe.rep" 2>&1
	# the stopped paths, each on the line after its "partial" header,
	# line numbers left out; each reduced to where it starts and how it
	# stops (the steps between depend on GCC's blocks)
	got=$(grep -A1 ' partial$' "$exe.rep" | grep 'stopped' |
	      sed 's/^ *//; s/:[0-9][0-9]*/:L/g' |
	      sed 's/^\([a-z]*:L\( (inlined into main:L)\)\{0,1\}\).* \([^ ]* ([^)]*stopped)\)$/\1 ... \3/' |
	      sort | tr '\n' '|')
	if [ "$mode" = context ]; then
		# one path, main's, through the copy's call into callee
		want="main:L ... callee:L (stopped)|"
		grep -A1 ' partial$' "$exe.rep" | grep -q '(inlined into main:[0-9]*) (call) -> callee:[0-9]* (stopped)' ||
			want="$want (and the copy's call just before callee)"
	else
		# three: callee's, the copy's (its own region) and main's
		want="callee:L (stopped)|copy:L (inlined into main:L) ... main:L) (summary: callee, stopped)|main:L ... main:L (summary: copy, stopped)|"
	fi
	if [ "$got" = "$want" ]; then
		ok "$t, crashing in its callee: the stop stacks name the copy's call site"
	else
		bad "$t, crashing in its callee: stopped paths '$got', want '$want'"
	fi
done

# 4b. copies inside copies, the inner one making the call (context mode:
# neither pushes a frame, ABI 9; the module lists their vertices, and the
# walk names both call sites; intra mode: each copy starts a path of its
# own in a frame of its own).  outer(i) calls inner for i & 2, inner
# calls callee for i & 1; the crash is in callee at i = 3.
cat >"$work/nest.c" <<'EOF'
#include "crashee.inc"
static inline __attribute__((always_inline)) int inner(int x)
{
	int s = 0;
	if (x & 1)
		s += callee(x);
	return s;
}
static inline __attribute__((always_inline)) int outer(int x)
{
	int s = 1;
	if (x & 2)
		s += inner(x);
	return s;
}
#define TOP outer
#include "crashmain.inc"
EOF
for mode in context intra; do
	exe=$work/nest.$mode
	t="copies inside copies, -O2 $mode, crashing below the inner one"
	if ! "$wrap" -O2 -fplugin-arg-ipp-mode=$mode $flag "$work/nest.c" -o "$exe" 2>"$work/err"; then
		bad "$t: does not compile"
		continue
	fi
	if ! "$ipp" map "$exe" | grep -q '^- \[[0-9]*, inner, "main/outer:1/inner:1", \[inlined\]'; then
		bad "$t: inner is not kept as a virtual procedure inside outer's copy"
		continue
	fi
	rm -f "$exe.prof"
	(cd "$work" && IPP_PROFILE=$exe.prof "$exe" crash >/dev/null 2>&1) 2>/dev/null
	"$ipp" -q check "$exe" "$exe.prof" >"$work/err" 2>&1 || { bad "$t: ipp check"; continue; }
	"$ipp" report --all "$exe" "$exe.prof" >"$exe.rep" 2>&1
	# the stopped steps, line numbers left out
	got=$(grep -A1 ' partial$' "$exe.rep" | grep 'stopped' | sed 's/:[0-9][0-9]*/:L/g' |
	      grep -o '[a-z]*:L[^>]*(\(call\|summary[^)]*\)) -> [a-z]*:L (stopped)$\|[a-z]*:L[^>]*(summary[^)]*stopped)$\|^ *[a-z]*:L (stopped)$' |
	      sed 's/^ *//' | sort | tr '\n' '|')
	if [ "$mode" = context ]; then
		# one path, main's, through both copies' calls into callee
		want="inner:L (inlined into outer:L, main:L) (call) -> callee:L (stopped)|"
	else
		# four: callee's, inner's copy, outer's copy, main's
		want="callee:L (stopped)|inner:L (inlined into outer:L, main:L) (summary: callee, stopped)|main:L (summary: outer, stopped)|outer:L (inlined into main:L) (summary: inner, stopped)|"
	fi
	if [ "$got" = "$want" ]; then
		ok "$t: the stop stacks name both copies' call sites"
	else
		bad "$t: stopped steps '$got', want '$want'"
	fi
done

# 5. the defaults: both modes instrument after the early inliner; =yes
# and =no choose either way; another value is refused
for spec in context: context:=no intra: intra:=no intra:=yes; do
	mode=${spec%%:*} v=${spec#*:}
	case $v in =no) want=0 ;; *) want=2 ;; esac
	exe=$work/fig4def.$mode$v
	t="fig4whole -O2 -fplugin-arg-ipp-mode=$mode${v:+ -fplugin-arg-ipp-einline$v}"
	if "$wrap" -O2 -fwhole-program -fplugin-arg-ipp-mode=$mode ${v:+-fplugin-arg-ipp-einline$v} \
	     "$here/fig4whole.c" -o "$exe" 2>"$work/err" && "$ipp" map "$exe" >"$exe.map"; then
		got=$(grep -c '^- \[[0-9]*, power, "main/power:[12]", \[inlined\]' "$exe.map")
		if [ "$got" = "$want" ]; then
			ok "$t: $want virtual procedures of power"
		else
			bad "$t: $got virtual procedures of power, want $want"
		fi
	else
		bad "$t: build or ipp map failed"
		sed 's/^/    /' "$work/err" | head -5
	fi
done
if "$wrap" -O2 -fplugin-arg-ipp-einline=maybe "$here/fig4whole.c" -o "$work/x" 2>"$work/err"; then
	bad "-fplugin-arg-ipp-einline=maybe: accepted"
elif grep -q "takes .yes. or .no., not .maybe." "$work/err"; then
	ok "-fplugin-arg-ipp-einline=maybe: refused, naming the value"
else
	bad "-fplugin-arg-ipp-einline=maybe: refused without saying why"
	sed 's/^/    /' "$work/err" | head -5
fi

prog_end
