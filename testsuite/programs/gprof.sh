#!/bin/bash
# gprof.sh -- gprof as an oracle for the call arcs derived from a path
# profile (issue 4/5: "equal gprof's arcs ... for arcs whose caller is
# inside the executable").
#
# For every single-threaded program in testsuite/programs/ and examples/:
#   1. build it with gcc -pg -O0 -fno-inline, run it, and read the arcs
#      caller -> callee (count) of `gprof -b -q`: each parent line "a/b
#      CALLER [i]" above a function's primary line [j];
#   2. build it with ipp at -O0 -fno-inline in each mode, run it the same
#      way, and read `ipp counts --calls` (its "# arcs" section: direct
#      arcs, to every function a call names, instrumented or not, and in
#      context mode the arcs of calls through function pointers as the
#      callees' entries credited them, PROTOCOL.md rule 7) and the
#      procedure table of `ipp map` (which functions of the program ipp
#      did not instrument, and why; assembler names: gprof names functions
#      by their symbols, ipp by their source names, e.g. rec and rec.0 for
#      a nested function);
#   3. require equal counts for every arc gprof reports, except
#      - arcs from <spontaneous> (glibc's mcount cannot see a caller: libc
#        callbacks such as qsort's comparator, signal handlers);
#      - recursive arcs (gprof prints self-calls and calls inside a cycle
#        without an a/b count);
#      - arcs whose caller is a function of the program that ipp did not
#        instrument (the map gives the reason): ipp records nothing there;
#        listed as NOT COMPARED with the reason, never counted as passes;
#      - in the modes that do not record the callees of indirect calls
#        (all but context), the arcs of callers that have indirect call
#        sites and no ipp arc to that callee, or fewer calls in ipp's arc
#        than in gprof's (direct and indirect calls of one callee: the
#        per-site comparison below checks the direct ones): listed as NOT
#        COMPARED, never counted as passes;
#      and require every arc ipp reports to a function of the program (a
#      procedure of its map, instrumented or not) to be in gprof's list
#      (mcount records indirect calls made from -pg code like direct
#      ones).  Arcs to other functions (libc, built-ins) are outside
#      gprof's view: mcount sees only calls into -pg code.
# Then per call site: gmon-sites.pl maps gmon.out's arcs to call sites
# "caller callee file:line" (mcount merges sites whose return addresses
# share a 16-byte bucket: such sites form one group, compared with the sum
# of ipp's counts at those lines), and ipp's sites ("# call sites", "#
# indirect calls") must match every group whose caller ipp instruments;
# every ipp site to a function of the program must be in such a group.
# Programs with "ipp-cflags: -pthread" are left out: mcount drops arcs of
# concurrent threads.  So are programs that fork ("ipp-gprof: no fork"):
# each process writes gmon.out over the other's, so gprof sees one process
# (gcov.sh and fork.sh compare them with gcov, which merges).
#
# Environment: srcdir, builddir (automake sets them), IPP_TEST_MODES.
# Prints "N passed, N failed" and exits non-zero if anything failed.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u
. "$(dirname "$0")/prog-lib.sh"
prog_begin gprof
modes=${IPP_TEST_MODES:-intra context}

# "CALLER CALLEE COUNT" for each parent line with an a/b count
gprof_arcs() {
	awk '
	    BEGIN { n = 0 }
	    /^-+$/ { n = 0; next }
	    /^\[[0-9]+\]/ {
		callee = $0
		sub(/ \[[0-9]+\] *$/, "", callee)
		sub(/ <cycle [0-9]+>$/, "", callee)
		sub(/.*[0-9] +/, "", callee)
		for (i = 0; i < n; i++) print par[i], callee, cnt[i]
		n = 0; next
	    }
	    /[0-9]+\/[0-9]+ / && /\[[0-9]+\] *$/ {
		for (f = 1; f <= NF; f++) if ($f ~ /^[0-9]+\/[0-9]+$/) break
		split($f, ab, "/")
		name = $(f + 1)
		if (name ~ /^</) next		# <spontaneous>, <cycle N>
		par[n] = name; cnt[n] = ab[1]; n++
	    }' "$1" | awk '$1 != $2' | sort
}

# "NAME ASM-NAME skipped|instrumented REASON" for each procedure record
# "- [id, name, asm-name, [flags], file, line, skip-reason]" of the maps
# (docs/FORMAT.md section 2.3; C names are plain scalars, the reason a
# quoted string or null)
procs() {
	sed -n '/^procs:/,/^[a-z]/p' "$1" |
		sed -nE 's/^- \[[0-9]+, ([^ ,]+), ([^ ,]+), (\[[^]]*\]), [^,]+, [0-9]+, (.*)\]$/\1 \2 \3 \4/p' |
		sed -E ':a; s/^([^ ]+ [^ ]+ \[[^] ]*), /\1,/; ta' |
		awk '{ skipped = $3 ~ /[[,]skipped[],]/ ? "skipped" : "instrumented"
		       name = $1; asm = $2; $1 = $2 = $3 = ""; sub(/^ +/, "")
		       if ($0 == "null") $0 = ""
		       gsub(/"/, ""); print name, asm, skipped, $0 }'
}

# Reads "CALLER CALLEE COUNT" lines and writes them with the source names
# of the procedures of the map (file $1, from procs) replaced by their
# assembler names, where the source name is unique in the map.
to_asm() {
	awk 'NR == FNR { n[$1]++; a[$1] = $2; next }
	     { if (n[$1] == 1) $1 = a[$1]; if (n[$2] == 1) $2 = a[$2]; print }' "$1" -
}

for src in "$srcdir"/testsuite/programs/*.c "$srcdir"/examples/*.c; do
	[ -f "$src" ] || continue
	name=$(basename "$src" .c)
	cflags=$(sed -n 's/.*ipp-cflags: *//p' "$src")
	case " $cflags " in *" -pthread "*) continue ;; esac
	if grep -q "ipp-gprof: no fork" "$src"; then
		echo "NOT COMPARED: $name: it forks, and each process writes gmon.out over the other's"
		continue
	fi
	dir=$work/$(basename "$(dirname "$src")")-$name
	mkdir -p "$dir/pg"
	# -gdwarf-4: binutils 2.40's addr2line names the wrong file in a DWARF 5
	# line table for code from an #included .c file (fig4whole.c)
	if ! gcc -O0 -fno-inline -w -pg -gdwarf-4 $cflags "$src" -o "$dir/pg/$name" 2>"$work/err"; then
		bad "$name: does not compile with -pg"
		continue
	fi
	(cd "$dir/pg" && timeout 20 "./$name" >/dev/null 2>&1 </dev/null)
	if ! gprof -b -q "$dir/pg/$name" "$dir/pg/gmon.out" >"$dir/pg/graph" 2>"$work/err"; then
		# a program that calls none of its own functions has no call graph
		if [ -s "$dir/pg/gmon.out" ] && grep -q "call-graph" "$work/err"; then
			: >"$dir/pg/graph"
		else
			bad "$name: gprof failed"
			sed 's/^/    /' "$work/err"
			continue
		fi
	fi
	gprof_arcs "$dir/pg/graph" >"$dir/gprof"
	if ! perl "$srcdir/testsuite/programs/gmon-sites.pl" "$dir/pg/$name" "$dir/pg/gmon.out" \
	     >"$dir/gmon.sites" 2>"$work/err"; then
		bad "$name: cannot map gmon.out's arcs to call sites"
		sed 's/^/    /' "$work/err"
		continue
	fi
	# members of a recursion cycle: gprof prints their arcs without counts
	sed -n 's/^\[[0-9]*\].* \([^ ]*\) <cycle [0-9]*> \[[0-9]*\] *$/\1/p' "$dir/pg/graph" |
		sort -u >"$dir/cycle"
	for mode in $modes; do
		t="$name $mode"
		exe=$dir/$name.$mode
		prof=$dir/$name.$mode.prof
		if ! "$wrap" -O0 -fno-inline -w $cflags -fplugin-arg-ipp-mode=$mode "$src" \
		     -o "$exe" 2>"$work/err"; then
			bad "$t: does not compile with ipp"
			continue
		fi
		(cd "$dir" && IPP_PROFILE=$prof timeout 20 "$exe" >/dev/null 2>&1 </dev/null)
		if ! "$ipp" counts --calls "$exe" "$prof" >"$exe.calls" 2>"$work/err"; then
			bad "$t: ipp counts failed"
			sed 's/^/    /' "$work/err"
			continue
		fi
		# the procedures of the map: "NAME ASM-NAME SKIPPED REASON"
		if ! "$ipp" map "$exe" >"$exe.map" 2>"$work/err"; then
			bad "$t: ipp map failed"
			sed 's/^/    /' "$work/err"
			continue
		fi
		procs "$exe.map" >"$exe.procs"
		# arcs, and (modes without indirect callees) callers that have
		# indirect call sites, in assembler names
		awk '/^# arcs/ { a = 1; next } /^#/ { a = 0 }
		     a && $2 == "->" && $1 != $3 { print $1, $3, $4 }' "$exe.calls" |
			to_asm "$exe.procs" | sort >"$exe.ipp"
		: >"$exe.ind"
		[ "$mode" = context ] ||
			awk '$2 == "->" && $3 == "(indirect)" { print $1, "-", 0 }' "$exe.calls" |
			to_asm "$exe.procs" | cut -d' ' -f1 | sort -u >"$exe.ind"
		nind=$(awk '/^# indirect calls/ { a = 1; next } /^#/ { a = 0 } a' "$exe.calls" | wc -l)
		errs=0
		skipped=""
		uninst=""
		nout=0
		ncmp=0
		while read -r caller callee count; do
			reason=$(awk -v a="$caller" '$2 == a && $3 == "skipped" {
				$1 = $2 = $3 = ""; sub(/^ +/, "")
				print $0 == "" ? "no reason given" : $0 }' "$exe.procs")
			if [ -n "$reason" ]; then
				uninst="$uninst
NOT COMPARED: $t: $caller -> $callee (gprof $count): caller not instrumented: $reason"
				continue
			fi
			got=$(awk -v a="$caller" -v b="$callee" '$1 == a && $2 == b { print $3 }' "$exe.ipp")
			if [ -z "$got" ] && grep -qx "$caller" "$exe.ind"; then
				skipped="$skipped $caller->$callee"
				continue
			fi
			# a caller that calls the callee directly and through a
			# pointer: gprof's arc counts both, ipp's the direct
			# calls only (the sites below compare those exactly)
			if [ -n "$got" ] && [ "$got" -lt "$count" ] && grep -qx "$caller" "$exe.ind"; then
				skipped="$skipped $caller->$callee (ipp's direct $got of $count)"
				continue
			fi
			if [ "$got" != "$count" ]; then
				echo "    $caller -> $callee: gprof $count, ipp ${got:-none}"
				errs=$((errs + 1))
			fi
		done <"$dir/gprof"
		while read -r caller callee count; do
			if grep -qx "$caller" "$dir/cycle" && grep -qx "$callee" "$dir/cycle"; then
				continue	# inside a cycle: gprof gives no count
			fi
			if ! awk -v b="$callee" '$2 == b { f = 1 } END { exit !f }' "$exe.procs"; then
				nout=$((nout + 1))	# libc, a built-in: mcount cannot see it
				continue
			fi
			ncmp=$((ncmp + 1))
			if ! awk -v a="$caller" -v b="$callee" '$1 == a && $2 == b { f = 1 } END { exit !f }' "$dir/gprof"; then
				echo "    $caller -> $callee: ipp $count, not in gprof's call graph"
				errs=$((errs + 1))
			fi
		done <"$exe.ipp"
		# Per call site (gmon-sites.pl: gmon.out's arcs, with the sites
		# mcount merged grouped): ipp's sites with a named callee,
		# "CALLER CALLEE FILE:LINE COUNT" summed per line, against each
		# group; every ipp site to a function of the program must be in
		# a group of its caller and callee.
		awk '/^# (call sites|indirect calls)/ { a = 1; next } /^#/ { a = 0 }
		     a && $2 == "->" && $3 != "(indirect)" { n = split($5, f, "/"); print $1, $3, $4, f[n] }' \
			"$exe.calls" | to_asm "$exe.procs" |
			awk '{ sum[$1 " " $2 " " $4] += $3 } END { for (k in sum) print k, sum[k] }' |
			sort >"$exe.sites"
		nsite=0
		nind_site=0
		while read -r caller callee lines count indirect; do
			awk -v a="$caller" '$2 == a && $3 != "skipped" { f = 1 } END { exit !f }' "$exe.procs" ||
				continue	# caller not instrumented: listed above
			if [ "$indirect" = 1 ] && [ "$mode" != context ]; then
				nind_site=$((nind_site + 1))
				continue
			fi
			got=$(awk -v a="$caller" -v b="$callee" -v l=",$lines," \
				'$1 == a && $2 == b && index(l, "," $3 ",") { s += $4; f = 1 } END { if (f) print s }' "$exe.sites")
			nsite=$((nsite + 1))
			if [ "$got" != "$count" ]; then
				echo "    site $lines: $caller -> $callee: gprof $count, ipp ${got:-none}"
				errs=$((errs + 1))
			fi
		done <"$dir/gmon.sites"
		while read -r caller callee site count; do
			awk -v b="$callee" '$2 == b { f = 1 } END { exit !f }' "$exe.procs" || continue
			if ! awk -v a="$caller" -v b="$callee" -v s="$site" \
			     '$1 == a && $2 == b && index("," $3 ",", "," s ",") { f = 1 } END { exit !f }' "$dir/gmon.sites"; then
				echo "    site $site: $caller -> $callee: ipp $count, not in gmon.out"
				errs=$((errs + 1))
			fi
		done <"$exe.sites"
		[ "$nind_site" -gt 0 ] && echo "NOT COMPARED: $t: $nind_site call sites of gmon.out include an indirect call (mode $mode does not record indirect callees)"
		[ -n "$skipped" ] && echo "NOT COMPARED: $t: indirect arcs$skipped (mode $mode does not record indirect callees)"
		[ -n "$uninst" ] && echo "${uninst#?}"
		if [ "$errs" -eq 0 ]; then
			ok "$t ($ncmp arcs in gprof's graph, from $nind indirect site/callee pairs; $nout to functions outside the program; $nsite call-site groups of gmon.out)"
		else
			bad "$t: call arcs differ from gprof's"
		fi
	done
done
prog_end
