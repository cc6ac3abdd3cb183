#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# guest-run.sh - PID 1 of the test guest after switch_root (the root is the
# host's, read-only, under a tmpfs overlay).  The host put job.env in the
# results share (/lt-results): which tests to run and where our modules are.
#
# The whole kernel log of the boot, every record at every level from the
# first one on, is streamed from /dev/kmsg into kmsg.log in the share as it
# is written (a reader of /dev/kmsg keeps its own position: `dmesg
# --clear` and the console log level change nothing to what it gets).
# Each test is delimited in that stream by two records this script logs,
# "lt-harness: N start TEST" and "lt-harness: N end TEST", whose sequence
# numbers go to <test>.seq ("START END"); the host cuts the stream there
# and judges every record of the boot (tests/vm/judge.sh).  Besides
# <test>.seq, each test leaves <test>.tap, <test>.err, <test>.rc and
# <test>.ms; <test>.started marks the test in progress, so the host can
# name it if the guest dies.  After a test that failed, the lttng-sessiond
# and the modules of ours it left behind are stopped and unloaded before
# its end mark (after_failure; <test>.unload), so that the next test can
# load them again.
#
# After the last test, a short pause lets deferred work of the modules
# still loaded run (a timer or work item that fires late is caught in the
# stream, after that test), then the final phase, final-unload, runs like a
# test (tests/vm/final-unload.sh): it unloads every module of ours left
# loaded and, on a kernel with kmemleak (the debug kernel), writes a scan's
# report to kmemleak.txt (check-vm.sh judges it: only objects allocated by
# our modules fail, so the boot's own are not scanned away first -- a scan
# of the whole memory costs the debug kernel 13 s alone, two minutes
# beside other guests).
set -u
R=/lt-results
set -a # export what job.env sets (LTG_* reach the tests)
. $R/job.env
set +a

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null

# The kernel log stream, first of all.  cat ends when records it had not
# read yet were overwritten in the ring (EPIPE); it then starts again at
# the oldest record left, and the host sees the lost ones as a gap in the
# sequence numbers (and records read twice, which it drops).  A read of
# /dev/kmsg gives one record: the second cat writes to the share what the
# pipe holds, in one write however many records came while the previous
# one went (one write per record, a 9p round trip each, let a burst of
# thousands lag the stream by a minute on the debug kernel).
(
	while :; do
		cat /dev/kmsg
		sleep 0.1
	done
) 2>"$R/kmsg.err" | cat >"$R/kmsg.log" &
# Records written to /dev/kmsg by this script (the marks) must never be
# rate limited away.
echo on >/proc/sys/kernel/printk_devkmsg 2>/dev/null

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
	# Wait for the power-off without starting a program or reading a line
	# of this script: both come from 9p, which the power-off takes away,
	# and PID 1 exiting on the read error panics the kernel ("Attempted
	# to kill init", seen on the console after a clean run).
	while :; do :; done
}

# log_mark TEXT: log "lt-harness: N TEXT" (N numbers the marks of this
# boot) and wait until the stream has it in the share, which also means
# that every record before it is there; sets mark_seq to its sequence
# number, or to "-" when it did not arrive within 60 s (the host then
# fails the test).
mark_n=0 mark_seq=-
log_mark() {
	local i
	mark_n=$((mark_n + 1))
	echo "<6>lt-harness: $mark_n $1" >/dev/kmsg
	for ((i = 0; i < 600; i++)); do
		mark_seq=$(tail -c 1000000 "$R/kmsg.log" |
			awk -v m="lt-harness: $mark_n $1" 'index($0, ";" m) &&
				substr($0, index($0, ";") + 1) == m { split($0, h, ","); print h[2]; exit }')
		[ -n "$mark_seq" ] && return 0
		sleep 0.1
	done
	mark_seq=-
}

ours_loaded() { awk '$1 ~ /^(latency_tracker|lt_)/ { print $1 }' /proc/modules; }

# after_failure TEST BEFORE SESSIOND: a test that failed may have left
# processes and modules behind (one killed at its time limit never ran its
# cleanup), and the next test's insmod would fail on them ("File
# exists").  Stop the lttng-sessiond it left running (SESSIOND: the one
# running before it, kept; sessiond holds LTTng's probe module for our
# events, which uses the core), then unload the modules of ours loaded
# since it started (BEFORE: those loaded before stay, for final-unload to
# judge) -- inside the test's slice of the kernel log, so that an unload
# that splats is judged with it.  The unloads' TAP goes to TEST.unload;
# one that failed (or hung: 120 s) is named in TEST.err.
after_failure() {
	local t=$1 before=$2 sessiond=$3 p i
	for p in $(pidof lttng-sessiond); do
		[ "$p" = "$sessiond" ] || kill "$p"
	done
	for ((i = 0; i < 300; i++)); do
		[ "$(pidof lttng-sessiond)" = "$sessiond" ] && break
		sleep 0.1
	done
	for p in $(pidof lttng-sessiond); do
		[ "$p" = "$sessiond" ] || kill -KILL "$p"
	done
	timeout --kill-after=5 120 bash tests/vm/final-unload.sh - $before >"$R/$t.unload" 2>&1 ||
		{
			echo "# harness: unloading what the failed test left loaded failed (rc $?):"
			grep -E '^(not ok|#)' "$R/$t.unload"
		} >>"$R/$t.err"
}

# run_item NAME CMD...: run one test (or the final phase) with its files.
run_item() {
	local t=$1 s t0 rc before sessiond
	shift
	before=$(ours_loaded)
	sessiond=$(pidof lttng-sessiond)
	: >"$R/$t.started"
	log_mark "start $t"
	s=$mark_seq
	echo "$s" >"$R/$t.seq"
	t0=$(date +%s%N)
	timeout --kill-after=5 "$LT_TEST_TIMEOUT" "$@" >"$R/$t.tap" 2>"$R/$t.err" </dev/null
	rc=$?
	echo $((($(date +%s%N) - t0) / 1000000)) >"$R/$t.ms"
	[ "$rc" != 0 ] && [ "$t" != final-unload ] && after_failure "$t" "$before" "$sessiond"
	log_mark "end $t"
	echo "$s $mark_seq" >"$R/$t.seq"
	echo $rc >"$R/$t.rc"
	rm -f "$R/$t.started"
	sync
}

echo "lt-guest: kernel $(uname -r), $(nproc) CPUs, tests: $LT_TESTS" >/dev/console
cd "$LT_TOP" || poweroff_now
for t in $LT_TESTS; do
	run_item "$t" bash "tests/guest/$t.sh"
done
# Deferred work of the modules left loaded runs now, before they go.
sleep 2
run_item final-unload bash tests/vm/final-unload.sh "$R"
poweroff_now
