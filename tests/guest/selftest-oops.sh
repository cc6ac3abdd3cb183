#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-oops.sh - harness self-test: load a module that oopses.  This test
# passes its own assertions; the harness must still report it as failed
# (tests/vm/selftest.sh checks that).  Not part of the normal suite.
. tests/guest/lib.sh
tap_plan 1
tap_ok "load lt_selftest_bad mode=oops" lt_load lt_selftest_bad mode=oops
tap_done
