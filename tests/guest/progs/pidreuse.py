#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""pidreuse.py TRACKER_DIR - a blocked task's pid given to another task
between an off-CPU timeout report and the work item that saves the
blocked task's stack.

TRACKER_DIR is the offcpu tracker's procfs directory, loaded with a
timeout (and a threshold far above it).  A victim (comm lt_victim)
sleeps in nanosleep, the only task filter_tgid selects.  Just before its
timeout, SCHED_RR tasks at priority 1 spin on every CPU: the report
work's kworker (SCHED_OTHER) cannot run, while the timer still reports
the timeout (softirq; on PREEMPT_RT the ktimers and irq_work threads,
FIFO 1, which the spinners' round robin lets run; the ksoftirqd threads,
which run the timer's softirq once it is deferred to them under load,
are raised to FIFO 2 for the run).  Once the victim's
timeout record is in the alerts file (opened before, read as it fills),
this process (SCHED_FIFO 50) kills the victim, reaps it,
sets ns_last_pid and forks a task (comm lt_impostor) that gets the
victim's pid and blocks in a pipe read; then the spinners stop and the
work item runs.  RT throttling and the fair server (Linux >= 6.12), which
would run the kworker meanwhile, are off during the run and restored
after it.  Prints victim=<pid> reused=<1 if the impostor got the pid>;
what went wrong, on stderr.  Children write nothing to stdout."""
import ctypes
import glob
import os
import signal
import sys
import time

PR_SET_NAME = 15
libc = ctypes.CDLL(None, use_errno=True)
tdir = sys.argv[1]
RT_RUNTIME = "/proc/sys/kernel/sched_rt_runtime_us"
FAIR = glob.glob("/sys/kernel/debug/sched/fair_server/cpu*/runtime")


def rd(path):
    with open(path) as f:
        return f.read().strip()


def wr(path, val):
    with open(path, "w") as f:
        f.write(str(val))


def victim_reported(fd, pid, seen):
    """Whether the alerts read from fd so far hold pid's timeout record."""
    try:
        seen += os.read(fd, 1 << 16)
    except BlockingIOError:
        pass
    return any(b" cause=timeout " in line and f" pid={pid} ".encode() in line
               for line in seen.split(b"\n"))


def child(name, fn):
    pid = os.fork()
    if pid == 0:
        null = os.open("/dev/null", os.O_RDWR)
        os.dup2(null, 1)
        os.dup2(null, 2)
        libc.prctl(PR_SET_NAME, name, 0, 0, 0)
        try:
            fn()
        finally:
            os._exit(0)
    return pid


def spin(cpu):
    def run():
        os.sched_setaffinity(0, {cpu})
        os.sched_setscheduler(0, os.SCHED_RR, os.sched_param(1))
        while True:
            pass
    return run


def kthreads(prefix):
    """The pids of the kernel threads whose comm starts with prefix."""
    pids = []
    for d in glob.glob("/proc/[0-9]*"):
        try:
            if rd(d + "/comm").startswith(prefix):
                pids.append(int(d[6:]))
        except OSError:
            pass
    return pids


def reap(pid):
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except OSError:
        pass


# The fair servers first, while RT bandwidth is unlimited: their admission
# control then has nothing to refuse.
restore = [(f, rd(f)) for f in FAIR] + [(RT_RUNTIME, rd(RT_RUNTIME))]
spinners = []
# Deferred softirqs (the timer's: the report) must not wait for the
# spinners: ksoftirqd above them for the run, as it was after.
softirqd = [(p, os.sched_getscheduler(p), os.sched_getparam(p))
            for p in kthreads("ksoftirqd/")]
victim = impostor = 0
reused = 0
me = os.getpid()
wr(tdir + "/filter_tgid", me)
os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(50))
try:
    wr(RT_RUNTIME, -1)
    for f in FAIR:
        wr(f, 0)
    for p, _, _ in softirqd:
        os.sched_setscheduler(p, os.SCHED_FIFO, os.sched_param(2))
    go_r, go_w = os.pipe()
    victim = child(b"lt_victim", lambda: (os.read(go_r, 1), time.sleep(60)))
    time.sleep(0.1)                     # blocked in the pipe read: untracked
    wr(tdir + "/filter_tgid", victim)
    alerts = os.open(tdir + "/alerts", os.O_RDONLY | os.O_NONBLOCK)
    seen = bytearray()
    os.write(go_w, b"g")                # now it sleeps, tracked
    time.sleep(0.3)
    spinners = [child(b"lt_spin", spin(c)) for c in os.sched_getaffinity(0)]
    end = time.monotonic() + 10
    while (not victim_reported(alerts, victim, seen) and
           time.monotonic() < end):
        time.sleep(0.01)
    if not victim_reported(alerts, victim, seen):
        print("no timeout reported", file=sys.stderr)
    wr(tdir + "/filter_tgid", me)       # the impostor is not tracked
    reap(victim)
    wr("/proc/sys/kernel/ns_last_pid", victim - 1)
    hold_r, hold_w = os.pipe()
    impostor = child(b"lt_impostor", lambda: os.read(hold_r, 1))
    reused = int(impostor == victim)
    time.sleep(0.05)                    # blocked in the pipe read
finally:
    for p in spinners:
        reap(p)
    for f, v in restore:
        try:
            wr(f, v)
        except OSError as e:
            print(f"cannot restore {f} to {v}: {e}", file=sys.stderr)
    for p, pol, prm in softirqd:
        try:
            os.sched_setscheduler(p, pol, prm)
        except OSError as e:
            print(f"cannot restore ksoftirqd {p}: {e}", file=sys.stderr)
    os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    time.sleep(1)                       # the work item saves a stack
    if impostor:
        reap(impostor)
    if victim and not reused:
        reap(victim)
print(f"victim={victim} reused={reused}", flush=True)
