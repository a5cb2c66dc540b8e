#!/bin/bash
# gcov.sh -- gcov as an oracle for the counts derived from a path profile.
#
# For every program in testsuite/programs/ and examples/ (or the C files
# given as arguments: e.g. a sample of GCC's torture tests):
#   1. build it with gcov (gcc -O0 -fno-inline --coverage), run it (stdin
#      /dev/null, in a temporary directory) and take each function's entry
#      count from `gcov -b`: the lines "function NAME called N returned ..."
#      of its .gcov file; and each source line's count;
#   2. build it with ipp at -O0 -fno-inline in every mode of IPP_TEST_MODES
#      (default: intra context), run it the same way, and print
#      `ipp counts --functions` and `ipp counts --vertices`;
#   3. require every function's entry count to equal gcov's exactly.  A
#      function that only one side lists is a failure too (reported by name),
#      except a function the map says ipp does not instrument (a nonlocal
#      goto receiver: named in the PASS line).  Functions are named by their
#      assembler names, as gcov names them (a nested function f is f.0).
#   4. require the count of every source line that lies in a single basic
#      block to equal gcov's exactly (docs/DERIVE.md section 3, "gcov's line
#      counts"): a line is compared when gcov's notes (.gcno) put it in
#      exactly one block, and the map's x-lines key puts it in exactly one
#      segment of ipp's graph -- the statements from a block's head vertex,
#      or from a call's return site, to the next call.  gcov's count of such
#      a line is its block's count; ipp's is the vertex count of the
#      segment's first vertex.  A function's declaration line, which gcov
#      puts in the function's first block, is given to the block that
#      Entry_P leads to.
#   5. require `ipp check` to find the profile valid: every run of these
#      programs is complete (it returns from main or calls exit, no thread
#      left running), so the derived counts conserve flow (docs/DERIVE.md
#      section 4).
# Programs that leave through exit() or longjmp are included on purpose: the
# counts of their partial paths must add up like gcov's counters.
#
# A program given as an argument is skipped (SKIP line, not a failure) if it
# does not build at -O0 even without --coverage, or its gcov build does not
# exit 0 (as in testsuite/torture/: it needs options not given here).
#
# Environment: srcdir, builddir (automake sets them), IPP_TEST_MODES.
# Skips (exit 77) if gcov is missing.
# Prints "N passed, N failed[, N skipped]" and exits non-zero if anything
# failed.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u

srcdir=$(cd "${srcdir:-.}" && pwd)	# absolute: the builds run in a temporary directory
builddir=$(cd "${builddir:-.}" && pwd)
wrap=$builddir/plugin/ipp-gcc-uninstalled
ipp=$builddir/ipp
modes=${IPP_TEST_MODES:-intra context}
work=$(mktemp -d "${TMPDIR:-/tmp}/ipp-gcov.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
skipped_programs=0

ok() { pass=$((pass + 1)); echo "PASS: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

if ! command -v gcov >/dev/null 2>&1; then
	echo "SKIP: gcov not found"
	exit 77
fi

# "NAME COUNT" lines, sorted by name, from a .gcov file (gcov -b).
# With by_line = 1 the count is that of the function's first source line
# instead of "called N": GCC's profiler gives every block a computed goto
# can jump to a fake edge from the function's entry block, so for a
# function with computed gotos "called" is calls + jumps (cgoto.c's run:
# 1 call + 7 jumps = 8), while the count of its first line is the calls.
gcov_entries() {
	awk -v by_line="$2" '
	    $1 == "function" && $3 == "called" {
		if (by_line) { pending = $2; next }
		print $2, $4; next
	    }
	    pending != "" && /^ *[0-9#=-]+\*?:/ {
		split($0, f, ":"); c = f[1]; gsub(/[ *]/, "", c)
		if (c ~ /^#+$|^=+$/) c = 0
		print pending, c; pending = ""
	    }' "$1" | sort
}

# "FILE<TAB>LINE<TAB>BLOCK" for every line of every basic block of a .gcno
# file (GCC 12's format, gcov-io.h: 32-bit little-endian words, lengths in
# bytes, strings as a length in bytes, NUL included, then the bytes): the
# GCOV_TAG_LINES records, BLOCK being "FUNCTION:BLOCK" (the function's
# position in the file, its block number).  What profile.cc writes is every
# statement's line, the function's declaration line in its first block, and
# the line of a goto eliminated into a lone out-edge.
gcno_lines() {
	od -An -v -tu1 "$1" | LC_ALL=C awk '
	function u32(p) { return b[p] + 256 * b[p + 1] + 65536 * b[p + 2] + 16777216 * b[p + 3] }
	function str(p,   len, s, k) {
		len = u32(p)
		for (k = 0; k + 1 < len; k++) s = s sprintf("%c", b[p + 4 + k])
		return s
	}
	{ for (i = 1; i <= NF; i++) b[n++] = $i }
	END {
		if (u32(0) != 1734569583) { print "not a .gcno file" >"/dev/stderr"; exit 1 }
		p = 16; p += 4 + u32(p) + 4	# magic, version, stamp, checksum; cwd; flag
		while (p + 8 <= n) {
			tag = u32(p); end = p + 8 + u32(p + 4); p += 8
			if (tag == 16777216)		# GCOV_TAG_FUNCTION
				fn++
			else if (tag == 21299200) {	# GCOV_TAG_LINES: block, then lines
				blk = u32(p); p += 4	# and (0, file name), (0, "") last
				while (p < end) {
					x = u32(p); p += 4
					if (x != 0) { print file "\t" x "\t" fn ":" blk; continue }
					if (u32(p) == 0) break
					file = str(p); p += 4 + u32(p)
				}
			}
			p = end
		}
	}'
}

# "FILE<TAB>LINE<TAB>COUNT" for every counted line of the .gcov files given.
gcov_line_counts() {
	awk '/^ *-: *0:Source:/ { sub(/^ *-: *0:Source:/, ""); file = $0; next }
	     /^ *([0-9]+|#####|=====)\*?: *[0-9]+:/ {
		split($0, f, ":"); c = f[1]; gsub(/[ *]/, "", c)
		if (c !~ /^[0-9]+$/) c = 0
		l = f[2]; gsub(/ /, "", l)
		print file "\t" l "\t" c
	     }' "$@"
}

# "MODULE<TAB>VERTEX<TAB>FILE<TAB>LINE" from `ipp map`: each line of the
# x-lines key (the segment starting at VERTEX), and each function's
# declaration line, given to the head of its first block.
ipp_segment_lines() {
	awk '
	function unq(s) { if (s ~ /^".*"$/) { s = substr(s, 2, length(s) - 2); gsub(/\\"/, "\"", s); gsub(/\\\\/, "\\", s) } return s }
	function flush(  p) {
		for (p in pline) if (!(p in skipped) && (entry[p] in succ))
			print mod "\t" succ[entry[p]] "\t" files[pfile[p]] "\t" pline[p]
		split("", pline); split("", skipped); split("", entry); split("", succ)
		split("", files); nfiles = 0
	}
	/^---/ { flush(); sect = ""; next }
	/^module: / { mod = unq(substr($0, 9)); next }
	/^[a-z-]+:/ { sect = $1; next }
	!/^- / { next }
	sect == "files:" { files[nfiles++] = unq(substr($0, 3)); next }
	sect == "procs:" {
		s = substr($0, 4); sk = (s ~ /\[[^]]*skipped/); sub(/\[[^]]*\]/, "F", s)
		n = split(s, f, ", ")
		if (f[5] != "null") { pline[f[1]] = f[6]; pfile[f[1]] = f[5] }
		if (sk) skipped[f[1]] = 1
		next
	}
	sect == "vertices:" { split(substr($0, 4), f, ", "); if (f[2] == "entry") entry[f[3]] = f[1]; next }
	sect == "edges:" { s = substr($0, 4); sub(/\]$/, "", s); split(s, f, ", "); succ[f[2]] = f[3]; next }
	sect == "x-lines:" {
		s = substr($0, 4); v = s; sub(/,.*/, "", v); sub(/^[0-9]+, /, "", s)
		l = s; sub(/.*, \[/, "", l); sub(/\]\]$/, "", l); sub(/, \[[0-9, ]*\]\]$/, "", s)
		n = split(l, f, ", ")
		for (i = 1; i <= n; i++) print mod "\t" v "\t" unq(s) "\t" f[i]
	}
	END { flush() }' "$1"
}

# The comparison of line counts.  Inputs: the lines of the .gcno (gcno_lines),
# gcov's line counts (gcov_line_counts), ipp's segment lines
# (ipp_segment_lines) and `ipp counts --vertices`.  Prints one line per
# mismatch "FILE:LINE gcov N, ipp M (vertex V: KIND in FUNCTION)", then
# "C of G lines compared, N not in ipp's graph, S in several of its
# segments": G lines lie in a single block of gcov's graph; N of them in
# no segment of ipp's (functions ipp does not instrument), S in more than
# one (a call ipp splits a block at and gcov does not, a nothrow built-in).
compare_lines() {
	awk -F'\t' '
	FILENAME == ARGV[1] { nb[$1 "\t" $2]++; next }
	FILENAME == ARGV[2] { gcount[$1 "\t" $2] = $3; next }
	FILENAME == ARGV[3] {
		k = $3 "\t" $4; seg = $1 "\t" $2
		if (!((k, seg) in seen)) { seen[k, seg] = 1; nseg[k]++; segof[k] = seg }
		nmod[$1] = 1
		next
	}
	{	# ipp counts --vertices: "# module NAME" when there are several
		if ($0 ~ /^# module /) { mod = substr($0, 10); next }
		if (mod == "") for (m in nmod) mod = m
		n = split($0, f, " ")	# VERTEX KIND FUNCTION FILE:LINE COUNT
		vcount[mod "\t" f[1]] = f[n]; vdesc[mod "\t" f[1]] = f[2] " in " f[3]
	}
	END {
		for (k in nb) {
			if (nb[k] != 1 || !(k in gcount)) continue
			single++
			if (nseg[k] != 1) {
				if (nseg[k] == 0) none++; else several++
				continue
			}
			compared++
			seg = segof[k]
			if (vcount[seg] == gcount[k]) continue
			split(k, fl, "\t"); split(seg, sv, "\t")
			printf "%s:%s gcov %s, ipp %s (vertex %s: %s)\n", fl[1], fl[2], gcount[k],
			       (seg in vcount) ? vcount[seg] : "-", sv[2], vdesc[seg]
		}
		printf "%d of %d lines compared, %d not in ipp'"'"'s graph, %d in several of its " \
		       "segments\n", compared, single, none, several
	}' "$@"
}

if [ $# -gt 0 ]; then
	sources=("$@")
else
	sources=("$srcdir"/testsuite/programs/*.c "$srcdir"/examples/*.c)
fi
for src in "${sources[@]}"; do
	[ -f "$src" ] || continue	# a pattern that matched nothing
	src=$(cd "$(dirname "$src")" && pwd)/$(basename "$src")
	name=$(basename "$src" .c)
	dir=$work/$(basename "$(dirname "$src")")-$name
	mkdir -p "$dir/gcov"

	# 1. gcov: compile to an object so that the notes are DIR/NAME.gcno
	# the program's own flags (ipp-cflags); atomic counters where threads run
	cflags=$(sed -n 's/.*ipp-cflags: *//p' "$src")
	gflags=$cflags
	case " $cflags " in *" -pthread "*) gflags="$cflags -fprofile-update=atomic" ;; esac
	if ! gcc -O0 -fno-inline -w $gflags --coverage -c "$src" -o "$dir/gcov/$name.o" \
	     2>"$work/err" ||
	   ! gcc $gflags --coverage "$dir/gcov/$name.o" -o "$dir/gcov/$name" 2>"$work/err"; then
		if ! gcc -O0 -fno-inline -w $gflags "$src" -o "$dir/plain" 2>/dev/null; then
			# e.g. a torture test that needs the optimizer to drop a call
			echo "SKIP: $name: does not build at -O0, even without --coverage"
			skipped_programs=$((skipped_programs + 1))
			continue
		fi
		bad "$name: does not compile with --coverage"
		sed 's/^/    /' "$work/err"
		continue
	fi
	(cd "$dir/gcov" && timeout 20 "./$name" >/dev/null 2>&1 </dev/null)
	status=$?
	if [ $# -gt 0 ] && [ "$status" -ne 0 ]; then
		# a program named on the command line (a torture test) must exit
		# 0, as in testsuite/torture/: otherwise it needs options we do
		# not give it, or does not apply here
		echo "SKIP: $name: exits with status $status at -O0"
		skipped_programs=$((skipped_programs + 1))
		continue
	fi
	if ! (cd "$dir/gcov" && gcov -b -o "$dir/gcov" "$src" >/dev/null 2>"$work/err") ||
	   ! ls "$dir"/gcov/*.gcov >/dev/null 2>&1; then
		bad "$name: gcov failed"
		sed 's/^/    /' "$work/err"
		continue
	fi
	by_line=0
	grep -q "goto *\*" "$src" && by_line=1	# computed gotos: see gcov_entries
	# every .gcov file: a program may #include another file's functions
	cat "$dir"/gcov/*.gcov >"$dir/all.gcov"
	gcov_entries "$dir/all.gcov" "$by_line" >"$dir/want"
	gcov_line_counts "$dir"/gcov/*.gcov >"$dir/gcov.lines"
	if ! gcno_lines "$dir/gcov/$name.gcno" >"$dir/gcno.lines" 2>"$work/err"; then
		bad "$name: cannot read $name.gcno"
		sed 's/^/    /' "$work/err"
		continue
	fi

	# 2. and 3. ipp, per mode
	for mode in $modes; do
		t="$name $mode"
		exe=$dir/$name.$mode
		prof=$dir/$name.$mode.prof
		if ! "$wrap" -O0 -fno-inline -w $cflags -fplugin-arg-ipp-mode=$mode "$src" -o "$exe" \
		     2>"$work/err"; then
			bad "$t: does not compile with ipp"
			sed 's/^/    /' "$work/err"
			continue
		fi
		(cd "$dir" && IPP_PROFILE=$prof timeout 20 "$exe" >/dev/null 2>&1 </dev/null)
		if ! "$ipp" counts --functions --format=yaml "$exe" "$prof" >"$exe.counts" \
		     2>"$work/err" ||
		   ! "$ipp" map "$exe" >"$exe.map" 2>>"$work/err"; then
			bad "$t: ipp counts or ipp map failed"
			sed 's/^/    /' "$work/err"
			continue
		fi
		# "ASM_NAME ENTRIES" of every instrumented function
		sed -n 's/.* asm_name: \([^,]*\),.* entries: \([0-9]*\),.*/\1 \2/p' "$exe.counts" |
			sed 's/^"\(.*\)" /\1 /' | sort >"$exe.got"
		# the functions ipp does not instrument (flag "skipped" in the map)
		skipped=$(sed -n 's/^- \[[0-9]*, [^,]*, \([^,]*\), \[[^]]*skipped[^]]*\],.*/\1/p' \
			"$exe.map" | sed 's/^"\(.*\)"$/\1/' | sort | tr '\n' ' ')
		# one line per function: "NAME gcov=N ipp=M", a missing side "-"
		join -a1 -a2 -e - -o 0,1.2,2.2 "$dir/want" "$exe.got" |
			awk -v skipped=" $skipped" 'index(skipped, " " $1 " ") == 0' >"$exe.cmp"
		nf=$(wc -l <"$exe.cmp")
		if awk '$2 != $3 { exit 1 }' "$exe.cmp"; then
			ok "$t ($nf functions: $(awk '{ printf "%s%s=%s", (NR > 1 ? " " : ""), $1, $2 }' \
				"$exe.cmp")${skipped:+; not instrumented: ${skipped% }})"
		else
			bad "$t: function entry counts differ from gcov's"
			awk '$2 != $3 { print "    " $1 ": gcov " $2 ", ipp " $3 }' "$exe.cmp"
		fi

		# 4. line counts
		if ! "$ipp" counts --vertices "$exe" "$prof" >"$exe.vertices" 2>"$work/err"; then
			bad "$t: ipp counts --vertices failed"
			sed 's/^/    /' "$work/err"
			continue
		fi
		ipp_segment_lines "$exe.map" >"$exe.seglines"
		compare_lines "$dir/gcno.lines" "$dir/gcov.lines" "$exe.seglines" "$exe.vertices" \
			>"$exe.lines"
		summary=$(tail -n 1 "$exe.lines")
		# a failure: a mismatch, or no line compared out of some (the two
		# sides do not name the same files?)
		if [ "$(wc -l <"$exe.lines")" -eq 1 ] && ! grep -q '^0 of [1-9]' "$exe.lines"; then
			ok "$t ($summary)"
		else
			bad "$t: line counts differ from gcov's ($summary)"
			sed '$d; s/^/    /' "$exe.lines"
		fi

		# 5. flow conservation
		if "$ipp" check "$exe" "$prof" >"$exe.check" 2>&1; then
			ok "$t (ipp check: $(tail -n 1 "$exe.check"))"
		else
			bad "$t: ipp check finds the profile invalid"
			sed 's/^/    /' "$exe.check"
		fi
	done
done
if [ "$skipped_programs" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skipped_programs skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
