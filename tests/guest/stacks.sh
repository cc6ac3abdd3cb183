#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# stacks.sh - the kernel stacks the offcpu and syscalls trackers give for
# one task sleeping 600 ms in nanosleep have the same shape: both start at
# the code that blocked (hrtimer_nanosleep, ...), not inside our probe,
# the tracepoint or the scheduler (__schedule, schedule*), and no frame is
# ours.  The syscalls tracker takes the stack in its sched_switch probe on
# the task itself, the offcpu tracker from the blocked task: the first
# would start with the probe and __schedule.  The stacks are read from our
# tracepoints (latency_tracker:offcpu and :syscall carry them as text,
# formatted by the same code as the dmesg lines; dmesg is rate limited
# and idle kernel threads may use its budget).
# Then a call already slow when its thread leaves the CPU (a long read of
# /dev/urandom preempted after 400 ms by a SCHED_FIFO task:
# progs/preempted.py): the syscalls tracker takes that stack in its switch
# probe, on the task itself; it must start at the reading code too, not
# in the probe.
# Then a frame kallsyms can no longer name: insmod of lt_core_test with
# init_sleep_ms=600, a slow finit_module whose stack is saved while it
# sleeps in the module's init function and formatted after the call
# returned, when the init symbols are gone (do_init_module() drops them
# as soon as the init returns): that frame is "?", never a raw address.
# Last, a pid reused before a timeout's report work runs
# (progs/pidreuse.py): the offcpu tracker reports a task still sleeping at
# its timeout, its stack taken then, in the timeout callback, into the
# record; the victim is killed and its pid given to another task, blocked
# in a pipe read, before the work runs: the record and the tracepoint have
# the victim's stack (nanosleep), never the other task's (skipped on a
# kernel without ns_last_pid, CONFIG_CHECKPOINT_RESTORE: the debug
# kernel).
. tests/guest/lib.sh
LTPROG="python3 tests/guest/progs/ltprog.py"
T=/sys/kernel/tracing
tap_plan 16

tap_ok "core loads" lt_load latency_tracker
tap_ok "offcpu loads (threshold 300 ms)" lt_load latency_tracker_offcpu threshold=300000000
tap_ok "syscalls loads (threshold 300 ms)" lt_load latency_tracker_syscalls threshold=300000000
echo 0 >$T/tracing_on
echo >$T/trace
echo 1 >$T/events/latency_tracker/offcpu/enable
echo 1 >$T/events/latency_tracker/syscall/enable
echo 1 >$T/tracing_on
# frames EVENT [PATTERN]: the frames of EVENT's first record for $pid
# (matching PATTERN too), one per line.  The sleeper's pid has other slow
# moments first on a slow kernel (its execve, python starting).
frames() {
	grep ": $1: cause=threshold .* pid=$pid " $T/trace | grep -m 1 -E -- "${2:-.}" |
		sed -n 's/.* stack=\([^ ]*\).*/\1/p' | tr ';' '\n'
}
pid=$($LTPROG nanosleep 600 | sed -n 's/^pid=//p')
# The records' tracepoints come from the trackers' work items: on the
# debug kernel beside other guests, later than a fixed wait (up to 30 s).
for i in $(seq 60); do
	[ -n "$(frames offcpu 'stack=.*nanosleep')" ] &&
		[ -n "$(frames syscall ' nr=35 ')" ] && break
	sleep 0.5
done
echo 0 >$T/tracing_on
echo 0 >$T/events/latency_tracker/offcpu/enable
echo 0 >$T/events/latency_tracker/syscall/enable
off=$(frames offcpu 'stack=.*nanosleep')
sys=$(frames syscall ' nr=35 ')
tap_diag "offcpu stack of $pid: $(echo $off)"
tap_diag "syscalls stack of $pid: $(echo $sys)"
tap_ok "offcpu gave the sleeper's stack" test -n "$off"
tap_ok "syscalls gave the sleeper's stack" test -n "$sys"
bad='^(__schedule|schedule|io_schedule|preempt_schedule|__traceiter_|lt_)'
first_ok() { # frames
	! grep -qE "$bad" <<<"$(head -n 1 <<<"$1")" && ! grep -q 'latency_tracker' <<<"$1"
}
tap_ok "offcpu: no scheduler frame first, no frame of ours" first_ok "$off"
tap_ok "syscalls: no probe or scheduler frame first, no frame of ours" first_ok "$sys"
tap_is "same shape: both start at the same function" \
	"$(head -n 1 <<<"$sys" | sed 's/+.*//')" "$(head -n 1 <<<"$off" | sed 's/+.*//')"

echo >$T/trace
echo 1 >$T/events/latency_tracker/syscall/enable
echo 1 >$T/tracing_on
pid=$(python3 tests/guest/progs/preempted.py 400 | sed -n 's/^pid=//p')
sleep 0.5
echo 0 >$T/tracing_on
echo 0 >$T/events/latency_tracker/syscall/enable
relock=$(frames syscall ' nr=0 ')
tap_diag "syscalls stack of the preempted reader $pid: $(echo $relock)"
tap_ok "syscalls gave the reader's stack" test -n "$relock"
tap_ok "taken on the task itself: no probe or scheduler frame first, no frame of ours" \
	first_ok "$relock"

echo >$T/trace
echo 1 >$T/events/latency_tracker/syscall/enable
echo 1 >$T/tracing_on
tap_ok "lt_core_test loads after sleeping 600 ms in its init" \
	lt_load lt_core_test selftest=0 init_sleep_ms=600
sleep 0.5
echo 0 >$T/tracing_on
echo 0 >$T/events/latency_tracker/syscall/enable
lt_unload lt_core_test
init=$(grep ": syscall: cause=threshold .* comm=insmod " $T/trace | grep -m 1 'do_one_initcall' |
	sed -n 's/.* stack=\([^ ]*\).*/\1/p' | tr ';' '\n')
tap_diag "syscalls stack of the slow insmod: $(echo $init)"
tap_ok "the slow insmod's stack goes through do_one_initcall" grep -q '^do_one_initcall' <<<"$init"
tap_ok "the init function's frame is '?', and no frame is a raw address" \
	test "$(grep -x -B1 'do_one_initcall.*' <<<"$init" | head -n 1)" = "?" -a \
	-z "$(grep -iE "$LT_RAW_PTR" <<<"$init")"
lt_unload latency_tracker_syscalls
lt_unload latency_tracker_offcpu

# The pid goes to the new task through ns_last_pid (CONFIG_CHECKPOINT_RESTORE).
if [ -w /proc/sys/kernel/ns_last_pid ]; then
	lt_load latency_tracker_offcpu threshold=100000000000 timeout=500000000
	echo >$T/trace
	echo 1 >$T/events/latency_tracker/offcpu/enable
	echo 1 >$T/tracing_on
	out=$(python3 tests/guest/progs/pidreuse.py /proc/latency_tracker/offcpu)
	echo 0 >$T/tracing_on
	echo 0 >$T/events/latency_tracker/offcpu/enable
	lt_unload latency_tracker_offcpu
	victim=$(sed -n 's/.*victim=\([0-9]*\).*/\1/p' <<<"$out")
	tap_is "pid reuse: the victim's pid went to another task ($out)" \
		"$(sed -n 's/.*reused=//p' <<<"$out")" 1
	rec=$(grep -m 1 ": offcpu: cause=timeout .* pid=${victim:-none} " $T/trace)
	tap_diag "the victim's timeout record: $rec"
	tap_ok "pid reuse: the victim's timeout was reported" test -n "$rec"
	st=$(sed -n 's/.* stack=\([^ ]*\).*/\1/p' <<<"$rec")
	tap_ok "pid reuse: the victim's stack (nanosleep), never the one of the task that got its pid (pipe_read)" \
		bash -c "grep -q nanosleep <<<'$st' && ! grep -q pipe_read <<<'$st'"
else
	tap_skip 3 "no /proc/sys/kernel/ns_last_pid (CONFIG_CHECKPOINT_RESTORE off): no pid to hand over"
fi
lt_unload latency_tracker
# Tracing back on, as a boot starts: the tests after this one read the
# trace (core-api, offcpu).
echo 1 >$T/tracing_on
tap_done
