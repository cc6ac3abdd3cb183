#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""fake_custom.py ROOT LOG - a stand-in for the module latency_tracker_custom
in a fake proc root (tests/tools/): ROOT/custom is a FIFO whose every line
written (a definition, or `del NAME`) is appended to LOG and acted on: a
definition makes the tracker's directory ROOT/NAME with the files the
daemon reads (alerts a FIFO, a stats and a histogram file), `del NAME`
removes it.  SIGTERM is the module unloaded: the FIFO and the trackers it
made go, then it exits.

Reading the FIFO: a reader is always open (a writer that opens it with
O_NONBLOCK, as the tools do, never finds none), opened with O_NONBLOCK so
that it never waits for a writer; after a writer closed it (end of file) a
new reader is opened before the old one is closed.  A reader of ROOT/custom
(the tools' listing) gets end of file: no live tracker is listed.
"""
import os
import select
import shutil
import signal
import sys

root, log = sys.argv[1], sys.argv[2]
path = os.path.join(root, "custom")
made = set()
stop = False


def on_term(signum, frame):
    global stop
    stop = True


def mk_tracker(name):
    d = os.path.join(root, name)
    os.makedirs(d, exist_ok=True)
    for f, text in (("threshold", "5000000\n"), ("filter_tgid", "\n"),
                    ("stats", "tracked 3\nmatched 2\nover_threshold 1\n"
                     "min_ns 1500\nmax_ns 1900\navg_ns 1700\nsum_ns 3400\n"),
                    ("histogram", "1024 2047 2\n")):
        with open(os.path.join(d, f), "w") as fh:
            fh.write(text)
    if not os.path.exists(os.path.join(d, "alerts")):
        os.mkfifo(os.path.join(d, "alerts"), 0o600)
    made.add(name)


def handle(line):
    with open(log, "a") as fh:
        fh.write(line + "\n")
    words = line.split()
    if len(words) == 2 and words[0] == "del":
        shutil.rmtree(os.path.join(root, words[1]), ignore_errors=True)
        made.discard(words[1])
    elif words and words[0] != "del":
        mk_tracker(words[0])


def reader():
    return os.open(path, os.O_RDONLY | os.O_NONBLOCK)


signal.signal(signal.SIGTERM, on_term)
os.mkfifo(path, 0o600)
fd = reader()
buf = b""
while not stop:
    try:
        ready, _, _ = select.select([fd], [], [], 0.2)
    except InterruptedError:
        continue
    if not ready:
        continue
    try:
        data = os.read(fd, 65536)
    except BlockingIOError:
        continue
    if not data:
        new = reader()
        os.close(fd)
        fd = new
        continue
    buf += data
    while b"\n" in buf:
        line, buf = buf.split(b"\n", 1)
        handle(line.decode())
os.unlink(path)
os.close(fd)
for name in made:
    shutil.rmtree(os.path.join(root, name), ignore_errors=True)
