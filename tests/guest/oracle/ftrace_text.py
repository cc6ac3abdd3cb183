# SPDX-License-Identifier: GPL-2.0-only
"""ftrace_text.py - the two texts the guest checks read, parsed in one
place for oracle.py and progs/app_check.py:

  - ftrace's text output (the `trace` file, trace_clock mono or local):
    event lines (LINE_RE: task, pid, cpu, time to the microsecond, event,
    the rest) and the rest of the scheduler events those checks follow;
  - our alert records (`alerts`, one `key=value` per blank-separated
    field, bytes outside printable ASCII escaped as \\xHH).
"""
import re

LINE_RE = re.compile(
    r'^\s*(?P<task>.*?)-(?P<pid>\d+)\s+(?:\(\s*[-\d]+\)\s+)?\[(?P<cpu>\d+)\]'
    r'\s+(?:\S+\s+)?(?P<s>\d+)\.(?P<us>\d{6}): (?P<ev>\w+): (?P<rest>.*)$')
SWITCH_RE = re.compile(
    r'prev_comm=(.*) prev_pid=(\d+) prev_prio=(-?\d+) prev_state=(\S+) ==> '
    r'next_comm=(.*) next_pid=(\d+) next_prio=(-?\d+)\s*$')
# sched_waking and sched_wakeup.
WAKING_RE = re.compile(r'comm=(.*) pid=(\d+) prio=(-?\d+)')


def line_ts(m):
    """The time of a LINE_RE match, ns (the trace shows microseconds)."""
    return int(m.group('s')) * 1000000000 + int(m.group('us')) * 1000


def blocked_state(st):
    """A sched_switch prev_state that leaves the task asleep."""
    return '+' not in st and st != 'R' and 'X' not in st and 'Z' not in st


def unescape(v):
    return re.sub(r'\\x([0-9a-fA-F]{2})', lambda m: chr(int(m.group(1), 16)), v)


def record(line):
    """An alert record's fields, {key: value}, values unescaped."""
    kv = {}
    for tok in line.split():
        k, _, v = tok.partition('=')
        kv[k] = unescape(v)
    return kv
