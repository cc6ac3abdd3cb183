#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# explain-lock.sh - lock contention (DepGraph V-A): ex_holder takes a mutex
# and sleeps 100 ms in it, ex_waiter blocks on it.  The explanation of the
# waiter: blocked in futex, direct dependency on the holder for as long as
# the trace shows the waiter blocked until the holder woke it (within 1%;
# at least 90% of the holder's sleep), synchronisation, and the
# lock view names the mutex and the holder as its releaser.
. tests/guest/lib.sh
. tests/guest/explain-progs/guest.inc
trap ex_cleanup EXIT

tap_plan 19
tap_ok "explain and the scenario programs are built" ex_built || tap_done
tap_ok "lttng kernel tracing usable" ex_lttng_ok || tap_done
tap_ok "snapshot session started" ex_session_start lock
"$EXPROGS/ex-lock" 100 >"$EX_WORK/lock.out"
snap=$(ex_session_snapshot lock)
tap_ok "snapshot recorded" test -d "$snap"

W=$(ex_val "$EX_WORK/lock.out" waiter_tid)
H=$(ex_val "$EX_WORK/lock.out" holder_tid)
S=$(ex_val "$EX_WORK/lock.out" waiter_start)
E=$(ex_val "$EX_WORK/lock.out" waiter_end)
MUTEX=$(ex_val "$EX_WORK/lock.out" mutex)
tap_diag "waiter $W, holder $H, mutex $MUTEX, waited $(( (E - S) / 1000 )) us (wall clock)"

"$EXPLAIN" "$snap" --tid "$W" --at "$E" --window $((E - S)) -o "$EX_WORK/out" \
	>"$EX_WORK/explain.txt" 2>"$EX_WORK/explain.err"
tap_is "explain exits 0" "$?" 0
sed 's/^/# /' "$EX_WORK/explain.txt" "$EX_WORK/explain.err"
J=$EX_WORK/out/explain.json
R="r['reports'][0]"

# How long the holder slept with the lock, from the trace itself
# (babeltrace2's own reading): its longest clock_nanosleep (tid among the
# contexts, in the session's order).
babeltrace2 --clock-cycles "$snap" >"$EX_WORK/bt.txt" 2>/dev/null
sleep_ns=$(ex_bt_longest "$EX_WORK/bt.txt" clock_nanosleep "$H")
dep_ns=$(ex_json "$J" "sum(e['weight_ns'] for e in $R['graph']['edges'] if e['kind'] == 'woken_by' and $R['graph']['nodes'][e['to']]['tid'] == $H and $R['graph']['nodes'][e['from']]['label'] == 'futex')")
blocked_ns=$(ex_bt_blocked "$EX_WORK/bt.txt" "$W" "$H" "$S" "$E")
tap_diag "holder slept $((sleep_ns / 1000)) us in the trace; waiter blocked $((blocked_ns / 1000)) us until the holder woke it; dependency futex -> holder $((dep_ns / 1000)) us"
tap_cmp "the holder's sleep is in the trace" "${sleep_ns:-0}" -gt 50000000
tap_cmp "direct dependency on the holder >= 90% of its sleep" $((dep_ns * 10)) -ge $((sleep_ns * 9))
tap_cmp "direct dependency on the holder >= 99% of the waiter's blocked time in the trace" \
	$((dep_ns * 100)) -ge $((blocked_ns * 99))
tap_cmp "direct dependency on the holder <= 101% of the waiter's blocked time in the trace" \
	$((dep_ns * 100)) -le $((blocked_ns * 101))
futex_blocked=$(ex_json "$J" "sum(c['blocked_ns'] for c in $R['states']['contexts'] if c['name'] == 'futex')")
tap_cmp "the waiter was blocked in futex >= 99% of its blocking until the holder woke it in the trace" \
	$((futex_blocked * 100)) -ge $((blocked_ns * 99))
tap_is "the main cause is synchronisation" "$(ex_json "$J" "$R['classification']['causes'][0]['class']")" synchronisation
tap_cmp "synchronisation >= 99% of the waiter's blocking until the holder woke it in the trace" \
	$(( $(ex_json "$J" "$R['classification']['synchronisation']['ns']") * 100 )) -ge $((blocked_ns * 99))
tap_is "the lock view names the mutex" "$(ex_json "$J" "$R['locks'][0]['uaddr']")" "$MUTEX"
tap_is "the lock view names the holder as releaser" "$(ex_json "$J" "$R['locks'][0]['releasers'][0]['tid']")" "$H"
tap_ok "text tree: futex -> ex_holder [$H]" grep -qE "^ *[|\`]- ex_holder \[$H\]" "$EX_WORK/explain.txt"
tap_ok "text tree: the wait edge names the mutex (on futex $MUTEX)" \
	grep -qE "^ *[|\`]- ex_holder \[$H\] \([^)]*\) on futex $MUTEX( |\$)" "$EX_WORK/explain.txt"
tap_ok "DOT graph written" grep -q '^digraph' "$EX_WORK/out/explain-1.dot"
tap_ok "SVG rendered (in the process, Graphviz's libraries)" grep -q '<svg' "$EX_WORK/out/explain-1.svg"
"$EXPLAIN" "$snap" --tid "$W" --at "$E" --window $((E - S)) --format dot >"$EX_WORK/stdout.dot"
tap_ok "--format dot on stdout" grep -q '^digraph' "$EX_WORK/stdout.dot"
[ "$_tap_failed" = 0 ] || ex_keep lock lock.out out
tap_done
