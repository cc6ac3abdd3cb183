#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# alerts-unload.sh - every tracker's `alerts` file watched by an epoll
# watcher, a thread blocked in epoll_wait() and a thread blocked in poll()
# while the tracker module is removed; then the watchers let go
# (EPOLL_CTL_DEL, close).  The wait queue those entries sit on is freed
# with the tracker: the kernel log (KASAN on the debug kernel) must stay
# clean, the blocked callers must return, and rmmod must not hang.
. tests/guest/lib.sh

ROUNDS=${LTG_ALERTS_UNLOAD_ROUNDS:-3}
TRACKERS="wakeup offcpu syscalls block"
tap_plan $((ROUNDS * 4 * 4 + 2))

W="python3 tests/guest/progs/alerts_watch.py"
tmp=$(mktemp -d)
tap_ok "core loads" lt_load latency_tracker
for r in $(seq "$ROUNDS"); do
	for t in $TRACKERS; do
		m=latency_tracker_$t
		rm -f "$tmp/ready" "$tmp/go"
		lt_load "$m"
		$W "/proc/latency_tracker/$t/alerts" "$tmp/ready" "$tmp/go" \
			>"$tmp/out" 2>&1 &
		pid=$!
		for _ in $(seq 300); do
			[ -s "$tmp/ready" ] && break
			kill -0 $pid 2>/dev/null || break
			sleep 0.1
		done
		tap_ok "round $r $t: watchers blocked on alerts" test -s "$tmp/ready"
		tap_ok "round $r $t: rmmod with the watchers blocked" \
			timeout 120 rmmod "$m"
		touch "$tmp/go"
		wait $pid
		rc=$?
		sed 's/^/# /' "$tmp/out"
		tap_is "round $r $t: blocked poll() and epoll_wait() returned, watchers let go" "$rc" 0
		tap_ok "round $r $t: module gone" bash -c "! grep -q '^$m ' /proc/modules"
	done
done
tap_ok "core unloads" lt_unload latency_tracker
rm -rf "$tmp"
tap_done
