#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# demo.sh - guest side of `make demo` (not a test): load the trackers,
# produce a real scheduling-latency outlier (a SCHED_FIFO hog on the CPU of
# a task that wakes up every 10 ms) and an off-CPU one (a 400 ms sleep),
# and show what was caught: the alert records, the off-CPU stack in dmesg,
# the histogram and the stats.  Then latency-trackerd, following only the
# victim, snapshots its next outlier with its default session, and
# `latency-tracker explain` shows the victim's sleeps before it as timer
# waits and, last, the dependency tree of the outlier: CPU 1 -> the hog,
# and its classification naming the hog with its RT priority.
# A DEMO CHECK line (and exit status 1) when the explanation says
# otherwise.
. tests/guest/lib.sh

say() { printf '\n== %s\n' "$*"; }
# python3 running CODE with its comm (task name) set to NAME.
named() { # NAME CODE
	python3 -c "import ctypes; ctypes.CDLL(None).prctl(15, b'$1', 0, 0, 0)
$2"
}
show() { sed 's/^/   /'; }
failed=0
check() { # WHAT CMD...: a property the demo shows; a failure fails the demo
	"${@:2}" || { echo "   DEMO CHECK FAILED: $1"; failed=1; }
}

say "kernel $(uname -r) on $(nproc) CPUs"
lt_load latency_tracker || { echo "cannot load latency_tracker.ko"; exit 1; }
if ! lt_ko latency_tracker_wakeup >/dev/null 2>&1; then
	echo "   the trackers are not built yet; the core is loaded:"
	ls -l /proc/latency_tracker | show
	exit 0
fi
lt_load latency_tracker_wakeup threshold=20000000 || exit 1 # 20 ms
lt_load latency_tracker_offcpu threshold=300000000 || exit 1 # 300 ms
echo "   loaded: latency_tracker_wakeup threshold=20ms, latency_tracker_offcpu threshold=300ms"
ls /proc/latency_tracker | sed 's/^/   \/proc\/latency_tracker\//'

# Readers first: like /dev/kmsg, a reader sees records appended after it opens.
cat /proc/latency_tracker/wakeup/alerts >/tmp/wakeup.alerts &
readers=$!
cat /proc/latency_tracker/offcpu/alerts >/tmp/offcpu.alerts &
readers="$readers $!"
sleep 0.5

say "outlier 1: a SCHED_FIFO hog takes CPU 1 for 400 ms from a task that wakes every 10 ms"
rm -f /tmp/victim.ready /tmp/victim.looping /tmp/hog.ready /tmp/hog.done
# A handshake, as python takes a second to start under emulation: the hog
# (SCHED_FIFO 50 on CPU 1) names itself first, says so, and waits, asleep,
# until the victim sleeps in its loop (state S: a running victim that the
# hog preempted would see no wakeup); then it spins 400 ms.  The victim
# starts its loop of 10 ms sleeps once the hog is named, and ends it once
# the hog's spin is over: its wakeups in the spin wait for the hog, named.
chrt -f 50 taskset -c 1 bash -c "$(declare -f named); named hog '
import os, time
def asleep():
    try:
        pid = open(\"/tmp/victim.ready\").read()
        return open(\"/proc/%s/stat\" % pid).read().rsplit(\")\", 1)[1].split()[0] == \"S\"
    except OSError:
        return False
open(\"/tmp/hog.ready\", \"w\").close()
end = time.monotonic() + 30
while not (os.path.exists(\"/tmp/victim.looping\") and asleep()) and time.monotonic() < end:
    time.sleep(0.002)
end = time.monotonic() + 0.4
while time.monotonic() < end: pass
open(\"/tmp/hog.done\", \"w\").close()'" &
hog=$!
while [ ! -e /tmp/hog.ready ]; do sleep 0.05; done
# The victim writes its own pid (the alerts' pid=), the wrapper's is $!.
taskset -c 1 bash -c "$(declare -f named); named victim '
import os, time
with open(\"/tmp/victim.tmp\", \"w\") as f: f.write(str(os.getpid()))
os.rename(\"/tmp/victim.tmp\", \"/tmp/victim.ready\")
end = time.monotonic() + 30
time.sleep(0.01)
open(\"/tmp/victim.looping\", \"w\").close()
while not os.path.exists(\"/tmp/hog.done\") and time.monotonic() < end:
    time.sleep(0.01)
for _ in range(10): time.sleep(0.01)'" &
victim=$!
wait $hog $victim
echo "   victim pid $(cat /tmp/victim.ready)"

say "outlier 2: a task sleeps 400 ms (off CPU in state S)"
sleep 0.4 &
sleeper=$!
wait $sleeper
echo "   sleeper pid $sleeper"
# Readers are woken at most once per wakeup_interval (1 s by default).
sleep 1.5
kill $readers
wait

say "alerts of the wakeup tracker for the victim (cat /proc/latency_tracker/wakeup/alerts)"
largest=$(grep " comm=victim " /tmp/wakeup.alerts |
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^delay=/) print substr($i, 7), $0 }' |
	sort -n | tail -n 1 | cut -d' ' -f2-)
show <<<"$largest"
echo "   (the largest of $(grep -c " comm=victim " /tmp/wakeup.alerts) alerts for the victim)"
check "the victim's largest alert names the hog as the CPU's holder" \
	grep -q " holder_comm=hog " <<<"$largest"
say "alerts of the off-CPU tracker for the sleeper"
grep " pid=$sleeper " /tmp/offcpu.alerts | show
say "the off-CPU stack in dmesg"
# Kernel threads are not tracked by offcpu by default (kthreads=0): idle
# ones (khugepaged, ...) sleep past any threshold and would take the
# report budget; each process also has its own budget (2 per 5 s).
if dmesg | grep -q "latency_tracker_offcpu: sleep ($sleeper) "; then
	dmesg | grep -A 12 "latency_tracker_offcpu: sleep ($sleeper) " |
		awk 'NR > 1 && !/offcpu:   /{ exit } 1' | show
else
	check "a stack report for the sleeper in dmesg" false
fi
echo "   offcpu: $(awk '$1 == "filtered" { print $2 }' /proc/latency_tracker/offcpu/stats) blockings of kernel threads filtered out (kthreads=0)"
say "wakeup latency histogram (cat /proc/latency_tracker/wakeup/histogram: low_ns high_ns count)"
cat /proc/latency_tracker/wakeup/histogram | show
say "wakeup stats"
cat /proc/latency_tracker/wakeup/stats | show
lt_unload latency_tracker_offcpu

# --- the userspace half: a snapshot of the outlier, and why it was slow ------
. tests/guest/lttng.inc
say "latency-trackerd: an LTTng flight-recorder snapshot of the victim's next outlier"
if ! lt_tools_built || ! lt_lttng_installed || ! sessiond_start; then
	echo "   (LTTng is not usable in this guest: no snapshot)"
	exit 0
fi
# 200 ms: no emulation hiccup of the victim's 20 ms sleeps takes the
# snapshot before the hog does.
echo 200000000 >/proc/latency_tracker/wakeup/threshold
log=$LT_WORK/ltd.json
victims_start 1
victim=${VICTIM_PIDS[0]}
# The victim's own alerts only: the kernel threads the hog delays too
# would otherwise take the snapshot first (one a second, rate limited).
daemon_start "$log" --output "$LT_WORK/snapshots" --trackers wakeup \
	--wakeup.filter_tgid="$victim"
wait_for 60 log_has "$log" '"type":"session","state":"ready"' &&
	wait_for 60 log_has "$log" '"type":"watch"' ||
	echo "   (the daemon did not start watching)"
echo "   latency-trackerd --trackers wakeup --wakeup.filter_tgid $victim (the victim, lt_victim)"
case $(grep -m 1 '"state":"ready"' "$log" | sed -n 's/.*"trace_format":"\([^"]*\)".*/\1/p') in
ctf-1.8) echo "   its session records CTF 1.8 (asked: this LTTng would record CTF 2)" ;;
*) echo "   its session records this LTTng's trace format (CTF 1.8 before LTTng 2.15)" ;;
esac
sleep 0.2
hog_run 400
sleep 0.3
victims_stop
if ! wait_for 60 log_has "$log" "\"type\":\"snapshot\".*\"pid\":$victim,"; then
	echo "   (no snapshot was recorded for the victim; daemon log:)"
	tail -n 5 "$log" | show
	exit 1
fi
line=$(grep '"type":"snapshot"' "$log" | grep -m 1 "\"pid\":$victim,")
alert=$(grep '"type":"alert"' "$log" | grep "\"pid\":$victim," | grep -m 1 '"action":"snapshot"')
snap=$(json "$line" path)
ats=$(json "$alert" ts)
adelay=$(json "$alert" delay)
echo "   the victim's alert: delay $((adelay / 1000)) us; alert -> snapshot start: $(( $(json "$line" latency_ns) / 1000 )) us"
echo "   snapshot: $snap"
say "what babeltrace2 shows around our event in it"
babeltrace2 "$snap" 2>/dev/null | grep -B 3 -A 3 -m 1 'latency_tracker_wakeup' | cut -c 1-200 | show

start=$((ats - adelay))
say "the victim before the hog: its sleeps are timer waits"
echo "   latency-tracker explain $snap --tid $victim --at $start --window 200ms"
$LTC explain "$snap" --tid "$victim" --at "$start" --window 200ms >"$LT_WORK/before.txt" 2>&1
sed -n '/^classification:/,$p' "$LT_WORK/before.txt" | show
check "its timer sleeps are not unknown" bash -c "! grep -q unknown '$LT_WORK/before.txt'"
check "its sleeps are timer waits" awk '/^  [a-z]/ { cat = $1 } cat == "timer" && /clock_nanosleep/ { f = 1 }
	END { exit !f }' "$LT_WORK/before.txt"

say "why was the victim slow?  latency-tracker explain $snap --tid $victim"
$LTC explain "$snap" --tid "$victim" -o "$LT_WORK/explain" >"$LT_WORK/explain.txt" 2>&1
# Its own outlier, down to its dependency tree, and the classification
# that says the same in words: waiting for CPU 1, held by the hog, with
# its RT priority.
sed '/^lock view/,$d' "$LT_WORK/explain.txt" | show
check "the explanation is of the victim's own alert" grep -q "^lt_victim \[$victim\] .*wakeup alert" "$LT_WORK/explain.txt"
check "its tree names CPU $VICTIM_CPU -> lt_hog" \
	bash -c "sed -n '/^waiting dependency graph:/,/^classification:/p' '$LT_WORK/explain.txt' | grep -A 1 -E -- '- CPU $VICTIM_CPU ' | grep -qE -- '- lt_hog \[[0-9]+\]'"
check "nothing in it is unknown" bash -c "! grep -q unknown '$LT_WORK/explain.txt'"
check "its classification names the hog that held CPU $VICTIM_CPU, with its RT priority (50)" \
	grep -qE "waiting for CPU $VICTIM_CPU, held by lt_hog \[[0-9]+\], RT priority 50" "$LT_WORK/explain.txt"
mkdir -p /lt-results/demo-explain
cp "$LT_WORK"/explain/* /lt-results/demo-explain/ 2>/dev/null
daemon_stop
sessiond_stop
lt_unload latency_tracker_wakeup
lt_unload latency_tracker
exit $failed
