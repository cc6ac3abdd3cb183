#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# syscalls.sh - latency_tracker_syscalls: a nanosleep(2) of known length is
# reported with its syscall number and delay, and its stack is printed;
# filter_tgid restricts tracking to one process.
. tests/guest/lib.sh
. tests/guest/progs/trk.sh
TRK=syscalls TRK_MOD=latency_tracker_syscalls
TRK_EVENTS="raw_syscalls/sys_enter raw_syscalls/sys_exit sched/sched_switch syscalls/sys_enter_nanosleep syscalls/sys_exit_nanosleep"
TRK_COMPANION=latency_tracker_offcpu

THRESHOLD=300000000		# 300 ms
SLEEP_MS=600
TP=/sys/kernel/tracing/events/latency_tracker/syscall
TRACE=/sys/kernel/tracing/trace
F=/proc/latency_tracker/syscalls/filter_tgid

# 40 assertions of this script, one per refused filter_tgid, and those of
# the shared trk_* checks.
tap_plan $((40 + $(trk_shared_plan)))
tap_ok "load" trk_load threshold=$THRESHOLD
tap_is "filter_tgid empty by default" "$(cat $F)" ""
echo 1 >$TP/enable && echo >$TRACE

alerts=$(mktemp) out=$(mktemp)
for try in 1 2 3 4; do
	trk_reader_start "$alerts"
	$LTPROG nanosleep $SLEEP_MS >"$out"
	pid=$(sed -n 's/^pid=//p' "$out")
	nr=$(sed -n 's/^nr=//p' "$out")
	trk_reader_stop 0.5
	dmesg | grep -q "latency_tracker_syscalls: lt_sleeper ($pid) syscall $nr blocked" && break
	sleep 5		# next rate-limit window
done
rec=$(grep " pid=$pid " "$alerts" | grep " nr=$nr " | head -n 1)
tap_diag "nanosleep by $pid (try $try): $rec"
tap_ok "record header" trk_header_ok "$rec" threshold
tap_is "nr is nanosleep's" "$(field "$rec" nr)" "$nr"
tap_is "comm" "$(field "$rec" comm)" lt_sleeper
tap_is "tgid" "$(field "$rec" tgid)" "$pid"
delay=$(field "$rec" delay)
tap_cmp "delay >= sleep time" "${delay:-0}" -ge $((SLEEP_MS * 1000000))
tap_cmp "delay < 5 s" "${delay:-0}" -lt 5000000000
# Where its time went: blocked, all but the switches (thread_time.h).
tap_cmp "breakdown: blocked_ns >= 95% of the delay" \
	"$(( $(field "$rec" blocked_ns) * 100 / ${delay:-1} ))" -ge 95
sum=$(( $(field "$rec" on_cpu_ns) + $(field "$rec" runnable_ns) + $(field "$rec" blocked_ns) ))
tap_cmp "breakdown: on_cpu + runnable + blocked is the delay within 1 ms ($sum of $delay)" \
	"$(( delay - sum < 0 ? sum - delay : delay - sum ))" -le 1000000
hdr=$(dmesg | grep -n "latency_tracker_syscalls: lt_sleeper ($pid) syscall $nr blocked, [0-9]* us so far" | tail -n 1)
tap_ok "dmesg names pid and syscall" test -n "$hdr"
frames=$(dmesg | tail -n +"$(( ${hdr%%:*} + 1 ))" | head -n 16 |
	grep -E 'latency_tracker_syscalls:   ?[A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+/0x[0-9a-f]+')
tap_diag "$(head -n 8 <<<"$frames")"
tap_cmp "stack frames printed" "$(grep -c . <<<"$frames")" -ge 3
tap_ok "the stack shows where it blocks (nanosleep)" grep -q nanosleep <<<"$frames"
tap_ok "tracepoint with nr and the stack" \
	grep -qE "syscall: cause=threshold .* pid=$pid .*nr=$nr on_cpu_ns=[0-9]+ runnable_ns=[0-9]+ blocked_ns=[0-9]+ cgroup=[0-9]+ stack=.*nanosleep" $TRACE
tap_ok "record: stack= where it blocks (nanosleep)" \
	grep -q nanosleep <<<"$(field "$rec" stack)"
echo 0 >$TP/enable
tap_cmp "stats: over_threshold" "$(trk_stat over_threshold)" -ge 1
tap_cmp "stats: matched (every syscall)" "$(trk_stat matched)" -gt 100
tap_ok "histogram has the delay" trk_hist_has "${delay:-0}"

# filter_tgid: only this shell; its child's sleep is not tracked, the
# shell's own wait for it is.
tap_ok "filter_tgid accepts our tgid" trk_set filter_tgid $$
tap_is "filter_tgid reads it back" "$(cat $F)" "$$"
trk_reader_start "$alerts"
sleep 0.$SLEEP_MS &
child=$!
wait $child
trk_reader_stop 0.5
tap_is "no alert for the child" "$(grep -c " tgid=$child " "$alerts")" 0
tap_cmp "alert for the shell itself (waiting)" "$(grep -c " tgid=$$ " "$alerts")" -ge 1
# Calls of a kernel function, counted by a kprobe: kp_add NAME FUNCTION,
# kp_hits NAME (empty if the kprobe is not there), kp_del NAME.
KP=/sys/kernel/tracing/kprobe_events
kp_add() {
	echo "p:$1 $2" >>$KP &&
		echo 1 >"/sys/kernel/tracing/events/kprobes/$1/enable"
}
kp_hits() { awk -v n="$1" '$1 == n { print $2 }' /sys/kernel/tracing/kprobe_profile; }
kp_del() {
	echo 0 >"/sys/kernel/tracing/events/kprobes/$1/enable"
	echo "-:$1" >>$KP
}

# A task the filters keep out costs no table lookup at its sys_exit: a
# kprobe counts the calls of latency_tracker_event_out() while a child
# makes 40000 system calls (before, one per call).
kp_add lt_test_ev_out latency_tracker_event_out
h0=$(kp_hits lt_test_ev_out)
dd if=/dev/zero of=/dev/null bs=1 count=20000 status=none
h1=$(kp_hits lt_test_ev_out)
kp_del lt_test_ev_out
tap_cmp "a child kept out: no event_out at its 40000 sys_exits ($((${h1:-0} - ${h0:-0})) calls)" \
	"$((${h1:-0} - ${h0:-0}))" -lt 1000
tap_cmp "the kprobe counted (${h1:-none} hits)" "${h1:-0}" -ge 1
tap_ok "empty line clears the filter" trk_set filter_tgid ""
tap_is "filter_tgid empty again" "$(cat $F)" ""

# A call woken behind a SCHED_FIFO hog waits runnable: lt_victim's
# nanosleeps of 100 ms while the hog spins 600 ms on its CPU.
trk_reader_start "$alerts"
$LTPROG victim 1 10 100 1000 >"$out" &
job=$!
victim=$(trk_wait_pid "$out")
$LTPROG hog 1 50 600 >/dev/null
sleep 0.3
kill $job
wait $job 2>/dev/null
trk_reader_stop 0.5
vrec=$(grep " pid=$victim .* comm=lt_victim " "$alerts" | grep ' cause=threshold ' |
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^delay=/) { split($i, a, "="); print a[2], $0 } }' |
	sort -n | tail -n 1 | cut -d' ' -f2-)
tap_diag "behind the hog: $vrec"
vdelay=$(field "$vrec" delay)
tap_cmp "breakdown: a call woken behind a hog: runnable_ns >= 50% of its delay" \
	"$(( $(field "$vrec" runnable_ns) * 100 / ${vdelay:-1} ))" -ge 50
vsum=$(( $(field "$vrec" on_cpu_ns) + $(field "$vrec" runnable_ns) + $(field "$vrec" blocked_ns) ))
tap_cmp "breakdown: ... its parts are its delay within 1 ms ($vsum of $vdelay)" \
	"$(( ${vdelay:-0} - vsum < 0 ? vsum - ${vdelay:-0} : ${vdelay:-0} - vsum ))" -le 1000000

# A switch usually costs no lookup (the hints in probes/syscalls.c): a
# kprobe counts latency_tracker_find_event() during 40000 ping-pong round
# trips, two blocking reads each (before, one lookup per switch: 80000 or
# more).  Every call of the loop is still ended (matched: 4 per round
# trip), none is left pending until its thread exits (cancelled).
kp_add lt_test_find latency_tracker_find_event
h0=$(kp_hits lt_test_find) m0=$(trk_stat matched) c0=$(trk_stat cancelled)
ms=$(build/progs/lt_pingpong)
h1=$(kp_hits lt_test_find) m1=$(trk_stat matched) c1=$(trk_stat cancelled)
kp_del lt_test_find
tap_ok "the kprobe on latency_tracker_find_event() counts (${h0:-none})" test -n "$h0"
tap_ok "40000 ping-pong round trips (${ms:-failed} ms)" test -n "$ms"
tap_cmp "... with $((${h1:-0} - ${h0:-0})) lookups" "$((${h1:-0} - ${h0:-0}))" -lt 2000
tap_cmp "... every call ended: matched +$((m1 - m0))" $((m1 - m0)) -ge 160000
tap_is "... none left pending to its exit: cancelled +$((c1 - c0))" $((c1 - c0)) 0

# Timeout: a long nanosleep is reported, with its stack, while it sleeps.
tap_ok "timeout 300 ms" trk_set timeout 300000000
echo 1 >$TP/enable && echo >$TRACE
trk_reader_start "$alerts"
$LTPROG nanosleep 8000 >"$out" &
job=$!
pid=$(trk_wait_pid "$out")
sleep 1.5
tap_ok "still in the syscall" kill -0 $job
trk_reader_stop 0.5
tap_ok "cause=timeout record while in the syscall" grep -q "cause=timeout .* pid=$pid .*nr=$nr" "$alerts"
tap_ok "timeout record: the blocked stack (nanosleep)" \
	grep -qE "cause=timeout .* pid=$pid .*nr=$nr .*stack=.*nanosleep" "$alerts"
tap_ok "timeout tracepoint carries the blocked stack" \
	grep -qE "syscall: cause=timeout .* pid=$pid .*stack=.*nanosleep" $TRACE
kill $job
wait $job 2>/dev/null
echo 0 >$TP/enable
tap_ok "timeout back to 0" trk_set timeout 0

trk_unload
trk_rounds 4 $LTPROG wakers 4 30
trk_tiny_pool 1 $LTPROG wakers 8 1
tap_ok "core unloads" lt_unload latency_tracker
rm -f "$out" "$alerts"
tap_done
