#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# hotplug.sh - CPU hotplug under load with every tracker loaded: CPU 1 is
# taken offline and brought back again and again while hackbench and
# stress-ng run, null_blk serves direct I/O, and the trackers time every
# wakeup, off-CPU period, syscall and request with a timeout set (so the
# per-CPU timeout FIFOs hold events), alerts flowing.  What it exercises:
# the syscalls tracker's per-CPU slot (its task migrates when the CPU goes
# away), the reclaim kick sent to an offline CPU (reclaim.c), the per-CPU
# timeout FIFOs of an offline CPU (still scanned), the timeout timer
# migrating.  Afterwards: tracking still works on CPU 1, pending is 0 after
# disable, every module unloads, the kernel log is clean (the harness) and
# on the debug kernel kmemleak finds nothing of ours (the harness's final
# scan, after every module is unloaded).
. tests/guest/lib.sh

CYCLES=${LTG_HOTPLUG_CYCLES:-8}
TRACKERS="wakeup offcpu syscalls block"
ONLINE=/sys/devices/system/cpu/cpu1/online
tap_plan $((CYCLES * 2 + 15))

tap_ok "core loads" lt_load latency_tracker
tap_ok "null_blk loads (1 ms completions)" \
	modprobe null_blk nr_devices=1 irqmode=2 completion_nsec=1000000
for t in $TRACKERS; do
	tap_ok "$t loads (threshold 1 ms, timeout 20 ms)" \
		lt_load latency_tracker_$t threshold=1000000 timeout=20000000
done
readers=()
offcpu_alerts=$(mktemp)
for t in $TRACKERS; do
	echo 0 >/proc/latency_tracker/$t/wakeup_interval
	out=/dev/null
	[ $t = offcpu ] && out=$offcpu_alerts
	cat /proc/latency_tracker/$t/alerts >$out &
	readers+=($!)
done

end=$((SECONDS + 600))
(while [ $SECONDS -lt $end ]; do nice -n 10 hackbench -g 2 -l 100 >/dev/null 2>&1; done) &
wl1=$!
nice -n 10 stress-ng --switch 1 --timer 1 --timer-freq 1000 --quiet -t 600 >/dev/null 2>&1 &
wl2=$!
(while [ $SECONDS -lt $end ]; do
	dd if=/dev/zero of=/dev/nullb0 bs=4k count=64 oflag=direct 2>/dev/null
done) &
wl3=$!
renice -n -10 $$ >/dev/null
sleep 2

for i in $(seq "$CYCLES"); do
	tap_ok "cycle $i: CPU 1 offline" bash -c "echo 0 >$ONLINE"
	sleep 0.$((RANDOM % 5 + 3))
	tap_ok "cycle $i: CPU 1 online" bash -c "echo 1 >$ONLINE"
	sleep 0.$((RANDOM % 5 + 3))
done
tap_is "CPU 1 online at the end" "$(cat $ONLINE)" 1

# Tracking still works on CPU 1 after the cycles: a task pinned there
# sleeping 300 ms is reported by the off-CPU tracker, as on CPU 1.
taskset -c 1 sleep 0.3 &
sleeper=$!
wait $sleeper
sleep 1
tap_cmp "offcpu reports the sleeper pinned on CPU 1" \
	"$(grep " pid=$sleeper " "$offcpu_alerts" | grep -c " cpu=1 ")" -ge 1

kill $wl1 $wl2 $wl3 2>/dev/null
wait $wl1 $wl2 $wl3 2>/dev/null
pending_bad=
for t in $TRACKERS; do
	echo 0 >/proc/latency_tracker/$t/enable
	p=$(awk '$1 == "pending" { print $2 }' /proc/latency_tracker/$t/stats)
	[ "$p" = 0 ] || pending_bad+=" $t:$p"
	tap_diag "$t: $(tr '\n' ' ' </proc/latency_tracker/$t/stats)"
done
tap_is "pending is 0 after disable on every tracker" "$pending_bad" ""
kill "${readers[@]}" 2>/dev/null
wait "${readers[@]}" 2>/dev/null
for t in $TRACKERS; do
	tap_ok "$t unloads" lt_unload latency_tracker_$t
done
tap_ok "core unloads" lt_unload latency_tracker
tap_ok "null_blk unloads" modprobe -r null_blk
rm -f "$offcpu_alerts"
tap_done
