#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# lttng-probe.sh - the LTTng probe for our tracepoints: lttng-sessiond
# --extra-kmod-probes=latency_tracker loads lttng-probe-latency_tracker,
# `lttng list -k` shows the four events, and a kernel session records a
# latency_tracker_wakeup event for an injected outlier with the alert
# record's fields, next to the sched_switch that ended it (babeltrace2).
. tests/guest/lib.sh
. tests/guest/lttng.inc
trap lt_tools_cleanup EXIT

EVENTS="wakeup offcpu syscall block"

# 14 assertions, and one per event of the probe.
tap_plan $((14 + $(wc -w <<<"$EVENTS")))
tap_ok "LTTng modules installed for this kernel" lt_lttng_installed || tap_done
tap_ok "lttng-sessiond starts with --extra-kmod-probes=latency_tracker" sessiond_start
tap_ok "lttng-probe-latency_tracker loaded by sessiond" lt_loaded lttng_probe_latency_tracker
events=$(lttng list -k 2>&1)
for e in $EVENTS; do
	tap_ok "lttng list -k shows latency_tracker_$e" grep -q "latency_tracker_$e " <<<"$events"
done

tap_ok "wakeup tracker loads" wakeup_load 250000000
trace=$LT_WORK/trace
tap_ok "kernel session with our events and sched_switch" bash -c "
	lttng create lt-probe --output=$trace >/dev/null &&
	lttng enable-event -k 'latency_tracker_*' >/dev/null &&
	lttng enable-event -k sched_switch >/dev/null &&
	lttng add-context -k -t tid -t procname >/dev/null &&
	lttng start >/dev/null"
victim=$(outlier 600)
tap_ok "session stopped and destroyed" bash -c "lttng stop >/dev/null && lttng destroy >/dev/null"
tap_diag "victim pid $victim"
bt=$LT_WORK/bt.txt
tap_ok "babeltrace2 reads the trace" bash -c "babeltrace2 '$trace' >'$bt'"
tap_diag "trace: $(wc -l <"$bt") events, $(grep -c 'sched_switch:' "$bt") sched_switch, $(grep -c 'latency_tracker_wakeup:' "$bt") latency_tracker_wakeup"
tap_diag "wakeup stats: $(tr '\n' ' ' </proc/latency_tracker/wakeup/stats)"
ev=$(grep 'latency_tracker_wakeup:' "$bt" | grep -E "[{ ]pid = $victim," | grep 'prev_comm = "lt_hog"' | head -n 1)
tap_diag "event: ${ev:0:400}"
tap_ok "latency_tracker_wakeup event for the victim, after the hog" test -n "$ev"
tap_ok "cause is threshold" grep -q 'cause = "threshold"' <<<"$ev"
delay=$(sed -n 's/.* delay = \([0-9]*\).*/\1/p' <<<"$ev")
tap_cmp "delay >= 400 ms" "${delay:-0}" -ge 400000000
tap_ok "comm is the victim" grep -q 'comm = "lt_victim"' <<<"$ev"
tap_ok "cpu field is the victim's CPU" grep -qE " cpu = $VICTIM_CPU," <<<"$ev"
tap_ok "waker fields present" grep -qE 'waker_pid = [0-9]+, waker_comm = "' <<<"$ev"
tap_ok "sched_switch from the hog to the victim recorded" \
	grep -qE "sched_switch:.*prev_comm = \"lt_hog\".*next_tid = $victim," "$bt"
tap_done
