#!/bin/bash
# sample-compile.sh -- the compile-torture part of `make check`: the tests
# of sample-compile.txt, at -O0 and -O2, in every mode the plugin accepts,
# must compile with the plugin whenever they compile plainly (sample.sh
# --suite compile; results in testsuite/torture/sample-compile/).
#
# Copyright (C) 2026 the ipp authors.  GPL-3.0-or-later (see COPYING).

exec bash "$(dirname "$0")/sample.sh" --suite compile
