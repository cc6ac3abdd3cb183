#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fake-explain.sh - installed by run.sh as the `latency-tracker` beside the
# test daemon: records how the daemon started it (signal mask, ignored
# signals, nice, scheduling policy, process group) in
# $LT_FAKE_LTTNG/child-<pid>, then sleeps $LT_FAKE_LTTNG/child-sleep
# seconds (default 0).
d=${LT_FAKE_LTTNG:?}
f=$d/child-$$
{
	grep -E '^Sig(Blk|Ign):' /proc/self/status
	echo "nice $(cut -d' ' -f19 /proc/self/stat)"
	echo "policy $(cut -d' ' -f41 /proc/self/stat)"
	echo "pgid $(cut -d' ' -f5 /proc/self/stat)"
	echo "args $*"
} >"$f.tmp" && mv "$f.tmp" "$f"
exec sleep "$(cat "$d/child-sleep" 2>/dev/null || echo 0)"
