# SPDX-License-Identifier: GPL-2.0-only
"""alerts_watch.py ALERTS_FILE READY_FILE GO_FILE - watch a tracker's
`alerts` file the ways latency-trackerd and `latency-tracker follow` do
while the tracker module is removed:

  - an epoll watcher (registered, not waiting),
  - a thread blocked in epoll_wait() on a second epoll,
  - a thread blocked in poll(),

Writes "ready" to READY_FILE once the two threads block, waits for
GO_FILE (the module is gone by then), and lets go: joins the threads,
EPOLL_CTL_DEL on both epolls, closes everything.  Prints one line per
watcher and exits 0 when both blocked callers returned with an event
within 20 s (not their 60 s timeout).  A use-after-free of the file's
wait queue shows up in the kernel log (KASAN on the debug kernel)."""
import os
import select
import sys
import threading
import time

path, ready, go = sys.argv[1:4]
fd_e = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
fd_w = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
fd_p = os.open(path, os.O_RDONLY)
ep = select.epoll()
ep.register(fd_e, select.EPOLLIN)
ep_wait = select.epoll()
ep_wait.register(fd_w, select.EPOLLIN)
res = {}


def poller():
    p = select.poll()
    p.register(fd_p, select.POLLIN)
    t0 = time.monotonic()
    ev = p.poll(60000)
    res["poll"] = (ev, time.monotonic() - t0)


def epoll_waiter():
    t0 = time.monotonic()
    ev = ep_wait.poll(60)
    res["epoll_wait"] = (ev, time.monotonic() - t0)


threads = [threading.Thread(target=poller), threading.Thread(target=epoll_waiter)]
for t in threads:
    t.start()
time.sleep(0.5)  # both threads are in their blocking call by now
with open(ready, "w") as f:
    f.write("ready\n")
deadline = time.monotonic() + 120
while not os.path.exists(go):
    if time.monotonic() > deadline:
        print("no go file")
        sys.exit(2)
    time.sleep(0.05)
for t in threads:
    t.join(30)
ok = True
for name in ("poll", "epoll_wait"):
    ev, took = res.get(name, (None, None))
    print(f"{name}: events={ev} after={took}")
    if not ev or took is None or took > 20:
        ok = False
ep.unregister(fd_e)  # EPOLL_CTL_DEL: the use-after-free site
ep_wait.unregister(fd_w)
ep.close()
ep_wait.close()
for fd in (fd_e, fd_w, fd_p):
    os.close(fd)
print("released")
sys.exit(0 if ok else 1)
