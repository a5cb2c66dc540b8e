# shellcheck shell=bash
# dg.sh -- the DejaGnu directives of GCC's torture tests, read the way
# GCC's own testsuite reads them (gcc-dg.exp, target-supports.exp), for
# this host only.  Sourced by run.sh; needs common.sh.
#
#   dg_init DIR                 set the target triplet; DIR caches probes
#   dg_plan SRCDIR LEVELS T...  print the plan of each test at each level:
#       name <TAB> level <TAB> run|link|compile|assemble <TAB> flags
#       name <TAB> level <TAB> skip <TAB> reason
#
# What each directive does here:
#   dg-options OPTS [SEL]        replaces the default options (the last one
#                                that applies wins); every spelling:
#                                "-a -b", { "-a" "-b" }, {-a -b}
#   dg-additional-options OPTS [SEL]   appended
#   dg-add-options FEATURE       stack_size: nothing (no stack limit is
#                                configured for a native target); ieee: the
#                                flags target-supports.exp gives (none on
#                                x86); anything else: skip
#   dg-do run|link|compile|assemble [SEL]   what to do (default:
#                                $DG_DEFAULT_ACTION, else run): compile is
#                                -S, assemble -c, preprocess is taken as
#                                compile; a `target' selector that does not
#                                match skips
#   dg-require-effective-target NAME [SEL]  skip unless NAME holds
#   dg-skip-if REASON SEL [INCLUDE [EXCLUDE]]  skip when SEL matches, every
#                                INCLUDE option is used and no EXCLUDE one
#   dg-require-stack-size EXPR   skip if the stack limit (ulimit -s) is lower;
#                                an EXPR relative to the target's
#                                stack_size does not apply (there is none)
#   dg-require-weak, dg-require-alias, dg-require-visibility,
#   dg-require-profiling         hold on GNU/Linux (ELF, gcov's libgcov)
#   dg-require-dll               never holds on GNU/Linux
#   dg-require-stack-check KIND  holds if -fstack-check=KIND links
#   dg-xfail-if, dg-xfail-run-if, dg-prune-output, dg-final, dg-warning, ...
#                                no effect: the harness compares the plain
#                                and the instrumented build, and skips a
#                                test that fails plainly anyway
#   any other dg-require-*       skip, naming it
# A selector SEL is "target EXPR" or "xfail EXPR"; EXPR combines target
# triplet globs (x86_64-*-*) and effective-target keywords (int128) with
# the operators !, && and ||, nested in braces; juxtaposed words are
# alternatives.
# The test's options come after the level (-O0/-O2) and "-w", as in GCC's
# testsuite, so a test's own -O wins.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).

# The canonical target triplet (DejaGnu's, e.g. x86_64-pc-linux-gnu), the
# directory of the effective-target probes and their cached answers.
DG_TRIPLET=
DG_ETDIR=
declare -A DG_ET=()

# dg_init DIR
dg_init() {
	local m
	DG_ETDIR=$1
	mkdir -p "$DG_ETDIR"
	m=$("$IPP_CC" -dumpmachine)
	# gcc says x86_64-linux-gnu; DejaGnu matches against the canonical
	# cpu-vendor-os form: insert the vendor when it is missing.
	case $m in
	*-*-*-*) DG_TRIPLET=$m ;;
	x86_64-* | i?86-*) DG_TRIPLET=${m%%-*}-pc-${m#*-} ;;
	*-*-*) DG_TRIPLET=${m%%-*}-unknown-${m#*-} ;;
	*) DG_TRIPLET=$m ;;
	esac
}

# dg_probe NAME KIND [FLAGS] <<< SOURCE: 1 if SOURCE compiles (KIND object)
# or links (KIND executable) without any message, else 0.
dg_probe() {
	local name=$1 kind=$2 flags=${3:-} f=$DG_ETDIR/$1.c
	cat >"$f"
	local -a args=()
	[ "$kind" = object ] && args=(-c)
	# shellcheck disable=SC2086
	# Messages: any, except glibc's link-time "the use of `tmpnam' is
	# dangerous" (and the "in function" line before it), which DejaGnu
	# prunes too.
	if "$IPP_CC" $flags "${args[@]}" "$f" -o "$DG_ETDIR/$name.out" >"$DG_ETDIR/$name.log" 2>&1 &&
		! grep -v -e 'is dangerous, better use' -e ': in function `' "$DG_ETDIR/$name.log" |
		grep -q .; then
		echo 1
	else
		echo 0
	fi
}

# et_holds NAME: does the effective target NAME hold?  Those that GCC's
# target-supports.exp decides by compiling are probed the same way; those it
# decides by the target's name are true on GNU/Linux (they are false only on
# targets such as nvptx, bpf, avr).  Unknown keywords: exit status 2.
et_holds() {
	local name=$1 v=
	if [ -n "${DG_ET[$name]:-}" ]; then
		[ "${DG_ET[$name]}" = 1 ]
		return
	fi
	case $name in
	int32plus) v=$(dg_probe "$name" object <<<'int dummy[sizeof (int) >= 4 ? 1 : -1];') ;;
	int32) v=$(dg_probe "$name" object <<<'int dummy[sizeof (int) == 4 ? 1 : -1];') ;;
	int16) v=$(dg_probe "$name" object <<<'int dummy[sizeof (int) < 4 ? 1 : -1];') ;;
	longlong64) v=$(dg_probe "$name" object <<<'int dummy[sizeof (long long) == 8 ? 1 : -1];') ;;
	double64plus) v=$(dg_probe "$name" object <<<'int dummy[sizeof (double) >= 8 ? 1 : -1];') ;;
	double64) v=$(dg_probe "$name" object <<<'int dummy[sizeof (double) == 8 ? 1 : -1];') ;;
	lp64) v=$(dg_probe "$name" object <<<'int dummy[sizeof (int) == 4 && sizeof (void *) == 8 && sizeof (long) == 8 ? 1 : -1];') ;;
	ilp32) v=$(dg_probe "$name" object <<<'int dummy[sizeof (int) == 4 && sizeof (void *) == 4 && sizeof (long) == 4 ? 1 : -1];') ;;
	ia32) v=$(dg_probe "$name" object <<<'int dummy[sizeof (int) == 4 && sizeof (void *) == 4 && sizeof (long) == 4 ? 1 : -1] = { __i386__ };') ;;
	int128) v=$(dg_probe "$name" object <<<'int dummy[
	#ifndef __SIZEOF_INT128__
	-1
	#else
	1
	#endif
	];') ;;
	stdint_types) v=$(dg_probe "$name" object <<<'#include <stdint.h>
	int8_t a; int16_t b; int32_t c; int64_t d; uint8_t e; uint16_t f; uint32_t g; uint64_t h;') ;;
	dfp) v=$(dg_probe "$name" object <<<'_Decimal32 x = 1.2df; _Decimal64 y = 2.3dd; _Decimal128 z;
	int f (void) { z = x + y; return z == 0; }') ;;
	fileio) v=$(dg_probe "$name" executable <<<'#include <stdio.h>
	int main() { char *n = tmpnam (NULL); FILE *f = fopen (n, "w"); fclose (f); remove (n); return 0; }') ;;
	mmap) v=$(dg_probe "$name" executable "-w" <<<'#include <sys/mman.h>
	int main() { return mmap (0, 0, 0, 0, 0, 0) == 0; }') ;;
	fpic) v=$(dg_probe "$name" object "-fpic" <<<'int x;') ;;
	nonpic) v=$(dg_probe "$name" object <<<'#if __PIC__
	#error __PIC__
	#endif') ;;
	ptr32plus) v=$(dg_probe "$name" object <<<'int dummy[sizeof (void *) >= 4 ? 1 : -1];') ;;
	llp64) v=$(dg_probe "$name" object <<<'int dummy[sizeof (int) == 4 && sizeof (void *) == 8 && sizeof (long long) == 8 && sizeof (long) == 4 ? 1 : -1];') ;;
	size20plus) v=$(dg_probe "$name" object <<<'char dummy[65537L];') ;;
	size32plus) v=$(dg_probe "$name" object <<<'char dummy[16777217L];') ;;
	pthread) v=$(dg_probe "$name" object "-pthread" <<<'#include <pthread.h>
	void foo (void) { }') ;;
	scheduling) v=$(dg_probe "$name" object "-fschedule-insns" <<<'void foo (void) { }') ;;
	fopenmp) v=$(dg_probe "$name" object "-fopenmp" <<<'void foo (void) { }') ;;
	fgraphite) v=$(dg_probe "$name" object "-O1 -fgraphite" <<<'void foo (void) { }') ;;
	named_sections) v=$(dg_probe "$name" object <<<'int __attribute__ ((section("whatever"))) foo;') ;;
	short_enums) v=$(dg_probe "$name" object <<<'enum foo { bar };
	int s[sizeof (enum foo) == 1 ? 1 : -1];') ;;
	R_flag_in_section)
		# target-supports.exp reads the auto-host.h of a GCC build tree,
		# which an installed GCC does not have: false there, as here.
		v=0 ;;
	run_expensive_tests)
		# GCC's testsuite runs them only with GCC_TEST_RUN_EXPENSIVE set.
		if [ -n "${GCC_TEST_RUN_EXPENSIVE:-}" ]; then v=1; else v=0; fi ;;
	c99_runtime)
		# gcc.dg/builtins-config.h: glibc has the full C99 runtime.
		case $DG_TRIPLET in *-linux-gnu*) v=1 ;; *) v=0 ;; esac ;;
	alloca | label_values | trampolines | indirect_jumps | nonlocal_goto | \
		untyped_assembly | return_address | unwrapped | signal | weak | alias | \
		indirect_calls | non_strict_prototype | exceptions | lra | pie)
		case $DG_TRIPLET in *-linux*) v=1 ;; *) return 2 ;; esac ;;
	newlib_nano_io | freestanding | vxworks_kernel)
		case $DG_TRIPLET in *-linux*) v=0 ;; *) return 2 ;; esac ;;
	*) return 2 ;;
	esac
	DG_ET[$name]=$v
	[ "$v" = 1 ]
}

## ---------------------------------------------------------------------
## Selector expressions: a recursive-descent evaluator over the tokens
## SEL_TOK (braces split off).  The value comes back in SEL_VAL (1 or 0);
## SEL_ERR is set to the first unknown keyword.
## ---------------------------------------------------------------------
SEL_TOK=()
SEL_POS=0
SEL_VAL=0
SEL_ERR=

# sel_word WORD: a triplet glob (it has a '-') or an effective target.
sel_word() {
	local w=$1 rc=0
	if [[ $w == *-* ]]; then
		# shellcheck disable=SC2053
		if [[ $DG_TRIPLET == $w ]]; then SEL_VAL=1; else SEL_VAL=0; fi
		return
	fi
	et_holds "$w" || rc=$?
	case $rc in
	0) SEL_VAL=1 ;;
	1) SEL_VAL=0 ;;
	*) SEL_VAL=0; : "${SEL_ERR:=$w}" ;;
	esac
}

# sel_item: '!' ITEM | '{' LIST '}' | WORD
sel_item() {
	local tok=${SEL_TOK[SEL_POS]:-}
	SEL_POS=$((SEL_POS + 1))
	case $tok in
	'!') sel_item; SEL_VAL=$((1 - SEL_VAL)) ;;
	'{') sel_list; SEL_POS=$((SEL_POS + 1)) ;; # skip the '}'
	'') SEL_VAL=0 ;;
	*) sel_word "$tok" ;;
	esac
}

# sel_list: ITEM { [&& | ||] ITEM }, left to right; no operator means ||.
sel_list() {
	local acc=-1 op=or tok
	while [ "$SEL_POS" -lt ${#SEL_TOK[@]} ]; do
		tok=${SEL_TOK[SEL_POS]}
		case $tok in
		'}') break ;;
		'&&') op=and; SEL_POS=$((SEL_POS + 1)); continue ;;
		'||') op=or; SEL_POS=$((SEL_POS + 1)); continue ;;
		esac
		sel_item
		if [ $acc = -1 ]; then acc=$SEL_VAL
		elif [ $op = and ]; then acc=$((acc && SEL_VAL))
		else acc=$((acc || SEL_VAL)); fi
		op=or
	done
	[ $acc = -1 ] && acc=0
	SEL_VAL=$acc
}

# sel_holds EXPR: does the selector expression hold on this target?
sel_holds() {
	local text=$1
	text=${text//\{/ \{ }
	text=${text//\}/ \} }
	text=${text//\"/}
	read -r -a SEL_TOK <<<"$text"
	SEL_POS=0
	sel_list
	[ "$SEL_VAL" = 1 ]
}

# target_sel_holds ARG: an optional "target EXPR" / "xfail EXPR" argument
# of dg-options and friends: true when absent, for xfail (which does not
# restrict where a directive applies), and when the target EXPR holds.
target_sel_holds() {
	local arg=$1
	case $arg in
	'') return 0 ;;
	target\ * | target) sel_holds "${arg#target}" ;;
	*) return 0 ;;
	esac
}

# opt_words TEXT: the options of a dg-options argument, whatever its
# spelling ("-a -b", { "-a" "-b" }, {-a -b}): the quotes go, the words are
# separated by single spaces.  (read -a: no glob expansion of "*".)
opt_words() {
	local -a w
	read -r -a w <<<"${1//\"/}"
	echo "${w[*]}"
}

# flag_used PATTERN FLAG...: is PATTERN ("*" or a glob) one of the flags?
flag_used() {
	local p=$1 f
	shift
	[ "$p" = '*' ] && return 0
	for f in "$@"; do
		# shellcheck disable=SC2053
		[[ $f == $p ]] && return 0
	done
	return 1
}

# skip_if_holds SEL INCLUDE EXCLUDE FLAG...: dg-skip-if's condition.
skip_if_holds() {
	local sel=$1 inc=$2 exc=$3 o
	shift 3
	local -a incs excs
	sel_holds "$sel" || return 1
	read -r -a incs <<<"$(opt_words "$inc")"
	read -r -a excs <<<"$(opt_words "$exc")"
	[ ${#incs[@]} -gt 0 ] || incs=('*')
	for o in "${incs[@]}"; do
		flag_used "$o" "$@" || return 1
	done
	for o in "${excs[@]}"; do
		flag_used "$o" "$@" && return 1
	done
	return 0
}

# stack_limit_bytes: the stack limit (ulimit -s), or "unlimited".
stack_limit_bytes() {
	local k
	k=$(ulimit -s)
	if [ "$k" = unlimited ]; then echo unlimited; else echo $((k * 1024)); fi
}

# dg_plan SRCDIR LEVELS TEST...: the plan (see the top of this file).
dg_plan() {
	local src=$1 levels=$2 t lv
	shift 2
	local -A recs=()
	local line name rest
	# One awk pass over all the tests: their directives, by test.
	while IFS= read -r line; do
		name=${line%%$'\037'*}
		rest=${line#*$'\037'}
		recs[$name]+=$rest$'\n'
	done < <(cd "$src" && awk -f "$(dirname "${BASH_SOURCE[0]}")/dg.awk" "$@")
	for t in "$@"; do
		dg_plan_test "$t" "$levels" "${recs[$t]:-}"
	done
}

# dg_plan_test NAME LEVELS RECORDS: the plan lines of one test.
dg_plan_test() {
	local t=$1 levels=$2 records=$3
	local opts='' addl='' action=${DG_DEFAULT_ACTION:-run} skip='' lv d rest a1 a2 a3 a4 v lim
	local -a skipifs=()
	SEL_ERR=
	while IFS=$'\037' read -r d a1 a2 a3 a4 rest; do
		[ -n "$d" ] || continue
		case $d in
		dg-options)
			target_sel_holds "$a2" && opts=$(opt_words "$a1") ;;
		dg-additional-options)
			target_sel_holds "$a2" && addl="$addl $(opt_words "$a1")" ;;
		dg-add-options)
			case $a1 in
			stack_size) ;;
			ieee)
				case $DG_TRIPLET in
				alpha*-*-* | sh*-*-*) addl="$addl -mieee" ;;
				rx-*-*) addl="$addl -mnofpu" ;;
				esac ;;
			*) : "${skip:=dg-add-options $a1 is not known to the harness}" ;;
			esac ;;
		dg-do)
			case $a2 in
			target\ *) target_sel_holds "$a2" || : "${skip:=dg-do $a1 is not for this target}" ;;
			esac
			case $a1 in
			run | link | compile | assemble) action=$a1 ;;
			preprocess) action=compile ;;
			*) : "${skip:=dg-do $a1 is not supported by the harness}" ;;
			esac ;;
		dg-require-effective-target)
			if target_sel_holds "$a2"; then
				v=0
				et_holds "$a1" || v=$?
				case $v in
				0) ;;
				1) : "${skip:=needs effective target $a1}" ;;
				*) : "${skip:=needs effective target $a1 (unknown to the harness)}" ;;
				esac
			fi ;;
		dg-require-stack-size)
			lim=$(stack_limit_bytes)
			if [[ $a1 == *stack_size* ]]; then
				# Relative to the target's stack_size, which a native
				# target does not configure: GCC's directive returns
				# before evaluating it.
				:
			elif [[ ! $a1 =~ ^[0-9a-fA-FxX*+()\ -]+$ ]]; then
				: "${skip:=dg-require-stack-size $a1: cannot evaluate}"
			elif [ "$lim" != unlimited ] && [ $((a1)) -gt "$lim" ]; then
				: "${skip:=needs a stack of $((a1)) bytes (ulimit -s is $((lim / 1024)) KiB)}"
			fi ;;
		dg-require-weak | dg-require-alias | dg-require-visibility | dg-require-profiling)
			case $DG_TRIPLET in
			*-linux*) ;;
			*) : "${skip:=$d: not known for $DG_TRIPLET}" ;;
			esac ;;
		dg-require-stack-check)
			# -fstack-check[=KIND] must link a program without a message.
			v=stack_check_${a1:-generic}
			if [ -z "${DG_ET[$v]:-}" ]; then
				DG_ET[$v]=$(dg_probe "$v" executable "-fstack-check${a1:+=$a1}" <<<'int main (void) { return 0; }')
			fi
			[ "${DG_ET[$v]}" = 1 ] || : "${skip:=$d $a1: -fstack-check is not available}" ;;
		dg-require-dll)
			# DLL attributes: Windows (Cygwin, MinGW) and Symbian only.
			: "${skip:=$d: not for this target (no DLLs)}" ;;
		dg-require-*)
			: "${skip:=$d is not known to the harness}" ;;
		dg-skip-if)
			# Decided per level below (the options matter).
			skipifs+=("$a1"$'\037'"$a2"$'\037'"$a3"$'\037'"$a4") ;;
		esac
	done <<<"$records"
	if [ -n "$SEL_ERR" ] && [ -z "$skip" ]; then
		skip="selector keyword $SEL_ERR unknown to the harness"
	fi
	for lv in $levels; do
		if [ -n "$skip" ]; then
			printf '%s\t%s\tskip\t%s\n' "$t" "$lv" "$skip"
			continue
		fi
		local -a flags
		read -r -a flags <<<"$lv -w $opts $addl"
		local s why=
		for s in "${skipifs[@]}"; do
			IFS=$'\037' read -r a1 a2 a3 a4 <<<"$s"
			if skip_if_holds "$a2" "$a3" "$a4" "${flags[@]}"; then
				why="dg-skip-if: ${a1:-(no reason given)}"
				break
			fi
		done
		if [ -n "$why" ]; then
			printf '%s\t%s\tskip\t%s\n' "$t" "$lv" "$why"
		else
			printf '%s\t%s\t%s\t%s\n' "$t" "$lv" "$action" "${flags[*]}"
		fi
	done
}
