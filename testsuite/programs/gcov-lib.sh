# gcov-lib.sh -- the comparison of an ipp profile's derived counts with
# gcov's, as shell functions: sourced by testsuite/programs/gcov.sh (the
# oracle over small programs, and through testsuite/torture/oracle.sh over
# the torture tests) and by bench/oracle.sh (the same oracle on SQLite).
# Each function reads files named as arguments and writes to stdout; none
# has side effects.  gcov's formats are GCC 12's (gcov-io.h, gcov -b).
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.

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
