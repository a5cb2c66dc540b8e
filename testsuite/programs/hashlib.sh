#!/bin/bash
# hashlib.sh -- a hash region in a dlopen'ed shared library, counted from
# four threads (runtime/ipp_abi.h, __ipp_hmiss): the library's unit has its
# own thread-local slots, initialized to its own empty table through the
# TLS image's relocations, and the runtime publishes each thread's table in
# that thread's slot.
#
# work(n) of libw.so: a loop whose body has 2^13 paths (a hash region);
# iteration i takes the path of the 13 low bits of v = (i % 5) * 0x3ff.
# main and three threads call work(1000) once each through dlsym.  From
# the program's logic, per activation: the first iteration runs from the
# entry (pattern 0), the other 999 from the loop header (pattern 0 at i =
# 5, 10, .., 995: 199 times; patterns 1-4 200 times each), and the exit
# path once.  Four activations: work's counts are 4 (entry), 796, 800,
# 800, 800, 800 and 4 (exit), in both modes (work makes no call).  The
# outputs equal the plain build's, and `ipp check` finds the profile valid.
#
# Environment: builddir (automake sets it).
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u
builddir=$(cd "${builddir:-.}" && pwd)
ipp=$builddir/ipp
cc=$builddir/plugin/ipp-gcc-uninstalled
work=$(mktemp -d "${TMPDIR:-/tmp}/ipp-hashlib.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 99

cat >lib.c <<'EOF'
unsigned work(unsigned n)
{
	unsigned s = 0;
	for (unsigned i = 0; i < n; i++) {
		unsigned v = (i % 5) * 0x3ff;
#define D(k) if (v & (1u << k)) s += k; else s ^= k;
		D(0) D(1) D(2) D(3) D(4) D(5) D(6) D(7) D(8) D(9) D(10) D(11) D(12)
	}
	return s;
}
EOF
cat >main.c <<'EOF'
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
static unsigned (*w)(unsigned);
static unsigned got[3];
static void *th(void *a)
{
	*(unsigned *)a = w(1000);
	return NULL;
}
int main(void)
{
	void *h = dlopen("./libw.so", RTLD_NOW);
	pthread_t t[3];
	unsigned s;
	if (!h) {
		puts(dlerror());
		return 1;
	}
	w = (unsigned (*)(unsigned))dlsym(h, "work");
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, th, &got[i]);
	s = w(1000);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	printf("%u %u %u %u\n", s, got[0], got[1], got[2]);
	return 0;
}
EOF

fail=0
gcc -O2 -fPIC -shared lib.c -o libw.so && gcc -O2 main.c -o plain -ldl -pthread || exit 99
./plain >plain.out || exit 99
for mode in context intra; do
	rm -f libw.so app p.prof
	if ! "$cc" -fplugin-arg-ipp-mode=$mode -O2 -fPIC -shared lib.c -o libw.so ||
	   ! "$cc" -fplugin-arg-ipp-mode=$mode -O2 main.c -o app -ldl -pthread; then
		echo "FAIL: $mode: build"; fail=1; continue
	fi
	IPP_PROFILE=p.prof ./app >app.out 2>app.err
	if ! cmp -s plain.out app.out; then
		echo "FAIL: $mode: output differs from the plain build's"; fail=1; continue
	fi
	if ! "$ipp" check ./app ./libw.so p.prof >check.txt 2>&1; then
		echo "FAIL: $mode: ipp check"; sed 's/^/    /' check.txt; fail=1; continue
	fi
	got=$("$ipp" profile p.prof | sed -n 's/^  - \[work, [0-9]*, \([0-9]*\)\]$/\1/p' | sort -n | tr '\n' ' ')
	if [ "$got" = "4 4 796 800 800 800 800 " ]; then
		echo "PASS: $mode: work's paths $got"
	else
		echo "FAIL: $mode: work's paths: got '$got', want '4 4 796 800 800 800 800 '"; fail=1
	fi
done
exit $fail
