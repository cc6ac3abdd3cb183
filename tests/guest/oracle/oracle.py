#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""oracle.py TRACKER [options] - the accuracy oracle's analyzer.

Recomputes, from the kernel's own trace of a run (the tracefs `trace`
file, trace_clock=mono, which is ktime_get_mono_fast_ns(): the trackers'
clock), every latency pair one tracker measures, and compares them with
what the tracker reported in the same run: its alert records, and the
difference of its `stats` and `histogram` files between two snapshots
taken while it was disabled (before and after the run).  Prints exactly
RESULTS lines "PASS what" / "FAIL what" (tests/guest/lib.sh tap_results),
each after the "# " diagnostics that explain it (what a failure shows in
the CI log, tests/vm/judge.sh), then, after the last, the delay
differences and the summary line

  # oracle TRACKER: trace pairs over threshold N, records N, matched N,
  #   max |delta| X us, histogram total trace T / tracker T

Nothing here comes from the tracker's code: each pair is defined below
from the tracepoints alone, with what the tracker's probes document
(probes/*.c) as the rules.

The pairs (start -> end; identity compared with the record):

  wakeup   sched_waking of task P -> the next sched_switch with next=P,
           when that wakeup made P runnable: P blocked (its last
           sched_switch out had a sleeping state, not R, not R+ =
           preempted) at the waking, or P running at the waking and
           blocked before its sched_wakeup (a waking that raced P's
           sleep: whether P blocked is decided under its runqueue lock,
           where sched_wakeup fires).  A waking of a task preempted and
           still queued starts nothing, nor one whose sched_wakeup finds
           P still running (on Linux >= 6.12 a task blocked but kept
           queued by delayed dequeue is blocked in the trace: its
           switch-out had a sleeping state).  Identity: pid, cpu (of the
           switch), prev_pid, waker_pid (current at sched_waking), prio
           (next_prio).  A non-leader thread's execve takes the leader's
           pid before its sched_process_exec: a waking of a pid whose
           task the trace saw exit starts an optional pair (state
           unknown).
  offcpu   sched_switch with prev=P in a sleeping state (not preempted,
           not R, not exiting: X or Z) -> the next sched_switch with
           next=P, when a sched_wakeup of P came in between (a task that
           blocked needs one to run again; one that the scheduler kept
           runnable, as a pending signal does before Linux 6.16 with the
           sleeping state still in the trace, has none: not a pair).
           Identity: pid, cpu, state letter, waker_pid (current at the
           sched_waking that sched_wakeup completed: the first one after
           the switch-out, or, when the waking raced the sleep, the one
           before it since P last ran; 0 if none).
  syscalls sys_enter of P -> sys_exit of P (raw_syscalls), except exit
           and exit_group (never return) and a call still pending when P
           exits (sched_process_exit: cancelled).  A non-leader thread's
           execve returns under the leader's pid (sched_process_exec
           old_pid -> pid): the call moves to that pid.  Identity: pid, nr.
  block    block_rq_issue -> the block_rq_complete that completes the
           rest of the request (a completion of fewer sectors than remain
           is partial: the request goes on at sector + done); a
           block_rq_requeue cancels it.  Passthrough requests (rwbs N) are
           not tracked.  Identity: dev, sector, nr_sectors, op.  The trace
           carries no request identity: requests in flight at once on one
           (dev, sector) form a cluster whose pairing is unknown; the
           records of a cluster must be a pairing of its issues and
           completions in which exactly the pairs over the threshold are
           reported (compared as sets).

Window: the tracker is enabled and disabled between two trace_marker
lines each (oracle enable-begin/-end, oracle disable-begin/-end).  A pair
counts when the tracker's decision to start it (wakeup: the waking;
offcpu: the switch-out; syscalls: the call's first switch-out, or its
exit if it never left the CPU; block: the issue) falls after enable-end
and its end before disable-begin; it cannot count when the decision
came before enable-begin or the end after disable-end (drained); in
between it is optional (counted or not).

Tolerance (--tol, ns, per end of a pair): the tracker and ftrace read
the same clock in the same tracepoint call, ftrace's probe first (the
tests attach the tracker after enabling the events, and a tracepoint
calls its probes in the order they were attached), so the tracker's
read is never earlier than the trace's, less the trace's microsecond
display (NEG, 2 us).  The difference is the run time of the probes
between the two reads, and of an interrupt between them where the
tracepoint runs with interrupts on (sys_enter/sys_exit,
block_rq_issue): 50 us covers 99 % of them under QEMU TCG on the
Debian kernels (the tests set it; 5 times that on the debug kernel).  A
pair within tol + NEG of the threshold may or may not have a record; one
within tol + NEG of a histogram bucket edge may be in either bucket.

Stalls: under single-threaded QEMU TCG the two vCPUs take turns on one
host thread and the guest clock is the host's, so a vCPU interrupted
between the two reads (any interrupt or kick of the other vCPU) finds
its clock late by the other vCPU's turn, up to tens of milliseconds.  A
record whose tracker read is late by more than tol (never early), up to
--stall-max (50 ms), still matches its pair and is counted as a stall,
as is a pair over the threshold without a record whose delay a stall at
its start could have brought under it, a pair whose bucket only a stall
explains, and (offcpu) a waker the trace saw before the switch-out
when a later one ended the sleep, within --stall-max of the switch-out
and only if the trace has no line of the CPU whose probe was late in
between (there would be none while it was still inside the tracepoint;
see "offcpu wakers" above bucket()).  Stalls
must stay under --stall-fraction of the pairs compared (the tests: 10 %,
25 % on the debug kernel, oracle/lib.sh); counts
(pairs, records, matched total) are compared without that allowance.

Preempted inside a tracepoint (syscalls, not a stall): since v6.13 the
syscall tracepoints' probes run preemptible, so a task can be switched
out (state R) between ftrace's probe and the tracker's.  When a task's
next event after its sys_enter or sys_exit is such a switch-out, the
tracker's read at that end may be late by up to the task's switch-in
(on 7.3-rt, over 100 ms at a sys_exit); that much is allowed there,
uncounted, and the delay range of the pair's bucket and threshold
checks widens to match.  At the start, a task preempted again (R+)
before its next syscall event may still be inside (a call preempted
twice can end without a record): a pair over the threshold without a
record that only this explains is a stall.  Pairs
without a record that a preemption explains are listed and counted.

Optional pairs (counted or not, with or without a record; reported):
those at the window's edges (above); wakeup: a waking seen while P was
preempted and queued, then P ran and switched out sleeping before its
sched_wakeup, or a waking seen while P was running, then P preempted
before its sched_wakeup (both need a switch of P inside the few
instructions between the tracker's probe and the waker's runqueue lock;
wakeup.c); a waking of a task whose state the trace had not shown yet.
"""
import argparse
import bisect
import itertools
import os
import re
import sys
from collections import defaultdict, deque

from ftrace_text import (LINE_RE, SWITCH_RE, WAKING_RE, blocked_state,
                         line_ts, record)

NS_PER_US = 1000
NEVER_RETURN = {60, 231}    # x86_64 exit, exit_group
HIST_BUCKETS = 65

FORK_RE = re.compile(r'comm=(.*) pid=(\d+) child_comm=(.*) child_pid=(\d+)')
EXIT_RE = re.compile(r'comm=(.*) pid=(\d+) prio=')
EXEC_RE = re.compile(r'filename=(.*) pid=(\d+) old_pid=(\d+)')
SYS_ENTER_RE = re.compile(r'NR (-?\d+) \(')
SYS_EXIT_RE = re.compile(r'NR (-?\d+) = (-?\d+)')
ISSUE_RE = re.compile(r'^(\d+),(\d+) (\S*) (\d+) \((.*?)\) (\d+) \+ (\d+)')
DONE_RE = re.compile(r'^(\d+),(\d+) (\S*) \((.*?)\) (\d+) \+ (\d+)')

EVENTS = {
    'wakeup': {'sched_waking', 'sched_wakeup', 'sched_switch',
               'sched_process_fork', 'sched_process_exec'},
    'offcpu': {'sched_waking', 'sched_wakeup', 'sched_switch',
               'sched_process_fork', 'sched_process_exec'},
    'syscalls': {'sys_enter', 'sys_exit', 'sched_switch',
                 'sched_process_exit', 'sched_process_exec'},
    'block': {'block_rq_issue', 'block_rq_complete', 'block_rq_requeue'},
}
RESULTS = 9
# The trace shows each time to the microsecond (truncated): its end of a
# pair may be up to 1 us earlier than ftrace's clock read; 2 us of margin.
NEG = 2000
# offcpu wakers (a stall, counted).  A record naming a waker whose waking
# the trace shows before the switch-out (beyond the tolerance) while a
# later waking ended the sleep: that waking's probe ran after the
# insertion, possible only if the waking's CPU logged no line between
# that waking and the switch-out (it was still inside sched_waking,
# holding the task's pi_lock), within --stall-max of the switch-out.  A
# waking from an earlier blocking period of the task, which ended with
# its switch-in, never counts: try_to_wake_up() queues the task only
# after the waking's probes have run.  A record without a waker where the
# trace has one is never excused: a waking that runs before the event
# exists leaves its waker for the switch-out (offcpu.c).


def bucket(ns):
    """The tracker's log2 bucket of a delay: fls64 (0 for 0)."""
    return max(0, int(ns)).bit_length()


def block_op(rwbs):
    """op of the tracker's record from the trace's rwbs (None: N, untracked)."""
    if len(rwbs) > 1 and rwbs[0] == 'F' and rwbs[1] in 'WDRFN':
        rwbs = rwbs[1:]
    if rwbs.startswith('DE'):
        return 'other'
    return {'W': 'write', 'R': 'read', 'F': 'flush', 'D': 'discard'}.get(
        rwbs[:1])


class Pair:
    __slots__ = ('key', 'start', 'end', 'decide', 'ident', 'optional',
                 'why', 'comm', 'window', 'record', 'cluster',
                 'start_slack', 'end_slack', 'start_slack_more')

    def __init__(self, key, start, end, decide, ident, comm, optional=None):
        self.key = key
        self.start = start
        self.end = end
        self.decide = decide
        self.ident = ident
        self.comm = comm
        self.optional = optional    # None, or why it may be absent
        self.window = None
        self.record = None
        self.cluster = None
        self.why = ()
        # How much later than ftrace's the tracker's clock read may be,
        # at each end, with no stall: the task was preempted inside the
        # tracepoint, between ftrace's probe and the tracker's (syscalls:
        # see Analyzer.tp_preempted).
        self.start_slack = 0
        self.end_slack = 0
        # The start's, if the task was still inside after a further
        # preemption (counted as a stall when a missed pair needs it).
        self.start_slack_more = 0

    @property
    def delay(self):
        return self.end - self.start


class Cluster:
    """Requests in flight at once on one (dev, sector): pairing unknown."""

    def __init__(self, key):
        self.key = key
        self.starts = []    # (ts, ident)
        self.ends = []
        self.records = []


class Analyzer:
    def __init__(self, a):
        self.a = a
        self.trk = a.tracker
        self.pairs = []
        self.clusters = []
        self.marks = {}
        self.kthreads = set()
        self.first_ts = None
        self.last_ts = None
        self.notes = defaultdict(int)
        self.snap = {}
        if a.tasks:
            with open(a.tasks) as f:
                for line in f:
                    pid, st, kt = line.split()
                    self.snap[int(pid)] = st
                    if kt == '1':
                        self.kthreads.add(int(pid))
        # wakeup / offcpu
        self.lastwake = {}
        # Lines of each CPU so far (of the events read, EVENTS): a CPU
        # whose count has not moved between two lines of the trace
        # logged none of them in between.
        self.cpu_seq = defaultdict(int)
        self.state = {}
        self.pending = {}
        # wakeup: a waking of P while P ran or was queued, (ts, waker,
        # P's state then), until P's sched_wakeup or next switch says
        # whether it made P runnable.
        self.racewake = {}
        # When P last switched in (offcpu: a waking since then, before
        # P's switch-out, may be the one that ends its sleep).
        self.run_since = {}
        # syscalls
        self.calls = {}
        self.tp_last, self.tp_preempted = {}, {}
        self.tp_preemptible = a.tp_preemptible == 'yes' or (
            a.tp_preemptible == 'auto' and
            tuple(int(x) for x in re.findall(r'\d+', os.uname().release)[:2]) >= (6, 13))
        # block
        self.inflight = {}

    def tracked_task(self, pid):
        return pid != 0 and (self.a.kthreads or pid not in self.kthreads)

    # --- trace ---
    def run(self, path):
        want = EVENTS[self.trk] | {'tracing_mark_write'}
        self.lines = 0
        with open(path, errors='replace') as f:
            for line in f:
                self.lines += 1
                if line.startswith('#'):
                    continue
                m = LINE_RE.match(line)
                if not m:
                    continue
                ev = m.group('ev')
                if ev not in want:
                    continue
                ts = line_ts(m)
                if self.first_ts is None:
                    self.first_ts = ts
                self.last_ts = ts
                cur = int(m.group('pid'))
                self.cur_comm = m.group('task').strip()
                cpu = int(m.group('cpu'))
                self.cpu_seq[cpu] += 1
                rest = m.group('rest')
                getattr(self, 'ev_' + ev)(ts, cpu, cur, rest)
        self.finish_block()

    def ev_tracing_mark_write(self, ts, cpu, cur, rest):
        m = re.search(r'oracle (\S+)', rest)
        if not m:
            return
        self.marks[m.group(1)] = ts
        if m.group(1) != 'snapshot':
            return
        # Tasks the trace has not shown yet: their state as /proc saw it
        # just after this mark (before the window: what changed between
        # the mark and the read is traced after the mark anyway).
        for pid, st in self.snap.items():
            if pid not in self.state:
                self.state[pid] = 'rq' if st == 'R' else (
                    'dead' if st in 'XZ' else 'blocked')

    def ev_sched_process_fork(self, ts, cpu, cur, rest):
        m = FORK_RE.match(rest)
        parent, child = int(m.group(2)), int(m.group(4))
        # Kernel threads are forked by kthreadd (pid 2), or are it.
        if parent == 2 or parent in self.kthreads:
            self.kthreads.add(child)
        else:
            self.kthreads.discard(child)
        self.state[child] = 'rq'    # wake_up_new_task: runnable, no waking
        self.pending.pop(child, None)
        self.racewake.pop(child, None)

    def ev_sched_waking(self, ts, cpu, cur, rest):
        m = WAKING_RE.match(rest)
        p = int(m.group(2))
        if self.trk == 'offcpu':
            pend = self.pending.get(p)
            # A waking while P was still on its way out: the tracker's
            # probe left the waker for the switch-out (offcpu.c's stash),
            # so even one before the event existed names its waker.
            if pend is not None and pend['waker'] is None:
                pend['waker'] = cur
            self.lastwake[p] = (ts, cur, cpu, self.cpu_seq[cpu])
            return
        if p == 0 or p == cur or not self.tracked_task(p):
            return
        st = self.state.get(p)
        if st == 'blocked':
            self.pending[p] = {'start': ts, 'waker': cur, 'optional': None}
        elif st is None or st == 'dead':
            # 'dead': the pid names another task now.  A non-leader
            # thread's execve takes the leader's pid in de_thread(), before
            # the trace's sched_process_exec says so; until then that
            # task's state is unknown to the trace.
            self.pending[p] = {'start': ts, 'waker': cur,
                               'optional': 'state unknown to the trace'}
        elif st in ('run', 'rq'):
            self.racewake[p] = (ts, cur, st)

    def ev_sched_wakeup(self, ts, cpu, cur, rest):
        p = int(WAKING_RE.match(rest).group(2))
        if self.trk == 'offcpu':
            pend = self.pending.get(p)
            if pend is None or pend['woke']:
                return
            pend['woke'] = True
            lw = self.lastwake.get(p)
            if pend['waker'] is None and lw is not None and \
                    lw[0] >= self.run_since.get(p, 0):
                # The waking raced the sleep: it came before the
                # switch-out, since P last ran.
                pend['waker'] = lw[1]
                pend['raced'] = True
            return
        rw = self.racewake.get(p)
        if rw is None or rw[2] != 'run':
            return
        # Running at its waking: blocked since (a pair from the waking),
        # still running (nothing), or preempted since (optional).
        del self.racewake[p]
        st = self.state.get(p)
        if st == 'blocked':
            self.pending[p] = {'start': rw[0], 'waker': rw[1],
                               'optional': None}
        elif st == 'rq':
            self.pending[p] = {
                'start': rw[0], 'waker': rw[1],
                'optional': 'preempted between its waking and its wakeup'}

    def ev_sched_switch(self, ts, cpu, cur, rest):
        m = SWITCH_RE.match(rest)
        prev, pstate = int(m.group(2)), m.group(4)
        ncomm, nxt, nprio = m.group(5), int(m.group(6)), int(m.group(7))
        if self.trk == 'syscalls':
            c = self.calls.get(prev)
            if c is not None and c['decide'] is None:
                c['decide'] = ts
            self.tp_switch(ts, prev, pstate, nxt)
            return
        if self.trk == 'wakeup':
            self.switch_wakeup(ts, cpu, prev, pstate, ncomm, nxt, nprio)
        else:
            self.switch_offcpu(ts, cpu, prev, pstate, ncomm, nxt)
        if prev:
            if blocked_state(pstate):
                self.state[prev] = 'blocked'
            elif 'X' in pstate or 'Z' in pstate:
                self.state[prev] = 'dead'
            else:
                self.state[prev] = 'rq'
        if nxt:
            self.state[nxt] = 'run'
            self.run_since[nxt] = ts

    def switch_wakeup(self, ts, cpu, prev, pstate, ncomm, nxt, nprio):
        if nxt:
            pend = self.pending.pop(nxt, None)
            rw = self.racewake.pop(nxt, None)
            if pend is None and rw is not None and rw[2] == 'run':
                # Running at its waking, preempted, back before its
                # sched_wakeup: the tracker may end its provisional event
                # here (wakeup.c).
                pend = {'start': rw[0], 'waker': rw[1],
                        'optional': 'preempted between its waking and its wakeup'}
            if pend is not None:
                ident = {'pid': nxt, 'cpu': cpu, 'prev_pid': prev,
                         'waker_pid': pend['waker'], 'prio': nprio}
                self.pairs.append(Pair(nxt, pend['start'], ts, pend['start'],
                                       ident, ncomm, pend['optional']))
        if prev:
            rw = self.racewake.get(prev)
            if rw is not None and rw[2] == 'rq':
                # Queued at its waking (the tracker started nothing), it
                # ran and blocked before its sched_wakeup.
                del self.racewake[prev]
                if blocked_state(pstate) and self.tracked_task(prev):
                    self.pending[prev] = {
                        'start': rw[0], 'waker': rw[1],
                        'optional': 'queued at its waking, blocked before its wakeup'}

    def switch_offcpu(self, ts, cpu, prev, pstate, ncomm, nxt):
        if nxt:
            # Its blocking period ends: its wakings are no use for the
            # next (a preempted task's are: a stalled probe may still
            # come, see "offcpu wakers" above bucket()).
            if self.state.get(nxt) == 'blocked':
                self.lastwake.pop(nxt, None)
            pend = self.pending.pop(nxt, None)
            if pend is not None and not pend['woke']:
                # No sched_wakeup since its sleeping switch-out: the
                # scheduler kept it runnable (a pending signal), it did
                # not block.
                self.notes['runnable after a sleeping switch-out'] += 1
                pend = None
            if pend is not None:
                ident = {'pid': nxt, 'cpu': cpu, 'state': pend['state'],
                         'waker_pid': pend['waker'] or 0,
                         'stall_wakers': pend['stall_wakers']}
                pr = Pair(nxt, pend['start'], ts, pend['start'], ident, ncomm,
                          pend['optional'])
                pr.why = pend['early_wakers']
                self.pairs.append(pr)
        if prev and blocked_state(pstate) and self.tracked_task(prev):
            # A waking just before the switch-out (within the tolerance)
            # may have run its probe after the tracker's event existed.
            lw = self.lastwake.get(prev)
            early = (lw[1],) if lw and ts - lw[0] <= self.a.tol else ()
            # Further back, only a stall between ftrace's record of that
            # waking and the tracker's probe ("offcpu wakers", above bucket()).
            late = (lw[1],) if lw and ts - lw[0] <= self.a.stall_max and \
                self.cpu_seq[lw[2]] == lw[3] else ()
            self.pending[prev] = {'start': ts, 'state': pstate[0],
                                  'waker': None, 'optional': None,
                                  'woke': False, 'raced': False,
                                  'early_wakers': early,
                                  'stall_wakers': late}

    # Syscall tracepoints are faultable since v6.13 ("tracing: Allow
    # system call tracepoints to handle page faults"): their probes run
    # preemptible, and the task can be preempted between ftrace's probe
    # and the tracker's.  The tracker's clock read then comes after the
    # task's next switch-in: on 7.3-rt, for example, a write's sys_exit
    # (need-resched set) can be followed by a switch-out in state R+ and
    # over 100 ms on the runqueue before the tracker's sys_exit probe
    # runs.  So when a task's next event after its sys_enter/sys_exit is
    # such a switch-out, that end may be late by up to its switch-in
    # (start_slack/end_slack).  The trace cannot tell a preemption inside
    # the tracepoint from one just after it (the reschedule may come with
    # ftrace's record, flag N, or from an interrupt after it: a sys_exit
    # with no flag, then a switch-out R+ for an irq thread), so any such
    # switch-out allows it; the records that needed it are counted.
    # Nor can it tell how long the task stays inside.  Preempted again
    # (R+) before its next syscall event, with no block or voluntary
    # switch between (the tracker's probes neither sleep nor schedule),
    # it may still not have reached the tracker's sys_enter probe: a call
    # preempted shortly after its sys_enter, back briefly, preempted again
    # and back tens of ms later can end with no record, its time counted
    # in a short bucket of the tracker's histogram.  But a task that ran
    # that long on the CPU was more likely in the call's body, or its
    # vCPU stalled: so the start may be late up to the last such
    # switch-in (start_slack_more), and a pair over the threshold without
    # a record that only this explains is counted as a stall.  Only the
    # start: the end's slack is not extended into user space.
    # tp_last[pid]: (the call or pair, 'start'|'end', ts, again) of its
    # last syscall event while it may still be inside that tracepoint
    # (again: switched in after a preemption since); tp_preempted[pid]:
    # the same, switched out preempted since.
    def tp_note(self, pid, obj, which, ts):
        self.tp_preempted.pop(pid, None)
        if self.tp_preemptible:
            self.tp_last[pid] = (obj, which, ts, False)

    def tp_forget(self, pid):
        self.tp_last.pop(pid, None)
        self.tp_preempted.pop(pid, None)

    def tp_switch(self, ts, prev, pstate, nxt):
        last = self.tp_last.pop(prev, None)
        if last is not None and not blocked_state(pstate) and \
                'X' not in pstate and 'Z' not in pstate and \
                (not last[3] or '+' in pstate):
            self.tp_preempted[prev] = last
        pre = self.tp_preempted.pop(nxt, None)
        if pre is not None:
            obj, which, t0, again = pre
            if which == 'end':
                obj.end_slack = ts - t0
            elif not again:
                obj['start_slack'] = ts - t0
            else:
                obj['start_slack_more'] = ts - t0
            if which == 'start':
                self.tp_last[nxt] = (obj, which, t0, True)

    def ev_sys_enter(self, ts, cpu, cur, rest):
        nr = int(SYS_ENTER_RE.match(rest).group(1))
        if nr in NEVER_RETURN:
            self.calls.pop(cur, None)
            self.tp_last.pop(cur, None)
            return
        self.calls[cur] = {'start': ts, 'nr': nr, 'decide': None,
                           'start_slack': 0, 'start_slack_more': 0}
        self.tp_note(cur, self.calls[cur], 'start', ts)

    def ev_sys_exit(self, ts, cpu, cur, rest):
        c = self.calls.pop(cur, None)
        if c is None:
            self.tp_last.pop(cur, None)
            return
        decide = c['decide'] if c['decide'] is not None else ts
        p = Pair(cur, c['start'], ts, decide, {'pid': cur, 'nr': c['nr']},
                 self.cur_comm)
        p.start_slack = c['start_slack']
        p.start_slack_more = c['start_slack_more']
        self.pairs.append(p)
        self.tp_note(cur, p, 'end', ts)

    def ev_sched_process_exit(self, ts, cpu, cur, rest):
        pid = int(EXIT_RE.match(rest).group(2))
        self.tp_forget(pid)
        if self.calls.pop(pid, None) is not None:
            self.notes['calls cancelled at exit'] += 1

    def ev_sched_process_exec(self, ts, cpu, cur, rest):
        m = EXEC_RE.match(rest)
        pid, old = int(m.group(2)), int(m.group(3))
        if pid != old and self.trk in ('wakeup', 'offcpu'):
            # The exec'ing thread runs under the leader's pid from here
            # (it is current: running, nothing pending for it).
            for pid_ in (pid, old):
                self.pending.pop(pid_, None)
                self.racewake.pop(pid_, None)
            self.state.pop(old, None)
            self.state[pid] = 'run'
            self.notes['pids taken over by a non-leader execve'] += 1
        if pid != old and old in self.calls:
            self.calls[pid] = self.calls.pop(old)
            self.notes['calls moved by a non-leader execve'] += 1

    # Block: in-flight requests by (dev, sector now); a cluster per
    # (dev, sector) while more than one is in flight there.
    def ev_block_rq_issue(self, ts, cpu, cur, rest):
        m = ISSUE_RE.match(rest)
        if not m:
            return
        op = block_op(m.group(3))
        if op is None:
            return
        dev = '%s:%s' % (m.group(1), m.group(2))
        sector, nr = int(m.group(6)), int(m.group(7))
        key = (dev, sector)
        req = {'start': ts, 'ident': {'dev': dev, 'sector': sector,
                                      'nr_sectors': nr, 'op': op},
               'rest': nr}
        q = self.inflight.setdefault(key, {'reqs': deque(), 'cluster': None})
        q['reqs'].append(req)
        if len(q['reqs']) > 1 or q['cluster'] is not None:
            if q['cluster'] is None:
                q['cluster'] = Cluster(key)
                first = q['reqs'][0]
                q['cluster'].starts.append((first['start'], first['ident']))
            q['cluster'].starts.append((ts, req['ident']))

    def ev_block_rq_complete(self, ts, cpu, cur, rest):
        m = DONE_RE.match(rest)
        if not m or block_op(m.group(3)) is None:
            return
        dev = '%s:%s' % (m.group(1), m.group(2))
        sector, nr = int(m.group(5)), int(m.group(6))
        q = self.inflight.get((dev, sector))
        if not q or not q['reqs']:
            return
        if q['cluster'] is not None:
            if nr < min(r['rest'] for r in q['reqs']):
                self.notes['partial completion in a cluster'] += 1
            q['reqs'].popleft()
            q['cluster'].ends.append(ts)
            if not q['reqs']:
                self.clusters.append(q['cluster'])
                q['cluster'] = None
            return
        req = q['reqs'].popleft()
        if nr < req['rest']:
            # Partial: the request goes on at the next sector.
            req['rest'] -= nr
            nq = self.inflight.setdefault((dev, sector + nr),
                                          {'reqs': deque(), 'cluster': None})
            nq['reqs'].append(req)
            self.notes['partial completions'] += 1
            return
        self.pairs.append(Pair((dev, req['ident']['sector']), req['start'],
                               ts, req['start'], req['ident'], ''))

    def ev_block_rq_requeue(self, ts, cpu, cur, rest):
        m = DONE_RE.match(rest)
        if not m:
            return
        q = self.inflight.get(('%s:%s' % (m.group(1), m.group(2)),
                               int(m.group(5))))
        if q and q['reqs']:
            q['reqs'].popleft()
            self.notes['requeues'] += 1
            if q['cluster'] is not None:
                self.notes['requeue in a cluster'] += 1

    def finish_block(self):
        pass

    # --- window ---
    def classify(self):
        eb, ee = self.marks.get('enable-begin'), self.marks.get('enable-end')
        db, de = self.marks.get('disable-begin'), self.marks.get('disable-end')
        if None in (eb, ee, db, de):
            return False
        self.window = (eb, ee, db, de)
        for p in self.pairs:
            if p.decide < eb or p.end > de:
                p.window = 'out'
            elif p.decide > ee and p.end < db:
                p.window = 'in'
            else:
                p.window = 'edge'
        return True


def parse_kv(path):
    out = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 2:
                out[parts[0]] = int(parts[1])
    return out


def parse_hist(path):
    h = [0] * HIST_BUCKETS
    with open(path) as f:
        for line in f:
            lo, hi, n = (int(x) for x in line.split())
            h[bucket(lo)] += n
    return h


def parse_alerts(path, trk):
    recs, lost = [], 0
    with open(path, errors='replace') as f:
        for line in f:
            kv = record(line)
            if kv.get('tracker') != trk:
                continue
            if kv.get('cause') == 'lost':
                lost += int(kv.get('count', 1))
                continue
            recs.append(kv)
    return recs, lost


def max_flow(cap, s, t):
    """Edmonds-Karp on a dict-of-dicts capacity graph (modified)."""
    flow = 0
    while True:
        parent = {s: None}
        q = deque([s])
        while q and t not in parent:
            u = q.popleft()
            for v, c in cap[u].items():
                if c > 0 and v not in parent:
                    parent[v] = u
                    q.append(v)
        if t not in parent:
            return flow
        v, aug = t, None
        while parent[v] is not None:
            u = parent[v]
            aug = cap[u][v] if aug is None else min(aug, cap[u][v])
            v = u
        v = t
        while parent[v] is not None:
            u = parent[v]
            cap[u][v] -= aug
            cap[v].setdefault(u, 0)
            cap[v][u] += aug
            v = u
        flow += aug


def hist_feasible(classes, h, wild=0):
    """Can every pair go to one of its allowed buckets (or nowhere, when
    optional) so that each bucket gets exactly h[b], with up to `wild`
    pairs (stalls) allowed in any bucket?  classes:
    {(buckets tuple, optional): count}."""
    total = sum(classes.values())
    none_cap = total - sum(h)
    if none_cap < 0:
        return False
    cap = defaultdict(dict)
    cap['W']['Wout'] = wild
    for i, ((bs, opt), n) in enumerate(classes.items()):
        cap['S'][('c', i)] = n
        for b in bs:
            cap[('c', i)][('b', b)] = total
        if opt:
            cap[('c', i)]['none'] = total
        cap[('c', i)]['W'] = total
    for b in range(HIST_BUCKETS):
        if h[b]:
            cap[('b', b)]['T'] = h[b]
            cap['Wout'][('b', b)] = total
    if none_cap:
        cap['none']['T'] = none_cap
    return max_flow(cap, 'S', 'T') == total


def hist_min_wild(classes, h, budget):
    """The fewest pairs that must be allowed in any bucket (a stall) for
    hist_feasible() to hold, or None if more than budget."""
    if hist_feasible(classes, h):
        return 0
    lo, hi = 1, budget
    if not hist_feasible(classes, h, hi):
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        if hist_feasible(classes, h, mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


IDENT_FIELDS = {
    'wakeup': ('pid', 'cpu', 'prev_pid', 'waker_pid', 'prio'),
    'offcpu': ('pid', 'cpu', 'state', 'waker_pid'),
    'syscalls': ('pid', 'nr'),
    'block': ('dev', 'sector', 'nr_sectors', 'op'),
}


def rec_key(trk, r):
    if trk == 'block':
        return (r.get('dev'), int(r.get('sector', -1)))
    return int(r.get('pid', -1))


def ident_diff(trk, pair_ident, r, extra_wakers, tol):
    bad = []
    for f in IDENT_FIELDS[trk]:
        want = pair_ident.get(f)
        got = r.get(f)
        if str(want) == str(got):
            continue
        if f == 'waker_pid' and got is not None and int(got) in extra_wakers:
            continue
        if f == 'waker_pid' and got is not None and not bad and \
                want == 0 and int(got) in pair_ident.get('stall_wakers', ()):
            # A waking before the switch-out whose probe ran after the
            # tracker's event existed (a stall): counted.  Its wakeup is
            # the one that ends the period (no later waking can match
            # the task's state), so the trace has no waker after.
            bad.append('waker_stall')
            continue
        bad.append('%s=%s (trace %s)' % (f, got, want))
    return bad


PF_KTHREAD = 0x00200000


def snapshot():
    """oracle.py snapshot: "pid state kthread" of every task, from /proc
    (the state of the tasks the trace has not shown yet, and which are
    kernel threads)."""
    import glob
    for path in glob.glob('/proc/[0-9]*/task/[0-9]*/stat'):
        try:
            with open(path) as f:
                line = f.read()
        except OSError:
            continue    # exited meanwhile
        pid = int(line.split(' ', 1)[0])
        fields = line[line.rindex(')') + 2:].split()
        # fields[0] is the state (field 3); flags are field 9.
        print(pid, fields[0], int(bool(int(fields[6]) & PF_KTHREAD)))
    return 0


def main():
    if sys.argv[1:2] == ['snapshot']:
        return snapshot()
    ap = argparse.ArgumentParser()
    ap.add_argument('tracker', choices=sorted(EVENTS))
    ap.add_argument('--trace', required=True)
    ap.add_argument('--alerts', required=True)
    ap.add_argument('--stats0', required=True)
    ap.add_argument('--stats1', required=True)
    ap.add_argument('--hist0', required=True)
    ap.add_argument('--hist1', required=True)
    ap.add_argument('--threshold', type=int, required=True)
    ap.add_argument('--tol', type=int, required=True, help='ns')
    ap.add_argument('--kthreads', type=int, default=1,
                    help='1: kernel threads are tracked (default)')
    ap.add_argument('--tasks',
                    help='file: the "oracle.py snapshot" taken after the '
                    'trace\'s "oracle snapshot" mark')
    ap.add_argument('--stall-max', type=int, default=50000000,
                    help='ns: the longest vCPU stall between the two probes')
    ap.add_argument('--stall-fraction', type=float, default=0.10,
                    help='stalls allowed, a fraction of the pairs compared')
    ap.add_argument('--stall-min', type=int, default=3,
                    help='stalls allowed in any case')
    ap.add_argument('--tp-preemptible', choices=('auto', 'yes', 'no'),
                    default='auto',
                    help='syscall tracepoint probes run preemptible (auto: '
                    'the running kernel is >= 6.13)')
    ap.add_argument('--min-over', type=int, default=1,
                    help='pairs over the threshold the workload must make')
    ap.add_argument('--min-clusters', type=int, default=0,
                    help='same-sector clusters the workload must make')
    ap.add_argument('--roles', default='',
                    help='comma-separated comms that must have pairs')
    a = ap.parse_args()
    trk, thr, tol = a.tracker, a.threshold, a.tol
    results = []

    def result(ok, what):
        """Printed at once: after the diagnostics of its check."""
        results.append(what)
        print(('PASS ' if ok else 'FAIL ') + what)

    def diag(s):
        print('# ' + s)

    an = Analyzer(a)
    an.run(a.trace)
    if not an.classify():
        diag('window marks missing from the trace: %s' % sorted(an.marks))
        for _ in range(RESULTS):
            result(False, 'trace has the enable/disable marks')
        return 1
    eb, ee, db, de = an.window
    diag('trace: %d lines, %.3f s, window: enable %d us, run %.3f s, disable %d us' % (
        an.lines, (an.last_ts - an.first_ts) / 1e9, (ee - eb) // NS_PER_US,
        (db - ee) / 1e9, (de - db) // NS_PER_US))

    pairs = [p for p in an.pairs if p.window != 'out']
    # Pairs that may be absent: at the window's edges, or optional.
    for p in pairs:
        if p.window == 'edge' and p.optional is None:
            p.optional = 'at the enable/disable edge'

    # --- records to pairs ---
    recs, lost = parse_alerts(a.alerts, trk)
    by_key = defaultdict(list)
    for p in pairs:
        by_key[p.key].append(p)
    # Each key's pairs by end, to look at only those whose end can fit a
    # record (candidates(), below): a thread's thousands of calls are not
    # each compared with each of its records.
    by_end = {}
    for k, ps in by_key.items():
        order = sorted(range(len(ps)), key=lambda i: ps[i].end)
        by_end[k] = ([ps[i].end for i in order], order, ps,
                     max(0, max(p.end_slack for p in ps)),
                     max(0, -min(p.end_slack for p in ps)))
    cl_by_key = defaultdict(list)
    for c in an.clusters:
        cl_by_key[c.key].append(c)
    unmatched, bad_ident, deltas, stalled = [], [], [], []

    def offsets(p_start, p_end, r):
        """(e_start, e_end): how much later the tracker's clock read was
        than ftrace's at each end of the pair."""
        ts, d = int(r['ts']), int(r['delay'])
        return (ts - d) - p_start, ts - p_end

    def fits(e, limit):
        return -NEG <= e <= limit

    def adj(e, slack):
        """An end's lateness less what a preemption inside the
        tracepoint explains (Pair.start_slack, end_slack)."""
        return e - min(max(e, 0), slack)

    def candidates(k, ts, limit):
        """The pairs of key k, in their order in the trace, whose end
        can fit a record ending at ts: fits(adj(ts - end, end_slack),
        limit) needs ts - limit - max(slack, 0) <= end and
        end <= ts + NEG + max(-slack, 0)."""
        if k not in by_end:
            return ()
        ends, order, ps, pos, neg = by_end[k]
        lo = bisect.bisect_left(ends, ts - limit - pos)
        hi = bisect.bisect_right(ends, ts + NEG + neg)
        return [ps[i] for i in sorted(order[lo:hi])]

    def take(p, r, es, ee):
        p.record = r
        deltas.append(abs(p.delay - int(r['delay'])))
        if max(es, ee) > tol:
            stalled.append((r, es, ee))
        bad = ident_diff(trk, p.ident, r, p.why if trk == 'offcpu' else (),
                         tol)
        if bad == ['waker_stall']:
            # The waking came while the tracker's event was between its
            # clock read and its insertion: a stall there (counted).
            stalled.append((r, 0, 0))
        elif bad:
            bad_ident.append((r, bad))

    # Exact matches first (both ends within the tolerance), then the
    # records whose tracker clock read came late at one end (a stall).
    left = []
    for r in recs:
        if r.get('cause') != 'threshold':
            unmatched.append((r, 'cause %s (timeouts are off)' % r.get('cause')))
            continue
        best, be = None, None
        for p in candidates(rec_key(trk, r), int(r['ts']), tol):
            if p.record is None:
                es, ee = offsets(p.start, p.end, r)
                es, ee = adj(es, p.start_slack), adj(ee, p.end_slack)
                if fits(es, tol) and fits(ee, tol) and \
                        (best is None or max(es, ee) < max(be)):
                    best, be = p, (es, ee)
        if best is not None:
            take(best, r, *be)
        else:
            left.append(r)
    for r in left:
        best, be = None, None
        k = rec_key(trk, r)
        for p in candidates(k, int(r['ts']), a.stall_max):
            if p.record is None:
                es, ee = offsets(p.start, p.end, r)
                es, ee = adj(es, p.start_slack), adj(ee, p.end_slack)
                if fits(es, a.stall_max) and fits(ee, a.stall_max) and \
                        (best is None or max(es, ee) < max(be)):
                    best, be = p, (es, ee)
        if best is not None:
            take(best, r, *be)
            continue
        # A cluster of the key: the one where some issue and completion
        # fit this record best.
        cl, cbest = None, None
        for c in cl_by_key.get(k, ()):
            for s_, _ in c.starts:
                for e_ in c.ends:
                    es, ee = offsets(s_, e_, r)
                    if fits(es, a.stall_max) and fits(ee, a.stall_max) and \
                            (cbest is None or max(es, ee) < cbest):
                        cl, cbest = c, max(es, ee)
        if cl is not None:
            cl.records.append(r)
            continue
        ts, d = int(r['ts']), int(r['delay'])
        near = [p for p in by_key.get(k, ()) if abs(p.end - ts) <= 10000000]
        why = 'no pair'
        if near:
            n = min(near, key=lambda p: abs(p.end - ts))
            why = 'nearest pair: end %+d us, start %+d us%s' % (
                (ts - n.end) // NS_PER_US, (ts - d - n.start) // NS_PER_US,
                ' (already matched)' if n.record is not None else '')
        unmatched.append((r, why))

    # Clusters (block, one sector): some pairing of issues and completions
    # must give exactly the records, over the threshold exactly.
    cluster_fail, cluster_pairs, cl_hist, cluster_stalls = [], 0, [], 0
    for c in an.clusters:
        s_ok = an.window[1] < min(s_ for s_, _ in c.starts) and \
            max(c.ends) < an.window[2]
        s_out = max(s_ for s_, _ in c.starts) < an.window[0] or \
            min(c.ends) > an.window[3]
        if s_out and not c.records:
            continue
        cluster_pairs += len(c.starts)
        n = len(c.starts)
        if n != len(c.ends) or n > 5:
            cluster_fail.append('cluster %s: %d issues, %d completions' %
                                (c.key, n, len(c.ends)))
            continue
        # The pairing with the records that needs the fewest stalls (an
        # unreported pair over the threshold by less than a stall).
        found, found_stalls = None, None
        nr = len(c.records)
        for perm in itertools.permutations(range(n)):
            pairs_ = [(c.starts[i][0], c.ends[j]) for i, j in enumerate(perm)]
            if any(e_ < s_ for s_, e_ in pairs_):
                continue
            # Each record to a distinct pair of this pairing (all ways).
            for recs_at in itertools.permutations(range(n), nr):
                if not all(fits(offsets(*pairs_[k], c.records[ri])[0],
                                a.stall_max) and
                           fits(offsets(*pairs_[k], c.records[ri])[1],
                                a.stall_max)
                           for ri, k in enumerate(recs_at)):
                    continue
                rec_of = {k: ri for ri, k in enumerate(recs_at)}
                ok, nst, got = True, 0, []
                for k, (s_, e_) in enumerate(pairs_):
                    rec = rec_of.get(k)
                    if rec is None and e_ - s_ > thr + tol + NEG and s_ok:
                        if e_ - s_ - a.stall_max > thr:
                            ok = False
                            break
                        nst += 1
                    if rec is not None:
                        es, ee = offsets(s_, e_, c.records[rec])
                        nst += max(es, ee) > tol
                    got.append((s_, e_, rec))
                if ok and (found is None or nst < found_stalls):
                    found, found_stalls = got, nst
        if found is not None:
            cluster_stalls += found_stalls
        if found is None:
            cluster_fail.append('cluster %s: no pairing of issues %s and completions %s gives the records %s' % (
                c.key, [s_ for s_, _ in c.starts], c.ends,
                [(r['ts'], r['delay']) for r in c.records]))
            continue
        # The histogram: a reported pair's delay is the record's; the
        # others', under the threshold, are any of the cluster's possible.
        span = [e_ - s_ for s_, _ in c.starts for e_ in c.ends if e_ >= s_]
        for s_, e_, rec in found:
            if rec is not None:
                r = c.records[rec]
                es, ee = offsets(s_, e_, r)
                deltas.append(abs(int(r['delay']) - (e_ - s_)))
                cl_hist.append((int(r['delay']), int(r['delay']), not s_ok,
                                e_ - s_))
            else:
                cl_hist.append((min(span) - tol - NEG,
                                min(max(span), thr) + tol + NEG,
                                not s_ok, e_ - s_))

    # --- checks ---
    s0, s1 = parse_kv(a.stats0), parse_kv(a.stats1)
    ds = {k: s1.get(k, 0) - s0.get(k, 0) for k in s1}
    h0, h1 = parse_hist(a.hist0), parse_hist(a.hist1)
    dh = [y - x for x, y in zip(h0, h1)]

    certain = [p for p in pairs if p.optional is None]
    optional = [p for p in pairs if p.optional is not None]
    over = [p for p in certain if p.delay > thr + tol + NEG]
    border = [p for p in certain if abs(p.delay - thr) <= tol + NEG]
    # Under the threshold for the tracker because it was preempted
    # inside the sys_enter tracepoint (Pair.start_slack): not missed.
    missed = [p for p in over if p.record is None and
              p.delay - p.start_slack > thr + tol + NEG]
    tp_missed = [p for p in over if p.record is None and p not in missed]
    # ... or only if it was still inside after a further preemption: a
    # stall (Analyzer.tp_switch).
    tp_more = [p for p in missed if
               p.delay - p.start_slack_more <= thr + tol + NEG]
    missed = [p for p in missed if p not in tp_more]
    for p in (tp_missed + tp_more)[:10]:
        diag('preempted inside the sys_enter tracepoint%s, no record: pair of %s (%s), delay %d us, %d us of it before the tracker\'s probe could run' % (
            '' if p in tp_missed else ' (still inside after a further preemption: a stall)',
            p.key, p.comm, p.delay // NS_PER_US,
            max(p.start_slack, p.start_slack_more) // NS_PER_US))
    # A stall at the start shortens the tracker's delay: a pair over the
    # threshold by less than a stall may be under it for the tracker.
    missed_stall = [p for p in missed if p.delay - a.stall_max <= thr]
    missed_hard = [p for p in missed if p.delay - a.stall_max > thr]
    matched_recs = sum(1 for p in pairs if p.record is not None) + \
        sum(len(c.records) for c in an.clusters)

    opt_why = defaultdict(int)
    for p in optional:
        opt_why[p.optional] += 1
    for why, n in sorted(opt_why.items()):
        diag('optional pairs (%s): %d, %d of them with a record' % (
            why, n, sum(1 for p in optional if p.optional == why and
                        p.record is not None)))
    for k, v in sorted(an.notes.items()):
        diag('trace: %s: %d' % (k, v))
    if an.clusters:
        diag('same-sector clusters: %d (%d requests), compared as sets' % (
            len(an.clusters), cluster_pairs))

    # 1. The workload produced what the oracle is about.
    n_over = len(over) + sum(1 for x in cl_hist
                             if not x[2] and x[3] > thr + tol + NEG)
    roles = [x for x in a.roles.split(',') if x]
    seen_roles = {p.comm for p in pairs}
    missing_roles = [x for x in roles
                     if not any(c.startswith(x) for c in seen_roles)]
    if missing_roles:
        diag('roles without a pair: %s' % ' '.join(missing_roles))
    result(n_over >= a.min_over and not missing_roles and
           len(an.clusters) >= a.min_clusters,
           '%s: the workload made %d pairs over the threshold (>= %d), %d in all%s%s' % (
               trk, n_over, a.min_over, len(pairs) + cluster_pairs,
               ', each role has pairs' if roles else '',
               ', %d same-sector clusters (>= %d)' % (
                   len(an.clusters), a.min_clusters) if a.min_clusters else ''))

    # 2. Nothing lost on the tracker's side.
    lost_all = ds.get('dropped', 0) + ds.get('alerts_lost', 0) + lost
    diag('tracker stats over the run: %s' % ' '.join(
        '%s %+d' % (k, v) for k, v in sorted(ds.items())
        if k in ('tracked', 'matched', 'over_threshold', 'dropped',
                 'alerts', 'alerts_lost', 'timeouts', 'cancelled',
                 'filtered')))
    result(lost_all == 0 and ds.get('timeouts', 0) == 0,
           '%s: no event dropped, no alert lost, no timeout' % trk)

    # 3. Every pair over the threshold has exactly one record.
    for p in (missed_hard + missed_stall)[:10]:
        diag('MISSED%s: pair of %s (%s): start %d end %d delay %d us ident %s' % (
            '' if p in missed_hard else ' (within a stall of the threshold)',
            p.key, p.comm, p.start, p.end, p.delay // NS_PER_US, p.ident))
    result(not missed_hard, '%s: every pair over the threshold has its record (%d pairs, %d within %d us of it, %d missed, %d of them by less than a stall%s)' % (
        trk, len(over), len(border), tol // NS_PER_US, len(missed),
        len(missed_stall),
        '; %d without one, preempted inside sys_enter, %d of them only if still inside after a further preemption' % (
            len(tp_missed) + len(tp_more), len(tp_more))
        if tp_missed or tp_more else ''))

    # 4. No record without its pair.
    for r, why in unmatched[:10]:
        diag('NO PAIR: %s (%s)' % (' '.join('%s=%s' % kv for kv in r.items()), why))
    for s_ in cluster_fail[:5]:
        diag('CLUSTER: ' + s_)
    result(not unmatched and not cluster_fail,
           '%s: every record has its pair in the trace (%d records)' % (
               trk, len(recs)))

    # 5. Identity of the records.
    for r, bad in bad_ident[:10]:
        diag('FIELDS: %s: %s' % (rec_key(trk, r), ', '.join(bad)))
    result(not bad_ident, '%s: the records name the pairs\' %s' % (
        trk, '/'.join(IDENT_FIELDS[trk])))

    # 6. over_threshold counts the records.
    result(ds.get('over_threshold', 0) == len(recs) and
           ds.get('alerts', len(recs)) == len(recs),
           '%s: over_threshold +%d == records %d' % (
               trk, ds.get('over_threshold', 0), len(recs)))

    # 7. Totals: every counted pair is matched once.
    lo = len(certain) + sum(1 for x in cl_hist if not x[2])
    hi = lo + len(optional) + sum(1 for x in cl_hist if x[2])
    hist_total = sum(dh)
    result(lo <= ds.get('matched', -1) <= hi and hist_total == ds.get('matched'),
           '%s: matched +%d within the trace\'s pairs [%d, %d], histogram total %d' % (
               trk, ds.get('matched', -1), lo, hi, hist_total))

    # 8. Histogram buckets.  A reported pair is in its record's bucket;
    # another one within tol + NEG of its trace delay, or (a stall) in
    # any bucket: the fewest such pairs that make the buckets match.
    classes = defaultdict(int)
    edge = 0
    items = []
    for p in pairs:
        if p.record is not None:
            d = int(p.record['delay'])
            items.append((d, d, p.optional is not None, p.delay))
        else:
            # Unreported: under the threshold for the tracker, unless
            # optional or missed (counted above).  A pair only a further
            # preemption explains is counted once, above (tp_more).
            hi_ = p.delay + p.end_slack + tol + NEG
            if p.optional is None and p not in missed:
                hi_ = min(hi_, thr + tol + NEG)
            items.append((p.delay - max(p.start_slack, p.start_slack_more if
                                        p in tp_more else 0) - tol - NEG,
                          hi_, p.optional is not None, p.delay))
    items += cl_hist
    for lo_, hi_, opt, d in items:
        bs = tuple(range(bucket(max(0, lo_)), bucket(hi_) + 1))
        if len(bs) > 1:
            edge += 1
        classes[(bs, opt)] += 1
    budget = max(a.stall_min, int(a.stall_fraction * len(items)))
    hist_stalls = hist_min_wild(classes, dh, budget)
    if hist_stalls is None or hist_stalls:
        tb = [0] * HIST_BUCKETS
        for lo_, hi_, opt, d in items:
            if not opt:
                tb[bucket(d)] += 1
        for b in range(HIST_BUCKETS):
            if tb[b] or dh[b]:
                diag('bucket [%d, %d] ns: trace %d, tracker %d' % (
                    (1 << (b - 1)) if b else 0, (1 << b) - 1 if b else 0,
                    tb[b], dh[b]))
    result(hist_stalls is not None,
           '%s: histogram buckets match the trace (%d pairs within %d us of an edge, %s moved by a stall)' % (
               trk, edge, (tol + NEG) // NS_PER_US,
               'more than %d' % budget if hist_stalls is None else hist_stalls))

    # 9. Stalls: rare, and only ever making the tracker's clock late.
    n_stalls = len(stalled) + len(missed_stall) + len(tp_more) + \
        cluster_stalls + (hist_stalls or 0)
    diag('stalls: records late at the start %d, at the end %d, without their waker %d; pairs over the threshold unreported %d; in same-sector clusters %d; histogram %s' % (
        sum(1 for _, es, ee in stalled if es > tol),
        sum(1 for _, es, ee in stalled if ee > tol),
        sum(1 for _, es, ee in stalled if es == ee == 0),
        len(missed_stall) + len(tp_more), cluster_stalls,
        hist_stalls if hist_stalls is not None else '> %d' % budget))
    for r, es, ee in stalled[:5]:
        diag('stall: %s %s: tracker clock late by %d us at the start, %d us at the end' % (
            rec_key(trk, r), r.get('comm', ''), es // NS_PER_US, ee // NS_PER_US))
    if trk == 'offcpu' and stalled:
        # A start that is also the end of a reported pair (the same
        # sched_switch brought a reported task in): the start's clock
        # read came after that report.
        rep_ends = {p.end for p in pairs if p.record is not None}
        late = [x for x in stalled if x[1] > tol]
        after = [x for x in late
                 if int(x[0]['ts']) - int(x[0]['delay']) - x[1] in rep_ends]
        diag('offcpu: %d of the %d records late at the start began at a switch that also ended a reported pair (%d such starts among all %d records)' % (
            len(after), len(late),
            sum(1 for p in pairs if p.record is not None and p.start in rep_ends),
            len(recs)))
    result(hist_stalls is not None and n_stalls <= budget,
           '%s: stalled clock reads %d (records %d, missed %d, clusters %d, histogram %d) <= %d (%.0f %% of %d pairs)' % (
               trk, n_stalls, len(stalled), len(missed_stall) + len(tp_more),
               cluster_stalls,
               hist_stalls or 0, budget, 100 * a.stall_fraction, len(items)))

    maxd = max(deltas) if deltas else 0
    exact = sorted(x for x in deltas)
    if exact:
        diag('record vs trace delay differences: median %.1f us, 99th percentile %.1f us, max %.1f us' % (
            exact[len(exact) // 2] / NS_PER_US,
            exact[len(exact) * 99 // 100] / NS_PER_US, maxd / NS_PER_US))
    def tp_used(p):
        es, ee = offsets(p.start, p.end, p.record)
        return (es > tol and p.start_slack) or (ee > tol and p.end_slack)
    tp_pre = [p for p in pairs if p.record is not None and tp_used(p)]
    maxe = max([abs(p.delay - int(p.record['delay'])) for p in pairs
                if p.record is not None and p not in tp_pre and
                not any(r is p.record for r, _, _ in stalled)] or [0])
    if tp_pre:
        diag('preempted inside the syscall tracepoint (after ftrace\'s probe, before the tracker\'s): %d reported pairs, up to %.1f us' % (
            len(tp_pre), max(p.start_slack + p.end_slack for p in tp_pre) / NS_PER_US))
    print('# oracle %s: trace pairs over threshold %d, records %d, matched %d, '
          'max |delta| %.1f us (%.1f us without the %d stalled%s), '
          'histogram total trace %d%s / tracker %d' % (
              trk, n_over, len(recs), matched_recs, maxd / NS_PER_US,
              maxe / NS_PER_US, len(stalled),
              ' and the %d preempted in the tracepoint' % len(tp_pre) if tp_pre else '',
              lo, '' if hi == lo else '..%d' % hi, hist_total))
    assert len(results) == RESULTS
    return 0


if __name__ == '__main__':
    sys.exit(main())
