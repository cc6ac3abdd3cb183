#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# core-api.sh - the in-kernel API of latency_tracker.ko, driven by the
# test-only module lt_core_test.ko from process, softirq, hardirq and
# irq_work context on every CPU (see tests/kmod/lt_core_test.c).  Each
# PASS/FAIL line of its results file becomes one TAP line here.
. tests/guest/lib.sh

D=/proc/latency_tracker/lt_core_test
# The ltt_check() calls lt_core_test.c makes at load: one PASS/FAIL line
# each.  A self-test that stops early or is left out changes the count.
SELFTESTS=98

tap_plan $((3 + SELFTESTS + 12))
tap_ok "insmod latency_tracker" lt_load latency_tracker
tap_ok "insmod lt_core_test (runs the self-tests)" lt_load lt_core_test
tap_ok "results file exists" test -r $D/results

tap_results $SELFTESTS $D/results
tap_is "the self-tests reported $SELFTESTS results, nothing else" "$?" 0

tap_is "temporary trackers are gone (the tracker directories left)" \
	"$(find /proc/latency_tracker -mindepth 1 -maxdepth 1 -type d -printf '%f ')" "lt_core_test "

# Our trace events, through ftrace.
T=/sys/kernel/tracing
[ -e $T/events ] || mount -t tracefs nodev $T 2>/dev/null
tap_ok "ftrace lists the latency_tracker events" \
	test -d $T/events/latency_tracker/wakeup -a -d $T/events/latency_tracker/offcpu \
	-a -d $T/events/latency_tracker/syscall -a -d $T/events/latency_tracker/block \
	-a -d $T/events/latency_tracker/irq
echo > $T/trace
echo 1 > $T/events/latency_tracker/enable
echo "events 1" > $D/ctl
echo 0 > $T/events/latency_tracker/enable
trace=$(cat $T/trace)
tap_ok "wakeup event fields" grep -q \
	'wakeup: cause=threshold delay=1234 pid=1 tgid=1 comm=ltt_woken prio=120 cpu=0 waker_pid=2 waker_comm=ltt_waker prev_pid=3 prev_comm=ltt_prev holder_pid=8 holder_comm=ltt_holder holder_prio=49 irq_ns=1 softirq_ns=2 thread_ns=3 idle_ns=4 other_cpu_ns=5 top_irq=ltt_irq top_softirq=TASKLET top_thread=ltt_hog:9 migrated=1 cgroup=11' <<<"$trace"
tap_ok "offcpu event fields" grep -q \
	'offcpu: cause=timeout delay=2345 pid=4 tgid=4 comm=ltt_off cpu=1 state=D waker_pid=5 waker_comm=ltt_waker cgroup=12 stack=ltt_frame_a' <<<"$trace"
tap_ok "offcpu event: the waker's stack after the stack" grep -q \
	'^ltt_frame_b waker_stack=ltt_frame_w$' <<<"$trace"
tap_ok "syscall event fields" grep -q \
	'syscall: cause=threshold delay=3456 pid=6 tgid=6 comm=ltt_sys nr=7 on_cpu_ns=14 runnable_ns=15 blocked_ns=16 cgroup=13 stack=ltt_frame_c' <<<"$trace"
tap_ok "block event fields" grep -q \
	'block: cause=threshold delay=4567 dev=8:16 sector=2048 nr_sectors=8 op=write cgroup=14' <<<"$trace"
tap_ok "irq event fields (the optional ones always there: vec - for none)" grep -q \
	'irq: cause=threshold delay=5678 kind=hardirq cpu=1 irq=28 name=ltt_handler vec=-' <<<"$trace"

tap_ok "rmmod lt_core_test" lt_unload lt_core_test
tap_ok "/proc/latency_tracker/lt_core_test removed" test ! -e $D
tap_ok "rmmod latency_tracker" lt_unload latency_tracker
tap_done
