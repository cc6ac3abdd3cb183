#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# daemon-unload.sh - latency-trackerd while the wakeup tracker is removed
# and loaded again, round after round, with alerts flowing (a threshold
# every wakeup crosses) and /metrics scraped meanwhile: the daemon drops
# the tracker's watch and takes it again each round (one unwatch and one
# watch line per round), keeps logging alerts, serves metrics with and
# without the tracker, writes nothing to stderr and exits cleanly.  (The
# same path under ASan, with the drop and an alert in one epoll batch:
# tests/tools/daemon-lifecycle.sh.)
. tests/guest/lib.sh
. tests/guest/lttng.inc
trap lt_tools_cleanup EXIT

ROUNDS=${LTG_DAEMON_UNLOAD_ROUNDS:-3}
THRESHOLD=100000	# 100 us: under TCG many wakeups cross it
PORT=9464
log=$LT_WORK/daemon.json

tap_plan 11
tap_ok "tools built on the host" lt_tools_built || tap_done
tap_ok "wakeup tracker loads" wakeup_load $THRESHOLD
daemon_start "$log" --snapshot off --trackers wakeup --metrics "127.0.0.1:$PORT"
tap_ok "daemon: watching wakeup" wait_for 10 log_has "$log" '"type":"watch","tracker":"wakeup"'

# Wakeups all along: two tasks on CPU 1 sleeping 1 ms and spinning 1 ms
# in turn, so that each one's wakeup often waits for the other's spin; no
# process forked per wakeup (a fork storm slows every step under TCG).
wakers=()
for i in 1 2; do
	taskset -c 1 build/progs/sleeploop lt_waker 1 1 0 >/dev/null &
	wakers+=($!)
done
scrape() {
	python3 -c 'import sys, urllib.request
r = urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1], timeout=10)
sys.exit(0 if r.status == 200 else 1)' "$PORT"
}
alerts_now() { grep -c '"type":"alert"' "$log"; }
scrapes_ok=0 grew=0
for r in $(seq "$ROUNDS"); do
	before=$(alerts_now)
	# wakeup_interval (1 s) paces the reader's wakeups after the first.
	wait_for 3 bash -c "[ \$(grep -c '\"type\":\"alert\"' '$log') -gt $before ]" &&
		grew=$((grew + 1))
	scrape && scrapes_ok=$((scrapes_ok + 1))
	lt_unload latency_tracker_wakeup
	scrape && scrapes_ok=$((scrapes_ok + 1))
	sleep 0.3
	lt_load latency_tracker_wakeup threshold=$THRESHOLD
	# The daemon rescans once a second: wait for this round's watch.
	wait_for 5 bash -c "[ \$(grep -c '\"type\":\"watch\",\"tracker\":\"wakeup\"' '$log') -gt $r ]"
done
kill "${wakers[@]}" 2>/dev/null
wait "${wakers[@]}" 2>/dev/null
tap_diag "$(alerts_now) alerts logged over $ROUNDS rounds"
tap_is "one unwatch per unload" "$(grep -c '"type":"unwatch","tracker":"wakeup"' "$log")" "$ROUNDS"
tap_is "one watch per load" "$(grep -c '"type":"watch","tracker":"wakeup"' "$log")" $((ROUNDS + 1))
tap_is "alerts flowed in every round" "$grew" "$ROUNDS"
tap_is "/metrics answered with and without the tracker" "$scrapes_ok" $((2 * ROUNDS))
tap_ok "daemon still running" kill -0 "$LTD_PID"
tap_ok "metrics after the last load name wakeup" bash -c \
	"python3 -c 'import urllib.request; print(urllib.request.urlopen(\"http://127.0.0.1:$PORT/metrics\").read().decode())' |
	 grep -q '^latency_tracker_delay_seconds_count{tracker=\"wakeup\"} '"
tap_ok "clean exit on SIGTERM" daemon_stop
tap_empty "no stderr output from the daemon" "$LT_WORK/daemon.err"
tap_done
