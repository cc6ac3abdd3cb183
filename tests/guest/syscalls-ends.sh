#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# syscalls-ends.sh - every system call the syscalls tracker starts ends:
# after each scenario, `pending` is back to 0.
#  - a static i386 program that sleeps 300 ms then calls exit_group (ia32
#    252) or exit (ia32 1): compat system call numbers;
#  - a second thread that sleeps then execs while the main thread blocks:
#    de_thread() kills the main thread in its call and the exec'ing thread
#    returns from execve under the leader's pid;
#  - a task killed inside a slow nanosleep.
# Threshold 100 ms, only the scenarios' cgroup tracked; the scenario
# programs are built on the host
# (tests/guest/progs/Makefile, build/progs/).
. tests/guest/lib.sh
. tests/guest/progs/trk.sh
TRK=syscalls TRK_MOD=latency_tracker_syscalls
P=build/progs
CG=/sys/fs/cgroup
tap_plan 11

# The scenarios run in a cgroup of their own and the tracker counts only
# that cgroup (filter_cgroup): `pending` is then theirs alone, 0 when none
# of them is in a system call.  (Counting the whole guest, the other
# tasks' calls in flight come and go: the kernel log streamer, udev.)
grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG
mkdir -p $CG/lt_ends
# in_cg CMD...: CMD run in the cgroup.
in_cg() { (echo $BASHPID >$CG/lt_ends/cgroup.procs && exec "$@"); }
tap_ok "load (threshold 100 ms), only the cgroup lt_ends tracked" \
	eval 'trk_load threshold=100000000 && trk_set filter_cgroup $CG/lt_ends'
# settle: `pending` once the exiting tasks' last events are done.
settle() { sleep 0.5; trk_stat pending; }
tap_is "pending at start: 0" "$(settle)" 0

for i in 1 2; do in_cg "$P/sleep32" 300; done
tap_is "two i386 runs ending in exit_group: pending back to 0" "$(settle)" 0
in_cg "$P/sleep32" 300 exit
tap_is "an i386 run ending in exit: pending back to 0" "$(settle)" 0

for i in 1 2 3 4 5; do in_cg "$P/thread_exec" 200; done
tap_is "five execs from a second thread: pending back to 0" "$(settle)" 0

(echo $BASHPID >$CG/lt_ends/cgroup.procs && exec sleep 5) &
victim=$!
sleep 0.5
tap_is "the victim's nanosleep is pending" "$(trk_stat pending)" 1
kill -KILL $victim
wait $victim 2>/dev/null
tap_is "a task killed in nanosleep: pending back to 0" "$(settle)" 0

# The tracker still measures after all that.
alerts=$(mktemp)
trk_reader_start "$alerts"
in_cg "$P/sleep32" 300
trk_reader_stop
tap_cmp "the i386 nanosleep itself is reported (ia32 nr 162)" \
	"$(grep ' comm=sleep32 ' "$alerts" | grep -c ' nr=162')" -ge 1
tap_is "no record of the i386 exit_group (nr 252)" \
	"$(grep ' comm=sleep32 ' "$alerts" | grep -c ' nr=252')" 0
tap_ok "unload" trk_unload
tap_ok "core unloads" lt_unload latency_tracker
rmdir $CG/lt_ends
rm -f "$alerts"
tap_done
