#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest-plan.sh - harness self-test: a test that plans 5 assertions,
# makes 4 and exits 0, as a test that silently stops short would.  The
# harness must report it failed from its TAP plan alone
# (tests/vm/selftest.sh checks that).  Not part of the normal suite.
. tests/guest/lib.sh
tap_plan 5
for i in 1 2 3 4; do
	tap_ok "assertion $i of the 5 planned" true
done
exit 0
