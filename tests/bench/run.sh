#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run.sh - `make bench`: every benchmark in one run, each side by side with
# its peers, printed as a table and written as JSON (BENCH_JSON, default
# bench-results.json at the tree root).  Ratios are the figures to read:
# under emulation (TCG) absolute times mean little.
#   host:   tests/bench/ht_bench (our table vs cds_lfht vs a mutex table)
#   kernel: tests/guest/bench.sh -- in a QEMU guest (KERNEL=, default 6.12;
#           6 GiB of memory, LT_GUEST_MEM=, for 10^5 sleeping threads),
#           or on this machine's own kernel when it can load modules.
# Fails (exit 1, naming it) when any configuration could not be measured.
# LTG_BENCH_* variables choose a smaller guest run (tests/guest/bench.sh).
# BENCH_BASE=COMMIT also measures that commit's trackers (its modules
# built in a worktree of their own): the configuration base_ours beside
# ours, to see what a change costs (LTG_BENCH_CONFIGS must name it).
set -u
. "$(dirname "$0")/../vm/common.sh"

json=${BENCH_JSON:-$LT_TOP/bench-results.json}

# rawsys_probe KVER: build tests/bench/lttng (LTTng's probe for the
# raw_syscalls tracepoints) against the lttng-modules tree tests/vm/lttng.sh
# built for KVER, once per source change; print the .ko's path.
rawsys_probe() {
	local kver=$1 lttng dir key
	lttng=$("$LT_TOP/tests/vm/lttng.sh" "$kver") || return 1
	dir=$LT_CACHE/bench/lttng-rawsys/$kver
	key=$(cat "$LT_TOP"/tests/bench/lttng/* "$lttng/Module.symvers" | sha256sum | cut -c1-16)
	if [ "$(cat "$dir/.key" 2>/dev/null)" != "$key" ]; then
		rm -rf "$dir" && mkdir -p "$dir" && cp -a "$LT_TOP/tests/bench/lttng/." "$dir/" || return 1
		if ! lt_kmake "$kver" M="$dir" LTTNG_MODULES_DIR="$lttng" \
			KBUILD_EXTRA_SYMBOLS="$lttng/Module.symvers" modules >"$dir/build.log" 2>&1 ||
			grep -q 'warning:' "$dir/build.log"; then
			grep -E 'error|warning' "$dir/build.log" | head -n 20 >&2
			return 1
		fi
		echo "$key" >"$dir/.key"
	fi
	echo "$dir/lttng-probe-lt_bench_raw_syscalls.ko"
}
work=$(mktemp -d)
trap 'rm -rf "$work"; [ -z "${BENCH_BASE:-}" ] || git -C "$LT_TOP" worktree remove --force "$work/base" 2>/dev/null' EXIT

# base_modules KVER: BENCH_BASE's modules for KVER, in $work/base-ko.
base_modules() {
	git -C "$LT_TOP" worktree add --detach "$work/base" "$BENCH_BASE" >/dev/null 2>&1 ||
		lt_die "BENCH_BASE=$BENCH_BASE: not a commit of this repository"
	"$work/base/tests/vm/modules.sh" "$1" "$work/base-ko" >/dev/null ||
		lt_die "BENCH_BASE=$BENCH_BASE: its modules do not build for $1"
	echo "$work/base-ko"
}

python3 "$LT_TOP/tests/bench/test_report.py" >"$work/test_report.out" ||
	{ cat "$work/test_report.out" >&2; lt_die "tests/bench/test_report.py failed"; }
make -s -C "$LT_TOP/tests/bench" ht pending || lt_die "cannot build ht_bench and lt_pending"
lt_stage "host hash-table benchmark" "$LT_TOP/build/bench/ht_bench" --json >"$work/ht.json" ||
	lt_die "ht_bench failed"

if [ -e /proc/modules ] && [ -e "/lib/modules/$(uname -r)/build/Makefile" ] && [ -z "${KERNEL:-}" ]; then
	where="this machine's kernel $(uname -r)"
	ko=$("$LT_TOP/tests/vm/modules.sh" "$(uname -r)" "$work/ko") || exit 1
	(cd "$LT_TOP" && LT_KO_DIR=$ko lt_stage "kernel benchmarks" bash tests/guest/bench.sh) >"$work/kernel.out"
	rc=$?
else
	line=${KERNEL:-6.12}
	kver=$(lt_stage "fetch kernel $line" "$LT_TOP/tests/vm/kernel.sh" fetch "$line") || exit 1
	LTG_BENCH_RAWSYS_KO=$(rawsys_probe "$kver") || lt_die "cannot build the LTTng raw_syscalls probe for $kver"
	export LTG_BENCH_RAWSYS_KO
	if [ -n "${BENCH_BASE:-}" ]; then
		LTG_BENCH_BASE_KO=$(lt_stage "build $BENCH_BASE's modules" base_modules "$kver") || exit 1
		LTG_BENCH_BASE=$(git -C "$LT_TOP" rev-parse --short "$BENCH_BASE")
		export LTG_BENCH_BASE_KO LTG_BENCH_BASE
	fi
	# Two vCPUs really in parallel (one host thread each): the figures
	# are about concurrent CPUs.  The bench attaches its probes with the
	# guest idle, away from the text-patching hazard (tests/vm/qemu.sh).
	# tsc=reliable: under emulation the clocksource watchdog marks the
	# TSC unstable, at any time of the run (4 of the last 8 runs), and
	# switches to the HPET, an emulated device: every clock read (ours,
	# LTTng's, the bench's own) costs differently from then on.
	# bench.sh fails if the clocksource changes anyway.  An hour at most
	# (the custom part takes about 5 minutes of it).
	d=$(LT_GUEST_APPEND="${LT_GUEST_APPEND:-} tsc=reliable" \
		LT_TCG_THREAD=${LT_TCG_THREAD:-multi} LT_GUEST_MEM=${LT_GUEST_MEM:-6G} \
		"$LT_TOP/tests/vm/guest-script.sh" "$line" bench 3600) || exit 1
	cp "$d/bench.tap" "$work/kernel.out"
	rc=$(cat "$d/bench.rc" 2>/dev/null || echo "none")
	where="a QEMU guest ($(cat "$d/accel")), kernel line $line: Debian's $kver"
	[ "$(cat "$d/accel")" = tcg ] && where="$where -- emulated CPU: compare ratios only"
	lt_log "guest run: $d"
fi
python3 "$LT_TOP/tests/bench/report.py" "$work/ht.json" "$work/kernel.out" "$where" "$json" || exit 1
[ "$rc" = 0 ] || lt_die "the guest side of the bench exited with status $rc"
