# dg.awk -- extract the DejaGnu directives of GCC test files.
#
#   awk -f dg.awk test1.c test2.c ...
#
# For every directive "{ dg-NAME ARG ARG ... }" (anywhere on a line, usually
# in a comment; braces balanced, possibly continued on the next lines)
# prints one line:
#
#   FILE US dg-NAME US ARG US ARG ...
#
# where US is the ASCII unit separator \037 (not a tab: arguments can be
# empty, and bash's read would merge adjacent tabs).
# Each ARG is one element of the directive read as a Tcl list, with its
# outer quotes or braces removed and inner ones kept: the directive
#   { dg-options "-fwrapv" { target { ! int16 } } }
# gives the args   -fwrapv   and   target { ! int16 }.
# Tabs and newlines inside a directive become spaces.  FILE is the file's
# base name.  POSIX awk (Debian's default awk is mawk).
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).

# close_brace(s, i): index of the "}" matching the "{" at s[i], 0 if none.
function close_brace(s, i,    depth, c, n) {
	depth = 0
	n = length(s)
	for (; i <= n; i++) {
		c = substr(s, i, 1)
		if (c == "\\") { i++; continue }
		if (c == "{") depth++
		else if (c == "}") { if (--depth == 0) return i }
	}
	return 0
}

# tcl_elements(s, out): split s into Tcl list elements out[1..n]; returns n.
function tcl_elements(s, out,    n, i, len, c, j, start) {
	n = 0
	len = length(s)
	i = 1
	while (i <= len) {
		c = substr(s, i, 1)
		if (c == " " || c == "\t") { i++; continue }
		if (c == "{") {
			j = close_brace(s, i)
			if (j == 0) j = len + 1
			out[++n] = substr(s, i + 1, j - i - 1)
			i = j + 1
		} else if (c == "\"") {
			j = i + 1
			while (j <= len && substr(s, j, 1) != "\"") {
				if (substr(s, j, 1) == "\\") j++
				j++
			}
			out[++n] = substr(s, i + 1, j - i - 1)
			i = j + 1
		} else {
			start = i
			while (i <= len && substr(s, i, 1) != " " && substr(s, i, 1) != "\t") i++
			out[++n] = substr(s, start, i - start)
		}
	}
	return n
}

# trim(s): s without leading and trailing blanks.
function trim(s) {
	sub(/^[ \t]+/, "", s)
	sub(/[ \t]+$/, "", s)
	return s
}

{
	line = $0
	gsub(/\t/, " ", line)
	while (match(line, /\{[ ]*dg-[a-z-]+/)) {
		start = RSTART
		end = close_brace(line, start)
		# An unfinished directive goes on on the next lines.
		while (end == 0 && (getline nxt) > 0) {
			gsub(/\t/, " ", nxt)
			line = line " " nxt
			end = close_brace(line, start)
		}
		if (end == 0) break
		body = trim(substr(line, start + 1, end - start - 1))
		n = tcl_elements(body, el)
		name = FILENAME
		sub(/.*\//, "", name)
		rec = name "\037" el[1]
		for (k = 2; k <= n; k++) rec = rec "\037" trim(el[k])
		print rec
		line = substr(line, end + 1)
	}
}
