#!/bin/bash
# events.sh -- `ipp counts --events` against the runtime's own counts, end
# to end (docs/PROTOCOL.md, "Events"; the benchmark makes the same checks
# on SQLite and zlib, bench/README).
#
# For every program of testsuite/programs and examples, at -O2, in intra
# and context mode: build it with the build tree's ipp-gcc, linked with the
# runtime's statistics build (runtime/.libs/libipprt-stats.a: the same
# runtime, whose RT_STAT counters count its calls, runtime/rt_stats.h), run
# it once with IPP_RT_STATS, and compare what `ipp counts --events` derives
# from the run's profile with what the runtime counted in that run:
#   counts_calls                    = __ipp_counts calls
#   rec_hash + __ipp_row's forwards = the runtime's records (__ipp_record
#     + __ipp_hmiss calls)            and __ipp_hmiss calls, the misses of
#                                     the inline probes
#   __ipp_hmiss calls               <= rec_probe (the records probed
#                                      inline: a miss of both probes calls
#                                      it)
#   rec_row_return                  = __ipp_row calls with a path from a
#                                     return site (idx >= n)
#   rec_row                         >= __ipp_row calls
#   arcs __ipp_icall counted        <= calls_indirect (context; intra mode
#                                      counts no arcs: 0; the rest
#                                      were counted inline in the site's
#                                      arc cache), and > 0 if calls_indirect
#                                      is; icall_arcs <= calls_indirect (an
#                                      arc to an uninstrumented function is
#                                      not written)
# The derivation never sees the runtime's counts: they are what the
# compiled code called, counted by the runtime.  A program that dies before
# the runtime's destructor (a fatal signal) writes no counts, and one that
# forks writes one process's counts where the profile holds both: SKIP.
#
# Environment: srcdir, builddir (automake sets them), IPP_TEST_MODES.
# Prints "N passed, N failed, N skipped" and exits non-zero if anything failed.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u

srcdir=${srcdir:-.}
builddir=${builddir:-.}
wrap=$builddir/plugin/ipp-gcc-uninstalled
ipp=$builddir/ipp
stats=$builddir/runtime/.libs/libipprt-stats.a
modes=${IPP_TEST_MODES:-intra context}
work=$(mktemp -d "${TMPDIR:-/tmp}/ipp-events.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
skip=0

if [ ! -r "$stats" ]; then
	echo "FAIL: $stats is missing (make check builds runtime/libipprt-stats.la)"
	exit 1
fi

# v FILE NAME: the count NAME of a "NAME COUNT" file (0 if absent)
v() { awk -v n="$2" '$1 == n { x = $2 } END { print x + 0 }' "$1"; }

for src in "$srcdir"/testsuite/programs/*.c "$srcdir"/examples/*.c; do
	name=$(basename "$src" .c)
	cflags=$(sed -n 's/.*ipp-cflags: *//p' "$src")
	for mode in $modes; do
		t="$name -O2 $mode"
		# Each process writes its statistics to the same file, the last
		# one's win, but the profile sums the processes' records.
		if grep -q '\<fork *(' "$src"; then
			skip=$((skip + 1))
			echo "SKIP: $t: the program forks (the statistics file holds one process's counts)"
			continue
		fi
		exe=$work/$name.$mode
		if ! IPP_RUNTIME=$stats "$wrap" -O2 -w $cflags -fplugin-arg-ipp-mode=$mode "$src" \
		     -o "$exe" 2>"$work/err"; then
			fail=$((fail + 1))
			echo "FAIL: $t: does not compile with ipp"
			sed 's/^/    /' "$work/err"
			continue
		fi
		(cd "$work" && IPP_PROFILE=$exe.prof IPP_RT_STATS=$exe.stats timeout 20 "$exe" \
			>/dev/null 2>&1 </dev/null)
		if [ ! -s "$exe.stats" ] || [ ! -r "$exe.prof" ]; then
			skip=$((skip + 1))
			echo "SKIP: $t: no statistics (the program did not reach the runtime's destructor)"
			continue
		fi
		if ! "$ipp" counts --events "$exe" "$exe.prof" >"$exe.ev" 2>"$work/err"; then
			fail=$((fail + 1))
			echo "FAIL: $t: ipp counts --events failed"
			sed 's/^/    /' "$work/err"
			continue
		fi
		e=$exe.ev s=$exe.stats
		called=$(( $(v "$s" record_array) + $(v "$s" record_probe1) + $(v "$s" record_probe2) + $(v "$s" record_slow) ))
		got="counts_calls $(v "$e" counts_calls)
records_in_runtime $(( $(v "$e" rec_hash) + $(v "$s" row_record) + $(v "$s" hmiss) ))
hmiss_at_most_probed $([ "$(v "$s" hmiss)" -le "$(v "$e" rec_probe)" ] && echo yes || echo "no: $(v "$s" hmiss) > $(v "$e" rec_probe)")
rec_row_return $(v "$e" rec_row_return)
icall_counted $(ic=$(( $(v "$s" icall_hit) + $(v "$s" icall_slow) )) ia=$(v "$e" icall_arcs)
	ci=$([ "$mode" = context ] && v "$e" calls_indirect || echo 0)
	[ "$ic" -le "$ci" ] && [ $((ci > 0)) = $((ic > 0)) ] && [ "$ia" -le "$ci" ] && echo ok || echo "no: $ic by __ipp_icall, $ia arcs of $ci calls")
row_calls_le_rec_row $([ "$(v "$s" row)" -le "$(v "$e" rec_row)" ] && echo yes || echo no)"
		want="counts_calls $(v "$s" counts)
records_in_runtime $called
hmiss_at_most_probed yes
rec_row_return $(v "$s" row_number)
icall_counted ok
row_calls_le_rec_row yes"
		if [ "$got" = "$want" ]; then
			pass=$((pass + 1))
			echo "PASS: $t ($(v "$e" records) records: $(v "$e" rec_array) array," \
			     "$(v "$e" rec_row) row, $(v "$e" rec_probe) probed, $(v "$e" rec_hash) hash; $(v "$s" counts)" \
			     "__ipp_counts, $(v "$s" row) __ipp_row, $(v "$e" icall_arcs) arcs)"
		else
			fail=$((fail + 1))
			echo "FAIL: $t: derived events differ from the runtime's counts (< runtime, > derived)"
			diff <(echo "$want") <(echo "$got") | grep '^[<>]' | sed 's/^/    /'
		fi
	done
done
# A unit linked in whose functions never run: its profile module holds no
# record, so the tool does not renumber it, and its events are all 0 (the
# tool once crashed on it, zlib in the benchmark).
t="a unit that never ran"
printf 'int never_called(int x)\n{\n\treturn x ? x * 2 : 1;\n}\n' >"$work/never.c"
tu=$srcdir/testsuite/programs/twounits
if "$wrap" -O2 -w -fplugin-arg-ipp-mode=intra "$tu/main.c" "$tu/lib.c" "$work/never.c" \
	-o "$work/never" 2>"$work/err" &&
   (cd "$work" && IPP_PROFILE=$work/never.prof ./never >/dev/null 2>&1) &&
   "$ipp" counts --events --format=yaml "$work/never" "$work/never.prof" \
	>"$work/never.ev" 2>"$work/err" &&
   awk '/name: .*never\.c/ { n = 1 } n && /activations:/ { print $2; exit }' \
	"$work/never.ev" | grep -qx 0; then
	pass=$((pass + 1))
	echo "PASS: $t (its events are 0)"
else
	fail=$((fail + 1))
	echo "FAIL: $t: ipp counts --events failed or counted events in it"
	sed 's/^/    /' "$work/err"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
