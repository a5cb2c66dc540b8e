#!/bin/bash
# run-one.sh NAME -- the checks of one torture test, run by run.sh through
# xargs (one process per test).  Not meant to be run by hand: run.sh sets
# up the environment and reads the results.
#
# For each level in the plan ($T_PLAN, lines "NAME <TAB> level <TAB> action
# <TAB> flags|reason"): build the test plainly, run it, then for each mode
# of $IPP_MODES build it with ipp-gcc, run it and compare.  Writes
#   $T_WORK/results/NAME.res   one line per check (see run.sh)
#   $T_WORK/results/NAME.fail  each failure with the commands to reproduce it
# and keeps the build directories of failed checks in $T_WORK/NAME/.
#
# Environment: T_SRC (the tests), T_WORK, T_PLAN, T_TIMEOUT (seconds per
# run), T_KEEP (1: keep every build directory), and the IPP_* variables of
# common.sh (already resolved by run.sh).
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).

set -euo pipefail
HARNESS_NAME=torture
. "$(dirname "$0")/common.sh"

name=$1
src=$T_SRC/$name
tdir=$T_WORK/$name
res=$T_WORK/results/$name.res.tmp
fail=$T_WORK/results/$name.fail.tmp
: >"$res"
: >"$fail"
# A compilation that takes longer than this has hung (the slowest plain
# -O2 compile of the suite takes a few seconds).
cc_timeout=300
# The wrapper as a command (IPP_WRAP).
ipp_wrap

# result KIND LEVEL MODE DETAIL: one line of NAME.res.
result() { printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$name" "$2" "$3" "$4" >>"$res"; }

# build DIR ACTION FLAGS... -- compile/link the test in DIR (the command is
# the rest of the line after ACTION: a compiler and its flags); the output
# is DIR/cc.log, the command DIR/cc.cmd.  Returns the compiler's status.
build() {
	local dir=$1 action=$2
	shift 2
	local -a tail=("$src" -o "$dir/prog" -lm)
	case $action in
	compile) tail=(-c "$src" -o "$dir/prog.o") ;;
	esac
	printf '%s\n' "$(shell_quote "$@" "${tail[@]}")" >"$dir/cc.cmd"
	(cd "$dir" && timeout -k 5 "$cc_timeout" "$@" "${tail[@]}") >"$dir/cc.log" 2>&1
}

# record_failure LEVEL MODE DETAIL DIR PLAINDIR FLAGS: a failure's entry in
# NAME.fail, with the commands that reproduce it.
record_failure() {
	local lv=$1 mode=$2 detail=$3 dir=$4 pdir=$5 flags=$6
	{
		echo
		echo "== $name $lv $mode: $detail"
		echo "   logs: $dir"
		echo "   instrumented: cd \$(mktemp -d) && $(ipp_repro_env) -fplugin-arg-ipp-mode=$mode $flags $src -o ipp -lm && ./ipp; echo \"exit \$?\""
		echo "   plain:        cd \$(mktemp -d) && $(shell_quote "$IPP_CC") $flags $src -o plain -lm && ./plain; echo \"exit \$?\""
		if [ -f "$dir/cc.log" ] && [ ! -f "$dir/status" ]; then
			echo "   compiler output (first lines):"
			sed -n '1,15s/^/     | /p' "$dir/cc.log"
		elif [ -f "$dir/status" ]; then
			echo "   plain: exit $(cat "$pdir/status"); instrumented: exit $(cat "$dir/status")"
			diff_outputs "$pdir" "$dir"
		fi
	} >>"$fail"
}

# The checks, level by level.
while IFS=$'\t' read -r _ lv action arg; do
	if [ "$action" = skip ]; then
		for m in $IPP_MODES; do result SKIP "$lv" "$m" "$arg"; done
		continue
	fi
	read -r -a flags <<<"$arg"
	ldir=$tdir/${lv#-}
	pdir=$ldir/plain
	mkdir -p "$pdir"

	# The plain build decides whether the test applies at this level.
	st=0
	build "$pdir" "$action" "$IPP_CC" "${flags[@]}" || st=$?
	plain_skip=
	if [ "$st" != 0 ]; then
		plain_skip="does not compile plain"
	elif [ "$action" = run ]; then
		run_limited "$T_TIMEOUT" "$pdir" "$pdir/prog"
		if timed_out "$pdir"; then
			plain_skip="plain run times out (${T_TIMEOUT}s)"
		elif [ "$(cat "$pdir/status")" != 0 ]; then
			plain_skip="fails plain (exit status not 0)"
		fi
	fi
	# A second plain run: a test whose output changes from run to run
	# (return-addr.c prints stack addresses) has only its exit status
	# compared.
	varies=0
	if [ -z "$plain_skip" ] && [ "$action" = run ]; then
		mkdir -p "$pdir/again"
		run_limited "$T_TIMEOUT" "$pdir/again" "$pdir/prog"
		if ! cmp -s "$pdir/out" "$pdir/again/out" || ! cmp -s "$pdir/err" "$pdir/again/err"; then
			varies=1
		fi
	fi
	if [ -n "$plain_skip" ]; then
		for m in $IPP_MODES; do result SKIP "$lv" "$m" "$plain_skip"; done
		[ "$T_KEEP" = 1 ] || rm -rf "$ldir"
		continue
	fi

	# The instrumented builds, one per mode.
	for m in $IPP_MODES; do
		idir=$ldir/$m
		mkdir -p "$idir"
		st=0
		build "$idir" "$action" "${IPP_WRAP[@]}" -fplugin-arg-ipp-mode="$m" "${flags[@]}" || st=$?
		if [ "$st" != 0 ]; then
			detail=$(build_failure_reason "$idir/cc.log" "$st" "$cc_timeout")
		elif [ "$action" = run ]; then
			run_limited "$T_TIMEOUT" "$idir" "$idir/prog"
			if timed_out "$idir"; then
				detail="instrumented run times out (${T_TIMEOUT}s), plain does not"
			else
				detail=$(same_behaviour "$pdir" "$idir" "$varies") && detail=
			fi
		else
			detail=
		fi
		if [ -z "$detail" ]; then
			note=
			[ "$varies" = 0 ] || note="exit status only: the plain output varies from run to run"
			result PASS "$lv" "$m" "$note"
			[ "$T_KEEP" = 1 ] || rm -rf "$idir"
		else
			result FAIL "$lv" "$m" "$detail"
			record_failure "$lv" "$m" "$detail" "$idir" "$pdir" "$arg"
		fi
	done
	# Keep the plain build only next to a failed instrumented one (the
	# builds of passed checks are gone already).
	keep_level=$T_KEEP
	for d in "$ldir"/*/; do
		[ "$d" = "$pdir/" ] || keep_level=1
	done
	[ "$keep_level" = 1 ] || rm -rf "$ldir"
done < <(awk -F'\t' -v n="$name" '$1 == n' "$T_PLAN")

[ "$T_KEEP" = 1 ] || rmdir "$tdir" 2>/dev/null || true
# Publish the results (run.sh reads them once every job is done).
mv "$fail" "${fail%.tmp}"
[ -s "${fail%.tmp}" ] || rm -f "${fail%.tmp}"
mv "$res" "${res%.tmp}"
