#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fuzz-procfs.sh - the procfs knobs and module parameters of every tracker
# against hostile input: random and adversarial writes to every writable
# /proc/latency_tracker file (tests/guest/fuzz_procfs.py: refused writes
# leave the value unchanged, accepted ones are strict and in bounds),
# kernel memory bounded under readers and writes, then invalid module
# parameters (the load fails and the kernel log names the parameter);
# afterwards modules unload clean and the kernel log is clean (harness
# gate).  The parsers do not depend on the kernel: this runs on one line
# and on the debug kernel (tests/vm/tiers.sh).
# LTG_SEED replays a run; LTG_FUZZ_WRITES caps the writes per file (300),
# LTG_FUZZ_SECONDS is the fuzzer's budget (20 s): its adversarial cases
# always run, its random ones fill the budget.  LTG_FUZZ_BAD: see
# BAD_PARAMS.  LTG_FUZZ_TRACKERS: the tracker modules fuzzed (all four by
# default; the debug kernel, where only memory safety is at stake, takes
# block alone: its knobs are the core's and every filter's, parsed by the
# code every tracker's are, and lt_core_test's are fuzzed too).
. tests/guest/lib.sh

seed=${LTG_SEED:-$(date +%s)}
writes=${LTG_FUZZ_WRITES:-300}
secs=${LTG_FUZZ_SECONDS:-20}
tap_diag "seed $seed, up to $writes writes per file in $secs s"

# Every tracker with its writable knobs (the contract's four, and the
# filters: filter_cgroup, filter_tgid, kthreads on every tracker module,
# filter_dev on block); lt_core_test's ctl is a test control, not fuzzed.
TRACKERS=(${LTG_FUZZ_TRACKERS:-wakeup offcpu syscalls block})
KNOBS="threshold timeout wakeup_interval enable"
FILTERS="filter_cgroup filter_tgid kthreads"
declare -A EXTRA_KNOBS=([wakeup]=$FILTERS [offcpu]=$FILTERS [syscalls]=$FILTERS
	[block]="$FILTERS filter_dev")
expected=()
for t in lt_core_test "${TRACKERS[@]}"; do
	for k in $KNOBS ${EXTRA_KNOBS[$t]:-}; do
		expected+=("/proc/latency_tracker/$t/$k")
	done
done
# Invalid module parameters.  The four modules' parameters are one
# macro's (probes/common/probe.h) with one parser: the first module of
# TRACKERS gets every bad value, the others one of each parser (a number,
# a filter); block gets its own filter_dev too.
BAD_PARAMS=(threshold=abc threshold=-5 threshold=0 threshold=1000000000001
	threshold=99999999999999999999999 threshold= timeout=1 timeout=-1
	max_events=4194305 max_events=99999999999 max_events=1x
	initial_events=4194305 initial_events=1x
	alert_records=8 alert_records=70000 print_interval=0 kthreads=2
	filter_tgid=abc filter_cgroup=relative filter_cgroup=/lt_no_such_cgroup)
# LTG_FUZZ_BAD=short (the debug kernel, for the memory safety of a
# refused load): the first module gets one value per way a load is
# refused (the parser, a check at init, the cgroup lookup), not all.
[ "${LTG_FUZZ_BAD:-}" = short ] &&
	BAD_PARAMS=(threshold=abc timeout=1 max_events=4194305 alert_records=8
		filter_cgroup=/lt_no_such_cgroup)
declare -A BAD_OF=([wakeup]="threshold=abc filter_tgid=abc"
	[offcpu]="threshold=abc filter_tgid=abc" [syscalls]="threshold=abc filter_tgid=abc"
	[block]="threshold=abc filter_tgid=abc")
BAD_OF[${TRACKERS[0]}]="${BAD_PARAMS[*]}"
BAD_OF[block]+=" filter_dev=8:"
nbad=0
for t in "${TRACKERS[@]}"; do set -- ${BAD_OF[$t]}; nbad=$((nbad + $#)); done

# Loads 2 + trackers, the fuzzer's run, one per knob, no other writable
# file, memory, unloads, per bad parameter 2, per tracker 2 more, the core.
tap_plan $((2 + ${#TRACKERS[@]} + 1 + ${#expected[@]} + 1 + 1 + 1 + ${#TRACKERS[@]} +
	2 * nbad + 2 * ${#TRACKERS[@]} + 2 + 1))

tap_ok "load latency_tracker" lt_load latency_tracker
tap_ok "load lt_core_test (a tracker with procfs knobs)" lt_load lt_core_test selftest=0
for t in "${TRACKERS[@]}"; do
	tap_ok "load latency_tracker_$t" lt_load latency_tracker_$t
done
dirs=(/proc/latency_tracker/lt_core_test)
for t in "${TRACKERS[@]}"; do dirs+=(/proc/latency_tracker/$t); done

python3 tests/guest/fuzz_procfs.py "$seed" "$writes" "$secs" "${dirs[@]}" >/tmp/fuzz.out 2>&1
tap_is "fuzzer ran to the end" "$?" 0
# The fuzzer prints one TAP line per writable file it found: one
# assertion per expected knob here, its diagnostics passed on.
declare -A fuzzed=()
while IFS= read -r line; do
	case $line in
	"ok "* | "not ok "*)
		path=${line#* - }
		path=${path%%: *}
		fuzzed[$path]=${line%% [0-9]*} ;;
	"#"*) echo "$line" ;;
	1..*) ;;
	*) echo "#   $line" ;;
	esac
done </tmp/fuzz.out
for f in "${expected[@]}"; do
	tap_is "$f: fuzzed, refused writes left it unchanged" "${fuzzed[$f]:-not fuzzed}" ok
	unset "fuzzed[$f]"
done
tap_is "no other writable file" "${!fuzzed[*]}" ""

# Kernel memory stays bounded whatever userspace reads or writes: 100
# readers of alerts while 10000 alerts are reported, 2000 writes.
mem() { awk '/^(Slab|VmallocUsed):/ { s += $2 } END { print s }' /proc/meminfo; }
sync; echo 3 >/proc/sys/vm/drop_caches
before=$(mem)
# The 20 readers of a round are threads of one process, each with its own
# open file (one exec a round, not 40: on the debug kernel under TCG an
# exec takes about a second).  timeout passes its SIGTERM on to python.
READERS='
import os, threading
opened = threading.Barrier(21)
def read():
    fd = os.open("/proc/latency_tracker/lt_core_test/alerts", os.O_RDONLY)
    opened.wait()
    while os.read(fd, 4096):
        pass
for _ in range(20):
    threading.Thread(target=read, daemon=True).start()
opened.wait()
print("ready", flush=True)
threading.Event().wait()'
ready=$(mktemp)
for round in $(seq 1 5); do
	timeout 60 python3 -c "$READERS" >"$ready" &
	pid=$!
	for i in $(seq 300); do
		grep -q ready "$ready" && break
		sleep 0.1
	done
	echo "alerts 2000" >/proc/latency_tracker/lt_core_test/ctl
	for i in $(seq 1 200); do
		echo $((1000000 + i)) >/proc/latency_tracker/lt_core_test/threshold
		echo garbage$i >/proc/latency_tracker/lt_core_test/threshold 2>/dev/null
	done
	kill "$pid" 2>/dev/null
	wait "$pid"
	: >"$ready"
done
rm -f "$ready"
sync; echo 3 >/proc/sys/vm/drop_caches
after=$(mem)
tap_diag "Slab+VmallocUsed: $before kB before, $after kB after 100 readers, 10000 alerts, 2000 writes"
tap_cmp "kernel memory grew by less than 4 MiB" "$((after - before))" -lt 4096

tap_ok "unload lt_core_test after fuzzing" lt_unload lt_core_test
for t in "${TRACKERS[@]}"; do
	tap_ok "unload latency_tracker_$t after fuzzing" lt_unload latency_tracker_$t
done

tap_diag "fuzzing and unloads: $SECONDS s"

# Invalid module parameters refuse the load and name the parameter in
# what the kernel logged after the insmod.
for t in "${TRACKERS[@]}"; do
	m=latency_tracker_$t
	BAD_LIST=(${BAD_OF[$t]})
	for bad in "${BAD_LIST[@]}"; do
		mark=$(kmsg_mark)
		loaded=0
		lt_load "$m" "$bad" 2>/dev/null && loaded=1
		tap_ok "$m $bad refused, not loaded" \
			bash -c "[ $loaded = 0 ] && ! grep -q '^$m ' /proc/modules"
		[ $loaded = 0 ] || lt_unload "$m"
		tap_ok "$m $bad: the kernel log names '${bad%%=*}'" \
			grep -q "$m.*${bad%%=*}" <<<"$(kmsg_since "$mark")"
	done
	tap_ok "$m loads with good parameters after the bad ones" \
		lt_load "$m" threshold=5000000 timeout=0 max_events=64
	tap_ok "$m unloads" lt_unload "$m"
done
# A first segment above the ceiling: two parameters, each valid alone.
mark=$(kmsg_mark)
loaded=0
lt_load latency_tracker_wakeup max_events=64 initial_events=128 2>/dev/null && loaded=1
tap_ok "latency_tracker_wakeup max_events=64 initial_events=128 refused, not loaded" \
	bash -c "[ $loaded = 0 ] && ! grep -q '^latency_tracker_wakeup ' /proc/modules"
[ $loaded = 0 ] || lt_unload latency_tracker_wakeup
tap_ok "initial_events above max_events: the kernel log names 'initial_events'" \
	grep -q "latency_tracker_wakeup.*initial_events" <<<"$(kmsg_since "$mark")"
tap_ok "unload latency_tracker" lt_unload latency_tracker
tap_diag "bad module parameters: done at $SECONDS s"
tap_done
