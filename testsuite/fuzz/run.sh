#!/bin/bash
# run.sh -- builds the libFuzzer targets of testsuite/fuzz/ with clang
# (-fsanitize=fuzzer,address,undefined) and runs each for a while on its
# corpus (testsuite/fuzz/corpus/TARGET/, kept in the tree):
#
#   fuzz_profile   the core's profile reader (binary and text); accepted
#                  input must write and read back to a fixed point
#   fuzz_map       the core's map reader
#   fuzz_rtread    the runtime's reading of an existing (binary) profile;
#                  what it accepts the core must accept, and its rewrite
#                  must read the same
#
# A crash, a sanitizer report or a broken property fails the test; the
# input that did it is left in the work directory, named in the output.
# Prints each target's executions.  `make check` runs it with FUZZ_SECONDS
# (default 15) per target; new inputs go to a scratch corpus, and with
# FUZZ_GROW=1 those that add coverage are merged into the tree's corpus
# (libFuzzer -merge=1; run by hand, then commit them).
#
# Without clang or libFuzzer it says SKIP (exit 77).
#
# Environment: srcdir, builddir (automake sets them), CLANG, FUZZ_SECONDS,
# FUZZ_GROW.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u

srcdir=${srcdir:-.}
builddir=${builddir:-.}
clang=${CLANG:-clang}
secs=${FUZZ_SECONDS:-15}
work=$(mktemp -d "${TMPDIR:-/tmp}/ipp-fuzz.XXXXXX")
keep=no
trap '[ $keep = yes ] || rm -rf "$work"' EXIT

san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -g -O1"
if ! command -v "$clang" >/dev/null 2>&1 ||
   ! echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' |
     "$clang" -x c -fsanitize=fuzzer - -o "$work/probe" 2>/dev/null; then
	echo "SKIP: no clang with libFuzzer (Debian: clang, libclang-rt-14-dev)"
	exit 77
fi

# The libraries under test, built with the sanitizers (not the build
# tree's objects, which are gcc's and uninstrumented).
inc="-I$srcdir/ippcore -I$srcdir/runtime -I$builddir $(pkg-config --cflags yaml-0.1 2>/dev/null)"
core=()
rt=()
for f in "$srcdir"/ippcore/*.c "$srcdir"/runtime/ipp_profile.c "$srcdir"/runtime/rt_*.c; do
	o=$work/$(basename "$(dirname "$f")")-$(basename "$f" .c).o
	case $f in
	*/rt_exec.c | */rt_pthread.c) continue ;;	# need ipp-gcc's --wrap
	esac
	if ! "$clang" -std=gnu11 $san -fsanitize=fuzzer-no-link $inc -DHAVE_CONFIG_H \
	     -c "$f" -o "$o" 2>"$work/err"; then
		echo "FAIL: cannot compile $f with clang"
		sed 's/^/    /' "$work/err"
		exit 1
	fi
	case $f in
	*/runtime/rt_*) rt+=("$o") ;;
	*) core+=("$o") ;;	# ipp_profile.c too: both libraries have it
	esac
done
libs="$(pkg-config --libs yaml-0.1 2>/dev/null || echo -lyaml) -lgmp"

fail=0
for t in profile map rtread; do
	exe=$work/fuzz_$t
	objs=("${core[@]}")
	# the runtime's reader comes with the runtime (its files include each
	# other); its constructor installs nothing under IPP_SIGNALS=0 below
	[ $t = rtread ] && objs+=("${rt[@]}")
	if ! "$clang" -std=gnu11 $san -fsanitize=fuzzer -pthread $inc \
	     "$srcdir/testsuite/fuzz/fuzz_$t.c" "${objs[@]}" $libs -o "$exe" 2>"$work/err"; then
		echo "FAIL: fuzz_$t does not build"
		sed 's/^/    /' "$work/err"
		fail=1
		continue
	fi
	seeds=$(cd "$srcdir" && pwd)/testsuite/fuzz/corpus/$t
	corpus=$work/corpus-$t
	mkdir -p "$corpus"
	(cd "$work" && IPP_SIGNALS=0 ASAN_OPTIONS=detect_leaks=1 "$exe" -max_total_time="$secs" \
		-timeout=10 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
		"$corpus" "$seeds" >"$work/log-$t" 2>&1)
	rc=$?
	# keep, in the tree, the new inputs that add coverage (minimized)
	if [ $rc -eq 0 ] && [ "${FUZZ_GROW:-0}" = 1 ]; then
		(cd "$work" && IPP_SIGNALS=0 "$exe" -merge=1 "$seeds" "$corpus" >"$work/merge-$t" 2>&1)
	fi
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log-$t")
	if [ $rc -ne 0 ]; then
		keep=yes
		echo "FAIL: fuzz_$t ($rc) after ${runs:-?} executions; inputs and log in $work:"
		grep -E 'ERROR|SUMMARY|fuzz_|Test unit written' "$work/log-$t" | head -20 |
			sed 's/^/    /'
		fail=1
	else
		echo "PASS: fuzz_$t: ${runs:-?} executions in ${secs} s, corpus of $(ls "$corpus" | wc -l) + $(ls "$seeds" | wc -l) seeds"
	fi
done
[ $fail -eq 0 ]
