#!/bin/bash
# wrapper.sh -- ipp-gcc answers gcc's queries as gcc does and instruments
# every compilation, whatever else the command line holds.  The oracle is
# plain gcc's answer and the object's .ipp_map section (readelf).
#   1. Queries (-dumpmachine, -dumpversion, -print-file-name=, --version),
#      with plugin options on the line: gcc's own answer (gcc refuses
#      -fplugin-arg-ipp-* when the plugin is not loaded: the wrapper drops
#      them for a query).
#   2. -Xassembler -dumpmachine is the assembler's argument, not a query
#      (gcc.dg opts-3.c): the compilation is instrumented.
#   3. -v with an input file compiles, verbosely: instrumented too (the
#      wrapper once took -v for a query and compiled without the plugin).
#   4. -m32 is refused with the reason (where plain gcc -m32 -S works).
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u
. "$(dirname "$0")/prog-lib.sh"
prog_begin wrapper
cd "$work" || exit 1
command -v readelf >/dev/null || { echo "SKIP: readelf (binutils) is missing"; exit 77; }

for q in -dumpmachine -dumpversion -print-file-name=libc.so -print-multi-os-directory; do
	want=$(gcc $q 2>&1)
	got=$("$wrap" -fplugin-arg-ipp-mode=intra $q 2>&1)
	if [ $? -eq 0 ] && [ "$got" = "$want" ]; then
		ok "query $q: gcc's answer"
	else
		bad "query $q: got '$got', gcc says '$want'"
	fi
done
want=$(gcc --version | head -1)
got=$("$wrap" -fplugin-arg-ipp-mode=context --version 2>&1 | head -1)
[ "$got" = "$want" ] && ok "query --version: gcc's answer" || bad "query --version: got '$got'"

cat >x.c <<'C'
int f(int x) { return x > 0 ? x : -x; }
C
# instrumented OBJ: the object has the map section
instrumented() { readelf -S "$1" 2>/dev/null | grep -q '\.ipp_map'; }

# (-S: as itself would refuse -dumpmachine)
if "$wrap" -fplugin-arg-ipp-mode=intra -O2 -Xassembler -dumpmachine -S x.c -o xa.s 2>err &&
   grep -q '\.ipp_map' xa.s; then
	ok "-Xassembler -dumpmachine: compiled with the plugin"
else
	bad "-Xassembler -dumpmachine: not compiled with the plugin"; cat err
fi
if "$wrap" -fplugin-arg-ipp-mode=intra -v -c x.c -o xv.o 2>err && instrumented xv.o; then
	ok "-v -c x.c: compiled with the plugin"
else
	bad "-v -c x.c: not compiled with the plugin"; tail -3 err
fi

# 4. -m32: refused with a message that names it (the runtime is LP64),
#    not with a list of ABI mismatches (gcc.dg pr97396.c)
if gcc -m32 -S x.c -o x32p.s 2>/dev/null; then
	if "$wrap" -m32 -S x.c -o x32.s 2>err; then
		bad "-m32: compiled"
	elif grep -q "only 64-bit (LP64) code can be profiled" err && ! grep -q mismatch err; then
		ok "-m32: refused, with the reason"
	else
		bad "-m32: the message"; cat err
	fi
fi

prog_end
