#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# wakeup-contended.sh - the wakeups of a fair task competing for its CPU
# are all tracked.  Two fair busy loops and a fair task looping 2 ms of
# work and a 1 ms sleep share CPU 1; with a 1 us threshold every wakeup of
# the task produces a record (it always waits for the CPU).  Since Linux
# 6.12, EEVDF's DELAY_DEQUEUE leaves such a task on the runqueue when it
# blocks with negative lag (p->on_rq set, p->se.sched_delayed): its wakeup
# must be tracked all the same.  Run with DELAY_DEQUEUE and with
# NO_DELAY_DEQUEUE (/sys/kernel/debug/sched/features) where the feature
# exists; one mode on a kernel older than 6.12 (a named skip for the
# other); on 6.12 and newer a features file without it fails.
# Requires >= 95 % of the task's sleeps to have a record.
. tests/guest/lib.sh
. tests/guest/progs/trk.sh
TRK=wakeup TRK_MOD=latency_tracker_wakeup
FEAT=/sys/kernel/debug/sched/features
SECS=${LTG_CONTENDED_SECONDS:-3}
tap_plan 7

tap_ok "load (threshold 1 us)" trk_load threshold=1000
# Both sides are counted in the kernel's own trace of the run (ftrace, no
# overrun allowed): the task's sleeps are its switch-outs in a sleeping
# state (prev_state S or D: each needs a wakeup, then a CPU), its records
# are our tracepoint latency_tracker:wakeup (one per alert record, same
# fields).  With a 1 us threshold every wakeup of the system makes a
# record, more than a reader of the alerts file is sure to keep up with on
# a loaded emulated guest; counting the program's own sleep calls would
# count those the timer ended before the task left its CPU (no wakeup to
# track).
T=/sys/kernel/tracing
run_mode() { # label
	local out calls pid got sleeps overrun
	out=$(mktemp)
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo 8192 >$T/buffer_size_kb
	echo 1 >$T/events/latency_tracker/wakeup/enable
	echo 1 >$T/events/sched/sched_switch/enable
	echo 1 >$T/tracing_on
	python3 tests/guest/progs/contended.py 1 "$SECS" 2 1 2 >"$out"
	echo 0 >$T/tracing_on
	echo 0 >$T/events/latency_tracker/wakeup/enable
	echo 0 >$T/events/sched/sched_switch/enable
	pid=$(sed -n 's/^pid=//p' "$out")
	calls=$(sed -n 's/^sleeps=//p' "$out")
	sleeps=$(grep -cE "sched_switch: prev_comm=lt_contend prev_pid=$pid .* prev_state=[SD] " $T/trace)
	got=$(grep -c "wakeup: cause=threshold .* pid=$pid tgid=$pid comm=lt_contend " $T/trace)
	overrun=$(cat $T/per_cpu/cpu*/stats | awk '$1 == "overrun:" { s += $2 } END { print s + 0 }')
	tap_diag "$1: $got records for $sleeps sleeps of pid $pid ($calls sleep calls; trace overruns: $overrun)"
	tap_cmp "$1: the task slept (>= 50 times), no trace overrun" \
		"$(( overrun ? 0 : sleeps ))" -ge 50
	tap_cmp "$1: >= 95 % of its sleeps tracked ($got of $sleeps)" \
		$((got * 100)) -ge $((sleeps * 95))
	rm -f "$out"
}
# DELAY_DEQUEUE came with Linux 6.12: a kernel that has it must let the
# test toggle it (a missing features file fails, it never skips).
mode=$(sched_feature_mode $FEAT "$(uname -r)" DELAY_DEQUEUE 6 12)
if [ "$mode" = toggle ]; then
	orig=$(tr ' ' '\n' <$FEAT | grep -w -E 'NO_DELAY_DEQUEUE|DELAY_DEQUEUE')
	tap_ok "DELAY_DEQUEUE on" bash -c "echo DELAY_DEQUEUE >$FEAT"
	run_mode DELAY_DEQUEUE
	tap_ok "NO_DELAY_DEQUEUE on" bash -c "echo NO_DELAY_DEQUEUE >$FEAT"
	run_mode NO_DELAY_DEQUEUE
	echo "$orig" >$FEAT
elif [ "$mode" = missing ]; then
	tap_ok "DELAY_DEQUEUE listed in $FEAT ($(uname -r) has it)" false
	run_mode "delayed dequeue as it is"
	tap_skip 3 "the features file cannot set DELAY_DEQUEUE (failed above)"
else
	tap_skip 1 "no DELAY_DEQUEUE scheduler feature on $(uname -r) (Linux < 6.12)"
	run_mode "no delayed dequeue"
	tap_skip 3 "no DELAY_DEQUEUE scheduler feature on $(uname -r) (Linux < 6.12)"
fi
trk_unload
lt_unload latency_tracker
# Tracing back on, as a boot starts: the tests after this one read the
# trace (core-api, offcpu).
echo 1 >$T/tracing_on
tap_done
