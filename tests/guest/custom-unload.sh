#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# custom-unload.sh - custom trackers (latency_tracker_custom) losing their
# ends, and removed under load:
#  (1) a module that unloads under its trackers: lt_custom_target.ko's
#      function (fn=, a kretprobe), its own tracepoints (found by
#      SYSTEM:EVENT, which the kernel's tracepoint table does not list)
#      and a pair with one end in it and the other in the kernel: rmmod
#      leaves each tracker disabled with one dmesg line, never a warning
#      (the tracepoint layer warns about a going module's tracepoint that
#      still has a probe); they are deleted, the module loaded again and
#      its tracepoints found again;
#  (2) LTG_CUSTOM_ROUNDS rounds (default 2) under load (reads and writes in
#      a loop): trackers on vfs_read, vfs_write and the raw_syscalls
#      tracepoints alerting all the time (stack=1, a timeout, argN+OFF
#      keys, one that faults), quiet ones watched by an epoll watcher, a
#      thread blocked in epoll_wait() and one blocked in poll()
#      (progs/alerts_watch.py), an alerts reader: one watched tracker
#      deleted, then the module removed with the other one watched; the
#      blocked callers return, the watchers let go (EPOLL_CTL_DEL, close)
#      after the trackers are gone.  KASAN on the debug kernel.
# Companion probes stay on the probed functions and tracepoints throughout
# (ftrace kprobe events and raw_syscalls events, recording off), so that
# attaching and detaching ours patches no kernel text (see trk_rounds in
# progs/trk.sh).
. tests/guest/lib.sh
. tests/guest/progs/custom_lib.sh

T=/sys/kernel/tracing
INST=$T/instances/lt_custom_unload
TARGET=/proc/lt_custom_target
TP=tp:lt_custom_target
W="python3 tests/guest/progs/alerts_watch.py"
ROUNDS=${LTG_CUSTOM_ROUNDS:-2}
tap_plan $((14 + 9 * ROUNDS + 1))

tmp=$(mktemp -d)

# (1) A module that unloads.
tap_ok "core loads" lt_load latency_tracker
tap_ok "latency_tracker_custom loads" lt_load latency_tracker_custom
tap_ok "the test target loads" lt_load lt_custom_target
tap_is "fn= on a module's function" "$(cw "mfn fn=lt_custom_target_work")" ok
tap_is "a pair on a module's tracepoints" \
	"$(cw "mtp in=$TP:lt_target_begin out=$TP:lt_target_end key=tid")" ok
tap_is "a pair from a module's function to the kernel's" \
	"$(cw "mmix in=kprobe:lt_custom_target_work out=kretprobe:ksys_sync key=tid")" ok
echo 20 >$TARGET
tap_is "a 20 ms call: measured by fn= and by the tracepoint pair" \
	"$(cstat mfn matched) $(cstat mtp matched) $(cstat mfn alerts) $(cstat mtp alerts)" "1 1 1 1"
mark=$(kmsg_mark)
tap_ok "rmmod of the probed module" lt_unload lt_custom_target
lines=$(kmsg_since "$mark" | grep '^latency_tracker_custom: ')
sed "s/^/# /" <<<"$lines"
n=0
for t in mfn mtp mmix; do
	[ "$(grep -c "^latency_tracker_custom: $t: module lt_custom_target unloaded: tracker disabled$" <<<"$lines")" = 1 ] &&
		n=$((n + 1))
done
tap_is "one dmesg line per tracker, and no other" "$n $(grep -c . <<<"$lines")" "3 3"
tap_is "the three disabled, still defined" \
	"$(cat $LTD/mfn/enable $LTD/mtp/enable $LTD/mmix/enable | tr -d '\n') $(grep -c . $CUSTOM)" \
	"000 3"
tap_is "the three deleted" "$(cw "del mfn") $(cw "del mtp") $(cw "del mmix")" "ok ok ok"
lt_load lt_custom_target
got="$(cw "mtp in=$TP:lt_target_begin out=$TP:lt_target_end key=tid")"
echo 5 >$TARGET
tap_is "the module again: its tracepoints found again, measured" \
	"$got $(cstat mtp matched)" "ok 1"
tap_is "deleted; the module unloads" "$(cw "del mtp") $(lt_unload lt_custom_target && echo ok)" "ok ok"
tap_ok "latency_tracker_custom unloads" lt_unload latency_tracker_custom

# (2) Removal under load, with watchers.
echo 0 >$T/tracing_on
mkdir -p $INST && echo 0 >$INST/tracing_on
echo 'p:lt_keep/rd vfs_read' >>$T/kprobe_events
echo 'p:lt_keep/wr vfs_write' >>$T/kprobe_events
echo 1 >$T/events/lt_keep/enable
for e in raw_syscalls/sys_enter raw_syscalls/sys_exit; do
	echo 1 >"$T/events/$e/enable"
	echo 1 >"$INST/events/$e/enable"
done
(while :; do dd if=/dev/zero of=/dev/null bs=512 count=200 2>/dev/null; done) &
load=$!

# watch NAME: an alerts_watch.py on tracker NAME, in the background.
watch() {
	rm -f "$tmp/$1.ready" "$tmp/$1.go"
	$W "$LTD/$1/alerts" "$tmp/$1.ready" "$tmp/$1.go" >"$tmp/$1.out" 2>&1 &
}

# watching NAME...: waits until each watcher is blocked (or gone).
watching() {
	local p
	for _ in $(seq 600); do
		for p in "$@"; do
			[ -s "$tmp/$p.ready" ] || { sleep 0.1; continue 2; }
		done
		return 0
	done
	return 1
}

for r in $(seq "$ROUNDS"); do
	tap_ok "round $r: latency_tracker_custom loads" lt_load latency_tracker_custom
	got=
	for def in \
		"hfn fn=vfs_read threshold=1000 max_events=1024 stack=1" \
		"hsc in=tp:raw_syscalls:sys_enter out=tp:raw_syscalls:sys_exit key=tid threshold=1000 timeout=1000000 max_events=1024" \
		"hoff in=kprobe:vfs_write out=kretprobe:vfs_write in_key=tid out_key=tid threshold=1" \
		"harg in=kprobe:vfs_write out=kprobe:vfs_write key=arg1+16 threshold=1" \
		"hflt in=kprobe:vfs_write out=kprobe:vfs_read key=arg2+0" \
		"qfn fn=vfs_read key=tgid threshold=1000000000000 max_events=1024" \
		"qsc in=tp:raw_syscalls:sys_enter out=tp:raw_syscalls:sys_exit key=tgid threshold=1000000000000"; do
		got+="$(cw "$def") "
	done
	tap_is "round $r: seven trackers defined under load" "$got" "ok ok ok ok ok ok ok "
	cat "$LTD/hfn/alerts" >/dev/null &
	reader=$!
	watch qsc
	ws=$!
	tap_ok "round $r: a watcher blocked on a quiet tracker" watching qsc
	act="$(cstat hfn alerts) $(cstat hsc alerts) $(cstat hoff matched) $(cstat harg alerts)"
	act+=" $(awk '$1 == "key_faults" { print $2 }' $LTD/hflt/custom_stats)"
	tap_diag "hfn alerts, hsc alerts, hoff matched, harg alerts, hflt key_faults: $act"
	tap_ok "round $r: the loud trackers measure and alert; the faulting key is counted" \
		awk -v s="$act" 'BEGIN { n = split(s, a, " "); for (i = 1; i <= n; i++) if (a[i] + 0 < 1) exit 1; exit n != 5 }'
	tap_is "round $r: the watched tracker deleted under load" "$(cw "del qsc")" ok
	# The other watcher blocked on a tracker rmmod removes.
	watch qfn
	wq=$!
	tap_ok "round $r: a watcher blocked on the other quiet tracker" watching qfn
	t0=$(date +%s.%N)
	tap_ok "round $r: rmmod under load, a watcher blocked, a reader reading" \
		timeout 120 rmmod latency_tracker_custom
	tap_diag "rmmod took $(echo "$(date +%s.%N) - $t0" | bc) s"
	touch "$tmp/qfn.go" "$tmp/qsc.go"
	wait $wq
	rq=$?
	wait $ws
	rs=$?
	sed 's/^/# /' "$tmp/qfn.out" "$tmp/qsc.out"
	wait $reader 2>/dev/null
	tap_is "round $r: blocked poll() and epoll_wait() returned, the watchers let go" "$rq $rs" "0 0"
	tap_ok "round $r: module and trackers gone" bash -c \
		"! grep -q '^latency_tracker_custom ' /proc/modules && ! ls $LTD | grep -qE '^(hfn|hsc|hoff|harg|hflt|qfn|qsc)$'"
done

kill $load
wait $load 2>/dev/null
echo 0 >$T/events/lt_keep/enable
echo '-:lt_keep/rd' >>$T/kprobe_events
echo '-:lt_keep/wr' >>$T/kprobe_events
for e in raw_syscalls/sys_enter raw_syscalls/sys_exit; do
	echo 0 >"$T/events/$e/enable"
	echo 0 >"$INST/events/$e/enable"
done
rmdir $INST
echo 1 >$T/tracing_on
tap_ok "core unloads" lt_unload latency_tracker
rm -rf "$tmp"
tap_done
