#!/bin/bash
# paths.sh K -- writes pathsK.c, the synthetic program of docs/RUNTIME.md
# ("Writing the profile"): f has a chain of K diamonds, so 2^K paths in
# one region (a hash region for K > 12), one per value of its argument's
# low K bits; `./pathsK N [OFF]` calls f(i) for i = OFF .. OFF+N-1, which
# gives exactly N distinct paths for N <= 2^K.  Build it with ipp-gcc
# (-fplugin-arg-ipp-mode=intra), and with IPP_RUNTIME naming
# runtime/.libs/libipprt-stats.a for the write timers (IPP_RT_STATS=FILE:
# write_ns, write_cpu_ns).
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -eu
k=${1:?usage: paths.sh K}
{
	echo '#include <stdlib.h>'
	echo 'volatile unsigned long sink;'
	echo '__attribute__((noinline)) void f(unsigned long x)'
	echo '{'
	echo '	unsigned long s = 0;'
	for ((j = 0; j < k; j++)); do
		echo "	if (x & (1ul << $j)) s += $((j + 1)); else s ^= $((j + 3));"
	done
	echo '	sink = s;'
	echo '}'
	echo 'int main(int argc, char **argv)'
	echo '{'
	echo '	unsigned long n = strtoul(argv[1], 0, 10), off = argc > 2 ? strtoul(argv[2], 0, 10) : 0;'
	echo '	for (unsigned long i = 0; i < n; i++)'
	echo '		f(i + off);'
	echo '	return 0;'
	echo '}'
} >"paths$k.c"
