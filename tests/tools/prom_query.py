#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""prom_query.py - ask a Prometheus server (its HTTP API) what it scraped,
for tests/tools/daemon-metrics.sh.

  prom_query.py URL value QUERY
      the value of an instant query with one result (prints it; exit 1 if
      there is not exactly one)
  prom_query.py URL buckets TRACKER HISTOGRAM_FILE [MIN_NS MAX_NS STEP]
      compare latency_tracker_delay_seconds_bucket{tracker=TRACKER} with
      the kernel-format histogram file (`<low_ns> <high_ns> <count>` per
      non-empty log2 bucket) at the daemon's bounds (metrics-bucket-min,
      -max, -step; default 1000, 10^10, 4): from the first kernel bucket
      end (2^b - 1 ns) >= MIN_NS, every STEP times, up to the first
      >= MAX_NS, then +Inf; each present, cumulative counts equal (exit 1
      and the differences otherwise)
  prom_query.py URL dashboard GRAFANA_JSON SCRAPE_FILE
      every panel query of the dashboard answered with a series, every
      metric it names in the scrape (see dashboard())
"""
import json
import re
import sys
import urllib.parse
import urllib.request

BUCKETS = 65  # the kernel's log2 buckets: 0, then [2^(b-1), 2^b - 1] ns


def query(url, q):
    u = url + "/api/v1/query?" + urllib.parse.urlencode({"query": q})
    with urllib.request.urlopen(u, timeout=10) as r:
        d = json.load(r)
    if d.get("status") != "success":
        raise SystemExit("query failed: %s" % d)
    return d["data"]["result"]


def value(url, q):
    res = query(url, q)
    if len(res) != 1:
        print("%d results for %s: %s" % (len(res), q, res), file=sys.stderr)
        return 1
    print(res[0]["value"][1])
    return 0


def bounds(lo_ns, hi_ns, step):
    """The kernel buckets b whose end, 2^b - 1 ns, is exported."""
    b = next(b for b in range(1, BUCKETS - 1) if 2**b - 1 >= lo_ns)
    shift = step.bit_length() - 1
    out = [b]
    while b + shift < BUCKETS - 1 and 2**b - 1 < hi_ns:
        b += shift
        out.append(b)
    return out


def expected(hist_file, lo_ns=1000, hi_ns=10**10, step=4):
    """{upper bound in seconds (float, inf for the last): cumulative count}"""
    counts = [0] * BUCKETS
    with open(hist_file) as f:
        for line in f:
            if not line.strip():
                continue
            low, high, n = (int(x) for x in line.split())
            b = low.bit_length()  # 0 for 0, else the highest set bit + 1
            assert high == (0 if b == 0 else min(2**b - 1, 2**64 - 1)), line
            counts[b] += n
    keep = set(bounds(lo_ns, hi_ns, step)) | {BUCKETS - 1}
    want, cum = {}, 0
    for b in range(BUCKETS):
        cum += counts[b]
        if b not in keep:
            continue
        # int / int: correctly rounded, as Prometheus parses the exact decimal
        le = float("inf") if b == BUCKETS - 1 else (2**b - 1) / 10**9
        want[le] = cum
    return want


def buckets(url, tracker, hist_file, *cfg):
    want = expected(hist_file, *(int(x) for x in cfg))
    sel = 'latency_tracker_delay_seconds_bucket{tracker="%s"}' % tracker
    got = {}
    for r in query(url, sel):
        got[float(r["metric"]["le"])] = int(float(r["value"][1]))
    bad = [(le, want.get(le), got.get(le))
           for le in sorted(set(want) | set(got))
           if want.get(le) != got.get(le)]
    print("%d buckets scraped, %d expected, %d differ" %
          (len(got), len(want), len(bad)))
    for le, w, g in bad[:10]:
        print("  le=%r: histogram file %s, Prometheus %s" % (le, w, g))
    return 1 if bad or len(got) != len(want) else 0


def dashboard(url, dash_file, scrape_file):
    """Every query of a Grafana dashboard's panels, its variables given
    values ($tracker: every tracker, $__rate_interval: 1m), answered by
    Prometheus with at least one series; every metric it names is in the
    daemon's exposition (SCRAPE_FILE)."""
    with open(dash_file) as f:
        dash = json.load(f)
    with open(scrape_file) as f:
        scraped = set(re.findall(r"^(latency_trackerd?_[a-z_]+)", f.read(), re.M))
    exprs = [t["expr"] for p in dash["panels"] for t in p.get("targets", [])]
    named, bad = set(), []
    for e in exprs:
        q = e.replace("$tracker", ".*").replace("$__rate_interval", "1m")
        named |= set(re.findall(r"latency_trackerd?_[a-z_]+", q))
        try:
            n = len(query(url, q))
        except SystemExit as err:
            bad.append("%s: %s" % (q, err))
            continue
        if not n:
            bad.append("%s: no series" % q)
    # A histogram's series are NAME_bucket, _sum, _count.
    missing = sorted(m for m in named if m not in scraped)
    print("%d panels, %d queries, %d metrics named; %d queries failed, missing from the scrape: %s"
          % (len(dash["panels"]), len(exprs), len(named), len(bad), missing or "none"))
    for b in bad[:10]:
        print("  " + b)
    return 1 if bad or missing or not exprs else 0


def main(argv):
    url, cmd = argv[1], argv[2]
    if cmd == "value":
        return value(url, argv[3])
    if cmd == "buckets":
        return buckets(url, argv[3], argv[4], *argv[5:8])
    if cmd == "dashboard":
        return dashboard(url, argv[3], argv[4])
    raise SystemExit("unknown command " + cmd)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
