# SPDX-License-Identifier: GPL-2.0-only
"""alerts_watch.py ALERTS_FILE READY_FILE GO_FILE - watch a tracker's
`alerts` file the ways latency-trackerd and `latency-tracker follow` do
while the tracker (or its module) is removed:

  - an epoll watcher (registered, not waiting),
  - a thread blocked in epoll_wait() on a second epoll,
  - a thread blocked in poll(),

Writes "ready" to READY_FILE once the kernel shows both threads asleep in
their system call (/proc/self/task/TID/syscall), or back from it with an
event (a loud tracker's alert), waits for GO_FILE (the
caller creates it once the removal has returned), and lets go: joins the
threads, EPOLL_CTL_DEL on both epolls, closes everything.  Prints one line
per watcher and exits 0 when both blocked callers returned with an event
by 30 s after GO_FILE appeared (their own timeout is ten minutes: a
caller the removal did not wake is still blocked then).  A use-after-free
of the file's wait queue shows up in the kernel log (KASAN on the debug
kernel)."""
import os
import platform
import select
import sys
import threading
import time

# x86-64 numbers (the guests' architecture): poll, ppoll, epoll_wait,
# epoll_pwait, epoll_pwait2.
if platform.machine() != "x86_64":
    sys.exit(f"alerts_watch.py: system call numbers of x86_64 only, not {platform.machine()}")
BLOCKING = {7, 271, 232, 281, 441}

path, ready, go = sys.argv[1:4]
fd_e = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
fd_w = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
fd_p = os.open(path, os.O_RDONLY)
ep = select.epoll()
ep.register(fd_e, select.EPOLLIN)
ep_wait = select.epoll()
ep_wait.register(fd_w, select.EPOLLIN)
res = {}
tids = {}


def poller():
    tids["poll"] = threading.get_native_id()
    p = select.poll()
    p.register(fd_p, select.POLLIN)
    ev = p.poll(600000)
    res["poll"] = (ev, time.monotonic())


def epoll_waiter():
    tids["epoll_wait"] = threading.get_native_id()
    ev = ep_wait.poll(600)
    res["epoll_wait"] = (ev, time.monotonic())


def asleep(tid):
    """True when the thread sleeps in one of the blocking calls."""
    try:
        with open(f"/proc/self/task/{tid}/syscall") as f:
            nr = f.read().split()[0]
        with open(f"/proc/self/task/{tid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return nr.isdigit() and int(nr) in BLOCKING and state == "S"


threads = [threading.Thread(target=poller, daemon=True),
           threading.Thread(target=epoll_waiter, daemon=True)]
for t in threads:
    t.start()
deadline = time.monotonic() + 120
while not (len(tids) == 2 and
           all(n in res or asleep(t) for n, t in tids.items())):
    if time.monotonic() > deadline:
        print(f"the watchers did not block: {res}")
        sys.exit(2)
    time.sleep(0.05)
with open(ready, "w") as f:
    f.write("ready\n")
deadline = time.monotonic() + 600
while not os.path.exists(go):
    if time.monotonic() > deadline:
        print("no go file")
        sys.exit(2)
    time.sleep(0.05)
t_go = time.monotonic()
for t in threads:
    t.join(max(0.0, t_go + 30 - time.monotonic()))
ok = True
for name in ("poll", "epoll_wait"):
    ev, when = res.get(name, (None, None))
    print(f"{name}: events={ev}, "
          + ("still blocked 30 s after the go" if when is None else
             f"returned {abs(t_go - when):.2f} s "
             + ("before" if when <= t_go else "after") + " the go"))
    if not ev:
        ok = False
if not ok:
    sys.stdout.flush()
    os._exit(1)  # a thread may still be blocked: no join at exit
ep.unregister(fd_e)  # EPOLL_CTL_DEL: the use-after-free site
ep_wait.unregister(fd_w)
ep.close()
ep_wait.close()
for fd in (fd_e, fd_w, fd_p):
    os.close(fd)
print("released")
sys.exit(0)
