#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# wakeup-breakdown.sh - why a wakeup was late: the breakdown fields of the
# wakeup tracker's records (irq_ns softirq_ns thread_ns idle_ns
# other_cpu_ns top_irq top_softirq top_thread migrated), for a victim on
# CPU 1 delayed in turn by a SCHED_FIFO hog, by a hard interrupt (a
# pinned hrtimer spinning in the local APIC timer's vector:
# lt_irq_load.ko), by a device interrupt's slow handler that the timer
# raises (work in hard interrupt context), by softirq work (a tasklet spinning, raised from that
# timer) and by nothing (its CPU idle), each against the kernel's trace
# of the same run (progs/breakdown_check.py recomputes every record's
# parts from irq_handler_*, irq_vectors:*, softirq_*, sched_switch).
. tests/guest/lib.sh
. tests/guest/progs/trk.sh
. tests/guest/oracle/lib.sh
TRK=wakeup TRK_MOD=latency_tracker_wakeup
ORACLE_EVENTS="sched/sched_waking sched/sched_wakeup sched/sched_switch
	irq/irq_handler_entry irq/irq_handler_exit irq/softirq_entry irq/softirq_exit"
for v in local_timer reschedule call_function call_function_single irq_work; do
	ORACLE_EVENTS+=" irq_vectors/${v}_entry irq_vectors/${v}_exit"
done
CPU=1
RT=
uname -v | grep -q PREEMPT_RT && RT=--rt
# A part of a record and the trace's may differ by the time between
# ftrace's clock read and ours at each change of kind in the window.
TOL_US=150 PER_CHANGE_US=5
CHECK="python3 tests/guest/progs/breakdown_check.py $RT --tol $TOL_US --per-change $PER_CHANGE_US"
D=$(mktemp -d)

tap_plan 28
oracle_ftrace_save

# run_case NAME THRESHOLD_NS VICTIM_ARGS [LOAD_PARAMS]: the victim (ltprog
# VICTIM_ARGS: victim or woken) with lt_irq_load.ko loaded with
# LOAD_PARAMS (none: no load), traced; with HOG set, a hog spins HOG ms
# three times once the victim runs, and the victim is stopped after them;
# leaves $D/NAME.{alerts,trace,check} and VICTIM.  The tracker is loaded
# after ftrace: on each tracepoint ftrace's clock read comes before ours.
# A run whose records the trace can mostly not judge (machine stalls in
# their windows: see agree) runs once more, and the second run is judged:
# on a loaded host, each of the hog's three records of 200 ms may span a
# stall of tens of milliseconds.
run_case() {
	run_once "$@" || return 1
	if stalled_most "$1"; then
		tap_diag "$1: $(summary "$1" stalled) of $(summary "$1" records) records span machine stalls: again"
		run_once "$@"
	fi
}

# stalled_most NAME: no record outside machine stalls, or more than a
# third of them within stalls.
stalled_most() {
	local n s m
	n=$(summary "$1" records) s=$(summary "$1" stalled) m=$(summary "$1" matched)
	[ $(( ${m:-0} - ${s:-0} )) -lt 1 ] || [ $(( ${s:-0} * 3 )) -gt "${n:-0}" ]
}

run_once() {
	local name=$1 thr=$2 vargs=$3 load=${4:-} job
	oracle_ftrace_on 8192
	trk_load threshold="$thr" || return 1
	[ -n "$load" ] && { lt_load lt_irq_load $load || return 1; }
	trk_reader_start "$D/$name.alerts"
	$LTPROG $vargs >"$D/$name.out" &
	job=$!
	VICTIM=$(trk_wait_pid "$D/$name.out")
	if [ -n "${HOG:-}" ]; then
		for _ in 1 2 3; do
			$LTPROG hog $CPU 50 "$HOG" >/dev/null
			sleep 0.1
		done
		sleep 0.2
		kill $job
	fi
	wait $job 2>/dev/null
	trk_reader_stop 0.5
	[ -n "$load" ] && lt_unload lt_irq_load
	echo 0 >$ORACLE_T/tracing_on
	cp $ORACLE_T/trace "$D/$name.trace"
	tap_diag "$name: victim $VICTIM, $(grep -c " pid=$VICTIM " "$D/$name.alerts") records, trace lost $(oracle_lost_events) events"
	trk_unload
	$CHECK "$D/$name.trace" "$D/$name.alerts" "$VICTIM" lt_victim >"$D/$name.check"
	grep '^rec' "$D/$name.check" | head -n 5 | sed 's/^/# /'
	tail -n 1 "$D/$name.check" | sed 's/^/# /'
}

# summary NAME KEY: a value of the checker's summary line.
summary() { tail -n 1 "$D/$1.check" | tr ' ' '\n' | sed -n "s/^$2=//p"; }

# mine NAME: the victim's records once it runs as lt_victim, pinned (python
# starting up, before, may wait for a CPU too).
mine() { grep " pid=$VICTIM .* comm=lt_victim " "$D/$1.alerts" | grep ' cause=threshold '; }

# worst NAME: the victim's record with the longest delay.
worst() {
	mine "$1" |
		awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^delay=/) { split($i, a, "="); print a[2], $0 } }' |
		sort -n | tail -n 1 | cut -d' ' -f2-
}

# share NAME PATTERN FIELD: the median, over the victim's records matching
# PATTERN, of FIELD's percentage of the delay.
share() {
	mine "$1" | grep -- "$2" | awk -v k="$3" '{
		for (i = 1; i <= NF; i++) {
			split($i, a, "=")
			if (a[1] == "delay") d = a[2]
			if (a[1] == k) v = a[2]
		}
		print int(v * 100 / d) }' | sort -n | awk '{ x[NR] = $1 } END { print NR ? x[int((NR + 1) / 2)] : 0 }'
}

# judged NAME: every record found, few within stalls, 90% of the others
# within the tolerance.
judged() {
	local n s w m
	n=$(summary "$1" records) s=$(summary "$1" stalled) w=$(summary "$1" within)
	m=$(( $(summary "$1" matched) - ${s:-0} ))
	! stalled_most "$1" && [ "${n:-0}" -ge 1 ] && [ "$(summary "$1" matched)" = "${n:-x}" ] &&
		[ $(( ${w:-0} * 10 )) -ge $(( m * 9 )) ]
}

# agree NAME: every record found in the trace; its parts, and its delay
# less their sum, within TOL_US (and PER_CHANGE_US per change of kind in
# its window) of the trace's for 90% of them, and within STALL_US for all:
# under emulation the vCPU may stop for milliseconds between ftrace's
# clock read and ours (a stall, as in the oracles).  Records that differ
# by no more than a stall of the whole machine in their window (seen in
# the trace: breakdown_check.py) are not compared, and must be a few.
STALL_US=20000
agree() {
	local n m s w e g
	n=$(summary "$1" records) m=$(summary "$1" matched) s=$(summary "$1" stalled)
	w=$(summary "$1" within) e=$(summary "$1" max_err_us) g=$(summary "$1" max_gap_err_us)
	m=$(( ${m:-0} - ${s:-0} ))
	tap_ok "$1: every record found in the trace ($(summary "$1" matched) of $n), $w of the $m outside machine stalls within $TOL_US us of its parts and waking-to-window gap" \
		judged "$1"
	tap_ok "$1: all within $STALL_US us (largest part difference $e us, gap difference $g us)" \
		test "${e:-999999}" -le $STALL_US -a "${g:-999999}" -le $STALL_US
}

# 1. A SCHED_FIFO hog (priority 50) spins 150 ms on the victim's CPU,
# three times.
HOG=150 run_case hog 100000000 "victim $CPU 10 20 1000"
tap_cmp "hog: a record for each hog naming it" "$(mine hog | grep -c ' top_thread=lt_hog:')" -ge 3
w=$(worst hog)
tap_diag "worst: $w"
tap_is "hog: top_thread names the hog" "$(field "$w" top_thread)" "lt_hog:$(field "$w" prev_pid)"
tap_is "hog: the hog is prev too" "$(field "$w" prev_comm)" lt_hog
tap_cmp "hog: thread_ns >= 75% of the delay" "$(( $(field "$w" thread_ns) * 100 / $(field "$w" delay) ))" -ge 75
tap_is "hog: not migrated (pinned), no other-CPU time" "$(field "$w" migrated):$(field "$w" other_cpu_ns)" "0:0"
agree hog

# 2. A hard interrupt: every 5 ms the timer interrupt spins 3 ms; the
# victim is woken from CPU 0 every 2 ms.
run_case irq 1000000 "woken $CPU 0 10 2 400" "cpu=$CPU period_us=5000 irq_us=3000"
n=$(mine irq | grep -c ' top_irq=local_timer ')
tap_cmp "irq: records naming the timer interrupt (top_irq=local_timer)" "$n" -ge 3
w=$(worst irq)
tap_diag "worst: $w"
tap_is "irq: a record naming an interrupt has interrupt time" \
	"$(mine irq | grep -v ' top_irq=- ' | grep -c ' irq_ns=0 ')" 0
tap_cmp "irq: their irq_ns, median share of the delay >= 80%" "$(share irq ' top_irq=local_timer ' irq_ns)" -ge 80
# (The victim thread may also be woken by its process's main thread
# before it is named lt_pinger: the GIL.)
tap_cmp "irq: records naming the timer woken from the other CPU" \
	"$(mine irq | grep ' top_irq=local_timer ' | grep -c ' waker_comm=lt_pinger ')" -ge 3
agree irq

# 2b. Work raised in hard interrupt context: the timer interrupt handles
# a device interrupt of its own whose handler spins 3 ms (nested in the
# vector: its own time is told apart).
run_case handler 1000000 "woken $CPU 0 10 2 400" "cpu=$CPU period_us=5000 handler_us=3000"
n=$(mine handler | grep -c ' top_irq=lt_slow_handler ')
tap_cmp "handler: records naming the slow handler (top_irq=lt_slow_handler)" "$n" -ge 3
tap_cmp "handler: their irq_ns, median share of the delay >= 80%" "$(share handler ' top_irq=lt_slow_handler ' irq_ns)" -ge 80
agree handler

# 3. Softirq work: the timer raises a tasklet that spins 3 ms.  On
# PREEMPT_RT the tasklet runs in a thread (ksoftirqd) that the SCHED_FIFO
# victim preempts: no softirq time, and no delay from it.
run_case softirq 1000000 "victim $CPU 10 2 400" "cpu=$CPU period_us=5000 softirq_us=3000"
n=$(mine softirq | grep -c ' top_softirq=TASKLET ')
w=$(worst softirq)
tap_diag "worst: $w"
if [ -z "$RT" ]; then
	tap_cmp "softirq: records naming the tasklet softirq (top_softirq=TASKLET)" "$n" -ge 3
	# (The worst may be one the kernel deferred to ksoftirqd: thread time.)
	tap_is "softirq: a record naming a softirq has softirq time" \
		"$(mine softirq | grep -v ' top_softirq=- ' | grep -c ' softirq_ns=0 ')" 0
	tap_cmp "softirq: their softirq_ns, median share of the delay >= 80%" "$(share softirq ' top_softirq=TASKLET ' softirq_ns)" -ge 80
	agree softirq
else
	tap_diag "PREEMPT_RT: softirqs run in threads and count as their time"
	tap_is "softirq (RT): no record has softirq time" \
		"$(mine softirq | grep -vc ' softirq_ns=0 ')" 0
	tap_is "softirq (RT): no record names a softirq" "$n" 0
	tap_ok "softirq (RT): the tasklet ran in a thread (trace)" \
		grep -q 'ksoftirqd/1-.*softirq_entry: vec=6 ' "$D/softirq.trace"
	tap_skip 2 "PREEMPT_RT: no softirq record to compare with the trace"
fi

# 4. Idle: nothing else on the victim's CPU; every wakeup recorded
# (threshold 1 us): the CPU leaves idle for it.
run_case idle 1000 "victim $CPU 10 5 100"
rec=$(mine idle | grep ' holder_pid=0 ')
tap_cmp "idle: records of wakeups on the idle CPU" "$(grep -c . <<<"$rec")" -ge 20
tap_is "idle: each has idle time" "$(grep -c ' idle_ns=0 ' <<<"$rec")" 0
# (On PREEMPT_RT the threads of interrupts, timers and RCU callbacks may
# run first: half at least, seen 73% with four guests on two CPUs.)
min=80
[ -z "$RT" ] || min=50
tap_cmp "idle: most (>= $min%) had no other thread before them ($(grep -vc ' top_thread=- ' <<<"$rec") did)" \
	"$(( $(grep -c ' top_thread=- ' <<<"$rec") * 100 / ($(grep -c . <<<"$rec") + 0) ))" -ge $min
agree idle

oracle_ftrace_restore
tap_ok "core unloads" lt_unload latency_tracker
tap_keep "$D" wakeup-breakdown
rm -rf "$D"
tap_done
