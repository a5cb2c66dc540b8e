#!/bin/bash
# sample.sh [--suite execute|compile] -- the torture part of `make check`:
# the fixed sample of GCC torture tests in sample.txt (the execute suite,
# the default) or sample-compile.txt (the compile suite; sample-compile.sh
# runs this), see make-sample.sh for how they were chosen, at -O0 and -O2,
# in every mode the plugin accepts.  Run by automake's test harness from
# the top of the build tree; results in testsuite/torture/sample/ or
# testsuite/torture/sample-compile/ (summary.txt, failures.txt, ...).
# Exit status: 0 all passed, 1 a check failed, 99 the harness could not run.
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).

set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
suite=execute
if [ "${1:-}" = --suite ]; then suite=${2:-}; fi
case $suite in
execute) list=$here/sample.txt; out=sample ;;
compile) list=$here/sample-compile.txt; out=sample-compile ;;
*) echo "sample.sh: no suite '$suite' (execute or compile)" >&2; exit 99 ;;
esac
out="${builddir:-$PWD}/testsuite/torture/$out"
. "$here/../torture/common.sh"
run_sample "$out" bash "$here/run.sh" --suite "$suite" --list "$list"
