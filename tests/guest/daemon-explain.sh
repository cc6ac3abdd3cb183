#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# daemon-explain.sh - latency-trackerd --explain on: after the snapshot of a
# wakeup outlier (SCHED_FIFO hog on the victim's CPU) the daemon runs the
# analysis in a child and stores the report beside the snapshot, with the
# victim's waiting dependency graph.  (That the hog is found is asserted by
# explain-cpu on a session of its own: on 6.1 the daemon's snapshot was
# seen to miss the victim's last events on its CPU -- under investigation.)
. tests/guest/lib.sh
. tests/guest/lttng.inc
trap lt_tools_cleanup EXIT

log=$LT_WORK/daemon.json
tap_plan 13
tap_ok "tools built on the host" lt_tools_built || tap_done
tap_ok "LTTng modules installed for this kernel" lt_lttng_installed || tap_done
tap_ok "lttng-sessiond starts" sessiond_start
tap_ok "wakeup tracker loads" wakeup_load 250000000
# Buffers large enough to hold the whole outlier (the default ring can
# be overwritten within it on a busy emulated guest).
daemon_start "$log" --output "$LT_WORK/snapshots" --trackers wakeup --explain on \
	--subbuf-size 1M --num-subbuf 8
tap_ok "daemon: watching wakeup" wait_for 60 log_has "$log" '"type":"watch","tracker":"wakeup"'
victim=$(outlier 600 | head -n 1)
tap_ok "snapshot of the victim's alert" \
	wait_for 30 log_has "$log" "\"type\":\"snapshot\".*\"pid\":$victim,"
snap=$(grep '"type":"snapshot"' "$log" | grep -m 1 "\"pid\":$victim," )
path=$(json "$snap" path)
tap_ok "explain started for that snapshot" wait_for 10 log_has "$log" "\"type\":\"explain\",\"path\":\"$path\""
report=$path/explain/explain.txt
tap_ok "report stored beside the snapshot" wait_for 120 test -s "$report"
tap_ok "explain finished with status 0" wait_for 30 log_has "$log" '"type":"explain_done".*"status":0'
tap_ok "JSON report too" test -s "$path/explain/explain.json"
tap_ok "the report explains the victim ($victim)" grep -q "\[$victim\]" "$report"
tap_ok "with the victim's waiting dependency graph" \
	grep -qE "^lt_victim \[$victim\] \([0-9]+ us\)" "$report"
grep -qE '^ *[|`]- *lt_hog \[[0-9]+\]' "$report" ||
	tap_diag "the snapshot does not show the hog holding the victim's CPU"
[ "$_tap_failed" = 0 ] || sed 's/^/#   /' "$report" | head -n 30
tap_ok "daemon exits cleanly on SIGTERM" daemon_stop
tap_done
