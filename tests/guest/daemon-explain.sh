#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# daemon-explain.sh - latency-trackerd --explain on: after the snapshot of a
# wakeup outlier (SCHED_FIFO hog on the victim's CPU) the daemon runs the
# analysis in a child and stores the report beside the snapshot.  The
# daemon follows only the victim (wakeup.filter_tgid), so the snapshot is
# the one of the victim's own alert, taken with the daemon's default
# session and sizes; the report explains the victim's wait by CPU 1 and the
# hog holding it (on 6.1 the snapshot once lacked the victim's last events
# on its CPU: the hog's clock_gettime calls, real system calls there, had
# overwritten them -- system calls now have a ring of their own), and
# nothing in it is "unknown".
. tests/guest/lib.sh
. tests/guest/lttng.inc
trap lt_tools_cleanup EXIT

log=$LT_WORK/daemon.json
tap_plan 17
tap_ok "tools built on the host" lt_tools_built || tap_done
tap_ok "LTTng modules installed for this kernel" lt_lttng_installed || tap_done
tap_ok "lttng-sessiond starts" sessiond_start
tap_ok "wakeup tracker loads" wakeup_load 250000000
victims_start 1
victim=${VICTIM_PIDS[0]}
daemon_start "$log" --output "$LT_WORK/snapshots" --trackers wakeup --explain on \
	--wakeup.filter_tgid="$victim"
tap_ok "daemon: watching wakeup" wait_for 60 log_has "$log" '"type":"watch","tracker":"wakeup"'
tap_ok "daemon: session ready" wait_for 60 log_has "$log" '"type":"session","state":"ready"'
sleep 0.2
hog_run 600
sleep 0.3
victims_stop
tap_ok "snapshot of the victim's alert" \
	wait_for 30 log_has "$log" "\"type\":\"snapshot\".*\"pid\":$victim,"
snap=$(grep '"type":"snapshot"' "$log" | grep -m 1 "\"pid\":$victim," )
path=$(json "$snap" path)
tap_ok "explain started for that snapshot" wait_for 10 log_has "$log" "\"type\":\"explain\",\"path\":\"$path\""
report=$path/explain/explain.txt
J=$path/explain/explain.json
tap_ok "report stored beside the snapshot" wait_for 120 test -s "$report"
tap_ok "explain finished with status 0" wait_for 30 log_has "$log" '"type":"explain_done".*"status":0'
tap_ok "JSON report too" test -s "$J"
tap_ok "the report explains the victim ($victim)" grep -q "\[$victim\]" "$report"
tap_ok "with the victim's waiting dependency graph" \
	grep -qE "^lt_victim \[$victim\] \([0-9.]+(ns|us|ms|s)\)" "$report"
# The victim's alert: its delay, and the part of it the hog held CPU 1.
R="max([x for x in r['reports'] if x['tid'] == $victim], key=lambda x: x['duration_ns'])"
py() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$J" "$1"; }
dur=$(py "$R['duration_ns']" 2>/dev/null)
hog=$(py "sum(e['weight_ns'] for e in $R['graph']['edges'] if e['kind'] == 'cpu_used' and $R['graph']['nodes'][e['from']]['label'] == 'CPU $VICTIM_CPU' and $R['graph']['nodes'][e['to']]['label'].startswith('lt_hog '))" 2>/dev/null)
tap_diag "the victim's alert: $((${dur:-0} / 1000)) us, of it CPU $VICTIM_CPU held by lt_hog $((${hog:-0} / 1000)) us"
tap_cmp "CPU $VICTIM_CPU -> lt_hog for >= 80% of the victim's own outlier" \
	$((${hog:-0} * 10)) -ge $((${dur:-1} * 8))
tap_ok "the text tree names the hog under CPU $VICTIM_CPU" \
	grep -qE '^ *([|] *)*[|`]- lt_hog \[[0-9]+\]' "$report"
tap_ok "nothing in the report is unknown" bash -c "! grep -q unknown '$report'"
[ "$_tap_failed" = 0 ] || sed 's/^/#   /' "$report" | head -n 40
tap_ok "daemon exits cleanly on SIGTERM" daemon_stop
tap_done
