# compare.awk -- DejaGnu's verdicts on the plain and the instrumented
# builds of the same tests at the same level, compared test by test.
#
#   awk -f compare.awk -v level=LEVEL -v mode=MODE TESTS PLAIN IPP
#
# TESTS lists the test names, one a line; PLAIN and IPP are the results of
# the two variants as sum.awk prints them (NAME <TAB> OUTCOME <TAB>
# DESCRIPTION).  For each test, in the order of TESTS, prints one check:
#
#   PASS|FAIL|SKIP <TAB> NAME <TAB> LEVEL <TAB> MODE <TAB> RUN <TAB> DETAIL
#
# A test's result *holds* plain when DejaGnu says PASS or XFAIL (an
# expected failure the test itself declares, e.g. a warning GCC is known to
# miss).  The check
#   - is skipped when no result holds plain: the test fails plain, is
#     UNSUPPORTED here (its dg-require-effective-target, dg-skip-if, ...),
#     or has no result at all;
#   - fails when a result that holds plain is missing or different in the
#     instrumented build (same description, same outcome, as many times),
#     or when the instrumented build has a failing result (FAIL, XPASS,
#     UNRESOLVED, ERROR, ...) that the plain one does not have -- an
#     internal compiler error is named first;
#   - passes otherwise (with a note when some results fail plain: those
#     are not compared).
# RUN is 1 when the plain program ran and passed ("execution test" PASS):
# run.sh then compares the recorded runs too.  POSIX awk.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).

BEGIN { FS = "\t" }

function holds(o) { return o == "PASS" || o == "XFAIL" }
function failing(o) { return o != "PASS" && o != "XFAIL" && o != "UNSUPPORTED" }

FILENAME == ARGV[1] { if ($1 != "") order[++ntests] = $1; next }
FILENAME == ARGV[2] {
	pn[$1]++
	pline[$1, pn[$1]] = $2 "\t" $3
	pcount[$1, $2, $3]++
	next
}
{
	in_[$1]++
	iline[$1, in_[$1]] = $2 "\t" $3
	icount[$1, $2, $3]++
}

# what_ipp_says(t, d): the instrumented build's outcome(s) for description d.
function what_ipp_says(t, d,    k, f, s) {
	s = ""
	for (k = 1; k <= in_[t]; k++) {
		split(iline[t, k], f, "\t")
		if (f[2] == d) s = s (s == "" ? "" : ", ") f[1]
	}
	return s == "" ? "no result" : s
}

END {
	for (n = 1; n <= ntests; n++) {
		t = order[n]
		nhold = nfail = nunsup = run = 0
		for (k = 1; k <= pn[t]; k++) {
			split(pline[t, k], f, "\t")
			if (holds(f[1])) nhold++
			else if (f[1] == "UNSUPPORTED") nunsup++
			else nfail++
			if (f[1] == "PASS" && f[2] == "execution test") run = 1
		}
		if (nhold == 0) {
			if (nfail > 0) why = "fails plain"
			else if (nunsup > 0) why = "UNSUPPORTED here (the test's own requirements)"
			else why = "no DejaGnu result plain"
			print "SKIP\t" t "\t" level "\t" mode "\t0\t" why
			continue
		}
		detail = ""
		# An internal compiler error first.
		for (k = 1; k <= in_[t] && detail == ""; k++) {
			split(iline[t, k], f, "\t")
			if (f[2] ~ /internal compiler error/ && !((t, f[1], f[2]) in pcount))
				detail = f[1] ": " f[2]
		}
		# Every result that holds plain, the same instrumented.
		for (k = 1; k <= pn[t] && detail == ""; k++) {
			split(pline[t, k], f, "\t")
			if (holds(f[1]) && icount[t, f[1], f[2]] < pcount[t, f[1], f[2]])
				detail = icount[t, f[1], f[2]] > 0 ? \
					f[1] " " pcount[t, f[1], f[2]] " times plain, " icount[t, f[1], f[2]] " instrumented: " f[2] : \
					f[1] " plain, " what_ipp_says(t, f[2]) " instrumented: " f[2]
		}
		# No failure the plain build does not have.
		for (k = 1; k <= in_[t] && detail == ""; k++) {
			split(iline[t, k], f, "\t")
			if (failing(f[1]) && icount[t, f[1], f[2]] > pcount[t, f[1], f[2]])
				detail = f[1] " instrumented only: " f[2]
		}
		if (detail != "")
			print "FAIL\t" t "\t" level "\t" mode "\t" run "\t" detail
		else
			print "PASS\t" t "\t" level "\t" mode "\t" run "\t" \
				(nfail > 0 ? "some results fail plain (not compared)" : "")
	}
}
