#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""custom_load.py - workloads of known latency for the custom tracker tests
(custom.sh).  Each prints pid=<its pid> once it is ready, waits for SIGUSR1
(sigwait: a system call, no read), then runs and exits.

  fifo FIFO MS[,MS...]   thread lt_fiford blocks in read(2) on the FIFO
                         (created), once per MS; thread lt_fifowr, once it
                         knows the reader is about to read, sleeps MS and
                         writes one byte: each read blocks about MS
  sleep MS[,MS...]       clock_nanosleep(2) of each MS in turn (comm
                         lt_sleeper)

The main thread is named lt_custom.
"""
import ctypes
import os
import signal
import sys
import threading
import time

PR_SET_NAME = 15
libc = ctypes.CDLL(None, use_errno=True)


def set_name(name):
    libc.prctl(PR_SET_NAME, name.encode(), 0, 0, 0)


def ready():
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
    print(f"pid={os.getpid()}", flush=True)
    signal.sigwait({signal.SIGUSR1})


def fifo(path, delays):
    os.mkfifo(path)
    fd = os.open(path, os.O_RDWR)
    about_to_read = threading.Event()

    def reader():
        set_name("lt_fiford")
        for _ in delays:
            about_to_read.set()
            os.read(fd, 1)

    def writer():
        set_name("lt_fifowr")
        for ms in delays:
            about_to_read.wait()
            about_to_read.clear()
            time.sleep(ms / 1000)
            os.write(fd, b"x")

    ready()
    threads = [threading.Thread(target=reader), threading.Thread(target=writer)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    os.close(fd)
    os.unlink(path)


def sleep(delays):
    set_name("lt_sleeper")
    ready()
    for ms in delays:
        time.sleep(ms / 1000)


def main():
    set_name("lt_custom")
    if len(sys.argv) == 4 and sys.argv[1] == "fifo":
        fifo(sys.argv[2], [int(d) for d in sys.argv[3].split(",")])
    elif len(sys.argv) == 3 and sys.argv[1] == "sleep":
        sleep([int(d) for d in sys.argv[2].split(",")])
    else:
        sys.exit(__doc__)


main()
