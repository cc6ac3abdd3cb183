#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""lock_check.py - the lock tracker's records against the kernel's trace
of the same run (lock:contention_begin/end, trace_clock mono).

Usage: lock_check.py TRACE ALERTS WAITERS THRESHOLD_NS TOL_US

WAITERS has one line per waiting task: `PID LOCK HOLDER_PID` (LOCK: the
lt_lock_load.ko lock it waited for).  A wait of the trace runs from a
task's first contention_begin on a lock (by the trace's hashed pointer)
to its contention_end on that lock; later begins of the same wait (a
mutex's, after its spin and after each wakeup) are counted in `multi`.

The lock of LOCK in the trace: the pointer of most of its waiters'
longest waits (a waiter may also wait for other locks: on PREEMPT_RT,
where spinlock_t sleeps, for tasklist_lock in fork).

Prints one line per LOCK, `LOCK waits=N over=O records=R matched=M
within=W missed=X multi=U owner=K other=T names=NAMES kinds=KINDS`: the
waiters' waits for that lock in the trace, those over the threshold by
more than TOL_US, the waiters' records but those of another lock's wait,
those with the trace's wait (the task's wait that ends within
max(5 ms, 3 * TOL_US) of the record's time), those of them within TOL_US of it, the waits over the
threshold without a record, the waits with more than one begin, the
matched records whose owner_pid is the holder's, the records of another
lock's wait, and the distinct lock= and kind= values of the matched
records; then `raw=N`, the records of any task that show a kernel
address (0xffff...).
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'oracle'))
import ftrace_text as ft  # noqa: E402

REST_RE = re.compile(r'^(\S+) \((?:flags|ret)=')


def waits(path, pids):
    """{pid: [(lockptr, start, end, begins)]} of the tasks in @pids."""
    out = {}
    open_ = {}      # (pid, lockptr) -> [start, begins]
    for line in open(path, errors='replace'):
        m = ft.LINE_RE.match(line)
        if not m or int(m.group('pid')) not in pids:
            continue
        ev = m.group('ev')
        if ev not in ('contention_begin', 'contention_end'):
            continue
        r = REST_RE.match(m.group('rest'))
        if not r:
            continue
        k = (int(m.group('pid')), r.group(1))
        ts = ft.line_ts(m)
        if ev == 'contention_begin':
            if k in open_:
                open_[k][1] += 1
            else:
                open_[k] = [ts, 1]
        elif k in open_:
            start, n = open_.pop(k)
            out.setdefault(k[0], []).append((k[1], start, ts, n))
    return out


def main():
    trace, alerts, wfile = sys.argv[1:4]
    thr, tol = int(sys.argv[4]), int(sys.argv[5]) * 1000
    near = max(5000000, 3 * tol)
    who = {}        # pid -> (lock, holder)
    for line in open(wfile):
        f = line.split()
        if len(f) == 3:
            who[int(f[0])] = (f[1], int(f[2]))
    recs = []
    raw = 0
    for line in open(alerts, errors='replace'):
        if 'tracker=lock ' not in line or 'cause=' not in line:
            continue
        if re.search(r'(?<![0-9a-f])(0x)?ffff[89a-f][0-9a-f]{11}', line):
            raw += 1
        r = ft.record(line)
        if r.get('cause') == 'threshold' and int(r.get('pid', -1)) in who:
            recs.append(r)
    tw = waits(trace, set(who))
    votes = {}      # lock -> {pointer: waiters whose longest wait it is}
    for pid, ws in tw.items():
        ptr = max(ws, key=lambda w: w[2] - w[1])[0]
        v = votes.setdefault(who[pid][0], {})
        v[ptr] = v.get(ptr, 0) + 1
    ptrs = {lock: max(v, key=v.get) for lock, v in votes.items()}
    stats = {}
    for lock in sorted({v[0] for v in who.values()}):
        stats[lock] = dict(waits=0, over=0, records=0, matched=0, within=0,
                           missed=0, multi=0, owner=0, other=0,
                           names=set(), kinds=set())
    for pid, ws in tw.items():
        lock = who[pid][0]
        s = stats[lock]
        for (ptr, start, end, n) in ws:
            if ptr != ptrs.get(lock):
                continue
            s['waits'] += 1
            s['multi'] += n > 1
            if end - start > thr + tol:
                s['over'] += 1
                if not any(int(r['pid']) == pid and
                           abs(int(r['ts']) - end) < near for r in recs):
                    s['missed'] += 1
    for r in recs:
        pid = int(r['pid'])
        lock, holder = who[pid]
        s = stats[lock]
        best = None
        for (ptr, start, end, n) in tw.get(pid, []):
            d = abs(int(r['ts']) - end)
            if d < near and (best is None or d < best[0]):
                best = (d, end - start, ptr)
        if best is not None and best[2] != ptrs.get(lock):
            s['other'] += 1
            continue
        s['records'] += 1
        if best is None:
            continue
        s['matched'] += 1
        s['names'].add(r.get('lock', '-'))
        s['kinds'].add(r.get('kind', '-'))
        s['within'] += abs(int(r['delay']) - best[1]) <= tol
        s['owner'] += r.get('owner_pid') == str(holder)
    for lock, s in stats.items():
        print('%s waits=%d over=%d records=%d matched=%d within=%d missed=%d '
              'multi=%d owner=%d other=%d names=%s kinds=%s' % (
                  lock, s['waits'], s['over'], s['records'], s['matched'],
                  s['within'], s['missed'], s['multi'], s['owner'], s['other'],
                  ','.join(sorted(s['names'])) or '-',
                  ','.join(sorted(s['kinds'])) or '-'))
    print('raw=%d' % raw)


if __name__ == '__main__':
    main()
