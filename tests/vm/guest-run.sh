#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# guest-run.sh - PID 1 of the test guest after switch_root (the root is the
# host's, read-only, under a tmpfs overlay).  The host put job.env in the
# results share (/lt-results): which tests to run and where our modules are.
# For each test it records <test>.tap, <test>.rc and <test>.dmesg (the
# kernel log lines printed while that test ran); <test>.started marks the
# test in progress, so the host can name it if the guest dies.  On a
# kernel with kmemleak (the debug kernel), what was unreferenced before the
# tests is forgotten at start, and after the last test, once every module
# of ours is unloaded, a scan's report goes to kmemleak.txt (check-vm.sh
# judges it).
set -u
R=/lt-results
set -a # export what job.env sets (LTG_* reach the tests)
. $R/job.env
set +a

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
# devtmpfs has no /dev/fd and friends; bash process substitution needs them.
ln -sfn /proc/self/fd /dev/fd
ln -sfn /proc/self/fd/0 /dev/stdin
ln -sfn /proc/self/fd/1 /dev/stdout
ln -sfn /proc/self/fd/2 /dev/stderr
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /run
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t configfs configfs /sys/kernel/config 2>/dev/null
# The kernel's own modules (null_blk, ...) come from the unpacked image.
mkdir -p "/lib/modules/$LT_KVER"
mount --bind "$LT_KMODS" "/lib/modules/$LT_KVER"
ip link set lo up 2>/dev/null
hostname lt-guest
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LT_KO_DIR LT_KVER LT_TOP

poweroff_now() {
	sync
	echo o >/proc/sysrq-trigger
	sleep 30
}

KMEMLEAK=/sys/kernel/debug/kmemleak
kmemleak_scan() { echo scan >$KMEMLEAK; }

echo "lt-guest: kernel $(uname -r), $(nproc) CPUs, tests: $LT_TESTS" >/dev/console
cd "$LT_TOP" || poweroff_now
if [ -w $KMEMLEAK ]; then
	kmemleak_scan
	echo clear >$KMEMLEAK
fi
for t in $LT_TESTS; do
	: >"$R/$t.started"
	dmesg --clear
	t0=$(date +%s%N)
	timeout --kill-after=5 "$LT_TEST_TIMEOUT" bash "tests/guest/$t.sh" \
		>"$R/$t.tap" 2>"$R/$t.err" </dev/null
	echo $? >"$R/$t.rc"
	echo $(( ($(date +%s%N) - t0) / 1000000 )) >"$R/$t.ms"
	dmesg >"$R/$t.dmesg"
	rm -f "$R/$t.started"
	sync
done
if [ -w $KMEMLEAK ]; then
	# Trackers and test modules first, the core last.
	for m in $(awk '$1 ~ /^(latency_tracker_|lt_)/ { print $1 }' /proc/modules) \
		latency_tracker; do
		grep -q "^$m " /proc/modules && rmmod "$m"
	done
	# An object is reported once it stayed unreferenced for two scans.
	kmemleak_scan
	sleep 6
	kmemleak_scan
	cat $KMEMLEAK >"$R/kmemleak.txt"
	sync
fi
poweroff_now
