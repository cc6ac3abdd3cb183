#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# selftest.sh [KERNEL] - the harness checks itself: run the deliberately
# broken tests (a module that oopses, one that WARNs) and assert that each is
# reported as failed, with the test named and the kernel's words shown.
# Prints TAP.
set -u
. "$(dirname "$0")/common.sh"

k=${1:-6.1}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$LT_TOP/tests/vm/check-vm.sh" -k "$k" -t selftest-oops -t selftest-warn >"$out" 2>/dev/null
rc=$?

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

check "harness exits non-zero when tests crash or warn" test "$rc" != 0
check "the oopsing test is reported failed by name" \
	has "^not ok [0-9]+ - $k/selftest-oops \(the guest crashed"
check "the oops is shown from the console" has '^#   .*(BUG: kernel NULL pointer|Oops)'
check "the warning test is reported failed by name" \
	has "^not ok [0-9]+ - $k/selftest-warn \(.*kernel splat in dmesg"
check "the WARNING line is shown" has '^#   .*WARNING: .*lt_selftest_bad'
check "the test after the crash still ran in a new boot" has "guest tests: 0 passed, 2 failed"
if [ $failed != 0 ]; then
	echo "# harness output was:"
	sed 's/^/#   /' "$out"
fi
echo "1..$n"
[ $failed = 0 ]
