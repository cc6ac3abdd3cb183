#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# oracle-block.sh - accuracy oracle of the block tracker: every request
# of concurrent direct I/O (from block_rq_issue to its final
# block_rq_complete), recomputed from the kernel's own trace of the same
# run (trace_clock=mono), must be what the tracker reported: one record
# per request over the threshold, with its device, sector, size and op,
# none without its request, delays within the tolerance, the matched
# total and the histogram buckets equal (tests/guest/oracle/).  Requests
# in flight at once on one sector, which the trace cannot tell apart,
# are compared as sets.  Devices: two null_blk disks, each with two
# submission queues and timer completions after 1.5 ms; on each, one
# process per CPU (so per queue) reads and writes random 4 KiB blocks,
# and two threads on different CPUs write sector 0 of the first at the
# same time, round after round.
. tests/guest/lib.sh
. tests/guest/progs/trk.sh
. tests/guest/oracle/lib.sh
TRK=block TRK_MOD=latency_tracker_block
ORACLE_EVENTS="block/block_rq_issue block/block_rq_complete block/block_rq_requeue"
# 2 ms: above the disks' 1.5 ms completions (most requests take 1.5 to
# 1.8 ms here), which a busy queue or a late timer push over it.
THRESHOLD=2000000
# 50 us per end (oracle.py explains the tolerance and the stalls).
ORACLE_TOL_US=50
ORACLE_BUF_KB=8192
SECS=3
oracle_short && SECS=1.5
ORACLE_MIN_OVER=20
ORACLE_MIN_CLUSTERS=5

tap_plan $((2 + ORACLE_PLAN))
tap_ok "null_blk: 2 disks, 2 submission queues, 1.5 ms completions" \
	modprobe null_blk nr_devices=2 submit_queues=2 irqmode=2 completion_nsec=1500000
for i in $(seq 50); do [ -b /dev/nullb1 ] && break; sleep 0.1; done

workload() {
	$ORACLE_LOAD block "$SECS" /dev/nullb0 /dev/nullb1
}

tap_diag "tolerance $(oracle_tol_us) us, workload $SECS s"
oracle_run $THRESHOLD 1 workload
tap_ok "null_blk unloads" modprobe -r null_blk
tap_done
