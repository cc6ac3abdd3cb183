#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fuzz-procfs.sh - thousands of random and adversarial writes to every
# writable /proc/latency_tracker file of every tracker we can load, then
# invalid module parameters for every tracker module; afterwards values are
# intact, modules unload clean and the kernel log is clean (harness gate).
# LTG_SEED replays a run; LTG_FUZZ_WRITES sets writes per file (both can be
# given to make check-vm).  Default: 500 per file, 200 on the debug kernel
# (still thousands in all, at a fifth of the speed).
. tests/guest/lib.sh

seed=${LTG_SEED:-$(date +%s)}
writes_default=500
[ -e /sys/kernel/debug/kmemleak ] && writes_default=200	# debug kernel
writes=${LTG_FUZZ_WRITES:-$writes_default}
tap_diag "seed $seed, $writes writes per file"

tap_ok "load latency_tracker" lt_load latency_tracker
tap_ok "load lt_core_test (a tracker with procfs knobs)" lt_load lt_core_test selftest=0
trackers=(lt_core_test)
for m in wakeup offcpu syscalls block; do
	if lt_ko latency_tracker_$m >/dev/null 2>&1; then
		tap_ok "load latency_tracker_$m" lt_load latency_tracker_$m
		trackers+=($m)
	fi
done
dirs=()
for t in "${trackers[@]}"; do dirs+=(/proc/latency_tracker/$t); done

python3 tests/guest/fuzz_procfs.py "$seed" "$writes" "${dirs[@]}" >/tmp/fuzz.out 2>&1
tap_is "fuzzer ran to the end" "$?" 0
# The fuzzer's TAP lines become ours (renumbered).
files=0
while IFS= read -r line; do
	case $line in
	"ok "*) _tap_result 0 "${line#ok * - }"; files=$((files + 1)) ;;
	"not ok "*) _tap_result 1 "${line#not ok * - }"; files=$((files + 1)) ;;
	"#"*) echo "$line" ;;
	1..*) ;;
	*) echo "#   $line" ;;
	esac
done </tmp/fuzz.out
# threshold, timeout, wakeup_interval, enable of each tracker at least.
tap_cmp "every tracker's knobs were fuzzed" "$files" -ge $((4 * ${#dirs[@]}))

for t in "${trackers[@]}"; do
	m=latency_tracker_$t
	[ "$t" = lt_core_test ] && m=lt_core_test
	tap_ok "unload $m after fuzzing" lt_unload "$m"
done

# Invalid module parameters refuse the load and name the parameter.
for t in "${trackers[@]}"; do
	[ "$t" = lt_core_test ] && continue
	m=latency_tracker_$t
	for bad in threshold=abc threshold=-5 threshold=0 threshold=1000000000001 \
		threshold=99999999999999999999999 threshold= timeout=1 timeout=-1 \
		max_events=0 max_events=99999999999 max_events=1x; do
		dmesg --clear
		if lt_load "$m" "$bad" 2>/dev/null; then
			_tap_result 1 "$m $bad refused"
			lt_unload "$m"
			continue
		fi
		tap_ok "$m $bad refused, not loaded" bash -c "! grep -q '^$m ' /proc/modules"
		tap_ok "$m $bad: dmesg names '${bad%%=*}'" bash -c "dmesg | grep -q '${bad%%=*}'"
	done
	tap_ok "$m loads with good parameters after the bad ones" \
		lt_load "$m" threshold=5000000 timeout=0 max_events=64
	tap_ok "$m unloads" lt_unload "$m"
done
tap_ok "unload latency_tracker" lt_unload latency_tracker
tap_done
