#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""contended.py CPU SECONDS WORK_MS SLEEP_MS HOGS - fair tasks competing
for one CPU, the workload of the delayed-dequeue case (Linux >= 6.12):
HOGS busy loops (comm lt_fairhog) and one task (comm lt_contend) that
loops WORK_MS of work then a SLEEP_MS sleep, all SCHED_OTHER pinned on
CPU.  Prints pid=<the sleeper> when it starts, then, when done,
sleeps=<number of sleeps> (each one a wakeup the wakeup tracker must see).
The sleeper is named lt_contend during its loop only (its earlier
wakeups, e.g. python starting, and later ones carry other names)."""
import ctypes
import os
import sys
import time

PR_SET_NAME = 15
libc = ctypes.CDLL(None, use_errno=True)


def name(n):
    libc.prctl(PR_SET_NAME, n.encode(), 0, 0, 0)


def main():
    cpu, secs, work_ms, sleep_ms, hogs = sys.argv[1:6]
    cpu, secs, hogs = int(cpu), float(secs), int(hogs)
    work_ns = int(float(work_ms) * 1e6)
    sleep_s = float(sleep_ms) / 1000
    os.sched_setaffinity(0, {cpu})
    kids = []
    for _ in range(hogs):
        pid = os.fork()
        if pid == 0:
            name("lt_fairhog")
            end = time.monotonic() + secs + 2
            while time.monotonic() < end:
                pass
            os._exit(0)
        kids.append(pid)
    name("lt_contend")
    print(f"pid={os.getpid()}", flush=True)
    sleeps = 0
    end = time.monotonic() + secs
    while time.monotonic() < end:
        t = time.monotonic_ns() + work_ns
        while time.monotonic_ns() < t:
            pass
        time.sleep(sleep_s)
        sleeps += 1
    name("lt_contend_end")  # later wakeups (waitpid) are not counted
    print(f"sleeps={sleeps}", flush=True)
    for pid in kids:
        os.kill(pid, 9)
        os.waitpid(pid, 0)


main()
