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
lt_load latency_tracker && lt_load latency_tracker_app
tap_is "latency_tracker_app loaded" "$?" 0
tap_ok "snapshot session started" ex_session_start app
$APP checkout lock 1 100 50000000 >"$EX_WORK/app.out"
snap=$(ex_session_snapshot app)
tap_ok "snapshot recorded" test -d "$snap"
sed 's/^/# /' "$EX_WORK/app.out"
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
tap_diag "request $(( (E - B) / 1000 )) us on the application's clock; report $((dur / 1000)) us"
tap_cmp "the report's span is the request's (within 5 ms of the application's)" \
	$(( (E - B) - dur )) -le 5000000
tap_is "its main cause is synchronisation" \
	"$(ex_json "$EX_WORK/alerts.json" "$AR['classification']['causes'][0]['class']")" synchronisation
futex=$(ex_json "$EX_WORK/alerts.json" "sum(c['blocked_ns'] for c in $AR['states']['contexts'] if c['name'] == 'futex')")
tap_cmp "blocked in futex >= 80% of the span" $((futex * 10)) -ge $((dur * 8))
[ "$_tap_failed" = 0 ] || ex_keep app app.out alerts.json
tap_done
