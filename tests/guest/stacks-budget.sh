#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# stacks-budget.sh - the offcpu tracker's dmesg stacks are rate limited per
# process (tgid) on top of a global cap, so that noisy processes cannot
# starve the others: with a dozen processes each sleeping past the
# threshold every 400 ms, a task's own 400 ms sleep still gets its stack
# printed in at least 19 of 20 repetitions; each noisy process gets at most
# its budget; the reports held back are counted and said when printing
# resumes.  With filter_tgid set to a watched process, its every sleep (20
# of 20, far beyond one process's budget) gets its stack: a task selected
# by a filter always does.
# First, the first print interval of the clock: loaded with print_interval
# at its maximum (1 h), the tracker is in the clock's interval 0 for the
# first hour after boot, as every tracker loaded at boot is for the
# first print_interval; a task's sleep past the threshold gets its stack.
. tests/guest/lib.sh
. tests/guest/progs/trk.sh
TRK=offcpu TRK_MOD=latency_tracker_offcpu

PROG=build/progs/sleeploop
THRESHOLD=300000000		# 300 ms
REPS=20
NOISY=12
INTERVAL_S=2			# print_interval, set below (default 5 s)
TGID_BURST=2			# LT_PRINT_TGID_BURST

# hdr COMM PID: the dmesg header of a stack report of that task.
hdr() { echo "latency_tracker_offcpu: $1 ($2) [0-9]* us$"; }

# count_reports < LOG: reports[COMM:PID] = the stack reports of each task
# in LOG, in one pass (a grep per task costs seconds on the debug kernel
# under TCG once the log is large).
declare -A reports
count_reports() {
	local n key
	reports=()
	while read -r n key; do
		reports[$key]=$n
	done < <(sed -n 's/^latency_tracker_offcpu: \(.*\) (\([0-9]*\)) [0-9]* us$/\1:\2/p' |
		sort | uniq -c)
}

# wait_report HDR MARK: waits up to 5 s for the stack report HDR after MARK.
wait_report() {
	local i
	for i in $(seq 50); do
		kmsg_since "$2" | grep -q "$1" && return 0
		sleep 0.1
	done
	return 1
}

tap_plan 14
# 0. Interval 0 of the clock (CLOCK_MONOTONIC: the time since boot).
up=$(cut -d. -f1 /proc/uptime)
tap_diag "uptime ${up} s: $([ "$up" -lt 3590 ] && echo "inside" || echo "past") the first 1 h print interval"
tap_ok "load (threshold 300 ms, print_interval 1 h)" \
	trk_load threshold=$THRESHOLD print_interval=3600000000000
mark=$(kmsg_mark)
sleep 0.4 &
first=$!
wait $first
tap_ok "interval 0: a sleep's stack is printed" wait_report "$(hdr sleep $first)" "$mark"
tap_ok "unload" trk_unload

tap_ok "load (threshold 300 ms, print_interval $INTERVAL_S s, no filter)" \
	trk_load threshold=$THRESHOLD print_interval=$((INTERVAL_S * 1000000000))
tap_is "no filter set" "$(cat "$(trk_dir)/filter_tgid")$(cat "$(trk_dir)/filter_cgroup")" ""

noisy=()
for i in $(seq $NOISY); do
	$PROG lt_noise 400 0 0 >/dev/null &
	noisy+=($!)
done
sleep $((INTERVAL_S + 1))	# the noise uses up whole intervals first

# 1. No filter: a fresh sleep(1) process per repetition, among the noise.
# The log is read once, after the last repetition: each read of
# /dev/kmsg costs a system call per record, and the noise adds some 80
# records a second (reading it after every repetition took 354-603 s on
# the debug kernel under TCG, against the 600 s a test is given).
start_mark=$(kmsg_mark)
t0=$SECONDS
sleeps=()
for _ in $(seq $REPS); do
	sleep 0.4 &
	sleeps+=($!)
	wait $!
	sleep 0.2
done
# A report is printed by a work item after its grant: wait for the last
# sleep's, or 5 s when it is one of those missed.
for _ in $(seq 50); do
	kmsg_since "$start_mark" | grep -q "$(hdr sleep "${sleeps[-1]}")" && break
	sleep 0.1
done
log=$(kmsg_since "$start_mark")
elapsed=$((SECONDS - t0))
count_reports <<<"$log"
printed=0 missed=
for spid in "${sleeps[@]}"; do
	if [ "${reports[sleep:$spid]:-0}" -ge 1 ]; then
		printed=$((printed + 1))
	else
		missed="$missed $spid"
	fi
done
tap_diag "no filter: $printed of $REPS printed in $elapsed s (missed:${missed:- none})"
tap_cmp "no filter, $NOISY noisy processes: the sleep's stack in >= 19 of $REPS" \
	"$printed" -ge 19
# Each noisy process: at most its budget per interval, and its share: at
# least one.  The stacks in the log were granted from one interval before
# the mark (a report is printed by a work item, after the grant: the next
# interval's lines can carry the last grants of the one before) up to the
# log's reading; that is at most (elapsed + 1) / interval + 3 intervals
# ($SECONDS counts whole seconds: elapsed is short by less than one).
# Without the per-process budget a noisy process gets about 4 per
# interval (one per 400 ms sleep: 5, the 12 of them sharing the global
# cap of 48).
most=0 least=1000000
for p in "${noisy[@]}"; do
	n=${reports[lt_noise:$p]:-0}
	[ "$n" -gt $most ] && most=$n
	[ "$n" -lt $least ] && least=$n
done
tap_diag "stacks per noisy process: $least..$most"
tap_cmp "a noisy process printed at most $TGID_BURST stacks per interval" \
	"$most" -le $((TGID_BURST * ((elapsed + 1) / INTERVAL_S + 3)))
tap_cmp "every noisy process got stacks too" "$least" -ge 1
tap_ok "suppressed reports counted when printing resumed" \
	grep -qE "latency_tracker_offcpu: [0-9]+ stack reports suppressed" <<<"$log"

# 2. filter_tgid: one watched process sleeps 400 ms 20 times in a row
# (spinning 100 ms between), far more than one process's budget.
fifo=$(mktemp -u)
mkfifo "$fifo"
(read -r _ <"$fifo"; exec $PROG lt_watched 400 100 $REPS >/dev/null) &
watched=$!
tap_ok "filter_tgid set to the watched process" trk_set filter_tgid $watched
sleep 0.5	# reports of the noise already queued are printed
mark=$(kmsg_mark)
echo go >"$fifo"
wait $watched
sleep 1
count_reports < <(kmsg_since "$mark")
tap_is "filter_tgid: the watched process's stack in $REPS of $REPS sleeps" \
	"${reports[lt_watched:$watched]:-0}" $REPS
noise=0
for p in "${noisy[@]}"; do
	noise=$((noise + ${reports[lt_noise:$p]:-0}))
done
tap_is "the noise is filtered out: no stack of it" "$noise" 0
rm -f "$fifo"

kill "${noisy[@]}"
wait "${noisy[@]}" 2>/dev/null
tap_ok "unload" trk_unload
tap_ok "core unloads" lt_unload latency_tracker
tap_done
