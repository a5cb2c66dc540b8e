#!/bin/bash
# run.sh -- tail calls stay sibling calls with ipp (docs/PROTOCOL.md, "Tail
# calls"), checked by independent oracles: GCC's own sibling-call tests and
# the stack itself.
#
#   1. GCC's gcc.dg/sibcall-4.c, sibcall-9.c and sibcall-10.c (copied here
#      from GCC 12.2's testsuite, GPL, headers kept) abort unless a sibling
#      call reuses its caller's stack frame.  At -O2 the plain build must
#      exit 0 and a plain build with -fno-optimize-sibling-calls must not
#      (the oracle can fail); with ipp at -O2, in every mode, the program
#      must exit 0 and `ipp check` must accept its profile.
#   2. deep.c: a million mutual tail calls under `ulimit -s 256` (KiB).
#      The plain -O2 build must survive and a plain build without sibling
#      calls must crash (the oracle can fail); with ipp at -O2, in every
#      mode, the program must survive with the plain output, `ipp check`
#      must accept its profile, and in the machine code (objdump -d)
#      down_even and down_odd -- and the continuing clone of the one main
#      calls -- must reach each other by jmp, never by call.
#      deepptr.c: the same through pointers; in context mode the indirect
#      arcs must also be exact (500000 each way).
#   3. The programs of testsuite/programs/ whose tail callees exit,
#      longjmp or goto out (exitdeep.c, longjmp.c, nonlocal.c) and
#      tailcalls.c, with ipp at -O2 in every mode: `ipp check` must accept
#      their profiles (docs/DERIVE.md: the returns of tail callers and
#      callees are bounded, not equal).  Their path counts are run.sh's.
#   4. gcov as the oracle at -O2 (testsuite/programs/gcov.sh with
#      IPP_GCOV_CFLAGS=-O2) for tailcalls.c, whose tail callees all return:
#      the returns after tail calls, counted before the jump, must equal
#      gcov's counts (gcov counts after the call: it makes no sibling call).
#
# Environment: srcdir, builddir (automake sets them), IPP_TEST_MODES.
# Prints "N passed, N failed" and exits non-zero if anything failed.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u

srcdir=${srcdir:-.}
builddir=${builddir:-.}
wrap=$builddir/plugin/ipp-gcc-uninstalled
ipp=$builddir/ipp
modes=${IPP_TEST_MODES:-intra context}
dir=$srcdir/testsuite/tailcall
work=$(mktemp -d "${TMPDIR:-/tmp}/ipp-tailcall.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "PASS: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# run STACK_KIB EXE [PROF]: runs EXE in $work with that stack limit (no
# limit if empty), output in EXE.out; returns its exit status (a crash's
# message from the shell goes nowhere)
run() {
	local stack=$1 exe=$2 prof=${3:-/dev/null}
	( cd "$work" && { [ -z "$stack" ] || ulimit -s "$stack"; } &&
	  IPP_PROFILE=$prof timeout 60 "$exe" >"$exe.out" 2>&1 </dev/null ) 2>/dev/null
}

# check_ipp T EXE PROF: the profile is valid
check_ipp() {
	if "$ipp" check "$2" "$3" >"$work/check" 2>&1; then
		return 0
	fi
	bad "$1: ipp check rejects the profile"
	sed 's/^/    /' "$work/check"
	return 1
}

# build T MODE SRC EXE: builds SRC with ipp at -O2 in MODE (a failure if not)
build() {
	if "$wrap" -O2 -w -fplugin-arg-ipp-mode=$2 "$3" -o "$4" 2>"$work/err"; then
		return 0
	fi
	bad "$1: does not compile with ipp"
	sed 's/^/    /' "$work/err"
	return 1
}

# jumps_only EXE: in EXE's code, down_even and down_odd (and their clones)
# reach down_even and down_odd by jmp and never by call
jumps_only() {
	objdump -d --no-show-raw-insn "$1" | awk '
	    /^[0-9a-f]+ <.*>:$/ { fn = $2; inside = (fn ~ /^<down_(even|odd)/); next }
	    inside && /\t(call|jmp) +[0-9a-f]+ <down_(even|odd)>/ {
		if ($0 ~ /\tcall/) { print "call in " fn; bad = 1 } else jumps++ }
	    END { if (bad || jumps < 2) { print jumps + 0, "jumps"; exit 1 } }'
}

for t in sibcall-4 sibcall-9 sibcall-10; do
	src=$dir/$t.c
	if ! gcc -O2 -w "$src" -o "$work/$t.plain" || ! run "" "$work/$t.plain"; then
		bad "$t: the plain -O2 build does not pass"
		continue
	fi
	if gcc -O2 -w -fno-optimize-sibling-calls "$src" -o "$work/$t.nosib" &&
	   run "" "$work/$t.nosib"; then
		bad "$t: passes without sibling calls too: not an oracle"
		continue
	fi
	for mode in $modes; do
		exe=$work/$t.$mode
		build "$t $mode" $mode "$src" "$exe" || continue
		if ! run "" "$exe" "$exe.prof"; then
			bad "$t $mode: fails with ipp (a sibling call was lost)"
			continue
		fi
		check_ipp "$t $mode" "$exe" "$exe.prof" && ok "$t $mode"
	done
done

# deep NAME: NAME.c's million mutual tail calls under a 256 KiB stack, as
# described at the top; deep.c's calls must be jumps in the machine code,
# deepptr.c's (through pointers, kept sibling calls in context mode since
# ABI 7) must give exact arcs in context mode, 500000 each way, counted at
# the call sites before the jumps.
deep() {
	local name=$1 src=$dir/$1.c exe mode
	gcc -O2 -w "$src" -o "$work/$name.plain" &&
		gcc -O2 -w -fno-optimize-sibling-calls "$src" -o "$work/$name.nosib"
	if ! run 256 "$work/$name.plain"; then
		bad "$name: the plain -O2 build does not survive a 256 KiB stack"
		return
	elif run 256 "$work/$name.nosib"; then
		bad "$name: survives a 256 KiB stack without sibling calls: not an oracle"
		return
	fi
	for mode in $modes; do
		exe=$work/$name.$mode
		build "$name $mode" $mode "$src" "$exe" || continue
		if ! run 256 "$exe" "$exe.prof"; then
			bad "$name $mode: does not survive a 256 KiB stack with ipp"
			continue
		fi
		if ! cmp -s "$work/$name.plain.out" "$exe.out"; then
			bad "$name $mode: output differs from the plain build"
			continue
		fi
		if [ $name = deep ] && ! jumps_only "$exe" >"$work/jumps"; then
			bad "$name $mode: the tail calls are not jumps"
			sed 's/^/    /' "$work/jumps"
			continue
		fi
		if [ $name = deepptr ] && [ $mode = context ]; then
			"$ipp" counts --calls "$exe" "$exe.prof" >"$exe.calls" 2>&1
			if ! grep -qx "down_even -> down_odd 500000 .*" "$exe.calls" ||
			   ! grep -qx "down_odd -> down_even 500000 .*" "$exe.calls"; then
				bad "$name $mode: the indirect arcs are not 500000 each way"
				sed 's/^/    /' "$exe.calls"
				continue
			fi
		fi
		check_ipp "$name $mode" "$exe" "$exe.prof" && ok "$name $mode (256 KiB stack)"
	done
}
deep deep
deep deepptr

for name in exitdeep longjmp nonlocal tailcalls; do
	src=$srcdir/testsuite/programs/$name.c
	for mode in $modes; do
		exe=$work/$name.$mode
		build "$name -O2 $mode" $mode "$src" "$exe" || continue
		run "" "$exe" "$exe.prof"
		check_ipp "$name -O2 $mode" "$exe" "$exe.prof" && ok "$name -O2 $mode (ipp check)"
	done
done

if IPP_GCOV_CFLAGS=-O2 bash "$srcdir/testsuite/programs/gcov.sh" \
	"$srcdir/testsuite/programs/tailcalls.c" >"$work/gcov" 2>&1; then
	ok "tailcalls -O2: gcov's function and line counts ($(grep -c '^PASS' "$work/gcov") checks)"
else
	bad "tailcalls -O2: counts differ from gcov's"
	grep -v '^PASS' "$work/gcov" | sed 's/^/    /'
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
