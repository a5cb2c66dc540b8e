#!/bin/bash
# run.sh -- the plugin compiles what once crashed it, and -g changes
# neither its map nor the code.  Part of `make check'.
#
# In every mode the plugin accepts (probed as the torture harness does),
# at -O0 and -O2:
#   1. each source here with "ipp-expect-skipped" / "ipp-expect-instrumented"
#      lines (a call named setjmp without a jump buffer: knr-setjmp.c,
#      user-setjmp.c, named-setjmp.c; a __builtin_return: builtin-return.c;
#      a call before an empty infinite loop: tail-empty-loop.c; 2^70
#      paths after a call that never returns: spin-return.c)
#      compiles with the plugin, and its map
#      (`ipp map`) says what the lines say:
#         ipp-expect-skipped: FUNC: WORD     FUNC is flagged skipped and its
#                                            skip reason mentions WORD
#         ipp-expect-instrumented: FUNC      FUNC is instrumented (no skipped
#                                            flag, no skip reason)
#   2. debug.c (inlining, loops, calls) built without -g, with -g and with
#      -g -gstatement-frontiers gives byte-identical .ipp_map sections
#      (objcopy --dump-section), and compiles with -fcompare-debug (GCC
#      builds it with and without -g and fails if the generated code
#      differs).  -gstatement-frontiers is what -g implies when optimizing:
#      the debug markers (# DEBUG BEGIN_STMT) that once gave the plugin's
#      blocks other lines with -g; at -O0 they must be asked for.
#   3. every program of testsuite/programs and examples passes GCC's
#      -fchecking with -fno-tree-dce;
#   4. and warns at -O0 with -Wlarger-than=8 exactly as its plain build does;
#   5. inline-sizes.c inlines at -O2 the call sites its plain build inlines
#      (-fplugin-arg-ipp-inline-as-plain);
#   6. setjmp-inline.c runs as its plain build does;
#   7. the runtime's thread-locals are local-exec in code for executables
#      (-fPIE, -fno-pie), GCC's default in shared objects' (-fPIC);
#   8. increments on chords change the code and the increments run, never
#      the profile: fig4.c and exitdeep.c (partial paths at exit()) built
#      with and without -fplugin-arg-ipp-chords=no (intra and context
#      mode) give the same `ipp profile` text, byte for byte, never more
#      increments of the register (`ipp counts --events`), and at -O2
#      fewer in each mode over both programs.
#   9. slots change the code, never the profile: slots.c (intra
#      mode, -O0 and -O2), built with and without
#      -fplugin-arg-ipp-slots=no, has a slots table only with them (nm),
#      and each way of leaving its inlined copies (exit(), abort(),
#      SIGSEGV, longjmp, a failed execv, exit() from a callee,
#      pthread_exit(), exit() from a frameless callee) gives the
#      same output, exit status and `ipp profile` text, byte for byte,
#      and a profile `ipp check` accepts; and `ipp counts --events`
#      derives the copies' slot activations from the map's `slot` call
#      flags: frames with slots + slots = frames without, slots > 0.
#  10. bare calls change the code, never the profile: bare.c (intra mode,
#      -O0 and -O2), built with and without -fplugin-arg-ipp-bare-calls=no,
#      has a larger restarts table with them (nm: the numbers of the bare
#      calls), and each way of stopping at a bare call (exit(), abort(),
#      SIGSEGV, longjmp, a fault in a frameless callee, a stack overflow
#      in a bare recursive call, exit() and abort() from a frameless
#      callee) gives the same output, exit status and `ipp profile` text,
#      byte for byte (but for the depth the overflow reached), and a
#      profile `ipp check` accepts; and `ipp counts --events` derives the
#      bare calls from the map's `bare` call flags: as many checkpoints at
#      calls either way, some of them bare only with bare calls.
# Everything is built in a temporary directory, removed at the end.
#
# Environment: srcdir, builddir (automake sets them); the IPP_* variables
# of ../torture/common.sh (IPP_MODES restricts the modes).
# Prints one line per check and "N passed, N failed"; exits 1 if a check
# failed, 99 if it could not run (no plugin, no ipp, no objcopy).
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).

set -u
HARNESS_NAME=compile
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../torture/common.sh"

ipp_resolve_tools
command -v objcopy >/dev/null || die "objcopy (binutils) is missing"
work=$(mktemp -d "${TMPDIR:-/tmp}/ipp-compile.XXXXXX")
trap 'rm -rf "$work"' EXIT
ipp_probe_modes "$work/probe"
levels="-O0 -O2"
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "PASS: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# compile LOG OBJ FLAGS...: compile with the plugin into OBJ; on failure
# prints the reason (an ICE, a crash, an error) and the first lines of LOG.
compile() {
	local log=$1 obj=$2 st=0
	shift 2
	ipp_cc "$@" -c -o "$obj" >"$log" 2>&1 || st=$?
	[ "$st" = 0 ] && return 0
	echo "    $(build_failure_reason "$log" "$st" none)"
	sed -n '1,10s/^/    | /p' "$log"
	return 1
}

# proc_of MAP FUNC: "FLAGS<TAB>REASON" of the procedure FUNC in the YAML
# map MAP, one line per procedure record of that name.  A record is
# "- [id, name, asm-name, [flags], file, line, skip-reason]"
# (docs/FORMAT.md), one per line as the plugin writes it.
proc_of() {
	awk -v fn="$2" '
		/^procs:/ { on = 1; next }
		/^[^- ]/ { on = 0 }
		on && /^- \[/ {
			rec = $0
			sub(/^- \[/, "", rec)
			sub(/\]$/, "", rec)
			split(rec, f, ", ")
			if (f[2] != fn) next
			match(rec, /\[[^]]*\]/)
			flags = substr(rec, RSTART + 1, RLENGTH - 2)
			reason = substr(rec, RSTART + RLENGTH)
			sub(/^, [^,]*, [^,]*, /, "", reason)
			print flags "\t" reason
		}' "$1"
}

# expect_map SRC MAP: the ipp-expect-* lines of SRC against MAP; prints
# each difference and returns 1 if there is one.
expect_map() {
	local src=$1 map=$2 rc=0 want fn word rec flags reason skipped
	while read -r want fn word; do
		rec=$(proc_of "$map" "$fn")
		flags=${rec%%$'\t'*}
		reason=${rec#*$'\t'}
		skipped=no
		[[ ", $flags, " != *", skipped, "* ]] || skipped=yes
		if [ -z "$rec" ] || [ "$(printf '%s\n' "$rec" | wc -l)" != 1 ]; then
			echo "    $fn: not exactly one procedure record in the map"
			rc=1
		elif [ "$want" = skipped ] && { [ $skipped = no ] || [[ $reason != *"$word"* ]]; }; then
			echo "    $fn: expected skipped with a reason mentioning '$word'; the map says flags [$flags], reason $reason"
			rc=1
		elif [ "$want" = instrumented ] && { [ $skipped = yes ] || [ "$reason" != null ]; }; then
			echo "    $fn: expected instrumented; the map says flags [$flags], reason $reason"
			rc=1
		fi
	done < <(sed -n -e 's/.*ipp-expect-\(skipped\): *\([A-Za-z_0-9]*\): *\([^ ]*\).*/\1 \2 \3/p' \
		-e 's/.*ipp-expect-\(instrumented\): *\([A-Za-z_0-9]*\).*/\1 \2/p' "$src")
	return $rc
}

## 1. Calls named setjmp without a jump buffer.
for src in "$here"/*.c; do
	grep -q 'ipp-expect-\(skipped\|instrumented\):' "$src" || continue
	name=$(basename "$src" .c)
	for O in $levels; do
		for m in $IPP_MODES; do
			t="$name $O $m"
			d=$work/$name$O.$m
			mkdir -p "$d"
			if ! out=$(compile "$d/cc.log" "$d/obj.o" -fplugin-arg-ipp-mode="$m" "$O" -w "$src"); then
				bad "$t: does not compile with the plugin"
				echo "$out"
				continue
			fi
			if ! "$IPP_TOOL" map "$d/obj.o" >"$d/map.yaml" 2>"$d/map.err"; then
				bad "$t: ipp map failed"
				sed 's/^/    /' "$d/map.err"
				continue
			fi
			if ! out=$(expect_map "$src" "$d/map.yaml"); then
				bad "$t: the map differs from the annotations"
				echo "$out"
				continue
			fi
			ok "$t (compiles; map as annotated)"
		done
	done
done

## 2. -g changes neither the map nor the code.
src=$here/debug.c
for O in $levels; do
	for m in $IPP_MODES; do
		t="debug $O $m"
		d=$work/debug$O.$m
		mkdir -p "$d"
		flags=(-fplugin-arg-ipp-mode="$m" "$O" "$src")
		if ! out=$(compile "$d/n.log" "$d/n.o" "${flags[@]}") ||
			! out=$(compile "$d/g.log" "$d/g.o" -g "${flags[@]}") ||
			! out=$(compile "$d/s.log" "$d/s.o" -g -gstatement-frontiers "${flags[@]}"); then
			bad "$t: does not compile with the plugin"
			echo "$out"
			continue
		fi
		ok=1
		for v in n g s; do
			objcopy --dump-section .ipp_map="$d/$v.map" "$d/$v.o" "$d/$v.tmp" 2>>"$d/oc.err" || ok=0
		done
		if [ "$ok" = 0 ]; then
			bad "$t: no .ipp_map section"
			sed 's/^/    /' "$d/oc.err"
			continue
		fi
		# Not vacuous: the map describes work(), with its loops and calls.
		if ! grep -q '^- \[[0-9]*, work, ' "$d/n.map"; then
			bad "$t: the map has no procedure work"
			continue
		fi
		for v in g s; do
			cmp -s "$d/n.map" "$d/$v.map" && continue
			ok=0
			bad "$t: the .ipp_map sections of the plain and the -g$([ $v = s ] && echo ' -gstatement-frontiers') build differ"
			{ diff "$d/n.map" "$d/$v.map" || true; } | sed -n '1,12s/^/    | /p'
		done
		[ "$ok" = 1 ] || continue
		if ! out=$(compile "$d/cd.log" "$d/cd.o" -fcompare-debug "${flags[@]}") ||
			grep -q 'compare-debug' "$d/cd.log"; then
			bad "$t: -fcompare-debug fails with the plugin"
			[ -n "${out:-}" ] && echo "$out"
			sed -n '1,10s/^/    | /p' "$d/cd.log"
			continue
		fi
		ok "$t (maps of the plain, -g and -g -gstatement-frontiers builds identical, $(wc -c <"$d/n.map") bytes; -fcompare-debug passes)"
	done
done

## 3. The instrumented GIMPLE is valid as GCC checks it (-fchecking), also
## where no dead-code elimination follows to remove what the pass left:
## every program of testsuite/programs and examples, -fno-tree-dce.
## (A conversion left as an operand of a dead statement, gcc.dg
## pr100414.c, and the calls to a pure function, which needed a memory
## definition once the function was instrumented, constcall.c, failed.)
for O in $levels; do
	for m in $IPP_MODES; do
		t="checking $O $m"
		d=$work/checking$O.$m
		mkdir -p "$d"
		n=0 failed=0
		for src in "$here"/../programs/*.c "$here"/../../examples/*.c; do
			[ -f "$src" ] || continue
			n=$((n + 1))
			name=$(basename "$src" .c)
			if ! out=$(compile "$d/$name.log" "$d/$name.o" -fplugin-arg-ipp-mode="$m" \
				"$O" -w -fchecking -fno-tree-dce $(sed -n 's/.*ipp-cflags: *//p' "$src") "$src"); then
				bad "$t: $name fails GCC's checking"
				echo "$out"
				failed=1
			fi
		done
		[ "$failed" = 0 ] && ok "$t ($n programs, -fchecking -fno-tree-dce)"
	done
done

## 4. -Wlarger-than=8 reports what the user wrote, never the pass's own
## variables (frames, the region table, rows, names: gcc.dg's
## Wlarger-than2.c once also reported __ipp_regions_*): every program of
## testsuite/programs and examples gives the same warnings instrumented as
## plain.  Not vacuous: the programs' own objects are reported both ways.
## At -O0 only: optimized builds also report the optimizers' temporaries
## (vect_*, numbered constants), which differ with any change of the code.
larger_warnings() {
	grep -o 'warning: size of .*' "$1" | sed 's/\*\.LC[0-9]*/*.LC/' | sort
}
for O in -O0; do
	for m in $IPP_MODES; do
		t="larger-than $O $m"
		d=$work/larger$O.$m
		mkdir -p "$d"
		n=0 failed=0 warned=0
		for src in "$here"/../programs/*.c "$here"/../../examples/*.c; do
			[ -f "$src" ] || continue
			name=$(basename "$src" .c)
			extra=$(sed -n 's/.*ipp-cflags: *//p' "$src")
			# shellcheck disable=SC2086
			$IPP_CC "$O" -Wlarger-than=8 $extra -c -o "$d/$name.plain.o" "$src" >"$d/$name.plain.log" 2>&1 || continue
			n=$((n + 1))
			# shellcheck disable=SC2086
			if ! out=$(compile "$d/$name.log" "$d/$name.o" -fplugin-arg-ipp-mode="$m" \
				"$O" -Wlarger-than=8 $extra "$src"); then
				bad "$t: $name does not compile with the plugin"
				echo "$out"
				failed=1
				continue
			fi
			[ -n "$(larger_warnings "$d/$name.plain.log")" ] && warned=$((warned + 1))
			if ! cmp -s <(larger_warnings "$d/$name.plain.log") <(larger_warnings "$d/$name.log"); then
				bad "$t: $name: -Wlarger-than=8 warns differently instrumented"
				{ diff <(larger_warnings "$d/$name.plain.log") <(larger_warnings "$d/$name.log") || true; } |
					sed -n '1,8s/^/    | /p'
				failed=1
			fi
		done
		if [ "$failed" = 0 ] && [ "$warned" = 0 ]; then
			bad "$t: no program warned plain: the check would be vacuous"
		elif [ "$failed" = 0 ]; then
			ok "$t ($n programs, $warned with warnings of their own, the same instrumented)"
		fi
	done
done

## 5. With -fplugin-arg-ipp-inline-as-plain the ipp build inlines what the
## plain build inlines (plugin/sizes.cc tells GCC's IPA inliner the
## program's sizes, not the instrumented ones): inline-sizes.c at -O2, the
## call sites either inliner took (early or IPA,
## -fopt-info-inline-optimized), by line, column and callee.  Without the
## option digits(), which has a loop, stays out of line.
inlined_sites() {
	grep -E 'optimized: +Inlin(ed|ing) ' "$1" |
		sed -E 's/^[^:]*:([0-9]+:[0-9]+): .*Inlin(ed|ing) ([^ /.]+).*/\1 \3/' | sort -u
}
src=$here/inline-sizes.c
d=$work/sizes
mkdir -p "$d"
if ! $IPP_CC -O2 -c -o "$d/plain.o" -fopt-info-inline-optimized="$d/plain.txt" "$src" >"$d/plain.log" 2>&1; then
	bad "inline-sizes: the plain build fails"
elif ! grep -q ' digits$' <(inlined_sites "$d/plain.txt"); then
	bad "inline-sizes: plain GCC no longer inlines digits(): the check would be vacuous"
else
	for m in $IPP_MODES; do
		t="inline-sizes -O2 $m"
		if ! out=$(compile "$d/$m.log" "$d/$m.o" -fplugin-arg-ipp-mode="$m" -O2 \
			-fplugin-arg-ipp-inline-as-plain \
			-fopt-info-inline-optimized="$d/$m.txt" "$src"); then
			bad "$t: does not compile with the plugin"
			echo "$out"
		elif cmp -s <(inlined_sites "$d/plain.txt") <(inlined_sites "$d/$m.txt"); then
			ok "$t ($(inlined_sites "$d/plain.txt" | wc -l) call sites inlined, as plain)"
		else
			bad "$t: inlines other call sites than plain (< plain, > ipp)"
			{ diff <(inlined_sites "$d/plain.txt") <(inlined_sites "$d/$m.txt") || true; } |
				sed -n '1,8s/^/    | /p'
		fi
	done
fi

## 6. setjmp-inline.c runs as its plain build does (output and exit status),
## at -O0 and -O2 in every mode: a body inlined into a function that calls
## __builtin_setjmp keeps the abnormal edges of its calls.
src=$here/setjmp-inline.c
d=$work/setjmp-inline
mkdir -p "$d"
if ! $IPP_CC -O2 -o "$d/plain" "$src" >"$d/plain.log" 2>&1; then
	bad "setjmp-inline: the plain build fails"
else
	want=$("$d/plain" 2>&1; echo "exit $?")
	for O in $levels; do
		for m in $IPP_MODES; do
			t="setjmp-inline $O $m"
			if ! ipp_cc -fplugin-arg-ipp-mode="$m" "$O" -o "$d/ipp$O.$m" "$src" >"$d/$m$O.log" 2>&1; then
				bad "$t: does not build with the plugin"
				sed -n '1,10s/^/    | /p' "$d/$m$O.log"
				continue
			fi
			got=$(cd "$d" && IPP_PROFILE="$d/$m$O.prof" "./ipp$O.$m" 2>&1; echo "exit $?")
			if [ "$got" = "$want" ]; then
				ok "$t (runs as plain: $(echo $want))"
			else
				bad "$t: plain: $(echo $want); ipp: $(echo $got)"
			fi
		done
	done
fi

## 7. The thread-locals the inserted code reads and writes (__ipp_top,
## __ipp_path) are local-exec in code for an executable (-fPIE,
## -fno-pie: the runtime is linked into it, so each access is one
## %fs:OFFSET operand, relocation R_X86_64_TPOFF32) and keep GCC's default
## in a shared object's (-fPIC: general dynamic, R_X86_64_TLSGD, which
## works under dlopen).  The executables run as plain.
src=$here/../../examples/fig4.c
d=$work/tls
mkdir -p "$d"
# tls_relocs OBJ: the relocation types against the runtime's thread-locals
tls_relocs() {
	readelf -rW "$1" | awk '$5 ~ /^__ipp_(top|path)$/ { print $3 }' | sort -u | tr '\n' ' '
}
if ! $IPP_CC -O2 -o "$d/plain" "$src" >"$d/plain.log" 2>&1; then
	bad "tls: the plain build fails"
else
	want=$("$d/plain" 2>&1; echo "exit $?")
	for m in $IPP_MODES; do
		for pic in -fPIE -fno-pie -fPIC; do
			t="tls $m $pic"
			case $pic in
			-fPIC) expect="R_X86_64_TLSGD " ;;
			*) expect="R_X86_64_TPOFF32 " ;;
			esac
			if ! ipp_cc -fplugin-arg-ipp-mode="$m" -O2 $pic -c -o "$d/$m$pic.o" "$src" >"$d/$m$pic.log" 2>&1; then
				bad "$t: does not build with the plugin"
				sed -n '1,10s/^/    | /p' "$d/$m$pic.log"
				continue
			fi
			got=$(tls_relocs "$d/$m$pic.o")
			if [ "$got" != "$expect" ]; then
				bad "$t: relocations against the runtime's thread-locals: '$got', want '$expect'"
				continue
			fi
			if [ "$pic" = -fPIC ]; then
				ok "$t ($got)"
				continue
			fi
			case $pic in -fno-pie) lf=-no-pie ;; *) lf=-pie ;; esac
			if ! ipp_cc $lf -o "$d/$m$pic" "$d/$m$pic.o" >>"$d/$m$pic.log" 2>&1; then
				bad "$t: does not link ($lf)"
				sed -n '1,10s/^/    | /p' "$d/$m$pic.log"
				continue
			fi
			run=$(cd "$d" && IPP_PROFILE="$d/$m$pic.prof" "./$m$pic" 2>&1; echo "exit $?")
			if [ "$run" != "$want" ]; then
				bad "$t: plain: $(echo $want); ipp: $(echo $run)"
			elif ! "$IPP_TOOL" check "$d/$m$pic" "$d/$m$pic.prof" >"$d/$m$pic.check" 2>&1; then
				bad "$t: ipp check fails"
				sed -n '1,10s/^/    | /p' "$d/$m$pic.check"
			else
				ok "$t ($got; runs as plain, ipp check passes)"
			fi
		done
	done
fi

## 8. Increments on chords (docs/NUMBERING.md section 9) are a placement
## of the same sums: with -fplugin-arg-ipp-chords=no the register adds
## rho on every edge instead.  The profiles must be the same, partial
## paths included (the runtime subtracts each frame's offset); the runs
## never make more increments with chords, and at -O2, where GCC
## estimates the edge counts, fewer in each mode over the two programs
## (fig4.c's context-mode increments are all in continuing clones, which
## keep rho): so the option did change the code.
d=$work/chords
mkdir -p "$d"
declare -A inc_yes inc_no
for src in "$here/../../examples/fig4.c" "$here/../programs/exitdeep.c"; do
	b=$(basename "$src" .c)
	for m in $IPP_MODES; do
		for lv in $levels; do
			t="chords $b $m $lv"
			for c in yes no; do
				exe=$d/$b-$m$lv-$c
				if ! ipp_cc -fplugin-arg-ipp-mode="$m" -fplugin-arg-ipp-chords=$c $lv \
					-o "$exe" "$src" >"$exe.log" 2>&1; then
					echo "    chords=$c:" >>"$d/$b.fail"
					sed -n '1,10s/^/    | /p' "$exe.log" >>"$d/$b.fail"
					continue
				fi
				(cd "$d" && IPP_PROFILE="$exe.prof" "$exe" >"$exe.out" 2>&1)
				"$IPP_TOOL" profile "$exe.prof" >"$exe.txt" 2>&1
				"$IPP_TOOL" counts --events "$exe" "$exe.prof" 2>/dev/null |
					awk '$1 == "increments" { print $2 }' >"$exe.inc"
			done
			y=$d/$b-$m$lv-yes
			n=$d/$b-$m$lv-no
			if [ -s "$d/$b.fail" ] || [ ! -s "$y.txt" ] || [ ! -s "$n.txt" ]; then
				bad "$t: a build or its profile failed"
				cat "$d/$b.fail" 2>/dev/null
				rm -f "$d/$b.fail"
			elif ! cmp -s "$y.txt" "$n.txt" || ! cmp -s "$y.out" "$n.out"; then
				bad "$t: the profile (or the output) differs with -fplugin-arg-ipp-chords=no"
				diff "$n.txt" "$y.txt" | sed -n '1,10s/^/    | /p'
			elif ! "$IPP_TOOL" check "$y" "$y.prof" >"$y.check" 2>&1; then
				bad "$t: ipp check fails"
				sed -n '1,10s/^/    | /p' "$y.check"
			elif ! [ "$(cat "$y.inc")" -le "$(cat "$n.inc")" ]; then
				bad "$t: $(cat "$y.inc") increments with chords, $(cat "$n.inc") without"
			else
				ok "$t (same profile; increments $(cat "$y.inc") with chords, $(cat "$n.inc") without)"
				if [ "$lv" = -O2 ]; then
					inc_yes[$m]=$(( ${inc_yes[$m]:-0} + $(cat "$y.inc") ))
					inc_no[$m]=$(( ${inc_no[$m]:-0} + $(cat "$n.inc") ))
				fi
			fi
		done
	done
done
for m in $IPP_MODES; do
	if [ "${inc_yes[$m]:-0}" -lt "${inc_no[$m]:-0}" ]; then
		ok "chords $m -O2: ${inc_yes[$m]} increments with chords, ${inc_no[$m]} without"
	else
		bad "chords $m -O2: ${inc_yes[$m]:-?} increments with chords, ${inc_no[$m]:-?} without: not fewer"
	fi
done

## Parts 9 and 10 build one program with an option on and off (intra
## mode), run it every way it can stop and want the same profile.
# build_both STEM SOURCE OPTION LEVEL: STEM-yes and STEM-no, built with
# -fplugin-arg-ipp-OPTION=yes and =no; fails if either build does
build_both() {
	local c exe ok=0
	for c in yes no; do
		exe=$1-$c
		if ! ipp_cc -fplugin-arg-ipp-mode=intra -fplugin-arg-ipp-$3=$c $4 -o "$exe" \
			"$here/$2" >"$exe.log" 2>&1; then
			bad "$2 $4: the build with $3=$c failed"
			sed -n '1,10s/^/    | /p' "$exe.log"
			ok=1
		fi
	done
	return $ok
}
# same_profiles STEM OPTION LABEL CANON ARGS...: runs STEM-yes and STEM-no
# with ARGS and wants the same output, exit status and `ipp profile` text
# (through the filter CANON), and a profile of STEM-yes that `ipp check`
# accepts
same_profiles() {
	local stem=$1 opt=$2 t=$3 canon=$4 c exe st
	shift 4
	for c in yes no; do
		exe=$stem-$c
		rm -f "$exe.prof"
		st=0
		(cd "$(dirname "$stem")" && IPP_PROFILE="$exe.prof" "$exe" "$@" >"$exe.out" 2>&1) \
			2>/dev/null || st=$?
		echo "exit status $st" >>"$exe.out"
		"$IPP_TOOL" profile "$exe.prof" 2>&1 | $canon >"$exe.txt"
	done
	if ! cmp -s "$stem-yes.txt" "$stem-no.txt" || ! cmp -s "$stem-yes.out" "$stem-no.out"; then
		bad "$t: the profile (or the output) differs with -fplugin-arg-ipp-$opt=no"
		diff "$stem-no.txt" "$stem-yes.txt" | sed -n '1,10s/^/    | /p'
		diff "$stem-no.out" "$stem-yes.out" | sed -n '1,4s/^/    | /p'
	elif ! "$IPP_TOOL" check "$stem-yes" "$stem-yes.prof" >"$stem-yes.check" 2>&1; then
		bad "$t: ipp check fails"
		sed -n '1,10s/^/    | /p' "$stem-yes.check"
	else
		ok "$t (same profile, $(grep -c '^  - \[' "$stem-yes.txt") records)"
	fi
}
# ev PROG EVENT: EVENT's count in `ipp counts --events` of PROG's profile
ev() { "$IPP_TOOL" counts --events "$1" "$1.prof" 2>/dev/null | awk -v k="$2" '$1 == k { print $2 }'; }
case " $IPP_MODES " in *" intra "*) intra_levels=$levels ;; *) intra_levels= ;; esac

## 9. Slots (ipp_abi.h, struct ipp_rt_slot): an intra-mode copy keeps its
## checkpoints in a slot of its function's frames, which the runtime links
## before it reads the list; without slots it pushes a frame of its own.
## The partial paths must be the same, whichever way the copies are left
## (slots.c's HOW WHEN arguments: see its comment).
d=$work/slots
mkdir -p "$d"
for lvs in $intra_levels; do
	lv=${lvs//,/ }
	build_both "$d/slots$lvs" slots.c slots "$lv" || continue
	if ! nm "$d/slots$lvs-yes" | grep -q ' __ipp_slots_' ||
	   nm "$d/slots$lvs-no" | grep -q ' __ipp_slots_'; then
		bad "slots $lv: a slots table with -fplugin-arg-ipp-slots=no, or none without"
		continue
	fi
	for end in "0 0" "1 3" "1 7" "2 5" "3 9" "4 6" "4 14" "5 4" "6 8" "6 2" "7 8" "8 5" "9 3" "9 11" "10 7"; do
		same_profiles "$d/slots$lvs" slots "slots $lv: ${end% *} at call ${end#* }" cat $end
		if [ "$end" = "0 0" ]; then
			y=$d/slots$lvs-yes
			n=$d/slots$lvs-no
			fy=$(ev "$y" frames); sy=$(ev "$y" slots); fn=$(ev "$n" frames); sn=$(ev "$n" slots)
			if [ -n "$fy" ] && [ -n "$sy" ] && [ "${sy:-0}" -gt 0 ] && [ "$sn" = 0 ] &&
			   [ $((fy + sy)) = "$fn" ]; then
				ok "slots $lv: events: $fy frames + $sy slots with slots, $fn frames without"
			else
				bad "slots $lv: events: frames $fy, slots $sy with slots; frames $fn, slots $sn without"
			fi
		fi
	done
done

## 10. Bare calls (ipp_abi.h, IPP_VERTEX_RESTART; docs/PROTOCOL.md, "Bare
## calls"): a call's checkpoint stores its vertex alone where its number is
## a constant, which the module's restarts table gives.  The partial paths
## must be the same (bare.c's HOW WHEN arguments: see its comment).
d=$work/bare
mkdir -p "$d"
# restarts_size PROG: the size of PROG's restarts table (nm), or 0
restarts_size() {
	local s
	s=$(nm -S "$1" | awk '$4 ~ /^__ipp_restarts_/ { print $2; exit }')
	echo $((16#${s:-0}))
}
# canon_bare: the `ipp profile` text without the depth of deep()'s pending
# frames (how far a stack overflow got: the stack's place is random) and
# without the digest
canon_bare() { sed -E -e 's/^(  - \[deep, [0-9]+, \[[0-9]+\], )[0-9]+\]$/\1N]/' -e '/^digest:/d'; }
for lvs in $intra_levels; do
	lv=${lvs//,/ }
	build_both "$d/bare$lvs" bare.c bare-calls "$lv" || continue
	ry=$(restarts_size "$d/bare$lvs-yes"); rn=$(restarts_size "$d/bare$lvs-no")
	if [ "$ry" -gt "$rn" ]; then
		ok "bare $lv: restarts table of $ry bytes with bare calls, $rn without"
	else
		bad "bare $lv: restarts table of $ry bytes with bare calls, $rn without: not larger"
	fi
	for end in "0 0" "1 1" "1 3" "2 2" "3 1" "3 6" "4 1" "4 5" "5 0" "6 0" "7 1" "7 4" "8 1" "8 3"; do
		same_profiles "$d/bare$lvs" bare-calls "bare $lv: $end" canon_bare $end
		if [ "$end" = "0 0" ]; then
			y=$d/bare$lvs-yes
			n=$d/bare$lvs-no
			fy=$(ev "$y" calls_framed); by=$(ev "$y" calls_bare)
			fn=$(ev "$n" calls_framed); bn=$(ev "$n" calls_bare)
			if [ -n "$fy" ] && [ "$fy" = "$fn" ] && [ "${by:-0}" -gt 0 ] && [ "$bn" = 0 ]; then
				ok "bare $lv: events: $fy checkpoints at calls, $by bare with bare calls, none without"
			else
				bad "bare $lv: events: calls_framed $fy, calls_bare $by with bare calls; $fn, $bn without"
			fi
		fi
	done
done

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
