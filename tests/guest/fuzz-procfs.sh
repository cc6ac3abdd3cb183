#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fuzz-procfs.sh - thousands of random and adversarial writes to every
# writable /proc/latency_tracker file of every tracker, then
# invalid module parameters for every tracker module; afterwards values are
# intact, modules unload clean and the kernel log is clean (harness gate).
# LTG_SEED replays a run; LTG_FUZZ_WRITES sets writes per file (both can be
# given to make check-vm).  Default: 300 per file, 50 on the debug kernel
# (1650 in all, at a fifth of the speed: with 100 per file this test took
# 252 s of the debug tier's guest time, 290 s with 200).
. tests/guest/lib.sh

seed=${LTG_SEED:-$(date +%s)}
debug=0 writes_default=300
[ -e /sys/kernel/debug/kmemleak ] && debug=1 writes_default=50	# debug kernel
writes=${LTG_FUZZ_WRITES:-$writes_default}
tap_diag "seed $seed, $writes writes per file"

# Every tracker with its writable knobs (the contract's four, and the
# filters: filter_cgroup, filter_tgid, kthreads on every tracker module,
# filter_dev on block); lt_core_test's ctl is a test control, not fuzzed.
TRACKERS=(wakeup offcpu syscalls block)
KNOBS="threshold timeout wakeup_interval enable"
FILTERS="filter_cgroup filter_tgid kthreads"
declare -A EXTRA_KNOBS=([wakeup]=$FILTERS [offcpu]=$FILTERS [syscalls]=$FILTERS
	[block]="$FILTERS filter_dev")
expected=()
for t in lt_core_test "${TRACKERS[@]}"; do
	for k in $KNOBS ${EXTRA_KNOBS[$t]:-}; do
		expected+=("/proc/latency_tracker/$t/$k")
	done
done
BAD_PARAMS=(threshold=abc threshold=-5 threshold=0 threshold=1000000000001
	threshold=99999999999999999999999 threshold= timeout=1 timeout=-1
	max_events=0 max_events=99999999999 max_events=1x)

# Loads 2 + trackers, the fuzzer's run, one per knob, no other writable
# file, unloads, per tracker 2 per bad parameter and 2 more, the core.
tap_plan $((2 + ${#TRACKERS[@]} + 1 + ${#expected[@]} + 1 + 1 + ${#TRACKERS[@]} +
	${#TRACKERS[@]} * (2 * ${#BAD_PARAMS[@]} + 2) + 1))

tap_ok "load latency_tracker" lt_load latency_tracker
tap_ok "load lt_core_test (a tracker with procfs knobs)" lt_load lt_core_test selftest=0
for t in "${TRACKERS[@]}"; do
	tap_ok "load latency_tracker_$t" lt_load latency_tracker_$t
done
dirs=(/proc/latency_tracker/lt_core_test)
for t in "${TRACKERS[@]}"; do dirs+=(/proc/latency_tracker/$t); done

python3 tests/guest/fuzz_procfs.py "$seed" "$writes" "${dirs[@]}" >/tmp/fuzz.out 2>&1
tap_is "fuzzer ran to the end" "$?" 0
# The fuzzer prints one TAP line per writable file it found: one
# assertion per expected knob here, its diagnostics passed on.
declare -A fuzzed=()
while IFS= read -r line; do
	case $line in
	"ok "* | "not ok "*)
		path=${line#* - }
		path=${path%%: *}
		fuzzed[$path]=${line%% [0-9]*} ;;
	"#"*) echo "$line" ;;
	1..*) ;;
	*) echo "#   $line" ;;
	esac
done </tmp/fuzz.out
for f in "${expected[@]}"; do
	tap_is "$f: fuzzed, refused writes left it unchanged" "${fuzzed[$f]:-not fuzzed}" ok
	unset "fuzzed[$f]"
done
tap_is "no other writable file" "${!fuzzed[*]}" ""

tap_ok "unload lt_core_test after fuzzing" lt_unload lt_core_test
for t in "${TRACKERS[@]}"; do
	tap_ok "unload latency_tracker_$t after fuzzing" lt_unload latency_tracker_$t
done

tap_diag "fuzzing and unloads: $SECONDS s"

# Invalid module parameters refuse the load and name the parameter in
# what the kernel logged after the insmod.  The four modules' parameters
# are one macro's (probes/probe_common.h) with one parser: on the debug
# kernel, where a refused insmod takes 3.5 s (174 s for the four), only
# the first module gets the bad values.
for t in "${TRACKERS[@]}"; do
	m=latency_tracker_$t
	if [ $debug = 1 ] && [ "$t" != "${TRACKERS[0]}" ]; then
		tap_skip $((2 * ${#BAD_PARAMS[@]})) \
			"debug kernel: bad parameters tried on latency_tracker_${TRACKERS[0]} only (same macro and parser)"
		BAD_LIST=()
	else
		BAD_LIST=("${BAD_PARAMS[@]}")
	fi
	for bad in "${BAD_LIST[@]}"; do
		mark=$(kmsg_mark)
		loaded=0
		lt_load "$m" "$bad" 2>/dev/null && loaded=1
		tap_ok "$m $bad refused, not loaded" \
			bash -c "[ $loaded = 0 ] && ! grep -q '^$m ' /proc/modules"
		[ $loaded = 0 ] || lt_unload "$m"
		tap_ok "$m $bad: the kernel log names '${bad%%=*}'" \
			grep -q "$m.*${bad%%=*}" <<<"$(kmsg_since "$mark")"
	done
	tap_ok "$m loads with good parameters after the bad ones" \
		lt_load "$m" threshold=5000000 timeout=0 max_events=64
	tap_ok "$m unloads" lt_unload "$m"
done
tap_ok "unload latency_tracker" lt_unload latency_tracker
tap_diag "bad module parameters: done at $SECONDS s"
tap_done
