#!/bin/bash
# sample.sh -- the torture part of `make check`: the fixed sample of GCC
# torture tests in sample.txt (see make-sample.sh for how it was chosen),
# at -O0 and -O2, in every mode the plugin accepts.  Run by automake's test
# harness from the top of the build tree; results in
# testsuite/torture/sample/ (summary.txt, failures.txt, ...).
# Exit status: 0 all passed, 1 a check failed, 99 the harness could not run.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).

set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="${builddir:-$PWD}/testsuite/torture/sample"
. "$here/../torture/common.sh"
run_sample "$out" bash "$here/run.sh" --list "$here/sample.txt"
