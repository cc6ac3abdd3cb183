#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""test_report.py - tests/bench/report.py on hand-made guest output (run
by `make bench` before its guest boots, and by hand): the figures it
derives, its intervals, and that every kind of missing figure fails it."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIGS = ("none ours ftrace bpftrace lttng floor ours_wakeup ftrace_wakeup bpftrace_wakeup "
           "lttng_wakeup ours_excl ours_incl").split()
# Workload seconds per configuration (every repetition +-1 %).
HB = {"none": 2.0, "ours": 2.1, "ftrace": 2.2, "bpftrace": 2.6, "lttng": 2.4, "floor": 2.04,
      "ours_wakeup": 2.04, "ftrace_wakeup": 2.08, "bpftrace_wakeup": 2.2, "lttng_wakeup": 2.1}
PAIR_MED = {"ours": 200, "rht_ew": 250, "rht": 100, "hlist": 80, "clock2": 60}
failed = 0


def hist_line(prefix, impl, rnd, cpu, med, jitter):
    # 100 pairs: 49 at med/2, 2 at med (the median), 48 at 1.5 med, 1 at 10 med.
    m = med + jitter
    return (f"{prefix}hist {impl} {rnd} {cpu} {m // 2}:49 {m}:2 {m * 3 // 2}:48 {m * 10}:1\n")


def pair_block(prefix, meds, rounds=7, cpus=2, failures=None):
    out = [f"{prefix}cpus {cpus}\n", f"{prefix}rounds {rounds}\n", f"{prefix}live_keys 4096\n",
           f"{prefix}slot_bytes 76\n", f"{prefix}pairs_per_cpu_round 16384\n"]
    for impl in meds:
        out.append(f"{prefix}failures_{impl} {(failures or {}).get(impl, 0)}\n")
    for impl, med in meds.items():
        for r in range(1, rounds + 1):
            for c in range(cpus):
                out.append(hist_line(prefix, impl, r, c, med, (r % 3) * 2))
    return out


def growth_output(meds, c=1, rounds=9, pace=lambda r: 1):
    """One lt_bench run with live_big: the four implementations' pairs per
    round at pace(round) (the host's pace, the same for the four)."""
    prefix = f"scale_growth_c{c}_"
    out = [f"{prefix}cpus {c}\n", f"{prefix}rounds {rounds}\n", f"{prefix}live_keys 10\n",
           f"{prefix}live_big_keys 100000\n"]
    out += [f"{prefix}failures_{i} 0\n" for i in meds]
    for impl, med in meds.items():
        for r in range(1, rounds + 1):
            for cpu in range(c):
                out.append(hist_line(prefix, impl, r, cpu, int(med * pace(r)), 0))
    return out


PAIRED = ("none", "ours", "ftrace", "bpftrace", "lttng", "floor", "base_ours")


def guest_output(drop=None, extra=(), pair_failures=None, reps=5, hb=None, pace=None, configs=CONFIGS):
    """pace(config, rep, side): the host's pace of that configuration's run
    (side "run") or of its base run of none (side "base") in that
    repetition, 1 by default.  Base and run each get their own jitter
    (+-1 %), so that paired ratios vary."""
    hb = hb or HB
    lines = ["kernel 6.12.117+deb12-amd64\n"] + pair_block("pair_", PAIR_MED, failures=pair_failures)
    lines += ["hackbench_args -g 4 -l 100\n", "messaging_args -p -t -g 4 -l 100\n",
              f"configs {' '.join(configs)}\n"]
    for r in range(reps):
        for c in configs:
            if (c, r) == drop:
                continue
            j = (1 + (r - 2) * 0.005) * (pace(c, r, "run") if pace else 1)
            if c in PAIRED and c in hb:
                jb = (1 + ((r * 3 + len(c)) % 5 - 2) * 0.005) * (pace(c, r, "base") if pace else 1)
                lines.append(f"paired_hackbench_{c} {hb['none'] * jb:.4f} {hb[c] * j:.4f}\n")
                lines.append(f"paired_messaging_{c} {hb['none'] * jb / 2:.4f} {hb[c] * j / 2:.4f}\n")
            if c in hb:
                lines.append(f"hackbench_{c} {hb[c] * j:.4f}\n")
                lines.append(f"messaging_{c} {hb[c] * j / 2:.4f}\n")
            if not c.endswith("_wakeup"):
                lines.append(f"sysloop_{c} {1000 + 60 * (c != 'none')}\n")
                lines.append(f"pingpong_{c} {2000 + 80 * (c != 'none')}\n")
    for n, scale in ((10, 1), (1000, 1), (100000, 3)):
        for c in (1, 2):
            lines += pair_block(f"scale_pair_p{n}_c{c}_",
                                {"ours": 200 * scale, "rht_ew": 250, "rht": 100}, rounds=3, cpus=c)
            for r in range(3):
                lines.append(f"scale_hackbench_none_p{n}_c{c} 2.0\n")
                lines.append(f"scale_hackbench_ours_p{n}_c{c} {2.1 if n < 100000 else 2.4}\n")
        lines.append(f"scale_pending_p{n} {n + 5}\n")
    lines += ["alert_wakeup_us_median 500.0\n", "alert_wakeup_us_p99 2000.0\n"]
    return lines + list(extra)


# The custom part: ns per call each configuration adds (none: the control).
CUSTOM_NS = {"none": 0, "ours": 300, "bpftrace": 1000, "synth": 2000, "floor": 100}


def custom_output(reps=7, ns=None, drop=None, unavailable=()):
    """The custom part's lines: per repetition, each configuration's base
    and run (ms for 300000 calls, whole ms as lt_sysloop prints them), the
    bases jittered by a few ms and each run by +-3 ms (+-10 ns a call)."""
    ns = ns or CUSTOM_NS
    lines = ["custom_fn vfs_read\n", "custom_calls 300000\n", f"custom_reps {reps}\n",
             "custom_configs none ours bpftrace synth floor\n"]
    lines += [f"custom_unavailable {p} no {p} in this guest\n" for p in unavailable]
    for r in range(reps):
        for c, v in ns.items():
            if c in unavailable or (c, r) == drop:
                continue
            base = 1000 + (r * 7 + len(c)) % 5 * 2
            lines.append(f"custom_paired_{c} {base} {base + round(v * 0.3) + (r % 3 - 1) * 3}\n")
    return lines


def app_output(reps=9, ns=None, unavailable=(), drop=None):
    """The app part's lines: per repetition, each configuration's ns per
    request, jittered by a few ns."""
    ns = ns or {"floor": 400, "ioctl": 460, "ours": 520, "ust": 300, "pp_none": 800, "pp_open": 804}
    lines = [f"app_reps {reps}\n"] + [f"app_unavailable {p} no lttng-sessiond\n" for p in unavailable]
    for r in range(reps):
        for c, v in ns.items():
            if c not in unavailable and (c, r) != drop:
                lines.append(f"app_ns_{c} {v + (r * 5 + len(c)) % 7 - 3}\n")
    return lines


def netrx_output(reps=5, ns=None):
    """The netrx part's lines: per repetition, each configuration's stream
    (ms, none's 900 to 908) of 100000 packets, its cost per packet ns
    added, jittered by a few ns a packet."""
    ns = ns or {"none": 0, "ours_netrx": 400, "bpftrace_netrx": 1600}
    lines = ["netrx_packets 100000\n", f"netrx_reps {reps}\n",
             "netrx_configs none ours_netrx bpftrace_netrx\n"]
    for r in range(reps):
        for c, v in ns.items():
            extra = 0 if c == "none" else (v + (r * 3 + len(c)) % 9 - 4) * 100000 / 1e6
            lines.append(f"netrx_run_{c} {900 + r % 5 * 2 + extra:.3f} 100000\n")
    return lines


def irq_output(reps=9, ns=None, unavailable=(), drop=None):
    """The irq part's lines: per repetition, each configuration's spin (ms,
    none's 400 to 408) with 3000 to 3005 periods, its cost per period ns
    added, jittered by a few ns a period."""
    ns = ns or {"none": 0, "ours_irq": 500, "bpftrace_irq": 2000, "ours_wakeup": 300}
    lines = ["irq_period_us 100\n", f"irq_reps {reps}\n",
             "irq_configs none ours_irq bpftrace_irq ours_wakeup\n"]
    lines += [f"irq_unavailable {p} no bpftrace in this guest\n" for p in unavailable]
    for r in range(reps):
        base = 400 + r % 5 * 2
        for c, v in ns.items():
            if c in unavailable or (c, r) == drop:
                continue
            periods = 3000 + (r + len(c)) % 6
            extra = 0 if c == "none" else (v + (r * 3 + len(c)) % 9 - 4) * periods / 1e6
            lines.append(f"irq_run_{c} {base + extra:.3f} {periods}\n")
    return lines


def lock_output(reps=9, ns=None, waits=36000, unavailable=(), drop=None):
    """The lock part's lines: per repetition, each configuration's run (ms,
    none's 500 to 508) of 40000 waits, its cost per wait ns added,
    jittered by a few ns; ours' waits."""
    ns = ns or {"none": 0, "ours_lock": 2000, "ftrace_lock": 8000}
    lines = ["lock_n 20000\n", f"lock_reps {reps}\n", "lock_configs none ours_lock ftrace_lock\n"]
    lines += [f"lock_unavailable {p} not in this guest\n" for p in unavailable]
    for r in range(reps):
        base = 500 + r % 5 * 2
        for c, v in ns.items():
            if c in unavailable or (c, r) == drop:
                continue
            extra = 0 if c == "none" else (v + (r * 3 + len(c)) % 9 - 4) * 40000 / 1e6
            lines.append(f"lock_run_{c} {base + extra:.3f} 40000\n")
            if c == "ours_lock":
                lines.append(f"lock_waits {waits + r}\n")
    return lines

def run(lines):
    with tempfile.TemporaryDirectory() as d:
        ht, kout, js = (os.path.join(d, n) for n in ("ht.json", "kernel.out", "out.json"))
        json.dump({"ht_ratio_1": 1.2}, open(ht, "w"))
        open(kout, "w").writelines(lines)
        p = subprocess.run([sys.executable, os.path.join(HERE, "report.py"), ht, kout,
                            "test", js], capture_output=True, text=True)
        res = json.load(open(js)) if os.path.exists(js) else None
        return p.returncode, p.stdout + p.stderr, res


def check(what, cond, detail=""):
    global failed
    print(f"{'ok' if cond else 'not ok'} - {what}" + ("" if cond else f": {detail}"))
    failed += not cond


def near(a, b, tol=0.02):
    return a is not None and abs(a - b) <= tol * abs(b)


def inside(ci, v):
    return ci is not None and ci[0] <= v <= ci[1]


def main():
    rc, out, res = run(guest_output())
    check("complete output: exit 0", rc == 0, out[-600:])
    ew = res["hackbench_equal_work_pct"]
    check("hackbench_equal_work_pct has every equal-work configuration",
          sorted(ew) == ["bpftrace", "floor", "ftrace", "lttng", "ours"], ew)
    check("ours +5 %, lttng +20 %", near(ew["ours"], 5.0) and near(ew["lttng"], 20.0), ew)
    check("every equal-work slowdown has an interval around it",
          all(inside(res["hackbench_equal_work_pct_ci95"][c], ew[c]) for c in ew),
          res["hackbench_equal_work_pct_ci95"])
    v = res["hackbench_ours_vs_cheapest_peer_equal_work"]
    check("ours / cheapest equal-work peer: ftrace, 0.5", v["peer"] == "ftrace" and near(v["ratio"], 0.5), v)
    v = res["hackbench_ours_vs_cheapest_peer_above_floor"]
    check("above the floor (+2 %): ours 3 / ftrace 8 = 0.375, inside its interval",
          v["peer"] == "ftrace" and near(v["ratio"], 0.375) and inside(v["ci95"], v["ratio"]), v)
    rc, out, res2 = run(guest_output(hb=dict(HB, floor=2.2)))
    v = res2["hackbench_ours_vs_cheapest_peer_above_floor"]
    check("a peer not above the floor: no ratio, said why, no failure",
          rc == 0 and v["ratio"] is None and "not above the floor" in v["why"], v)
    check("wakeup-only row kept", sorted(res["hackbench_wakeup_only_pct"]) == sorted(
        ["ours_wakeup", "ftrace_wakeup", "bpftrace_wakeup", "lttng_wakeup"]), res["hackbench_wakeup_only_pct"])
    check("messaging rows", near(res["messaging_equal_work_pct"]["ours"], 5.0), res["messaging_equal_work_pct"])
    check("pair median 200 ns, p99 1.5x (the 99th of 100 pairs)",
          near(res["pair_ns_median"], 202, 0.03) and near(res["pair_ns_p99"], 303, 0.03),
          (res["pair_ns_median"], res["pair_ns_p99"]))
    r = res["pair_ratio_vs_rhashtable_equal_work"]
    check("pair ratio vs equal-work rhashtable 0.8 inside its interval",
          near(r, 0.8) and inside(res["pair_ratio_vs_rhashtable_equal_work_ci95"], r),
          (r, res["pair_ratio_vs_rhashtable_equal_work_ci95"]))
    check("bare rhashtable ratio 2.0", near(res["pair_ratio_vs_rhashtable"], 2.0), res["pair_ratio_vs_rhashtable"])
    check("p99 interval present", inside(res["pair_ns_p99_ci95"], res["pair_ns_p99"]), res["pair_ns_p99_ci95"])
    check("14 pair units (7 rounds x 2 CPUs)", res["pair_units"] == 14, res["pair_units"])
    check("kernel named", res["kernel"] == "6.12.117+deb12-amd64", res["kernel"])
    nf = " ".join(res["scaling_not_flat"])
    check("scaling: 10^5 pending flagged for the pair and hackbench, 10^3 not",
          "pair p100000_c1" in nf and "pair p100000_c2" in nf and "hackbench p100000_c1" in nf
          and "p1000_" not in nf, res["scaling_not_flat"])
    check("scaling cells: 3 levels x 2 CPU counts", len(res["scaling_pair"]) == 6, res["scaling_pair"])
    g = res["goals"]
    gh = g["hackbench_vs_cheapest_peer_equal_work"]
    check("goals judged on the interval's upper end: pair 0.8 reached; hackbench (paired ratio 0.5, "
          "upper end above it) not",
          g["pair_vs_rhashtable_equal_work"]["reached"] and gh["peer"] == "ftrace"
          and gh["upper"] > 0.5 and not gh["reached"], g)
    check("probe cost per syscall 100 ns", near(res["probe_ns_per_syscall"]["ours"], 100.0),
          res["probe_ns_per_syscall"])
    fa = res["hackbench_ours_vs_cheapest_peer_fastest"]
    check("fastest runs: ours +5 % / ftrace +10 % (the cheapest peer's fastest run) = 0.5",
          fa and fa["peer"] == "ftrace" and near(fa["ratio"], 0.5), fa)
    check("probe cost per round trip 2000 ns", near(res["probe_ns_per_round_trip"]["lttng"], 2000.0),
          res["probe_ns_per_round_trip"])

    pw, pci = res["hackbench_equal_work_paired_pct"], res["hackbench_equal_work_paired_pct_ci95"]
    check("paired slowdowns: none (the control) 0 %, ours +5 %, lttng +20 %",
          abs(pw["none"]) < 1.5 and near(pw["ours"], 5.0, 0.25) and near(pw["lttng"], 20.0, 0.1), pw)
    check("each paired slowdown inside an interval of some width",
          all(inside(pci[c], pw[c]) and pci[c][1] > pci[c][0] for c in pw), pci)
    v = res["hackbench_ours_vs_cheapest_peer_paired"]
    check("paired: ours / ftrace 0.5", v["peer"] == "ftrace" and near(v["ratio"], 0.5, 0.25), v)

    # The host's two paces, 9 repetitions: ours' runs and their bases slow
    # (x1.5) in 4, and in a fifth only ours' run, not its base (the pace
    # changed between them).  The medians of runs say ours about +57 %, the
    # paired slowdowns still +5 %, and the goal is judged on them.
    def two_paces(c, r, side):
        return 1.5 if c == "ours" and (r in (0, 2, 6, 8) or (r == 4 and side == "run")) else 1
    rc, out, res = run(guest_output(hb=dict(HB, ftrace=2.8, bpftrace=2.8), pace=two_paces, reps=9))
    ew, pw = res["hackbench_equal_work_pct"], res["hackbench_equal_work_paired_pct"]
    check("two paces: median of runs mixed (ours > +50 %), paired ours +5 %, lttng +20 %",
          rc == 0 and ew["ours"] > 50 and near(pw["ours"], 5.0, 0.25) and near(pw["lttng"], 20.0, 0.1),
          (ew, pw))
    g = res["goals"]["hackbench_vs_cheapest_peer_equal_work"]
    check("two paces: the goal judged on the paired ratio (0.25 vs lttng): reached",
          g["reached"] and g["peer"] == "lttng" and g["basis"] == "paired slowdowns", g)
    rc, out, res = run(guest_output(drop=("ours", 1)))
    check("a repetition without ours' pair fails the report, named, the other pairs kept whole",
          rc == 1 and "ours: 4 of 5 paired hackbench runs" in out and
          len(res["workload_pairs"]["hackbench_ours"]) == 4 and
          near(res["hackbench_equal_work_paired_pct"]["ours"], 5.0, 0.25), out[-300:])
    rc, out, _ = run(guest_output() + ["paired_hackbench_ours 2.0\n"])
    check("a pair line without two numbers fails the report", rc == 1 and "paired_hackbench_ours" in out,
          out[-300:])

    slow = dict(PAIR_MED, ours=260)
    rc, out, res = run([l for l in guest_output() if not l.startswith("pair_")] + pair_block("pair_", slow))
    g = res["goals"]["pair_vs_rhashtable_equal_work"]
    check("pair 1.04x the equal-work peer: goal not reached", rc == 0 and not g["reached"] and g["upper"] > 1.0, g)

    rc, out, res = run(guest_output(extra=["fail lttng: raw_syscalls probe not built\n"]))
    check("a failed configuration fails the report, named",
          rc == 1 and "lttng: raw_syscalls probe not built" in out and res["failed"], out[-300:])
    rc, out, _ = run(guest_output(drop=("floor", 1)))
    check("a missing floor run fails the report, named", rc == 1 and "floor: 4 of 5 hackbench runs" in out,
          out[-300:])
    rc, out, _ = run(guest_output(drop=("bpftrace", 3)))
    check("a missing run fails the report, named", rc == 1 and "bpftrace: 4 of 5 hackbench runs" in out, out[-300:])
    rc, out, _ = run(guest_output(pair_failures={"ours": 3}))
    check("a refused event_in fails the report", rc == 1 and "ours failed 3 pairs" in out, out[-300:])
    rc, out, _ = run([l for l in guest_output() if not l.startswith("pair_hist")])
    check("pair figures without histograms fail the report", rc == 1 and "no histogram" in out, out[-300:])
    rc, out, res = run([l for l in guest_output() if l.startswith(("kernel", "scale_"))])
    check("a scaling-only run (LTG_BENCH_PARTS=scaling) passes", rc == 0 and len(res["scaling_pair"]) == 6, out[-300:])
    prof = ["note profile hackbench_none samples 1000\n", "note profile hackbench_none module 90.00% [kernel]\n",
            "note profile hackbench_ours samples 1200\n", "note profile hackbench_ours module 80.00% [kernel]\n",
            "note profile hackbench_ours module 5.00% [latency_tracker_syscalls]\n",
            "note profile hackbench_lttng samples 1100\n",
            "note profile hackbench_lttng module 90.00% [kernel] 991\n"]
    rc, out, res = run(guest_output(extra=prof))
    a = (res["profile_hackbench_added_samples"] or {}).get("ours", {}).get("added_by_module", {})
    check("profile: samples above none's by module (1200 x 5 % = +60 for the tracker, 960 - 900 = +60 for "
          "the kernel; a note's own count, 991 - 900, when it has one)", rc == 0 and a == {"[kernel]": 60, "[latency_tracker_syscalls]": 60}
          and res["profile_hackbench_added_samples"]["lttng"]["added_by_module"] == {"[kernel]": 91},
          res.get("profile_hackbench_added_samples"))
    check("no none profile: no comparison", res is not None and
          run(guest_output(extra=prof[2:]))[2]["profile_hackbench_added_samples"] is None)
    check("no custom part: no custom figures, no custom goal",
          "custom_calls" not in res and "custom_fn_vs_bpftrace" not in res["goals"], res["goals"])
    rc, out, res = run(guest_output(extra=custom_output()))
    pc, pci = res.get("custom_ns_per_call", {}), res.get("custom_ns_per_call_ci95", {})
    check("custom: per call, none (the control) 0, ours 300, bpftrace 1000, synth 2000, floor 100 ns, each "
          "inside an interval", rc == 0 and abs(pc["none"]) <= 10 and near(pc["ours"], 300, 0.05) and
          near(pc["floor"], 100, 0.1) and
          near(pc["bpftrace"], 1000) and near(pc["synth"], 2000) and all(inside(pci[c], pc[c]) for c in pc),
          (pc, pci, out[-300:]))
    v, w = res["custom_ratio_vs_bpftrace"], res["custom_ratio_vs_synth"]
    check("custom: ours / bpftrace 0.3, ours / synth 0.15, inside their intervals",
          near(v["ratio"], 0.3, 0.05) and inside(v["ci95"], v["ratio"]) and
          near(w["ratio"], 0.15, 0.05) and inside(w["ci95"], w["ratio"]), (v, w))
    v, w = res["custom_ratio_vs_bpftrace_above_floor"], res["custom_ns_above_floor"]
    check("custom: above the floor, ours 200 / bpftrace 900 = 0.222, inside its interval",
          near(v["ratio"], 0.222, 0.1) and inside(v["ci95"], v["ratio"]) and near(w["ours"], 200, 0.1), (v, w))
    g = res["goals"]["custom_fn_vs_bpftrace"]
    check("custom: goal <= 0.5 bpftrace judged on the upper end: reached", g["reached"] and g["upper"] < 0.5, g)
    check("custom: the loop alone about 3.3 us a call (1000 ms / 300000)",
          near(res["custom_loop_ns_per_call"], 3340, 0.01), res["custom_loop_ns_per_call"])
    check("custom: the pairs kept apart from the workload runs", "custom_paired_ours" not in res["workload_runs"]
          and len(res["custom_pairs"]["ours"]) == 7, sorted(res["workload_runs"]))
    rc, out, res = run(guest_output(extra=custom_output(ns=dict(CUSTOM_NS, ours=600))))
    g = res["goals"]["custom_fn_vs_bpftrace"]
    check("custom: ours 0.6x bpftrace: goal not reached", rc == 0 and not g["reached"] and g["upper"] > 0.5, g)
    rc, out, res = run(guest_output(extra=custom_output(unavailable=("bpftrace",))))
    v, g = res["custom_ratio_vs_bpftrace"], res["goals"]["custom_fn_vs_bpftrace"]
    check("custom: bpftrace unavailable: recorded with its reason, no ratio, goal not reached, no failure",
          rc == 0 and res["custom_unavailable"] == {"bpftrace": "no bpftrace in this guest"} and
          v["ratio"] is None and "unavailable" in g["why"] and not g["reached"] and
          "bpftrace" in out and "unavailable (no bpftrace in this guest)" in out and
          near(res["custom_ratio_vs_synth"]["ratio"], 0.15, 0.05) and
          "unavailable" in res["custom_ratio_vs_bpftrace_above_floor"]["why"], (v, g, out[-300:]))
    rc, out, res = run(guest_output(extra=custom_output(ns=dict(CUSTOM_NS, floor=1200))))
    v = res["custom_ratio_vs_bpftrace_above_floor"]
    check("custom: a peer not above the floor: no ratio above it, said why, no failure",
          rc == 0 and v["ratio"] is None and "not above the floor" in v["why"], v)
    rc, out, _ = run(guest_output(extra=custom_output(drop=("ours", 3))))
    check("custom: a repetition without ours' pair fails the report, named",
          rc == 1 and "custom ours: 6 of 7 paired loop runs" in out, out[-300:])
    check("no app part: no app figures, no app goal",
          "app_reps" not in res and "app_request_vs_floor" not in res["goals"], res["goals"])
    rc, out, res = run(guest_output(extra=app_output()))
    v, w, g = res["app_ratio_vs_floor"], res["app_ratio_vs_ust"], res["goals"]["app_request_vs_floor"]
    check("app: ns per request 400 / 460 / 520 / 300; ours / floor 1.3, / ioctl 1.13 and / ust 1.73 inside "
          "their intervals; goal <= 1.5 reached", rc == 0 and near(res["app_ns"]["ours"], 520) and
          near(v["ratio"], 1.3) and inside(v["ci95"], v["ratio"]) and near(w["ratio"], 1.733) and g["reached"] and
          near(res["app_ratio_vs_ioctl"]["ratio"], 1.130) and "ours / ioctl" in out and
          "ours / floor" in out and near(res["app_switch_ns"], 50, 0.3), (v, w, g, out[-400:]))
    rc, out, res = run(guest_output(extra=app_output(ns={"floor": 400, "ioctl": 460, "ours": 800, "ust": 300})))
    check("app: ours at 2 x floor: goal not reached", not res["goals"]["app_request_vs_floor"]["reached"],
          res["goals"]["app_request_vs_floor"])
    rc, out, res = run(guest_output(extra=app_output(unavailable=("ust",))))
    check("app: ust unavailable: said why, no ratio, no failure, the goal still judged",
          rc == 0 and res["app_ratio_vs_ust"]["ratio"] is None and
          "unavailable" in res["app_ratio_vs_ust"]["why"] and res["goals"]["app_request_vs_floor"]["reached"],
          (res.get("app_ratio_vs_ust"), out[-300:]))
    rc, out, _ = run(guest_output(extra=app_output(drop=("ours", 2))))
    check("app: a repetition without ours fails the report, named", rc == 1 and "app ours: 8 of 9 runs" in out,
          out[-300:])
    rc, out, res = run(guest_output(extra=irq_output()))
    pp, pci, v = res.get("irq_ns_per_period", {}), res.get("irq_ns_per_period_ci95", {}), \
        res.get("irq_ratio_vs_bpftrace", {})
    check("irq: ns per period, ours_irq 500, bpftrace_irq 2000, ours_wakeup 300, each inside an interval; "
          "ours / bpftrace 0.25 inside its interval", rc == 0 and near(pp["ours_irq"], 500, 0.03) and
          near(pp["bpftrace_irq"], 2000, 0.02) and near(pp["ours_wakeup"], 300, 0.05) and
          "none" not in pp and all(inside(pci[c], pp[c]) for c in pp) and
          near(v["ratio"], 0.25, 0.05) and inside(v["ci95"], v["ratio"]) and "ours_irq / bpftrace_irq" in out,
          (pp, pci, v, out[-400:]))
    rc, out, res = run(guest_output(extra=irq_output(unavailable=("bpftrace_irq",))))
    v = res.get("irq_ratio_vs_bpftrace", {})
    check("irq: bpftrace unavailable: said why, no ratio, no failure",
          rc == 0 and v.get("ratio") is None and "unavailable" in v.get("why", "") and
          "bpftrace_irq" not in res["irq_ns_per_period"], (v, out[-300:]))
    rc, out, _ = run(guest_output(extra=irq_output(drop=("ours_irq", 4))))
    check("irq: a repetition without ours fails the report, named", rc == 1 and "irq ours_irq: 8 of 9 runs" in out,
          out[-300:])
    rc, out, res = run(guest_output(extra=netrx_output()))
    pp, v = res.get("netrx_ns_per_packet", {}), res.get("netrx_ratio_vs_bpftrace", {})
    check("netrx: ns per packet, ours_netrx 400, bpftrace_netrx 1600; ours / bpftrace 0.25",
          rc == 0 and near(pp.get("ours_netrx"), 400, 0.03) and near(pp.get("bpftrace_netrx"), 1600, 0.02) and
          near(v.get("ratio"), 0.25, 0.05) and "ours_netrx / bpftrace_netrx" in out, (pp, v, out[-400:]))
    rc, out, _ = run(guest_output(extra=["irq_run_ours_irq 400 0\n"]))
    check("irq: a run without periods fails the report", rc == 1 and "irq_run_ours_irq" in out, out[-300:])
    rc, out, res = run(guest_output(extra=lock_output()))
    a, aci, v = res.get("lock_ns_per_wait", {}), res.get("lock_ns_per_wait_ci95", {}), \
        res.get("lock_ratio_vs_ftrace", {})
    check("lock: ns per wait, ours_lock 2000, ftrace_lock 8000, each inside an interval; "
          "ours / ftrace 0.25 inside its interval; the waits' median", rc == 0 and
          near(a["ours_lock"], 2000, 0.03) and near(a["ftrace_lock"], 8000, 0.02) and "none" not in a and
          all(inside(aci[c], a[c]) for c in a) and near(v["ratio"], 0.25, 0.05) and
          inside(v["ci95"], v["ratio"]) and res["lock_waits_median"] == 36004 and
          "ours_lock / ftrace_lock" in out, (a, aci, v, out[-400:]))
    rc, out, res = run(guest_output(extra=lock_output(unavailable=("ftrace_lock",))))
    v = res.get("lock_ratio_vs_ftrace", {})
    check("lock: ftrace unavailable: said why, no ratio, no failure",
          rc == 0 and v.get("ratio") is None and "ftrace_lock unavailable" in v.get("why", "") and
          "ftrace_lock" not in res["lock_ns_per_wait"], (v, out[-300:]))
    rc, out, _ = run(guest_output(extra=lock_output(drop=("ours_lock", 3))))
    check("lock: a repetition without ours fails the report, named",
          rc == 1 and "lock ours_lock: 8 of 9 runs" in out, out[-300:])
    rc, out, _ = run(guest_output(extra=["lock_waits x\n"]))
    check("lock: waits that are not a count fail the report", rc == 1 and "lock_waits" in out, out[-300:])
    rc, out, res = run(guest_output(configs=CONFIGS + ["base_ours"], hb=dict(HB, base_ours=2.0),
                                    extra=["base_commit 3c96b8b\n"]))
    v, g = res.get("hackbench_ours_vs_base", {}), res["goals"].get("pingpong_ours_vs_base", {})
    check("base: ours 2.1 s against the base build's 2.0 s: 1.05 inside its interval; the loops 1.0, "
          "the goal <= 1.1 judged on the ping-pong's upper end: reached", rc == 0 and
          near(v.get("ratio"), 1.05, 0.01) and inside(v.get("ci95"), v["ratio"]) and
          g.get("base") == "3c96b8b" and g["goal"] == "<= 1.1" and g["reached"] and g["upper"] <= 1.1 and
          near(res["pingpong_ours_vs_base"]["ratio"], 1.0, 0.001) and "build of 3c96b8b" in out,
          (v, g, out[-400:]))
    check("no base build: no comparison, no goal", "hackbench_ours_vs_base" not in run(guest_output())[2]
          and "pingpong_ours_vs_base" not in run(guest_output())[2]["goals"])
    rc, out, _ = run([])
    check("an empty guest output fails the report", rc == 1 and "no output" in out, out[-300:])
    rc, out, _ = run(guest_output() + ["hackbench_ours oops\n"])
    check("a run that printed no number fails the report", rc == 1 and "hackbench_ours" in out, out[-300:])
    # Growth within one run: medians per round at 10 and 10^5 pending.
    rc, out, res = run(guest_output(extra=growth_output(
        {"ours": 200, "rht_ew": 250, "ours_big": 260, "rht_ew_big": 300})))
    gr, g = res["scaling_growth"].get("c1", {}), res["goals"].get("scaling_growth_c1", {})
    check("growth: ours 1.3, the peer 1.2, ours / peer 1.08: not reached (over 1.25 and over the peer's)",
          rc == 0 and near(gr["ours"]["growth"], 1.3) and near(gr["rht_ew"]["growth"], 1.2)
          and near(gr["ours_growth_vs_peer"]["ratio"], 1.3 / 1.2) and g and not g["reached"]
          and "scaling growth" in out, (gr, g))
    rc, out, res = run(guest_output(extra=growth_output(
        {"ours": 200, "rht_ew": 250, "ours_big": 240, "rht_ew_big": 400})))
    g = res["goals"].get("scaling_growth_c1", {})
    check("growth: ours 1.2: reached", rc == 0 and g.get("reached") and g["upper"] <= 1.25, g)
    rc, out, res = run(guest_output(extra=growth_output(
        {"ours": 200, "rht_ew": 250, "ours_big": 280, "rht_ew_big": 375})))
    g = res["goals"].get("scaling_growth_c1", {})
    check("growth: ours 1.4 against the peer's 1.5: reached (no worse than the peer's)",
          rc == 0 and g.get("reached") and g["upper"] > 1.25 and g["upper_vs_peer"] <= 1.0, g)
    rc, out, res = run(guest_output(extra=growth_output(
        {"ours": 200, "rht_ew": 250, "ours_big": 260, "rht_ew_big": 300},
        pace=lambda r: 2.0 if r % 3 == 0 else 1.0)))
    gr = res["scaling_growth"].get("c1", {})
    check("growth: a host pace that doubles in a third of the rounds changes neither growth",
          rc == 0 and near(gr["ours"]["growth"], 1.3, 0.03) and near(gr["rht_ew"]["growth"], 1.2, 0.03)
          and near(gr["ours_growth_vs_peer"]["ratio"], 1.3 / 1.2, 0.03), gr)
    rc, out, res = run(guest_output(extra=growth_output({"ours": 200, "rht_ew": 250, "rht_ew_big": 300})))
    check("growth: a missing implementation fails the report", rc == 1 and "scale_growth_c1" in out, out[-300:])
    rc, out, res = run(guest_output())
    check("no growth run: no growth goal", rc == 0 and not any(k.startswith("scaling_growth")
                                                               for k in res["goals"]), res["goals"])
    print(f"# {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
