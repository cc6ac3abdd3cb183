#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""check_timeline.py - read a `latency-tracker timeline` back with readers
that share no code with its writers, and check it.

  check_timeline.py json FILE.json EXPECT.json
  check_timeline.py otf2 NAME.otf2 EXPECT.json
      The timeline must show exactly the threads of EXPECT's "threads",
      each with these summed running / runnable / blocked ns, exactly
      the wakeups (waker tid, wakee tid, ts ns) of EXPECT's "wakeups"
      and, when EXPECT has "requests", exactly those block requests
      (submitter tid, disk "major:minor", sector, start ns, end ns); a
      thread's slices (regions) must nest, and the state slices nested in
      a system call must name it.  JSON: Python's json module (ts and dur
      as exact decimals; a request is a "b"/"e" pair on its submitter);
      OTF2: otf2-print (the OTF2 project's reader) with warnings as
      errors (a request is a region on a location "disk M:m lane N", its
      submitter and sector attributes; each request must be on the first
      lane of its disk free when it started).
  check_timeline.py summary json|otf2 FILE TID CPU TID2 [FROM TO]
      Print "running=N runnable=N blocked=N overlap=N" for thread TID:
      its state totals and how long it was runnable on CPU while TID2 ran
      on that CPU (the CPU track) -- the guest test's question, asked of
      both formats; over [FROM, TO] ns only when given (explain's
      --at TO --window TO-FROM).
  check_timeline.py compare FILE.json NAME.otf2
      The two formats of one snapshot agree: the same threads with the
      same state totals, the same wakeups, the same CPU slices, the same
      block requests.
  check_timeline.py requests FILE.json NAME.otf2
      compare's checks and line, then the block requests: lines
      "requests TID N" (per submitter, OTF2; compare says the JSON has
      the same) and "lanes DISK N" (the OTF2 archive's lanes per disk).
  check_timeline.py both FILE.json NAME.otf2 TID CPU TID2 FROM TO
      All of the above for one snapshot, each file read once: lines
      "json|otf2 [window] <summary>" (over the trace, then over [FROM, TO]),
      then compare's line.

Exit 0 when every check passed; otherwise 1, each failure on stderr.
"""
import decimal
import json
import re
import subprocess
import sys

STATES = ("running", "runnable", "blocked")
errors = []


def fail(msg):
    errors.append(msg)
    print("check_timeline: " + msg, file=sys.stderr)


def ns(us):
    """A trace-event time (microseconds, 3 decimals) to integer ns."""
    return int(decimal.Decimal(us) * 1000)


class Timeline:
    """What both readers produce: per thread its slices (start, end, kind,
    name, state, cpu, syscall), per CPU (start, end, tid), the wakeups,
    the block requests."""

    def __init__(self):
        self.threads = {}      # tid -> [(start, end, kind, name, state, cpu, syscall)]
        self.cpus = {}         # cpu -> [(start, end, tid)]
        self.wakeups = set()   # (waker, wakee, ts)
        self.requests = []     # (tid, "major:minor", sector, start, end)
        self.lanes = []        # OTF2: (disk, lane, start, end)

    def totals(self, tid, lo=0, hi=1 << 64):
        t = dict.fromkeys(STATES, 0)
        for s in self.threads.get(tid, []):
            if s[2] == "state":
                t[s[4]] += max(0, min(s[1], hi) - max(s[0], lo))
        return t

    def overlap(self, tid, cpu, other, lo=0, hi=1 << 64):
        runnable = [(s[0], s[1]) for s in self.threads.get(tid, [])
                    if s[2] == "state" and s[4] == "runnable" and s[5] == cpu]
        ran = [(a, b) for a, b, t in self.cpus.get(cpu, []) if t == other]
        total = 0
        for a0, a1 in runnable:
            for b0, b1 in ran:
                total += max(0, min(a1, b1, hi) - max(a0, b0, lo))
        return total

    def check_lanes(self):
        """Each request is on the first lane of its disk free at its start:
        every lower lane of that disk is busy then."""
        for disk, lane, start, end in self.lanes:
            for low in range(lane):
                if not any(d == disk and l == low and s <= start < e
                           for d, l, s, e in self.lanes):
                    fail("disk %s: the request [%d, %d] is on lane %d, lane %d was free"
                         % (disk, start, end, lane, low))
                    break

    def check_nesting(self):
        for tid, sl in self.threads.items():
            stack = []
            for s in sorted(sl, key=lambda s: (s[0], -(s[1] - s[0]), s[2] != "syscall")):
                while stack and stack[-1][1] <= s[0]:
                    stack.pop()
                if stack and s[1] > stack[-1][1]:
                    fail("thread %d: %s [%d, %d] overlaps %s [%d, %d] without nesting"
                         % (tid, s[3], s[0], s[1], stack[-1][3], stack[-1][0], stack[-1][1]))
                if s[2] == "state" and s[6]:
                    outer = [x for x in stack if x[2] == "syscall"]
                    if not outer or outer[-1][3] != s[6]:
                        fail("thread %d: state %s at %d says syscall %s, nested in %s"
                             % (tid, s[3], s[0], s[6], outer[-1][3] if outer else "none"))
                stack.append(s)


def read_json(path):
    with open(path, encoding="utf-8") as f:
        d = json.load(f, parse_float=decimal.Decimal)
    tl = Timeline()
    cpu_pid = None
    names = {}
    flows = {}
    blocks = {}
    for e in d["traceEvents"]:
        ph = e["ph"]
        if ph == "M":
            if e["name"] == "process_name" and e["args"]["name"] == "CPUs":
                cpu_pid = e["pid"]
            if e["name"] == "thread_name":
                names[(e["pid"], e["tid"])] = e["args"]["name"]
    for e in d["traceEvents"]:
        ph = e["ph"]
        if ph == "X" and e["pid"] == cpu_pid:
            cpu = int(names[(e["pid"], e["tid"])].split()[1])
            start = ns(e["ts"])
            tl.cpus.setdefault(cpu, []).append((start, start + ns(e["dur"]), e["args"]["tid"]))
        elif ph == "X":
            if (e["pid"], e["tid"]) not in names:
                fail("thread %d has no thread_name" % e["tid"])
            a = e.get("args", {})
            start = ns(e["ts"])
            tl.threads.setdefault(e["tid"], []).append(
                (start, start + ns(e["dur"]), e["cat"], e["name"], a.get("state"),
                 a.get("cpu"), a.get("syscall")))
        elif ph in ("s", "f"):
            flows.setdefault(e["id"], {})[ph] = e
        elif ph in ("b", "e") and e.get("cat") == "block":
            blocks.setdefault(e["id"], {})[ph] = e
    for bid, bl in blocks.items():
        if set(bl) != {"b", "e"}:
            fail("block request %s has only %s" % (bid, "".join(bl)))
            continue
        b, e = bl["b"], bl["e"]
        if (b["pid"], b["tid"]) != (e["pid"], e["tid"]) or b["name"] != e["name"]:
            fail("block request %s: begins on %d (%s), ends on %d (%s)"
                 % (bid, b["tid"], b["name"], e["tid"], e["name"]))
        tl.requests.append((b["tid"], b["name"].split()[1], b["args"]["sector"],
                            ns(b["ts"]), ns(e["ts"])))
    for fid, fl in flows.items():
        if set(fl) != {"s", "f"}:
            fail("flow %s has only %s" % (fid, "".join(fl)))
            continue
        s, f = fl["s"], fl["f"]
        tl.wakeups.add((s["tid"], f["tid"], ns(s["ts"])))
        if ns(s["ts"]) != ns(f["ts"]):
            fail("flow %s: starts at %s, ends at %s" % (fid, s["ts"], f["ts"]))
        # The waker runs when it wakes; the wakee's next slice starts then.
        if not any(x[2] == "state" and x[4] == "running" and x[0] <= ns(s["ts"]) <= x[1]
                   for x in tl.threads.get(s["tid"], [])):
            fail("flow %s: waker %d is not running at %s" % (fid, s["tid"], s["ts"]))
        if not any(x[2] == "state" and x[0] == ns(f["ts"]) and x[4] != "blocked"
                   for x in tl.threads.get(f["tid"], [])):
            fail("flow %s: no state of wakee %d starts at %s" % (fid, f["tid"], f["ts"]))
    return tl


LOC_RE = re.compile(r'^LOCATION\s+(\d+)\s+Name: "(.*)" <\d+>, Type: (\w+)')
EV_RE = re.compile(r'^(ENTER|LEAVE)\s+(\d+)\s+(\d+)\s+Region: "(.*)" <\d+>')
ATTR_RE = re.compile(r'\("(\w+)" <\d+>; \w+; (\d+)\)')


def read_otf2(path):
    p = subprocess.run(["otf2-print", "-A", "-Werror", path], capture_output=True,
                       text=True, errors="surrogateescape")
    if p.returncode != 0:
        fail("otf2-print exited %d: %s" % (p.returncode, p.stderr.strip()[:500]))
        return Timeline()
    tl = Timeline()
    locs = {}       # location -> ("thread", tid) or ("cpu", n)
    for line in p.stdout.splitlines():
        m = LOC_RE.match(line)
        if not m:
            continue
        name = m.group(2)
        c = re.fullmatch(r"CPU (\d+)", name)
        t = re.search(r"\[(\d+)\]$", name)
        k = re.fullmatch(r"disk (\d+:\d+) lane (\d+)", name)
        if k:
            locs[int(m.group(1))] = ("disk", k.group(1), int(k.group(2)))
        elif c:
            locs[int(m.group(1))] = ("cpu", int(c.group(1)))
        elif t:
            locs[int(m.group(1))] = ("thread", int(t.group(1)))
    stacks = {}     # location -> [(region, start, attrs, index of the syscall below)]
    last = None
    for line in p.stdout.splitlines():
        m = EV_RE.match(line)
        if m:
            kind, loc, ts, region = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
            st = stacks.setdefault(loc, [])
            if kind == "ENTER":
                st.append([region, ts, {}])
                last = st[-1]
                continue
            last = None
            if not st or st[-1][0] != region:
                fail("location %d: leaves %s at %d, inside %s" % (loc, region, ts,
                                                                   st[-1][0] if st else "nothing"))
                continue
            region, start, attrs = st.pop()
            what = locs.get(loc)
            if what is None:
                fail("events of undefined location %d" % loc)
            elif what[0] == "disk":
                if region != "block " + what[1] or "tid" not in attrs or "sector" not in attrs:
                    fail("disk %s lane %d: region %s at %d with attributes %s"
                         % (what[1], what[2], region, start, attrs))
                    continue
                tl.requests.append((attrs["tid"], what[1], attrs["sector"], start, ts))
                tl.lanes.append((what[1], what[2], start, ts))
            elif what[0] == "cpu":
                tid = int(re.search(r"\[(\d+)\]$", region).group(1))
                tl.cpus.setdefault(what[1], []).append((start, ts, tid))
            elif region in STATES:
                outer = st[-1][0] if st else None
                tl.threads.setdefault(what[1], []).append(
                    (start, ts, "state", region, region, attrs.get("cpu"), outer))
                if "waker_tid" in attrs:
                    tl.wakeups.add((attrs["waker_tid"], what[1], start))
            else:
                tl.threads.setdefault(what[1], []).append(
                    (start, ts, "syscall", region, None, None, None))
        elif last is not None and "ADDITIONAL ATTRIBUTES" in line:
            last[2].update((k, int(v)) for k, v in ATTR_RE.findall(line))
    for loc, st in stacks.items():
        if st:
            fail("location %d: %s never left" % (loc, st[-1][0]))
    # Wakeups between shown threads only, as the JSON flows.
    shown = set(tl.threads)
    tl.wakeups = {w for w in tl.wakeups if w[0] in shown}
    tl.check_lanes()
    return tl


def read(fmt, path):
    return read_json(path) if fmt == "json" else read_otf2(path)


def check(fmt, path, expect_path):
    with open(expect_path, encoding="utf-8") as f:
        exp = json.load(f)
    tl = read(fmt, path)
    want = {int(k): v for k, v in exp["threads"].items()}
    if set(tl.threads) != set(want):
        fail("threads %s, expected %s" % (sorted(tl.threads), sorted(want)))
    for tid, w in sorted(want.items()):
        got = tl.totals(tid)
        for st in STATES:
            if got[st] != w[st]:
                fail("thread %d: %s %d ns, expected %d" % (tid, st, got[st], w[st]))
    wk = {tuple(x) for x in exp["wakeups"]}
    if tl.wakeups != wk:
        fail("wakeups %s, expected %s" % (sorted(tl.wakeups), sorted(wk)))
    if "requests" in exp:
        rq = sorted(tuple(x) for x in exp["requests"])
        if sorted(tl.requests) != rq:
            fail("block requests %s, expected %s" % (sorted(tl.requests), rq))
    tl.check_nesting()


def summary(tl, tid, cpu, other, lo=0, hi=1 << 64):
    t = tl.totals(tid, lo, hi)
    return ("running=%d runnable=%d blocked=%d overlap=%d"
            % (t["running"], t["runnable"], t["blocked"], tl.overlap(tid, cpu, other, lo, hi)))


def compare(json_path, otf2_path, j=None, o=None):
    j = j or read_json(json_path)
    o = o or read_otf2(otf2_path)
    if set(j.threads) != set(o.threads):
        fail("threads: JSON %s, OTF2 %s" % (sorted(j.threads), sorted(o.threads)))
    for tid in sorted(set(j.threads) & set(o.threads)):
        if j.totals(tid) != o.totals(tid):
            fail("thread %d: JSON %s, OTF2 %s" % (tid, j.totals(tid), o.totals(tid)))
    if j.wakeups != o.wakeups:
        fail("wakeups only in JSON %s, only in OTF2 %s"
             % (sorted(j.wakeups - o.wakeups)[:5], sorted(o.wakeups - j.wakeups)[:5]))
    for cpu in sorted(set(j.cpus) | set(o.cpus)):
        if sorted(j.cpus.get(cpu, [])) != sorted(o.cpus.get(cpu, [])):
            fail("CPU %d: the slices differ" % cpu)
    if sorted(j.requests) != sorted(o.requests):
        fail("block requests only in JSON %s, only in OTF2 %s"
             % (sorted(set(j.requests) - set(o.requests))[:5],
                sorted(set(o.requests) - set(j.requests))[:5]))
    print("%d threads, %d wakeups, %d CPU slices, %d block requests: %s"
          % (len(j.threads), len(j.wakeups), sum(len(v) for v in j.cpus.values()),
             len(j.requests), "different" if errors else "the same"))


def main(argv):
    if len(argv) == 3 and argv[0] in ("json", "otf2"):
        check(argv[0], argv[1], argv[2])
    elif len(argv) == 3 and argv[0] == "compare":
        compare(argv[1], argv[2])
    elif len(argv) in (6, 8) and argv[0] == "summary" and argv[1] in ("json", "otf2"):
        tl = read(argv[1], argv[2])
        win = (int(argv[6]), int(argv[7])) if len(argv) == 8 else (0, 1 << 64)
        print(summary(tl, int(argv[3]), int(argv[4]), int(argv[5]), *win))
        tl.check_nesting()
    elif len(argv) == 3 and argv[0] == "requests":
        j, o = read_json(argv[1]), read_otf2(argv[2])
        for tl in (j, o):
            tl.check_nesting()
        compare(argv[1], argv[2], j, o)
        per, lanes = {}, {}
        for r in o.requests:
            per[r[0]] = per.get(r[0], 0) + 1
        for disk, lane, _, _ in o.lanes:
            lanes[disk] = max(lanes.get(disk, 0), lane + 1)
        for tid, n in sorted(per.items()):
            print("requests %d %d" % (tid, n))
        for disk, n in sorted(lanes.items()):
            print("lanes %s %d" % (disk, n))
    elif len(argv) == 8 and argv[0] == "both":
        j, o = read_json(argv[1]), read_otf2(argv[2])
        args = [int(x) for x in argv[3:8]]
        for name, tl in (("json", j), ("otf2", o)):
            print(name, summary(tl, *args[:3]))
            print(name, "window", summary(tl, *args))
            tl.check_nesting()
        compare(argv[1], argv[2], j, o)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
