#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# explain-bad.sh - bad input gets one clear line on stderr and exit status 2:
# not a directory, a directory without a trace, a trace without scheduler
# events, an unknown thread, bad options.
. tests/guest/lib.sh
. tests/guest/explain-progs/guest.inc
trap ex_cleanup EXIT

# bad DESC ARGS...: explain fails with status 2 and a one-line message.
bad() {
	local desc=$1 rc
	shift
	"$EXPLAIN" "$@" >"$EX_WORK/out" 2>"$EX_WORK/err"
	rc=$?
	tap_diag "$(cat "$EX_WORK/err")"
	tap_is "$desc: exit status 2" "$rc" 2
	tap_is "$desc: one line on stderr" "$(wc -l <"$EX_WORK/err")" 1
}

# 8 assertions, and 2 for each of the 8 bad inputs.
tap_plan $((8 + 2 * 8))
tap_ok "explain is built" ex_built || tap_done
bad "a file, not a directory" /etc/hostname
mkdir -p "$EX_WORK/empty"
bad "a directory without a trace" "$EX_WORK/empty"
bad "a missing path" "$EX_WORK/nothing-here"
bad "a bad option" "$EX_WORK/empty" --window=-3

tap_ok "lttng kernel tracing usable" ex_lttng_ok || tap_done
tap_ok "session without scheduler events" ex_session_start nosched irq_handler_entry,irq_handler_exit
sleep 0.3
nosched=$(ex_session_snapshot nosched)
tap_ok "snapshot recorded" test -d "$nosched"
bad "a trace without scheduler events" "$nosched" --tid 1
tap_ok "err names the missing scheduler events" grep -q "no scheduler events" "$EX_WORK/err"

tap_ok "session with scheduler events" ex_session_start sched
sleep 0.3
snap=$(ex_session_snapshot sched)
bad "an unknown thread" "$snap" --tid 999999
tap_ok "err names the thread" grep -q "999999" "$EX_WORK/err"
bad "no alert and no --tid" "$snap"
bad "an interval outside the trace" "$snap" --tid $$ --at 5 --window 1
tap_ok "err names the interval" grep -q "outside the trace" "$EX_WORK/err"
tap_done
