#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# syscalls-ends.sh - every system call the syscalls tracker starts ends:
# after each scenario, `pending` is back where it was.
#  - a static i386 program that sleeps 300 ms then calls exit_group (ia32
#    252) or exit (ia32 1): compat system call numbers;
#  - a second thread that sleeps then execs while the main thread blocks:
#    de_thread() kills the main thread in its call and the exec'ing thread
#    returns from execve under the leader's pid;
#  - a task killed inside a slow nanosleep.
# Threshold 100 ms; the scenario programs are built on the host
# (tests/guest/progs/Makefile, build/progs/).
. tests/guest/lib.sh
. tests/guest/progs/trk.sh
TRK=syscalls TRK_MOD=latency_tracker_syscalls
P=build/progs
tap_plan 9

tap_ok "load (threshold 100 ms)" trk_load threshold=100000000
# settle: the smallest `pending` of five samples 0.2 s apart. Other
# tasks' system calls in flight when a sample is taken (the kernel log
# streamer writing to the 9p share is slow on the debug kernel) count too;
# they come and go, while a leaked slot stays in every sample.
settle() {
	local i v min=
	sleep 0.5
	for i in 1 2 3 4 5; do
		v=$(trk_stat pending)
		if [ -z "$min" ] || [ "$v" -lt "$min" ]; then min=$v; fi
		sleep 0.2
	done
	echo "$min"
}
base=$(settle)
tap_diag "pending at start: $base"

for i in 1 2; do "$P/sleep32" 300; done
tap_is "two i386 runs ending in exit_group: pending back to $base" "$(settle)" "$base"
base=$(settle)
"$P/sleep32" 300 exit
tap_is "an i386 run ending in exit: pending back to $base" "$(settle)" "$base"

base=$(settle)
for i in 1 2 3 4 5; do "$P/thread_exec" 200; done
tap_is "five execs from a second thread: pending back to $base" "$(settle)" "$base"

base=$(settle)
sleep 5 &
victim=$!
sleep 0.5
kill -KILL $victim
wait $victim 2>/dev/null
tap_is "a task killed in nanosleep: pending back to $base" "$(settle)" "$base"

# The tracker still measures after all that.
alerts=$(mktemp)
trk_reader_start "$alerts"
"$P/sleep32" 300
trk_reader_stop
tap_cmp "the i386 nanosleep itself is reported (ia32 nr 162)" \
	"$(grep ' comm=sleep32 ' "$alerts" | grep -c ' nr=162')" -ge 1
tap_is "no record of the i386 exit_group (nr 252)" \
	"$(grep ' comm=sleep32 ' "$alerts" | grep -c ' nr=252')" 0
tap_ok "unload" trk_unload
tap_ok "core unloads" lt_unload latency_tracker
rm -f "$alerts"
tap_done
