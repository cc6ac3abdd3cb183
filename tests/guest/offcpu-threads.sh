#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# lt-guest-mem: 2G
#
# offcpu-threads.sh - the pool grows with the threads that sleep: with the
# offcpu tracker at its defaults (max_events 0: a ceiling sized from the
# guest's memory, a first segment sized from its CPUs), N threads fall
# asleep in futex (build/progs/lt_pending, the bench's program), each a
# pending event: nothing is dropped, the pool grew past its first
# segment and stays within its ceiling; all of them woken and asleep
# again (N events ended, N started while the ended ones wait for their
# grace period), still nothing dropped.  The thread limits are raised for
# the run (a 2 GiB guest's default threads-max is about 15000).
# LTG_OFFCPU_THREADS sets N (20000; fewer on the debug kernel,
# tests/vm/tiers.sh).
. tests/guest/lib.sh
. tests/guest/progs/trk.sh
TRK=offcpu TRK_MOD=latency_tracker_offcpu

N=${LTG_OFFCPU_THREADS:-20000}
PENDING=build/progs/lt_pending
tap_plan 15

mem_kb=$(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo)
# 2 GiB less the kernel's own (KASAN's shadow: 1.6 GiB on the debug kernel).
tap_cmp "guest memory >= 1.5 GiB (lt-guest-mem)" "$mem_kb" -ge 1572864
old_pid_max=$(cat /proc/sys/kernel/pid_max)
old_threads_max=$(cat /proc/sys/kernel/threads-max)
echo 4194304 >/proc/sys/kernel/pid_max
echo 1000000 >/proc/sys/kernel/threads-max

tap_ok "load offcpu at its defaults" trk_load
initial=$(trk_stat capacity)
max=$(trk_stat max_events)
tap_diag "pool: $initial slots at first, ceiling $max"
tap_cmp "ceiling from memory: above $N threads" "${max:-0}" -gt "$N"
tap_cmp "ceiling from memory: at most one slot per 8 KiB of RAM" \
	"${max:-0}" -le $((mem_kb / 8))
tap_cmp "first segment below $N: the pool must grow" "${initial:-$N}" -lt "$N"

coproc PEND { exec "$PENDING" "$N" 2>&1; }
line=
read -r -t 900 line <&"${PEND[0]}"
tap_is "$N threads asleep" "$line" "ready $N"
tap_diag "stats: $(tr '\n' ' ' <"$(trk_dir)/stats")"
tap_is "nothing dropped with $N threads asleep" "$(trk_stat dropped)" 0
tap_cmp "every thread pending" "$(trk_stat pending)" -ge "$N"
tap_cmp "the pool grew past its first segment" "$(trk_stat capacity)" -gt "$initial"
tap_cmp "and within its ceiling" "$(trk_stat capacity)" -le "$max"
tap_cmp "growths counted" "$(trk_stat grown)" -ge 1

line=
echo wake >&"${PEND[1]}" && read -r -t 900 line <&"${PEND[0]}"
tap_is "all $N woken and asleep again" "$line" "asleep $N"
tap_is "nothing dropped after the wakeups" "$(trk_stat dropped)" 0
tap_diag "stats: $(tr '\n' ' ' <"$(trk_dir)/stats")"
eval "exec ${PEND[1]}>&-"
wait "$PEND_PID" 2>/dev/null

tap_ok "unload" trk_unload
tap_ok "core unloads" lt_unload latency_tracker
echo "$old_threads_max" >/proc/sys/kernel/threads-max
echo "$old_pid_max" >/proc/sys/kernel/pid_max
tap_done
