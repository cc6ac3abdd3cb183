#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# oracle-wakeup.sh - accuracy oracle of the wakeup tracker: every wakeup
# latency of a contended scheduler workload, recomputed from the kernel's
# own sched_waking/sched_switch trace of the same run (trace_clock=mono),
# must be what the tracker reported: one record per pair over the
# threshold, none without its pair, delays within the tolerance, the
# matched total and the histogram buckets equal (tests/guest/oracle/).
# Workload: oracle_load sched (three fair tasks sharing CPU 1 with short
# sleeps -- the delayed-dequeue case on Linux >= 6.12 --, migrating tasks,
# a SCHED_FIFO task, children killed while blocked, an execve from a
# non-leader thread) and hackbench beside it.
. tests/guest/lib.sh
. tests/guest/progs/trk.sh
. tests/guest/oracle/lib.sh
TRK=wakeup TRK_MOD=latency_tracker_wakeup
ORACLE_EVENTS="sched/sched_waking sched/sched_wakeup sched/sched_switch sched/sched_process_fork sched/sched_process_exec"
# 1 ms: a fair task sharing its CPU often waits longer, most wakeups of
# an idle CPU do not; about a thousand records per run.
THRESHOLD=1000000
# 50 us per end (oracle.py explains the tolerance and the stalls).
ORACLE_TOL_US=50
ORACLE_BUF_KB=16384
ORACLE_MIN_OVER=20
ORACLE_ROLES=$ORACLE_SCHED_ROLES

tap_plan $ORACLE_PLAN
FEAT=/sys/kernel/debug/sched/features
grep -qw DELAY_DEQUEUE $FEAT 2>/dev/null &&
	tap_diag "scheduler features: $(tr ' ' '\n' <$FEAT | grep -E '^(NO_)?DELAY_DEQUEUE$')"
tap_diag "tolerance $(oracle_tol_us) us, workload $ORACLE_SCHED_SECS s"
oracle_run $THRESHOLD 1 oracle_sched_workload
tap_done
