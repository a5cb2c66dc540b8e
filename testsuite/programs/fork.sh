#!/bin/bash
# fork.sh -- a path pending at a fork() counts its prefix once: gcov (whose
# fork wrapper resets the child's counters) as the oracle at -O2, as
# gcov.sh is at -O0 for every program.  forkmain.c forks in main,
# forkhelper.c two calls deep (main -> outer -> spawn -> fork), so the
# pending frames further out than fork's caller are covered too.  In both
# modes: function entries and single-block line counts equal gcov's, and
# `ipp check` finds the merged profile (parent and child) valid.  Every
# comparison must run: a program gcov.sh skips is a failure here.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later.
set -u
srcdir=${srcdir:-.}
here=$srcdir/testsuite/programs
exec bash "$here/gcov-o2.sh" fork.sh "$here/forkmain.c" "$here/forkhelper.c"
