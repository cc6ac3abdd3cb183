#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# stacks.sh - the kernel stacks the offcpu and syscalls trackers print for
# one task sleeping 600 ms in nanosleep have the same shape: both start at
# the code that blocked (do_nanosleep, hrtimer_nanosleep, ...), not inside
# our probe, the tracepoint or the scheduler (__schedule, schedule*), and
# no frame is ours.  The syscalls tracker takes the stack in its
# sched_switch probe on the task itself, the offcpu tracker from the
# blocked task: the first would start with the probe and __schedule.
. tests/guest/lib.sh
LTPROG="python3 tests/guest/progs/ltprog.py"
tap_plan 8

tap_ok "core loads" lt_load latency_tracker
tap_ok "offcpu loads (threshold 300 ms)" lt_load latency_tracker_offcpu threshold=300000000
tap_ok "syscalls loads (threshold 300 ms)" lt_load latency_tracker_syscalls threshold=300000000
log=$(mktemp)
before=$(dmesg | wc -l)
pid=$($LTPROG nanosleep 600 | sed -n 's/^pid=//p')
sleep 2
dmesg | tail -n +$((before + 1)) >"$log"
# frames MOD PID: the frames printed after MOD's header line for PID.
frames() {
	awk -v mod="$1" -v pid="$2" '
		index($0, mod ": ") && index($0, "(" pid ")") { on = 1; next }
		on && index($0, mod ":   ") { sub(/.*:   /, ""); print; next }
		on { exit }' "$log"
}
off=$(frames latency_tracker_offcpu "$pid")
sys=$(frames latency_tracker_syscalls "$pid")
tap_diag "offcpu stack of $pid: $(echo $off)"
tap_diag "syscalls stack of $pid: $(echo $sys)"
tap_ok "offcpu printed the sleeper's stack" test -n "$off"
tap_ok "syscalls printed the sleeper's stack" test -n "$sys"
bad='^(__schedule|schedule|io_schedule|preempt_schedule|__traceiter_|lt_)|\[latency_tracker'
tap_ok "offcpu: no scheduler frame first, no frame of ours" \
	bash -c "! grep -qE '$bad' <<<'$(head -n 1 <<<"$off")' && ! grep -q 'latency_tracker' <<<'$off'"
tap_ok "syscalls: no probe or scheduler frame first, no frame of ours" \
	bash -c "! grep -qE '$bad' <<<'$(head -n 1 <<<"$sys")' && ! grep -q 'latency_tracker' <<<'$sys'"
tap_is "same shape: both start at the same function" \
	"$(head -n 1 <<<"$sys" | sed 's/+.*//')" "$(head -n 1 <<<"$off" | sed 's/+.*//')"
lt_unload latency_tracker_syscalls
lt_unload latency_tracker_offcpu
lt_unload latency_tracker
rm -f "$log"
tap_done
