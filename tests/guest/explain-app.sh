#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# explain-app.sh - explain from an application alert: app_req (built with
# liblatency-tracker) marks one request that waits 100 ms for a mutex
# another of its threads holds; the application tracker's alert goes into
# the snapshot (latency_tracker_app, with the tracker's name), and
# `explain` in its default mode explains the request's span on its thread:
# the interval is the record's, the wait is synchronisation, blocked in
# futex, woken by the holder, a thread of the same process.
. tests/guest/lib.sh
. tests/guest/explain-progs/guest.inc
. tests/guest/progs/trk.sh
EX_SESSIOND_ARGS=--extra-kmod-probes=latency_tracker
APP=build/progs/app_req

cleanup() {
	ex_cleanup
	lt_loaded latency_tracker_app && lt_unload latency_tracker_app
	lt_loaded latency_tracker && lt_unload latency_tracker
}
trap cleanup EXIT

tap_plan 10
tap_ok "explain and the scenario programs are built" ex_built || tap_done
tap_ok "lttng kernel tracing usable" ex_lttng_ok || tap_done
{ lt_loaded latency_tracker || lt_load latency_tracker; } && lt_load latency_tracker_app
tap_is "latency_tracker_app loaded" "$?" 0
echo "checkout app threshold=50000000" >/proc/latency_tracker/app
tap_ok "snapshot session started" ex_session_start app
TRK=checkout trk_reader_start "$EX_WORK/alerts"
$APP checkout lock 1 100 >"$EX_WORK/app.out"
snap=$(ex_session_snapshot app)
trk_reader_stop
tap_ok "snapshot recorded" test -d "$snap"
sed 's/^/# /' "$EX_WORK/app.out" "$EX_WORK/alerts"
D=$(sed -n '/ cookie=2001 /s/^ts=[0-9]* tracker=checkout cause=threshold delay=\([0-9]*\) .*/\1/p' "$EX_WORK/alerts")
T=$(sed -n 's/^req .* tid=\([0-9]*\) .*/\1/p' "$EX_WORK/app.out")
B=$(sed -n 's/^req .* begin=\([0-9]*\) .*/\1/p' "$EX_WORK/app.out")
E=$(sed -n 's/^req .* end=\([0-9]*\) .*/\1/p' "$EX_WORK/app.out")

"$EXPLAIN" "$snap" --format json >"$EX_WORK/alerts.json" 2>"$EX_WORK/alerts.err"
tap_is "explain without --tid exits 0 (the alert in the snapshot)" "$?" 0
sed 's/^/# /' "$EX_WORK/alerts.err"
A="[x for x in r['reports'] if x['tid'] == ${T:-0} and 'checkout' in x['origin']]"
tap_is "one report, the request's thread, from the checkout tracker's alert" \
	"$(ex_json "$EX_WORK/alerts.json" "len($A)")" 1
AR="$A[0]"
dur=$(ex_json "$EX_WORK/alerts.json" "$AR['duration_ns']")
span=$(( ${E:-0} - ${B:-0} ))
tap_diag "request $((span / 1000)) us on the application's clock, $((${D:-0} / 1000)) us in its record; report $((${dur:-0} / 1000)) us"
# The record's delay (the kernel's clock; the snapshot's is the same),
# within 1 ms, and inside the application's span; no record, report or
# request fails (each at least 90 ms).
in_span() { [ "$span" -ge 90000000 ] && [ "${dur:-0}" -ge 90000000 ] && [ "${D:-0}" -ge 90000000 ] &&
	[ "$dur" -le "$span" ] && [ $((dur - D)) -le 1000000 ] && [ $((D - dur)) -le 1000000 ]; }
tap_ok "the report's span is the request's record's (within 1 ms), inside the application's" in_span
tap_is "its main cause is synchronisation" \
	"$(ex_json "$EX_WORK/alerts.json" "$AR['classification']['causes'][0]['class']")" synchronisation
futex=$(ex_json "$EX_WORK/alerts.json" "sum(c['blocked_ns'] for c in $AR['states']['contexts'] if c['name'] == 'futex')")
tap_cmp "blocked in futex >= 80% of the span" $((${futex:-0} * 10)) -ge $((${dur:-1} * 8))
[ "$_tap_failed" = 0 ] || ex_keep app app.out alerts.json
tap_done
