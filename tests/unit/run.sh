#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run.sh - run every built host unit test (each build variant) and print one
# TAP line per test binary: ok when it exits 0, declared its plan ("1..N",
# tap.h's tap_plan) before its first assertion, then made exactly N
# assertions and printed no "not ok".  A plan printed at the end, from the
# running count, does not count: a test that stops early or skips a loop
# must fail.  Sanitizer options come from tests/unit/Makefile.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build/unit}
export TSAN_OPTIONS="suppressions=$top/tests/unit/tsan.supp halt_on_error=1 second_deadlock_stack=1"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

n=0 failed=0
for bin in "$build"/*/test_*; do
	[ -x "$bin" ] || continue
	name=${bin#"$build"/}
	out=$(mktemp)
	t0=$(date +%s%N)
	timeout 300 "$bin" >"$out" 2>&1
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	# The first TAP line must be the plan, and the only one.
	plan=$(grep -m 1 -E '^(1\.\.[0-9]+|ok|not ok)( |$)' "$out" |
		sed -n 's/^1\.\.\([0-9]\+\)$/\1/p')
	[ "$(grep -cE '^1\.\.[0-9]+$' "$out")" = 1 ] || plan=
	oks=$(grep -cE '^ok ' "$out")
	bad=$(grep -cE '^not ok ' "$out")
	n=$((n + 1))
	if [ $rc = 0 ] && [ -n "$plan" ] && [ "$plan" = "$oks" ] && [ $bad = 0 ]; then
		echo "ok $n - $name ($oks assertions, $ms ms)"
	else
		failed=$((failed + 1))
		echo "not ok $n - $name (exit $rc, plan ${plan:-none first}, $oks ok, $bad not ok)"
		grep -E '^not ok|^#' "$out" | head -n 20 | sed 's/^/#   /'
		tail -n 25 "$out" | grep -vE '^(ok|not ok|#)' | sed 's/^/#   /'
	fi
	rm -f "$out"
done
[ $n -gt 0 ] || { echo "not ok - no unit test was built"; exit 1; }
echo "1..$n"
[ $failed = 0 ]
