#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# wakeup-race.sh - wakeups that race the wakee's sleep are tracked, by the
# wakeup tracker (the wakee waited for a switch-in) and by the offcpu
# tracker (its record names the waker).  tests/kmod/lt_race_test.ko makes
# the race deterministic: its victim kernel thread is woken while it busy
# waits in TASK_INTERRUPTIBLE (on its CPU, queued), and the module's own
# sched_waking probe, attached after the trackers', holds the waker until
# the victim has blocked.  Every such "raced" wakeup, and every one that
# came after the victim had blocked (the waker late: "blocked"), must give
# a wakeup record (threshold 1 us: the hold alone lasts milliseconds),
# and every off-CPU record of the victim must name the waker; with
# preempt=1, a victim preempted during the hold gets none.  The trackers see the wakee running at sched_waking; whether it
# blocked is decided at sched_wakeup (wakeup.c) and at its switch-out
# (offcpu.c's stash of wakers).
# Then the victim sleeps with a signal pending, a busy task on its CPU:
# schedule() keeps it runnable, so it has no off-CPU interval, though
# before Linux 6.16 (in 6.12 since 6.12.34) sched_switch shows it leave
# the CPU in its sleeping state; the kernel's trace of the run counts
# those switch-outs.
. tests/guest/lib.sh
. tests/guest/progs/trk.sh

ROUNDS=40
P=/sys/module/lt_race_test/parameters
W=/proc/latency_tracker/wakeup
O=/proc/latency_tracker/offcpu

tap_plan 23
# race_go: start the victim's rounds, wait for them (60 s at most).
race_go() {
	local i
	echo 1 >$P/go
	for i in $(seq 600); do
		[ "$(cat $P/done)" -ge $ROUNDS ] && break
		sleep 0.1
	done
}
load_wakeup() { lt_load latency_tracker && lt_load latency_tracker_wakeup threshold=1000; }
tap_ok "load the wakeup tracker (threshold 1 us)" load_wakeup
tap_ok "load the offcpu tracker (threshold 1 us, kernel threads)" \
	lt_load latency_tracker_offcpu threshold=1000 kthreads=1
# After the trackers: its probe runs after theirs.
tap_ok "load lt_race_test ($ROUNDS rounds)" lt_load lt_race_test rounds=$ROUNDS
victim=$(cat $P/victim_pid) waker=$(cat $P/waker_pid)
tap_diag "victim $victim, waker $waker"
echo "$victim" >$W/filter_tgid && echo "$victim" >$O/filter_tgid
tap_is "filters on the victim" "$(cat $W/filter_tgid) $(cat $O/filter_tgid)" "$victim $victim"
TRK=wakeup trk_reader_start /tmp/race.wakeup
rw=$TRK_READER
TRK=offcpu trk_reader_start /tmp/race.offcpu
ro=$TRK_READER
race_go
tap_is "the victim slept $ROUNDS times" "$(cat $P/done)" $ROUNDS
sleep 1
kill $rw $ro 2>/dev/null
wait $rw $ro 2>/dev/null
raced=$(cat $P/raced) blocked=$(cat $P/blocked) preempted=$(cat $P/preempted)
# The victim's records but the one of its wakeup by `go` (this shell).
mine() { grep " pid=$victim " "$1" | grep -v " waker_pid=$$ "; }
nw=$(mine /tmp/race.wakeup | grep -c .)
no=$(mine /tmp/race.offcpu | grep -c .)
named=$(mine /tmp/race.offcpu | grep -c " waker_pid=$waker ")
tap_diag "raced wakeups $raced, late ones $blocked, preempted victims $preempted; wakeup records $nw; off-CPU records $no, $named naming the waker"
tap_diag "wakeup stats: $(tr '\n' ' ' <$W/stats)"
mine /tmp/race.wakeup | head -n 3 | sed 's/^/# wakeup: /'
mine /tmp/race.offcpu | grep -v " waker_pid=$waker " | head -n 3 | sed 's/^/# offcpu: /'
tap_cmp "wakeups raced the sleep ($raced of $ROUNDS)" "$raced" -ge $((ROUNDS / 4))
tap_cmp "a wakeup record for every raced or late wakeup ($nw records)" "$nw" -ge $((raced + blocked))
# A victim preempted, not blocked, when the module's probe looked may
# still block before the waker takes its runqueue lock (or be woken by
# another task first): at most one record more per such wakeup (preempt=1
# below makes them all preempted, and counts them exactly).
tap_cmp "no more wakeup records than raced, late and preempted wakeups" \
	"$nw" -le $((raced + blocked + preempted))
tap_cmp "an off-CPU record for every raced or late wakeup ($no records)" "$no" -ge $((raced + blocked))
tap_is "every off-CPU record of the victim names the waker" "$named" "$no"
tap_ok "unload lt_race_test" lt_unload lt_race_test

# preempt=1: every held waking preempts the running victim (a hog woken
# on its CPU), which never blocks: no wakeup record but for late wakings.
tap_ok "load lt_race_test preempt=1" lt_load lt_race_test preempt=1 rounds=$ROUNDS
victim=$(cat $P/victim_pid) waker=$(cat $P/waker_pid)
echo "$victim" >$W/filter_tgid
TRK=wakeup trk_reader_start /tmp/race.preempt
race_go
TRK=wakeup trk_reader_stop
raced=$(cat $P/raced) blocked=$(cat $P/blocked) preempted=$(cat $P/preempted)
np=$(grep " pid=$victim " /tmp/race.preempt | grep -c " waker_pid=$waker ")
tap_diag "preempt=1: raced $raced, late $blocked, preempted $preempted; wakeup records $np"
grep " pid=$victim " /tmp/race.preempt | head -n 3 | sed 's/^/# wakeup: /'
tap_is "the victim slept $ROUNDS times" "$(cat $P/done)" $ROUNDS
tap_cmp "held wakings found the victim preempted ($preempted of $ROUNDS)" "$preempted" -ge $((ROUNDS / 2))
# Two more allowed: a victim preempted by another task before the hold
# runs on and may block before the wakeup, as in the first phase.
tap_cmp "no wakeup record for a preempted victim ($np, at most 2 more than raced and late)" \
	"$np" -le $((raced + blocked + 2))
tap_ok "unload lt_race_test" lt_unload lt_race_test

tap_ok "load lt_race_test signal=1 ($ROUNDS sleeps with a signal pending)" \
	lt_load lt_race_test signal=1 rounds=$ROUNDS
victim=$(cat $P/victim_pid)
echo "$victim" >$O/filter_tgid
T=/sys/kernel/tracing
echo 0 >$T/tracing_on
echo >$T/trace
echo "prev_pid == $victim" >$T/events/sched/sched_switch/filter
echo 1 >$T/events/sched/sched_switch/enable
taskset -c 1 sh -c 'while :; do :; done' &
hog=$!
TRK=offcpu trk_reader_start /tmp/race.signal
echo 1 >$T/tracing_on
race_go
echo 0 >$T/tracing_on
kill $hog
TRK=offcpu trk_reader_stop
echo 0 >$T/events/sched/sched_switch/enable
echo 0 >$T/events/sched/sched_switch/filter
outs=$(grep -c "sched_switch: prev_comm=lt_race_victim prev_pid=$victim " $T/trace)
outs_s=$(grep -c "sched_switch: prev_comm=lt_race_victim prev_pid=$victim .* prev_state=S " $T/trace)
echo >$T/trace
echo 1 >$T/tracing_on
nsig=$(grep -c " pid=$victim " /tmp/race.signal)
tap_diag "victim $victim: $outs switch-outs, $outs_s of them in state S (the kernel names the sleeping state); off-CPU records $nsig"
tap_is "the victim slept $ROUNDS times" "$(cat $P/done)" $ROUNDS
tap_cmp "the busy task took its CPU ($outs switch-outs)" "$outs" -ge $((ROUNDS / 4))
tap_is "no off-CPU record: it never blocked" "$nsig" 0
tap_ok "unload lt_race_test" lt_unload lt_race_test
unload_trackers() { lt_unload latency_tracker_offcpu && lt_unload latency_tracker_wakeup; }
tap_ok "unload the trackers" unload_trackers
tap_ok "unload the core" lt_unload latency_tracker
tap_done
