#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# oracle-syscalls.sh - accuracy oracle of the syscalls tracker: every
# system call of a mixed workload (from sys_enter to sys_exit of its
# thread), recomputed from the kernel's own raw_syscalls trace of the
# same run (trace_clock=mono), must be what the tracker reported: one
# record per call over the threshold, with its pid and number, none
# without its call, delays within the tolerance, the matched total (every
# call, the short ones the tracker times in its per-CPU slot included)
# and the histogram buckets equal (tests/guest/oracle/).  Workload:
# oracle_load syscalls (non-blocking calls against a fair spinner on one
# CPU, pipe reads woken after random delays, poll and futex timeouts,
# nanosleep, children killed inside a read, an execve from a non-leader
# thread whose call returns under the leader's pid).
. tests/guest/lib.sh
. tests/guest/progs/trk.sh
. tests/guest/oracle/lib.sh
TRK=syscalls TRK_MOD=latency_tracker_syscalls
ORACLE_EVENTS="raw_syscalls/sys_enter raw_syscalls/sys_exit sched/sched_switch sched/sched_process_exit sched/sched_process_exec"
# 2 ms: the blocking calls last 0.1 to 6 ms, the others microseconds
# (a 1 MiB read of /dev/zero preempted by the spinner can last longer).
THRESHOLD=2000000
# 50 us per end (oracle.py explains the tolerance and the stalls).
ORACLE_TOL_US=50
ORACLE_BUF_KB=32768
SECS=2
oracle_short && SECS=1
ORACLE_MIN_OVER=20
ORACLE_ROLES=or_nonblock,or_ppreader,or_waiter,or_churn,or_doomed,thread_exec

workload() {
	$ORACLE_LOAD syscalls "$SECS" "$ORACLE_EXEC"
}

tap_plan $ORACLE_PLAN
tap_diag "tolerance $(oracle_tol_us) us, workload $SECS s"
oracle_run $THRESHOLD 1 workload
tap_done
