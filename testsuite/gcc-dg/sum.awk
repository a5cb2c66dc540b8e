# sum.awk -- the results of DejaGnu summary files (gcc.sum), one a line.
#
#   awk -f sum.awk gcc.sum ...
#
# For every result line "OUTCOME: gcc.dg/NAME.c DESCRIPTION" of a .sum file
# (OUTCOME is PASS, FAIL, XFAIL, XPASS, KFAIL, KPASS, UNRESOLVED,
# UNSUPPORTED, UNTESTED or ERROR) prints
#
#   NAME.c <TAB> OUTCOME <TAB> DESCRIPTION
#
# DESCRIPTION is what follows the test's name ("(test for excess errors)",
# "execution test", "(test for warnings, line 12)", ...; empty for a bare
# UNSUPPORTED).  The scan-* results (scan-tree-dump, scan-assembler,
# scan-rtl-dump, scan-hidden, ...) are left out: they scan dumps and
# assembly that instrumentation legitimately changes.  A result that names
# no test of gcc.dg/ (an ERROR of DejaGnu itself) is printed with the name
# "-".  POSIX awk.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).

/^(PASS|FAIL|XFAIL|XPASS|KFAIL|KPASS|UNRESOLVED|UNSUPPORTED|UNTESTED|ERROR): / {
	outcome = substr($1, 1, length($1) - 1)
	rest = substr($0, length($1) + 2)
	name = "-"
	if (match(rest, /^gcc\.dg\/[^ \t]+/)) {
		name = substr(rest, 8, RLENGTH - 7)
		rest = substr(rest, RLENGTH + 1)
		sub(/:$/, "", name)
		sub(/^:/, "", rest)
		sub(/^[ \t]+/, "", rest)
	}
	if (rest ~ /^scan-/)
		next
	gsub(/\t/, " ", rest)
	print name "\t" outcome "\t" rest
}
