#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""preempted.py MS - a system call preempted on its CPU once it is slow.

A reader (comm lt_longread) on CPU 1 reads 32 MiB from /dev/urandom in
one read(2): hundreds of ms on the CPU without blocking.  MS ms after it
started, a SCHED_FIFO task (comm lt_preempter) woken on CPU 1 preempts
it: the reader leaves the CPU inside a call that is already MS ms old.
Prints pid=<reader>."""
import ctypes
import os
import time

PR_SET_NAME = 15
libc = ctypes.CDLL(None, use_errno=True)
ms = int(os.sys.argv[1])
os.sched_setaffinity(0, {1})
pid = os.fork()
if pid == 0:
    libc.prctl(PR_SET_NAME, b"lt_longread", 0, 0, 0)
    fd = os.open("/dev/urandom", os.O_RDONLY)
    os.read(fd, 32 << 20)
    os._exit(0)
libc.prctl(PR_SET_NAME, b"lt_preempter", 0, 0, 0)
os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
print(f"pid={pid}", flush=True)
time.sleep(ms / 1000)
end = time.monotonic() + 0.005
while time.monotonic() < end:
    pass
os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
os.waitpid(pid, 0)
