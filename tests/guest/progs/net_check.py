#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""net_check.py - the net trackers' records against the workload's
connections (progs/net_load.py's output) and the kernel's trace of the
same run (trace_clock mono).

Usage: net_check.py TRACKER TRACE ALERTS LOAD_OUT TOL_US [DEV]
(TRACE `-`: no trace, the records only.)

The trace has three kprobe events at the points where the trackers' own
kprobes are (tests/guest/net.sh): lt_net/accept, the return of
inet_csk_accept(); lt_net/send, the entry of tcp_sendmsg();
lt_net/udp_copy, the entry of skb_consume_udp().

TRACKER ttfb: each connection of LOAD_OUT has one ttfb record with its
4-tuple, proto=tcp and the workload's pid; each record's delay is within
TOL_US of the trace's interval from the workload's accept (lt_net/accept)
to its next send (lt_net/send), the last send before the record's end.

TRACKER netrx: each datagram of LOAD_OUT has one netrx record with its
4-tuple, proto=udp, dev=DEV and the workload's pid; each record's delay
is within TOL_US of the trace's interval from the datagram's receipt to
the workload's copy at the record's end (lt_net/udp_copy).  The receipt
is the last net:netif_receive_skb on DEV of a datagram of the workload's
length (64 bytes of data: 92 bytes with IPv4's headers, 112 with IPv6's)
before that copy: the workload sends its next datagram only after it.
(The skb's address would pair them better, but the kprobe event cannot
show it without a raw kernel address, and the trace hashes the one
netif_receive_skb prints.)

TRACKER absent: no record of any tracker names a connection of LOAD_OUT
(its local port and peer port).

Prints PASS/FAIL lines (tests/guest/lib.sh, tap_results): two for ttfb
and netrx (one without a trace), one for absent; `# ` lines explain.
"""
import bisect
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'oracle'))
import ftrace_text as ft  # noqa: E402

# A trace line: syscall events print no "event:" of their own.
LINE_RE = re.compile(
    r'^\s*(?P<task>.*?)-(?P<pid>\d+)\s+(?:\(\s*[-\d]+\)\s+)?\[(?P<cpu>\d+)\]'
    r'\s+(?:\S+\s+)?(?P<s>\d+)\.(?P<us>\d{6}): (?P<rest>.*)$')
RX_RE = re.compile(r'^netif_receive_skb: dev=(\S+) .*len=(\d+)')
# The workload's datagrams at the device layer (IPv4, IPv6).
RX_LENS = ('92', '112')


def load_out(path):
    pid, conns = None, []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith('pid='):
                pid = line[4:]
            elif line.startswith('conn '):
                conns.append(ft.record(line[5:]))
    return pid, conns


def records(path, tracker=None):
    out = []
    with open(path) as f:
        for line in f:
            r = ft.record(line)
            if r.get('cause') in ('threshold', 'timeout') and \
                    (tracker is None or r.get('tracker') == tracker):
                out.append(r)
    return out


def trace(path):
    """{pid: [(ns, rest)]} and {dev: [receipt ns of the workload's
    datagrams]}, in time order."""
    by_pid, rx = {}, {}
    with open(path) as f:
        for line in f:
            m = LINE_RE.match(line)
            if not m:
                continue
            t = ft.line_ts(m)
            rest = m.group('rest')
            by_pid.setdefault(m.group('pid'), []).append((t, rest))
            s = RX_RE.match(rest)
            if s and s.group(2) in RX_LENS:
                rx.setdefault(s.group(1), []).append(t)
    return by_pid, rx


def result(ok, what):
    print('%s %s' % ('PASS' if ok else 'FAIL', what))


def same_conn(r, c):
    return (r.get('sport') == c['sport'] and r.get('dport') == c['dport'])


def tuple_records(tracker, recs, pid, conns, proto, dev):
    """One record per connection, with its 4-tuple: (found, [(rec)])."""
    found = []
    for c in conns:
        mine = [r for r in recs if same_conn(r, c)]
        ok = (len(mine) == 1 and mine[0]['saddr'] == c['saddr'] and
              mine[0]['daddr'] == c['daddr'] and
              mine[0].get('proto') == proto and mine[0]['tgid'] == pid and
              mine[0]['pid'] == pid and mine[0]['cause'] == 'threshold' and
              (dev is None or mine[0].get('dev') == dev))
        if ok:
            found.append(mine[0])
        else:
            print('# %s %s:%s: %s' % (tracker, c['saddr'], c['sport'],
                                      ' | '.join(' '.join(
                                          '%s=%s' % kv for kv in r.items())
                                          for r in mine) or 'no record'))
    return found


def ttfb_delay(ev, r, tol):
    """The trace's accept-to-send interval ending at record @r, or None."""
    end = int(r['ts'])
    sends = [t for t, rest in ev if rest.startswith('send:')]
    i = bisect.bisect_right(sends, end + tol) - 1
    if i < 0:
        return None
    accepts = [t for t, rest in ev if rest.startswith('accept:')
               and t <= sends[i]]
    return sends[i] - accepts[-1] if accepts else None


def netrx_delay(ev, rx, r, tol):
    """The trace's receipt-to-copy interval ending at record @r."""
    end = int(r['ts'])
    copies = [t for t, rest in ev if rest.startswith('udp_copy:')
              and end - tol <= t <= end + tol]
    if not copies:
        return None
    starts = [t for t in rx if t <= copies[0]]
    return copies[0] - starts[-1] if starts else None


def check_delays(tracker, found, delay_of, tol):
    within = 0
    for r in found:
        d = delay_of(r)
        ok = d is not None and abs(int(r['delay']) - d) <= tol
        within += ok
        print('# %s sport=%s dport=%s delay=%s trace=%s' %
              (tracker, r['sport'], r['dport'], r['delay'], d))
    # All but one in five: a stall of the emulated CPU between the
    # trace's clock read and ours may last milliseconds.
    result(found and within * 5 >= len(found) * 4,
           '%s: %d of the %d records (at least 4 in 5) within %d us of '
           'the trace' % (tracker, within, len(found), tol // 1000))


def main():
    tracker, tpath, apath, lpath = sys.argv[1:5]
    tol = int(sys.argv[5]) * 1000
    dev = sys.argv[6] if len(sys.argv) > 6 else None
    pid, conns = load_out(lpath)
    if tracker == 'absent':
        bad = [r for r in records(apath) for c in conns if same_conn(r, c)]
        for r in bad:
            print('# unexpected: %s' % ' '.join('%s=%s' % kv
                                                for kv in r.items()))
        result(conns and not bad, 'no record of the %d connections' %
               len(conns))
        return
    proto = 'tcp' if tracker == 'ttfb' else 'udp'
    found = tuple_records(tracker, records(apath, tracker), pid, conns,
                          proto, dev)
    result(conns and len(found) == len(conns),
           '%s: a record with its 4-tuple, proto=%s%s and the pid for '
           'each of the %d connections (%d)' %
           (tracker, proto, ' dev=' + dev if dev else '', len(conns),
            len(found)))
    if tpath == '-':
        return
    by_pid, rx = trace(tpath)
    ev = by_pid.get(pid, [])
    if tracker == 'ttfb':
        check_delays(tracker, found, lambda r: ttfb_delay(ev, r, tol), tol)
    else:
        check_delays(tracker, found,
                     lambda r: netrx_delay(ev, rx.get(dev, []), r, tol), tol)


if __name__ == '__main__':
    main()
