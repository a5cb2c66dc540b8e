#!/bin/bash
# run-one.sh NAME -- the checks of one torture test, run by run.sh through
# xargs (one process per test).  Not meant to be run by hand: run.sh sets
# up the environment and reads the results.
#
# For each level in the plan ($T_PLAN, lines "NAME <TAB> level <TAB> action
# <TAB> flags|reason"): build the test plainly, run it, then for each mode
# of $IPP_MODES build it with ipp-gcc, run it, compare, and check the
# profile of the run (check_profile in common.sh).  A test whose action is
# compile, assemble or link is built only: plainly, then in each mode,
# whose output must hold maps that `ipp map --list` reads (check_map).
# Writes
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

# output ACTION: the file a build for ACTION makes (in its directory):
# prog (run, link), prog.s (compile: -S, as DejaGnu's "compile"), prog.o
# (assemble: -c).
output() {
	case $1 in
	compile) echo prog.s ;;
	assemble) echo prog.o ;;
	*) echo prog ;;
	esac
}

# build DIR ACTION FLAGS... -- compile/link the test in DIR (the command is
# the rest of the line after ACTION: a compiler and its flags); the output
# is DIR/cc.log, the command DIR/cc.cmd.  Returns the compiler's status.
build() {
	local dir=$1 action=$2
	shift 2
	local -a tail=("$src" -o "$dir/prog" -lm)
	case $action in
	compile) tail=(-S "$src" -o "$dir/prog.s") ;;
	assemble) tail=(-c "$src" -o "$dir/prog.o") ;;
	esac
	printf '%s\n' "$(shell_quote "$@" "${tail[@]}")" >"$dir/cc.cmd"
	(cd "$dir" && timeout -k 5 "$cc_timeout" "$@" "${tail[@]}") >"$dir/cc.log" 2>&1
}

# is_elf FILE: does FILE start with ELF's magic number?
is_elf() {
	[ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ]
}

# check_map DIR FILE PLAINFILE: `ipp map --list FILE` (every map in FILE
# parsed and renumbered as ipp report does, the psi/rho digest checked)
# must succeed; its output goes to DIR/map.log.  Assembly (a "dg-do
# compile" test, or one whose own options say -S: compile/pr89235.c) is
# assembled first; when it does not assemble and the plain build's
# assembly, PLAINFILE, does not either (inline asm that only the test's
# target assembles: 920520-1.c), the map cannot be read: a note says so.
# An object without any function code (only declarations and data, or
# static functions GCC removed before the plugin's pass) has no map,
# rightly: a note says so too.  On failure prints a one-line description
# and returns 1.
check_map() {
	local dir=$1 file=$2 plain=$3 st=0 l
	if ! is_elf "$file"; then
		if ! "$IPP_CC" -c -x assembler "$file" -o "$dir/assembled.o" >"$dir/map.log" 2>&1; then
			if is_elf "$plain" || "$IPP_CC" -c -x assembler "$plain" -o "$dir/plain-assembled.o" \
				>/dev/null 2>&1; then
				echo "the instrumented assembly does not assemble, the plain one does"
				return 1
			fi
			echo "map not read: the assembly does not assemble, the plain build's neither"
			return 0
		fi
		file=$dir/assembled.o
	fi
	"$IPP_TOOL" map --list "$file" >"$dir/map.log" 2>&1 || st=$?
	[ "$st" = 0 ] && return 0
	if grep -q 'no \.ipp_map section' "$dir/map.log" &&
		! nm --defined-only "$file" | grep -q ' [TtWi] '; then
		echo "no map: no function code in the object"
		return 0
	fi
	l=$(grep -m1 '^ipp: ' "$dir/map.log" || true)
	echo "ipp map --list failed (status $st)${l:+: $l}"
	return 1
}

# record_failure LEVEL MODE DETAIL DIR PLAINDIR FLAGS: a failure's entry in
# NAME.fail, with the commands that reproduce it (for the test's $action).
record_failure() {
	local lv=$1 mode=$2 detail=$3 dir=$4 pdir=$5 flags=$6
	{
		echo
		echo "== $name $lv $mode: $detail"
		echo "   logs: $dir"
		case $action in
		run)
			echo "   instrumented: cd \$(mktemp -d) && $(ipp_repro_env) -fplugin-arg-ipp-mode=$mode $flags $src -o ipp -lm && ./ipp; echo \"exit \$?\"; $(shell_quote "$IPP_TOOL") check ipp ipp.prof"
			echo "   plain:        cd \$(mktemp -d) && $(shell_quote "$IPP_CC") $flags $src -o plain -lm && ./plain; echo \"exit \$?\"" ;;
		link)
			echo "   instrumented: cd \$(mktemp -d) && $(ipp_repro_env) -fplugin-arg-ipp-mode=$mode $flags $src -o ipp -lm && $(shell_quote "$IPP_TOOL") map --list ipp"
			echo "   plain:        cd \$(mktemp -d) && $(shell_quote "$IPP_CC") $flags $src -o plain -lm" ;;
		compile)
			echo "   instrumented: cd \$(mktemp -d) && $(ipp_repro_env) -fplugin-arg-ipp-mode=$mode $flags -S $src -o ipp.s && $(shell_quote "$IPP_CC") -c ipp.s && $(shell_quote "$IPP_TOOL") map --list ipp.o"
			echo "   plain:        cd \$(mktemp -d) && $(shell_quote "$IPP_CC") $flags -S $src -o plain.s" ;;
		*)
			echo "   instrumented: cd \$(mktemp -d) && $(ipp_repro_env) -fplugin-arg-ipp-mode=$mode $flags -c $src -o ipp.o && $(shell_quote "$IPP_TOOL") map --list ipp.o"
			echo "   plain:        cd \$(mktemp -d) && $(shell_quote "$IPP_CC") $flags -c $src -o plain.o" ;;
		esac
		if [ -f "$dir/map.log" ]; then
			echo "   ipp map --list output (first lines):"
			sed -n '1,15s/^/     | /p' "$dir/map.log"
		elif [ -f "$dir/cc.log" ] && [ ! -f "$dir/status" ]; then
			echo "   compiler output (first lines):"
			sed -n '1,15s/^/     | /p' "$dir/cc.log"
		elif [ -f "$dir/status" ]; then
			echo "   plain: exit $(cat "$pdir/status"); instrumented: exit $(cat "$dir/status")"
			diff_outputs "$pdir" "$dir"
			check_log_excerpt "$dir"
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
	if [ "$st" = 124 ] || [ "$st" = 137 ]; then
		plain_skip="plain compile times out (${cc_timeout}s)"
	elif [ "$st" != 0 ]; then
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
		checknote=
		build "$idir" "$action" "${IPP_WRAP[@]}" -fplugin-arg-ipp-mode="$m" "${flags[@]}" || st=$?
		if [ "$st" != 0 ]; then
			detail=$(build_failure_reason "$idir/cc.log" "$st" "$cc_timeout")
		elif [ "$action" = run ]; then
			run_limited "$T_TIMEOUT" "$idir" "$idir/prog"
			if timed_out "$idir"; then
				detail="instrumented run times out (${T_TIMEOUT}s), plain does not"
			elif ! detail=$(same_behaviour "$pdir" "$idir" "$varies"); then
				:
			elif ! detail=$(check_profile "$idir" "$idir/prog"); then
				:
			else
				checknote=$detail
				detail=
			fi
		else
			# Built, not run: the map the plugin put into the object or
			# program must be one ipp reads and renumbers alike.
			if detail=$(check_map "$idir" "$idir/$(output "$action")" "$pdir/$(output "$action")"); then
				checknote=$detail
				detail=
			fi
		fi
		if [ -z "$detail" ]; then
			note=$checknote
			[ "$varies" = 0 ] || note="exit status only: the plain output varies from run to run${note:+; $note}"
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
