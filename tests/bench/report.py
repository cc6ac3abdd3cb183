#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""report.py HT_JSON KERNEL_OUT WHERE OUT_JSON - the table and the JSON of
`make bench` from the host benchmark's JSON and the "name value" lines of
tests/guest/bench.sh."""
import json
import statistics
import sys
import time


def main():
    ht = json.load(open(sys.argv[1]))
    lines = [l.split(None, 1) for l in open(sys.argv[2]) if l.strip()]
    where, out_path = sys.argv[3], sys.argv[4]
    kv, hb, sysloop, notes = {}, {}, {}, []
    for name, value in ((l[0], l[1].strip() if len(l) > 1 else "") for l in lines):
        if name.startswith("sysloop_"):
            try:
                sysloop.setdefault(name[len("sysloop_"):], []).append(float(value))
            except ValueError:
                notes.append(f"{name}: no time ({value!r})")
        elif name.startswith("hackbench_") and name != "hackbench_args":
            try:
                hb.setdefault(name[len("hackbench_"):], []).append(float(value))
            except ValueError:
                notes.append(f"{name}: no time ({value!r})")
        elif name == "note":
            notes.append(value)
        else:
            kv[name] = value

    def num(k):
        try:
            return float(kv[k])
        except (KeyError, ValueError):
            return None

    res = {k: v for k, v in ht.items() if k.startswith("ht_")}
    res["measured_on"] = where
    res["date"] = time.strftime("%Y-%m-%d")
    ours, rht, hl = num("pair_ours_median_ns"), num("pair_rht_median_ns"), num("pair_hlist_median_ns")
    res["pair_ns_median"] = ours
    res["pair_ns_p99"] = num("pair_ours_p99_ns")
    res["pair_rhashtable_ns_median"] = rht
    res["pair_hlist_ns_median"] = hl
    res["pair_ratio_vs_rhashtable"] = round(ours / rht, 3) if ours and rht else None
    res["pair_ratio_vs_hlist"] = round(ours / hl, 3) if ours and hl else None
    res["pair_failures"] = num("pair_failures")
    res["slot_bytes"] = num("pair_slot_bytes")
    base = statistics.median(hb["none"]) if hb.get("none") else None
    slow = {}
    for cfg, times in hb.items():
        if cfg != "none" and base:
            slow[cfg] = round((statistics.median(times) / base - 1) * 100, 2)
    res["hackbench_slowdown_pct"] = slow
    res["hackbench_runs"] = {c: t for c, t in hb.items()}
    res["hackbench_args"] = kv.get("hackbench_args")
    for peer in ("ftrace", "lttng", "bpftrace"):
        if "ours" in slow and peer in slow and slow[peer] > 0:
            res[f"hackbench_ours_vs_{peer}"] = round(slow["ours"] / slow[peer], 3)
    # Probe cost per system call, by filter configuration (median ms of
    # the loop, less none's, over its 600000 calls).
    sys_base = statistics.median(sysloop["none"]) if sysloop.get("none") else None
    res["sysloop_ms_median"] = {c: statistics.median(t) for c, t in sysloop.items()}
    res["probe_ns_per_syscall"] = {
        c: round((statistics.median(t) - sys_base) * 1e6 / 600000, 1)
        for c, t in sysloop.items() if c != "none" and sys_base is not None}
    res["alert_wakeup_us_median"] = num("alert_wakeup_us_median")
    res["alert_wakeup_us_p99"] = num("alert_wakeup_us_p99")
    res["notes"] = notes
    json.dump(res, open(out_path, "w"), indent=2)

    def f(v, unit=""):
        return "n/a" if v is None else (f"{v:.3g}{unit}" if isinstance(v, float) else f"{v}{unit}")

    print(f"\nlatency-tracker benchmarks, {res['date']}, kernel parts on {where}\n")
    print("hash table, host (ours / cds_lfht throughput; >1 = ours faster)")
    for k in sorted(k for k in res if k.startswith("ht_ratio")):
        print(f"  {k:40s} {f(res[k])}")
    print("\nper event_in+event_out pair, kernel (ns, median / p99)")
    for n, key in (("ours", "ours"), ("rhashtable insert+lookup+remove", "rht"),
                   ("hlist + spinlock per bucket", "hlist")):
        print(f"  {n:40s} {f(num('pair_' + key + '_median_ns'))} / {f(num('pair_' + key + '_p99_ns'))}")
    print(f"  {'ratio ours / rhashtable':40s} {f(res['pair_ratio_vs_rhashtable'])}")
    print(f"  {'bytes per pool slot':40s} {f(res['slot_bytes'])}")
    print(f"\nhackbench {kv.get('hackbench_args', '')}: median slowdown vs no tracing "
          f"({len(hb.get('none', []))} interleaved runs each)")
    for cfg, pct in slow.items():
        print(f"  {cfg:40s} {pct:+.2f} %")
    for peer in ("ftrace", "lttng", "bpftrace"):
        k = f"hackbench_ours_vs_{peer}"
        if k in res:
            print(f"  {'ours / ' + peer:40s} {res[k]}")
    if res["probe_ns_per_syscall"]:
        print("\nprobe cost per system call (600000 calls; ours: no filter, ours_excl: a filter"
              " excluding every task, ours_incl: one including every task), ns")
        for cfg, ns in res["probe_ns_per_syscall"].items():
            print(f"  {cfg:40s} {ns}")
    print(f"\nalert path: threshold crossing -> blocked reader returns (us, median / p99)")
    print(f"  {'':40s} {f(res['alert_wakeup_us_median'])} / {f(res['alert_wakeup_us_p99'])}")
    for n in notes:
        print(f"note: {n}")
    print(f"\nJSON: {out_path}")


if __name__ == "__main__":
    main()
