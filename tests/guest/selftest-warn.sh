#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-warn.sh - harness self-test: load a module that warns.  This test
# passes its own assertions; the harness must still report it as failed
# (tests/vm/selftest.sh checks that).  Not part of the normal suite.
. tests/guest/lib.sh
tap_plan 2
tap_ok "load lt_selftest_bad mode=warn" lt_load lt_selftest_bad mode=warn
tap_ok "unload it (the next test may load it again)" lt_unload lt_selftest_bad
tap_done
