#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# explain-pool.sh - a serialisation bottleneck (GAPP; issue 17, scenario
# b): ex-pool's 8 workers on the guest's 2 CPUs spin 100 ms each in
# parallel, then take one pthread mutex 15 times each and spin 2 ms holding
# it.  Explained over the serial phase (the program's own timestamps), for
# the worker that finished last: GAPP's criticality finds the pool's
# process (main + 8 workers, threshold N/2 = 4), flags at least 80% of the
# phase as critical, ranks the mutex first among what the threads waited
# on (more than half the criticality: the rest is the main thread's joins),
# the workers' most critical wait is on the mutex, released by a worker;
# the lock view ranks the mutex first.  Over the parallel phase, less than a
# third is critical (8 threads running or runnable).  (The options, on a
# synthetic snapshot: tests/unit/test_explain_critical.c.)
. tests/guest/lib.sh
. tests/guest/explain-progs/guest.inc
trap ex_cleanup EXIT

tap_plan 18
tap_ok "explain and the scenario programs are built" ex_built || tap_done
tap_ok "lttng kernel tracing usable" ex_lttng_ok || tap_done
tap_ok "snapshot session started" ex_session_start pool
"$EXPROGS/ex-pool" 2 15 100 >"$EX_WORK/pool.out"
snap=$(ex_session_snapshot pool)
tap_ok "snapshot recorded" test -d "$snap"

P=$(ex_val "$EX_WORK/pool.out" pid)
MUTEX=$(ex_val "$EX_WORK/pool.out" mutex)
W=$(ex_val "$EX_WORK/pool.out" last_tid)
PS=$(ex_val "$EX_WORK/pool.out" par_start)
PE=$(ex_val "$EX_WORK/pool.out" par_end)
SS=$(ex_val "$EX_WORK/pool.out" ser_start)
SE=$(ex_val "$EX_WORK/pool.out" ser_end)
WORKERS=$(sed -n 's/^worker_tid=//p' "$EX_WORK/pool.out" | paste -sd, -)
tap_diag "pool $P, workers $WORKERS, mutex $MUTEX; parallel $(( (PE - PS) / 1000 )) us, serial $(( (SE - SS) / 1000 )) us (wall clock); explaining worker $W"

"$EXPLAIN" "$snap" --tid "$W" --at "$SE" --window $((SE - SS)) -o "$EX_WORK/ser" \
	>"$EX_WORK/ser.txt" 2>"$EX_WORK/ser.err"
tap_is "explain (serial phase) exits 0" "$?" 0
sed -n '/^criticality/,/^$/p' "$EX_WORK/ser.txt" | sed 's/^/# /'
sed 's/^/# /' "$EX_WORK/ser.err"
J=$EX_WORK/ser/explain.json
C="r['reports'][0]['criticality']"
tap_is "the application is the pool's process" "$(ex_json "$J" "$C['pids']")" "[$P]"
tap_is "9 threads: main and 8 workers" "$(ex_json "$J" "$C['threads']")" 9
tap_is "threshold N/2 = 4" "$(ex_json "$J" "$C['threshold']")" 4
crit=$(ex_json "$J" "$C['critical_ns']")
tap_diag "critical $((crit / 1000)) us of the serial phase's $(( (SE - SS) / 1000 )) us; in $(ex_json "$J" "$C['nphases']") phases"
tap_cmp "critical >= 80% of the serial phase" $((crit * 10)) -ge $(( (SE - SS) * 8 ))
tap_is "the mutex ranks first by criticality" \
	"$(ex_json "$J" "$C['objects'][0]['object']")" "futex $MUTEX"
tap_cmp "the mutex holds more than half the criticality" \
	$(( $(ex_json "$J" "$C['objects'][0]['criticality_ns']") * 2 )) -gt \
	$(ex_json "$J" "$C['criticality_ns']")
# The main thread's joins are single long waits (each on one worker's
# exit); the workers' most critical wait is on the mutex.
P0="[p for p in $C['periods'] if p['tid'] in [$WORKERS]][0]"
tap_is "the workers' most critical wait is on the mutex" \
	"$(ex_json "$J" "$P0.get('uaddr')")" "$MUTEX"
tap_is "... released by a worker" \
	"$(ex_json "$J" "$P0['waker_tid'] in [$WORKERS]")" True
tap_ok "text: the criticality section names the pool" \
	grep -q "^criticality (GAPP): application ex-pool \[$P\], 9 threads" "$EX_WORK/ser.txt"
tap_is "the lock view ranks the mutex first" \
	"$(ex_json "$J" "r['reports'][0]['locks'][0]['uaddr']")" "$MUTEX"

"$EXPLAIN" "$snap" --tid "$W" --at "$PE" --window $((PE - PS)) --format json \
	>"$EX_WORK/par.json" 2>"$EX_WORK/par.err"
tap_is "explain (parallel phase) exits 0" "$?" 0
pcrit=$(ex_json "$EX_WORK/par.json" "$C['critical_ns']")
tap_diag "parallel phase: critical $((pcrit / 1000)) us of $(( (PE - PS) / 1000 )) us; time by active count $(ex_json "$EX_WORK/par.json" "$C['active_ns']")"
tap_cmp "parallel phase: < 1/3 critical" $((pcrit * 3)) -lt $((PE - PS))
tap_cmp "parallel phase: most of the time 8 or more threads active" \
	$(( $(ex_json "$EX_WORK/par.json" "sum($C['active_ns'][8:])") * 2 )) -gt $((PE - PS))
[ "$_tap_failed" = 0 ] || ex_keep pool pool.out ser ser.txt par.json
tap_done
