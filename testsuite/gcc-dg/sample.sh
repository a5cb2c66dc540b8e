#!/bin/bash
# sample.sh -- the gcc.dg part of `make check`: the fixed sample of GCC's
# gcc.dg tests in sample.txt, at every level of run.sh (-O0, -O2,
# -O2/-fcompare-debug), plain and in every mode the plugin accepts.  Run by
# automake's test harness from the top of the build tree; results in
# testsuite/gcc-dg/sample/ (summary.txt, failures.txt, ...).
# Exit status: 0 all passed, 1 a check failed, 99 the harness could not run.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).

set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="${builddir:-$PWD}/testsuite/gcc-dg/sample"
. "$here/../torture/common.sh"
run_sample "$out" bash "$here/run.sh" --list "$here/sample.txt"
