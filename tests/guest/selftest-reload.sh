#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-reload.sh - harness self-test, run after selftest-timeout in the
# same boot: the core it left loaded must be gone, so this test can load
# it (tests/vm/selftest.sh checks that).  Not part of the normal suite.
. tests/guest/lib.sh
tap_plan 2
tap_ok "load latency_tracker" lt_load latency_tracker
tap_ok "unload it" lt_unload latency_tracker
tap_done
