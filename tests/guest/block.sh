#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# block.sh - latency_tracker_block: null_blk completes every request after
# a known delay; direct writes and reads on it are reported with the
# device, sector, size, op and a delay at least that long.
. tests/guest/lib.sh
. tests/guest/progs/trk.sh
TRK=block TRK_MOD=latency_tracker_block
TRK_EVENTS="block/block_rq_issue block/block_rq_complete block/block_rq_requeue"
TRK_COMPANION=

COMPLETION_MS=100
THRESHOLD=50000000		# 50 ms
TP=/sys/kernel/tracing/events/latency_tracker/block
TRACE=/sys/kernel/tracing/trace
DEV=/dev/nullb0
COUNT=5

# 22 assertions of this script, and those of the shared trk_* checks.
tap_plan $((22 + $(trk_shared_plan)))
tap_ok "modprobe null_blk (irqmode=2, ${COMPLETION_MS} ms completions)" \
	modprobe null_blk nr_devices=1 irqmode=2 completion_nsec=$((COMPLETION_MS * 1000000))
for i in 1 2 3 4 5; do [ -b $DEV ] && break; sleep 0.5; done
tap_ok "$DEV exists" test -b $DEV
majmin=$(printf '%d:%d' "0x$(stat -c %t $DEV)" "0x$(stat -c %T $DEV)")
tap_diag "$DEV is $majmin"

tap_ok "load" trk_load threshold=$THRESHOLD
echo 1 >$TP/enable && echo >$TRACE
alerts=$(mktemp)
trk_reader_start "$alerts"
tap_ok "direct writes" dd if=/dev/zero of=$DEV bs=4k count=$COUNT oflag=direct status=none
tap_ok "direct reads" dd if=$DEV of=/dev/null bs=4k count=$COUNT iflag=direct status=none
trk_reader_stop
mine=$(grep " dev=$majmin " "$alerts")
tap_diag "$(head -n 2 <<<"$mine")"
w=$(grep " op=write " <<<"$mine")
r=$(grep " op=read " <<<"$mine")
tap_cmp "one alert per write" "$(grep -c . <<<"$w")" -ge $COUNT
tap_cmp "one alert per read" "$(grep -c . <<<"$r")" -ge $COUNT
tap_ok "record header" trk_header_ok "$(head -n 1 <<<"$w")" threshold
min=$(sed -n 's/.* delay=\([0-9]*\) .*/\1/p' <<<"$mine" | sort -n | head -n 1)
max=$(sed -n 's/.* delay=\([0-9]*\) .*/\1/p' <<<"$mine" | sort -n | tail -n 1)
tap_cmp "every delay >= the injected completion time" "${min:-0}" -ge $((COMPLETION_MS * 1000000))
tap_cmp "every delay < 5 s" "${max:-0}" -lt 5000000000
tap_is "write sectors 0 8 16 24 32" \
	"$(sed -n 's/.* sector=\([0-9]*\) .*/\1/p' <<<"$w" | sort -n | uniq | head -n 5 | xargs)" "0 8 16 24 32"
tap_is "nr_sectors=8 (4 KiB)" "$(sed -n 's/.* nr_sectors=\([0-9]*\) .*/\1/p' <<<"$mine" | sort -u | xargs)" 8
tap_ok "tracepoint with dev and op" grep -qE "block: cause=threshold .* dev=$majmin sector=[0-9]+ nr_sectors=8 op=write" $TRACE
echo 0 >$TP/enable
tap_cmp "stats: over_threshold" "$(trk_stat over_threshold)" -ge $((2 * COUNT))
tap_cmp "stats: matched" "$(trk_stat matched)" -ge $((2 * COUNT))
tap_is "stats: nothing pending" "$(trk_stat pending)" 0
tap_cmp "stats: min_ns >= injected" "$(trk_stat min_ns)" -ge $((COMPLETION_MS * 1000000))
tap_ok "histogram has the delays" trk_hist_has "$min"

# Below the threshold: no alert.
tap_ok "threshold above the completion time" trk_set threshold $((4 * COMPLETION_MS * 1000000))
trk_reader_start "$alerts"
dd if=/dev/zero of=$DEV bs=4k count=3 oflag=direct status=none
trk_reader_stop
tap_is "no alert under the threshold" "$(grep -c " dev=$majmin " "$alerts")" 0

trk_unload
io_loop() { while :; do dd if=/dev/zero of=$DEV bs=4k count=4 oflag=direct status=none; done; }
parallel_io() {
	local i
	for i in 1 2 3 4 5 6; do
		dd if=/dev/zero of=$DEV bs=4k count=3 seek=$((i * 16)) oflag=direct status=none &
	done
	wait
}
trk_rounds 4 io_loop
trk_tiny_pool 1 parallel_io
tap_ok "core unloads" lt_unload latency_tracker
tap_ok "null_blk unloads" modprobe -r null_blk
rm -f "$alerts"
tap_done
