#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# lib.sh - shared by the host tests of latency-trackerd (tests/tools/):
# TAP output, a fake /proc/latency_tracker tree, the daemon under ASan
# with fake_lttng.so preloaded in place of lttng-sessiond (run.sh builds
# both into $T_BUILD).
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../vm/common.sh"

T_BUILD=${LT_TOOLS_TEST_BUILD:-$LT_TOP/build/tools-test}
DAEMON=$T_BUILD/asan/latency-trackerd
FAKE_SO=$T_BUILD/fake_lttng.so

# TAP: tap_plan N before the first assertion (the number the script makes),
# then tap_ok ...; tap_end fails unless exactly N ran, none failing, so a
# script that stops short or skips assertions fails (run.sh checks it too).
tap_n=0
tap_failed=0
tap_planned=
tap_misuse=0
tap_plan() {
	if [ -n "$tap_planned" ] || [ $tap_n != 0 ] || ! [[ "$1" =~ ^[0-9]+$ ]]; then
		echo "# tap_plan $1: must be called once, with a count, before any assertion"
		tap_misuse=1
		return 1
	fi
	tap_planned=$1
	echo "1..$1"
}
tap_ok() {
	local desc=$1
	shift
	if [ -z "$tap_planned" ] && [ $tap_misuse = 0 ]; then
		echo "# assertion before tap_plan"
		tap_misuse=1
	fi
	tap_n=$((tap_n + 1))
	if "$@"; then
		echo "ok $tap_n - $desc"
	else
		echo "not ok $tap_n - $desc"
		tap_failed=$((tap_failed + 1))
		return 1
	fi
}
tap_diag() { echo "# $*"; }
tap_end() {
	echo "# ran $tap_n of ${tap_planned:-?} planned"
	[ -n "$tap_planned" ] && [ "$tap_n" = "$tap_planned" ] &&
		[ $tap_misuse = 0 ] && [ "$tap_failed" = 0 ]
}

# wait_for SECONDS COMMAND...: poll every 50 ms.
wait_for() {
	local end=$(($(date +%s%N) + $1 * 1000000000))
	shift
	until "$@"; do
		[ "$(date +%s%N)" -lt "$end" ] || return 1
		sleep 0.05
	done
}

# A scratch directory per test; removed at exit.
T_WORK=$(mktemp -d /tmp/lt-daemon-test.XXXXXX)
T_PIDS=()
t_cleanup() {
	local p
	for p in "${T_PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
	wait 2>/dev/null
	[ -n "${T_CLEANUP_EXTRA:-}" ] && eval "$T_CLEANUP_EXTRA"
	rm -rf "$T_WORK"
}
trap t_cleanup EXIT

# The record format the tools read (include/lt_records/format.h).
T_FORMAT=$(sed -n 's/^#define LT_RECORD_FORMAT[[:space:]]*\([0-9]*\)$/\1/p' \
	"$(dirname "${BASH_SOURCE[0]}")/../../include/lt_records/format.h")

# mk_tracker ROOT NAME: a tracker directory whose alerts file is a FIFO
# (epoll works on it, as on the real file); stats/histogram left empty;
# ROOT's version file says the format the tools read.
mk_tracker() {
	mkdir -p "$1/$2"
	echo "$T_FORMAT" >"$1/version"
	echo 5000000 >"$1/$2/threshold"
	mkfifo "$1/$2/alerts"
	: >"$1/$2/stats"
	: >"$1/$2/histogram"
}

# alert_line TRACKER DELAY_NS: one record as the kernel writes it.
alert_line() {
	printf 'ts=%s tracker=%s cause=threshold delay=%s pid=42 tgid=42 comm=lt_victim cgroup=1\n' \
		"$(($(date +%s%N) / 1000))" "$1" "$2"
}

# [D_INIT="sessiond no-kernel"] d_start NAME ARGS...: start the daemon
# (ASan build, fake sessiond in $T_WORK/NAME.lttng with the D_INIT control
# files, fake_lttng.c) logging to $T_WORK/NAME.log; D_PID, D_LOG, D_FAKE.
d_start() {
	local name=$1 f
	shift
	D_LOG=$T_WORK/$name.log
	D_FAKE=$T_WORK/$name.lttng
	mkdir -p "$D_FAKE"
	for f in ${D_INIT:-}; do touch "$D_FAKE/$f"; done
	LT_FAKE_LTTNG=$D_FAKE LD_PRELOAD=$FAKE_SO \
	ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		"$DAEMON" --config /dev/null --log "$D_LOG" "$@" \
		>"$D_LOG.out" 2>"$D_LOG.err" &
	D_PID=$!
	T_PIDS+=("$D_PID")
}

log_has() { grep -q -- "$2" "$1" 2>/dev/null; }
log_count() { grep -c -- "$2" "$1" 2>/dev/null || true; }
alive() { kill -0 "$1" 2>/dev/null; }

# d_stop: SIGTERM, wait; D_RC its exit status, D_STOP_MS how long it took.
d_stop() {
	local t0=$(date +%s%N)
	kill -TERM "$D_PID" 2>/dev/null
	wait "$D_PID"
	D_RC=$?
	D_STOP_MS=$((($(date +%s%N) - t0) / 1000000))
}

# No sanitizer report in the daemon's stderr (shown when there is one).
no_sanitizer_report() {
	if grep -qE 'ERROR: AddressSanitizer|runtime error:|LeakSanitizer' "$D_LOG.err"; then
		grep -E 'ERROR|SUMMARY|#[0-9] ' "$D_LOG.err" | head -n 12 | sed 's/^/#   /'
		return 1
	fi
}
