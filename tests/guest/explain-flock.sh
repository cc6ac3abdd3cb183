#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# explain-flock.sh - a file lock between two processes (the lock case study
# of the DepGraph paper; issue 17 scenario a): ex_fl_holder takes an
# fcntl(F_SETLKW) write lock on a file opened after the session started
# and sleeps 150 ms in it; ex_fl_waiter blocks on it.  The waiter's wait
# is synchronisation on that file (the fd table followed over time, not a
# statedump's name for the fd number), the lock view names the holder as
# the releaser, its wait as long as the trace shows the waiter blocked
# until the holder woke it and its hold between the holder's locking and
# unlocking fcntl calls in the trace, the
# window of an explanation reaching past the waiter's sched_process_exit
# ends there -- each against babeltrace2's own reading of the snapshot --
# and the stack of our offcpu tracker's event (threshold 100 ms) is on the
# waiter's fcntl.
. tests/guest/lib.sh
. tests/guest/explain-progs/guest.inc
EX_SESSIOND_ARGS=--extra-kmod-probes=latency_tracker

cleanup() {
	ex_cleanup
	lt_loaded latency_tracker_offcpu && lt_unload latency_tracker_offcpu
	lt_loaded latency_tracker && lt_unload latency_tracker
}
trap cleanup EXIT

tap_plan 25
tap_ok "explain and the scenario programs are built" ex_built || tap_done
tap_ok "lttng kernel tracing usable" ex_lttng_ok || tap_done
lt_load latency_tracker && lt_load latency_tracker_offcpu threshold=100000000
tap_is "offcpu tracker loaded (threshold 100 ms)" "$?" 0
tap_ok "snapshot session started" ex_session_start flock
LOCK=$EX_WORK/ex-flock.lock
"$EXPROGS/ex-flock" "$LOCK" 150 >"$EX_WORK/flock.out"
snap=$(ex_session_snapshot flock)
tap_ok "snapshot recorded" test -d "$snap"

W=$(ex_val "$EX_WORK/flock.out" waiter_tid)
H=$(ex_val "$EX_WORK/flock.out" holder_tid)
WFD=$(ex_val "$EX_WORK/flock.out" waiter_fd)
S=$(ex_val "$EX_WORK/flock.out" waiter_start)
E=$(ex_val "$EX_WORK/flock.out" waiter_end)
tap_diag "waiter $W (fd $WFD), holder $H, waited $(( (E - S) / 1000 )) us (wall clock)"

babeltrace2 --clock-cycles "$snap" >"$EX_WORK/bt.txt" 2>/dev/null
sleep_ns=$(ex_bt_longest "$EX_WORK/bt.txt" clock_nanosleep "$H")
wait_ns=$(ex_bt_longest "$EX_WORK/bt.txt" fcntl "$W")
exit_ts=$(grep -E "sched_process_exit: .*\btid = $W," "$EX_WORK/bt.txt" | head -n 1 | sed -n 's/^\[0*\([0-9]*\)\].*/\1/p')
# The waiter's time blocked until the holder woke it (the lock wait; the
# fcntl also holds the waiter's wait for a CPU after that, which the lock
# view does not count), and the holder's hold: from its locking fcntl's
# exit to its unlocking fcntl's entry at the least, from the one's entry to
# the other's exit at the most (cmd 7 is F_SETLKW, 6 F_SETLK).
blocked_ns=$(ex_bt_blocked "$EX_WORK/bt.txt" "$W" "$H" "$S" "$E")
read -r hold_lo hold_hi < <(grep -E "syscall_(entry|exit)_fcntl: \{ cpu_id = [0-9]+ \}, \{ [^}]*\btid = $H," "$EX_WORK/bt.txt" |
	sed -n -e 's/^\[0*\([0-9]*\)\].*syscall_entry_fcntl: .*, cmd = \([0-9]*\),.*/entry \1 \2/p' \
		-e 's/^\[0*\([0-9]*\)\].*syscall_exit_fcntl: .*/exit \1/p' |
	awk '$1 == "entry" { e = $2; c = $3 }
		$1 == "exit" && c == 7 && !ae { ae = e; ax = $2 }
		$1 == "exit" && c == 6 && ae && !re { re = e; rx = $2 }
		END { if (re) print re - ax, rx - ae; else print 0, 0 }')
tap_diag "trace: holder slept $((sleep_ns / 1000)) us, held the lock $((hold_lo / 1000))-$((hold_hi / 1000)) us; waiter's longest fcntl $((wait_ns / 1000)) us, blocked $((blocked_ns / 1000)) us until the holder woke it; waiter exit at ${exit_ts:-none}"
tap_ok "the trace has the waiter's fcntl(fd $WFD, F_SETLKW)" \
	grep -qE "syscall_entry_fcntl: \{ cpu_id = [0-9]+ \}, \{ [^}]*\btid = $W, [^}]*\}, \{ fd = $WFD, cmd = (\( \"F_SETLKW\" : container = 7 \)|7)," "$EX_WORK/bt.txt"
tap_cmp "the holder's sleep is in the trace" "${sleep_ns:-0}" -gt 100000000

t0=$(date +%s%N)
"$EXPLAIN" "$snap" --tid "$W" --at "$E" --window $((E - S)) -o "$EX_WORK/out" \
	>"$EX_WORK/explain.txt" 2>"$EX_WORK/explain.err"
tap_is "explain exits 0" "$?" 0
tap_diag "explain took $((($(date +%s%N) - t0) / 1000000)) ms on a snapshot of $(du -sk "$snap" | cut -f1) KiB"
sed 's/^/# /' "$EX_WORK/explain.txt" "$EX_WORK/explain.err"
J=$EX_WORK/out/explain.json
R="r['reports'][0]"
tap_is "the main cause is synchronisation" "$(ex_json "$J" "$R['classification']['causes'][0]['class']")" synchronisation
tap_cmp "synchronisation >= 99% of the waiter's blocking until the holder woke it in the trace" \
	$(( $(ex_json "$J" "$R['classification']['synchronisation']['ns']") * 100 )) -ge $((blocked_ns * 99))
tap_is "the cause names the lock file and the holder" \
	"$(ex_json "$J" "'$LOCK' in $R['classification']['causes'][0]['what'] and '[$H]' in $R['classification']['causes'][0]['what']")" True
tap_is "the evidence shows the call: fcntl(fd $WFD, F_SETLKW)" \
	"$(ex_json "$J" "'fcntl(fd $WFD, F_SETLKW = 7)' in $R['classification']['causes'][0]['evidence']")" True
tap_is "lock view: the file lock first" "$(ex_json "$J" "$R['locks'][0]['name']")" "file lock $LOCK (fcntl)"
tap_is "lock view: the waiter" "$(ex_json "$J" "$R['locks'][0]['waiters'][0]['tid']")" "$W"
tap_is "lock view: released by the holder" "$(ex_json "$J" "$R['locks'][0]['releasers'][0]['tid']")" "$H"
lv_wait=$(ex_json "$J" "$R['locks'][0]['max_ns']")
held=$(ex_json "$J" "$R['locks'][0]['releasers'][0]['held_ns']")
tap_diag "lock view: longest wait $((lv_wait / 1000)) us, held $((held / 1000)) us"
tap_cmp "lock view: the wait is the trace's blocking until the holder woke it (>= 99%)" \
	$((lv_wait * 100)) -ge $((blocked_ns * 99))
tap_cmp "lock view: ... (<= 101%)" $((lv_wait * 100)) -le $((blocked_ns * 101))
tap_is "lock view: the holder's acquisition seen" "$(ex_json "$J" "$R['locks'][0]['releasers'][0]['held_exact']")" 1
tap_cmp "lock view: held >= the holder's sleep in the lock" "$held" -ge "$sleep_ns"
tap_cmp "lock view: held from the trace's locking to its unlocking fcntl (at least)" "$held" -ge "$hold_lo"
tap_cmp "lock view: ... (at most)" "$held" -le "$hold_hi"
tap_ok "lockview.dot: waiter -> lock -> holder" \
	eval "grep -q 't$W -> l0' '$EX_WORK/out/lockview.dot' && grep -q 'l0 -> t$H' '$EX_WORK/out/lockview.dot'"

# Our offcpu event's stack, on the node of the wait it explains.
ST="[s for s in $R['stacks'] if s['tid'] == $W and s['tracker'] == 'offcpu' and s['context'] == 'fcntl']"
tap_is "the offcpu stack is on the waiter's fcntl" "$(ex_json "$J" "len($ST) > 0 and $R['graph']['nodes'][$ST[0]['node']]['label']")" fcntl
tap_is "its frames are fcntl's lock wait" \
	"$(ex_json "$J" "any('fcntl_setlk' in f for f in $ST[0]['frames'])" 2>&1)" True

# An interval reaching 100 ms past the waiter's exit ends at the exit.
if [ -n "$exit_ts" ]; then
	AT=$((exit_ts + 100000000))
	"$EXPLAIN" "$snap" --tid "$W" --at "$AT" --window $((AT - S)) --format json \
		>"$EX_WORK/past.json" 2>>"$EX_WORK/explain.err"
fi
tap_is "the window ends at the waiter's sched_process_exit" \
	"$(ex_json "$EX_WORK/past.json" "$R['end']" 2>/dev/null)" "${exit_ts:-none}"
[ "$_tap_failed" = 0 ] || ex_keep flock flock.out out bt.txt past.json
tap_done
