# cgparse.awk -- per-function costs and call counts from a callgrind.out
# file (callgrind's format 1, one event: Ir), for bench/run.sh.
#
# Usage: awk -f cgparse.awk callgrind.out
# Prints, one line each:
#   F NAME SELF INCL CALLS   a function: its own instructions, inclusive
#                            instructions (its own plus those of the calls
#                            it makes, calls to itself not counted twice),
#                            the calls it received
#   C CALLER CALLEE N COST   N calls from CALLER to CALLEE, COST inclusive
#                            instructions spent in them
#   T TOTAL                  the summary line: every instruction
# Names are callgrind's (compressed names "(id) name" resolved; a name is
# given at its id's first use, anywhere in the file, by fn=, cfn= or cfi=
# style lines -- only fn and cfn ids are functions).
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.

function fname(s,    id, rest) {
	# "(id) name" defines id, "(id)" uses it, "name" is uncompressed
	if (s ~ /^\([0-9]+\)/) {
		id = s
		sub(/\).*/, "", id)
		sub(/^\(/, "", id)
		rest = s
		sub(/^\([0-9]+\) ?/, "", rest)
		if (rest != "")
			names[id] = rest
		return names[id]
	}
	return s
}

BEGIN { fn = ""; incall = 0 }
/^summary:/ { total = $2; next }
/^fn=/ { fn = fname(substr($0, 4)); seen[fn] = 1; incall = 0; next }
/^cfn=/ { cfn = fname(substr($0, 5)); next }
/^calls=/ { ncalls = substr($1, 7) + 0; incall = 1; next }
/^[0-9+*-]/ {
	if (fn == "")
		next
	cost = $NF + 0
	if (NF < 2)
		next
	if (incall) {
		incall = 0
		key = fn SUBSEP cfn
		ccount[key] += ncalls
		ccost[key] += cost
		calls_in[cfn] += ncalls
		seen[cfn] = 1
		if (cfn != fn)
			incl[fn] += cost
	} else {
		self[fn] += cost
		incl[fn] += cost
	}
	next
}
END {
	for (f in seen)
		printf "F %s %.0f %.0f %.0f\n", f, self[f], incl[f], calls_in[f]
	for (k in ccount) {
		split(k, p, SUBSEP)
		printf "C %s %s %.0f %.0f\n", p[1], p[2], ccount[k], ccost[k]
	}
	printf "T %.0f\n", total
}
