#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-ok.sh - harness self-test: a test that passes, so that the
# self-test sees a guest boot and run it (tests/vm/selftest.sh starts two
# guests at once with no initramfs cached, each running this).  Not part
# of the normal suite.
. tests/guest/lib.sh
tap_plan 2
tap_ok "the guest runs a command" true
tap_ok "our modules are there" test -n "$(lt_ko lt_selftest_bad)"
tap_done
