#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""relock.py FILE HOLD_MS - a waiter that blocks twice in one system call.

A holder (SCHED_FIFO, comm lt_holder) and a waiter (comm lt_relock) share
CPU 1.  The holder takes an flock on FILE, keeps it HOLD_MS, unlocks and
at once locks again (the waiter, woken, cannot preempt it), keeps it
HOLD_MS more and unlocks.  The waiter's one flock(LOCK_EX) call is thus
woken after HOLD_MS, finds the lock taken and blocks again: it leaves
the CPU a second time inside a call that is already HOLD_MS old.
Prints pid=<waiter>."""
import ctypes
import fcntl
import os
import sys
import time

PR_SET_NAME = 15
libc = ctypes.CDLL(None, use_errno=True)
path, hold = sys.argv[1], int(sys.argv[2]) / 1000
os.sched_setaffinity(0, {1})
fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
pid = os.fork()
if pid == 0:
    libc.prctl(PR_SET_NAME, b"lt_relock", 0, 0, 0)
    wfd = os.open(path, os.O_RDWR)
    fcntl.flock(wfd, fcntl.LOCK_EX)
    os._exit(0)
libc.prctl(PR_SET_NAME, b"lt_holder", 0, 0, 0)
os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
print(f"pid={pid}", flush=True)
time.sleep(hold)
fcntl.flock(fd, fcntl.LOCK_UN)
fcntl.flock(fd, fcntl.LOCK_EX)
time.sleep(hold)
fcntl.flock(fd, fcntl.LOCK_UN)
os.waitpid(pid, 0)
