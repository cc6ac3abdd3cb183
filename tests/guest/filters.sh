#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# filters.sh - the filters every tracker has (probes/common/filter.c), shown to
# include and exclude what they should: filter_tgid (and its translation
# from a pid namespace), kthreads (off by default for offcpu only),
# filter_dev of the block tracker; strict parsing (a bad value is refused,
# -EINVAL, the value unchanged), root only, the module parameters of the
# same names; `filtered` in stats; alert_records, a bounded module
# parameter reported in stats.  filter_cgroup: filters-cgroup.sh.
. tests/guest/lib.sh
. tests/guest/progs/trk.sh
TRK=offcpu TRK_MOD=latency_tracker_offcpu

PROG=build/progs/sleeploop
THRESHOLD=200000000		# 200 ms
D=/proc/latency_tracker/offcpu
TGID_BAD=(abc -1 0 "1 2" "1,,2" ",1" "1," 99999999 "+5" " 5" "5x" 01 4194304
	"1,1,1,1,1,1,1,1,1")
KTHREADS_BAD=(2 -1 $'\n' 01 "1 " x)
DEV_BAD=(8 "8:" ":0" "8:0:1" "a:b" "4096:0" "8:1048576" "8:0,"
	"1:1,1:1,1:1,1:1,1:1,1:1,1:1,1:1,1:1")

# is_kthread PID: a kernel thread (no mm: empty /proc/PID/cmdline and a
# parent kthreadd, or kthreadd itself).
is_kthread() {
	[ "$1" = 2 ] || [ "$(awk '{ print $4 }' /proc/$1/stat 2>/dev/null)" = 2 ]
}

# pids_of FILE: the pid= of every record.
pids_of() { sed -n 's/.* pid=\([0-9]*\) .*/\1/p' "$1" | sort -un; }

tap_plan $((36 + ${#TGID_BAD[@]} + ${#KTHREADS_BAD[@]} + ${#DEV_BAD[@]}))

# --- defaults, kthreads --------------------------------------------------------
tap_ok "load offcpu (threshold 200 ms)" trk_load threshold=$THRESHOLD
tap_is "offcpu: kthreads off by default" "$(cat $D/kthreads)" 0
tap_is "offcpu: filter_tgid empty" "$(cat $D/filter_tgid)" ""
tap_is "offcpu: filter_cgroup empty" "$(cat $D/filter_cgroup)" ""
alerts=$(mktemp)
trk_reader_start "$alerts"
$PROG lt_user 400 0 3 >/dev/null
sleep 2		# periodic kernel threads (kcompactd: 500 ms) sleep meanwhile
trk_reader_stop 0.5
k=0
for p in $(pids_of "$alerts"); do is_kthread "$p" && k=$((k + 1)); done
tap_cmp "kthreads=0: a user process is tracked" "$(grep -c ' comm=lt_user ' "$alerts")" -ge 3
tap_is "kthreads=0: no kernel thread's record" "$k" 0
tap_cmp "kthreads=0: stats count filtered events" "$(trk_stat filtered)" -gt 0
tap_ok "kthreads=1 accepted" trk_set kthreads 1
trk_reader_start "$alerts"
sleep 3
trk_reader_stop 0.5
k=0
for p in $(pids_of "$alerts"); do is_kthread "$p" && k=$((k + 1)); done
tap_diag "kernel threads with records: $k"
tap_cmp "kthreads=1: kernel threads tracked" "$k" -ge 1
for bad in "${KTHREADS_BAD[@]}"; do
	tap_ok "kthreads '${bad//$'\n'/\\n}' refused, unchanged" trk_refuse kthreads "$bad"
done

# --- filter_tgid -------------------------------------------------------------------
$PROG lt_a 300 0 0 >/dev/null &
a=$!
$PROG lt_b 300 0 0 >/dev/null &
b=$!
tap_ok "filter_tgid: one process" trk_set filter_tgid $a
tap_is "filter_tgid reads it back" "$(cat $D/filter_tgid)" "$a"
sleep 0.5	# a sleep lt_b started before the filter ends, unread
f0=$(trk_stat filtered)
trk_reader_start "$alerts"
sleep 2
trk_reader_stop 0.5
tap_cmp "filter_tgid: the selected process is tracked" "$(grep -c " tgid=$a " "$alerts")" -ge 2
tap_is "filter_tgid: the other is not" "$(grep -c " tgid=$b " "$alerts")" 0
tap_cmp "filter_tgid: the other is counted as filtered" "$(trk_stat filtered)" -gt "$f0"
tap_ok "filter_tgid: two processes" trk_set filter_tgid "$a,$b"
tap_is "filter_tgid reads both back" "$(cat $D/filter_tgid)" "$a,$b"
trk_reader_start "$alerts"
sleep 2
trk_reader_stop 0.5
tap_ok "filter_tgid: both tracked" bash -c "grep -q ' tgid=$a ' $alerts && grep -q ' tgid=$b ' $alerts"
for bad in "${TGID_BAD[@]}"; do
	tap_ok "filter_tgid '$bad' refused, unchanged" trk_refuse filter_tgid "$bad"
done

# From inside a pid namespace: pids of that namespace, translated.  The
# namespace's init waits for us (a fifo) while we look from outside.
ns_out=$(mktemp) ns_go=$(mktemp -u)
mkfifo "$ns_go"
unshare -p -f bash -c "echo 1 >$D/filter_tgid && cat $D/filter_tgid >$ns_out
	echo $$ >$D/filter_tgid 2>/dev/null && echo outer-accepted >>$ns_out
	echo ready >$ns_out.ready; read -r _ <$ns_go" &
u=$!
for _ in $(seq 600); do [ -s "$ns_out.ready" ] && break; sleep 0.1; done
inner=$(pgrep -P $u | head -n 1)
tap_is "pid namespace: '1' written inside means its init, global pid $inner" \
	"$(cat $D/filter_tgid)" "$inner"
echo go >"$ns_go"
wait $u
rm -f "$ns_go" "$ns_out.ready"
tap_is "pid namespace: read back inside as 1; a pid it cannot see refused" \
	"$(cat "$ns_out")" 1
tap_ok "filter_tgid cleared by an empty line" trk_set filter_tgid ""
tap_is "filter_tgid empty" "$(cat $D/filter_tgid)" ""
kill $a $b
wait $a $b 2>/dev/null

# --- root only --------------------------------------------------------------------
tap_ok "non-root cannot read the filter files" bash -c \
	"! $NOBODY cat $D/filter_tgid 2>/dev/null && ! $NOBODY cat $D/filter_cgroup 2>/dev/null && ! $NOBODY cat $D/kthreads 2>/dev/null"
tap_ok "non-root cannot write the filter files" bash -c \
	"! $NOBODY sh -c 'echo 1 >$D/filter_tgid || echo / >$D/filter_cgroup || echo 1 >$D/kthreads' 2>/dev/null"
tap_ok "unload offcpu" trk_unload

# --- module parameters ------------------------------------------------------------
tap_ok "load with filter_tgid=$$ kthreads=1 alert_records=100" \
	trk_load filter_tgid=$$ kthreads=1 alert_records=100
tap_is "module parameters read back" "$(cat $D/filter_tgid) $(cat $D/kthreads)" "$$ 1"
tap_is "stats: alert_records rounded up to a power of two" "$(trk_stat alert_records)" 128
trk_unload
trk_load
tap_is "stats: alert_records 1024 by default" "$(trk_stat alert_records)" 1024
trk_unload

# --- filter_dev (block) --------------------------------------------------------------
TRK=block TRK_MOD=latency_tracker_block
D=/proc/latency_tracker/block
modprobe null_blk nr_devices=2 irqmode=2 completion_nsec=30000000
for i in 1 2 3 4 5; do [ -b /dev/nullb1 ] && break; sleep 0.5; done
majmin() { printf '%d:%d' "0x$(stat -c %t "$1")" "0x$(stat -c %T "$1")"; }
d0=$(majmin /dev/nullb0) d1=$(majmin /dev/nullb1)
tap_ok "block: load with filter_dev=$d0 (null_blk: 30 ms)" trk_load threshold=10000000 filter_dev=$d0
tap_is "block: filter_dev reads back; tgid and kthreads do not apply" \
	"$(cat $D/filter_dev)|$(cat $D/filter_tgid)|$(cat $D/kthreads)" "$d0||1"
trk_reader_start "$alerts"
dd if=/dev/zero of=/dev/nullb0 bs=4k count=4 oflag=direct status=none
dd if=/dev/zero of=/dev/nullb1 bs=4k count=4 oflag=direct status=none
trk_reader_stop 0.5
tap_cmp "filter_dev: the selected disk is tracked" "$(grep -c " dev=$d0 " "$alerts")" -ge 4
tap_is "filter_dev: the other is not, and is counted as filtered" \
	"$(grep -c " dev=$d1 " "$alerts") $(( $(trk_stat filtered) >= 4 ))" "0 1"
for bad in "${DEV_BAD[@]}"; do
	tap_ok "filter_dev '$bad' refused, unchanged" trk_refuse filter_dev "$bad"
done
tap_ok "block: filter_tgid and kthreads=0 refused (do not apply)" \
	eval 'trk_refuse filter_tgid $$ && trk_refuse kthreads 0'
tap_ok "filter_dev: two disks" trk_set filter_dev "$d0,$d1"
trk_reader_start "$alerts"
dd if=/dev/zero of=/dev/nullb1 bs=4k count=2 oflag=direct status=none
trk_reader_stop 0.5
tap_cmp "filter_dev: the second disk now tracked" "$(grep -c " dev=$d1 " "$alerts")" -ge 2
trk_unload
rmmod null_blk
tap_ok "core unloads" lt_unload latency_tracker
rm -f "$alerts" "$ns_out"
tap_done
