#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench.sh - guest side of `make bench` (not a test): prints "name value"
# lines that tests/bench/run.sh turns into the table and the JSON, and
# "fail CONFIG: why" for every configuration that could not be measured;
# exits non-zero if there was any (a missing figure is never silent).
#  1. pair: per-pair cost, lt_bench.ko (ours vs rhashtable, bare and with
#     the same work as ours, vs locked hlist; tests/bench/kmod/lt_bench.c);
#  2. hackbench: workloads slowed by each configuration, configurations
#     interleaved and their order turned by one every repetition:
#     equal work -- the same three latency distributions (wakeup: waking ->
#     switch-in; off-CPU: switch-out asleep -> switch-in; system call:
#     sys_enter -> sys_exit), no threshold ever crossed:
#       ours      the wakeup, offcpu and syscalls trackers (kthreads=1);
#       ftrace    hist triggers with synthetic events for the three pairs
#                 (the kernel's Documentation/trace/histogram.rst recipe);
#       bpftrace  one script, three start maps, three histograms;
#       lttng     a flight-recorder session with exactly sched_waking,
#                 sched_switch and the raw sys_enter/sys_exit tracepoints
#                 (tests/bench/lttng: lttng-modules has no probe for them);
#       floor     not a peer: an empty probe on each of those four
#                 tracepoints (tests/bench/kmod/lt_floor.c), the price
#                 every configuration pays before doing any work;
#     wakeup only (today's row): ours_wakeup (the wakeup tracker),
#     ftrace_wakeup (the histogram.rst wakeup recipe), bpftrace_wakeup
#     (runqlat-style), lttng_wakeup (sched_waking and sched_switch);
#     one tracker alone (not in the default list: LTG_BENCH_CONFIGS=...):
#     ours_offcpu, ours_syscalls (and ours_wakeup above);
#     filters (system-call loop only): ours_excl (the three trackers with a
#     filter that excludes every task: filter_cgroup on an empty cgroup),
#     ours_incl (one that includes every task: filter_cgroup on the root);
#     another build (LTG_BENCH_BASE_KO, run.sh's BENCH_BASE): base_ours,
#     its core and three trackers as ours, paired as ours is.
#     Workloads: hackbench (processes, sockets), perf bench sched messaging
#     (threads, pipes) -- for an equal-work configuration (and none, the
#     control) each beside a run of none in the same repetition, the base
#     of its paired slowdown (see PAIRED) --, and for every configuration
#     but the wakeup-only ones a loop of 600000 system calls on CPU 0
#     (tests/bench/lt_sysloop.c: 1-byte read and write, in 400 batches)
#     and a ping-pong of 40000 round trips between two threads on CPU 0
#     (tests/bench/lt_pingpong.c: pipes; two wakeups, two switches, four
#     system calls per trip), each in ms at the median batch's pace;
#  3. scaling (run before 2.): with N threads asleep in a system call (tests/bench/
#     lt_pending.c; N pending events in each of ours' offcpu and syscalls
#     tables), hackbench on 1 CPU and on 2, none vs ours; and lt_bench with
#     N live keys and 1 or 2 CPUs producing; and, first, the growth from
#     the fewest to the most pending keys in lt_bench runs per CPU count
#     (live and live_big: ours and the equal-work rhashtable at both, side
#     by side in every round);
#  4. alert path: an alert appended in hardirq context -> a blocked reader
#     of `alerts` returns (the record's ts against CLOCK_MONOTONIC).
#  5. profile (opt-in): perf's profiles of lt_bench running ours alone
#     and the equal-work rhashtable peer alone, and of hackbench with ours
#     and with LTTng (equal work).
#  6. custom: the cost per call of one kernel function's latency, entry to
#     return keyed by the task, measured by a custom tracker (fn=) and by
#     its peers doing the same (bpftrace; ftrace's synthetic events).
#  7. app: the cost of marking one application request, begin and end
#     (tests/bench/lt_appbench.c, CPU 0): ours (lt_app_begin + lt_app_end,
#     a begin in the thread's block and an ioctl, no record: threshold
#     1000 s), two empty system calls (floor: the goal is ours <= 1.5 x
#     floor), one empty ioctl on the transport file (ioctl: the system
#     call ours makes, without our work), and two LTTng-UST
#     tracepoints recorded by a flight-recorder session of the user-space
#     domain (ust), interleaved, LTG_BENCH_APP_REPS (9) repetitions; and
#     what a thread with a request open pays per switch: the ping-pong
#     loop (lt_pingpong: 40000 round trips, 80000 switches and wakeups)
#     with the module loaded and no request open (pp_none), and with a
#     request open on each of its two threads (pp_open, lt_pingpong_app).
#  8. irq: the cost per interrupt period on CPU 1 (lt_irq_load.ko: a local
#     timer interrupt, a device interrupt handled inside it and a tasklet
#     raised and run, every IRQ_PERIOD_US) while lt_spin computes there:
#     the irq tracker, its peer bpftrace (hardirqs' and softirqs' pattern:
#     the same three intervals), and the wakeup tracker (its breakdown's
#     accounting hooks the same interrupts).
#  9. netrx: the cost per packet of a loopback UDP stream on CPU 0
#     (tests/bench/lt_udpstream.c: 100000 datagrams, each sent and read
#     at once): the netrx tracker (latency_tracker_net) and its peer
#     bpftrace doing the same pair, against none.
# 10. lock: the cost per contended kernel lock wait (a down_timeout() with
#     no time to wait on a semaphore never up, lt_lock_load.ko, CPU 0):
#     the lock tracker, its peer ftrace (the pair by the histogram.rst
#     pattern, keyed by the task).
# LTG_BENCH_PARTS (default "pair hackbench scaling custom app irq netrx lock
# alert"),
# LTG_BENCH_CONFIGS (default: all of 2.), LTG_BENCH_REPS (9),
# LTG_BENCH_PENDING ("10 1000 100000"), LTG_BENCH_SCALE_REPS (3; 0: no
# hackbench cells), LTG_BENCH_GROWTH_RUNS (5), LTG_BENCH_GROWTH_ROUNDS (9),
# LTG_BENCH_CUSTOM_REPS (9), LTG_BENCH_IRQ_REPS (9), LTG_BENCH_NETRX_REPS
# (LTG_BENCH_REPS), LTG_BENCH_LOCK_REPS (9) choose a smaller run (e.g.
# while profiling one change).
. tests/guest/lib.sh
set -u
T=/sys/kernel/tracing
REPS=${LTG_BENCH_REPS:-9}
PARTS=" ${LTG_BENCH_PARTS:-pair hackbench scaling custom app irq netrx lock alert} "
ALL_CONFIGS="none ours ftrace bpftrace lttng floor ours_wakeup ftrace_wakeup bpftrace_wakeup lttng_wakeup ours_excl ours_incl"
PENDING_LEVELS=${LTG_BENCH_PENDING:-10 1000 100000}
SCALE_REPS=${LTG_BENCH_SCALE_REPS:-3}
GROWTH_ROUNDS=${LTG_BENCH_GROWTH_ROUNDS:-9}
GROWTH_RUNS=${LTG_BENCH_GROWTH_RUNS:-5}
PENDING=$LT_TOP/build/bench/lt_pending
FAILED=
out() { echo "$*"; }
note() { echo "note $*"; }
fail() { echo "fail $*"; FAILED="$FAILED ${1%:}"; }
part() { [[ $PARTS == *" $1 "* ]]; }
# solo CMD...: CMD (turning a configuration on or off) with CPU 1 offline.
# The bench runs under multi-threaded TCG, where the kernel's live text
# patching (each probe attached or detached flips a static key) with the
# other vCPU in kernel code can leave that vCPU running the int3 the
# patching put there after the patching is over: "Oops: int3" in
# try_to_wake_up, 2 of 10 bench runs at insmod or rmmod.  An offline CPU
# runs nothing but its idle loop.
solo() {
	local on=/sys/devices/system/cpu/cpu1/online rc
	[ -w $on ] && [ "$(cat $on)" = 1 ] || { "$@"; return; }
	echo 0 >$on || { "$@"; return; }
	"$@"
	rc=$?
	echo 1 >$on || fail "all: CPU 1 did not come back online"
	return $rc
}

out "kernel $(uname -r)"
out "guest_cpus $(nproc)"
# Every figure reads the clock; the clocksource must not change under them
# (under emulation the watchdog may mark the TSC unstable and switch to the
# HPET, an emulated device: run.sh boots with tsc=reliable).
CS=/sys/devices/system/clocksource/clocksource0/current_clocksource
CLOCKSOURCE=$(cat $CS)
out "clocksource $CLOCKSOURCE"
lt_load latency_tracker || { fail "all: cannot load latency_tracker"; exit 1; }

# --- 1. per-pair cost ------------------------------------------------------------
# bench_pair PREFIX PARAM...: one lt_bench run, its lines prefixed.
bench_pair() {
	local prefix=$1
	shift
	if lt_load lt_bench "$@"; then
		sed "s/^/$prefix/" /proc/lt_bench
		lt_unload lt_bench
	else
		fail "${prefix%_}: lt_bench did not load ($*): $(dmesg | grep lt_bench | tail -n 1)"
	fi
}
part pair && bench_pair pair_

# --- 2. workloads ------------------------------------------------------------------
hb() { hackbench -g "$HB_GROUPS" -l "$HB_LOOPS" 2>&1 | awk '/^Time:/ { print $2 }'; }
pm() {
	perf bench sched messaging -p -t -g "$PM_GROUPS" -l "$PM_LOOPS" 2>&1 |
		awk '/Total time:/ { print $3 }'
}
# sysloop: ms for 600000 system calls (read + write of one byte) at the
# median batch's pace (tests/bench/lt_sysloop.c).
sysloop() { "$LT_TOP/build/bench/lt_sysloop"; }
pingpong() { "$LT_TOP/build/bench/lt_pingpong"; }
# size LOOPS SECONDS TIME: LOOPS scaled so that a run takes about SECONDS.
# (A run that printed no time keeps LOOPS: its failure shows in the runs.)
size() { python3 -c "t = float('${3:-0}' or 0); print(max(20, int($1 * $2 / t)) if t > 0 else $1)"; }
HB_GROUPS=4 HB_LOOPS=100 PM_GROUPS=4 PM_LOOPS=100
HB_LOOPS=$(size 100 2.5 "$(hb)")
out "hackbench_args -g $HB_GROUPS -l $HB_LOOPS"
HAVE_PM=
if perf bench sched messaging -g 1 -l 1 >/dev/null 2>&1; then
	HAVE_PM=1
	PM_LOOPS=$(size 100 2.0 "$(pm)")
	out "messaging_args -p -t -g $PM_GROUPS -l $PM_LOOPS"
else
	note "perf bench sched messaging: not available in this guest ($(command -v perf || echo no perf))"
fi

# ours_on [PARAM...]: the three trackers, thresholds never crossed, no
# filter (kthreads=1: every task, as the peers see them).
NEVER=threshold=1000000000000
ours_on() {
	lt_load latency_tracker_wakeup $NEVER kthreads=1 "$@" &&
	lt_load latency_tracker_offcpu $NEVER kthreads=1 "$@" &&
	lt_load latency_tracker_syscalls $NEVER kthreads=1 "$@"
}
ours_off() {
	local m
	for m in syscalls offcpu wakeup; do
		lt_loaded latency_tracker_$m && lt_unload latency_tracker_$m
	done
	return 0
}
# base_on/base_off: the three trackers of LTG_BENCH_BASE_KO's build, on its
# own core (ours is unloaded meanwhile, and back after).
base_ko() { find "$LTG_BENCH_BASE_KO" -name "$1.ko" -print -quit; }
base_on() {
	local m
	[ -n "${LTG_BENCH_BASE_KO:-}" ] || { note "base_ours: no LTG_BENCH_BASE_KO"; return 1; }
	lt_unload latency_tracker || return 1
	insmod "$(base_ko latency_tracker)" || return 1
	for m in wakeup offcpu syscalls; do
		insmod "$(base_ko latency_tracker_$m)" $NEVER kthreads=1 || return 1
	done
}
base_off() {
	ours_off
	lt_loaded latency_tracker && rmmod latency_tracker
	lt_load latency_tracker
}
# ours_check TRACKER...: each tracker matched events and dropped none.
LTD=/proc/latency_tracker
stat_of() { awk -v k="$2" '$1 == k { print $2 }' $LTD/$1/stats; }
ours_check() {
	local t m d
	for t in "$@"; do
		m=$(stat_of "$t" matched) d=$(stat_of "$t" dropped)
		[ "${m:-0}" -gt 0 ] || { echo "$t matched no event"; return 1; }
		[ "${d:-1}" = 0 ] || { echo "$t dropped $d events"; return 1; }
	done
}
# custom_check NAME: custom tracker NAME ended an event for each of the
# loop's calls at least (the guest's other calls come on top), dropped
# none, and its probes missed none.
custom_check() {
	local m p
	ours_check "$1" || return 1
	m=$(stat_of "$1" matched)
	p=$(awk '$1 == "probe_missed" { print $2 }' $LTD/$1/custom_stats)
	[ "$m" -ge "$CUSTOM_CALLS" ] || { echo "$1 matched $m events, fewer than the loop's $CUSTOM_CALLS calls"; return 1; }
	[ "${p:-1}" = 0 ] || { echo "$1's probes missed ${p:-?} calls"; return 1; }
}
CG=/sys/fs/cgroup
grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG
mkdir -p $CG/lt_bench_empty

# ftrace: the histogram.rst pattern (a start variable per key on the
# first event, the delay computed on the second and sent to a synthetic
# event by onmatch().trace(), a log2 histogram on the synthetic event).
# Sleeping states as sched_switch reports them: S D T t P I (0xcf), not
# running or preempted (0, 0x100), not dead or zombie (0x10, 0x20).
FT_EW=(
	"synthetic_events|wakeup_lat u64 lat; pid_t pid"
	"synthetic_events|offcpu_lat u64 lat; pid_t pid"
	"synthetic_events|syscall_lat u64 lat; int pid"
	"events/sched/sched_waking/trigger|hist:keys=pid:ts_w=common_timestamp"
	"events/sched/sched_switch/trigger|hist:keys=prev_pid:ts_o=common_timestamp if prev_pid != 0 && prev_state & 207"
	"events/sched/sched_switch/trigger|hist:keys=next_pid:lat_w=common_timestamp-\$ts_w:onmatch(sched.sched_waking).trace(wakeup_lat,\$lat_w,next_pid)"
	"events/sched/sched_switch/trigger|hist:keys=next_pid:lat_o=common_timestamp-\$ts_o:onmatch(sched.sched_switch).trace(offcpu_lat,\$lat_o,next_pid)"
	"events/raw_syscalls/sys_enter/trigger|hist:keys=common_pid:ts_s=common_timestamp"
	"events/raw_syscalls/sys_exit/trigger|hist:keys=common_pid:lat_s=common_timestamp-\$ts_s:onmatch(raw_syscalls.sys_enter).trace(syscall_lat,\$lat_s,common_pid)"
	"events/synthetic/wakeup_lat/trigger|hist:keys=lat.log2"
	"events/synthetic/offcpu_lat/trigger|hist:keys=lat.log2"
	"events/synthetic/syscall_lat/trigger|hist:keys=lat.log2"
)
# Today's wakeup-only recipe, unchanged.
FT_WK=(
	"synthetic_events|wakeup_latency u64 lat; pid_t pid"
	"events/sched/sched_waking/trigger|hist:keys=pid:ts0=common_timestamp.usecs"
	"events/sched/sched_switch/trigger|hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-\$ts0:onmatch(sched.sched_waking).trace(wakeup_latency,\$wakeup_lat,next_pid)"
	"events/synthetic/wakeup_latency/trigger|hist:keys=lat:sort=lat"
)
# The custom part's function (6.): its synthetic-event recipe, the same
# pattern on a kprobe event at its entry and a kretprobe event at its
# return, keyed by the task.
CUSTOM_FN=vfs_read
FT_FN=(
	"kprobe_events|p:ltb_fn_in $CUSTOM_FN"
	"kprobe_events|r:ltb_fn_out $CUSTOM_FN"
	"synthetic_events|fn_lat u64 lat; int pid"
	"events/kprobes/ltb_fn_in/trigger|hist:keys=common_pid:ts_f=common_timestamp"
	"events/kprobes/ltb_fn_out/trigger|hist:keys=common_pid:lat_f=common_timestamp-\$ts_f:onmatch(kprobes.ltb_fn_in).trace(fn_lat,\$lat_f,common_pid)"
	"events/synthetic/fn_lat/trigger|hist:keys=lat.log2"
)
# The lock part's pair (9.), keyed by the task.
FT_LOCK=(
	"synthetic_events|lock_lat u64 lat; int pid"
	"events/lock/contention_begin/trigger|hist:keys=common_pid:ts_l=common_timestamp"
	"events/lock/contention_end/trigger|hist:keys=common_pid:lat_l=common_timestamp-\$ts_l:onmatch(lock.contention_begin).trace(lock_lat,\$lat_l,common_pid)"
	"events/synthetic/lock_lat/trigger|hist:keys=lat.log2"
)
# ftrace_set on|off NAME: write the recipe in order, or undo it in reverse.
ftrace_set() {
	local -n recipe=$2
	local i file text n=${#recipe[@]}
	if [ "$1" = on ]; then
		for ((i = 0; i < n; i++)); do
			file=${recipe[i]%%|*} text=${recipe[i]#*|}
			echo "$text" >>"$T/$file" 2>/dev/null || {
				note "ftrace: $file refused '$text': $(tail -n 3 "$T/error_log" 2>/dev/null | tr '\n' ' ')"
				return 1
			}
		done
	else
		for ((i = n - 1; i >= 0; i--)); do
			file=${recipe[i]%%|*} text=${recipe[i]#*|}
			# A synthetic event is removed by its name alone, a
			# kprobe event by "-:" and its name.
			case $file in
			synthetic_events) text="!${text%% *}" ;;
			kprobe_events) text=${text#?:} text="-:${text%% *}" ;;
			*) text="!$text" ;;
			esac
			echo "$text" >>"$T/$file" 2>/dev/null
		done
		return 0
	fi
}
# ftrace_check SYNTH...: each synthetic event's histogram counted hits
# (FT_MIN_HITS at least, 1 by default).
ftrace_check() {
	local s h
	for s in "$@"; do
		h=$(awk '/^ *Hits:/ { print $2 }' "$T/events/synthetic/$s/hist" 2>/dev/null)
		[ "${h:-0}" -ge "${FT_MIN_HITS:-1}" ] ||
			{ echo "$s histogram has ${h:-no} hits, fewer than ${FT_MIN_HITS:-1}"; return 1; }
	done
}

BPF_EW='tracepoint:sched:sched_waking { @wq[args->pid] = nsecs; }
tracepoint:sched:sched_switch {
  $now = nsecs;
  if (args->prev_pid != 0 && (args->prev_state & 0xcf) != 0) { @oq[args->prev_pid] = $now; }
  $w = @wq[args->next_pid];
  if ($w != 0) { @wakeup_ns = hist($now - $w); delete(@wq[args->next_pid]); }
  $o = @oq[args->next_pid];
  if ($o != 0) { @offcpu_ns = hist($now - $o); delete(@oq[args->next_pid]); }
}
tracepoint:raw_syscalls:sys_enter { @sq[tid] = nsecs; }
tracepoint:raw_syscalls:sys_exit {
  $s = @sq[tid];
  if ($s != 0) { @syscall_ns = hist(nsecs - $s); delete(@sq[tid]); }
}
END { clear(@wq); clear(@oq); clear(@sq); }'
BPF_WK='tracepoint:sched:sched_waking { @q[args->pid] = nsecs; }
tracepoint:sched:sched_switch { $t = @q[args->next_pid];
  if ($t) { @usecs = hist((nsecs - $t) / 1000); delete(@q[args->next_pid]); } }'
# The custom part's (6.): funclatency's pattern.
BPF_FN="kprobe:$CUSTOM_FN { @s[tid] = nsecs; }
kretprobe:$CUSTOM_FN /@s[tid]/ { @fn_ns = hist(nsecs - @s[tid]); delete(@s[tid]); }
END { clear(@s); }"
BPF_OUT=/tmp/lt-bench-bpf.out
# bpf_on SCRIPT: bpftrace running SCRIPT, every probe attached: its BEGIN
# runs after the last one is (a SIGINT while it attaches is lost, and it
# would then run on for good; under emulation attaching takes seconds).
bpf_on() {
	bpftrace -e "BEGIN { printf(\"lt-bench-attached\\n\"); } $1" >$BPF_OUT 2>&1 &
	BPF_PID=$!
	for _ in $(seq 1 1200); do
		grep -q lt-bench-attached $BPF_OUT && return 0
		kill -0 $BPF_PID 2>/dev/null || break
		sleep 0.1
	done
	note "bpftrace did not attach: $(tail -n 3 $BPF_OUT | tr '\n' ' ')"
	return 1
}
# bpf_off: bpftrace stopped (SIGINT: it prints its maps), or killed after
# a minute (its maps then missing: bpf_check fails).
bpf_off() {
	[ -n "${BPF_PID:-}" ] || return 0
	kill -INT "$BPF_PID"
	for _ in $(seq 1 600); do
		kill -0 "$BPF_PID" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$BPF_PID" 2>/dev/null; then
		kill -KILL "$BPF_PID"
		note "bpftrace did not exit a minute after SIGINT: killed"
	fi
	wait "$BPF_PID"
	BPF_PID=
	return 0
}
# bpf_check MAP...: bpftrace printed each histogram at exit.
bpf_check() {
	local m
	for m in "$@"; do
		grep -q "^@$m:" $BPF_OUT || { echo "no @$m histogram: $(tail -n 1 $BPF_OUT)"; return 1; }
	done
}

# LTTng: two flight-recorder (snapshot) sessions, set up once, started
# and stopped around their runs.
lttng_setup() {
	local ko=${LTG_BENCH_RAWSYS_KO:-}
	command -v lttng-sessiond >/dev/null || { echo "no lttng-sessiond"; return 1; }
	modprobe lttng-tracer 2>/dev/null || { echo "no lttng-modules for $(uname -r)"; return 1; }
	[ -e "$ko" ] || { echo "raw_syscalls probe not built (LTG_BENCH_RAWSYS_KO='$ko')"; return 1; }
	insmod "$ko" || { echo "insmod $ko failed"; return 1; }
	lttng-sessiond --background >/dev/null 2>&1 || { echo "lttng-sessiond did not start"; return 1; }
	lttng create ltbench_ew --snapshot >/dev/null &&
	lttng enable-channel -k -s ltbench_ew --overwrite chan >/dev/null &&
	lttng enable-event -k -s ltbench_ew -c chan sched_waking,sched_switch,raw_syscalls_sys_enter,raw_syscalls_sys_exit >/dev/null &&
	lttng create ltbench_wk --snapshot >/dev/null &&
	lttng enable-channel -k -s ltbench_wk --overwrite chan >/dev/null &&
	lttng enable-event -k -s ltbench_wk -c chan sched_waking,sched_switch >/dev/null ||
		{ echo "lttng session setup failed"; return 1; }
}
# lttng_teardown: what lttng_setup made (or a failed one left), undone:
# the sessions, the session and consumer daemons (the consumer holds the
# channels, and through them the probe's events), the raw_syscalls probe;
# so that the next part sets it up again (the profile part after the
# hackbench part: insmod of the probe said "File exists").
lttng_teardown() {
	local ko=${LTG_BENCH_RAWSYS_KO:-} i
	lttng destroy -a >/dev/null 2>&1
	pkill -x lttng-sessiond
	for ((i = 0; i < 100; i++)); do
		pgrep -x 'lttng-(sessiond|consumerd)' >/dev/null || break
		sleep 0.1
	done
	pgrep -x 'lttng-(sessiond|consumerd)' >/dev/null &&
		{ echo "lttng-sessiond or lttng-consumerd did not exit"; return 1; }
	ko=$(basename "$ko" .ko)
	ko=${ko//-/_}
	if lt_loaded "$ko"; then
		rmmod "$ko" || { echo "rmmod $ko failed"; return 1; }
	fi
}
LTTNG_READY=

# cfg_on/cfg_off CONFIG (with CPU 1 offline: solo); cfg_check CONFIG: it
# computed what it should.
cfg_on() { solo cfg_set_on "$1"; }
cfg_off() { solo cfg_set_off "$1"; }
cfg_set_on() {
	case $1 in
	none) ;;
	ours) ours_on ;;
	ours_wakeup) lt_load latency_tracker_wakeup $NEVER kthreads=1 ;;
	ours_offcpu) lt_load latency_tracker_offcpu $NEVER kthreads=1 ;;
	ours_syscalls) lt_load latency_tracker_syscalls $NEVER kthreads=1 ;;
	ours_irq) lt_load latency_tracker_irq $NEVER ;;
	bpftrace_irq) bpf_on "$BPF_IRQ" ;;
	ours_netrx) lt_load latency_tracker_net $NEVER ;;
	bpftrace_netrx) bpf_on "$BPF_NETRX" ;;
	ours_lock) lt_load latency_tracker_lock $NEVER initial_events=$LOCK_SLOTS ;;
	ftrace_lock) ftrace_set on FT_LOCK ;;
	ours_excl) ours_on filter_cgroup=/lt_bench_empty ;;
	ours_incl) ours_on filter_cgroup=/ ;;
	base_ours) base_on ;;
	floor) lt_load lt_floor ;;
	ftrace) ftrace_set on FT_EW ;;
	ftrace_wakeup) ftrace_set on FT_WK ;;
	bpftrace) bpf_on "$BPF_EW" ;;
	bpftrace_wakeup) bpf_on "$BPF_WK" ;;
	lttng) [ -n "$LTTNG_READY" ] && lttng start ltbench_ew >/dev/null ;;
	lttng_wakeup) [ -n "$LTTNG_READY" ] && lttng start ltbench_wk >/dev/null ;;
	fn_ours) printf '%s\n' "ltb_fn fn=$CUSTOM_FN $NEVER $CUSTOM_EVENTS" >$LTD/custom ;;
	fn_bpftrace) bpf_on "$BPF_FN" ;;
	fn_synth) ftrace_set on FT_FN ;;
	fn_floor) lt_load lt_floor func=$CUSTOM_FN ;;
	*) return 1 ;;
	esac
}
cfg_check() {
	case $1 in
	ours | base_ours) ours_check wakeup offcpu syscalls ;;
	ours_wakeup | ours_offcpu | ours_syscalls | ours_irq | ours_netrx | ours_lock) ours_check "${1#ours_}" ;;
	bpftrace_irq) bpf_check hardirq_ns vector_ns softirq_ns softirq_latency_ns ;;
	bpftrace_netrx) bpf_check netrx_ns ;;
	ftrace_lock) ftrace_check lock_lat ;;
	ftrace) ftrace_check wakeup_lat offcpu_lat syscall_lat ;;
	ftrace_wakeup) ftrace_check wakeup_latency ;;
	bpftrace) bpf_check wakeup_ns offcpu_ns syscall_ns ;;
	bpftrace_wakeup) bpf_check usecs ;;
	fn_ours) custom_check ltb_fn ;;
	fn_bpftrace) bpf_check fn_ns ;;
	fn_synth) FT_MIN_HITS=$CUSTOM_CALLS ftrace_check fn_lat ;;
	fn_floor) [ "$(cat /sys/module/lt_floor/parameters/events)" -ge "$CUSTOM_CALLS" ] ||
		{ echo "lt_floor's kretprobe returned fewer times than the loop's $CUSTOM_CALLS calls"; return 1; } ;;
	floor) [ "$(cat /sys/module/lt_floor/parameters/events)" -gt 0 ] ||
		{ echo "lt_floor's probes never ran"; return 1; } ;;
	*) return 0 ;;
	esac
}
cfg_set_off() {
	case $1 in
	ours | ours_wakeup | ours_offcpu | ours_syscalls | ours_excl | ours_incl) ours_off ;;
	base_ours) base_off ;;
	floor | fn_floor) lt_loaded lt_floor && lt_unload lt_floor ;;
	ftrace) ftrace_set off FT_EW ;;
	ftrace_wakeup) ftrace_set off FT_WK ;;
	bpftrace | bpftrace_wakeup | fn_bpftrace | bpftrace_irq | bpftrace_netrx) bpf_off ;;
	ftrace_lock) ftrace_set off FT_LOCK ;;
	ours_irq) lt_loaded latency_tracker_irq && lt_unload latency_tracker_irq ;;
	ours_netrx) lt_loaded latency_tracker_net && lt_unload latency_tracker_net ;;
	ours_lock) lt_loaded latency_tracker_lock && lt_unload latency_tracker_lock ;;
	fn_ours) [ ! -d $LTD/ltb_fn ] || printf 'del ltb_fn\n' >$LTD/custom ;;
	fn_synth) ftrace_set off FT_FN ;;
	lttng) lttng stop ltbench_ew >/dev/null ;;
	lttng_wakeup) lttng stop ltbench_wk >/dev/null ;;
	esac
}

# interleave PREFIX REPS RUN CONFIG...: REPS repetitions of "RUN CONFIG
# REP" for every CONFIG, their order turned by one every repetition, each
# repetition's announced first ("PREFIXorder REP CONFIG...", without fn_).
interleave() {
	local prefix=$1 reps=$2 run=$3 r k c order
	shift 3
	local configs=("$@") n=$#
	for ((r = 0; r < reps; r++)); do
		order=()
		for ((k = 0; k < n; k++)); do order+=("${configs[(k + r) % n]}"); done
		out "${prefix}order $((r + 1)) ${order[*]#fn_}"
		for c in "${order[@]}"; do "$run" "$c" "$r"; done
	done
}

# Paired runs: each hackbench and messaging run of these configurations
# (the equal-work ones, and none as the control: its paired slowdown
# should be about 0) has a run of none in the same repetition beside it,
# its base: before the configuration is turned on in even repetitions,
# after it is turned off in odd ones, so that neither side always runs
# first.  The host's pace changes between runs (whole runs about 1.5x
# slower), so a run is compared with its own base.  Printed as
# "paired_WORK_CONFIG BASE RUN", only when both have a time.
PAIRED="none ours ftrace bpftrace lttng floor base_ours"

# base_runs: hackbench and messaging without the configuration, into
# base_hb and base_pm (empty if one printed no time).
base_runs() {
	base_hb=$(hb)
	[ -n "$HAVE_PM" ] && base_pm=$(pm)
	return 0
}

# run_config CONFIG REP: one repetition of CONFIG's workloads, or a fail line.
run_config() {
	local c=$1 rep=$2 t why run_hb= run_pm= base_hb= base_pm= paired=
	[[ " $PAIRED " == *" $c "* ]] && paired=1
	[ -n "$paired" ] && [ $((rep % 2)) = 0 ] && base_runs
	if ! cfg_on "$c"; then
		cfg_off "$c"
		fail "$c: could not be turned on"
		return
	fi
	case $c in
	ours_excl | ours_incl) ;;
	*)
		run_hb=$(hb)
		[ -n "$run_hb" ] && out "hackbench_$c $run_hb" || fail "$c: hackbench printed no time"
		if [ -n "$HAVE_PM" ]; then
			run_pm=$(pm)
			[ -n "$run_pm" ] && out "messaging_$c $run_pm" || fail "$c: perf bench printed no time"
		fi
		;;
	esac
	case $c in
	*_wakeup) ;;
	*)
		t=$(sysloop)
		[ -n "$t" ] && out "sysloop_$c $t" || fail "$c: the system-call loop failed"
		t=$(pingpong)
		[ -n "$t" ] && out "pingpong_$c $t" || fail "$c: the ping-pong loop failed"
		;;
	esac
	# The histograms (and the floor's count) are read before they are taken down.
	case $c in
	ftrace* | ours* | floor | base_ours) why=$(cfg_check "$c") || fail "$c: $why" ;;
	esac
	cfg_off "$c"
	[ "${c#bpftrace}" != "$c" ] && { why=$(cfg_check "$c") || fail "$c: $why"; }
	[ -n "$paired" ] || return 0
	[ $((rep % 2)) = 1 ] && base_runs
	[ -n "$base_hb" ] && [ -n "$run_hb" ] && out "paired_hackbench_$c $base_hb $run_hb" ||
		fail "$c: no paired hackbench runs (base '$base_hb', run '$run_hb')"
	if [ -n "$HAVE_PM" ]; then
		[ -n "$base_pm" ] && [ -n "$run_pm" ] && out "paired_messaging_$c $base_pm $run_pm" ||
			fail "$c: no paired messaging runs (base '$base_pm', run '$run_pm')"
	fi
	return 0
}

# --- 3. scaling ----------------------------------------------------------------------
# pending_start N / pending_wake / pending_stop: lt_pending as a coprocess.
# (Not in $(...): the coprocess must belong to this shell.)
pending_start() {
	local line=
	coproc PEND { exec "$PENDING" "$1" 2>&1; }
	read -r -t 600 line <&"${PEND[0]}" && [ "$line" = "ready $1" ] ||
		{ PEND_WHY="lt_pending $1: ${line:-no answer}"; return 1; }
}
pending_wake() {
	local line
	echo wake >&"${PEND[1]}" && read -r -t 600 line <&"${PEND[0]}" &&
		[ "${line%% *}" = asleep ]
}
pending_stop() {
	local pid=${PEND_PID:-}
	[ -n "$pid" ] || return 0
	eval "exec ${PEND[1]}>&-"
	wait "$pid" 2>/dev/null
	return 0
}
# The pairs measure the table at N pending, not the pool's growth: every
# slot allocated at load (a burst of 10^5 sleepers is faster than growth).
SCALE_EVENTS="max_events=262144 initial_events=262144"
if part scaling; then
	# The growth from the fewest to the most pending keys, ours and the
	# equal-work rhashtable, the four side by side in each round of a
	# run: ours, rht_ew, ours_big, rht_ew_big (impls 1 + 2 + 32 + 64).
	# A run's figures move from one module load to the next (seen: a
	# growth of 1.43 in one, 1.79 in another, each within a few % over its
	# rounds): GROWTH_RUNS runs, their rounds numbered
	# apart (run k's round r is k * 1000 + r) and pooled; a failed pair in
	# any run fails the bench.
	for C in 1 2; do
		[ "$C" -le "$(nproc)" ] || continue
		for ((k = 1; k <= GROWTH_RUNS; k++)); do
			bench_pair "scale_growth_c${C}_" live="${PENDING_LEVELS%% *}" \
				live_big="${PENDING_LEVELS##* }" cpus="$C" \
				rounds="$GROWTH_ROUNDS" pairs=8192 impls=99 |
				awk -v k="$k" '$1 ~ /_hist$/ { $3 = k * 1000 + $3 }
					$1 ~ /_failures_/ && $2 != 0 { print "fail " $1 " " $2 " (growth run " k ")" }
					{ print }'
		done
	done
	# Room for 10^5 sleeping threads (pids and the thread limit).
	echo 4194304 >/proc/sys/kernel/pid_max
	echo 1000000 >/proc/sys/kernel/threads-max
	for N in $PENDING_LEVELS; do
		for C in 1 2; do
			[ "$C" -le "$(nproc)" ] &&
				bench_pair "scale_pair_p${N}_c${C}_" live="$N" cpus="$C" \
					rounds=3 pairs=8192 impls=7
		done
		[ "$SCALE_REPS" -gt 0 ] || continue
		if ! pending_start "$N"; then
			fail "scale_p$N: $PEND_WHY"
			pending_stop
			continue
		fi
		for ((r = 0; r < SCALE_REPS; r++)); do
			for c in $([ $((r % 2)) = 0 ] && echo none ours || echo ours none); do
				if [ $c = ours ] && ! solo ours_on $SCALE_EVENTS; then
					solo ours_off
					fail "scale_p$N: ours did not load"
					continue
				fi
				pending_wake || fail "scale_p$N: lt_pending did not answer"
				if [ $c = ours ]; then
					p=$(stat_of offcpu pending)
					[ "${p:-0}" -ge "$N" ] || fail "scale_p$N: offcpu has ${p:-no} pending events, not $N"
					out "scale_pending_p${N} $p"
				fi
				t=$(taskset -c 0 hackbench -g "$HB_GROUPS" -l "$HB_LOOPS" 2>&1 | awk '/^Time:/ { print $2 }')
				[ -n "$t" ] && out "scale_hackbench_${c}_p${N}_c1 $t" || fail "scale_p$N: hackbench on 1 CPU printed no time"
				t=$(hb)
				[ -n "$t" ] && out "scale_hackbench_${c}_p${N}_c2 $t" || fail "scale_p$N: hackbench printed no time"
				[ $c = ours ] && { why=$(ours_check offcpu) || fail "scale_p$N: $why"; solo ours_off; }
			done
		done
		pending_stop
	done
fi

if part hackbench; then
	read -r -a configs <<<"${LTG_BENCH_CONFIGS:-$ALL_CONFIGS}"
	if [[ " ${configs[*]} " == *" lttng"* ]]; then
		if why=$(solo lttng_setup); then LTTNG_READY=1; else
			solo lttng_teardown >/dev/null
			for c in lttng lttng_wakeup; do
				[[ " ${configs[*]} " == *" $c "* ]] && fail "$c: $why"
			done
		fi
	fi
	out "configs ${configs[*]}"
	[ -z "${LTG_BENCH_BASE:-}" ] || out "base_commit $LTG_BENCH_BASE"
	interleave "" "$REPS" run_config "${configs[@]}"
	if [ -n "$LTTNG_READY" ]; then
		why=$(solo lttng_teardown) || fail "lttng: $why"
		LTTNG_READY=
	fi
fi

# --- 6. custom ----------------------------------------------------------------------
# The cost per call of one function's latency, from its entry to its
# return keyed by the calling task (what funclatency measures), on
# $CUSTOM_FN: called once per read of lt_sysloop, CUSTOM_CALLS times a
# run, while each configuration measures every call in the guest:
#   fn_ours      a custom tracker, fn=$CUSTOM_FN (one kretprobe with an
#                entry handler), its threshold never crossed, room for
#                every event (CUSTOM_EVENTS);
#   fn_bpftrace  a kprobe and a kretprobe, a start map keyed by tid, hist();
#   fn_synth     ftrace's synthetic-event recipe (FT_FN);
#   fn_floor     not a peer: an empty kretprobe with an entry handler on
#                the function (lt_floor func=), every return hooked;
#   none         the control.
# Every one rests on the same kprobes (on the function's ftrace site, the
# return through rethook), the floor's price: what differs is the work of
# the handlers.  The configurations alternate, their order turned by one
# every repetition, and each run has a base run of none beside it in the
# same repetition (before the configuration is turned on in even
# repetitions, after it is turned off in odd ones):
# "custom_paired_CONFIG BASE RUN" (ms, the loop's median batch pace;
# CONFIG without fn_).  A peer that cannot be turned on
# in the first repetition (no bpftrace, a kernel without kprobe or
# synthetic events) is "custom_unavailable PEER why" and left out; any
# later failure is a failure.
CUSTOM_CALLS=300000 # the reads of lt_sysloop.c: 750 x 400
CUSTOM_REPS=${LTG_BENCH_CUSTOM_REPS:-9}
# An ended event's slot is back in the pool a grace period later: at the
# loop's pace (a call every 1-2 us under TCG) the default 4096 slots run
# out, and 3 of 4 calls were refused (dropped: they measured nothing, and
# their return was not hooked).
CUSTOM_EVENTS=max_events=262144
# custom_why CONFIG: why CONFIG could not be turned on, in one line.
custom_why() {
	case $1 in
	fn_bpftrace) echo "bpftrace did not attach: $(tail -n 1 $BPF_OUT)" ;;
	fn_synth) echo "ftrace refused the recipe: $(tail -n 2 $T/error_log | tr '\n' ' ')" ;;
	*) echo "could not be turned on" ;;
	esac
}
# custom_run CONFIG REP: one paired run of CONFIG, or a fail line (none
# for an unavailable peer).
custom_run() {
	local c=$1 rep=$2 name=${1#fn_} base= run= why
	[[ $CUSTOM_OFF != *" $c "* ]] || return 0
	[ $((rep % 2)) = 0 ] && base=$(sysloop)
	if ! cfg_on "$c"; then
		why=$(custom_why "$c")
		cfg_off "$c"
		if [ "$rep" = 0 ] && [[ $c == fn_bpftrace || $c == fn_synth ]]; then
			out "custom_unavailable $name $why"
			CUSTOM_OFF="$CUSTOM_OFF $c "
		else
			fail "custom_$name: $why"
		fi
		return
	fi
	run=$(sysloop)
	[ "$c" = fn_bpftrace ] || { why=$(cfg_check "$c") || fail "custom_$name: $why"; }
	cfg_off "$c"
	[ "$c" != fn_bpftrace ] || { why=$(cfg_check "$c") || fail "custom_$name: $why"; }
	[ $((rep % 2)) = 1 ] && base=$(sysloop)
	[ -n "$base" ] && [ -n "$run" ] && out "custom_paired_$name $base $run" ||
		fail "custom_$name: no paired loop runs (base '$base', run '$run')"
}
if part custom; then
	CUSTOM_OFF=" "
	command -v bpftrace >/dev/null || {
		out "custom_unavailable bpftrace no bpftrace in this guest"
		CUSTOM_OFF=" fn_bpftrace "
	}
	if lt_load latency_tracker_custom; then
		configs=(none fn_ours fn_bpftrace fn_synth fn_floor)
		out "custom_fn $CUSTOM_FN"
		out "custom_calls $CUSTOM_CALLS"
		out "custom_reps $CUSTOM_REPS"
		out "custom_configs ${configs[*]#fn_}"
		interleave custom_ "$CUSTOM_REPS" custom_run "${configs[@]}"
		lt_unload latency_tracker_custom || fail "custom: latency_tracker_custom did not unload"
	else
		fail "custom: latency_tracker_custom did not load: $(dmesg | tail -n 1)"
	fi
fi

# --- 7. application requests ---------------------------------------------------
APP_REPS=${LTG_BENCH_APP_REPS:-9}
APPB=$LT_TOP/build/bench/lt_appbench
APP_SESSIOND=
# app_ust_setup: a snapshot session of the user-space domain recording
# lt_bench_app:* (a sessiond of our own if none runs), or why not.
app_ust_setup() {
	[ -x ${APPB}_ust ] || { echo "lt_appbench_ust not built (no liblttng-ust-dev)"; return 1; }
	command -v lttng-sessiond >/dev/null || { echo "no lttng-sessiond"; return 1; }
	if ! pgrep -x lttng-sessiond >/dev/null; then
		lttng-sessiond --background --no-kernel >/dev/null 2>&1 ||
			{ echo "lttng-sessiond did not start"; return 1; }
		APP_SESSIOND=1
	fi
	lttng create ltbench_app --snapshot >/dev/null &&
	lttng enable-event -u -s ltbench_app 'lt_bench_app:*' >/dev/null &&
	lttng start ltbench_app >/dev/null || { echo "lttng session setup failed"; return 1; }
}
app_run() { # CONFIG REP
	local v
	case $1 in
	floor) v=$("$APPB" floor) ;;
	ioctl) v=$("$APPB" ioctl) ;;
	ours) v=$("$APPB" ours ltb_app) ;;
	ust) [ -z "$APP_UST_OFF" ] || return 0; v=$(${APPB}_ust) ;;
	pp_none) v=$("$LT_TOP/build/bench/lt_pingpong") ;;
	pp_open) v=$("$LT_TOP/build/bench/lt_pingpong_app" ltb_app) ;;
	esac
	[ -n "$v" ] && out "app_ns_$1 $v" || fail "app_$1: no figure (repetition $(($2 + 1)))"
}
if part app; then
	# Room for the requests' rate: slots come back a grace period or two
	# after their end (the pool's sizing rule).
	if lt_load latency_tracker_app &&
		echo "ltb_app app threshold=1000000000000 max_events=1048576" >$LTD/app; then
		out "app_reps $APP_REPS"
		APP_UST_OFF=
		if ! why=$(app_ust_setup); then
			out "app_unavailable ust $why"
			APP_UST_OFF=1
		fi
		interleave app_ "$APP_REPS" app_run floor ioctl ours ust pp_none pp_open
		[ "$(awk '$1 == "over_threshold" { print $2 }' $LTD/ltb_app/stats)" = 0 ] ||
			fail "app: requests over the threshold (the part measures none)"
		lttng destroy ltbench_app >/dev/null 2>&1
		[ -z "$APP_SESSIOND" ] || pkill -x lttng-sessiond
		lt_unload latency_tracker_app || fail "app: latency_tracker_app did not unload"
	else
		fail "app: latency_tracker_app did not load: $(dmesg | tail -n 1)"
	fi
fi

# --- 8. interrupts ------------------------------------------------------------------
# What each configuration adds to an interrupt period on CPU 1: lt_spin's
# fixed computation there takes longer by the work hooked on the
# interrupts that hit it.  Every IRQ_PERIOD_US, lt_irq_load.ko's pinned
# hrtimer fires (the local timer's vector), handles a device interrupt of
# its own (lt_slow_handler, spinning 1 us) and schedules a tasklet that
# spins 1 us: one vector, one handler, one softirq raised and run.
#   ours_irq      latency_tracker_irq, its threshold never crossed;
#   bpftrace_irq  hardirqs' and softirqs' pattern on the same intervals:
#                 handlers and vectors (entry to exit, per CPU), softirq
#                 runs and raise-to-run, each into a histogram;
#   ours_wakeup   the wakeup tracker (its breakdown's per-CPU accounting);
#   none          the control.
# Interleaved as the other parts, IRQ_REPS repetitions, each run printed
# as "irq_run_CONFIG MS PERIODS" (lt_spin's ms; the periods during it, from
# the device interrupt's count on CPU 1 in /proc/interrupts).  The load
# is there only while lt_spin runs, the configuration turned on before it
# and off after it (with CPU 1 offline: solo), so that no CPU goes offline
# under its pinned timer (which would move it to CPU 0 for good).
IRQ_PERIOD_US=100
IRQ_REPS=${LTG_BENCH_IRQ_REPS:-9}
IRQ_PEER_OFF=
BPF_IRQ='tracepoint:irq:irq_handler_entry { @h[cpu] = nsecs; }
tracepoint:irq:irq_handler_exit /@h[cpu]/ { @hardirq_ns = hist(nsecs - @h[cpu]); delete(@h[cpu]); }
tracepoint:irq_vectors:local_timer_entry, tracepoint:irq_vectors:reschedule_entry,
tracepoint:irq_vectors:call_function_entry, tracepoint:irq_vectors:call_function_single_entry,
tracepoint:irq_vectors:irq_work_entry { @v[cpu] = nsecs; }
tracepoint:irq_vectors:local_timer_exit, tracepoint:irq_vectors:reschedule_exit,
tracepoint:irq_vectors:call_function_exit, tracepoint:irq_vectors:call_function_single_exit,
tracepoint:irq_vectors:irq_work_exit /@v[cpu]/ { @vector_ns = hist(nsecs - @v[cpu]); delete(@v[cpu]); }
tracepoint:irq:softirq_raise /!@r[cpu, args->vec]/ { @r[cpu, args->vec] = nsecs; }
tracepoint:irq:softirq_entry {
  $r = @r[cpu, args->vec];
  if ($r) { @softirq_latency_ns = hist(nsecs - $r); delete(@r[cpu, args->vec]); }
  @s[cpu] = nsecs;
}
tracepoint:irq:softirq_exit /@s[cpu]/ { @softirq_ns = hist(nsecs - @s[cpu]); delete(@s[cpu]); }
END { clear(@h); clear(@v); clear(@r); clear(@s); }'
# run_on PART CONFIG REP: CONFIG turned on for a run of PART, or off
# again and the failure said.
run_on() {
	cfg_on "$2" && return 0
	cfg_off "$2"
	fail "$1_$2: could not be turned on (repetition $(($3 + 1)))"
	return 1
}
# run_off PART CONFIG PEER: CONFIG checked and turned off after a run of
# PART; the peer PEER (bpftrace, which prints its maps when it stops)
# checked after.
run_off() {
	local why
	[ "$2" = "$3" ] || { why=$(cfg_check "$2") || fail "$1_$2: $why"; }
	cfg_off "$2"
	[ "$2" != "$3" ] || { why=$(cfg_check "$2") || fail "$1_$2: $why"; }
}
irq_periods() { awk '/lt_slow_handler/ { print $3 }' /proc/interrupts; }
irq_run() { # CONFIG REP
	local c=$1 p0= p1= ms=
	[ "$c" != bpftrace_irq ] || [ -z "$IRQ_PEER_OFF" ] || return 0
	run_on irq "$c" "$2" || return
	if lt_load lt_irq_load cpu=1 period_us=$IRQ_PERIOD_US handler_us=1 softirq_us=1; then
		p0=$(irq_periods)
		ms=$("$LT_TOP/build/bench/lt_spin")
		p1=$(irq_periods)
		lt_unload lt_irq_load || fail "irq: lt_irq_load did not unload"
	else
		fail "irq: lt_irq_load did not load: $(dmesg | tail -n 1)"
	fi
	run_off irq "$c" bpftrace_irq
	[ -n "$ms" ] && [ -n "$p0" ] && [ -n "$p1" ] && [ "$p1" -gt "$p0" ] &&
		out "irq_run_$c $ms $((p1 - p0))" ||
		fail "irq_$c: no run (ms '$ms', periods '$p0' to '$p1')"
}
if part irq; then
	if ! command -v bpftrace >/dev/null; then
		out "irq_unavailable bpftrace_irq no bpftrace in this guest"
		IRQ_PEER_OFF=1
	fi
	out "irq_period_us $IRQ_PERIOD_US"
	out "irq_reps $IRQ_REPS"
	out "irq_configs none ours_irq bpftrace_irq ours_wakeup"
	interleave irq_ "$IRQ_REPS" irq_run none ours_irq bpftrace_irq ours_wakeup
fi

# --- 9. received packets ------------------------------------------------------------
# What each configuration adds to a packet of a loopback UDP stream:
# lt_udpstream sends 100000 datagrams of 64 bytes to itself on CPU 0, each
# read at once, so each takes the whole receive path alone (the backlog's
# netif_receive_skb in the sender's softirq, the socket's queue, the
# copy, the free).
#   ours_netrx      latency_tracker_net, its threshold never crossed (the
#                   ttfb tracker loaded with it sees no TCP);
#   bpftrace_netrx  the same pair keyed by skbaddr: net:netif_receive_skb
#                   into a map, its end where ours ends (the
#                   skb_copy_datagram_iovec tracepoint, and a kprobe on
#                   skb_consume_udp, UDP's copy of a linear skb having no
#                   tracepoint) into a histogram, kfree_skb and
#                   consume_skb deleting;
#   none            the control.
# Interleaved as the other parts, NETRX_REPS repetitions, each run printed
# as "netrx_run_CONFIG MS PACKETS".
NETRX_PACKETS=100000
NETRX_REPS=${LTG_BENCH_NETRX_REPS:-$REPS}
NETRX_PEER_OFF=
# (The skb's address as a u64 everywhere: a kprobe's argument is one, and
# bpftrace wants one key type per map.)
BPF_NETRX='tracepoint:net:netif_receive_skb { @rx[(uint64)args->skbaddr] = nsecs; }
tracepoint:skb:skb_copy_datagram_iovec {
  $k = (uint64)args->skbaddr;
  $s = @rx[$k];
  if ($s) { @netrx_ns = hist(nsecs - $s); delete(@rx[$k]); }
}
kprobe:skb_consume_udp {
  $s = @rx[arg1];
  if ($s) { @netrx_ns = hist(nsecs - $s); delete(@rx[arg1]); }
}
tracepoint:skb:kfree_skb, tracepoint:skb:consume_skb { delete(@rx[(uint64)args->skbaddr]); }
END { clear(@rx); }'
netrx_run() { # CONFIG REP
	local c=$1 ms
	[ "$c" != bpftrace_netrx ] || [ -z "$NETRX_PEER_OFF" ] || return 0
	run_on netrx "$c" "$2" || return
	ms=$("$LT_TOP/build/bench/lt_udpstream")
	run_off netrx "$c" bpftrace_netrx
	[ -n "$ms" ] && out "netrx_run_$c $ms $NETRX_PACKETS" ||
		fail "netrx_$c: no run"
}
if part netrx; then
	if ! command -v bpftrace >/dev/null; then
		out "netrx_unavailable bpftrace_netrx no bpftrace in this guest"
		NETRX_PEER_OFF=1
	fi
	out "netrx_packets $NETRX_PACKETS"
	out "netrx_reps $NETRX_REPS"
	out "netrx_configs none ours_netrx bpftrace_netrx"
	interleave netrx_ "$NETRX_REPS" netrx_run none ours_netrx bpftrace_netrx
fi

# --- 10. kernel locks -------------------------------------------------------------
# What each configuration adds to a contended kernel lock wait: on CPU 0,
# lt_lock_load.ko's "sem N" calls down_timeout() LOCK_N times on a
# semaphore that is never up, with no time to wait: each call is one
# contention_begin and its contention_end, with no sleep and no other
# CPU (a deterministic count of waits, where two writers taking turns on
# a mutex under TCG contended from 58 to 36207 times a run).
#   ours_lock      latency_tracker_lock, its threshold never crossed,
#                  LOCK_SLOTS slots allocated at load;
#   ftrace_lock    the pair by the kernel's histogram triggers (a start
#                  per task at contention_begin, the delay at
#                  contention_end into a synthetic event's log2
#                  histogram; a later begin restarts it);
#   none           the control.
# No bpftrace: attached to lock:contention_*, it hung the guest when the
# bench brought CPU 1 back online after turning it on (solo), three runs
# of three.  Interleaved, LOCK_REPS repetitions, each run printed as
# "lock_run_CONFIG MS WAITS" (the calls' time as the module takes it);
# ours' runs also print "lock_waits N", the waits its tracker matched
# during the run.
LOCK_N=${LTG_BENCH_LOCK_N:-100000}
# Every wait's slot is held for a grace period after its end, and 10^5
# waits come faster than a grace period under TCG: with the pool that
# grows, the tracker dropped up to 59660 of them (the pool cannot grow as
# fast): its slots allocated at load, as docs/design.md says to for a
# burst.
LOCK_SLOTS=131072
LOCK_REPS=${LTG_BENCH_LOCK_REPS:-9}
lock_run() { # CONFIG REP
	local c=$1 t0 t1 m0= m1=
	run_on lock "$c" "$2" || return
	[ "$c" != ours_lock ] || m0=$(stat_of lock matched)
	read -r _ t0 </proc/lt_lock_load
	taskset -c 0 sh -c "echo sem $LOCK_N >/proc/lt_lock_load"
	read -r _ t1 </proc/lt_lock_load
	[ "$c" != ours_lock ] || m1=$(stat_of lock matched)
	run_off lock "$c" -
	out "lock_run_$c $(awk -v d=$((t1 - t0)) 'BEGIN { printf "%.3f", d / 1e6 }') $LOCK_N"
	[ -z "$m0" ] || [ -z "$m1" ] || out "lock_waits $((m1 - m0))"
}
if part lock; then
	if lt_load lt_lock_load; then
		out "lock_n $LOCK_N"
		out "lock_reps $LOCK_REPS"
		out "lock_configs none ours_lock ftrace_lock"
		interleave lock_ "$LOCK_REPS" lock_run none ours_lock ftrace_lock
		lt_unload lt_lock_load || fail "lock: lt_lock_load did not unload"
	else
		fail "lock: lt_lock_load did not load: $(dmesg | tail -n 1)"
	fi
fi

# --- 5. profile (opt-in: LTG_BENCH_PARTS=profile) -------------------------------
# Where the time goes: perf samples the whole guest (cpu-clock at 4 kHz,
# sample-rate throttling off) while one thing runs, and prints
# "note profile NAME PERCENT SYMBOL" lines, the symbols above 0.5 %.
#   pair_ours, pair_rht_ew: lt_bench running that implementation alone,
#     with the pair part's parameters but 100 rounds (about 10^4 samples);
#     the harness's own clock reads between pairs are in both;
#   hackbench_none, hackbench_ours, hackbench_lttng: one hackbench run
#     (the workloads' arguments) with nothing on, and with that equal-work
#     configuration on.  Each profile also prints its number of samples
#     ("note profile NAME samples N"): a symbol's samples, PERCENT x N,
#     compare across profiles (the percentages do not: the runs differ
#     in length), so hackbench_ours less hackbench_none is what ours adds.
# The samples come from a timer interrupt (an emulated CPU has no PMU, so
# no NMI): the time of a region that runs with interrupts off (a scheduler
# tracepoint's probes run under the runqueue lock) is charged to where
# they are enabled again (finish_task_switch, _raw_spin_unlock_irqrestore).
# prof_report NAME DATA: the lines of one profile, by symbol (above
# 0.5 %), then summed by kernel module as /proc/kallsyms names each
# symbol's ("note profile NAME module PERCENT [module] SAMPLES", above
# 0.1 %; [kernel] and [user] for the rest; a symbol name that several
# modules define is counted in one of them).
prof_report() {
	perf report -i "$2" --kallsyms=/proc/kallsyms --no-children \
		--sort sym --stdio -q -n 2>/dev/null >"$2.txt"
	# Lines: PERCENT SAMPLES [k] SYMBOL
	awk -v n="$1" '{ s += $2 } END { print "note profile " n " samples " s + 0 }' "$2.txt"
	awk -v n="$1" '$1 + 0 >= 0.5 && NF >= 4 { p = $1; $1 = ""; $2 = ""; $3 = "";
		sub(/^ +/, ""); print "note profile " n " " p " " $0 }' "$2.txt"
	awk -v n="$1" 'NR == FNR { if ($4 ~ /^\[/) mod[$3] = $4; next }
		NF >= 4 { m = ($4 in mod) ? mod[$4] : ($3 == "[k]" ? "[kernel]" : "[user]");
			tot[m] += $1; cnt[m] += $2 }
		END { for (m in tot) if (tot[m] >= 0.1)
			printf "note profile %s module %.2f%% %s %d\n", n, tot[m], m, cnt[m] }' \
		/proc/kallsyms "$2.txt" | sort -k5 -rn
	rm -f "$2" "$2.txt"
}
prof_pair() {
	local ko data=/tmp/lt_prof.pair_$1
	ko=$(lt_ko lt_bench) || { fail "profile pair_$1: no lt_bench.ko"; return; }
	if perf record -q -a -e cpu-clock -F 4000 -o "$data" -- \
		insmod "$ko" impls="$2" rounds=100 2>/dev/null; then
		# Reported while loaded: lt_bench's own symbols resolve.
		prof_report "pair_$1" "$data"
		lt_unload lt_bench
	else
		fail "profile pair_$1: lt_bench did not load: $(dmesg | grep lt_bench | tail -n 1)"
	fi
}
prof_hackbench() {
	local data=/tmp/lt_prof.hackbench_$1
	if ! cfg_on "$1"; then
		cfg_off "$1"
		fail "profile hackbench_$1: could not be turned on"
		return
	fi
	perf record -q -a -e cpu-clock -F 4000 -o "$data" -- \
		hackbench -g "$HB_GROUPS" -l "$HB_LOOPS" >/dev/null 2>&1 ||
		fail "profile hackbench_$1: perf record failed"
	# Reported while on: the trackers' own symbols resolve.
	prof_report "hackbench_$1" "$data"
	cfg_off "$1"
}
if part profile; then
	if command -v perf >/dev/null; then
		sysctl -q kernel.perf_cpu_time_max_percent=0
		sysctl -q kernel.perf_event_max_sample_rate=100000
		sysctl -q kernel.kptr_restrict=0
		prof_pair ours 1
		prof_pair rht_ew 2
		prof_hackbench none
		prof_hackbench ours
		if why=$(solo lttng_setup); then
			LTTNG_READY=1
			prof_hackbench lttng
			why=$(solo lttng_teardown) || fail "profile hackbench_lttng: $why"
			LTTNG_READY=
		else
			solo lttng_teardown >/dev/null
			fail "profile hackbench_lttng: $why"
		fi
	else
		fail "profile: no perf in this guest"
	fi
fi

# --- 4. alert path -------------------------------------------------------------------
if part alert && lt_load lt_core_test selftest=0; then
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
elif part alert; then
	fail "alert: lt_core_test did not load"
fi
rmdir $CG/lt_bench_empty
lt_unload latency_tracker
[ "$(cat $CS)" = "$CLOCKSOURCE" ] ||
	fail "clocksource: changed from $CLOCKSOURCE to $(cat $CS) during the run: figures before and after are not comparable"
if [ -n "$FAILED" ]; then
	echo "# bench: failed:$FAILED" >&2
	exit 1
fi
exit 0
