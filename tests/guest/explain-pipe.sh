#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# explain-pipe.sh - producer/consumer over a pipe (issue 17, scenario c):
# ex_consumer blocks in read() on a pipe created after the session
# started; ex_producer sleeps 100 ms, then writes.  The consumer's wait is
# synchronisation with the producer (the writer that woke it, in write),
# on the pipe its fd was at that time (pipe2's fds, from the trace), and
# its dependency on the producer lasts as long as the trace shows the
# consumer blocked until the producer woke it -- the producer's sleep and
# whatever else it did first (under load, its start-up takes milliseconds)
# -- against babeltrace2's own reading of the snapshot.
. tests/guest/lib.sh
. tests/guest/explain-progs/guest.inc
trap ex_cleanup EXIT

tap_plan 15
tap_ok "explain and the scenario programs are built" ex_built || tap_done
tap_ok "lttng kernel tracing usable" ex_lttng_ok || tap_done
tap_ok "snapshot session started" ex_session_start pipe
"$EXPROGS/ex-pipe" 100 >"$EX_WORK/pipe.out"
snap=$(ex_session_snapshot pipe)
tap_ok "snapshot recorded" test -d "$snap"

C=$(ex_val "$EX_WORK/pipe.out" consumer_tid)
P=$(ex_val "$EX_WORK/pipe.out" producer_tid)
FD=$(ex_val "$EX_WORK/pipe.out" read_fd)
S=$(ex_val "$EX_WORK/pipe.out" consumer_start)
E=$(ex_val "$EX_WORK/pipe.out" consumer_end)
tap_diag "consumer $C (fd $FD), producer $P, waited $(( (E - S) / 1000 )) us (wall clock)"

babeltrace2 --clock-cycles "$snap" >"$EX_WORK/bt.txt" 2>/dev/null
sleep_ns=$(ex_bt_longest "$EX_WORK/bt.txt" clock_nanosleep "$P")
blocked_ns=$(ex_bt_blocked "$EX_WORK/bt.txt" "$C" "$P" "$S" "$E")
tap_cmp "the producer's sleep is in the trace" "${sleep_ns:-0}" -gt 50000000
tap_ok "the trace has pipe2 returning fd $FD" \
	grep -qE "syscall_exit_pipe2: .*fildes = \[ \[0\] = $FD," "$EX_WORK/bt.txt"
tap_ok "the trace has the consumer's read(fd $FD)" \
	grep -qE "syscall_entry_read: \{ cpu_id = [0-9]+ \}, \{ [^}]*\btid = $C, [^}]*\}, \{ fd = $FD," "$EX_WORK/bt.txt"

"$EXPLAIN" "$snap" --tid "$C" --at "$E" --window $((E - S)) -o "$EX_WORK/out" \
	>"$EX_WORK/explain.txt" 2>"$EX_WORK/explain.err"
tap_is "explain exits 0" "$?" 0
sed 's/^/# /' "$EX_WORK/explain.txt" "$EX_WORK/explain.err"
J=$EX_WORK/out/explain.json
R="r['reports'][0]"
tap_is "the main cause is synchronisation" "$(ex_json "$J" "$R['classification']['causes'][0]['class']")" synchronisation
tap_cmp "synchronisation >= 99% of the consumer's blocking until the producer woke it in the trace" \
	$(( $(ex_json "$J" "$R['classification']['synchronisation']['ns']") * 100 )) -ge $((blocked_ns * 99))
tap_is "the cause: read on the pipe, woken by the producer" \
	"$(ex_json "$J" "$R['classification']['causes'][0]['what'].startswith('read on pipe') and 'ex_producer [$P]' in $R['classification']['causes'][0]['what']")" True
tap_is "the evidence: the producer in write" \
	"$(ex_json "$J" "'ex_producer [$P] in write' in $R['classification']['causes'][0]['evidence']")" True
dep_ns=$(ex_json "$J" "sum(e['weight_ns'] for e in $R['graph']['edges'] if e['kind'] == 'woken_by' and $R['graph']['nodes'][e['to']]['tid'] == $P and $R['graph']['nodes'][e['from']]['label'] == 'read')")
tap_diag "producer slept $((sleep_ns / 1000)) us in the trace; consumer blocked $((blocked_ns / 1000)) us until the producer woke it; dependency read -> producer $((dep_ns / 1000)) us"
tap_cmp "dependency on the producer >= 90% of its sleep" $((dep_ns * 10)) -ge $((sleep_ns * 9))
tap_cmp "dependency on the producer >= 99% of the consumer's blocked time in the trace" \
	$((dep_ns * 100)) -ge $((blocked_ns * 99))
tap_cmp "dependency on the producer <= 101% of the consumer's blocked time in the trace" \
	$((dep_ns * 100)) -le $((blocked_ns * 101))
[ "$_tap_failed" = 0 ] || ex_keep pipe pipe.out out bt.txt
tap_done
