#!/bin/bash
# make-sample.sh [--suite execute|compile] SRCDIR -- print the fixed sample
# of torture tests that `make check` runs.  sample.txt (the execute suite,
# the default) and sample-compile.txt (the compile suite) are its output,
# checked in: run this again only to change the rule below, and commit the
# new list.
#
# SRCDIR is the extracted execute/ or compile/ directory (fetch.sh prints
# it).  The sample takes every test that exercises something the plugin
# treats specially, then a deterministic spread of the rest:
#   setjmp      setjmp/longjmp, sigsetjmp, __builtin_setjmp/longjmp
#   cgoto       computed goto: &&label, goto *p (label_values, indirect_jumps)
#   nested      GNU nested functions, __label__, nonlocal goto (trampolines)
#   alloca      alloca, __builtin_alloca, variable-length arrays
#   cflow       __builtin_ calls that change control flow or look at the
#               stack: unreachable, trap, return_address, frame_address,
#               apply/return, eh_return, expect, constant_p
#   noreturn    noreturn functions (exit and abort calls are everywhere),
#               const/pure functions (the plugin clears the attributes)
#   signal      signal handlers
#   options     tests whose own options change what the plugin sees
#               (gnu_inline bodies, EH edges, -fwrapv arithmetic, PIC, an
#               -O of their own), and 6 others with options
#   found       tests that found bugs in a full run (listed by name, per
#               suite)
# then, chosen by the CRC of the name (so the choice does not depend on the
# order of the files), 12 of those not yet chosen in each of: varargs,
# other __builtin_ calls, recursion (a function whose text calls itself),
# and everything else.
# Each line of the output is "NAME  # categories".
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).

# Test names have no blanks: the $(...) lists below split on purpose.
# shellcheck disable=SC2046
set -euo pipefail
suite=execute
if [ "${1:-}" = --suite ]; then
	suite=${2:-}
	shift 2 || true
fi
[ $# -eq 1 ] || { echo "usage: make-sample.sh [--suite execute|compile] SRCDIR" >&2; exit 2; }
cd "$1"
export LC_ALL=C

declare -A cat=()
# add CATEGORY FILE...: put the files in the sample under CATEGORY.
add() {
	local c=$1 f
	shift
	for f in "$@"; do
		case " ${cat[$f]:-} " in *" $c "*) ;; *) cat[$f]+=" $c" ;; esac
	done
}
# grepl REGEX: the tests whose text matches the extended REGEX.
grepl() { grep -lE "$1" -- *.c || true; }
# pick N FILE...: N of the files, those with the smallest CRC of the name.
pick() {
	local n=$1 f
	shift
	for f in "$@"; do printf '%s %s\n' "$(printf '%s' "$f" | cksum | cut -d' ' -f1)" "$f"; done |
		sort -n | head -n "$n" | cut -d' ' -f2
}
# unpicked FILE...: those not in the sample yet.
unpicked() {
	local f
	for f in "$@"; do [ -n "${cat[$f]:-}" ] || echo "$f"; done
}

## Every test of the special categories.
add setjmp $(grepl '\b(setjmp|longjmp|sigsetjmp|siglongjmp|__builtin_setjmp|__builtin_longjmp)\b')
add cgoto $(grepl 'goto[[:space:]]*\*|([=,({:?!]|return)[[:space:]]*&&[[:space:]]*[A-Za-z_]|dg-require-effective-target (label_values|indirect_jumps)')
add nested $(grepl '__label__|dg-require-effective-target trampolines|__builtin_nonlocal_goto') $(ls -- nest*.c)
add alloca $(grepl '\balloca\b|__builtin_alloca|dg-require-effective-target alloca')
# VLAs: a local array of a basic type whose size starts with a variable
# (a lower-case name other than sizeof), and the tests named vla-*.
vla='^[[:space:]]+(typedef[[:space:]]+)?((unsigned|signed|const|volatile)[[:space:]]+)*(char|short|int|long|float|double)[[:space:]]+[A-Za-z_][A-Za-z0-9_]*\[[[:space:]]*[a-z_]'
add alloca $(for f in $(grepl "$vla"); do
	grep -E "$vla" "$f" | grep -qv '\[[[:space:]]*sizeof' && echo "$f"
done) $(ls -- vla*.c)
add cflow $(grepl '__builtin_(unreachable|trap|return_address|frame_address|apply|apply_args|return|eh_return|expect|constant_p)\b')
add noreturn $(grepl 'noreturn|__attribute__ *\(\( *(__)?(const|pure)(__)?\b')
add signal $(grepl '\b(signal|sigaction|raise)[[:space:]]*\(')
add options $(grepl 'dg-(additional-)?options .*(gnu89-inline|wrapv|strict-overflow|non-call-exceptions|instrument-functions|fpic|"-O)')
mapfile -t opt < <(unpicked $(grepl 'dg-(additional-)?options'))
add options $(pick 6 "${opt[@]}")

## Tests that found bugs (in the plugin, the runtime or this harness) in
## a full run: keep them in `make check'.
case $suite in
execute)
	# pure-1.c: a const call whose value is unused is in the map but
	# never emitted (xfail.txt).
	add found 990208-1.c pr51447.c 920501-7.c built-in-setjmp.c nestfunc-5.c \
		nestfunc-6.c return-addr.c pure-1.c ;;
compile)
	# 951222-1.c: a K&R `setjmp();` without arguments crashed the pass.
	add found 951222-1.c ;;
*) echo "make-sample.sh: no suite '$suite' (execute or compile)" >&2; exit 2 ;;
esac
for f in "${!cat[@]}"; do
	[ -r "$f" ] || { echo "make-sample.sh: no test $f in $PWD" >&2; exit 1; }
done

## A spread of the large categories, then of the rest.
mapfile -t va < <(unpicked $(grepl 'va_start|__builtin_va_|\.\.\.[[:space:]]*\)'))
add varargs $(pick 12 "${va[@]}")
mapfile -t bi < <(unpicked $(grepl '__builtin_'))
add builtin $(pick 12 "${bi[@]}")
# Recursion: a function definition's name (a line starting at column 0
# with "name (", no ';') called again before the next definition.
mapfile -t rec < <(unpicked $(awk '
	FNR == 1 { fn = "" }
	/^[A-Za-z_][A-Za-z0-9_ *]*[ *]?[A-Za-z_][A-Za-z0-9_]*[ ]*\(/ && !/;[ ]*$/ {
		s = $0; sub(/[ ]*\(.*/, "", s); sub(/.*[ *]/, "", s); fn = s; next
	}
	fn != "" && $0 ~ ("[^A-Za-z0-9_]" fn "[ ]*\\(") { print FILENAME; fn = "" }
' *.c | sort -u))
add recursion $(pick 12 "${rec[@]}")
mapfile -t rest < <(unpicked *.c)
add other $(pick 12 "${rest[@]}")

for f in "${!cat[@]}"; do printf '%s  #%s\n' "$f" "${cat[$f]}"; done | sort
