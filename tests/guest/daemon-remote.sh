#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# daemon-remote.sh - latency-trackerd sending snapshots to lttng-relayd:
# relayd on loopback in the guest, the daemon with --output
# net://127.0.0.1; an outlier's snapshot lands in relayd's output
# directory under its snapshot name, and babeltrace2 finds our event in it.
. tests/guest/lib.sh
. tests/guest/lttng.inc
trap lt_tools_cleanup EXIT

relay_out=$LT_WORK/relayd
log=$LT_WORK/daemon.json

tap_plan 12
tap_ok "tools built on the host" lt_tools_built || tap_done
tap_ok "LTTng modules installed for this kernel" lt_lttng_installed || tap_done
tap_ok "lttng-relayd starts on loopback" bash -c "
	lttng-relayd --background --output='$relay_out' \
		-C tcp://127.0.0.1:5342 -D tcp://127.0.0.1:5343 -L tcp://127.0.0.1:5344 \
		>>'$LT_WORK/relayd.log' 2>&1"
tap_ok "lttng-sessiond starts" sessiond_start
tap_ok "wakeup tracker loads" wakeup_load 250000000
# No snapshot rate limit: under a loaded host another task's wakeup can
# cross the threshold first (seen on 7.3), and the victim's own alert
# must still get its snapshot.
daemon_start "$log" --output net://127.0.0.1 --trackers wakeup --rate-limit 0
tap_ok "daemon: session ready" wait_for 60 log_has "$log" '"type":"session","state":"ready"'
tap_ok "daemon: watching wakeup" wait_for 10 log_has "$log" '"type":"watch","tracker":"wakeup"'
victim=$(outlier 600)
tap_diag "victim pid $victim"
tap_ok "snapshot of the victim's alert logged" wait_for 30 log_has "$log" \
	"\"type\":\"snapshot\".*\"alert\":{[^}]*\"pid\":$victim,"
snap=$(grep '"type":"snapshot"' "$log" | grep "\"alert\":{[^}]*\"pid\":$victim," | head -n 1)
tap_diag "snapshot: $snap"
tap_is "snapshot sent to the relayd URL" "$(json "$snap" url)" net://127.0.0.1
name=$(json "$snap" name)
dir=$(find "$relay_out" -type d -name "$name*" -print -quit)
tap_diag "relayd stored it in: $dir"
tap_ok "a directory named after the snapshot in relayd's output" test -n "$dir"
tap_ok "babeltrace2 finds our wakeup event for the victim there" bash -c "
	babeltrace2 '${dir:-/nonexistent}' | grep -qE 'latency_tracker_wakeup:.*[{ ]pid = $victim,'"
tap_ok "daemon exits 0" daemon_stop
tap_done
