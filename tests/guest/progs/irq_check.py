#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""irq_check.py - the irq tracker's records against the kernel's trace of
the same run (trace_clock mono): hard interrupt handlers
(irq_handler_entry/exit, irq_vectors:<v>_entry/exit), softirq runs
(softirq_entry/exit) and softirq latencies (the first softirq_raise of a
vector since it last ran, to its softirq_entry), each interval of the
trace keyed by kind, CPU and name (handler, vector, softirq).

Usage: irq_check.py TRACE ALERTS THRESHOLD_NS TOL_US CPU NAME...
For each KIND:NAME given (hardirq:lt_slow_handler, softirq:TASKLET,
softirq_latency:TASKLET, hardirq:local_timer) on CPU, prints one line
`KIND:NAME records=R matched=M stalled=S within=W over=O missed=X
max_err_us=E`: the records, those with their interval in the trace,
those of them whose difference a stall explains (below), those of the
others whose delay is within TOL_US of it, the trace's intervals longer
than the threshold by more than TOL_US between the trace's marks `oracle
begin` and `oracle end`, and those of them that have no record.

A stall: the emulated CPU stopped between ftrace's clock read and ours at
one end of the interval (under single-threaded TCG a vCPU waits while the
other runs its turn): no event on that CPU right after the trace's exit
for a record longer than its interval, right after its entry for a
shorter one, for as long as the difference (less TOL_US).
"""
import bisect
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'oracle'))
import ftrace_text as ft  # noqa: E402

VECTORS = ('local_timer', 'reschedule', 'call_function',
           'call_function_single', 'irq_work')


def intervals(path):
    """[(kind, cpu, name, start, end)] of the trace, and the times of its
    marks `oracle begin` and `oracle end`."""
    out = []
    stamps = {}     # cpu -> its events' times
    marks = {}
    hard = {}       # cpu -> stack of (name, start)
    soft = {}       # cpu -> (name, start)
    raised = {}     # (cpu, name) -> first raise
    for line in open(path, errors='replace'):
        m = ft.LINE_RE.match(line)
        if not m:
            continue
        ts, cpu = ft.line_ts(m), int(m.group('cpu'))
        stamps.setdefault(cpu, []).append(ts)
        ev, rest = m.group('ev'), m.group('rest')
        if ev == 'tracing_mark_write' and rest.startswith('oracle '):
            marks[rest.split()[1]] = ts
        elif ev == 'irq_handler_entry':
            hard.setdefault(cpu, []).append(
                (rest.split('name=', 1)[1].strip(), ts))
        elif ev.endswith('_entry') and ev[:-6] in VECTORS:
            hard.setdefault(cpu, []).append((ev[:-6], ts))
        elif ev == 'irq_handler_exit' or \
                (ev.endswith('_exit') and ev[:-5] in VECTORS):
            if hard.get(cpu):
                name, start = hard[cpu].pop()
                out.append(('hardirq', cpu, name, start, ts))
        elif ev in ('softirq_raise', 'softirq_entry', 'softirq_exit'):
            name = rest.split('action=', 1)[1].rstrip(']').strip()
            if ev == 'softirq_raise':
                raised.setdefault((cpu, name), ts)
            elif ev == 'softirq_entry':
                r = raised.pop((cpu, name), None)
                if r is not None:
                    out.append(('softirq_latency', cpu, name, r, ts))
                soft[cpu] = (name, ts)
            elif cpu in soft and soft[cpu][0] == name:
                out.append(('softirq', cpu, name, soft.pop(cpu)[1], ts))
    return out, marks, stamps


def quiet_after(stamps, t):
    """ns from t to the next of stamps (a CPU's events, in order)."""
    i = bisect.bisect_right(stamps, t)
    return stamps[i] - t if i < len(stamps) else 0


def main(argv):
    trace, alerts, thr, tol = argv[0], argv[1], int(argv[2]), int(argv[3])
    cpu, wanted = int(argv[4]), argv[5:]
    tol_ns = tol * 1000
    ivs, marks, stamps = intervals(trace)
    lo, hi = marks.get('begin', 0), marks.get('end', 1 << 64)
    recs = [ft.record(line) for line in open(alerts, errors='replace')]
    recs = [r for r in recs if r.get('tracker') == 'irq'
            and r.get('cause') == 'threshold']
    for w in wanted:
        kind, name = w.split(':', 1)
        mine = [r for r in recs if r.get('kind') == kind
                and int(r['cpu']) == cpu
                and (r.get('name') or r.get('vec')) == name]
        cand = [iv for iv in ivs if iv[0] == kind and iv[1] == cpu
                and iv[2] == name]
        used = set()
        matched = within = stalled = 0
        max_err = 0
        for r in mine:
            end, delay = int(r['ts']), int(r['delay'])
            # Our end is read after ftrace's: the trace's end is at most
            # a stall before the record's.
            near = [(abs(end - iv[4]), i) for i, iv in enumerate(cand)
                    if i not in used and iv[4] <= end + tol_ns
                    and end - iv[4] <= 20000000]
            if not near:
                print('# %s record ts=%d delay=%d: no interval in the trace'
                      % (w, end, delay))
                continue
            i = min(near)[1]
            used.add(i)
            diff = delay - (cand[i][4] - cand[i][3])
            err = abs(diff)
            matched += 1
            if err > tol_ns and quiet_after(
                    stamps[cpu], cand[i][4] if diff > 0 else cand[i][3]) \
                    >= err - tol_ns:
                stalled += 1
                continue
            within += err <= tol_ns
            max_err = max(max_err, err)
        over = [i for i, iv in enumerate(cand)
                if iv[4] - iv[3] > thr + tol_ns
                and lo <= iv[3] and iv[4] <= hi]
        missed = [cand[i] for i in over if i not in used]
        for iv in missed[:3]:
            print('# %s missed: %d..%d (%d us)' % (w, iv[3], iv[4],
                                                  (iv[4] - iv[3]) // 1000))
        print('%s records=%d matched=%d stalled=%d within=%d over=%d '
              'missed=%d max_err_us=%d' % (w, len(mine), matched, stalled,
                                           within, len(over), len(missed),
                                           max_err // 1000))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
