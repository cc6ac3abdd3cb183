#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# explain-timeline.sh - the timeline of the hog scenario (issue 17, scenario
# d; explain-cpu's programs): a SCHED_FIFO hog (ex_hog) spins 200 ms on CPU
# 1, where ex_victim, woken by ex_waker every 5 ms, waits for the CPU.
# `latency-tracker timeline` writes the snapshot as trace-event JSON and as
# OTF2; both are read back by tests/unit/check_timeline.py (Python's json;
# otf2-print):
#  - the victim is runnable on CPU 1 while the CPU 1 track shows ex_hog
#    running, for >= 80% of the spin;
#  - its running / runnable / blocked time over explain-cpu's interval
#    (the spin, 10 ms either side) is what `explain --tid` reports;
#  - the OTF2 archive says the same, to the nanosecond, for every thread,
#    wakeup and CPU slice;
#  - the victim's wakeup flows come from ex_waker (and the main thread's
#    last kick);
#  - --pid shows only the scenario's threads; a directory without a trace
#    is refused (exit 2, nothing written).
. tests/guest/lib.sh
. tests/guest/explain-progs/guest.inc

LTC=$LT_TOP/build/tools/latency-tracker
CHECK="python3 $LT_TOP/tests/unit/check_timeline.py"

trap ex_cleanup EXIT

# py_true FILE EXPR: ex_json's EXPR is true.
py_true() { test "$(ex_json "$@")" = True; }

tap_plan 15
tap_ok "explain and the scenario programs are built" ex_built || tap_done
tap_ok "latency-tracker is built, otf2-print installed (tests/vm/deps.sh tools)" \
	test -x "$LTC" -a -n "$(command -v otf2-print)" || tap_done
tap_ok "lttng kernel tracing usable" ex_lttng_ok || tap_done
tap_ok "snapshot session started" ex_session_start tl
"$EXPROGS/ex-cpuhog" 200 >"$EX_WORK/cpu.out" &
PID=$!
wait $PID
snap=$(ex_session_snapshot tl)
tap_ok "snapshot recorded" test -d "$snap"

ex_cpuhog_vars "$EX_WORK/cpu.out"
tap_diag "ex-cpuhog $PID: victim $V, hog $HOG spun $((HOG_NS / 1000)) us"

J=$EX_WORK/timeline.json
O=$EX_WORK/timeline.otf2
"$LTC" timeline "$snap" -o "$J" >"$EX_WORK/tl.out" 2>&1
tap_is "timeline -o timeline.json exits 0" "$?" 0
"$LTC" timeline "$snap" -o "$O" >>"$EX_WORK/tl.out" 2>&1
tap_is "timeline -o timeline.otf2 exits 0" "$?" 0
sed 's/^/# /' "$EX_WORK/tl.out"

# Both files read back once (check_timeline.py both): the victim over the
# trace and over explain-cpu's interval (the spin, 10 ms either side), in
# each format; then every thread, wakeup and CPU slice compared.
$CHECK both "$J" "$O" "$V" 1 "$HOG" $((AT - WIN)) "$AT" >"$EX_WORK/both.out" 2>"$EX_WORK/check.err"
tap_is "JSON (Python json) and OTF2 (otf2-print -Werror) read back: slices and regions nest, the formats agree on every thread, wakeup and CPU slice" "$?" 0
sed 's/^/# /' "$EX_WORK/both.out"
sed 's/^/# /' "$EX_WORK/check.err" | head -n 20
js=$(sed -n 's/^json running/running/p' "$EX_WORK/both.out")
os=$(sed -n 's/^otf2 running/running/p' "$EX_WORK/both.out")
jw=$(sed -n 's/^json window //p' "$EX_WORK/both.out")
ow=$(sed -n 's/^otf2 window //p' "$EX_WORK/both.out")

# The spin: the victim runnable on CPU 1 while the CPU 1 track shows ex_hog.
overlap=${js##*overlap=}
tap_cmp "victim runnable on CPU 1 while ex_hog runs there >= 80% of the spin ($((overlap / 1000)) us)" \
	$((overlap * 10)) -ge $((HOG_NS * 8))
tap_is "OTF2 says the same of the victim as the JSON: $os" "$os" "$js"

# explain-cpu's interval: explain's state breakdown.
"$EXPLAIN" "$snap" --tid "$V" --at "$AT" --window "$WIN" --format json \
	>"$EX_WORK/explain.json" 2>"$EX_WORK/explain.err"
sed 's/^/# /' "$EX_WORK/explain.err"
R="r['reports'][0]['states']"
want="running=$(ex_json "$EX_WORK/explain.json" "$R['running_ns']") runnable=$(ex_json "$EX_WORK/explain.json" "$R['runnable_ns']") blocked=$(ex_json "$EX_WORK/explain.json" "$R['blocked_ns']")"
tap_is "JSON over explain's interval = explain --tid (${want})" "${jw% overlap=*}" "$want"
tap_is "OTF2 over explain's interval = explain --tid" "${ow% overlap=*}" "$want"

# Wakeup flows into the victim: from ex_waker (every 5 ms), and otherwise
# only from the scenario's own threads (the main thread's last kick),
# never from another process but the CPU stopper: migration/N completes
# the scenario's own affinity changes (sched_setaffinity() waits for it
# when the thread runs elsewhere; seen on 7.3-rt).
flows=$(python3 - "$J" "$V" "$PID" <<'EOF'
import json, re, sys
d = json.load(open(sys.argv[1]))["traceEvents"]
v, pid = int(sys.argv[2]), int(sys.argv[3])
name = {e["tid"]: e["args"]["name"] for e in d if e["ph"] == "M" and e["name"] == "thread_name"}
src = {e["id"]: (e["pid"], e["tid"]) for e in d if e["ph"] == "s"}
into = [src[e["id"]] for e in d if e["ph"] == "f" and e["tid"] == v]
waker = sum(name.get(t) == "ex_waker" for p, t in into)
stopper = re.compile(r"migration/[0-9]+$")
others = sorted({"%s[%d]" % (name.get(t, "?"), t) for p, t in into
                 if p != pid and not stopper.match(name.get(t, ""))})
print(waker, len(into) - waker, len(others), ",".join(others) or "-")
EOF
)
set -- $flows
tap_diag "wakeup flows into the victim: $1 from ex_waker, $2 from other threads; from other processes: ${4:--}"
tap_ok "the victim's wakeup flows come from ex_waker (>= 10) and the scenario's threads only" \
	test "${1:-0}" -ge 10 -a "${3:-9}" = 0

# --pid: the scenario's threads only (main, victim, waker, hog).
"$LTC" timeline "$snap" --pid "$PID" -o "$EX_WORK/pid.json" >/dev/null 2>&1
shown=$(ex_json "$EX_WORK/pid.json" "sorted({e['tid'] for e in r['traceEvents'] if e['ph'] == 'X' and e['cat'] == 'state'})")
tap_diag "--pid $PID: threads $shown"
tap_ok "--pid $PID: the victim and the hog, and no other process's thread" \
	py_true "$EX_WORK/pid.json" "$V in $shown and $HOG in $shown and all(e['pid'] == $PID for e in r['traceEvents'] if e['ph'] == 'X' and e['cat'] == 'state')"

mkdir "$EX_WORK/empty"
"$LTC" timeline "$EX_WORK/empty" -o "$EX_WORK/none.json" 2>"$EX_WORK/bad.err"
rc=$?
sed 's/^/# /' "$EX_WORK/bad.err"
tap_ok "a directory without a trace: exit 2, nothing written" \
	test "$rc" = 2 -a ! -e "$EX_WORK/none.json"
[ "$_tap_failed" = 0 ] || ex_keep tl cpu.out timeline.json timeline.otf2 timeline.def \
	timeline.marker timeline explain.json
tap_done
