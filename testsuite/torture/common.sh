# shellcheck shell=bash
# common.sh -- shell functions shared by the "semantics preserved"
# harnesses (testsuite/torture/, testsuite/csmith/ and testsuite/gcc-dg/).
# Sourced, not run.
#
# Both harnesses build a program twice, plainly with $IPP_CC and profiled
# with the ipp-gcc wrapper, run both builds and require the same behaviour.
# This file finds the tools, probes which modes the plugin accepts, runs a
# command under a time limit and prints the summary.
#
# Environment (all optional; the Makefile sets the first two):
#   IPP_BUILDDIR  top of the build tree (default: $builddir, which automake
#                 tests get from AM_TESTS_ENVIRONMENT, else the current
#                 directory)
#   IPP_SRCDIR    top of the source tree (default: found from this file)
#   IPP_CC        the compiler, for both builds (default: gcc)
#   IPP_PLUGIN    the plugin (default: plugin/.libs/ipp.so or plugin/ipp.so
#                 in the build tree)
#   IPP_RUNTIME   the runtime archive (default: runtime/.libs/libipprt.a or
#                 runtime/libipprt.a in the build tree)
#   IPP_GCC       the wrapper (default: plugin/ipp-gcc-uninstalled in the
#                 build tree, else the template plugin/ipp-gcc.in, which
#                 works as it is once IPP_PLUGIN and IPP_RUNTIME are set)
#   IPP_MODES     the plugin modes to test, space-separated (default: every
#                 mode the plugin accepts, probed once)
#   IPP_TOOL      the ipp command, which checks each profile (default: ipp
#                 in the build tree)
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).

# Every mode the core knows (core/graph.c); the plugin may refuse some.
IPP_ALL_MODES="context intra piecewise intra-context"

# msg TEXT...: progress on stderr, prefixed with the harness's name.
msg() { printf '%s: %s\n' "${HARNESS_NAME:-harness}" "$*" >&2; }

# die TEXT...: a hard error (exit 99: automake's "ERROR", not "FAIL").
die() { msg "error: $*"; exit 99; }

# ipp_resolve_tools: set and export IPP_CC, IPP_PLUGIN, IPP_RUNTIME, IPP_GCC,
# IPP_BUILDDIR and IPP_SRCDIR, or die saying what is missing.
ipp_resolve_tools() {
	local here f
	here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	: "${IPP_SRCDIR:=$(cd "$here/../.." && pwd)}"
	: "${IPP_BUILDDIR:=${builddir:-$PWD}}"
	: "${IPP_CC:=gcc}"
	if [ -z "${IPP_PLUGIN:-}" ]; then
		for f in "$IPP_BUILDDIR/plugin/.libs/ipp.so" "$IPP_BUILDDIR/plugin/ipp.so"; do
			if [ -r "$f" ]; then IPP_PLUGIN=$f; break; fi
		done
	fi
	[ -n "${IPP_PLUGIN:-}" ] && [ -r "$IPP_PLUGIN" ] ||
		die "no ipp plugin (looked in $IPP_BUILDDIR/plugin; build it or set IPP_PLUGIN)"
	if [ -z "${IPP_RUNTIME:-}" ]; then
		for f in "$IPP_BUILDDIR/runtime/.libs/libipprt.a" "$IPP_BUILDDIR/runtime/libipprt.a"; do
			if [ -r "$f" ]; then IPP_RUNTIME=$f; break; fi
		done
	fi
	[ -n "${IPP_RUNTIME:-}" ] && [ -r "$IPP_RUNTIME" ] ||
		die "no ipp runtime (looked in $IPP_BUILDDIR/runtime; build it or set IPP_RUNTIME)"
	if [ -z "${IPP_GCC:-}" ]; then
		if [ -x "$IPP_BUILDDIR/plugin/ipp-gcc-uninstalled" ]; then
			IPP_GCC=$IPP_BUILDDIR/plugin/ipp-gcc-uninstalled
		else
			IPP_GCC=$IPP_SRCDIR/plugin/ipp-gcc.in
		fi
	fi
	[ -r "$IPP_GCC" ] || die "no ipp-gcc wrapper at $IPP_GCC (set IPP_GCC)"
	: "${IPP_TOOL:=$IPP_BUILDDIR/ipp}"
	[ -x "$IPP_TOOL" ] || die "no ipp tool at $IPP_TOOL (build it or set IPP_TOOL)"
	command -v "$IPP_CC" >/dev/null || die "no compiler $IPP_CC (set IPP_CC)"
	command -v timeout >/dev/null || die "timeout(1) (coreutils) is missing"
	# Absolute paths: the builds and runs happen in scratch directories.
	IPP_PLUGIN=$(cd "$(dirname "$IPP_PLUGIN")" && pwd)/$(basename "$IPP_PLUGIN")
	IPP_RUNTIME=$(cd "$(dirname "$IPP_RUNTIME")" && pwd)/$(basename "$IPP_RUNTIME")
	IPP_GCC=$(cd "$(dirname "$IPP_GCC")" && pwd)/$(basename "$IPP_GCC")
	IPP_TOOL=$(cd "$(dirname "$IPP_TOOL")" && pwd)/$(basename "$IPP_TOOL")
	export IPP_CC IPP_PLUGIN IPP_RUNTIME IPP_GCC IPP_TOOL IPP_BUILDDIR IPP_SRCDIR
}

# ipp_wrap: set the array IPP_WRAP to the command that runs the wrapper.
# The template ipp-gcc.in is not executable: it runs with sh.
ipp_wrap() {
	if [ -x "$IPP_GCC" ]; then IPP_WRAP=("$IPP_GCC"); else IPP_WRAP=(sh "$IPP_GCC"); fi
}

# ipp_cc ARGS...: compile or link with the plugin, through the wrapper.
ipp_cc() {
	ipp_wrap
	"${IPP_WRAP[@]}" "$@"
}

# ipp_probe_modes DIR: unless IPP_MODES is set, set it to every mode of
# $IPP_ALL_MODES that the plugin accepts, compiling a small probe in DIR.
# A mode is refused only when the plugin says so (it fails to initialize
# or reports the mode unknown / not implemented); any other failure, an ICE
# on the probe for instance, keeps the mode, so that the tests show it
# rather than the harness hiding it.  Exports IPP_MODES; dies if empty.
ipp_probe_modes() {
	local dir=$1 m refused=
	if [ -n "${IPP_MODES:-}" ]; then
		msg "modes (from IPP_MODES): $IPP_MODES"
		export IPP_MODES
		return
	fi
	mkdir -p "$dir"
	cat >"$dir/probe.c" <<-'EOF'
	static int sq(int x) { return x * x; }
	int f(int n) { int s = 0; for (int i = 0; i < n; i++) if (i & 1) s += sq(i); return s; }
	int main(void) { return f(3) != 1; }
	EOF
	IPP_MODES=
	for m in $IPP_ALL_MODES; do
		if ipp_cc -fplugin-arg-ipp-mode="$m" -c "$dir/probe.c" -o "$dir/probe.o" \
			>"$dir/probe-$m.log" 2>&1; then
			IPP_MODES="$IPP_MODES $m"
		elif grep -qiE 'failed to initiali[sz]e plugin|unknown mode|not yet|does not instrument' \
			"$dir/probe-$m.log"; then
			refused="$refused $m"
		else
			msg "warning: the probe for mode $m failed (kept; see $dir/probe-$m.log)"
			IPP_MODES="$IPP_MODES $m"
		fi
	done
	IPP_MODES=${IPP_MODES# }
	[ -n "$IPP_MODES" ] || die "the plugin accepts none of the modes $IPP_ALL_MODES (see $dir/probe-*.log)"
	msg "modes: $IPP_MODES${refused:+ (refused by the plugin:$refused)}"
	export IPP_MODES
}

# run_limited SECS DIR EXE [ARG...]: run EXE with the ARGs in DIR, stdin
# from /dev/null, under a time limit; its stdout, stderr and exit status go
# to DIR/out, DIR/err and DIR/status.  Status 124 (or 137 after the KILL)
# means it timed out; 128+N that a signal N killed it (134: abort()).
# The profile of an instrumented build goes to DIR/ipp.prof.
run_limited() {
	local secs=$1 dir=$2 exe=$3
	shift 3
	# The outer subshell's stderr takes bash's own notice ("Aborted") of a
	# program killed by a signal: abort() is how a torture test fails.
	(
		st=0
		(cd "$dir" && IPP_PROFILE="$dir/ipp.prof" exec timeout -k 5 "$secs" "$exe" "$@" \
			</dev/null >"$dir/out" 2>"$dir/err") || st=$?
		echo "$st" >"$dir/status"
	) 2>/dev/null
}

# check_profile DIR EXE: the net under an instrumented run in DIR (by
# run_limited) that behaved as the plain one.  The run must have written
# its profile, DIR/ipp.prof: docs/RUNTIME.md promises the write at every
# return from main and every exit(), and a run the harnesses compare ends
# with the plain build's status, so it ended one of those two ways (or by
# _exit, quick_exit or exec, which skip the write: no torture test or
# Csmith program calls them).  And `ipp check EXE DIR/ipp.prof` must pass:
# every record valid against EXE's maps, flow conserved at every vertex.
# Its output goes to DIR/check.log.  Prints nothing when the profile is
# valid; a note when it is valid but some checks were inconclusive
# (saturated counts: `ipp check` says so and still exits 0); on failure,
# a one-line description naming `ipp check`, and returns 1.
check_profile() {
	local dir=$1 exe=$2 st=0 l
	if [ ! -f "$dir/ipp.prof" ]; then
		echo "no profile: the run ended with status $(cat "$dir/status") but wrote no $dir/ipp.prof"
		return 1
	fi
	"$IPP_TOOL" check "$exe" "$dir/ipp.prof" >"$dir/check.log" 2>&1 || st=$?
	if [ "$st" != 0 ]; then
		l=$(grep -m1 -E ': (violation|error): |^ipp: ' "$dir/check.log" || true)
		l=${l#"ipp: $dir/ipp.prof: "}
		echo "ipp check failed (status $st)${l:+: $l}"
		return 1
	fi
	if l=$(grep -m1 '^no flow violation (' "$dir/check.log"); then
		echo "ipp check: $l"
	fi
	return 0
}

# check_log_excerpt DIR: the output of `ipp check` in DIR, for failures.txt.
check_log_excerpt() {
	[ -f "$1/check.log" ] || return 0
	echo "   ipp check output (first lines; reproduce: cd $1 && $(shell_quote "$IPP_TOOL") check prog ipp.prof):"
	sed -n '1,20s/^/     | /p' "$1/check.log"
}

# timed_out DIR: did the run in DIR hit the time limit?
timed_out() {
	local st
	st=$(cat "$1/status")
	[ "$st" = 124 ] || [ "$st" = 137 ]
}

# same_behaviour DIR1 DIR2 [STATUS_ONLY]: same exit status, stdout and
# stderr (only the status if STATUS_ONLY is 1)?  On a difference, prints a
# one-line description of it.
same_behaviour() {
	local a=$1 b=$2 status_only=${3:-0}
	if ! cmp -s "$a/status" "$b/status"; then
		echo "exit status differs: plain $(cat "$a/status"), ipp $(cat "$b/status")"
		return 1
	fi
	[ "$status_only" = 0 ] || return 0
	if ! cmp -s "$a/out" "$b/out"; then
		echo "stdout differs"
		return 1
	fi
	if ! cmp -s "$a/err" "$b/err"; then
		echo "stderr differs"
		return 1
	fi
	return 0
}

# diff_outputs PLAIN IPP: for a failure report, the first lines of the
# differences between the stdout (out) and the stderr (err) that the plain
# and the instrumented runs left in directories PLAIN and IPP.
diff_outputs() {
	local f what
	for f in out err; do
		cmp -s "$1/$f" "$2/$f" && continue
		if [ "$f" = out ]; then what=stdout; else what=stderr; fi
		echo "   $what diff (plain vs instrumented, first lines):"
		{ diff "$1/$f" "$2/$f" || true; } | sed -n '1,10s/^/     | /p'
	done
}

# run_sample OUT COMMAND...: a harness's sample in make check: runs
# COMMAND --out OUT and, when a check failed, prints OUT/failures.txt too
# (the log, which CI shows).  Returns the harness's status.
run_sample() {
	local out=$1 st=0
	shift
	"$@" --out "$out" || st=$?
	if [ "$st" = 1 ] && [ -f "$out/failures.txt" ]; then
		head -n 400 "$out/failures.txt"
	fi
	return "$st"
}

# shell_quote WORDS...: the words quoted for a shell command line.
shell_quote() {
	local w out=
	for w in "$@"; do
		case $w in
		'' | *[!A-Za-z0-9_./=:,+@%-]*) out="$out '${w//\'/\'\\\'\'}'" ;;
		*) out="$out $w" ;;
		esac
	done
	printf '%s' "${out# }"
}

# ipp_repro_env: the environment part of a command line that reproduces an
# instrumented build by hand.
ipp_repro_env() {
	printf 'IPP_CC=%s IPP_PLUGIN=%s IPP_RUNTIME=%s' \
		"$(shell_quote "$IPP_CC")" "$(shell_quote "$IPP_PLUGIN")" "$(shell_quote "$IPP_RUNTIME")"
	if [ -x "$IPP_GCC" ]; then printf ' %s' "$(shell_quote "$IPP_GCC")"; else printf ' sh %s' "$(shell_quote "$IPP_GCC")"; fi
}

# list_names FILE: the test names of a list file, one per line (the first
# word of each line; '#' starts a comment, blank lines are ignored).
list_names() {
	[ -r "$1" ] || die "cannot read the list $1"
	sed 's/#.*//' "$1" | awk 'NF { print $1 }'
}

# apply_xfails XFAIL RAW: the results RAW (lines as summarize reads them)
# with the expected failures of the list XFAIL applied, on stdout.  XFAIL
# has one check a line, "TEST LEVEL MODE REASON..." (LEVEL or MODE may be
# *: every level, every mode; '#' starts a comment).  A listed check that
# fails becomes XFAIL with the reason (its detail in parentheses); one that
# passes becomes a FAIL ("unexpected pass", naming the list's file), so
# that the list can only shrink with the truth.
apply_xfails() {
	sed 's/#.*//' "$1" | awk -F'\t' -v list="$(basename "$1")" '
		NR == FNR { if (NF || $0 ~ /[^ \t]/) {
				split($0, w, " "); r = $0
				for (i = 1; i <= 3; i++) sub(/^[ \t]*[^ \t]+/, "", r)
				sub(/^[ \t]+/, "", r); x[w[1], w[2], w[3]] = r }
			next }
		{ why = ""
		  if (($2, $3, $4) in x) why = x[$2, $3, $4]
		  else if (($2, $3, "*") in x) why = x[$2, $3, "*"]
		  else if (($2, "*", $4) in x) why = x[$2, "*", $4]
		  else if (($2, "*", "*") in x) why = x[$2, "*", "*"] }
		why != "" && $1 == "FAIL" { print "XFAIL\t" $2 "\t" $3 "\t" $4 "\t" why " (" $5 ")"; next }
		why != "" && $1 == "PASS" { print "FAIL\t" $2 "\t" $3 "\t" $4 "\tunexpected pass: remove it from " list; next }
		{ print }' - "$2"
}

# summarize RESULTS OUTDIR TITLE [XFAILS]: RESULTS has one line per check,
#   PASS|FAIL|XFAIL|SKIP <TAB> name <TAB> level <TAB> mode <TAB> detail
# Prints TITLE, the summary line "N passed, N failed, N skipped" (read by
# CI; expected failures are in none of the three: they get their own line
# and list, which names XFAILS, the file that lists them), the skip reasons
# grouped with counts and examples, and the failures; writes
# OUTDIR/skips.txt.  Returns 1 if anything failed.
summarize() {
	local res=$1 out=$2 title=$3 xfails=${4:-xfail.txt} np nf ns nx
	np=$(grep -c '^PASS' "$res" || true)
	nf=$(grep -c '^FAIL' "$res" || true)
	ns=$(grep -c '^SKIP' "$res" || true)
	echo "$title"
	echo "$np passed, $nf failed, $ns skipped"
	# Skips: group by reason (column 5); count checks and list a few names.
	awk -F'\t' '$1 == "SKIP" {
			n[$5]++
			if (!((($5) SUBSEP ($2)) in seen)) {
				seen[$5, $2] = 1
				if (cnt[$5]++ < 6) ex[$5] = ex[$5] " " $2
				else if (cnt[$5] == 7) ex[$5] = ex[$5] " ..."
			}
		}
		END { for (r in n) printf "%6d  %s (tests:%s)\n", n[r], r, ex[r] }' "$res" |
		sort -k1,1nr -k2 >"$out/skips.txt"
	if [ -s "$out/skips.txt" ]; then
		echo "skipped, by reason (checks, reason, tests):"
		cat "$out/skips.txt"
	fi
	# Passes with a note (e.g. only the exit status could be compared).
	awk -F'\t' '$1 == "PASS" && $5 != "" { n[$5]++; if (!(($5, $2) in s)) { s[$5, $2] = 1; ex[$5] = ex[$5] " " $2 } }
		END { for (r in n) printf "passed with a note: %d checks, %s (tests:%s)\n", n[r], r, ex[r] }' "$res"
	nx=$(grep -c '^XFAIL' "$res" || true)
	if [ "$nx" -gt 0 ]; then
		echo "$nx expected failures (listed with their reasons in $xfails):"
		awk -F'\t' '$1 == "XFAIL" { printf "  %s %s %s: %s\n", $2, $3, $4, $5 }' "$res"
	fi
	if [ "$nf" -gt 0 ]; then
		echo "failed:"
		awk -F'\t' '$1 == "FAIL" { printf "  %s %s %s: %s\n", $2, $3, $4, $5 }' "$res"
		echo "how to reproduce each failure: $out/failures.txt"
		return 1
	fi
	return 0
}

# build_failure_reason LOG STATUS TIMEOUT: a one-line description of a
# failed build, from the compiler's output LOG and exit STATUS (124/137:
# killed after TIMEOUT seconds).  An internal compiler error is an "ICE".
build_failure_reason() {
	local log=$1 st=$2 secs=$3 l
	if [ "$st" = 124 ] || [ "$st" = 137 ]; then
		echo "compiler timed out (${secs}s)"
	elif l=$(grep -m1 'internal compiler error' "$log"); then
		echo "ICE: ${l#*internal compiler error: }"
	elif l=$(grep -m1 -E 'Segmentation fault|terminated program|Killed signal' "$log"); then
		echo "compiler crashed: $l"
	elif l=$(grep -m1 -E 'error:|undefined reference' "$log"); then
		echo "build error: $l"
	else
		echo "build failed (status $st)"
	fi
}
