#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""breakdown_check.py - the breakdown of wakeup records (irq_ns, softirq_ns,
thread_ns, idle_ns, top_*) recomputed from the kernel's own trace of the
same run (trace_clock mono: irq_handler_entry/exit, irq_vectors:*_entry/
exit, softirq_entry/exit, sched_waking, sched_wakeup, sched_switch), with
the rules of probes/common/cpu_time.h:

  - a CPU is in one kind at a time: hard interrupt (the outermost entry to
    its exit; a handler handling another interrupt hands it the time until
    that one's exit), softirq (outside ksoftirqd, and never on PREEMPT_RT: --rt),
    thread or idle (by the task switched in);
  - a record's window is [its waking, its switch-in] on the CPU it got
    (the record's cpu; ts= is the switch-in, delay= its length), or
    [its sched_wakeup, its switch-in] (the wakee still on its CPU at the
    waking, or queued on another CPU than it last ran on).

A stall of the whole emulated machine (the host did not run it) shows in
the trace as a time with no event on any CPU, longer than STALL_MIN_NS,
while the record's CPU was busy (its tick would have fired): it may fall
between ftrace's clock read and ours at any change of kind, and a record
whose parts differ from the trace's by no more than the stalls in its
window is counted as stalled, not compared.

Usage: breakdown_check.py [--rt] [--tol US] TRACE ALERTS PID [COMM]
For each record of PID (with that COMM) it prints one line `rec` with the
record's and the trace's parts (us) and tops, then one summary line:
`records=N matched=M stalled=S within=W max_err_us=E max_gap_err_us=G`:
records, those found in the trace, those of them explained by a stall,
those of the others whose parts are within US (and --per-change US more
per change of kind in the window) of the trace's and whose delay - sum of
parts is the trace's time from the waking to the window's start within as
much; the largest differences of the others.
"""
import argparse
import bisect
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'oracle'))
import ftrace_text as ft  # noqa: E402

KINDS = ('irq', 'softirq', 'thread', 'idle')
# The longest emulation stall expected between ftrace's probe and ours.
STALL_NS = 20000000
# No event on any CPU for longer than this, a busy CPU's tick included
# (HZ 250 at least): the machine stalled.
STALL_MIN_NS = 5000000
IRQ_ENTRY = {'irq_handler_entry'}
IRQ_EXIT = {'irq_handler_exit'}
VECTORS = ('local_timer', 'reschedule', 'call_function',
           'call_function_single', 'irq_work')
for v in VECTORS:
    IRQ_ENTRY.add(v + '_entry')
    IRQ_EXIT.add(v + '_exit')


class Cpu:
    """A CPU's kinds over time: segments [(start, kind, who)]."""

    def __init__(self):
        self.seg = []
        self._starts = []
        self.kind = 'thread'
        self.task_kind = 'thread'
        self.depth = 0
        self.irqs = []
        self.in_softirq = False
        self.who = {'thread': None}
        self.irq_name = None
        self.softirq_vec = None
        self.task = None

    def enter(self, ts, kind, who):
        self.kind = kind
        self.seg.append((ts, kind, who))

    def starts(self):
        """The segments' start times (the trace is read first, whole)."""
        if len(self._starts) != len(self.seg):
            self._starts = [s[0] for s in self.seg]
        return self._starts

    def below(self):
        return ('softirq', self.softirq_vec) if self.in_softirq else \
            (self.task_kind, self.task)


def read_trace(path, rt):
    cpus = {}
    wakings = {}        # pid -> [(ts, task_cpu unknown)] sched_waking times
    wakeups = {}        # pid -> [(ts, target cpu)]
    switches = {}       # pid -> [(ts, cpu)] switch-ins
    stamps = []         # every event's time
    with open(path, errors='replace') as f:
        for line in f:
            m = ft.LINE_RE.match(line)
            if not m:
                continue
            ts = ft.line_ts(m)
            stamps.append(ts)
            cpu = int(m.group('cpu'))
            ev, rest = m.group('ev'), m.group('rest')
            c = cpus.setdefault(cpu, Cpu())
            if ev in IRQ_ENTRY:
                # Each interrupt's own time: a nested one (a handler
                # handling another) takes over until its exit.
                if ev == 'irq_handler_entry':
                    name = rest.split('name=', 1)[1].strip()
                else:
                    name = ev[:-len('_entry')]
                c.depth += 1
                c.irqs.append(name)
                c.enter(ts, 'irq', name)
            elif ev in IRQ_EXIT:
                if c.depth:
                    c.depth -= 1
                    c.irqs.pop()
                    if not c.depth:
                        c.enter(ts, *c.below())
                    else:
                        c.enter(ts, 'irq', c.irqs[-1])
            elif ev == 'softirq_entry':
                task = m.group('task').strip()
                if rt or task.startswith('ksoftirqd/'):
                    continue
                vec = rest.split('action=', 1)[1].rstrip(']').strip()
                c.in_softirq = True
                c.softirq_vec = vec
                c.enter(ts, 'softirq', vec)
            elif ev == 'softirq_exit':
                if c.in_softirq:
                    c.in_softirq = False
                    c.enter(ts, *c.below())
            elif ev == 'sched_switch':
                s = ft.SWITCH_RE.search(rest)
                if not s:
                    continue
                npid = int(s.group(6))
                c.task_kind = 'idle' if npid == 0 else 'thread'
                c.task = None if npid == 0 else '%s:%d' % (s.group(5), npid)
                if not c.depth and not c.in_softirq:
                    c.enter(ts, c.task_kind, c.task)
                switches.setdefault(npid, []).append((ts, cpu))
            elif ev in ('sched_waking', 'sched_wakeup'):
                w = ft.WAKING_RE.search(rest)
                if not w:
                    continue
                pid = int(w.group(2))
                tcpu = rest.split('target_cpu=', 1)[1].strip()
                d = wakings if ev == 'sched_waking' else wakeups
                d.setdefault(pid, []).append((ts, int(tcpu), cpu))
    stamps.sort()
    gaps = [(a, b) for a, b in zip(stamps, stamps[1:])
            if b - a > STALL_MIN_NS]
    return cpus, wakings, wakeups, switches, gaps


def kind_at(c, t):
    """CPU c's kind at time t."""
    i = bisect.bisect_right(c.starts(), t) - 1
    return c.seg[i][1] if i >= 0 else 'thread'


def stalled(c, gaps, a, b):
    """ns of machine stalls within [a, b] while CPU c was busy."""
    return sum(min(g1, b) - max(g0, a) for g0, g1 in gaps
               if g1 > a and g0 < b and kind_at(c, g0) != 'idle')


def parts(c, a, b):
    """ns per kind and per contributor of CPU c over [a, b], and the
    number of changes of kind."""
    tot = dict.fromkeys(KINDS, 0)
    changes = 0
    who = {}
    seg = c.seg
    starts = c.starts()
    i = max(bisect.bisect_right(starts, a) - 1, 0)
    while i < len(seg) and seg[i][0] < b:
        s0 = max(seg[i][0], a)
        s1 = min(seg[i + 1][0] if i + 1 < len(seg) else b, b)
        if s1 > s0 and seg[i][0] <= b:
            changes += seg[i][0] > a
            tot[seg[i][1]] += s1 - s0
            if seg[i][2] is not None:
                k = (seg[i][1], seg[i][2])
                who[k] = who.get(k, 0) + s1 - s0
        i += 1
    return tot, who, changes


def top(who, kind):
    best = max(((ns, w) for (k, w), ns in who.items() if k == kind),
               default=None)
    return best[1] if best else '-'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--rt', action='store_true')
    ap.add_argument('--tol', type=int, default=150, help='us')
    ap.add_argument('--per-change', type=int, default=5,
                    help='us more per change of kind in the window')
    ap.add_argument('trace')
    ap.add_argument('alerts')
    ap.add_argument('pid', type=int)
    ap.add_argument('comm', nargs='?')
    a = ap.parse_args()
    cpus, wakings, wakeups, switches, gaps = read_trace(a.trace, a.rt)
    n = matched = good = nstalled = 0
    max_err = gap = 0
    for line in open(a.alerts, errors='replace'):
        r = ft.record(line)
        if r.get('tracker') != 'wakeup' or r.get('pid') != str(a.pid) \
                or r.get('cause') != 'threshold' \
                or (a.comm and r.get('comm') != a.comm):
            continue
        n += 1
        end, cpu = int(r['ts']), int(r['cpu'])
        # Our clock read at the switch comes after ftrace's: the trace's
        # switch-in is the last one before the record's end (at most a
        # stall before it).
        sw = [t for t, c in switches.get(a.pid, []) if c == cpu
              and t <= end + 50000 and end - t <= STALL_NS]
        if not sw or cpu not in cpus:
            print('rec ts=%d: no switch-in in the trace' % end)
            continue
        t2 = max(sw)
        wk = [x for x in wakings.get(a.pid, []) if x[0] <= t2]
        wu = [x for x in wakeups.get(a.pid, []) if x[0] <= t2]
        if not wk or not wu:
            print('rec ts=%d: no waking in the trace' % end)
            continue
        t0, t1 = wk[-1][0], wu[-1][0]
        rec = {k: int(r.get(k + '_ns', '0')) for k in KINDS}
        s = sum(rec.values()) + int(r.get('other_cpu_ns', '0'))
        delay = int(r['delay'])
        # The window starts at the waking or at sched_wakeup (the task
        # still on its CPU at the waking, or queued elsewhere than it last
        # ran): whichever the trace agrees with best.
        best = None
        for start in sorted({t0, t1}):
            tot, who, changes = parts(cpus[cpu], start, t2)
            err = max(abs(rec[k] - tot[k]) for k in KINDS)
            gerr = abs((delay - s) - (start - t0))
            if best is None or max(err, gerr) < max(best[0], best[1]):
                best = (err, gerr, start, tot, who, changes)
        err, gerr, start, tot, who, changes = best
        matched += 1
        tol = (a.tol + a.per_change * changes) * 1000
        st = stalled(cpus[cpu], gaps, start, t2)
        if err > tol and err <= st + tol and gerr <= tol:
            nstalled += 1
        else:
            good += err <= tol and gerr <= tol
            max_err = max(max_err, err)
            gap = max(gap, gerr)
        print('rec ts=%d delay=%d window=%s %s top_irq=%s/%s '
              'top_softirq=%s/%s top_thread=%s/%s err_us=%d gap_err_us=%d '
              'stall_us=%d' % (
                  end, delay // 1000, 'waking' if start == t0 else 'wakeup',
                  ' '.join('%s=%d/%d' % (k, rec[k] // 1000, tot[k] // 1000)
                           for k in KINDS),
                  r.get('top_irq'), top(who, 'irq'),
                  r.get('top_softirq'), top(who, 'softirq'),
                  r.get('top_thread'), top(who, 'thread'), err // 1000,
                  gerr // 1000, st // 1000))
    print('records=%d matched=%d stalled=%d within=%d max_err_us=%d '
          'max_gap_err_us=%d' % (n, matched, nstalled, good, max_err // 1000,
                                 gap // 1000))
    return 0


if __name__ == '__main__':
    sys.exit(main())
