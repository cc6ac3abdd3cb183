#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""report.py HT_JSON KERNEL_OUT WHERE OUT_JSON - the table and the JSON of
`make bench` from the host benchmark's JSON and the lines of
tests/guest/bench.sh ("name value", "fail CONFIG: why", "note ...").

Exits 1, after printing and writing what it has, when the guest reported a
failed configuration, when a configuration it announced has fewer runs
than repetitions, or when a pair implementation counted failures: a
missing figure is never silent.

Intervals are 95 % percentile-bootstrap intervals (BOOT resamples, fixed
seed).  Pair figures: the unit resampled is one measured round on one CPU
(lt_bench's per-(implementation, round, CPU) histograms), the same units
for both sides of a ratio.  Workload figures: the unit is one repetition
(every configuration ran once in it), so a ratio is resampled by
repetition on both sides.

Paired slowdowns (equal-work configurations, and none as the control):
the host runs whole workload runs at one of two paces about 1.5x apart,
so a median over runs mixes the paces differently for each
configuration.  Each such run has a run of none beside it in the same
repetition, its base ("paired_WORK_CONFIG BASE RUN"); a paired slowdown
is the median over repetitions of run / base - 1, resampled by
repetition (the same ones on both sides of a ratio).  The hackbench goal
is judged on it.

The custom part ("custom_paired_CONFIG BASE RUN", ms for the loop's
custom_calls calls of the function): a configuration's cost per call is
the median over repetitions of (run - base) / calls, resampled by
repetition; ours / a peer is the ratio of two such medians, the same
repetitions on both sides, and again with both less the floor's (an
empty kretprobe on the function: the probes' own price).  A peer the guest could not run
("custom_unavailable PEER why") is recorded, not a failure.

Against another build (base_ours, BENCH_BASE=COMMIT): ours' workload
time over the base's, (1 + ours' paired slowdown) / (1 + the base's) for
hackbench and messaging, and the median over repetitions of ours' loop
time / the base's in the same repetition for the loops.  The goal of issue 32 (the breakdowns
cost at most 10 % of the equal-work figures) is judged on the ping-pong
loop's ratio, upper end: the loop densest in what the breakdowns hook (two
wakeups, two switches, four system calls a trip), whose interval is a few
% wide where hackbench's, at 9 repetitions on this host, is +-25 %.

The irq part ("irq_run_CONFIG MS PERIODS": lt_spin's ms on CPU 1 and the
interrupt periods during it): a configuration's cost per period is the
median over repetitions of (its ms - none's ms in the same repetition) /
its periods, in ns, resampled by repetition; ours / bpftrace is the ratio
of two such medians over the same repetitions.  The netrx part
("netrx_run_CONFIG MS PACKETS": the loopback stream's ms and its
datagrams) and the lock part ("lock_run_CONFIG MS WAITS": the calls'
time and their contended waits; "lock_waits N": the waits ours matched
in its run) are computed the same way, per packet and per wait; ours /
ftrace for the lock part."""
import json
import random
import re
import statistics
import sys
import time

BOOT = 1000
EQUAL_WORK = ("ours", "ftrace", "bpftrace", "lttng", "floor")
WAKEUP_ONLY = ("ours_wakeup", "ftrace_wakeup", "bpftrace_wakeup", "lttng_wakeup")
PEERS = ("ftrace", "bpftrace", "lttng")
# Paired with a base run of none (none itself: the control, about 0 %);
# base_ours: ours of another build (run.sh's BENCH_BASE).
BASE = "base_ours"
PAIRED = ("none",) + EQUAL_WORK + (BASE,)
# Not a peer: one empty probe on each equal-work tracepoint (lt_floor.ko),
# the price of turning those four tracepoints on.  Ours attaches more
# probes than that (three on sched_switch, two on sched_waking, one on
# sched_wakeup): their calls count as ours' own work above the floor.
FLOOR = "floor"
# One of ours' trackers alone (LTG_BENCH_CONFIGS only; ours_wakeup is in
# the wakeup-only row).
ONE_TRACKER = ("ours_offcpu", "ours_syscalls")
# A ratio's interval is given only if at most this share of its
# resamples is defined (a denominator of 0 or below is not).
MAX_UNDEFINED = 0.05
PAIR_IMPLS = ("ours", "rht_ew", "rht", "hlist", "clock2", "ours_big", "rht_ew_big")
# A scaling cell is "not flat" when the pair median is this much above the
# 10-pending cell on the same CPUs, or the hackbench slowdown this many
# percentage points above it.
FLAT_PAIR = 0.25
FLAT_HB_POINTS = 5.0


def quantile(grid, counts, q):
    """Smallest grid value whose cumulative count reaches q of the total."""
    total = sum(counts)
    if not total:
        return None
    need = q * total
    acc = 0
    for v, c in zip(grid, counts):
        acc += c
        if acc >= need:
            return v
    return grid[-1]


def ci(values):
    v = sorted(x for x in values if x is not None)
    if len(v) < 2:
        return None
    return [round(v[int(0.025 * (len(v) - 1))], 3), round(v[int(0.975 * (len(v) - 1))], 3)]


class PairRun:
    """One lt_bench run: histograms per implementation and (round, CPU)."""

    def __init__(self, kv, hists):
        self.kv = kv
        self.blocks = {}  # impl -> {(round, cpu): {value: count}}
        for impl, rnd, cpu, cells in hists:
            h = self.blocks.setdefault(impl, {}).setdefault((rnd, cpu), {})
            for cell in cells:
                v, c = cell.split(":")
                h[int(v)] = h.get(int(v), 0) + int(c)
        values = sorted({v for b in self.blocks.values() for h in b.values() for v in h})
        self.grid = values
        self.vec = {impl: {k: [h.get(v, 0) for v in values] for k, h in b.items()}
                    for impl, b in self.blocks.items()}

    def keys(self, impl):
        return sorted(self.vec.get(impl, {}))

    def pooled(self, impl, keys):
        vecs = [self.vec[impl][k] for k in keys if k in self.vec.get(impl, {})]
        return [sum(col) for col in zip(*vecs)] if vecs else []

    def stat(self, impl, q, keys=None):
        keys = self.keys(impl) if keys is None else keys
        p = self.pooled(impl, keys)
        return quantile(self.grid, p, q) if p else None

    def failures(self):
        return {i: int(self.kv[f"failures_{i}"]) for i in PAIR_IMPLS if f"failures_{i}" in self.kv}

    def boot(self, rng, fn):
        """fn(keys) over BOOT resamples of the (round, CPU) units of ours."""
        units = self.keys("ours")
        if len(units) < 2:
            return None
        return ci(fn([rng.choice(units) for _ in units]) for _ in range(BOOT))

    def ratio(self, peer, q, keys=None):
        a, b = self.stat("ours", q, keys), self.stat(peer, q, keys)
        return a / b if a is not None and b else None


GROWTH_LIMIT = 1.25


def growth_part(kv, hists, rng, problems):
    """The table's growth with its pending keys, measured within each
    round of one lt_bench run (live and live_big keys, ours and the
    equal-work rhashtable side by side): per CPU count, each one's median
    at live_big over its median at live, and ours' growth over the peer's,
    with intervals from resampling the (round, CPU) units together."""
    out = {}
    for c in sorted({m.group(1) for k in list(kv) + list(hists)
                     for m in [re.match(r"scale_growth_(c\d+)_", k)] if m}, key=lambda c: int(c[1:])):
        run = pair_run(kv, hists, f"scale_growth_{c}_")
        if not all(run.keys(i) for i in ("ours", "rht_ew", "ours_big", "rht_ew_big")):
            problems.append(f"scale_growth_{c}: a histogram is missing from lt_bench")
            continue
        for impl, n in run.failures().items():
            if n:
                problems.append(f"scale_growth_{c}: {impl} failed {n} pairs")

        def g(impl, keys=None):
            a, b = run.stat(impl + "_big", 0.5, keys), run.stat(impl, 0.5, keys)
            return a / b if a is not None and b else None

        def rel(keys=None):
            a, b = g("ours", keys), g("rht_ew", keys)
            return a / b if a is not None and b else None

        cell = {"live": int(run.kv.get("live_keys", 0)), "live_big": int(run.kv.get("live_big_keys", 0))}
        for impl in ("ours", "rht_ew"):
            v = g(impl)
            cell[impl] = {"median": run.stat(impl, 0.5), "median_big": run.stat(impl + "_big", 0.5),
                          "growth": round(v, 3) if v else None,
                          "growth_ci95": run.boot(rng, lambda keys, impl=impl: g(impl, keys))}
        v = rel()
        cell["ours_growth_vs_peer"] = {"ratio": round(v, 3) if v else None, "ci95": run.boot(rng, rel)}
        out[c] = cell
    return out


def growth_goals(goals, growth):
    """Per CPU count: ours' growth at most GROWTH_LIMIT, or no more than
    the peer's in the same rounds, on the upper ends of the intervals."""
    for c, cell in growth.items():
        own = (cell["ours"]["growth_ci95"] or [None, None])[1]
        rel = (cell["ours_growth_vs_peer"]["ci95"] or [None, None])[1]
        goals[f"scaling_growth_{c}"] = {
            "goal": f"<= {GROWTH_LIMIT} or <= the peer's (ratio <= 1.0)",
            "basis": f"pair median at {cell['live_big']} over {cell['live']} pending, same rounds",
            "upper": own, "upper_vs_peer": rel, "why": f"(ours' growth over the peer's: upper {f(rel)})",
            "reached": (own is not None and own <= GROWTH_LIMIT) or (rel is not None and rel <= 1.0)}


def cell_order(cell):
    """Scaling cells "pN_cC" by CPUs, then pending events."""
    n, c = cell.split("_")
    return int(c[1:]), int(n[1:])


def flat_refs(table):
    """(cell, reference) pairs: each cell against the fewest-pending cell
    with the same number of CPUs."""
    out = []
    for cell in table:
        same = [x for x in table if x.split("_")[1] == cell.split("_")[1]]
        ref = min(same, key=cell_order)
        if ref != cell:
            out.append((cell, ref))
    return sorted(out, key=lambda p: cell_order(p[0]))


def parse(path):
    kv, series, fails, notes, pair_hists = {}, {}, [], [], {}
    kv["custom_unavailable"] = {}
    kv["app_unavailable"] = {}
    kv["irq_unavailable"] = {}
    kv["netrx_unavailable"] = {}
    kv["lock_unavailable"] = {}
    for raw in open(path):
        parts = raw.split()
        if not parts:
            continue
        name, rest = parts[0], parts[1:]
        if name == "fail":
            fails.append(" ".join(rest))
        elif name == "note":
            notes.append(" ".join(rest))
        elif name.endswith("hist") and name.startswith(("pair_", "scale_pair_", "scale_growth_")) and len(rest) >= 3:
            prefix = name[:-len("hist")]
            pair_hists.setdefault(prefix, []).append((rest[0], int(rest[1]), int(rest[2]), rest[3:]))
        elif name in ("custom_unavailable", "app_unavailable", "irq_unavailable",
                      "netrx_unavailable", "lock_unavailable") and rest:
            kv[name][rest[0]] = " ".join(rest[1:])
        elif name == "lock_waits":
            try:
                series.setdefault(name, []).append(int(rest[0]))
            except (IndexError, ValueError):
                fails.append(f"{name}: not a count ({' '.join(rest)!r})")
        elif name.startswith(("irq_run_", "netrx_run_", "lock_run_")):
            try:
                ms, units = float(rest[0]), int(rest[1])
                if ms <= 0 or units <= 0:
                    raise ValueError
                series.setdefault(name, []).append((ms, units))
            except (IndexError, ValueError):
                fails.append(f"{name}: not a time and a count ({' '.join(rest)!r})")
        elif name.startswith(("paired_", "custom_paired_")):
            try:
                base, run = float(rest[0]), float(rest[1])
                if base <= 0 or run <= 0:
                    raise ValueError
                series.setdefault(name, []).append((base, run))
            except (IndexError, ValueError):
                fails.append(f"{name}: not two positive numbers ({' '.join(rest)!r})")
        elif name.startswith(("hackbench_", "messaging_", "sysloop_", "pingpong_", "scale_hackbench_",
                              "app_ns_")) \
                and not name.endswith("_args"):
            try:
                series.setdefault(name, []).append(float(rest[0]))
            except (IndexError, ValueError):
                fails.append(f"{name}: no number ({' '.join(rest)!r})")
        else:
            kv[name] = " ".join(rest)
    return kv, series, fails, notes, pair_hists


def pair_run(kv, hists, prefix):
    sub = {k[len(prefix):]: v for k, v in kv.items() if k.startswith(prefix)}
    return PairRun(sub, hists.get(prefix, []))


def slowdown(series, work, cfg, reps=None):
    base, runs = series.get(f"{work}_none", []), series.get(f"{work}_{cfg}", [])
    if reps is not None:
        base = [base[r] for r in reps if r < len(base)]
        runs = [runs[r] for r in reps if r < len(runs)]
    if not base or not runs:
        return None
    return (statistics.median(runs) / statistics.median(base) - 1) * 100


def paired(series, work, cfg, reps=None):
    """Median over repetitions of CFG's run against its base run of none
    (the "paired_WORK_CFG BASE RUN" lines, one per repetition), as a
    slowdown in %."""
    pairs = series.get(f"paired_{work}_{cfg}", [])
    v = [pairs[r][1] / pairs[r][0] - 1 for r in (range(len(pairs)) if reps is None else reps)
         if r < len(pairs)]
    return statistics.median(v) * 100 if v else None


def workload_paired(series, work, cfgs, rng):
    """Paired slowdown (%) per configuration that has pairs, with its
    interval."""
    pct, pct_ci = {}, {}
    for cfg in cfgs:
        s = paired(series, work, cfg)
        if s is None:
            continue
        pct[cfg] = round(s, 2)
        reps = list(range(len(series[f"paired_{work}_{cfg}"])))
        if len(reps) >= 2:
            pct_ci[cfg] = ci(paired(series, work, cfg, [rng.choice(reps) for _ in reps])
                             for _ in range(BOOT))
    return pct, pct_ci


def workload(series, work, cfgs, rng):
    """Median slowdown (%) per configuration with its interval and spread."""
    pct, pct_ci, spread = {}, {}, {}
    n = len(series.get(f"{work}_none", []))
    for cfg in cfgs:
        runs = series.get(f"{work}_{cfg}")
        if not runs:
            continue
        s = slowdown(series, work, cfg)
        pct[cfg] = round(s, 2)
        reps = list(range(min(n, len(runs))))
        if len(reps) >= 2:
            pct_ci[cfg] = ci(slowdown(series, work, cfg, [rng.choice(reps) for _ in reps])
                             for _ in range(BOOT))
        spread[cfg] = {"median_s": statistics.median(runs), "min_s": min(runs),
                       "max_s": max(runs), "runs": len(runs)}
    return pct, pct_ci, spread


def vs_cheapest(series, work, ours, peers, pct, rng, floor=None, fn=slowdown):
    """ours' slowdown / the cheapest peer's, with its interval; with
    floor, both slowdowns less the floor configuration's (what each adds
    above the price of the tracepoints themselves); fn: slowdown (medians
    of runs) or paired (medians of run / base)."""
    cand = [(pct[p], p) for p in peers if p in pct]
    if ours not in pct or not cand or (floor and floor not in pct):
        return None
    peer = min(cand)[1]

    def r(reps=None):
        a, b = fn(series, work, ours, reps), fn(series, work, peer, reps)
        z = fn(series, work, floor, reps) if floor else 0.0
        return (a - z) / (b - z) if None not in (a, b, z) and b - z > 0 else None
    point = r()
    if point is None:
        what = f"{peer}'s slowdown is not above the floor's" if floor else f"{peer} measured no slowdown"
        return {"peer": peer, "ratio": None, "ci95": None, "why": what}
    n = min(len(series.get(f"{work}_{c}", [])) for c in ("none", ours, peer) + ((floor,) if floor else ()))
    return boot_ratio({"peer": peer, "ratio": round(point, 3), "ci95": None}, r, n, rng)


def boot_ratio(out, r, n, rng):
    """out with the interval of r(reps) over BOOT resamples of n
    repetitions ("ci95"), or why there is none ("why": more than
    MAX_UNDEFINED of the resamples undefined)."""
    if n >= 2:
        reps = list(range(n))
        boots = [r([rng.choice(reps) for _ in reps]) for _ in range(BOOT)]
        undefined = sum(b is None for b in boots)
        if undefined > MAX_UNDEFINED * BOOT:
            out["why"] = f"interval n/a: {undefined} of {BOOT} resamples undefined"
        else:
            out["ci95"] = ci(boots)
    return out


def per_call(pairs, calls, reps=None):
    """Median over repetitions (all, or the list reps) of run - base, ms
    for CALLS calls, in ns per call."""
    v = [(pairs[r][1] - pairs[r][0]) * 1e6 / calls
         for r in (range(len(pairs)) if reps is None else reps) if r < len(pairs)]
    return statistics.median(v) if v else None


def custom_part(kv, series, rng, problems):
    """The custom part's figures (see the module's doc), or {} when the
    guest did not run it."""
    if "custom_configs" not in kv:
        return {}
    calls, reps = int(kv.get("custom_calls", 0)), int(kv.get("custom_reps", 0))
    off = kv["custom_unavailable"]
    pairs = {c: series.get(f"custom_paired_{c}", []) for c in kv["custom_configs"].split() if c not in off}
    res = {"custom_fn": kv.get("custom_fn"), "custom_calls": calls, "custom_reps": reps,
           "custom_unavailable": off, "custom_pairs": pairs,
           "custom_ns_per_call": {}, "custom_ns_per_call_ci95": {}}
    for c, p in pairs.items():
        if len(p) < reps:
            problems.append(f"custom {c}: {len(p)} of {reps} paired loop runs")
        if not p or not calls:
            continue
        res["custom_ns_per_call"][c] = round(per_call(p, calls), 1)
        n = list(range(len(p)))
        res["custom_ns_per_call_ci95"][c] = ci(per_call(p, calls, [rng.choice(n) for _ in n])
                                               for _ in range(BOOT)) if len(p) >= 2 else None
    bases = [b for p in pairs.values() for b, _ in p]
    res["custom_loop_ns_per_call"] = round(statistics.median(bases) * 1e6 / calls, 1) \
        if bases and calls else None
    fl = res["custom_ns_per_call"].get("floor")
    res["custom_ns_above_floor"] = {c: round(v - fl, 1) for c, v in res["custom_ns_per_call"].items()
                                    if c not in ("none", "floor")} if fl is not None else {}
    for peer in ("bpftrace", "synth"):
        res[f"custom_ratio_vs_{peer}"] = custom_ratio(pairs, calls, peer, off, rng)
        res[f"custom_ratio_vs_{peer}_above_floor"] = custom_ratio(pairs, calls, peer, off, rng, "floor")
    return res


def custom_ratio(pairs, calls, peer, off, rng, floor=None):
    """ours' cost per call / PEER's (with floor, both less the floor
    configuration's), with its interval, or why there is none."""
    if peer in off:
        return {"ratio": None, "ci95": None, "why": f"{peer} unavailable: {off[peer]}"}
    sides = ("ours", peer) + ((floor,) if floor else ())
    if not calls or not all(pairs.get(c) for c in sides):
        return {"ratio": None, "ci95": None, "why": "no runs"}

    def r(reps=None):
        a, b = per_call(pairs["ours"], calls, reps), per_call(pairs[peer], calls, reps)
        z = per_call(pairs[floor], calls, reps) if floor else 0.0
        return (a - z) / (b - z) if None not in (a, b, z) and b - z > 0 else None
    point = r()
    if point is None:
        return {"ratio": None, "ci95": None,
                "why": f"{peer}'s cost is not above the floor's" if floor else f"{peer} measured no cost"}
    return boot_ratio({"ratio": round(point, 3), "ci95": None}, r, min(len(pairs[c]) for c in sides), rng)


def app_part(kv, series, rng, problems):
    """The application requests' part ("app_ns_CONFIG NS" per repetition:
    floor, ioctl, ours, ust, interleaved; "app_unavailable ust why"): each
    configuration's median ns per request (begin and end) with its
    interval, and ours against the floor (the goal), against two empty
    ioctls on the transport (what our work adds to the system calls) and
    against LTTng-UST, each ratio of medians over the same resampled
    repetitions.  {} without
    the part."""
    if "app_reps" not in kv:
        return {}
    reps = int(kv["app_reps"])
    off = kv["app_unavailable"]
    runs = {c: series.get(f"app_ns_{c}", []) for c in ("floor", "ioctl", "ours", "ust", "pp_none", "pp_open")
            if c not in off}
    res = {"app_reps": reps, "app_unavailable": off, "app_ns": {}, "app_ns_ci95": {}}
    # The ping-pong loop (ms for 80000 switches and wakeups) without and
    # with a request open on its threads: what the accounting adds a switch.
    pp = {c: series.get(f"app_ns_{c}", []) for c in ("pp_none", "pp_open")}
    if all(pp.values()):
        def per_switch(sel=None):
            a, b = pp["pp_open"], pp["pp_none"]
            n = min(len(a), len(b))
            sel = range(n) if sel is None else sel
            return (statistics.median([a[i] for i in sel]) - statistics.median([b[i] for i in sel])) * 1e6 / 80000
        n = min(len(v) for v in pp.values())
        reps_i = list(range(n))
        res["app_switch_ns"] = round(per_switch(), 1)
        res["app_switch_ns_ci95"] = ci(per_switch([rng.choice(reps_i) for _ in reps_i]) for _ in range(BOOT)) \
            if n >= 2 else None
    for c, v in runs.items():
        if len(v) < reps:
            problems.append(f"app {c}: {len(v)} of {reps} runs")
        if not v:
            continue
        res["app_ns"][c] = round(statistics.median(v), 1)
        res["app_ns_ci95"][c] = ci(statistics.median([rng.choice(v) for _ in v]) for _ in range(BOOT)) \
            if len(v) >= 2 else None
    for peer in ("floor", "ioctl", "ust"):
        if peer in off:
            res[f"app_ratio_vs_{peer}"] = {"ratio": None, "ci95": None, "why": f"{peer} unavailable: {off[peer]}"}
            continue
        a, b = runs.get("ours", []), runs.get(peer, [])
        n = min(len(a), len(b))
        if not n:
            res[f"app_ratio_vs_{peer}"] = {"ratio": None, "ci95": None, "why": "no runs"}
            continue

        def r(sel=None, a=a, b=b, n=n):
            sel = range(n) if sel is None else sel
            return statistics.median([a[i] for i in sel]) / statistics.median([b[i] for i in sel])
        res[f"app_ratio_vs_{peer}"] = boot_ratio({"ratio": round(r(), 3), "ci95": None}, r, n, rng)
    return res


def base_part(kv, series, rng):
    """Ours against base_ours (see the module's doc), or {} without it."""
    if BASE not in kv.get("configs", "").split():
        return {}
    res = {"base_commit": kv.get("base_commit")}
    for work in ("hackbench", "messaging"):
        n = min(len(series.get(f"paired_{work}_ours", [])), len(series.get(f"paired_{work}_{BASE}", [])))
        if not n:
            continue

        def r(sel=None, work=work, n=n):
            sel = list(range(n)) if sel is None else sel
            a, b = paired(series, work, "ours", sel), paired(series, work, BASE, sel)
            return (1 + a / 100) / (1 + b / 100) if a is not None and b is not None else None
        x = r()
        res[f"{work}_ours_vs_base"] = boot_ratio({"ratio": round(x, 3) if x else None, "ci95": None}, r, n, rng)
    for loop in ("sysloop", "pingpong"):
        a, b = series.get(f"{loop}_ours", []), series.get(f"{loop}_{BASE}", [])
        n = min(len(a), len(b))
        if not n:
            continue

        def r(sel=None, a=a, b=b, n=n):
            sel = range(n) if sel is None else sel
            return statistics.median([a[i] / b[i] for i in sel])
        res[f"{loop}_ours_vs_base"] = boot_ratio({"ratio": round(r(), 3), "ci95": None}, r, n, rng)
    return res


def run_part(kv, series, rng, problems, part, unit, ours, peer):
    """A part of runs against none ("PART_run_CONFIG MS UNITS": the run's ms
    and the units of work in it, see the module's doc): each
    configuration's ns per unit and ours / peer, or {} when the guest did
    not run the part."""
    if f"{part}_configs" not in kv:
        return {}
    reps = int(kv.get(f"{part}_reps", 0))
    off = kv[f"{part}_unavailable"]
    runs = {c: series.get(f"{part}_run_{c}", []) for c in kv[f"{part}_configs"].split() if c not in off}
    per, ci = f"{part}_ns_per_{unit}", f"{part}_ns_per_{unit}_ci95"
    ratio = f"{part}_ratio_vs_{peer.split('_')[0]}"
    res = {f"{part}_reps": reps, f"{part}_unavailable": off, per: {}, ci: {}}
    for c, v in runs.items():
        if len(v) < reps:
            problems.append(f"{part} {c}: {len(v)} of {reps} runs")
    base = runs.get("none", [])

    def cost(c, sel=None):
        v = runs[c]
        n = min(len(v), len(base))
        sel = range(n) if sel is None else sel
        d = [(v[i][0] - base[i][0]) * 1e6 / v[i][1] for i in sel if i < n]
        return statistics.median(d) if d else None
    for c in runs:
        if c == "none" or not runs[c] or not base:
            continue
        n = min(len(runs[c]), len(base))
        res[per][c] = round(cost(c), 1)
        res[ci][c] = boot_ratio({}, lambda sel, c=c: cost(c, sel), n, rng).get("ci95")
    if peer in off:
        res[ratio] = {"ratio": None, "ci95": None, "why": f"{peer} unavailable: {off[peer]}"}
    elif runs.get(ours) and runs.get(peer) and base:
        n = min(len(runs[ours]), len(runs[peer]), len(base))

        def r(sel=None):
            x, y = cost(ours, sel), cost(peer, sel)
            return x / y if x is not None and y and y > 0 else None
        x = r(range(n))
        res[ratio] = boot_ratio({"ratio": round(x, 3) if x is not None else None, "ci95": None}, r, n, rng)
    else:
        res[ratio] = {"ratio": None, "ci95": None, "why": "no runs"}
    return res


def irq_part(kv, series, rng, problems):
    """The irq part's figures: ns per interrupt period."""
    res = run_part(kv, series, rng, problems, "irq", "period", "ours_irq", "bpftrace_irq")
    if res:
        res["irq_period_us"] = int(kv.get("irq_period_us", 0))
    return res


def netrx_part(kv, series, rng, problems):
    """The netrx part's figures: ns per packet of the loopback stream."""
    res = run_part(kv, series, rng, problems, "netrx", "packet", "ours_netrx", "bpftrace_netrx")
    if res:
        res["netrx_packets"] = int(kv.get("netrx_packets", 0))
    return res


def lock_part(kv, series, rng, problems):
    """The lock part's figures: ns per contended wait, and the waits ours
    matched in a run (median)."""
    res = run_part(kv, series, rng, problems, "lock", "wait", "ours_lock", "ftrace_lock")
    if res:
        waits = series.get("lock_waits", [])
        res["lock_n"] = int(kv.get("lock_n", 0))
        res["lock_waits_median"] = statistics.median(waits) if waits else None
    return res

def ratio_goal(goals, res, key, name, limit, basis):
    """goals[name]: the ratio res[key] judged on the upper end of its
    interval against limit (with the ratio's why when it has none); nothing
    when the part did not run."""
    if key not in res:
        return
    v = res[key]
    c = v.get("ci95")
    goals[name] = {"goal": f"<= {limit}", "basis": basis, "upper": c[1] if c else None,
                   "reached": bool(c) and c[1] <= limit}
    if "why" in v:
        goals[name]["why"] = v["why"]


def per_op(series, loop, ops):
    """ns per operation that each configuration adds to none in LOOP (ms
    for OPS operations), from the medians."""
    base = statistics.median(series[f"{loop}_none"]) if series.get(f"{loop}_none") else None
    return {k[len(loop) + 1:]: round((statistics.median(v) - base) * 1e6 / ops, 1)
            for k, v in series.items() if k.startswith(f"{loop}_") and k != f"{loop}_none" and base}


def vs_cheapest_fastest(series, work, ours, peers):
    """ours' slowdown / the cheapest peer's, each configuration's fastest
    run against none's fastest: the host's slow phases (whole runs ~1.5x
    slower under multi-threaded TCG) left out.  No interval; not a goal."""
    none = series.get(f"{work}_none")
    if not none or not series.get(f"{work}_{ours}"):
        return None
    sd = {c: min(series[f"{work}_{c}"]) / min(none) - 1 for c in (ours,) + tuple(peers)
          if series.get(f"{work}_{c}")}
    cand = [(sd[p], p) for p in peers if p in sd]
    if not cand or min(cand)[0] <= 0:
        return None
    best, peer = min(cand)
    return {"peer": peer, "ratio": round(sd[ours] / best, 3),
            "ours_pct": round(sd[ours] * 100, 2), "peer_pct": round(best * 100, 2)}


def profile_added(notes):
    """From the profile notes ("profile NAME samples N", "profile NAME
    module PERCENT [MODULE] [SAMPLES]"): for hackbench_ours and
    hackbench_lttng, the samples each module has above hackbench_none's
    (samples, not percentages: the runs differ in length; PERCENT x N when
    a note has no count), largest first, and the whole run's.  None
    without a none profile."""
    total, mods = {}, {}
    for n in notes:
        f = n.split()
        if len(f) >= 4 and f[0] == "profile" and f[2] == "samples":
            total[f[1]] = int(f[3])
        elif len(f) >= 5 and f[0] == "profile" and f[2] == "module":
            mods.setdefault(f[1], {})[f[4]] = (float(f[3].rstrip("%")), int(f[5]) if len(f) >= 6 else None)
    if "hackbench_none" not in total:
        return None

    def samples(name):
        return {m: c if c is not None else p * total[name] / 100 for m, (p, c) in mods.get(name, {}).items()}
    base = samples("hackbench_none")
    out = {}
    for cfg in ("ours", "lttng"):
        name = f"hackbench_{cfg}"
        if name not in total:
            continue
        cur = samples(name)
        added = {m: round(cur.get(m, 0) - base.get(m, 0)) for m in set(cur) | set(base)}
        out[cfg] = {"samples": total[name], "none_samples": total["hackbench_none"],
                    "added_by_module": dict(sorted(added.items(), key=lambda kv: -kv[1]))}
    return out


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: report.py HT_JSON KERNEL_OUT WHERE OUT_JSON")
    ht = json.load(open(sys.argv[1]))
    kv, series, fails, notes, hists = parse(sys.argv[2])
    where, out_path = sys.argv[3], sys.argv[4]
    rng = random.Random(1)
    res = {k: v for k, v in ht.items() if k.startswith("ht_")}
    res["measured_on"] = where
    res["kernel"] = kv.get("kernel")
    res["clocksource"] = kv.get("clocksource")
    res["date"] = time.strftime("%Y-%m-%d")
    problems = list(fails)
    if "kernel" not in kv:
        problems.append("guest: no output (no 'kernel' line)")

    # --- pair ---
    pr = pair_run(kv, hists, "pair_")
    if pr.blocks:
        for impl, n in pr.failures().items():
            if n:
                problems.append(f"pair: {impl} failed {n} pairs (refused event_in or lost key)")
        for impl in PAIR_IMPLS:
            res[f"pair_{impl}_ns_median"] = pr.stat(impl, 0.5)
            res[f"pair_{impl}_ns_p99"] = pr.stat(impl, 0.99)
        res["pair_ns_median"] = res["pair_ours_ns_median"]
        res["pair_ns_median_ci95"] = pr.boot(rng, lambda k: pr.stat("ours", 0.5, k))
        res["pair_ns_p99"] = res["pair_ours_ns_p99"]
        res["pair_ns_p99_ci95"] = pr.boot(rng, lambda k: pr.stat("ours", 0.99, k))
        for peer, key in (("rht_ew", "rhashtable_equal_work"), ("rht", "rhashtable"), ("hlist", "hlist")):
            r = pr.ratio(peer, 0.5)
            res[f"pair_ratio_vs_{key}"] = round(r, 3) if r else None
            res[f"pair_ratio_vs_{key}_ci95"] = pr.boot(rng, lambda k, p=peer: pr.ratio(p, 0.5, k))
        r = pr.ratio("rht_ew", 0.99)
        res["pair_p99_ratio_vs_rhashtable_equal_work"] = round(r, 3) if r else None
        res["pair_p99_ratio_vs_rhashtable_equal_work_ci95"] = pr.boot(
            rng, lambda k: pr.ratio("rht_ew", 0.99, k))
        res["pair_units"] = len(pr.keys("ours"))
        res["pair_failures"] = pr.failures()
        res["pair_clock_read_ns"] = {k: float(v) for k, v in pr.kv.items() if k.startswith("clock_read_ns")}
        res["slot_bytes"] = float(pr.kv["slot_bytes"]) if "slot_bytes" in pr.kv else None
        for k in ("cpus", "rounds", "pairs_per_cpu_round", "live_keys"):
            res[f"pair_{k}"] = int(pr.kv[k]) if k in pr.kv else None
    elif any(k.startswith("pair_") for k in kv) or any(f.startswith("pair") for f in fails):
        problems.append("pair: no histogram from lt_bench")

    # --- workloads ---
    configs = kv.get("configs", "").split()
    reps = max((len(v) for k, v in series.items() if k.startswith("hackbench_")), default=0)
    for cfg in configs:
        works = ["hackbench", "messaging"] if cfg not in ("ours_excl", "ours_incl") else []
        if cfg not in WAKEUP_ONLY:
            works += ["sysloop", "pingpong"]
        for w in works:
            if w == "messaging" and "messaging_args" not in kv:
                continue
            for name, what in [(f"{w}_{cfg}", w)] + ([(f"paired_{w}_{cfg}", f"paired {w}")]
                                                     if cfg in PAIRED and
                                                     w in ("hackbench", "messaging") else []):
                got = len(series.get(name, []))
                if got < reps:
                    problems.append(f"{cfg}: {got} of {reps} {what} runs")
    for work in ("hackbench", "messaging"):
        for row, cfgs in (("equal_work", EQUAL_WORK), ("wakeup_only", WAKEUP_ONLY),
                          ("one_tracker", ONE_TRACKER)):
            pct, pct_ci, spread = workload(series, work, cfgs, rng)
            res[f"{work}_{row}_pct"] = pct
            res[f"{work}_{row}_pct_ci95"] = pct_ci
            res[f"{work}_{row}_runs"] = spread
        res[f"{work}_ours_vs_cheapest_peer_equal_work"] = vs_cheapest(
            series, work, "ours", PEERS, res[f"{work}_equal_work_pct"], rng)
        pct, pct_ci = workload_paired(series, work, PAIRED, rng)
        res[f"{work}_equal_work_paired_pct"] = pct
        res[f"{work}_equal_work_paired_pct_ci95"] = pct_ci
        res[f"{work}_ours_vs_cheapest_peer_paired"] = vs_cheapest(
            series, work, "ours", PEERS, pct, rng, fn=paired)
        res[f"{work}_ours_vs_cheapest_peer_above_floor"] = vs_cheapest(
            series, work, "ours", PEERS, res[f"{work}_equal_work_pct"], rng, FLOOR)
        res[f"{work}_ours_vs_cheapest_peer_fastest"] = vs_cheapest_fastest(
            series, work, "ours", PEERS)
        res[f"{work}_ours_vs_cheapest_peer_wakeup_only"] = vs_cheapest(
            series, work, "ours_wakeup", [p + "_wakeup" for p in PEERS],
            res[f"{work}_wakeup_only_pct"], rng)
        none = series.get(f"{work}_none")
        res[f"{work}_none_s"] = {"median_s": statistics.median(none), "min_s": min(none),
                                 "max_s": max(none), "runs": len(none)} if none else None
    res["hackbench_args"] = kv.get("hackbench_args")
    res["messaging_args"] = kv.get("messaging_args")
    res["workload_reps"] = reps
    res["workload_runs"] = {k: v for k, v in series.items()
                            if not k.startswith(("scale_", "paired_", "custom_"))}
    res["workload_pairs"] = {k[len("paired_"):]: v for k, v in series.items() if k.startswith("paired_")}
    # Probe cost per system call (the loop's 600000) and per ping-pong
    # round trip (40000), by configuration: median ms less none's.
    res["probe_ns_per_syscall"] = per_op(series, "sysloop", 600000)
    res["probe_ns_per_round_trip"] = per_op(series, "pingpong", 40000)

    # --- scaling ---
    scale_pair, scale_hb = {}, {}
    cells = {m.group(1) for k in list(kv) + list(hists)
             for m in [re.match(r"scale_pair_(p\d+_c\d+)_", k)] if m}
    for cell in sorted(cells, key=cell_order):
        run = pair_run(kv, hists, f"scale_pair_{cell}_")
        if not run.blocks:
            problems.append(f"scale_pair_{cell}: no histogram from lt_bench")
            continue
        for impl, n in run.failures().items():
            if n:
                problems.append(f"scale_pair_{cell}: {impl} failed {n} pairs")
        r = run.ratio("rht_ew", 0.5)
        scale_pair[cell] = {"ours_median": run.stat("ours", 0.5), "ours_p99": run.stat("ours", 0.99),
                            "rht_ew_median": run.stat("rht_ew", 0.5), "rht_median": run.stat("rht", 0.5),
                            "ratio_vs_rhashtable_equal_work": round(r, 3) if r else None}
    for k in sorted(series):
        m = re.match(r"scale_hackbench_ours_(p\d+_c\d+)$", k)
        base = series.get(f"scale_hackbench_none_{m.group(1)}") if m else None
        if base:
            scale_hb[m.group(1)] = round((statistics.median(series[k]) / statistics.median(base) - 1) * 100, 2)
    not_flat = []
    for cell, ref in flat_refs(scale_pair):
        a, b = scale_pair[cell]["ours_median"], scale_pair[ref]["ours_median"]
        if a and b and a > b * (1 + FLAT_PAIR):
            not_flat.append(f"pair {cell}: ours {a} ns vs {b} ns at {ref}")
    for cell, ref in flat_refs(scale_hb):
        if scale_hb[cell] - scale_hb[ref] > FLAT_HB_POINTS:
            not_flat.append(f"hackbench {cell}: ours {scale_hb[cell]:+.2f} % vs {scale_hb[ref]:+.2f} % at {ref}")
    res["scaling_pair"] = scale_pair
    res["scaling_hackbench_pct"] = scale_hb
    res["scaling_pending"] = {k[len("scale_pending_"):]: int(v) for k, v in kv.items()
                              if k.startswith("scale_pending_")}
    res["scaling_not_flat"] = not_flat
    res["scaling_growth"] = growth_part(kv, hists, rng, problems)
    # The goals of issue 18, judged on the upper end of the interval.
    goals = {}
    c = res.get("pair_ratio_vs_rhashtable_equal_work_ci95")
    goals["pair_vs_rhashtable_equal_work"] = {"goal": "<= 1.0", "upper": c[1] if c else None,
                                              "reached": bool(c) and c[1] <= 1.0}
    v = res.get("hackbench_ours_vs_cheapest_peer_paired") or {}
    c = v.get("ci95")
    goals["hackbench_vs_cheapest_peer_equal_work"] = {"goal": "<= 0.5", "peer": v.get("peer"),
                                                      "basis": "paired slowdowns",
                                                      "upper": c[1] if c else None,
                                                      "reached": bool(c) and c[1] <= 0.5}
    growth_goals(goals, res["scaling_growth"])
    res.update(custom_part(kv, series, rng, problems))
    ratio_goal(goals, res, "custom_ratio_vs_bpftrace", "custom_fn_vs_bpftrace", 0.5, "paired cost per call")
    res.update(app_part(kv, series, rng, problems))
    res.update(irq_part(kv, series, rng, problems))
    res.update(netrx_part(kv, series, rng, problems))
    res.update(lock_part(kv, series, rng, problems))
    res.update(base_part(kv, series, rng))
    if "pingpong_ours_vs_base" in res:
        c = res["pingpong_ours_vs_base"].get("ci95")
        goals["pingpong_ours_vs_base"] = {"goal": "<= 1.1", "base": res["base_commit"],
                                          "basis": "loop time in the same repetition",
                                          "upper": c[1] if c else None,
                                          "reached": bool(c) and c[1] <= 1.1}
    ratio_goal(goals, res, "app_ratio_vs_floor", "app_request_vs_floor", 1.5,
               "median ns per request (begin + end)")
    res["goals"] = goals
    res["alert_wakeup_us_median"] = float(kv["alert_wakeup_us_median"]) if "alert_wakeup_us_median" in kv else None
    res["alert_wakeup_us_p99"] = float(kv["alert_wakeup_us_p99"]) if "alert_wakeup_us_p99" in kv else None
    res["profile_hackbench_added_samples"] = profile_added(notes)
    res["notes"] = notes
    res["failed"] = problems
    json.dump(res, open(out_path, "w"), indent=2)
    print_table(res, kv)
    if problems:
        print("\nbench FAILED:")
        for p in problems:
            print(f"  {p}")
        sys.exit(1)


def f(v, unit=""):
    if v is None:
        return "n/a"
    return f"{v:.3g}{unit}" if isinstance(v, float) else f"{v}{unit}"


def fci(c, unit=""):
    return f"[{f(c[0])}, {f(c[1])}]{unit}" if c else "[n/a]"


def print_rows(values, cis, unavailable, unit=lambda cfg: ""):
    """A part's figures by configuration, with their intervals, then the
    peers it could not run and why."""
    for cfg, v in values.items():
        print(f"  {cfg:44s} {v:9.1f} {fci(cis.get(cfg))}{unit(cfg)}")
    for peer, why in unavailable.items():
        print(f"  {peer:44s} unavailable ({why})")


def print_ratio(label, v):
    """A ratio's line: its value, its interval, or why it has none."""
    print(f"  {label:44s} {f(v['ratio'])} {fci(v['ci95'])} {v.get('why', '')}")


def print_table(res, kv):
    print(f"\nlatency-tracker benchmarks, {res['date']}, kernel parts on {res['measured_on']}"
          f" (guest kernel {res['kernel']}, clocksource {res.get('clocksource')})\n")
    print("hash table, host (ours / cds_lfht throughput; >1 = ours faster)")
    for k in sorted(k for k in res if k.startswith("ht_ratio")):
        print(f"  {k:44s} {f(res[k])}")
    if "pair_ns_median" in res:
        print(f"\nper pair, kernel: each pair timed on its own, one clock read subtracted "
              f"(ns, median / p99; {res['pair_units']} units = measured rounds x CPUs, "
              f"{res['pair_live_keys']} keys pending)")
        for n, key in (("ours (event_in + event_out)", "ours"),
                       ("rhashtable, equal work (2 clock reads, histogram)", "rht_ew"),
                       ("rhashtable insert+lookup+remove", "rht"),
                       ("hlist + spinlock per bucket", "hlist"), ("two clock reads (not a peer)", "clock2")):
            print(f"  {n:50s} {f(res.get(f'pair_{key}_ns_median'))} / {f(res.get(f'pair_{key}_ns_p99'))}")
        print(f"  {'ours median, 95 % interval':50s} {fci(res['pair_ns_median_ci95'], ' ns')}")
        print(f"  {'ours p99, 95 % interval':50s} {fci(res['pair_ns_p99_ci95'], ' ns')}")
        for key, n in (("rhashtable_equal_work", "ours / rhashtable equal work"),
                       ("rhashtable", "ours / rhashtable bare"), ("hlist", "ours / hlist")):
            print(f"  {n:50s} {f(res[f'pair_ratio_vs_{key}'])} {fci(res[f'pair_ratio_vs_{key}_ci95'])}")
        print(f"  {'p99 ours / p99 rhashtable equal work':50s} "
              f"{f(res['pair_p99_ratio_vs_rhashtable_equal_work'])} "
              f"{fci(res['pair_p99_ratio_vs_rhashtable_equal_work_ci95'])}")
        print(f"  {'bytes per pool slot':50s} {f(res['slot_bytes'])}")
    for work in ("hackbench", "messaging"):
        if not res.get(f"{work}_none_s"):
            continue
        args = res.get(f"{work}_args") or ""
        print(f"\n{work} {args}: median slowdown vs no tracing, 95 % interval, runs min-max "
              f"({res[f'{work}_none_s']['runs']} interleaved runs each; none: "
              f"median {res[f'{work}_none_s']['median_s']:.3f} s)")
        for row in ("equal_work", "wakeup_only", "one_tracker"):
            if not res[f"{work}_{row}_pct"]:
                continue
            print(f"  {row.replace('_', ' ')}:")
            for cfg, pct in res[f"{work}_{row}_pct"].items():
                sp = res[f"{work}_{row}_runs"][cfg]
                print(f"    {cfg:46s} {pct:+7.2f} % {fci(res[f'{work}_{row}_pct_ci95'].get(cfg), ' %'):22s}"
                      f" {sp['min_s']:.3f}-{sp['max_s']:.3f} s")
            for key, what in ((row, ""), ("above_floor", ", both less the floor")):
                v = res.get(f"{work}_ours_vs_cheapest_peer_{key}") if key == row or row == "equal_work" else None
                if v:
                    label = f"ours / cheapest peer ({v['peer']}{what})"
                    print(f"    {label:46s} {f(v['ratio'])} {fci(v['ci95'])} {v.get('why', '')}")
            paired_pct = res.get(f"{work}_equal_work_paired_pct") if row == "equal_work" else None
            if paired_pct:
                print("    paired (each run against its base, a run of none in the same repetition;"
                      " median of run / base - 1; none: the control):")
                for cfg, pct in paired_pct.items():
                    print(f"      {cfg:44s} {pct:+7.2f} % "
                          f"{fci(res[f'{work}_equal_work_paired_pct_ci95'].get(cfg), ' %')}")
                v = res.get(f"{work}_ours_vs_cheapest_peer_paired")
                if v:
                    label = f"ours / cheapest peer ({v['peer']}), paired"
                    print(f"      {label:44s} {f(v['ratio'])} {fci(v['ci95'])} {v.get('why', '')}")
            v = res.get(f"{work}_ours_vs_cheapest_peer_fastest") if row == "equal_work" else None
            if v:
                label = f"fastest runs only: ours / {v['peer']}"
                print(f"    {label:46s} {f(v['ratio'])} (ours {v['ours_pct']:+.1f} %, {v['peer']} "
                      f"{v['peer_pct']:+.1f} %; not a goal, no interval)")
    if res["probe_ns_per_syscall"]:
        print("\nprobe cost per system call (600000 calls at the median batch's pace; ours: no filter,"
              " ours_excl: a filter excluding every task, ours_incl: one including every task;"
              " floor: empty probes; the peers: equal work), ns")
        for cfg, ns in res["probe_ns_per_syscall"].items():
            print(f"  {cfg:44s} {ns}")
    if res["probe_ns_per_round_trip"]:
        print("\nprobe cost per ping-pong round trip (40000 trips at the median batch's pace: two wakeups,"
              " two switches, four system calls each), ns")
        for cfg, ns in res["probe_ns_per_round_trip"].items():
            print(f"  {cfg:44s} {ns}")
    if res["scaling_pair"] or res["scaling_hackbench_pct"]:
        print("\nscaling: pending events (N) and CPUs producing (c); pair ns median ours / "
              "rht_ew (ratio), p99 ours; hackbench slowdown of ours")
        cells = sorted(set(res["scaling_pair"]) | set(res["scaling_hackbench_pct"]), key=cell_order)
        for cell in cells:
            p = res["scaling_pair"].get(cell, {})
            hb = res["scaling_hackbench_pct"].get(cell)
            print(f"  {cell:12s} pair {f(p.get('ours_median'))} / {f(p.get('rht_ew_median'))} "
                  f"({f(p.get('ratio_vs_rhashtable_equal_work'))}), p99 {f(p.get('ours_p99'))}   "
                  f"hackbench {'n/a' if hb is None else f'{hb:+.2f} %'}")
        print(f"  not flat (pair > {FLAT_PAIR:.0%} or hackbench > {FLAT_HB_POINTS} points above"
              f" the fewest-pending cell): {'; '.join(res['scaling_not_flat']) or 'none'}")
    growth = res.get("scaling_growth", {})
    if growth:
        print("\nscaling growth: pair ns median at the fewest and at the most pending (live, live_big), in the"
              " same rounds; growth = the second over the first [95 % interval]")
    for c, cell in growth.items():
        o, p, r = cell["ours"], cell["rht_ew"], cell["ours_growth_vs_peer"]
        print(f"  {c:12s} ours {f(o['median'])} -> {f(o['median_big'])}: {f(o['growth'])} {fci(o['growth_ci95'])}"
              f"   rht_ew {f(p['median'])} -> {f(p['median_big'])}: {f(p['growth'])} {fci(p['growth_ci95'])}"
              f"   ours / peer {f(r['ratio'])} {fci(r['ci95'])}")
    if res.get("custom_calls"):
        print(f"\ncustom fn={res['custom_fn']}: cost per call above none, each run against its base run of none"
              f" ({res['custom_calls']} calls a run, {res['custom_reps']} repetitions; the loop alone:"
              f" {f(res['custom_loop_ns_per_call'])} ns a call and its write; none: the control), ns")
        print_rows(res["custom_ns_per_call"], res["custom_ns_per_call_ci95"], res["custom_unavailable"])
        for peer in ("bpftrace", "synth"):
            for key, what in (("", ""), ("_above_floor", ", both less the floor")):
                print_ratio("ours / " + peer + what, res[f"custom_ratio_vs_{peer}{key}"])
    if res.get("app_reps"):
        print(f"\napplication requests: ns per request, lt_app_begin + lt_app_end against two empty system"
              f" calls (floor), one empty ioctl on the transport file (ioctl) and two LTTng-UST tracepoints"
              f" in a flight-recorder session (ust), CPU 0,"
              f" {res['app_reps']} repetitions")
        print_rows(res["app_ns"], res["app_ns_ci95"], {},
                   lambda cfg: " ms (the loop)" if cfg.startswith("pp_") else "")
        if res.get("app_switch_ns") is not None:
            print(f"  {'a switch of a thread with a request open, ns':44s} {res['app_switch_ns']:9.1f} "
                  f"{fci(res['app_switch_ns_ci95'])}")
        print_rows({}, {}, res["app_unavailable"])
        for peer in ("floor", "ioctl", "ust"):
            print_ratio("ours / " + peer, res[f"app_ratio_vs_{peer}"])
    if res.get("base_commit") is not None or any(k.endswith("_ours_vs_base") for k in res):
        print(f"\nours against the build of {res.get('base_commit')} (base_ours): workload time ratio"
              f" (hackbench, messaging: from the paired slowdowns; loops: median of run / run in a repetition)")
        for k in ("hackbench", "messaging", "sysloop", "pingpong"):
            if res.get(f"{k}_ours_vs_base"):
                print_ratio(k, res[f"{k}_ours_vs_base"])
    if res.get("irq_reps"):
        print(f"\ninterrupts: ns added to an interrupt period on CPU 1 (a local timer interrupt, a device"
              f" interrupt handled inside it, a tasklet raised and run, every {res['irq_period_us']} us),"
              f" against none, {res['irq_reps']} repetitions")
        print_rows(res["irq_ns_per_period"], res["irq_ns_per_period_ci95"], res["irq_unavailable"])
        print_ratio("ours_irq / bpftrace_irq", res["irq_ratio_vs_bpftrace"])
    if res.get("netrx_reps"):
        print(f"\nnetrx: ns added to a packet of a loopback UDP stream ({res['netrx_packets']} datagrams"
              f" sent and read at once on CPU 0), against none, {res['netrx_reps']} repetitions")
        print_rows(res["netrx_ns_per_packet"], res["netrx_ns_per_packet_ci95"], res["netrx_unavailable"])
        print_ratio("ours_netrx / bpftrace_netrx", res["netrx_ratio_vs_bpftrace"])
    if res.get("lock_reps"):
        print(f"\nkernel locks: ns added to a contended wait ({res['lock_n']} down_timeout() calls"
              f" with no time to wait on an empty semaphore, CPU 0; ours matched"
              f" {f(res['lock_waits_median'])} a run, median), against none,"
              f" {res['lock_reps']} repetitions")
        print_rows(res["lock_ns_per_wait"], res["lock_ns_per_wait_ci95"], res["lock_unavailable"])
        print_ratio("ours_lock / ftrace_lock", res["lock_ratio_vs_ftrace"])
    print("\ngoals (upper end of the 95 % interval)")
    for name, g in res["goals"].items():
        print(f"  {name:44s} {g['goal']}: upper {f(g['upper'])} -> "
              f"{'reached' if g['reached'] else 'not reached'} {g.get('why', '')}")
    print("\nalert path: threshold crossing -> blocked reader returns (us, median / p99)")
    print(f"  {'':44s} {f(res['alert_wakeup_us_median'])} / {f(res['alert_wakeup_us_p99'])}")
    prof = res.get("profile_hackbench_added_samples")
    if prof:
        print("\nprofile, hackbench: samples above none's run, by module (one run each; the whole run's"
              " difference is mostly the host's pace)")
        for cfg, v in prof.items():
            mods = ", ".join(f"{m} {n:+d}" for m, n in v["added_by_module"].items() if abs(n) >= 20)
            print(f"  {cfg:10s} {v['samples']} samples vs {v['none_samples']}: {mods}")
    for n in res["notes"]:
        print(f"note: {n}")
    print(f"\nJSON: {sys.argv[4]}")


if __name__ == "__main__":
    main()
