#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# selftest.sh [KERNEL] - the harness checks itself: run the deliberately
# broken tests (a module that oopses, one that WARNs, one that wedges the
# guest) and assert that each is reported as failed, with the test named
# and the kernel's words (or the watchdog's) shown.
# Prints TAP.
set -u
. "$(dirname "$0")/common.sh"

k=${1:-6.1}
out=$(mktemp) wedged=$(mktemp)
trap 'rm -f "$out" "$wedged"' EXIT
"$LT_TOP/tests/vm/check-vm.sh" -k "$k" -t selftest-oops -t selftest-warn >"$out" 2>/dev/null
rc=$?
# Short limits: the wedged guest is killed 20 s after the test started.
LT_TEST_TIMEOUT=10 LT_WATCHDOG_GRACE=10 \
	"$LT_TOP/tests/vm/check-vm.sh" -k "$k" -t selftest-wedge >"$wedged" 2>/dev/null
wedged_rc=$?

n=0 failed=0
check() { # desc cmd...
	local desc=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $desc"
	else
		failed=$((failed + 1))
		echo "not ok $n - $desc"
	fi
}
has() { grep -qE -- "$1" "$out"; }
wedge_has() { grep -qE -- "$1" "$wedged"; }

check "harness exits non-zero when tests crash or warn" test "$rc" != 0
check "the oopsing test is reported failed by name" \
	has "^not ok [0-9]+ - $k/selftest-oops \(the guest crashed"
check "the oops is shown from the console" has '^#   .*(BUG: kernel NULL pointer|Oops)'
check "the warning test is reported failed by name" \
	has "^not ok [0-9]+ - $k/selftest-warn \(.*kernel splat in dmesg"
check "the WARNING line is shown" has '^#   .*WARNING: .*lt_selftest_bad'
check "the test after the crash still ran in a new boot" has "guest tests: 0 passed, 2 failed"
check "a wedged guest: harness exits non-zero" test "$wedged_rc" != 0
check "a wedged guest is killed and its test reported by name" \
	wedge_has "^not ok [0-9]+ - $k/selftest-wedge \(the guest crashed or hung"
check "the watchdog says why" wedge_has '^#  watchdog: no progress for [0-9]+s \(running: selftest-wedge\)'
if [ $failed != 0 ]; then
	echo "# harness output was:"
	sed 's/^/#   /' "$out" "$wedged"
fi
echo "1..$n"
[ $failed = 0 ]
