#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# wakeup.sh - latency_tracker_wakeup: a SCHED_FIFO hog pinned on the CPU of
# a periodically sleeping (lower priority SCHED_FIFO) victim delays the
# victim's wakeups by about the hog's busy time; without the hog, nothing.
. tests/guest/lib.sh
. tests/guest/progs/trk.sh
TRK=wakeup TRK_MOD=latency_tracker_wakeup
TRK_EVENTS="sched/sched_waking sched/sched_wakeup sched/sched_switch"
TRK_COMPANION=latency_tracker_offcpu

CPU=1
HOG_MS=500
THRESHOLD=150000000		# 150 ms: above emulation hiccups
PERIOD_MS=20

# 25 assertions of this script, and those of the shared trk_* checks.
tap_plan $((25 + $(trk_shared_plan)))
tap_ok "load" trk_load threshold=$THRESHOLD
tap_ok "/proc/latency_tracker/wakeup exists" test -d "$(trk_dir)"
tap_is "threshold from the module parameter" "$(cat "$(trk_dir)/threshold")" $THRESHOLD

# With the hog: the victim wakes every 20 ms; the hog spins HOG_MS on its
# CPU with a higher RT priority, so one wakeup waits (almost) all of it.
out=$(mktemp) alerts=$(mktemp)
trk_reader_start "$alerts"
# (the victim loops until killed: python starts slowly under emulation)
$LTPROG victim $CPU 10 $PERIOD_MS 1000 >"$out" &
vpid_job=$!
victim=$(trk_wait_pid "$out")
hog=$($LTPROG hog $CPU 50 $HOG_MS | sed -n 's/^pid=//p')
sleep 0.3
kill $vpid_job
wait $vpid_job 2>/dev/null
trk_reader_stop
tap_diag "victim $victim, hog $hog"
# The victim's records once it runs as lt_victim (pinned): python's start
# up, before, may wait for a CPU too under emulation, with no hog.
mine=$(grep " pid=$victim .* comm=lt_victim " "$alerts")
tap_cmp "alerts for the victim" "$(grep -c . <<<"$mine")" -ge 1
worst=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^delay=/) { split($i, a, "="); print a[2], $0 } }' <<<"$mine" | sort -n | tail -n 1 | cut -d' ' -f2-)
tap_diag "worst: $worst"
delay=$(field "$worst" delay)
tap_ok "record header (ts tracker cause delay)" trk_header_ok "$worst" threshold
tap_cmp "delay >= hog time - victim period - 50 ms" "${delay:-0}" -ge $(( (HOG_MS - PERIOD_MS - 50) * 1000000 ))
tap_cmp "delay < 5 s" "${delay:-0}" -lt 5000000000
tap_is "comm is the victim" "$(field "$worst" comm)" lt_victim
tap_is "tgid" "$(field "$worst" tgid)" "$victim"
tap_is "cpu is the pinned one" "$(field "$worst" cpu)" $CPU
tap_is "prev_comm is the hog" "$(field "$worst" prev_comm)" lt_hog
tap_is "prev_pid is the hog" "$(field "$worst" prev_pid)" "$hog"
# The holder: current on the victim's CPU when the victim became runnable.
tap_is "holder_comm is the hog" "$(field "$worst" holder_comm)" lt_hog
tap_is "holder_pid is the hog" "$(field "$worst" holder_pid)" "$hog"
tap_is "holder_prio is the hog's (SCHED_FIFO 50: 49)" "$(field "$worst" holder_prio)" 49
tap_ok "cgroup=<id> last" bash -c "[[ '$worst' =~ \ cgroup=[0-9]+$ ]]"
tap_ok "prio and waker fields present" bash -c "[[ '$worst' =~ \ prio=[0-9]+\ .*\ waker_pid=[0-9]+\ waker_comm=[^\ ]+\  ]]"
tap_cmp "stats: over_threshold" "$(trk_stat over_threshold)" -ge 1
tap_cmp "stats: alerts" "$(trk_stat alerts)" -ge 1
tap_cmp "stats: matched > 10" "$(trk_stat matched)" -gt 10
tap_cmp "stats: max_ns >= worst delay" "$(trk_stat max_ns)" -ge "${delay:-0}"
tap_ok "histogram has the worst delay" trk_hist_has "${delay:-0}"

# Without the hog: the same victim is never late.
trk_reader_start "$alerts"
$LTPROG victim $CPU 10 $PERIOD_MS 50 >"$out"
victim=$(sed -n 's/^pid=//p' "$out")
trk_reader_stop
tap_is "no alert for the victim without the hog" "$(grep -c " pid=$victim " "$alerts")" 0

# The tracepoint carries the record.
tp=/sys/kernel/tracing/events/latency_tracker/wakeup
if [ -d $tp ]; then
	echo 1 >$tp/enable
	echo >/sys/kernel/tracing/trace
	$LTPROG victim $CPU 10 $PERIOD_MS 1000 >"$out" &
	vpid_job=$!
	trk_wait_pid "$out" >/dev/null
	$LTPROG hog $CPU 50 $HOG_MS >/dev/null
	sleep 0.3
	kill $vpid_job
	wait $vpid_job 2>/dev/null
	echo 0 >$tp/enable
	tap_ok "tracepoint latency_tracker:wakeup emitted with prev_comm" \
		grep -q "wakeup: cause=threshold .* comm=lt_victim .*prev_comm=lt_hog" /sys/kernel/tracing/trace ||
		{ grep -v '^#' /sys/kernel/tracing/trace | head -n 5 | sed 's/^/# trace: /'
		  cat /sys/kernel/tracing/tracing_on $tp/enable | sed 's/^/# /'; }
else
	tap_ok "tracefs has latency_tracker events" false
fi

trk_unload
trk_rounds 4 $LTPROG wakers 4 30
trk_tiny_pool 1 $LTPROG wakers 8 1
tap_ok "core unloads" lt_unload latency_tracker
rm -f "$out" "$alerts"
tap_done
