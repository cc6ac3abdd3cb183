#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# block-burst.sh - the pool grows with a burst of block I/O: null_blk with
# one submission queue per CPU, each HW_DEPTH deep, completing every
# request after COMPLETION_US (long enough for every request of a round
# to be in flight at once, even on the debug kernel's slow submissions);
# one AIO process per CPU (build/progs/aio_burst) keeps HW_DEPTH direct
# reads in flight, ROUNDS times.  The
# block tracker at its defaults (max_events 0) starts with fewer slots
# than the requests in flight: nothing is dropped, the pool grew, every
# request was matched.
. tests/guest/lib.sh
. tests/guest/progs/trk.sh
TRK=block TRK_MOD=latency_tracker_block

HW_DEPTH=4096
COMPLETION_US=1000000
ROUNDS=4
DEV=/dev/nullb0
CPUS=$(nproc)
TOTAL=$((CPUS * HW_DEPTH * ROUNDS))
tap_plan 10

tap_ok "modprobe null_blk ($CPUS queues of $HW_DEPTH, ${COMPLETION_US} us completions)" \
	modprobe null_blk nr_devices=1 queue_mode=2 submit_queues="$CPUS" \
	hw_queue_depth=$HW_DEPTH irqmode=2 completion_nsec=$((COMPLETION_US * 1000))
for i in 1 2 3 4 5; do [ -b $DEV ] && break; sleep 0.5; done
tap_ok "load block at its defaults" trk_load
initial=$(trk_stat capacity)
tap_diag "pool: $initial slots at first, ceiling $(trk_stat max_events)"
tap_cmp "first segment below the $((CPUS * HW_DEPTH)) requests in flight" \
	"${initial:-0}" -lt $((CPUS * HW_DEPTH))

out=$(mktemp)
for ((c = 0; c < CPUS; c++)); do
	taskset -c "$c" build/progs/aio_burst $DEV $HW_DEPTH $ROUNDS >>"$out" 2>&1 &
done
wait
tap_is "every burst completed" "$(awk '$1 == "done" { n += $2 } END { print n + 0 }' "$out")" "$TOTAL" ||
	tap_diag "$(cat "$out")"
rm -f "$out"
tap_diag "stats: $(tr '\n' ' ' <"$(trk_dir)/stats")"
tap_is "nothing dropped in the burst" "$(trk_stat dropped)" 0
tap_cmp "every read matched" "$(trk_stat matched)" -ge "$TOTAL"
tap_cmp "the pool grew past its first segment" "$(trk_stat capacity)" -gt "${initial:-0}"
tap_ok "unload" trk_unload
tap_ok "core unloads" lt_unload latency_tracker
tap_ok "rmmod null_blk" rmmod null_blk
tap_done
