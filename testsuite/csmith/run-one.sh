#!/bin/bash
# run-one.sh SEED -- the checks of one Csmith seed, run by run.sh through
# xargs.  Not meant to be run by hand: run.sh sets up the environment.
#
# Generates $C_WORK/seed-SEED/prog.c, then for each level of $C_LEVELS
# builds it plainly, runs it, and for each mode of $IPP_MODES builds it with
# ipp-gcc, runs it, compares, and checks the run's profile (check_profile).  Writes $C_WORK/results/SEED.res (one line
# per check) and SEED.fail (each failure with how to reproduce it).
#
# Environment: C_WORK, C_LEVELS, C_TIMEOUT (seconds per run), C_KEEP,
# CSMITH, CSMITH_INCLUDE and the IPP_* variables of common.sh.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).

set -euo pipefail
HARNESS_NAME=csmith
. "$(dirname "$0")/../torture/common.sh"
ipp_wrap

seed=$1
name=seed-$seed
sdir=$C_WORK/$name
res=$C_WORK/results/$seed.res.tmp
fail=$C_WORK/results/$seed.fail.tmp
: >"$res"
: >"$fail"
# Csmith programs are a few thousand lines; -O2 takes a second or two.
cc_timeout=300

# result KIND LEVEL MODE DETAIL: one line of SEED.res.
result() { printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$name" "$2" "$3" "$4" >>"$res"; }

# skip_all LEVEL REASON: skip every mode at LEVEL.
skip_all() {
	local m
	for m in $IPP_MODES; do result SKIP "$1" "$m" "$2"; done
}

# build DIR CMD...: build prog.c into DIR/prog; output in DIR/cc.log.
build() {
	local dir=$1
	shift
	(cd "$dir" && timeout -k 5 "$cc_timeout" "$@" -I"$CSMITH_INCLUDE" "$sdir/prog.c" -o "$dir/prog") \
		>"$dir/cc.log" 2>&1
}

# checksum DIR: the total checksum the run in DIR printed, or "none".
checksum() {
	local c
	c=$(sed -n 's/^checksum = //p' "$1/out" | tail -n 1)
	echo "${c:-none}"
}

# record_failure LEVEL MODE DETAIL DIR PLAINDIR
record_failure() {
	local lv=$1 mode=$2 detail=$3 dir=$4 pdir=$5
	{
		echo
		echo "== $name $lv $mode: $detail"
		echo "   logs: $dir"
		echo "   program: cd \$(mktemp -d) && $(shell_quote "$CSMITH") --seed $seed > prog.c   (kept: $sdir/prog.c)"
		echo "   instrumented: $(ipp_repro_env) -fplugin-arg-ipp-mode=$mode $lv -w -I$(shell_quote "$CSMITH_INCLUDE") prog.c -o ipp && ./ipp 1; echo \"exit \$?\"; $(shell_quote "$IPP_TOOL") check ipp ipp.prof"
		echo "   plain:        $(shell_quote "$IPP_CC") $lv -w -I$(shell_quote "$CSMITH_INCLUDE") prog.c -o plain && ./plain 1; echo \"exit \$?\""
		if [ ! -f "$dir/status" ]; then
			echo "   compiler output (first lines):"
			sed -n '1,15s/^/     | /p' "$dir/cc.log"
		else
			echo "   plain: exit $(cat "$pdir/status"), checksum $(checksum "$pdir");" \
				"instrumented: exit $(cat "$dir/status"), checksum $(checksum "$dir")"
			diff_outputs "$pdir" "$dir"
			check_log_excerpt "$dir"
		fi
	} >>"$fail"
}

mkdir -p "$sdir"
failed=0
# Csmith writes platform.info into its working directory: run it in the
# seed's own.
if ! (cd "$sdir" && exec "$CSMITH" --seed "$seed") >"$sdir/prog.c" 2>"$sdir/csmith.log"; then
	for lv in $C_LEVELS; do skip_all "$lv" "csmith failed to generate a program"; done
else
	for lv in $C_LEVELS; do
		ldir=$sdir/${lv#-}
		pdir=$ldir/plain
		mkdir -p "$pdir"
		# The plain build and run decide whether the seed is usable here.
		st=0
		build "$pdir" "$IPP_CC" "$lv" -w || st=$?
		if [ "$st" != 0 ]; then
			skip_all "$lv" "does not compile plain"
			continue
		fi
		run_limited "$C_TIMEOUT" "$pdir" "$pdir/prog" 1
		if timed_out "$pdir"; then
			skip_all "$lv" "plain run times out (${C_TIMEOUT}s)"
			continue
		elif [ "$(cat "$pdir/status")" != 0 ]; then
			skip_all "$lv" "fails plain (exit status not 0)"
			continue
		fi
		for m in $IPP_MODES; do
			idir=$ldir/$m
			mkdir -p "$idir"
			st=0
			checknote=
			build "$idir" "${IPP_WRAP[@]}" -fplugin-arg-ipp-mode="$m" "$lv" -w || st=$?
			if [ "$st" != 0 ]; then
				detail=$(build_failure_reason "$idir/cc.log" "$st" "$cc_timeout")
			else
				run_limited "$C_TIMEOUT" "$idir" "$idir/prog" 1
				if timed_out "$idir"; then
					detail="instrumented run times out (${C_TIMEOUT}s), plain does not"
				elif ! detail=$(same_behaviour "$pdir" "$idir"); then
					detail="$detail (checksum plain $(checksum "$pdir"), ipp $(checksum "$idir"))"
				elif ! detail=$(check_profile "$idir" "$idir/prog"); then
					:
				else
					checknote=$detail
					detail=
				fi
			fi
			if [ -z "$detail" ]; then
				result PASS "$lv" "$m" "$checknote"
				[ "$C_KEEP" = 1 ] || rm -rf "$idir"
			else
				failed=1
				result FAIL "$lv" "$m" "$detail"
				record_failure "$lv" "$m" "$detail" "$idir" "$pdir"
			fi
		done
	done
fi

# Keep the program and the builds only where something failed.
[ "$failed" = 1 ] || [ "$C_KEEP" = 1 ] || rm -rf "$sdir"
mv "$fail" "${fail%.tmp}"
[ -s "${fail%.tmp}" ] || rm -f "${fail%.tmp}"
mv "$res" "${res%.tmp}"
