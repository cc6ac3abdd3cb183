#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# app.sh - application requests (latency_tracker_app, liblatency-tracker):
#  (1) an application built with pkg-config (progs/app_req.c) marks
#      requests that sleep, compute, wait for a mutex held by another
#      thread, wait for the CPU behind a SCHED_FIFO hog, and one begun and
#      ended on different threads; ftrace records the scheduler events of
#      the run (trace_clock=mono, the tracker's clock); progs/app_check.py
#      checks every slow request's record: its delay against the
#      application's clock, its breakdown against the trace, the
#      kind's dominant part and blocked_top, no breakdown across threads;
#      a begin is no system call (the thread's block of the region): the
#      run's ioctls are its ENDs and one REGISTER per thread;
#  (2) an i386 process marks a request (compat ioctls; its blocking named
#      compat_syscall); the Python binding: an end with no begin is
#      -ENOENT and counted (unmatched), a begin/end pair is recorded;
#  (3) who may mark: a user outside the module's group cannot open the
#      file (EACCES), one in it can mark but not create a tracker
#      (ENOENT) nor write the file (EPERM); root's write defines and
#      deletes one and sets the file's group, bad lines change nothing;
#  (4) requests never ended stay pending and time out: one begun by a
#      thread that exited, one open when the handle was closed; a forked
#      child marks requests with the handle it inherited (its own block);
#      a request ended through another handle of the tracker; one begun
#      again (after its first begin left the CPU) and ended by another
#      thread: timed from the second begin; one on CPU throughout in a
#      time namespace whose CLOCK_MONOTONIC is 1000 s ahead;
#  (5) unloaded under load: 4 threads marking requests while rmmod runs;
#      the calls fail (EIO) and the application completes; no module:
#      the library returns errors and the application completes.
. tests/guest/lib.sh
. tests/guest/progs/trk.sh
TRK=apptest TRK_MOD=latency_tracker_app

T=/sys/kernel/tracing
INST=$T/instances/lt_app
P=/proc/latency_tracker
APP=build/progs/app_req
GID=4242
USR=4243
tap_plan 33

tmp=$(mktemp -d)
# The debug kernel runs everything about 5 times slower.
if [ -e /sys/kernel/debug/kmemleak ]; then TOL_US=2500; else TOL_US=500; fi
MS=20
THRESHOLD=5000000

tap_ok "core loads" lt_load latency_tracker
tap_ok "latency_tracker_app loads with group=$GID" \
	lt_load latency_tracker_app group=$GID
tap_is "the transport file: 0660 root:$GID" \
	"$(stat -c '%a %u:%g' $P/app)" "660 0:$GID"

# (1) Requests against the application's clock and the kernel's trace.
$APP apptest sleep 1 1 $THRESHOLD >/dev/null
tap_is "root's lt_app_open() made the tracker" \
	"$(cat $P/app)" "apptest app threshold=$THRESHOLD timeout=0 max_events=65536"
mkdir -p "$INST"
echo mono >"$INST/trace_clock"
echo 8192 >"$INST/buffer_size_kb"
echo 1 >"$INST/events/sched/sched_switch/enable"
echo 1 >"$INST/events/sched/sched_wakeup/enable"
# The transport's ioctls (BEGIN b902, END b903, REGISTER b904), apart.
IOC=$T/instances/lt_app_ioc
mkdir -p "$IOC"
echo 'cmd >= 0xb902 && cmd <= 0xb904' >"$IOC/events/syscalls/sys_enter_ioctl/filter"
echo 1 >"$IOC/events/syscalls/sys_enter_ioctl/enable"
trk_reader_start "$tmp/alerts"
for k in sleep compute lock hog xthread; do
	echo "kind $k"
	$APP apptest $k 3 $MS $THRESHOLD
done >"$tmp/reqs" 2>"$tmp/reqs.err"
echo 0 >"$INST/tracing_on"
echo 0 >"$IOC/tracing_on"
cat "$INST/trace" >"$tmp/trace"
# (7.3 prints the command with 0x, 6.x without.)
grep -oE 'cmd: (0x)?b90[234]' "$IOC/trace" | sed 's/0x//' | sort | uniq -c >"$tmp/ioctls"
trk_reader_stop
sed 's/^/# /' "$tmp/reqs.err"
tap_is "15 requests, none failed" \
	"$(grep -c '^req .* rb=0 re=0$' "$tmp/reqs")" 15
sed 's/^/# ioctls: /' "$tmp/ioctls"
tap_is "begins are no system call: 20 ENDs (3 requests and a first pair per kind), a REGISTER per thread that began, no BEGIN" \
	"$(awk '{ printf "%s=%s ", $3, $1 }' "$tmp/ioctls")" "b903=20 b904=5 "
rmdir "$IOC"
sed 's/^/# /' "$tmp/alerts"
dropped=$(awk '/entries-dropped|overrun/ { s += $2 } END { print s + 0 }' \
	"$INST/per_cpu/cpu0/stats" "$INST/per_cpu/cpu1/stats")
tap_is "the trace lost nothing" "$dropped" 0
# The kinds' dominant parts (--kinds) are a sanity floor: host load moves
# time between the parts (a stalled vCPU counts as running); the parts
# against the trace are the exact check.  A stall between the
# application's clock read and the kernel's: 5 ms, 25 ms on the debug
# kernel (two of its guests at once stalled a compute request's vCPU
# 15 ms there, on CPU throughout).
STALL_US=5000
[ -e /sys/kernel/debug/kmemleak ] && STALL_US=25000
python3 tests/guest/progs/app_check.py --reqs "$tmp/reqs" \
	--alerts "$tmp/alerts" --trace "$tmp/trace" --threshold $THRESHOLD \
	--tol-us $TOL_US --stall-us $STALL_US \
	--kinds sleep=60 compute=60 lock=50 hog=50 \
	>"$tmp/check" 2>&1
rc=$?
sed 's/^/# /' "$tmp/check"
tap_is "records against the application's clock and the trace (app_check.py)" \
	"$rc $(grep -c '^FAIL' "$tmp/check")" "0 0"
tap_is "every check ran (8 per request, 7 for hog, 4 for xthread, 1, 1 per kind with parts)" \
	"$(grep -c '^ok' "$tmp/check")" 110
rmdir "$INST"

# (2) A 32-bit process (the compat ioctls); the Python binding; an end
# with no begin.
trk_reader_start "$tmp/alerts32"
out=$(build/progs/app_req32 apptest sleep 1 10)
trk_reader_stop
sed 's/^/# /' "$tmp/alerts32"
tap_is "an i386 process marks a request, its blocking named compat_syscall" \
	"$(cut -d' ' -f6- <<<"$out") $(grep -c ' cookie=1 .* blocked_top=compat_syscall$' "$tmp/alerts32")" "rb=0 re=0 1"
trk_reader_start "$tmp/alerts2"
out=$(LT_LIBRARY=build/lib/liblatency-tracker.so.1 PYTHONPATH=lib/python \
	python3 -c '
import latency_tracker as lt, time
a = lt.App("apptest")
print(a.end(77), a.begin(78), end=" ")
time.sleep(0.02)
print(a.end(78))
a.close()' 2>&1)
trk_reader_stop
tap_is "python: end without begin -ENOENT, a pair 0 0" "$out" "-2 0 0"
tap_is "unmatched counted" "$(trk_stat unmatched)" 1
tap_is "the python pair recorded, with its breakdown" \
	"$(grep -c ' cookie=78 .* on_cpu_ns=[0-9]* runnable_ns=[0-9]* blocked_ns=[0-9]* blocked_top=[a-z_]*$' "$tmp/alerts2")" 1

# (3) Who may mark.
tap_is "a user outside the group: EACCES" \
	"$(setpriv --reuid=$USR --regid=$USR --clear-groups $APP apptest sleep 1 1 | head -n1)" \
	"open errno=13"
tap_is "a user in the group marks requests" \
	"$(setpriv --reuid=$USR --regid=$USR --groups=$GID $APP apptest sleep 1 10 | cut -d' ' -f6-)" \
	"rb=0 re=0"
tap_is "a user in the group cannot create a tracker: ENOENT" \
	"$(setpriv --reuid=$USR --regid=$USR --groups=$GID $APP nosuch sleep 1 1 | head -n1)" \
	"open errno=2"
tap_is "nor write the file: EPERM, nothing changes" \
	"$(setpriv --reuid=$USR --regid=$USR --groups=$GID python3 -c "
import os
fd = os.open('$P/app', os.O_WRONLY)
os.write(fd, b'del apptest\n')" 2>&1 | grep -c 'Errno 1. Operation not permitted') $(cat $P/app | wc -l)" \
	"1 1"
for bad in "Bad app" "x" "x threshold=5" "x app threshold=0" \
	"x app threshold=5 junk=1" "x app max_events=0" "x app app" \
	"x app timeout=1 timeout=1" "del nosuch" "wakeup app" \
	"x app timeout=12" "apptest app" "group x" "group 4294967295" \
	"x fn=vfs_read" "x app stack=1"; do
	echo "$bad" >$P/app 2>/dev/null && echo "accepted: $bad"
done >"$tmp/bad"
tap_is "bad lines refused, nothing changes" "$(cat "$tmp/bad")$(cat $P/app | wc -l)" 1
echo "group 4244" >$P/app
tap_is "root's 'group GID' line: the file's group, and the old group's members refused" \
	"$(stat -c '%a %u:%g' $P/app) $(setpriv --reuid=$USR --regid=$USR --groups=$GID $APP apptest sleep 1 1 | head -n1)" \
	"660 0:4244 open errno=13"
echo "group $GID" >$P/app
echo "app2 app timeout=1000000000 threshold=1000000" >$P/app
tap_is "root defines one" "$(grep -c '^app2 app threshold=1000000 timeout=1000000000 max_events=65536$' $P/app) $(ls $P/app2/alerts)" \
	"1 $P/app2/alerts"
echo "del app2" >$P/app
tap_is "and deletes it" "$(grep -c app2 $P/app) $(ls -d $P/app2 2>&1 | grep -c 'No such')" "0 1"

# (4) Requests never ended; a forked child.
trk_set timeout 100000000
trk_reader_start "$tmp/alerts4"
out=$($APP apptest orphan 1 0)
sleep 0.5
$APP apptest fork 1 $MS >"$tmp/fork"
trk_reader_stop
trk_set timeout 0
sed 's/^/# /' "$tmp/alerts4" "$tmp/fork"
tap_is "requests never ended (their thread exited; the handle closed) time out" \
	"$out $(grep -c 'cause=timeout .* cookie=600[12] ' "$tmp/alerts4")" "orphan rb=0 rb=0 2"
tap_is "a forked child marks requests with the inherited handle" \
	"$(grep -c '^req .* rb=0 re=0$' "$tmp/fork")" 2
tap_is "each recorded under its own process, with its breakdown" \
	"$(for c in 7001 7002; do
		tid=$(sed -n "s/^req cookie=$c tid=\([0-9]*\) .*/\1/p" "$tmp/fork")
		grep -c "cause=threshold .* pid=$tid tgid=$tid .* cookie=$c .* blocked_top=clock_nanosleep$" "$tmp/alerts4"
	done | tr '\n' ' ')" "1 1 "
trk_reader_start "$tmp/alerts5"
$APP apptest handles 2 $MS $THRESHOLD >"$tmp/more"
$APP apptest restart 2 $MS $THRESHOLD >>"$tmp/more"
unshare --time --monotonic=1000 --fork $APP apptest compute 1 $MS $THRESHOLD >>"$tmp/more"
trk_reader_stop
sed 's/^/# /' "$tmp/alerts5" "$tmp/more"
# span_check COOKIE...: the record of each, its delay within [MS, span]
# of its req line (each lasts MS ms by construction; the host may stall
# the application's clock reads away from the kernel's by more than any
# tight tolerance: app_check.py is the exact check).
span_check() {
	local c line b e d
	for c in "$@"; do
		line=$(grep "^req cookie=$c .* rb=0 re=0$" "$tmp/more")
		b=$(sed -n 's/.* begin=\([0-9]*\) .*/\1/p' <<<"$line")
		e=$(sed -n 's/.* end=\([0-9]*\) .*/\1/p' <<<"$line")
		d=$(sed -n "s/.* delay=\([0-9]*\) .* cookie=$c .*/\1/p" "$tmp/alerts5")
		if [ -n "$b" ] && [ -n "$d" ] && [ "$d" -le $((e - b)) ] &&
			[ "$d" -ge $((MS * 1000000)) ]; then
			echo "ok $c"
		else
			echo "off $c: delay ${d:-none}, span $((e - b))"
		fi
	done | tr '\n' ' '
}
tap_is "ended through another handle of the tracker: recorded, on CPU throughout" \
	"$(span_check 8001 8002)$(grep -c ' cookie=800[12] .* blocked_ns=0 blocked_top=-$' "$tmp/alerts5")" \
	"ok 8001 ok 8002 2"
tap_is "begun again, ended by another thread: timed from the second begin" \
	"$(span_check 9001 9002)" "ok 9001 ok 9002 "
tap_is "in a time namespace (CLOCK_MONOTONIC + 1000 s): its delay" \
	"$(span_check 1001)" "ok 1001 "

# (5) Unloaded under load, then no module.
$APP apptest churn 200000 0 >"$tmp/churn" 2>&1 &
churn=$!
sleep 1
tap_ok "rmmod under load" lt_unload latency_tracker_app
wait $churn
rc=$?
sed 's/^/# /' "$tmp/churn"
tap_is "the application completes" "$rc $(grep -c '^churn ok=[1-9][0-9]* err=[0-9]*$' "$tmp/churn")" "0 1"
tap_is "without the module: errors, and the application completes" \
	"$($APP apptest sleep 1 1; echo rc=$?)" \
	"open errno=2
null rb=-22 re=-22
rc=0"
tap_ok "reload" lt_load latency_tracker_app
tap_ok "unload" lt_unload latency_tracker_app
tap_ok "the core unloads after it" lt_unload latency_tracker
tap_keep "$tmp" app
rm -rf "$tmp"
tap_done
