#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run.sh - run every built host unit test (each build variant) and print one
# TAP line per test binary: ok when it exits 0, planned all its assertions
# and printed no "not ok".  Sanitizer options come from tests/unit/Makefile.
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
	plan=$(sed -n 's/^1\.\.\([0-9]\+\)$/\1/p' "$out" | tail -n 1)
	oks=$(grep -cE '^ok ' "$out")
	bad=$(grep -cE '^not ok ' "$out")
	n=$((n + 1))
	if [ $rc = 0 ] && [ -n "$plan" ] && [ "$plan" = "$oks" ] && [ $bad = 0 ]; then
		echo "ok $n - $name ($oks assertions, $ms ms)"
	else
		failed=$((failed + 1))
		echo "not ok $n - $name (exit $rc, plan ${plan:-none}, $oks ok, $bad not ok)"
		grep -E '^not ok|^#' "$out" | head -n 20 | sed 's/^/#   /'
		tail -n 25 "$out" | grep -vE '^(ok|not ok|#)' | sed 's/^/#   /'
	fi
	rm -f "$out"
done
[ $n -gt 0 ] || { echo "not ok - no unit test was built"; exit 1; }
echo "1..$n"
[ $failed = 0 ]
