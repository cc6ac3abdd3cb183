#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# explain-cpu.sh - CPU contention (DepGraph V-B): a SCHED_FIFO hog spins
# 200 ms on the CPU of ex_victim, which stays runnable meanwhile.  The
# explanation: runnable time attributed to that CPU and, under it, to the hog.
# Explained twice: for --tid/--at/--window, and in the default mode, for the
# latency_tracker_wakeup alert our wakeup tracker emitted into the snapshot,
# whose breakdown explain checks against the snapshot's (the hog's thread
# time on both sides).
. tests/guest/lib.sh
. tests/guest/explain-progs/guest.inc
EX_SESSIOND_ARGS=--extra-kmod-probes=latency_tracker

cleanup() {
	ex_cleanup
	lt_loaded latency_tracker_wakeup && lt_unload latency_tracker_wakeup
	lt_loaded latency_tracker && lt_unload latency_tracker
}
trap cleanup EXIT

tap_plan 22
tap_ok "explain and the scenario programs are built" ex_built || tap_done
tap_ok "lttng kernel tracing usable" ex_lttng_ok || tap_done
lt_load latency_tracker && lt_load latency_tracker_wakeup threshold=100000000
tap_is "wakeup tracker loaded (threshold 100 ms)" "$?" 0
tap_ok "snapshot session started" ex_session_start cpu
tap_is "every event the session names is one of this kernel's LTTng events" \
	"$(lt_session_missing | paste -sd' ' -)" ""
"$EXPROGS/ex-cpuhog" 200 >"$EX_WORK/cpu.out"
snap=$(ex_session_snapshot cpu)
tap_ok "snapshot recorded" test -d "$snap"

ex_cpuhog_vars "$EX_WORK/cpu.out"
tap_diag "victim $V, hog $HOG spun $((HOG_NS / 1000)) us"

"$EXPLAIN" "$snap" --tid "$V" --at "$AT" --window "$WIN" -o "$EX_WORK/out" \
	>"$EX_WORK/explain.txt" 2>"$EX_WORK/explain.err"
tap_is "explain exits 0" "$?" 0
sed 's/^/# /' "$EX_WORK/explain.txt" "$EX_WORK/explain.err"
J=$EX_WORK/out/explain.json
R="r['reports'][0]"

runnable=$(ex_json "$J" "$R['states']['runnable_ns']")
tap_cmp "the victim was runnable >= 80% of the hog's spin" $((runnable * 10)) -ge $((HOG_NS * 8))
cpu_wait=$(ex_json "$J" "sum(e['weight_ns'] for e in $R['graph']['edges'] if e['kind'] == 'wait_cpu' and $R['graph']['nodes'][e['to']]['label'] == 'CPU 1')")
tap_cmp "runnable time attributed to CPU 1 (>= 80% of the spin)" $((cpu_wait * 10)) -ge $((HOG_NS * 8))
hog_share=$(ex_json "$J" "sum(e['weight_ns'] for e in $R['graph']['edges'] if e['kind'] == 'cpu_used' and $R['graph']['nodes'][e['from']]['label'] == 'CPU 1' and $R['graph']['nodes'][e['to']]['tid'] == $HOG)")
tap_diag "runnable $((runnable / 1000)) us, CPU 1 $((cpu_wait / 1000)) us, of it the hog $((hog_share / 1000)) us"
tap_cmp "CPU 1 -> the hog (>= 80% of the spin)" $((hog_share * 10)) -ge $((HOG_NS * 8))
tap_is "the main cause is CPU contention" "$(ex_json "$J" "$R['classification']['causes'][0]['class']")" cpu
tap_ok "text tree: CPU 1 -> ex_hog [$HOG]" grep -qE "^ *([|] *)*[|\`]- ex_hog \[$HOG\]" "$EX_WORK/explain.txt"

# Default mode: the alerts found in the snapshot.
"$EXPLAIN" "$snap" --format json >"$EX_WORK/alerts.json" 2>"$EX_WORK/alerts.err"
"$EXPLAIN" "$snap" >"$EX_WORK/alerts.txt" 2>/dev/null
tap_is "explain without --tid exits 0 (alerts in the snapshot)" "$?" 0
sed 's/^/# /' "$EX_WORK/alerts.err"
A="[x for x in r['reports'] if x['tid'] == $V and 'wakeup' in x['origin']]"
tap_cmp "a report for the victim's wakeup alert" "$(ex_json "$EX_WORK/alerts.json" "len($A)")" -ge 1
AR="max($A, key=lambda x: x['duration_ns'])"
adur=$(ex_json "$EX_WORK/alerts.json" "$AR['duration_ns']")
ahog=$(ex_json "$EX_WORK/alerts.json" "sum(e['weight_ns'] for e in $AR['graph']['edges'] if e['kind'] == 'cpu_used' and $AR['graph']['nodes'][e['to']]['tid'] == $HOG)")
tap_diag "victim's wakeup alert: $((adur / 1000)) us, of it the hog on the CPU $((ahog / 1000)) us"
tap_cmp "the alert's interval is over the threshold" "$adur" -ge 100000000
tap_cmp "the alert's latency is the hog (>= 80%)" $((ahog * 10)) -ge $((adur * 8))
tap_is "the alert's main cause is CPU contention" "$(ex_json "$EX_WORK/alerts.json" "$AR['classification']['causes'][0]['class']")" cpu
# The record's breakdown against the snapshot's (x86_irq_vectors_* in the
# session: the timer's ticks are interrupt time on both sides).
B="$AR['breakdown']"
tap_diag "breakdown: $(ex_json "$EX_WORK/alerts.json" "$B")"
tap_is "the alert's breakdown checked: the snapshot covers its window" \
	"$(ex_json "$EX_WORK/alerts.json" "$B['covered']")" True
tap_is "the record's top thread is the snapshot's: the hog" \
	"$(ex_json "$EX_WORK/alerts.json" "$B['tops']['thread']['record'].split(':')[-1] + ' ' + $B['tops']['thread']['snapshot'].split(':')[-1]")" "$HOG $HOG"
rt=$(ex_json "$EX_WORK/alerts.json" "$B['parts']['thread']['record_ns']")
st=$(ex_json "$EX_WORK/alerts.json" "$B['parts']['thread']['snapshot_ns']")
tap_cmp "its thread time, the snapshot's within 5% ($((rt / 1000)) us, $((st / 1000)) us)" \
	$(( (rt > st ? rt - st : st - rt) * 20 )) -le "${rt:-0}"
# Each part within the check's tolerance or 20% of the record's: a kind
# of event missing from the snapshot (softirqs, vectors) shows here.
tap_is "every part of the record found in the snapshot" \
	"$(ex_json "$EX_WORK/alerts.json" "[k for k, p in $B['parts'].items() if abs(p['record_ns'] - p['snapshot_ns']) > max($B['tolerance_ns'], p['record_ns'] / 5)]")" "[]"
tap_ok "the text report shows the check" \
	grep -q "^breakdown (the record's against the snapshot's, CPU 1" "$EX_WORK/alerts.txt"
[ "$_tap_failed" = 0 ] || ex_keep cpu cpu.out out alerts.json alerts.txt
tap_done
