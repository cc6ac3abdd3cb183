#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-timeout.sh - harness self-test: load the core and hang past the
# harness's time limit, with no cleanup, as a test that wedges in user
# space does.  The harness must report it timed out and unload what it
# left, so that the next test of the boot (selftest-reload) can load the
# core again (tests/vm/selftest.sh checks both).  Not part of the normal
# suite.
. tests/guest/lib.sh
tap_plan 2
tap_ok "load latency_tracker (left loaded: this test never cleans up)" lt_load latency_tracker
sleep 3600
tap_ok "never reached: the harness kills this test first" true
tap_done
