#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# lt-boot-append: rcu_nocbs=all
# lazy-rcu.sh - a tracker sized for its steady state does not drop events
# on a kernel with lazy RCU (CONFIG_RCU_LAZY, Linux >= 6.2) and offloaded
# RCU callbacks (this test's boot has rcu_nocbs=all, see the line above,
# read by the harness): an ended event's slot goes back to the pool after
# a grace period, and a lazy call_rcu() may wait ~10 s for one.  The
# wakeup tracker with 2048 slots sees 4 threads sleeping 1 ms in a loop
# for 8 s: at one event per wakeup, the slots ended within two ordinary
# grace periods fit (the sizing rule in include/latency_tracker.h); those
# ended within 10 s do not.  A named skip on kernels without lazy RCU;
# a kernel whose config cannot be found fails (the check did not run).
. tests/guest/lib.sh
. tests/guest/progs/trk.sh
TRK=wakeup TRK_MOD=latency_tracker_wakeup
tap_plan 6

# The kernel's config, in the root its packages were unpacked into
# ($LT_KMODS is its lib/modules/<kver>, see tests/vm/kernel.sh): Debian's
# bookworm packages (and debug-kernel.sh) put it in boot/config-<kver>,
# trixie's merged-/usr ones (the current lines) in lib/modules/<kver>/config.
config=
for f in "$LT_KMODS/config" \
	"${LT_KMODS%/lib/modules/*}/boot/config-$LT_KVER"; do
	[ -r "$f" ] && { config=$f; break; }
done
tap_ok "kernel config readable (${config:-none found from $LT_KMODS})" \
	test -n "$config"
tap_ok "booted with rcu_nocbs=all" grep -qw 'rcu_nocbs=all' /proc/cmdline
if [ -z "$config" ]; then
	tap_skip 4 "no kernel config: lazy RCU unknown"
	tap_done
fi
if ! grep -qx 'CONFIG_RCU_LAZY=y' "$config"; then
	tap_skip 4 "no lazy RCU (CONFIG_RCU_LAZY) in $LT_KVER ($config)"
	tap_done
fi
tap_diag "$(grep -E '^CONFIG_RCU_(LAZY|NOCB_CPU)=' "$config" | tr '\n' ' ')"
tap_ok "load (max_events 2048, threshold 1 s)" \
	trk_load max_events=2048 threshold=1000000000
$LTPROG wakers 4 8 >/dev/null
tap_diag "$(tr '\n' ' ' <"$(trk_dir)/stats")"
tap_cmp "thousands of wakeups tracked" "$(trk_stat matched)" -ge 4000
tap_is "no event dropped" "$(trk_stat dropped)" 0
tap_ok "unload" trk_unload
lt_unload latency_tracker
tap_done
