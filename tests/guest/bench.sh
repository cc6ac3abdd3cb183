#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench.sh - guest side of `make bench` (not a test): prints "name value"
# lines that tests/bench/run.sh turns into the table and the JSON.
#  1. per-event cost: lt_bench.ko (ours vs rhashtable vs locked hlist);
#  2. hackbench slowdown, configurations interleaved A B C D E A B ...:
#     none, ours (wakeup+offcpu+syscalls, thresholds never crossed, no
#     filter: kthreads=1 on all three), ours_excl (the same with a filter
#     that excludes every task: filter_cgroup on an empty cgroup, i.e. the
#     cost of the probes and of the filter that keeps them from the
#     table), ours_incl (a filter that includes every task: filter_cgroup
#     on the root, the full ancestry check on every event),
#     ftrace (hist-trigger wakeup latency, synthetic events), lttng
#     (flight-recorder session on the same tracepoints), bpftrace (a
#     runqlat-style histogram) -- each one only where it can run here;
#     and the same three next to none under a loop of 600000 system calls
#     (dd, 1-byte blocks: the syscalls tracker's probes, and the filters'
#     verdict at every sys_enter), milliseconds;
#  3. alert path: an alert appended in hardirq context -> a blocked reader
#     of `alerts` returns (the record's ts against CLOCK_MONOTONIC).
. tests/guest/lib.sh
set -u
T=/sys/kernel/tracing
REPS=${LTG_BENCH_REPS:-5}
out() { echo "$*"; }
note() { echo "note $*"; }

# --- 1. per-event cost ---------------------------------------------------------
lt_load latency_tracker || { note "cannot load latency_tracker"; exit 1; }
if lt_load lt_bench; then
	sed 's/^/pair_/' /proc/lt_bench
	lt_unload lt_bench
else
	note "lt_bench did not load"
fi

# --- 2. hackbench ----------------------------------------------------------------
hb() { hackbench -g "$HB_GROUPS" -l "$HB_LOOPS" 2>&1 | awk '/^Time:/ { print $2 }'; }
# sysloop: ms for 600000 system calls (read + write of one byte).
sysloop() {
	local s
	s=$(date +%s%N)
	dd if=/dev/zero of=/dev/null bs=1 count=300000 status=none
	echo $(( ($(date +%s%N) - s) / 1000000 ))
}
HB_GROUPS=4 HB_LOOPS=100
# Size the run to a few seconds in this guest.
t=$(hb)
HB_LOOPS=$(python3 -c "print(max(50, int(100 * 3.0 / max($t, 0.01))))")
out "hackbench_args -g $HB_GROUPS -l $HB_LOOPS"

# ours_on [PARAM...]: the three trackers, with the filter parameters given.
ours_on() {
	lt_load latency_tracker_wakeup threshold=1000000000000 kthreads=1 "$@" &&
	lt_load latency_tracker_offcpu threshold=1000000000000 kthreads=1 "$@" &&
	lt_load latency_tracker_syscalls threshold=1000000000000 kthreads=1 "$@"
}
CG=/sys/fs/cgroup
grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG
mkdir -p $CG/lt_bench_empty
EXCL=filter_cgroup=/lt_bench_empty
INCL=filter_cgroup=/
ours_off() {
	lt_unload latency_tracker_syscalls; lt_unload latency_tracker_offcpu
	lt_unload latency_tracker_wakeup
}
# The wakeup-latency recipe of the kernel's histogram documentation.
ftrace_on() {
	echo 'wakeup_latency u64 lat; pid_t pid' >>$T/synthetic_events &&
	echo 'hist:keys=pid:ts0=common_timestamp.usecs' >>$T/events/sched/sched_waking/trigger &&
	echo 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).trace(wakeup_latency,$wakeup_lat,next_pid)' \
		>>$T/events/sched/sched_switch/trigger &&
	echo 'hist:keys=lat:sort=lat' >>$T/events/synthetic/wakeup_latency/trigger
}
ftrace_off() {
	echo '!hist:keys=lat:sort=lat' >>$T/events/synthetic/wakeup_latency/trigger
	echo '!hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).trace(wakeup_latency,$wakeup_lat,next_pid)' \
		>>$T/events/sched/sched_switch/trigger
	echo '!hist:keys=pid:ts0=common_timestamp.usecs' >>$T/events/sched/sched_waking/trigger
	echo '!wakeup_latency' >>$T/synthetic_events
}
lttng_setup() {
	command -v lttng-sessiond >/dev/null && modprobe lttng-tracer 2>/dev/null || return 1
	lttng-sessiond --background >/dev/null 2>&1 || return 1
	lttng create ltbench --snapshot >/dev/null &&
	lttng enable-channel -k --overwrite chan >/dev/null &&
	lttng enable-event -k -c chan sched_switch,sched_waking,sched_wakeup >/dev/null &&
	lttng enable-event -k -c chan --syscall -a >/dev/null
}
lttng_on() { lttng start ltbench >/dev/null; }
lttng_off() { lttng stop ltbench >/dev/null; }
BPF_PROG='tracepoint:sched:sched_waking { @q[args->pid] = nsecs; }
tracepoint:sched:sched_switch { $t = @q[args->next_pid];
  if ($t) { @usecs = hist((nsecs - $t) / 1000); delete(@q[args->next_pid]); } }'
bpf_on() {
	bpftrace -e "$BPF_PROG" >/tmp/bpf.out 2>&1 &
	BPF_PID=$!
	for _ in $(seq 1 600); do
		grep -q Attaching /tmp/bpf.out && sleep 1 && return 0
		kill -0 $BPF_PID 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
bpf_off() { kill -INT $BPF_PID; wait $BPF_PID; }

configs=(none)
ours_on && ours_off && configs+=(ours) || note "ours: trackers did not load"
ours_on $EXCL && ours_off && configs+=(ours_excl) || note "ours_excl: trackers did not load"
ours_on $INCL && ours_off && configs+=(ours_incl) || note "ours_incl: trackers did not load"
ftrace_on && ftrace_off && configs+=(ftrace) || { ftrace_off 2>/dev/null; note "ftrace: hist triggers unavailable"; }
if lttng_setup; then configs+=(lttng); else note "lttng: not measured (lttng modules or sessiond unavailable in this guest)"; fi
if command -v bpftrace >/dev/null && bpf_on; then bpf_off; configs+=(bpftrace); else
	note "bpftrace: not measured (cannot attach in this guest: $(tail -n 1 /tmp/bpf.out 2>/dev/null))"; fi
out "configs ${configs[*]}"

for r in $(seq 1 "$REPS"); do
	for c in "${configs[@]}"; do
		case $c in
		none) out "hackbench_none $(hb)"; out "sysloop_none $(sysloop)" ;;
		ours) ours_on && out "hackbench_ours $(hb)" && out "sysloop_ours $(sysloop)"; ours_off ;;
		ours_excl) ours_on $EXCL && out "hackbench_ours_excl $(hb)" &&
			out "sysloop_ours_excl $(sysloop)"; ours_off ;;
		ours_incl) ours_on $INCL && out "hackbench_ours_incl $(hb)" &&
			out "sysloop_ours_incl $(sysloop)"; ours_off ;;
		ftrace) ftrace_on && out "hackbench_ftrace $(hb)"; ftrace_off ;;
		lttng) lttng_on && out "hackbench_lttng $(hb)"; lttng_off ;;
		bpftrace) bpf_on && out "hackbench_bpftrace $(hb)"; bpf_off ;;
		esac
	done
done
[ " ${configs[*]} " = *" lttng "* ] && { lttng destroy ltbench >/dev/null; }

# --- 3. alert path ---------------------------------------------------------------
if lt_load lt_core_test selftest=0; then
	d=/proc/latency_tracker/lt_core_test
	echo 0 >$d/wakeup_interval # measure the path, not the rate limiter
	python3 - "$d" <<'PY'
import os, sys, threading, time
d = sys.argv[1]
fd = os.open(d + "/alerts", os.O_RDONLY)
lat = []
def trigger():
    for _ in range(200):
        time.sleep(0.02)
        with open(d + "/ctl", "w") as f:
            f.write("alerts 1")
threading.Thread(target=trigger, daemon=True).start()
buf = b""
while len(lat) < 200:
    chunk = os.read(fd, 65536)
    now = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
    buf += chunk
    *lines, buf = buf.split(b"\n")
    for l in lines:
        ts = int(l.split(b" ", 1)[0].split(b"=")[1])
        lat.append((now - ts) / 1000.0)
lat.sort()
print("alert_wakeup_us_median %.1f" % lat[len(lat) // 2])
print("alert_wakeup_us_p99 %.1f" % lat[int(len(lat) * 0.99) - 1])
print("alert_samples %d" % len(lat))
PY
	lt_unload lt_core_test
fi
rmdir $CG/lt_bench_empty
lt_unload latency_tracker
