#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# oracle-offcpu.sh - accuracy oracle of the off-CPU tracker: every off-CPU
# interval of a contended scheduler workload (from a switch-out in a
# sleeping state to the next switch-in), recomputed from the kernel's own
# sched_switch/sched_waking trace of the same run (trace_clock=mono),
# must be what the tracker reported: one record per interval over the
# threshold, with the task, the CPU it got back, its state and its first
# waker, none without its interval, delays within the tolerance, the
# matched total and the histogram buckets equal (tests/guest/oracle/).
# Kernel threads are compared when the tracker tracks them (its
# `kthreads` file; all tasks when it has none).  Workload: as
# oracle-wakeup (oracle_load sched and hackbench).
. tests/guest/lib.sh
. tests/guest/progs/trk.sh
. tests/guest/oracle/lib.sh
TRK=offcpu TRK_MOD=latency_tracker_offcpu
ORACLE_EVENTS="sched/sched_waking sched/sched_wakeup sched/sched_switch sched/sched_process_fork sched/sched_process_exec"
# 2 ms: the workload's sleeps are shorter, its blocked waits (pipes,
# hackbench, the killed children, the FIFO task's 3 ms) often longer.
THRESHOLD=2000000
# 50 us per end (oracle.py explains the tolerance and the stalls).
ORACLE_TOL_US=50
ORACLE_BUF_KB=16384
ORACLE_MIN_OVER=20
ORACLE_ROLES=$ORACLE_SCHED_ROLES
# The run makes ~2600 records in 3 s and each is named (two stacks) when
# read: under emulation the reader, sharing two CPUs with hackbench, read
# ~2700 records per CPU-second and fell more than the default 1024 records
# behind.  The oracle wants every record: a ring for the whole run.
ORACLE_PARAMS="alert_records=8192"

tap_plan $ORACLE_PLAN
tap_diag "tolerance $(oracle_tol_us) us, workload $ORACLE_SCHED_SECS s"
oracle_run $THRESHOLD 1 oracle_sched_workload
tap_done
