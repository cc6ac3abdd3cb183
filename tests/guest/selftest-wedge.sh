#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-wedge.sh - harness self-test: load a module that stops every CPU
# with interrupts off.  The guest never finishes this test; the host's
# watchdog (tests/vm/qemu.sh) must kill it and the harness report the test
# failed (tests/vm/selftest.sh checks that).  Not part of the normal suite.
. tests/guest/lib.sh
tap_plan 1
tap_ok "load lt_selftest_bad mode=wedge" lt_load lt_selftest_bad mode=wedge
tap_done
