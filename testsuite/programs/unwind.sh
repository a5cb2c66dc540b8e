#!/bin/bash
# unwind.sh -- activations removed by an unwinder (docs/PROTOCOL.md,
# "Exceptions and forced unwinds"): pthread_cancel (unwcancel.c),
# pthread_exit from a nested call (unwexit.c) and _Unwind_ForcedUnwind
# (unwforced.c), built with -fexceptions and cleanups, and pthread_exit in
# code built without it (unwexitc.c).  gcov is the
# oracle at -O2 here, as gcov.sh is at -O0 for every program: function
# entries and single-block line counts equal gcov's, and `ipp check` finds
# the profile valid (every removed activation left its partial path and
# its frame), in both modes.  Every comparison must run: a program gcov.sh
# skips is a failure here.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u
srcdir=${srcdir:-.}
here=$srcdir/testsuite/programs
exec bash "$here/gcov-o2.sh" unwind.sh "$here/unwcancel.c" "$here/unwexit.c" \
	"$here/unwforced.c" "$here/unwexitc.c"
