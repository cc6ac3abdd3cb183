# SPDX-License-Identifier: GPL-2.0-only
#
# oracle/lib.sh - the accuracy oracle's run, shared by the four tests
# tests/guest/oracle-<tracker>.sh (sourced after tests/guest/lib.sh and
# tests/guest/progs/trk.sh, with TRK and TRK_MOD set).  One run:
#
#  1. ftrace on trace_clock=mono (ktime_get_mono_fast_ns(), the trackers'
#     clock) recording ORACLE_EVENTS, trace_marker lines for the window;
#  2. the tracker loaded (after ftrace: on a tracepoint, probes run in the
#     order they were attached, so ftrace's clock read comes first, before
#     our probe's callback queues its irq_work -- a self-IPI, which under
#     single-threaded QEMU TCG hands the host thread to the other vCPU for
#     up to milliseconds of the guest clock), disabled (enable=0), its
#     stats and histogram saved; /proc's task states and kernel threads
#     saved after an "oracle snapshot" mark (oracle.py snapshot);
#  3. an alerts reader, then the tracker enabled between the marks
#     "oracle enable-begin" and "oracle enable-end", the workload, and
#     disabled between "oracle disable-begin" and "oracle disable-end";
#  4. stats and histogram saved again, the tracker unloaded; the trace's
#     per-CPU stats must show no overrun and no dropped event, else the
#     run is repeated with a buffer twice as large (at most ORACLE_TRIES
#     runs), never compared;
#  5. oracle.py compares trace and tracker: ORACLE_RESULTS assertions.
#
# The ftrace state changed here (clock, buffer size, the events, the
# trace) is put back as it was, and tracing is on at the end.

ORACLE_T=/sys/kernel/tracing
ORACLE_PY="python3 tests/guest/oracle/oracle.py"
ORACLE_RESULTS=9
ORACLE_TRIES=2
ORACLE_LOAD=build/progs/oracle_load
ORACLE_EXEC=build/progs/thread_exec

# The debug kernel (KASAN, lockdep: kmemleak is its mark) runs everything
# about 5 times slower: a shorter run there, or wherever LTG_ORACLE_SHORT
# is set.
oracle_short() {
	[ -n "${LTG_ORACLE_SHORT:-}" ] || [ -e /sys/kernel/debug/kmemleak ]
}

# ORACLE_TOL_US: the delay tolerance (see oracle.py's header for what it
# covers); LTG_ORACLE_TOL_US overrides it.
oracle_tol_us() {
	if [ -n "${LTG_ORACLE_TOL_US:-}" ]; then
		echo "$LTG_ORACLE_TOL_US"
	elif oracle_short; then
		echo $((ORACLE_TOL_US * 5))
	else
		echo "$ORACLE_TOL_US"
	fi
}

# The stalls allowed (oracle.py --stall-fraction): a tenth of the pairs;
# a quarter on the debug kernel, whose probes run 5 times longer between
# the two clock reads (under TCG, a stall there is that much likelier).
oracle_stall_fraction() {
	if [ -n "${LTG_ORACLE_STALL_FRACTION:-}" ]; then
		echo "$LTG_ORACLE_STALL_FRACTION"
	elif oracle_short; then
		echo 0.25
	else
		echo 0.10
	fi
}

oracle_mark() { echo "oracle $1" >$ORACLE_T/trace_marker; }

# Saves what oracle_ftrace_on changes; oracle_ftrace_restore puts it back.
oracle_ftrace_save() {
	local e
	ORACLE_SAVED_CLOCK=$(sed -n 's/.*\[\(.*\)\].*/\1/p' $ORACLE_T/trace_clock)
	# "N", or "N (expanded: M)" before the buffer was first used.
	ORACLE_SAVED_KB=$(sed 's/.*expanded: \([0-9]*\).*/\1/' $ORACLE_T/buffer_size_kb)
	ORACLE_SAVED_EV=()
	for e in $ORACLE_EVENTS; do
		ORACLE_SAVED_EV+=("$(cat "$ORACLE_T/events/$e/enable")")
	done
}

oracle_ftrace_restore() {
	local e i=0
	echo 0 >$ORACLE_T/tracing_on
	for e in $ORACLE_EVENTS; do
		echo "${ORACLE_SAVED_EV[$i]:-0}" >"$ORACLE_T/events/$e/enable"
		i=$((i + 1))
	done
	echo >$ORACLE_T/trace
	echo "$ORACLE_SAVED_CLOCK" >$ORACLE_T/trace_clock
	echo "$ORACLE_SAVED_KB" >$ORACLE_T/buffer_size_kb
	echo 1 >$ORACLE_T/tracing_on
}

oracle_ftrace_on() { # buffer_kb
	local e
	echo 0 >$ORACLE_T/tracing_on
	echo mono >$ORACLE_T/trace_clock
	echo "$1" >$ORACLE_T/buffer_size_kb
	echo >$ORACLE_T/trace
	for e in $ORACLE_EVENTS; do echo 1 >"$ORACLE_T/events/$e/enable"; done
	echo 1 >$ORACLE_T/tracing_on
}

# Events the ring buffer lost: overwritten (overrun), refused (dropped),
# or overwritten while being written (commit overrun), all CPUs.
oracle_lost_events() {
	cat $ORACLE_T/per_cpu/cpu*/stats | awk '
		$1 == "overrun:" || $1 == "dropped" || $1 == "commit" { s += $NF }
		END { print s + 0 }'
}

# oracle_once DIR BUFFER_KB WORKLOAD...: one traced run into DIR, the
# tracker loaded with ORACLE_PARAMS; returns 1 when the trace lost
# events, 2 when the tracker did not load or unload.
oracle_once() {
	local dir=$1 kb=$2 lost
	shift 2
	oracle_ftrace_on "$kb"
	trk_load $ORACLE_PARAMS || return 2
	trk_set enable 0
	cat "$(trk_dir)/stats" >"$dir/stats0"
	cat "$(trk_dir)/histogram" >"$dir/hist0"
	# The tracker's own choice of tasks (issue 15's filter), when it has one.
	[ -r "$(trk_dir)/kthreads" ] && cat "$(trk_dir)/kthreads" >"$dir/kthreads"
	oracle_mark snapshot
	$ORACLE_PY snapshot >"$dir/tasks"
	trk_reader_start "$dir/alerts"
	oracle_mark enable-begin
	trk_set enable 1
	oracle_mark enable-end
	"$@"
	oracle_mark disable-begin
	trk_set enable 0
	oracle_mark disable-end
	sleep 0.1
	echo 0 >$ORACLE_T/tracing_on
	trk_reader_stop 0.5
	cat "$(trk_dir)/stats" >"$dir/stats1"
	cat "$(trk_dir)/histogram" >"$dir/hist1"
	trk_unload || return 2
	lt_unload latency_tracker || return 2
	lost=$(oracle_lost_events)
	tap_diag "trace: buffer ${kb} KiB per CPU, $lost events lost"
	[ "$lost" = 0 ]
}

# oracle_run THRESHOLD_NS KTHREADS WORKLOAD...: ORACLE_PLAN assertions
# (the tracker loaded and unloaded, a trace that lost nothing, then
# oracle.py's).  The tracker is loaded with threshold=THRESHOLD_NS and
# ORACLE_PARAMS.  KTHREADS: whether the tracker tracks kernel threads
# (its `kthreads` file when it has one, else the default given).
# ORACLE_MIN_OVER, ORACLE_ROLES, ORACLE_MIN_CLUSTERS: what the workload
# must have made.
ORACLE_PLAN=$((ORACLE_RESULTS + 2))
oracle_run() {
	local thr=$1 kth=$2 dir try kb=$ORACLE_BUF_KB ok=1 tol rc=0
	shift 2
	ORACLE_PARAMS="threshold=$thr ${ORACLE_PARAMS:-}"
	dir=$(mktemp -d)
	tol=$(oracle_tol_us)
	oracle_ftrace_save
	for ((try = 1; try <= ORACLE_TRIES; try++)); do
		oracle_once "$dir" "$kb" "$@"
		rc=$?
		[ $rc = 0 ] && { ok=0; break; }
		[ $rc = 2 ] && break
		tap_diag "run $try: the trace lost events, not compared"
		kb=$((kb * 2))
	done
	[ -s "$dir/kthreads" ] && kth=$(cat "$dir/kthreads")
	tap_is "$TRK: loaded ($ORACLE_PARAMS), disabled, enabled, unloaded" "$((rc == 2))" 0
	tap_is "$TRK: a complete trace (no event lost) in $((try > ORACLE_TRIES ? ORACLE_TRIES : try)) of $ORACLE_TRIES runs" "$ok" 0
	if [ $ok = 0 ]; then
		$ORACLE_PY "$TRK" --trace $ORACLE_T/trace --alerts "$dir/alerts" \
			--stats0 "$dir/stats0" --stats1 "$dir/stats1" \
			--hist0 "$dir/hist0" --hist1 "$dir/hist1" \
			--threshold "$thr" --tol $((tol * 1000)) \
			--kthreads "$kth" --tasks "$dir/tasks" \
			--min-over "${ORACLE_MIN_OVER:-1}" \
			--min-clusters "${ORACLE_MIN_CLUSTERS:-0}" \
			--stall-fraction "$(oracle_stall_fraction)" \
			--roles "${ORACLE_ROLES:-}" >"$dir/results" 2>"$dir/err"
		# Each line a diagnostic of its own (a traceback's lines too).
		tail -n 5 "$dir/err" | while IFS= read -r l; do
			tap_diag "oracle.py: $l"
		done
		tap_results $ORACLE_RESULTS "$dir/results"
		# A failed comparison (any, with LTG_ORACLE_KEEP=1) keeps its
		# inputs next to the test's results (the guest's results
		# share), to be looked into.
		if { grep -q '^FAIL' "$dir/results" || [ -n "${LTG_ORACLE_KEEP:-}" ]; } &&
			[ -w "${ORACLE_KEEP:-/lt-results}" ]; then
			cp -r "$dir" "${ORACLE_KEEP:-/lt-results}/oracle-$TRK.d"
			cp $ORACLE_T/trace "${ORACLE_KEEP:-/lt-results}/oracle-$TRK.d/trace"
			tap_diag "inputs kept: oracle-$TRK.d/ (trace, alerts, stats, histograms, tasks)"
		fi
	else
		for ((try = 0; try < ORACLE_RESULTS; try++)); do
			_tap_result 1 "$TRK: compared (the trace lost events: never compared)"
		done
	fi
	oracle_ftrace_restore
	rm -rf "$dir"
}

# The scheduler workload of the wakeup and offcpu oracles: oracle_load's
# sched scenario (fair tasks sharing CPU 1, migrating tasks, a SCHED_FIFO
# task, children killed while blocked, an exec from a second thread) with
# hackbench beside it; shorter on the debug kernel (oracle_short).
ORACLE_SCHED_SECS=3 ORACLE_SCHED_LOOPS=20
oracle_short && ORACLE_SCHED_SECS=1.5 ORACLE_SCHED_LOOPS=5
ORACLE_SCHED_ROLES=or_fair,or_migr,or_fifo,or_doomed,or_sig,hackbench
oracle_sched_workload() {
	local pid
	$ORACLE_LOAD sched "$ORACLE_SCHED_SECS" "$ORACLE_EXEC" &
	pid=$!
	hackbench -p -g 2 -f 4 -l "$ORACLE_SCHED_LOOPS" >/dev/null 2>&1
	wait $pid
}
