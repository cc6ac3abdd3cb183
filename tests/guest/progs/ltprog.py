#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""ltprog.py - workloads with a known latency for the tracker guest tests.

Each subcommand names its threads (prctl PR_SET_NAME) so that alerts can be
matched by comm, prints the thread ids the test needs ("key=value" lines,
flushed at once), then runs.

  victim CPU PRIO PERIOD_MS COUNT   SCHED_FIFO PRIO on CPU, sleeps PERIOD_MS
                                    COUNT times (comm lt_victim)
  woken CPU WCPU PRIO PERIOD_MS COUNT
                                    thread lt_victim, SCHED_FIFO PRIO on CPU,
                                    blocks on a pipe read COUNT times; the
                                    main thread (lt_pinger, on WCPU) writes
                                    every PERIOD_MS: remote wakeups
  hog CPU PRIO BUSY_MS              SCHED_FIFO PRIO on CPU, spins BUSY_MS
                                    (comm lt_hog)
  pipe DELAY_MS                     thread lt_reader blocks on a pipe read;
                                    thread lt_writer, once it sees it
                                    blocked, sleeps DELAY_MS and writes
  nanosleep MS                      one nanosleep(2) of MS (comm lt_sleeper)
  wakers THREADS SECONDS            THREADS threads sleeping 1 ms in a loop
                                    (many concurrent wakeups; comm lt_waker)
"""
import ctypes
import os
import sys
import threading
import time

PR_SET_NAME = 15
SYS_READ = 0  # x86_64
SYS_NANOSLEEP = 35

libc = ctypes.CDLL(None, use_errno=True)


def set_name(name):
    libc.prctl(PR_SET_NAME, name.encode(), 0, 0, 0)


def out(**kv):
    for k, v in kv.items():
        print(f"{k}={v}", flush=True)


def rt(cpu, prio):
    os.sched_setaffinity(0, {cpu})
    os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(prio))


def victim(cpu, prio, period_ms, count):
    set_name("lt_victim")
    rt(int(cpu), int(prio))
    out(pid=os.getpid())
    for _ in range(int(count)):
        time.sleep(int(period_ms) / 1000)


def woken(cpu, wcpu, prio, period_ms, count):
    rfd, wfd = os.pipe()
    started = threading.Event()

    def victim_thread():
        set_name("lt_victim")
        rt(int(cpu), int(prio))
        out(pid=threading.get_native_id())
        started.set()
        for _ in range(int(count)):
            os.read(rfd, 1)

    t = threading.Thread(target=victim_thread)
    t.start()
    set_name("lt_pinger")
    os.sched_setaffinity(0, {int(wcpu)})
    started.wait()
    for _ in range(int(count)):
        time.sleep(int(period_ms) / 1000)
        os.write(wfd, b"x")
    t.join()


def hog(cpu, prio, busy_ms):
    set_name("lt_hog")
    rt(int(cpu), int(prio))
    out(pid=os.getpid())
    end = time.monotonic() + int(busy_ms) / 1000
    while time.monotonic() < end:
        pass


def blocked_in_read(tid):
    """True when thread tid of this process sleeps in read(2)."""
    task = f"/proc/self/task/{tid}/"
    with open(task + "stat") as f:
        state = f.read().rsplit(")", 1)[1].split()[0]
    with open(task + "syscall") as f:
        nr = f.read().split()[0]
    return state == "S" and nr == str(SYS_READ)


def pipe(delay_ms):
    rfd, wfd = os.pipe()
    ready = threading.Event()
    tids = {}

    def reader():
        set_name("lt_reader")
        tids["reader_tid"] = threading.get_native_id()
        ready.set()
        os.read(rfd, 1)

    def writer():
        set_name("lt_writer")
        tids["writer_tid"] = threading.get_native_id()
        ready.wait()
        # The reader's off-CPU time must hold the whole delay (a sleep on
        # CLOCK_MONOTONIC, the tracker's clock): start it once the reader
        # has blocked.
        while not blocked_in_read(tids["reader_tid"]):
            time.sleep(0.001)
        time.sleep(int(delay_ms) / 1000)
        os.write(wfd, b"x")

    threads = [threading.Thread(target=reader), threading.Thread(target=writer)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out(**tids)


class Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


def nanosleep(ms):
    set_name("lt_sleeper")
    out(pid=os.getpid(), nr=SYS_NANOSLEEP)
    ms = int(ms)
    ts = Timespec(ms // 1000, (ms % 1000) * 1000000)
    if libc.syscall(SYS_NANOSLEEP, ctypes.byref(ts), None) != 0:
        sys.exit(f"nanosleep: errno {ctypes.get_errno()}")


def wakers(threads, seconds):
    end = time.monotonic() + float(seconds)

    def loop():
        set_name("lt_waker")
        while time.monotonic() < end:
            time.sleep(0.001)

    ts = [threading.Thread(target=loop) for _ in range(int(threads))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()


if __name__ == "__main__":
    cmds = {"victim": victim, "woken": woken, "hog": hog, "pipe": pipe,
            "nanosleep": nanosleep, "wakers": wakers}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[sys.argv[1]](*sys.argv[2:])
