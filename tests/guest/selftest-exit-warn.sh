#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-exit-warn.sh - harness self-test: load a module that WARNs when
# it is unloaded and leave it loaded.  This test passes; the final unload
# of the boot must be reported failed (tests/vm/selftest.sh checks that).
# Not part of the normal suite.
. tests/guest/lib.sh
tap_plan 1
tap_ok "load lt_selftest_bad mode=exit-warn (left loaded)" lt_load lt_selftest_bad mode=exit-warn
tap_done
