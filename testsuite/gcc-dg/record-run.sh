#!/bin/bash
# record-run.sh PROGRAM [ARG...] -- how the gcc.dg harness runs a test
# program: DejaGnu's board (boards/ipp-native.exp) names this script as its
# exec_shell, so DejaGnu runs "record-run.sh ./test.exe" wherever it would
# run "./test.exe".
#
# Its job is to record what the program does, for run.sh to compare the
# plain and the instrumented builds byte for byte, without changing what
# DejaGnu sees.  So it runs the program more than once:
#   1. a recorded run: stdin from /dev/null, stdout, stderr and the exit
#      status to files, under a time limit, the ipp profile (if the build
#      is instrumented) to a file of its own (IPP_PROFILE);
#   2. for a plain build, a second recorded run, to tell a program whose
#      output changes from run to run (it prints addresses or times);
#      for an instrumented build, `ipp check PROGRAM PROFILE' on the
#      profile of run 1;
#   3. the run DejaGnu judges: the program with DejaGnu's own stdin, stdout
#      and stderr (exec), so that its verdict is the one GCC's testsuite
#      would give; its profile goes to another file.
# The records go to $GCC_DG_RECORD/NAME/ (NAME: the program's file name,
# e.g. pr12345.exe; a second program of the same name gets NAME.2/, ...):
#   out err status         run 1 (status 124/137: timed out)
#   again/out err status   run 2 (plain builds)
#   ipp.prof               run 1's profile (instrumented builds)
#   check.log check        `ipp check''s output and exit status
# Without GCC_DG_RECORD it only runs the program (step 3).
#
# Environment (set by run.sh): GCC_DG_RECORD (the record directory),
# GCC_DG_KIND (plain or ipp), GCC_DG_IPP (the ipp tool), GCC_DG_TIMEOUT
# (seconds per recorded run).
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).

set -uo pipefail
[ $# -ge 1 ] || { echo "usage: record-run.sh PROGRAM [ARG...]" >&2; exit 2; }
if [ -z "${GCC_DG_RECORD:-}" ]; then
	exec "$@"
fi

# The record directory: the first free one of NAME, NAME.2, NAME.3, ...
# (mkdir is atomic: two runtest processes never share one).
name=$(basename "$1")
rec=$GCC_DG_RECORD/$name
n=1
until mkdir -p "$GCC_DG_RECORD" && mkdir "$rec" 2>/dev/null; do
	n=$((n + 1))
	rec=$GCC_DG_RECORD/$name.$n
done
printf '%s\n' "$PWD" "$*" >"$rec/command"

# recorded_run DIR PROGRAM [ARG...]: one run with its output in DIR.
recorded_run() {
	local dir=$1 st=0
	shift
	mkdir -p "$dir"
	IPP_PROFILE=$rec/ipp.prof timeout -k 5 "${GCC_DG_TIMEOUT:-20}" "$@" \
		</dev/null >"$dir/out" 2>"$dir/err" || st=$?
	echo "$st" >"$dir/status"
}

prog=$1
shift
recorded_run "$rec" "$prog" "$@" 2>/dev/null
case ${GCC_DG_KIND:-plain} in
plain)
	recorded_run "$rec/again" "$prog" "$@" 2>/dev/null ;;
ipp)
	if [ -f "$rec/ipp.prof" ]; then
		st=0
		"$GCC_DG_IPP" check "$prog" "$rec/ipp.prof" >"$rec/check.log" 2>&1 || st=$?
		echo "$st" >"$rec/check"
	fi ;;
esac

# The run DejaGnu judges.
IPP_PROFILE=$rec/dejagnu.prof exec "$prog" "$@"
