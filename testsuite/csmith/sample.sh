#!/bin/bash
# sample.sh -- the Csmith part of `make check`: ten fixed seeds, at -O0 and
# -O2, in every mode the plugin accepts (`make check-csmith N=...' runs
# seeds 1..N).  Run by automake's test harness from the top of the build
# tree; results in testsuite/csmith/sample/.
# Exit status: 0 all passed, 1 a check failed, 99 the harness could not run.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).

set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="${builddir:-$PWD}/testsuite/csmith/sample"
. "$here/../torture/common.sh"
run_sample "$out" bash "$here/run.sh" --seeds "1 2 3 4 5 6 7 8 9 10"
