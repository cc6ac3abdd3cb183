#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run.sh - `make bench`: every benchmark in one run, each side by side with
# its peers, printed as a table and written as JSON (BENCH_JSON, default
# bench-results.json at the tree root).  Ratios are the figures to read:
# under emulation (TCG) absolute times mean little.
#   host:   tests/bench/ht_bench (our table vs cds_lfht vs a mutex table)
#   kernel: tests/guest/bench.sh -- in a QEMU guest (KERNEL=, default 6.12),
#           or on this machine's own kernel when it can load modules.
set -u
. "$(dirname "$0")/../vm/common.sh"

json=${BENCH_JSON:-$LT_TOP/bench-results.json}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

make -s -C "$LT_TOP/tests/bench" ht || lt_die "cannot build ht_bench"
lt_stage "host hash-table benchmark" "$LT_TOP/build/bench/ht_bench" --json >"$work/ht.json" ||
	lt_die "ht_bench failed"

if [ -e /proc/modules ] && [ -e "/lib/modules/$(uname -r)/build/Makefile" ] && [ -z "${KERNEL:-}" ]; then
	where="this machine's kernel $(uname -r)"
	ko=$("$LT_TOP/tests/vm/modules.sh" "$(uname -r)" "$work/ko") || exit 1
	(cd "$LT_TOP" && LT_KO_DIR=$ko lt_stage "kernel benchmarks" bash tests/guest/bench.sh) >"$work/kernel.out"
else
	line=${KERNEL:-6.12}
	# Two vCPUs really in parallel (one host thread each): the figures
	# are about concurrent CPUs.  The bench attaches its probes with the
	# guest idle, away from the text-patching hazard (tests/vm/qemu.sh).
	d=$(LT_TCG_THREAD=${LT_TCG_THREAD:-multi} \
		"$LT_TOP/tests/vm/guest-script.sh" "$line" bench 3000) || exit 1
	cp "$d/bench.tap" "$work/kernel.out"
	where="a QEMU guest ($(cat "$d/accel")) booting Debian's $(grep -o "LT_KVER='[^']*" "$d/job.env" | cut -d"'" -f2)"
	[ "$(cat "$d/accel")" = tcg ] && where="$where -- emulated CPU: compare ratios only"
fi
python3 "$LT_TOP/tests/bench/report.py" "$work/ht.json" "$work/kernel.out" "$where" "$json"
