# SPDX-License-Identifier: GPL-2.0-only
#
# trk.sh - helpers shared by the tracker guest tests (wakeup, offcpu,
# syscalls, block), sourced after tests/guest/lib.sh.  They work on one
# tracker: TRK (its name: wakeup, ...) and TRK_MOD (its module).

LTPROG="python3 tests/guest/progs/ltprog.py"
NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"

trk_dir() { echo "/proc/latency_tracker/$TRK"; }

# trk_shared_plan: the number of assertions of trk_rounds and
# trk_tiny_pool together (every tracker test runs both), for the test's
# plan.  The procfs files' modes, strict parsing and the bad module
# parameters are the same code in every tracker: security.sh and
# fuzz-procfs.sh test them for all four at once.
trk_shared_plan() { echo $((1 + 3)); }

# trk_load [PARAM=VALUE...]: the core (if needed) and the tracker module.
trk_load() {
	lt_loaded latency_tracker || lt_load latency_tracker || return 1
	lt_load "$TRK_MOD" "$@"
}

trk_unload() { lt_unload "$TRK_MOD"; }

# trk_stat KEY: one value of the stats file.
trk_stat() { awk -v k="$1" '$1 == k { print $2 }' "$(trk_dir)/stats"; }

# trk_set KNOB VALUE: write a knob, fail if refused.
trk_set() { echo "$2" >"$(trk_dir)/$1"; }

# Alert readers: each open of `alerts` starts at the current end, so a
# reader is started before the workload and stopped after it.
trk_reader_start() { # FILE
	local i
	echo 0 >"$(trk_dir)/wakeup_interval"
	cat "$(trk_dir)/alerts" >"$1" &
	TRK_READER=$!
	# A reader gets the records appended after its open(): wait for it
	# (a fixed 0.2 s was too short once for cat to start, in a guest
	# sharing the host with two others: the run's first record missed).
	for i in $(seq 200); do
		ls -l "/proc/$TRK_READER/fd" 2>/dev/null | grep -q "$(trk_dir)/alerts" && break
		sleep 0.05
	done
}

trk_reader_stop() {
	sleep "${1:-1}"
	kill "$TRK_READER" 2>/dev/null
	wait "$TRK_READER" 2>/dev/null
	TRK_READER=
}

# trk_wait_line FILE KEY: the value of the first KEY=... line a workload
# prints into FILE (python starts slowly under emulation: poll up to 30 s).
trk_wait_line() {
	local i
	for i in $(seq 300); do
		grep -q "^$2=" "$1" && break
		sleep 0.1
	done
	sed -n "s/^$2=//p" "$1"
}

# trk_wait_pid FILE: the pid=... an ltprog.py (or custom_load.py) workload
# prints when it starts its work.
trk_wait_pid() { trk_wait_line "$1" pid; }

# field LINE KEY: value of KEY=... in an alert line.
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<" $1"; }

# trk_hist_has NS: true when a histogram bucket [low, high) holds NS.
trk_hist_has() {
	awk -v d="$1" '$1 <= d && d < $2 && $3 > 0 { f = 1 } END { exit !f }' \
		"$(trk_dir)/histogram"
}

# The contract's record prefix: ts tracker cause delay, in this order.
trk_header_ok() { # LINE CAUSE
	[[ "$1" =~ ^ts=[0-9]+\ tracker=$TRK\ cause=$2\ delay=[0-9]+\  ]]
}

# trk_refuse KNOB VALUE: a write that must fail and leave the value as is.
trk_refuse() {
	local f before
	f=$(trk_dir)/$1
	before=$(cat "$f")
	if printf '%s' "$2" >"$f" 2>/dev/null; then
		echo "# write '$2' to $1 accepted" >&2
		return 1
	fi
	[ "$(cat "$f")" = "$before" ]
}

# trk_rounds N CMD...: load/unload N times while CMD runs in the background.
#
# Attaching a probe to a tracepoint that has fewer than two patches kernel
# text (jump label, then static call: 0 -> 1 -> 2 probes).  Under QEMU TCG
# that patching, racing with the other vCPU running the patched code
# (__schedule), was seen to fail twice in many rounds: "Oops: int3" at
# __schedule on 6.12, a CPU stuck in insmod on 6.1.  So while the workload
# runs, two other probes stay on each tracepoint we use: the ftrace events
# TRK_EVENTS (recording off), enabled in the top trace buffer and in an
# instance of our own (each enable is a probe of its own), and the module
# TRK_COMPANION (another tracker); our attach/detach then patches nothing.
trk_rounds() {
	local n=$1 i ok=0 wl ev tr=/sys/kernel/tracing
	local inst=$tr/instances/lt_rounds
	shift
	echo 0 >$tr/tracing_on
	mkdir -p $inst && echo 0 >$inst/tracing_on
	for ev in $TRK_EVENTS; do
		echo 1 >"$tr/events/$ev/enable"
		echo 1 >"$inst/events/$ev/enable"
	done
	[ -z "$TRK_COMPANION" ] || lt_load "$TRK_COMPANION"
	"$@" >/dev/null 2>&1 &
	wl=$!
	for i in $(seq "$n"); do
		trk_load threshold=1000 || break
		sleep 0.3
		trk_unload || break
		ok=$((ok + 1))
	done
	kill "$wl" 2>/dev/null
	wait "$wl" 2>/dev/null
	[ -z "$TRK_COMPANION" ] || lt_unload "$TRK_COMPANION"
	for ev in $TRK_EVENTS; do
		echo 0 >"$tr/events/$ev/enable"
		echo 0 >"$inst/events/$ev/enable"
	done
	rmdir $inst
	echo 1 >$tr/tracing_on
	tap_is "$TRK: $n load/unload rounds under load" "$ok" "$n"
}

# trk_tiny_pool MAX CMD...: with max_events=MAX, CMD makes drops counted.
trk_tiny_pool() {
	local max=$1 dropped
	shift
	tap_ok "$TRK: load with max_events=$max" trk_load max_events="$max" threshold=1000000000
	"$@" >/dev/null 2>&1
	dropped=$(trk_stat dropped)
	tap_cmp "$TRK: tiny pool counts drops (dropped=$dropped)" "${dropped:-0}" -gt 0
	tap_ok "$TRK: unload after drops" trk_unload
}

export -f lt_load lt_ko lt_loaded
