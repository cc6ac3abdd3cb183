#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# custom.sh - custom trackers (latency_tracker_custom) against the kernel's
# own trace of the same run (ftrace, trace_clock=mono: the trackers'
# clock; ftrace's probes attached first, so at a shared kprobe or
# tracepoint its clock is read before the tracker's), checked by
# progs/custom_check.py (see its header for each check):
#  (a) fn=vfs_read on the readers of a FIFO whose writer sleeps a known
#      time before each write (40, 80, 120 and 1500 ms), with a timeout
#      (1 s) and stack=1: ftrace's kprobe and kretprobe events on vfs_read
#      give each call; records, counts, the timeout report and the stacks
#      in dmesg (from the caller of vfs_read; where the timed-out reader
#      sleeps); then (40, 80, 120 ms) without a timeout, where fn= times
#      each call in its kretprobe instance: no timeout record;
#  (b) the block layer keyed by the request pointer, in=kprobe:
#      blk_mq_start_request key=arg1 out=kprobe:blk_mq_end_request, on
#      null_blk completing each request 10 ms after it starts, two readers
#      at once: ftrace's kprobe events with arg1 pair each request; every
#      request is one pair, its record's key a hash;
#  (c) a tracepoint pair keyed by tid, raw_syscalls:sys_enter ->
#      sys_exit, on a process sleeping 30, 60 and 90 ms: ftrace's
#      raw_syscalls events;
#  (d) fn= without a timeout times each call in its kretprobe instance,
#      with no slot of the table: 20000 one-byte reads back to back with
#      max_events=16 are all matched, none dropped, none left pending;
#  (e) and a call in progress when tracking stops (enable 0, then 1) is
#      dropped as the pending events are: a reader blocked 300 ms on a
#      FIFO is one record over the threshold, none when tracking stopped
#      and started again while it was blocked.
# Each measured window: the tracker disabled, its filter set, enabled,
# stats, the marker "custom begin", the workload, "custom end", stats.
. tests/guest/lib.sh
. tests/guest/progs/custom_lib.sh

T=/sys/kernel/tracing
CHECK="python3 tests/guest/progs/custom_check.py"
LOAD="python3 tests/guest/progs/custom_load.py"
# The tolerance of a delay: the code between ftrace's clock read and the
# tracker's at each end (ftrace's whole kprobe or kretprobe event, or its
# tracepoint probe, runs in between: up to 250 us per end under TCG on
# the 7.x kernels, whose system call tracepoints run preemptible), plus
# 2 us for the trace's microseconds.
TOL_US=${LTG_CUSTOM_TOL_US:-502}
tap_plan $((2 + 2 * (3 + 9) + 4 + 8 + 3 + 8 + 4 + 3 + 2))

work=$(mktemp -d)
saved_clock=$(sed -n 's/.*\[\(.*\)\].*/\1/p' $T/trace_clock)
saved_kb=$(sed 's/.*expanded: \([0-9]*\).*/\1/' $T/buffer_size_kb)
saved_tgid=$(cat $T/options/record-tgid)

# ftrace_on EVENT_DIR...: a fresh trace on the trackers' clock, with the
# events of those directories of $T/events.
ftrace_on() {
	local e
	echo 0 >$T/tracing_on
	echo mono >$T/trace_clock
	echo 8192 >$T/buffer_size_kb
	echo 1 >$T/options/record-tgid
	echo >$T/trace
	for e in "$@"; do echo 1 >"$T/events/$e/enable"; done
	echo 1 >$T/tracing_on
}

# ftrace_off DIR EVENT_DIR...: stops the trace into DIR/trace, the events
# off; true when it lost nothing.
ftrace_off() {
	local dir=$1 e lost
	shift
	echo 0 >$T/tracing_on
	for e in "$@"; do echo 0 >"$T/events/$e/enable"; done
	cat $T/trace >"$dir/trace"
	lost=$(cat $T/per_cpu/cpu*/stats | awk '
		$1 == "overrun:" || $1 == "dropped" || $1 == "commit" { s += $NF }
		END { print s + 0 }')
	tap_diag "trace: $(grep -c . "$dir/trace") lines, $lost events lost"
	[ "$lost" = 0 ]
}

# window DIR NAME CMD...: the measured run of tracker NAME around CMD.
window() {
	local dir=$1 name=$2
	shift 2
	reader_start "$name" "$dir/alerts"
	cat "$LTD/$name/stats" >"$dir/stats0"
	cat "$LTD/$name/histogram" >"$dir/hist0"
	echo "custom begin" >$T/trace_marker
	"$@"
	local rc=$?
	echo "custom end" >$T/trace_marker
	sleep 1
	cat "$LTD/$name/stats" >"$dir/stats1"
	cat "$LTD/$name/histogram" >"$dir/hist1"
	reader_stop
	return $rc
}

# only NAME PID: tracker NAME counts process PID only, from now on.
only() {
	echo 0 >"$LTD/$1/enable"
	echo "$2" >"$LTD/$1/filter_tgid"
	echo 1 >"$LTD/$1/enable"
}

go() { kill -USR1 "$1" && wait "$2"; }

tap_ok "core loads" lt_load latency_tracker
tap_ok "latency_tracker_custom loads" lt_load latency_tracker_custom

# fifo_fn TAG DELAYS [TIMEOUT]: (a) fn=vfs_read (stack=1) on FIFO readers
# whose writer sleeps DELAYS (ms) before each write, with a timeout of
# TIMEOUT ns or none; 3 assertions, then custom_check's 9.
fifo_fn() {
	local tag=$1 delays=$2 tmo=${3:-0} d=$work/$1 pid lp mark
	mkdir -p "$d"
	echo 'p:lt_custom/rd_in vfs_read' >>$T/kprobe_events
	echo 'r64:lt_custom/rd_out vfs_read' >>$T/kprobe_events
	ftrace_on lt_custom
	$LOAD fifo "$work/$tag.fifo" "$delays" >"$d/out" 2>&1 &
	lp=$!
	pid=$(trk_wait_pid "$d/out")
	tap_is "$tag: fn=vfs_read defined (timeout $tmo ns, stack=1)" \
		"$(cw "$tag fn=vfs_read threshold=20000000 timeout=$tmo stack=1")" ok
	only "$tag" "$pid"
	mark=$(kmsg_mark)
	tap_ok "$tag: the FIFO readers ran" window "$d" "$tag" go "$pid" "$lp"
	kmsg_since "$mark" >"$d/dmesg"
	tap_ok "$tag: the trace lost nothing" ftrace_off "$d" lt_custom
	cw "del $tag" >/dev/null
	echo '-:lt_custom/rd_in' >>$T/kprobe_events
	echo '-:lt_custom/rd_out' >>$T/kprobe_events
	# Three or four pairs: a stall budget of two (beside another guest,
	# two calls can have their vCPU paused about 2 ms at one end).
	$CHECK fn "$d" --tracker "$tag" --tgid "$pid" --threshold 20000000 \
		--timeout "$tmo" --delays "$delays" --tol-us "$TOL_US" \
		--stall-frac 0.5 \
		--ret-frame ksys_read --sleep-frame pipe_read >"$d/results" 2>&1
	tap_results 9 "$d/results"
}
# (a) with a timeout (1 s): each call an event of the table, the 1.5 s
# one reported at its timeout too; (a2) without one: each call timed in
# its kretprobe instance (custom.c, "fn=").
fifo_fn fiford 40,80,120,1500 1000000000
fifo_fn fifofast 40,80,120

# (b) the block layer, keyed by the request pointer.
d=$work/blk
mkdir -p "$d"
tap_ok "null_blk loads (10 ms per request)" \
	modprobe null_blk nr_devices=1 irqmode=2 completion_nsec=10000000
# udev's probe of the new disk over before the tracker exists: a request
# in flight at its definition is one whose start the trace has before
# the window (CI once saw such a read end 129 ms later inside it).
udevadm settle -t 10 2>/dev/null
for i in $(seq 50); do
	[ "$(tr -s ' ' </sys/block/nullb0/inflight 2>/dev/null)" = " 0 0" ] && break
	sleep 0.1
done
echo 'p:lt_custom/rq_start blk_mq_start_request rq=$arg1:x64' >>$T/kprobe_events
echo 'p:lt_custom/rq_end blk_mq_end_request rq=$arg1:x64' >>$T/kprobe_events
ftrace_on lt_custom
tap_is "the request pair defined (key=arg1)" \
	"$(cw "blk in=kprobe:blk_mq_start_request key=arg1 out=kprobe:blk_mq_end_request threshold=5000000")" ok
readers() {
	local first
	taskset -c 0 dd if=/dev/nullb0 of=/dev/null bs=4k count=15 iflag=direct 2>/dev/null &
	first=$!
	taskset -c 1 dd if=/dev/nullb0 of=/dev/null bs=4k count=15 skip=64 iflag=direct 2>/dev/null &&
		wait "$first"
}
tap_ok "two readers of nullb0 ran" window "$d" blk readers
tap_ok "(b) the trace lost nothing" ftrace_off "$d" lt_custom
cw "del blk" >/dev/null
echo '-:lt_custom/rq_start' >>$T/kprobe_events
echo '-:lt_custom/rq_end' >>$T/kprobe_events
modprobe -r null_blk
# blk_mq_start_request runs with interrupts on, in the submitter: another
# request's completion interrupt can come between ftrace's handler and
# ours (hundreds of us under TCG): a stall budget of a quarter.
$CHECK blk "$d" --tracker blk --threshold 5000000 --min-us 10000 \
	--tol-us "$TOL_US" --stall-frac 0.25 >"$d/results" 2>&1
tap_results 8 "$d/results"

# (c) a tracepoint pair keyed by tid.
d=$work/sc
mkdir -p "$d"
ftrace_on raw_syscalls/sys_enter raw_syscalls/sys_exit
$LOAD sleep 30,60,90 >"$d/out" 2>&1 &
lp=$!
pid=$(trk_wait_pid "$d/out")
tap_is "raw_syscalls:sys_enter -> sys_exit defined (key=tid)" \
	"$(cw "sc in=tp:raw_syscalls:sys_enter out=tp:raw_syscalls:sys_exit key=tid threshold=20000000")" ok
only sc "$pid"
tap_ok "the sleeper ran" window "$d" sc go "$pid" "$lp"
tap_ok "(c) the trace lost nothing" \
	ftrace_off "$d" raw_syscalls/sys_enter raw_syscalls/sys_exit
cw "del sc" >/dev/null
$CHECK sc "$d" --tracker sc --tgid "$pid" --threshold 20000000 \
	--delays 30,60,90 --tol-us "$TOL_US" >"$d/results" 2>&1
tap_results 8 "$d/results"

# (d) fn= without a timeout: no slot per call.
NREADS=20000
tap_is "fn=vfs_read defined (no timeout, max_events=16)" \
	"$(cw "fast fn=vfs_read threshold=1000000000 max_events=16")" ok
mkfifo "$work/go"
(
	read -r _ <"$work/go"
	exec dd if=/dev/zero of=/dev/null bs=1 count=$NREADS status=none
) &
dp=$!
only fast "$dp"
m0=$(cstat fast matched) d0=$(cstat fast dropped)
echo go >"$work/go"
tap_ok "$NREADS one-byte reads ran" wait "$dp"
m=$(($(cstat fast matched) - m0)) dr=$(($(cstat fast dropped) - d0))
tap_diag "fast: matched +$m, dropped +$dr, pending $(cstat fast pending)"
tap_cmp "every read matched ($m)" "$m" -ge $NREADS
tap_is "none dropped, none pending" "$dr $(cstat fast pending)" "0 0"
cw "del fast" >/dev/null

# (e) held_read CYCLE: a cat blocked 300 ms in read() on a FIFO (a writer
# held open), tracking stopped and started meanwhile when CYCLE is 1;
# prints over_threshold's growth.
in_read() { # PID: cat, asleep in read(2) (x86_64: number 0)
	local n
	[ "$(cat "/proc/$1/comm" 2>/dev/null)" = cat ] &&
		read -r n _ <"/proc/$1/syscall" && [ "$n" = 0 ]
}
held_read() {
	local p o0 i
	exec 8<>"$work/held"
	(read -r _ <"$work/go"; exec cat "$work/held" >/dev/null 8>&-) &
	p=$!
	only held "$p"
	o0=$(cstat held over_threshold)
	echo go >"$work/go"
	for i in $(seq 100); do in_read "$p" && break; sleep 0.1; done
	if [ "$1" = 1 ]; then
		echo 0 >"$LTD/held/enable"
		echo 1 >"$LTD/held/enable"
	fi
	sleep 0.3
	echo x >&8
	exec 8>&-
	wait "$p"
	echo $(($(cstat held over_threshold) - o0))
}
mkfifo "$work/held"
tap_is "fn=vfs_read defined (no timeout)" \
	"$(cw "held fn=vfs_read threshold=100000000")" ok
tap_is "(e) a read blocked 300 ms: one record" "$(held_read 0)" 1
tap_is "(e) one that saw tracking stop and start: dropped" "$(held_read 1)" 0
cw "del held" >/dev/null

tap_ok "latency_tracker_custom unloads" lt_unload latency_tracker_custom
tap_ok "core unloads" lt_unload latency_tracker

echo 0 >$T/tracing_on
echo "$saved_tgid" >$T/options/record-tgid
echo "$saved_clock" >$T/trace_clock
echo "$saved_kb" >$T/buffer_size_kb
echo >$T/trace
echo 1 >$T/tracing_on
tap_keep "$work" custom
rm -rf "$work"
tap_done
