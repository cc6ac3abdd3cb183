#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# timeout-change.sh - which pending events a timeout applies to (the rule
# written in include/latency_tracker.h): a timeout applies to events
# started after it is set.  With the off-CPU tracker: a sleeper that
# blocked while the timeout was 0 is not reported as timed out after the
# timeout is raised (only at its wakeup, by threshold); one that blocked
# after the raise is; lowering a non-zero timeout applies to an event
# already pending.
. tests/guest/lib.sh
. tests/guest/progs/trk.sh
TRK=offcpu TRK_MOD=latency_tracker_offcpu
tap_plan 8

tap_ok "load (threshold 100 ms, timeout 0)" trk_load threshold=100000000 timeout=0
alerts=$(mktemp)
# The sleepers: subshells blocked 3 s in a read of a FIFO nobody writes.
# No exec: a child that execs /bin/sleep may block past the threshold (or
# the timeout) loading it over 9p from a loaded host, and that block would
# count too (seen on 7.3 with four guests running).
fifo=$(mktemp -u) && mkfifo "$fifo" && exec 9<>"$fifo"
sleeper() { (read -r -t 3 -u 9 _) & }
trk_reader_start "$alerts"
sleeper
before=$!
sleep 0.5
tap_ok "timeout raised to 200 ms" trk_set timeout 200000000
sleeper
after=$!
sleep 1.5
tap_ok "timeout raised to 10 s" trk_set timeout 10000000000
sleeper
lowered=$!
sleep 0.5
tap_ok "timeout lowered to 300 ms" trk_set timeout 300000000
wait $before $after $lowered
trk_reader_stop
rec() { grep " pid=$1 " "$alerts" | grep -c " cause=$2 "; }
tap_is "blocked before the raise: no timeout record" "$(rec $before timeout)" 0
tap_is "blocked after the raise: one timeout record" "$(rec $after timeout)" 1
tap_is "pending when a non-zero timeout is lowered: one timeout record" \
	"$(rec $lowered timeout)" 1
tap_cmp "every sleeper reported at its wakeup (threshold)" \
	"$(( $(rec $before threshold) + $(rec $after threshold) + $(rec $lowered threshold) ))" -eq 3
trk_unload
lt_unload latency_tracker
exec 9<&-
rm -f "$alerts" "$fifo"
tap_done
