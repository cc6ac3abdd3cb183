#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# security.sh - the security review, as tests, with every module we build
# loaded: /proc/latency_tracker is root-only (modes, and a non-root process
# is refused); no alert record, stats/histogram file, dmesg line or trace
# event prints a raw kernel pointer (what the kernel prints for a stack
# changes with the kernel: every line runs this).  Memory bounded under
# hostile readers and writers: fuzz-procfs.sh.
. tests/guest/lib.sh

nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
# A raw x86-64 kernel address: 16 hex digits starting with ffff.
TRACKERS=(wakeup offcpu syscalls block)

# 16 assertions, and a load and an unload per tracker.
tap_plan $((16 + 2 * ${#TRACKERS[@]}))
tap_ok "load latency_tracker" lt_load latency_tracker
tap_ok "load lt_core_test" lt_load lt_core_test selftest=0
for m in "${TRACKERS[@]}"; do
	tap_ok "load latency_tracker_$m" lt_load latency_tracker_$m threshold=1000000
done

# --- modes and ownership -------------------------------------------------------
# The top directory is 0511: traversable by all, for the one file a
# non-root user may open, latency_tracker_app's transport (app.sh).
bad=$(find /proc/latency_tracker \( -perm /077 -o ! -user root -o ! -group root \) \
	! \( -path /proc/latency_tracker -perm 511 \) -printf '%m %u:%g %p\n')
tap_is "no file or directory under /proc/latency_tracker has group/other bits or a non-root owner" "$bad" ""
tap_is "/proc/latency_tracker: 0511 root:root, not listable by a non-root process" \
	"$(stat -c '%a %U:%G' /proc/latency_tracker) $(nobody ls /proc/latency_tracker 2>&1 >/dev/null | grep -c 'Permission denied')" \
	"511 root:root 1"
nfiles=$(find /proc/latency_tracker -type f | wc -l)
tap_cmp "there are files to check" "$nfiles" -ge 8
# One non-root shell tries every file (a process per file costs seconds
# under emulation); it names those it could read or write.
files=$(find /proc/latency_tracker -type f)
opened=$(nobody sh -c 'for f; do
		cat "$f" >/dev/null 2>&1 && echo "read $f"
		(echo 1 >"$f") 2>/dev/null && echo "write $f"
	done; echo done' sh $files)
tap_is "the non-root shell tried them all" "$(tail -n 1 <<<"$opened")" done
tap_is "a non-root process can read none of them" "$(grep '^read ' <<<"$opened")" ""
tap_is "a non-root process can write none of them" "$(grep '^write ' <<<"$opened")" ""
tap_ok "a non-root process cannot list /proc/latency_tracker/lt_core_test" \
	bash -c '! setpriv --reuid=65534 --regid=65534 --clear-groups ls /proc/latency_tracker/lt_core_test >/dev/null 2>&1'

# --- no raw kernel pointers ------------------------------------------------------
tracefs=/sys/kernel/tracing
out=$(mktemp)
# Readers see records appended after they open (kmsg semantics): open one
# on every tracker first, then make every tracker report something.
readers=()
for d in /proc/latency_tracker/*/; do
	timeout 30 cat "$d/alerts" >>"$out" 2>/dev/null &
	readers+=($!)
done
echo 1 >$tracefs/events/latency_tracker/enable
echo >$tracefs/trace
sleep 1
echo "alerts 50" >/proc/latency_tracker/lt_core_test/ctl
echo "events 3" >/proc/latency_tracker/lt_core_test/ctl
echo "delay 30" >/proc/latency_tracker/lt_core_test/ctl
for i in 1 2 3; do sleep 0.2; dd if=/dev/zero of=/tmp/sec.dat bs=64k count=16 conv=fsync 2>/dev/null; done
sleep 1	# the readers take in what was reported
kill "${readers[@]}" 2>/dev/null
wait "${readers[@]}" 2>/dev/null
echo 0 >$tracefs/events/latency_tracker/enable
for d in /proc/latency_tracker/*/; do cat "$d/stats" "$d/histogram" >>"$out"; done
tap_cmp "alert records were read" "$(grep -c 'tracker=lt_core_test' "$out")" -ge 20
tap_is "no raw pointer in alerts, stats or histograms" "$(grep -oiE "$LT_RAW_PTR" "$out" | head -3)" ""
cat $tracefs/trace >"$out.trace"
tap_cmp "latency_tracker trace events were recorded" \
	"$(grep -cE 'latency_tracker_|(wakeup|offcpu|syscall|block):' "$out.trace")" -ge 1
tap_is "no raw pointer in our trace events" "$(grep -E 'latency_tracker|wakeup:|offcpu:|syscall:|block:' "$out.trace" | grep -oiE "$LT_RAW_PTR" | head -3)" ""
tap_is "no raw pointer in our dmesg lines" "$(dmesg | grep -iE 'latency_tracker|lt_core_test' | grep -oiE "$LT_RAW_PTR" | head -3)" ""

for m in "${TRACKERS[@]}"; do
	tap_ok "unload latency_tracker_$m" lt_unload latency_tracker_$m
done
tap_ok "unload lt_core_test" lt_unload lt_core_test
tap_ok "unload latency_tracker" lt_unload latency_tracker
tap_done
