#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-deferred-warn.sh - harness self-test: load a module that WARNs
# from a work item 1.5 s later, after this test has ended (and before the
# final phase, 2 s after it, unloads the module).  This test passes its
# own assertions; the harness must still report it failed from the kernel
# log after its end (tests/vm/selftest.sh checks that).  Not part of the
# normal suite.
. tests/guest/lib.sh
tap_plan 1
tap_ok "load lt_selftest_bad mode=deferred-warn" lt_load lt_selftest_bad mode=deferred-warn
tap_done
