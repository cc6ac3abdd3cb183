#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""custom_check.py MODE DIR [options] - a custom tracker's records and
counts against the kernel's own trace of the same run (custom.sh).

DIR holds: trace (ftrace, trace_clock=mono, record-tgid on, with the
trace_marker lines "custom begin" and "custom end" around the workload),
alerts (the tracker's records), stats0/stats1 and hist0/hist1 (its stats
and histogram before and after), and for MODE fn dmesg (the kernel log of
the run).  The trace's pairs, per MODE:

  fn   kprobe event rd_in and kretprobe event rd_out on one function, per
       thread of the process --tgid (entry, then return)
  blk  kprobe events rq_start and rq_end, each with rq=<arg1>, per request
       pointer (a start, then the next end of that pointer)
  sc   raw_syscalls sys_enter and sys_exit, per thread of --tgid

A pair counts when it starts after "custom begin" and ends before "custom
end".  Prints one "PASS what" or "FAIL what" line per check (7, 8 for fn),
and "# " diagnostics:

  1. the trace holds pairs;
  2. matched (stats1 - stats0) == the pairs;
  3. every pair over the threshold (by more than the tolerance) has
     exactly one threshold record, pairs under it (by more than the
     tolerance) none, and no record is left without its pair;
  4. each record's delay is the pair's within the tolerance; one off by
     more, at most --stall-us, is a stall (a vCPU paused, or an interrupt
     handled, between the trace's clock read and the tracker's: at a
     kretprobe's return the tracker's handler runs first, so either way),
     allowed for max(1, --stall-frac of the pairs);
  5. the histogram's new counts add up to the new matched events;
  6. the records' fields: fn, sc: pid is the pair's thread, tgid --tgid,
     key= its tid in hex; blk: key= is never a kernel address, and one
     request pointer always gives one key, two pointers two keys;
  7. the workload ran as planned: fn, sc: each of --delays (ms) has a pair
     that long (-5 ms, +100 ms); blk: every pair is at least --min-us;
  8. (fn) --timeout: each pair longer than it has one timeout record
     (delay >= timeout, at most the pair's, cpu=-1, the pair's thread),
     and without it none; either way dmesg has one stack report per
     record, each with frames and
     none of kprobes', ftrace's or our modules': the threshold ones with a
     frame named like --ret-frame (the probed function's caller), the
     timeout one like --sleep-frame (where the task sleeps).
  9. (fn) every record's stack= field the same way (frames, none of
     the machinery, --ret-frame or for a timeout --sleep-frame);
     (blk, sc: defined without stack=1) no record has a stack= field.
"""
import argparse
import re
import sys

LINE = re.compile(r"^\s*(?P<comm>.*)-(?P<pid>\d+)\s+\(\s*(?P<tgid>[\d-]+)\)\s+"
                  r"\[(?P<cpu>\d+)\]\s+(?:\S+\s+)?(?P<ts>\d+)\.(?P<us>\d+):\s+"
                  r"(?P<ev>[\w.]+):\s*(?P<rest>.*)$")
RAW_PTR = re.compile(r"^0xffff[0-9a-f]{12}$")
MACHINERY = re.compile(r"kprobe|rethook|ftrace|__traceiter|int3|"
                       r"\[latency_tracker")

results = []


def check(ok, what):
    results.append(("PASS " if ok else "FAIL ") + what)


def diag(msg):
    print("# " + msg)


def stats(path):
    out = {}
    with open(path) as f:
        for line in f:
            k, _, v = line.partition(" ")
            out[k] = int(v) if v.strip().isdigit() else v.strip()
    return out


def hist_total(path):
    with open(path) as f:
        return sum(int(line.split()[2]) for line in f if line.strip())


def records(path, tracker):
    out = []
    with open(path) as f:
        for line in f:
            kv = dict(p.split("=", 1) for p in line.split() if "=" in p)
            if kv.get("tracker") == tracker:
                out.append(kv)
    return out


def trace_events(path):
    """(ns, tid, tgid, event, rest) of each line, and the marker times."""
    events, marks = [], {}
    with open(path) as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            ns = int(m["ts"]) * 10**9 + int(m["us"].ljust(9, "0")[:9])
            if m["ev"] == "tracing_mark_write":
                marks[m["rest"].strip()] = ns
                continue
            tgid = int(m["tgid"]) if m["tgid"].isdigit() else -1
            events.append((ns, int(m["pid"]), tgid, m["ev"], m["rest"]))
    return events, marks


def pairs_of(mode, events, tgid):
    """[(start_ns, end_ns, who)]: who is the thread (fn, sc) or rq (blk)."""
    start_ev, end_ev = {"fn": ("rd_in", "rd_out"),
                        "blk": ("rq_start", "rq_end"),
                        "sc": ("sys_enter", "sys_exit")}[mode]
    open_, pairs = {}, []
    for ns, tid, tg, ev, rest in events:
        if ev not in (start_ev, end_ev):
            continue
        if mode == "blk":
            m = re.search(r"\brq=(0x[0-9a-f]+)", rest)
            if not m:
                continue
            who = m[1]
        else:
            if tg != tgid:
                continue
            who = tid
        if ev == start_ev:
            open_[who] = ns
        elif who in open_:
            pairs.append((open_.pop(who), ns, who))
    return pairs


def match(recs, pairs, tol, stall, keyed=False):
    """Each threshold record to the pair it measured: the nearest in start
    and end within tol + stall; returns {record index: pair index}.
    KEYED (blk: a pair's third field is its request pointer, a record's
    key= is that pointer's hash): records with one pair within reach are
    matched first, and a record with several then takes the one whose
    pointer those first matches gave its key, if any -- two readers'
    requests may start and end within a stall of each other, and the
    nearest alone may swap them."""
    taken, out, rq_of = set(), {}, {}

    def reach(r):
        end = int(r["ts"])
        start = end - int(r["delay"])
        return sorted((abs(ps - start) + abs(pe - end), j)
                      for j, (ps, pe, _) in enumerate(pairs)
                      if abs(ps - start) <= tol + stall
                      and abs(pe - end) <= tol + stall)

    order = list(enumerate(recs))
    if keyed:
        order.sort(key=lambda ir: len(reach(ir[1])) != 1)
    for i, r in order:
        cands = [j for _, j in reach(r) if j not in taken]
        if keyed:
            known = [j for j in cands if rq_of.get(r["key"]) == pairs[j][2]]
            cands = known or cands
        if cands:
            taken.add(cands[0])
            out[i] = cands[0]
            if keyed:
                rq_of.setdefault(r["key"], pairs[cands[0]][2])
    return out


def stacks(path, name):
    """[(us, [frames])] of the stack reports of tracker NAME in dmesg."""
    head = re.compile(r"^latency_tracker_custom: " + re.escape(name) +
                      r": .* \((\d+)\) (\d+) us$")
    frame = re.compile(r"^latency_tracker_custom:   (\S+)")
    out = []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            m = head.match(line)
            if m:
                out.append((int(m[2]), []))
                continue
            m = frame.match(line)
            if m and out:
                out[-1][1].append(m[1])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("fn", "blk", "sc"))
    ap.add_argument("dir")
    ap.add_argument("--tracker", required=True)
    ap.add_argument("--tgid", type=int, default=-1)
    ap.add_argument("--threshold", type=int, required=True)
    ap.add_argument("--timeout", type=int, default=0)
    ap.add_argument("--delays", default="")
    ap.add_argument("--min-us", type=int, default=0)
    ap.add_argument("--tol-us", type=int, default=502)
    ap.add_argument("--stall-us", type=int, default=50000)
    ap.add_argument("--stall-frac", type=float, default=0.10)
    ap.add_argument("--ret-frame", default="")
    ap.add_argument("--sleep-frame", default="")
    a = ap.parse_args()
    d = a.dir
    tol, stall = a.tol_us * 1000, a.stall_us * 1000

    events, marks = trace_events(d + "/trace")
    begin, end = marks.get("custom begin"), marks.get("custom end")
    pairs = []
    if begin is not None and end is not None:
        pairs = [p for p in pairs_of(a.mode, events, a.tgid)
                 if p[0] > begin and p[1] < end]
    recs = records(d + "/alerts", a.tracker)
    thr = [r for r in recs if r.get("cause") == "threshold"]
    tmo = [r for r in recs if r.get("cause") == "timeout"]
    s0, s1 = stats(d + "/stats0"), stats(d + "/stats1")
    matched = s1["matched"] - s0["matched"]
    diag(f"{a.mode}: {len(pairs)} pairs in the trace, matched +{matched}, "
         f"{len(thr)} threshold and {len(tmo)} timeout records, "
         f"dropped {s1['dropped']}, lost {s1['alerts_lost']}")

    check(len(pairs) > 0 and begin is not None and end is not None,
          f"{a.mode}: the trace holds pairs ({len(pairs)})")
    check(matched == len(pairs),
          f"{a.mode}: matched == the trace's pairs ({matched}, {len(pairs)})")

    m = match(thr, pairs, tol, stall, keyed=a.mode == "blk")
    over = {j for j, (ps, pe, _) in enumerate(pairs)
            if pe - ps > a.threshold + tol}
    under = {j for j, (ps, pe, _) in enumerate(pairs)
             if pe - ps < a.threshold - tol}
    got = set(m.values())
    unmatched = [r for i, r in enumerate(thr) if i not in m]
    for r in unmatched:
        diag(f"record without its pair: {r}")
    for j in sorted(over - got):
        diag(f"pair without its record: {pairs[j]} "
             f"({(pairs[j][1] - pairs[j][0]) // 1000} us)")
    for j in sorted(under & got):
        diag(f"record of a pair under the threshold: {pairs[j]}")
    check(not unmatched and over <= got and not (under & got),
          f"{a.mode}: one record per pair over the threshold, no other "
          f"({len(over)} over, {len(got)} matched)")

    worst, stalls = 0, 0
    for i, j in m.items():
        diff = int(thr[i]["delay"]) - (pairs[j][1] - pairs[j][0])
        if abs(diff) > tol:
            stalls += 1
            diag(f"stall: record {thr[i]['delay']} ns, pair "
                 f"{pairs[j][1] - pairs[j][0]} ns ({diff // 1000} us)")
        else:
            worst = max(worst, abs(diff))
    budget = max(1, int(a.stall_frac * len(pairs)))
    check(stalls <= budget,
          f"{a.mode}: delays within {a.tol_us} us of the trace's (worst "
          f"{worst // 1000} us), {stalls} stalls (at most {budget})")

    hist = hist_total(d + "/hist1") - hist_total(d + "/hist0")
    check(hist == matched,
          f"{a.mode}: the histogram counts the matched events ({hist})")

    if a.mode == "blk":
        key_of, rq_of, raw = {}, {}, 0
        for i, j in m.items():
            k, rq = thr[i]["key"], pairs[j][2]
            raw += bool(RAW_PTR.match(k) or k == rq)
            key_of.setdefault(rq, set()).add(k)
            rq_of.setdefault(k, set()).add(rq)
        bij = all(len(v) == 1 for v in key_of.values()) and \
            all(len(v) == 1 for v in rq_of.values())
        diag(f"{len(key_of)} request pointers, {len(rq_of)} keys")
        check(raw == 0 and bij and key_of,
              "blk: key= is a hash, never a kernel address; one key per "
              "request pointer and one pointer per key")
        short = [p for p in pairs if p[1] - p[0] < a.min_us * 1000]
        check(pairs and not short,
              f"blk: every request took at least {a.min_us} us "
              f"({len(short)} shorter)")
    else:
        bad = [r for i, r in enumerate(thr) if i in m and not (
            int(r["pid"]) == pairs[m[i]][2] and int(r["tgid"]) == a.tgid and
            r["key"] == hex(pairs[m[i]][2]) and r["cpu"].isdigit())]
        for r in bad:
            diag(f"fields: {r}")
        check(thr and not bad,
              f"{a.mode}: records name the pair's thread, its process, "
              "its tid as the key, a CPU")
        missing = []
        for ms in (int(x) for x in a.delays.split(",") if x):
            if not any(ms * 10**6 - 5 * 10**6 <= pe - ps <=
                       ms * 10**6 + 100 * 10**6 for ps, pe, _ in pairs):
                missing.append(ms)
        check(not missing,
              f"{a.mode}: the workload's delays are in the trace ({a.delays} ms;"
              f" missing: {missing})")

    if a.mode != "fn":
        check(not any("stack" in r for r in thr + tmo),
              f"{a.mode}: defined without stack=1: no record has stack=")
    if a.mode == "fn":
        # Without --timeout (the tracker has none): no timeout record.
        longer = [p for p in pairs if p[1] - p[0] > a.timeout + tol] \
            if a.timeout else []
        ok_t = len(tmo) == len(longer) and (bool(tmo) or not a.timeout)
        for r in tmo:
            ok_t &= r["cpu"] == "-1" and int(r["delay"]) >= a.timeout and \
                any(int(r["pid"]) == p[2] and
                    int(r["delay"]) <= p[1] - p[0] + tol for p in longer)
        st = stacks(d + "/dmesg", a.tracker)
        thr_us = [int(r["delay"]) // 1000 for r in thr]
        tmo_us = [int(r["delay"]) // 1000 for r in tmo]
        ok_s = sorted(us for us, _ in st) == sorted(thr_us + tmo_us)
        for us, frames in st:
            want = a.sleep_frame if us in tmo_us else a.ret_frame
            if not frames or any(MACHINERY.search(f) for f in frames) or \
                    not any(want in f for f in frames):
                ok_s = False
                diag(f"stack of {us} us (want {want}): {';'.join(frames)}")
            else:
                diag(f"stack of {us} us: {';'.join(frames)}")
        # The records carry the same stacks (stack=, frames ';'-separated).
        ok_r = True
        for r in thr + tmo:
            want = a.sleep_frame if r in tmo else a.ret_frame
            frames = [f for f in r.get("stack", "").split(";") if f]
            if not frames or any(MACHINERY.search(f) for f in frames) or \
                    not any(want in f for f in frames):
                ok_r = False
                diag(f"record of {r['delay']} ns (want {want}): "
                     f"stack={r.get('stack')}")
        check(ok_r, f"fn: every record's stack= from the probed code up "
              f"({a.ret_frame}; {a.sleep_frame} for a timeout)")
        what = (f"one timeout record per pair over the timeout "
                f"({len(tmo)}, {len(longer)})" if a.timeout else
                f"no timeout record without a timeout ({len(tmo)})")
        check(ok_t and ok_s,
              f"fn: {what}; one stack report per record "
              f"({len(st)}), from the probed code up")

    for line in results:
        print(line)


main()
