#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run.sh - run every host unit test the Makefile builds (each build variant;
# `make -C tests/unit list`) and print one TAP line per test binary: ok when
# it exits 0, declared its plan ("1..N", tap.h's tap_plan) before its first
# assertion, then made exactly N assertions and printed no "not ok".  A plan
# printed at the end, from the running count, does not count: a test that
# stops early or skips a loop must fail.  Sanitizer options come from
# tests/unit/Makefile.  The binaries run LT_UNIT_JOBS at a time (default:
# the host's CPUs); their lines are printed in the Makefile's order.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build/unit}
export BUILD=$build
export TSAN_OPTIONS="suppressions=$top/tests/unit/tsan.supp halt_on_error=1 second_deadlock_stack=1"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mapfile -t bins < <(make -s -C "$top/tests/unit" list)
[ ${#bins[@]} -gt 0 ] || { echo "not ok - no unit test was built"; exit 1; }

# run_one I BIN: run one binary, its output in $out/I.out, "RC MS" in $out/I.rc.
run_one() {
	local t0 rc
	t0=$(date +%s%N)
	timeout 300 "$2" >"$out/$1.out" 2>&1
	rc=$?
	echo "$rc $((($(date +%s%N) - t0) / 1000000))" >"$out/$1.rc"
}

jobs=${LT_UNIT_JOBS:-$(nproc)}
for i in "${!bins[@]}"; do
	while [ "$(jobs -pr | wc -l)" -ge "$jobs" ]; do wait -n; done
	run_one "$i" "${bins[i]}" &
done
wait

n=0 failed=0
for i in "${!bins[@]}"; do
	bin=${bins[i]} f=$out/$i.out
	name=${bin#"$build"/}
	read -r rc ms <"$out/$i.rc" 2>/dev/null || { rc=missing ms=0; }
	# The first TAP line must be the plan, and the only one.
	plan=$(grep -m 1 -E '^(1\.\.[0-9]+|ok|not ok)( |$)' "$f" |
		sed -n 's/^1\.\.\([0-9]\+\)$/\1/p')
	[ "$(grep -cE '^1\.\.[0-9]+$' "$f")" = 1 ] || plan=
	oks=$(grep -cE '^ok ' "$f")
	bad=$(grep -cE '^not ok ' "$f")
	n=$((n + 1))
	if [ "$rc" = 0 ] && [ -n "$plan" ] && [ "$plan" = "$oks" ] && [ "$bad" = 0 ]; then
		echo "ok $n - $name ($oks assertions, $ms ms)"
	else
		failed=$((failed + 1))
		echo "not ok $n - $name (exit $rc, plan ${plan:-none first}, $oks ok, $bad not ok)"
		grep -E '^not ok|^#' "$f" | head -n 20 | sed 's/^/#   /'
		tail -n 25 "$f" | grep -vE '^(ok|not ok|#)' | sed 's/^/#   /'
	fi
done
echo "1..$n"
[ $failed = 0 ]
