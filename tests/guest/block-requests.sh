#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# block-requests.sh - the block tracker measures each request from its
# issue to its own final completion, checked against the kernel's own
# trace of the same run (block_rq_issue / _complete / _requeue, ftrace):
#  (a) two requests in flight on one (device, sector): null_blk with two
#      submission queues completes each 100 ms after its issue; the second
#      is issued ~40 ms after the first and must not end with it;
#  (b) partial completions: scsi_debug's short-transfer injection (opts
#      0x100, every_nth 2) completes half of a read, which the SCSI layer
#      requeues; block_rq_complete fires for the first half before the
#      request is done; the run must show one (a completion of fewer
#      sectors than remain), else (b) was not exercised;
#  (c) requeues (the same, and scsi_debug's "host busy", opts 0x8000): a
#      requeue is cancelled (stats: cancelled), never matched, in no
#      histogram bucket; the re-issued request is measured anew.
# Per run, from the trace: matched == final completions, cancelled ==
# requeues of issued requests.
. tests/guest/lib.sh
. tests/guest/progs/trk.sh
TRK=block TRK_MOD=latency_tracker_block
T=/sys/kernel/tracing
tap_plan 17

ftrace_on() {
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo 4096 >$T/buffer_size_kb
	for e in block_rq_issue block_rq_complete block_rq_requeue; do
		echo 1 >$T/events/block/$e/enable
	done
	echo 1 >$T/tracing_on
}
ftrace_off() {
	echo 0 >$T/tracing_on
	for e in block_rq_issue block_rq_complete block_rq_requeue; do
		echo 0 >$T/events/block/$e/enable
	done
}
# ftrace_expect DEV ("M,m"): from the kernel's trace of one request at a
# time (dd, direct I/O), what the tracker must count: "issues requeues
# completions partial matched cancelled".  A request is pending from its
# issue; a requeue cancels it if it is pending (a requeue before the
# issue, e.g. host busy at dispatch, cancels nothing); a completion of
# fewer sectors than remain is partial, one of at least the rest is final
# (matched).
ftrace_expect() {
	awk -v dev="$1" '
	$0 ~ ": block_rq_issue: " dev " " {
		issues++; pending = 1
		for (i = 1; i < NF; i++) if ($i == "+") rest = $(i + 1)
	}
	$0 ~ ": block_rq_requeue: " dev " " {
		requeues++
		if (pending) { cancelled++; pending = 0 }
	}
	$0 ~ ": block_rq_complete: " dev " " {
		completes++
		for (i = 1; i < NF; i++) if ($i == "+") n = $(i + 1)
		if (pending && n >= rest) { matched++; pending = 0 }
		else if (pending) { partial++; rest -= n }
	}
	END {
		print issues + 0, requeues + 0, completes + 0, partial + 0,
			matched + 0, cancelled + 0
	}
	' $T/trace
}

# (a) Two requests on one sector, in flight at once.
tap_ok "null_blk: 2 submission queues, 100 ms completions" \
	modprobe null_blk nr_devices=1 irqmode=2 completion_nsec=100000000 submit_queues=2
tap_ok "load (threshold 90 ms)" trk_load threshold=90000000
alerts=$(mktemp)
trk_reader_start "$alerts"
m0=$(trk_stat matched)
taskset -c 0 dd if=/dev/zero of=/dev/nullb0 bs=4k count=1 oflag=direct 2>/dev/null &
dd1=$!
sleep 0.04
taskset -c 1 dd if=/dev/zero of=/dev/nullb0 bs=4k count=1 oflag=direct 2>/dev/null &
wait $dd1 $!
trk_reader_stop
nb=$(stat -c '%t:%T' /dev/nullb0)
nb=$((16#${nb%:*})):$((16#${nb#*:}))
recs=$(grep -c " dev=$nb sector=0 " "$alerts")
tap_diag "$(grep " dev=$nb " "$alerts" | sed 's/^/  /')"
tap_is "two requests on sector 0: two matched" "$(( $(trk_stat matched) - m0 ))" 2
tap_is "each ended by its own completion: two records >= 90 ms" "$recs" 2
trk_unload
modprobe -r null_blk

# (b), (c) scsi_debug: 20 ms per command.
# No udev in the guest: the disk driver is loaded by hand.
modprobe sd_mod 2>/dev/null
tap_ok "scsi_debug loads (20 ms per command)" \
	modprobe scsi_debug dev_size_mb=16 delay=0 ndelay=20000000
D=/sys/bus/pseudo/drivers/scsi_debug
disk=
for _ in $(seq 50); do
	disk=$(ls -d $D/adapter*/host*/target*/*/block/* 2>/dev/null | head -n 1)
	[ -n "$disk" ] && break
	sleep 0.1
done
disk=$(basename "$disk")
tap_ok "scsi_debug disk /dev/$disk" test -b "/dev/$disk"
sd=$(cat /sys/block/$disk/dev)
sdf=${sd%:*},${sd#*:}
tap_ok "load (threshold 10 ms)" trk_load threshold=10000000

# scenario LABEL OPTS: one dd under scsi_debug's OPTS; sets partial (the
# partial completions in its trace).
scenario() {
	local m0 c0 issues requeues completes matched cancelled
	m0=$(trk_stat matched) c0=$(trk_stat cancelled)
	ftrace_on
	echo "$2" >$D/opts
	# every_nth counts commands only with statistics on (6.12 refuses it
	# otherwise; 6.1 turns them on itself).
	[ -e $D/statistics ] && echo 1 >$D/statistics
	echo 2 >$D/every_nth
	dd if=/dev/$disk of=/dev/null bs=4k count=4 skip=100 iflag=direct 2>/dev/null
	echo 0 >$D/every_nth
	echo 0 >$D/opts
	sleep 0.5
	ftrace_off
	read -r issues requeues completes partial matched cancelled <<<"$(ftrace_expect "$sdf")"
	tap_diag "$1: trace: $issues issues, $requeues requeues, $completes completions ($partial partial) -> $matched final completions, $cancelled requeues of issued requests; tracker: matched +$(( $(trk_stat matched) - m0 )), cancelled +$(( $(trk_stat cancelled) - c0 ))"
	tap_cmp "$1: the trace shows requeues of issued requests" "$cancelled" -ge 1
	tap_is "$1: matched == final completions in the trace" \
		"$(( $(trk_stat matched) - m0 ))" "$matched"
	tap_is "$1: cancelled == requeues of issued requests in the trace" \
		"$(( $(trk_stat cancelled) - c0 ))" "$cancelled"
}
scenario "short transfer (partial completion, requeue)" 0x100
tap_cmp "short transfer: the trace shows partial completions" "$partial" -ge 1
scenario "host busy (requeue after issue)" 0x8000
hist=$(awk '{ s += $3 } END { print s + 0 }' "$(trk_dir)/histogram")
tap_is "histogram holds the matched requests only" "$hist" "$(trk_stat matched)"
tap_ok "unload" trk_unload
tap_ok "scsi_debug unloads" modprobe -r scsi_debug
lt_unload latency_tracker
rm -f "$alerts"
# Tracing back on, as a boot starts: the tests after this one read the
# trace (core-api, offcpu).
echo 1 >$T/tracing_on
tap_done
