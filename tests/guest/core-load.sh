#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# core-load.sh - latency_tracker.ko loads, creates /proc/latency_tracker/
# (root only), and unloads clean, several times in a row.
. tests/guest/lib.sh

ROUNDS=3
tap_plan $((ROUNDS * 6 + 1))
for round in $(seq $ROUNDS); do
	tap_ok "round $round: insmod latency_tracker" lt_load latency_tracker
	tap_ok "round $round: module listed" lt_loaded latency_tracker
	tap_ok "round $round: /proc/latency_tracker is a directory" test -d /proc/latency_tracker
	tap_is "round $round: /proc/latency_tracker has no group/other bits" \
		"$(( 0$(stat -c %a /proc/latency_tracker) & 077 ))" 0
	tap_ok "round $round: rmmod latency_tracker" lt_unload latency_tracker
	tap_ok "round $round: /proc/latency_tracker removed" test ! -e /proc/latency_tracker
done
tap_ok "module gone" bash -c '! grep -q "^latency_tracker " /proc/modules'
tap_done
