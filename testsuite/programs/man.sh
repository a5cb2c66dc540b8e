#!/bin/bash
# man.sh -- the manual pages man/ipp.1 and man/ipp-gcc.1:
#   1. groff -man -Tutf8 -ww renders each without a warning, and man -l
#      renders it (the NAME and SYNOPSIS sections are there);
#   2. they keep up with the tools: every command `ipp --help` lists has a
#      subsection "ipp COMMAND" in ipp.1, every long option of `ipp COMMAND
#      --help` and of `ipp --help` appears in ipp.1, and every
#      -fplugin-arg-ipp-* option and IPP_* variable of `ipp-gcc --help`
#      appears in ipp-gcc.1 (roff writes '-' as '\-': compared in the
#      page as groff renders it in ASCII);
#   3. make install puts them in $(mandir)/man1 (checked by installing into
#      a temporary prefix with DESTDIR).
# Skips (exit 77) if groff or man is missing.
# Prints "N passed, N failed" and exits non-zero if anything failed.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u
. "$(dirname "$0")/prog-lib.sh"
prog_begin man

for tool in groff man; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "SKIP: $tool not found (Debian packages groff-base, man-db)"
		exit 77
	fi
done

for page in ipp ipp-gcc; do
	src=$srcdir/man/$page.1
	if groff -man -Tutf8 -ww "$src" >/dev/null 2>"$work/err" && [ ! -s "$work/err" ] &&
	   groff -man -Tascii -P-c "$src" 2>/dev/null | col -b >"$work/$page.txt" &&
	   MANPAGER=cat MANWIDTH=80 man -l "$src" >"$work/$page.man" 2>"$work/err2" &&
	   grep -q '^NAME' "$work/$page.man" && grep -q '^SYNOPSIS' "$work/$page.man"; then
		ok "$page.1: groff -ww renders it without a warning, man -l shows it ($(wc -l <"$work/$page.man") lines)"
	else
		bad "$page.1 does not render cleanly"
		cat "$work/err" "$work/err2" 2>/dev/null | sed 's/^/    /'
	fi
done

# 2. ipp.1 against the --help of ipp and of each command
missing=""
commands=$("$ipp" --help | awk '/^Commands:/ { c = 1; next } c && NF == 0 { c = 0 } c { print $1 }')
for c in $commands; do
	grep -q "^ *ipp $c\b" "$work/ipp.txt" || missing="$missing 'ipp $c' (command)"
	for o in $("$ipp" "$c" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
		grep -q -- "$o" "$work/ipp.txt" || missing="$missing ipp $c $o"
	done
done
for o in $("$ipp" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
	grep -q -- "$o" "$work/ipp.txt" || missing="$missing ipp $o"
done
if [ -z "$missing" ] && [ -n "$commands" ]; then
	ok "ipp.1 documents every command ($(echo $commands)) and every option of their --help"
else
	bad "ipp.1 lacks:$missing"
fi

missing=""
for o in $("$wrap" --help | grep -oE -- '-fplugin-arg-ipp-[a-z]+|IPP_[A-Z]+|--help' | sort -u); do
	grep -q -- "$o" "$work/ipp-gcc.txt" || missing="$missing $o"
done
if [ -z "$missing" ]; then
	ok "ipp-gcc.1 documents every option and variable of ipp-gcc --help"
else
	bad "ipp-gcc.1 lacks:$missing"
fi

# 3. make install
if make -C "$builddir" install-man DESTDIR="$work/dest" >"$work/install.log" 2>&1 &&
   found=$(cd "$work/dest" && find . -path '*/man1/ipp.1' -o -path '*/man1/ipp-gcc.1' | sort | tr '\n' ' ') &&
   [ "$(echo $found | wc -w)" -eq 2 ]; then
	ok "make install-man installs $found"
else
	bad "make install-man did not install both pages"
	sed 's/^/    /' "$work/install.log"
fi

prog_end
