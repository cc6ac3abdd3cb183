#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# core-alerts.sh - the `alerts` file per the interface contract: record
# format and escaping, a cursor per open file starting at open time,
# O_NONBLOCK -> EAGAIN, blocking read, poll and epoll, whole lines only,
# the `cause=lost count=N` line after a ring overflow, wakeups rate limited
# by wakeup_interval (leading edge at once, the rest later, none dropped),
# threshold and timeout alerts end to end, a blocked reader released when
# the tracker goes away.  Alerts come from lt_core_test.ko's ctl file.
. tests/guest/lib.sh

D=/proc/latency_tracker/lt_core_test
RING=64
PY_CHECKS=25	# the check() calls of the reader program below

# 2 loads, the reader program's checks and its exit, the blocked reader.
tap_plan $((2 + PY_CHECKS + 1 + 4))
tap_ok "insmod latency_tracker" lt_load latency_tracker
tap_ok "insmod lt_core_test selftest=0 alert_records=$RING" \
	lt_load lt_core_test selftest=0 alert_records=$RING
echo 0 > $D/wakeup_interval

# All reader checks in one python program; it prints TAP-like lines
# "PASS desc" / "FAIL desc" that are turned into TAP below.
python3 - "$D" "$RING" > /tmp/core-alerts.out 2>&1 <<'PY'
import errno, os, re, select, sys, threading, time

D, RING = sys.argv[1], int(sys.argv[2])
A, CTL = D + "/alerts", D + "/ctl"

def check(ok, desc):
    print(("PASS " if ok else "FAIL ") + desc, flush=True)

def ctl(cmd):
    with open(CTL, "w") as f:
        f.write(cmd)

def knob(name, value):
    with open(D + "/" + name, "w") as f:
        f.write(str(value))

def mono_ns():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)

def fields(line):
    return dict(kv.split("=", 1) for kv in line.split(" "))

def read_all_nonblock(fd):
    out = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return out
        if not chunk:
            return out
        out += chunk

def open_nb():
    return os.open(A, os.O_RDONLY | os.O_NONBLOCK)

# Empty, nonblocking: EAGAIN.
fd = open_nb()
try:
    os.read(fd, 4096)
    check(False, "O_NONBLOCK read with nothing to read gives EAGAIN")
except OSError as e:
    check(e.errno == errno.EAGAIN,
          "O_NONBLOCK read with nothing to read gives EAGAIN")

# Records appended before an open are not seen by it.
ctl("alerts 3")
fd2 = open_nb()
try:
    os.read(fd2, 4096)
    check(False, "a new open starts at the ring head (no old records)")
except OSError as e:
    check(e.errno == errno.EAGAIN,
          "a new open starts at the ring head (no old records)")
# ...but an older open sees them, as whole lines.
data = read_all_nonblock(fd)
lines = data.decode().splitlines()
check(len(lines) == 3 and data.endswith(b"\n"),
      "an earlier open reads the 3 records as 3 lines (%d)" % len(lines))
# Record format and escaping.
f = fields(lines[0]) if lines else {}
check(list(f.keys())[:4] == ["ts", "tracker", "cause", "delay"],
      "record starts with ts tracker cause delay (%s)" % lines[:1])
check(f.get("tracker") == "lt_core_test" and f.get("cause") == "threshold"
      and f.get("delay") == "1001" and f.get("seq") == "1",
      "record fields tracker, cause, delay, seq")
check(f.get("str") == r"a\x20b\x3dc\x5c",
      "tracker string field escaped (%s)" % f.get("str"))
now = mono_ns()
ts = int(f.get("ts", "0"))
check(now - 10**10 < ts <= now, "ts is CLOCK_MONOTONIC (%d vs %d)" % (ts, now))
os.close(fd)
os.close(fd2)

# Blocking read: returns once a record arrives (not before it is written:
# both times are taken here, on one clock).
fd = os.open(A, os.O_RDONLY)
t_ctl = []
def late_alert():
    t_ctl.append(time.monotonic())
    ctl("alerts 1")
t0 = time.monotonic()
threading.Timer(0.3, late_alert).start()
data = os.read(fd, 4096)
t_ret = time.monotonic()
check(len(t_ctl) == 1 and t_ret >= t_ctl[0] and data.count(b"\n") == 1
      and data.endswith(b"\n"),
      "blocking read waits for the record written %.2f s later, returns one line"
      % ((t_ctl or [t0])[0] - t0))

# Whole lines only: a buffer shorter than a line gets EINVAL, line kept.
ctl("alerts 2")
try:
    os.read(fd, 10)
    check(False, "read into a 10-byte buffer is refused")
except OSError as e:
    check(e.errno == errno.EINVAL, "read into a 10-byte buffer is refused")
line1 = os.read(fd, 4096)
check(line1.count(b"\n") == 2, "the 2 records are still there afterwards")
os.close(fd)

# poll and epoll.
fd = open_nb()
p = select.poll()
p.register(fd, select.POLLIN)
check(p.poll(0) == [], "poll: not readable when empty")
ep = select.epoll()
ep.register(fd, select.EPOLLIN)
check(ep.poll(0) == [], "epoll: not readable when empty")
threading.Timer(0.2, ctl, ["alerts 1"]).start()
ev = p.poll(5000)
check(ev and ev[0][1] & select.POLLIN, "poll: readable after an alert")
ev = ep.poll(5)
check(ev and ev[0][1] & select.EPOLLIN, "epoll: readable after an alert")
read_all_nonblock(fd)
check(p.poll(0) == [], "poll: not readable once read")
os.close(fd)

# Overflow: a reader that fell behind gets one lost line first.
fd = open_nb()
n = 3 * RING
ctl("alerts %d" % n)
lines = read_all_nonblock(fd).decode().splitlines()
f = fields(lines[0]) if lines else {}
check(f.get("cause") == "lost" and f.get("tracker") == "lt_core_test"
      and list(f.keys()) == ["ts", "tracker", "cause", "count"],
      "first line after an overflow is cause=lost (%s)" % lines[:1])
check(f.get("count") == str(n - RING),
      "lost count = %d (%s)" % (n - RING, f.get("count")))
recs = [fields(l) for l in lines[1:]]
check(len(recs) == RING and recs[0].get("seq") == str(n - RING + 1)
      and recs[-1].get("seq") == str(n),
      "then the %d newest records, in order" % RING)
os.close(fd)
with open(D + "/stats") as st:
    stats = dict(l.split() for l in st)
check(int(stats["alerts_lost"]) >= n - RING,
      "stats alerts_lost counts them (%s)" % stats["alerts_lost"])

# Threshold and timeout alerts end to end (callback -> alert).
fd = open_nb()
ctl("delay 20")
lines = read_all_nonblock(fd).decode().splitlines()
f = fields(lines[-1]) if lines else {}
check(len(lines) == 1 and f.get("cause") == "threshold"
      and int(f.get("delay", 0)) >= 20 * 10**6,
      "20 ms event over 1 ms threshold: one alert, delay >= 20 ms (%s)"
      % f.get("delay"))
knob("timeout", 50 * 10**6)
ctl("pending 1")
time.sleep(0.6)
lines = read_all_nonblock(fd).decode().splitlines()
f = fields(lines[0]) if lines else {}
check(len(lines) == 1 and f.get("cause") == "timeout"
      and int(f.get("delay", 0)) >= 50 * 10**6,
      "pending event: one timeout alert, delay >= 50 ms (%s)" % lines)
knob("timeout", 0)
knob("enable", 0)
knob("enable", 1)
os.close(fd)

# Rate limiting: leading edge at once, the rest at the next allowed time.
INTERVAL = 1.0
knob("wakeup_interval", int(INTERVAL * 1e9))
time.sleep(INTERVAL + 0.2)          # quiet period
fd = os.open(A, os.O_RDONLY)
wakes = []
def reader():
    got = 0
    while got < 4:
        data = os.read(fd, 65536)
        got += data.count(b"\n")
        wakes.append((time.monotonic(), data.count(b"\n")))
th = threading.Thread(target=reader, daemon=True)
th.start()
time.sleep(0.2)
t0 = time.monotonic()
ctl("alerts 1")
time.sleep(0.3)
for _ in range(3):
    ctl("alerts 1")
    time.sleep(0.1)
th.join(10)
print("# wakes: %s" % [(round(t - t0, 3), c) for t, c in wakes])
check(not th.is_alive() and sum(c for _, c in wakes) == 4,
      "rate limited: all 4 alerts delivered")
check(len(wakes) >= 2 and wakes[0][1] == 1 and wakes[0][0] - t0 < 0.3,
      "rate limited: first alert after a quiet period wakes at once")
# The first wakeup (its time kept by the tracker) came after t0, the next
# one at least INTERVAL after it on the same clock (an hrtimer).
check(len(wakes) >= 2 and wakes[1][0] - t0 >= INTERVAL,
      "rate limited: next wakeup not before the interval (%.3f s)"
      % (wakes[1][0] - t0 if len(wakes) >= 2 else -1))
check(len(wakes) == 2, "rate limited: the 3 later alerts in one wakeup")
knob("wakeup_interval", 0)
os.close(fd)
PY
py_rc=$?
tap_results $PY_CHECKS /tmp/core-alerts.out
tap_is "reader program ran to the end" "$py_rc" 0

# A blocked reader is released when the tracker is destroyed.
rm -f /tmp/core-alerts.open
python3 -c '
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
open("/tmp/core-alerts.open", "w").close()
sys.exit(0 if os.read(fd, 4096) == b"" else 1)' $D/alerts &
reader=$!
for _ in $(seq 200); do
	[ -e /tmp/core-alerts.open ] && [ "$(awk '{ print $3 }' /proc/$reader/stat)" = S ] && break
	sleep 0.1
done
sleep 0.2
tap_ok "reader has the file open and sleeps" test -e /tmp/core-alerts.open
tap_ok "rmmod lt_core_test with a blocked reader" lt_unload lt_core_test
wait $reader
tap_is "blocked reader got end of file" "$?" 0
tap_ok "rmmod latency_tracker" lt_unload latency_tracker
tap_done
