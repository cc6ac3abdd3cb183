#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# cli-basic.sh - the latency-tracker CLI against the real wakeup tracker:
# --version, list, get/set with units (the proc files change accordingly;
# a bare number below 1 us warned about), stats, hist (bars, percentiles),
# follow (pretty and --json), the --json of list, get, stats and hist read
# by Python; bad input (unknown tracker, knob or option, bad unit) gives
# one line on stderr, exit 2 and changes nothing; not root gives EACCES
# from the open itself, exit 1.
. tests/guest/lib.sh
. tests/guest/lttng.inc
trap lt_tools_cleanup EXIT
P=/proc/latency_tracker/wakeup

# 36 assertions, and 2 for each of the 9 bad inputs.
tap_plan $((36 + 2 * 9))
tap_ok "tools built on the host" lt_tools_built || tap_done
msg=$("$LTC" list 2>&1)
tap_is "no core module: exit 1" "$?" 1
tap_ok "no core module: says so" grep -q "is the latency_tracker module loaded" <<<"$msg"
tap_ok "wakeup tracker loads" wakeup_load 150000000
tap_ok "--version: release and record format" \
	bash -c "'$LTC' --version | grep -qxE 'latency-tracker [0-9.]+ \(alert record format [0-9]+\)'"

list=$("$LTC" list)
tap_diag "$list"
tap_ok "list: header and wakeup with its threshold" bash -c "grep -q '^TRACKER' <<<'$list' && grep -qE '^wakeup +150ms +off +on ' <<<'$list'"
tap_is "get threshold" "$("$LTC" get wakeup threshold)" 150ms
tap_is "get threshold --raw" "$("$LTC" get wakeup threshold --raw)" 150000000
tap_is "get all knobs: 7 lines (4 knobs, 3 filters)" "$("$LTC" get wakeup | wc -l)" 7
tap_is "set threshold 2.5ms" "$("$LTC" set wakeup threshold 2.5ms)" "wakeup threshold = 2.5ms"
tap_is "proc file changed" "$(cat $P/threshold)" 2500000
tap_ok "set timeout 1s" "$LTC" set wakeup timeout 1s
tap_is "timeout in ns" "$(cat $P/timeout)" 1000000000
tap_ok "set timeout off" "$LTC" set wakeup timeout off
tap_is "timeout 0" "$(cat $P/timeout)" 0
tap_ok "set wakeup_interval 200us" "$LTC" set wakeup wakeup_interval 200us
tap_is "wakeup_interval in ns" "$(cat $P/wakeup_interval)" 200000
tap_ok "set enable off" "$LTC" set wakeup enable off
tap_is "enable 0" "$(cat $P/enable)" 0
# A bare number is ns: set, with one warning line (tracking off meanwhile).
warn=$("$LTC" set wakeup threshold 500 2>&1 >/dev/null)
tap_is "bare 500: 500 ns written" "$(cat $P/threshold)" 500
tap_ok "bare 500: one warning line" \
	bash -c "[ \$(wc -l <<<'$warn') = 1 ] && grep -q 'warning: threshold 500 is 500 ns' <<<'$warn'"
tap_ok "back to 150ms" "$LTC" set wakeup threshold 150ms
tap_ok "set enable 1" "$LTC" set wakeup enable 1
tap_is "enable 1" "$(cat $P/enable)" 1
tap_ok "list --json and get --json: JSON with the knobs in ns" python3 -c '
import json, sys
l = json.loads(sys.argv[1])
w = [t for t in l["trackers"] if t["tracker"] == "wakeup"][0]
assert w["threshold"] == 150000000 and w["enable"] == 1 and "tracked" in w["stats"]
g = json.loads(sys.argv[2])
assert g["tracker"] == "wakeup" and g["threshold"] == 150000000 and g["timeout"] == 0
assert g["filter_cgroup"] == "" and g["kthreads"] in (0, 1)' \
	"$("$LTC" list --json)" "$("$LTC" get wakeup --json)"

# Bad input: one line, non-zero, nothing changed.
bad() { # DESC WANT_RC WANT_MSG ARGS...
	local desc=$1 rc_want=$2 want=$3 out rc
	shift 3
	out=$("$@" 2>&1 >/dev/null)
	rc=$?
	tap_is "$desc: exit $rc_want" "$rc" "$rc_want"
	[ "$(wc -l <<<"$out")" = 1 ] && grep -qF -- "$want" <<<"$out"
	_tap_result $? "$desc: one line: $out"
}
bad "unknown tracker" 2 "unknown tracker 'nosuch' (loaded: wakeup)" "$LTC" get nosuch threshold
bad "unknown tracker (set)" 2 "unknown tracker 'nosuch'" "$LTC" set nosuch threshold 1ms
bad "unknown knob" 2 "unknown knob 'thresold'" "$LTC" set wakeup thresold 1ms
bad "bad unit" 2 "bad duration '5xs'" "$LTC" set wakeup threshold 5xs
bad "negative value" 2 "bad duration '-1ms'" "$LTC" set wakeup threshold -1ms
bad "unknown command" 2 "unknown command 'frob'" "$LTC" frob
bad "follow: unknown tracker" 2 "unknown tracker 'nosuch'" "$LTC" follow nosuch
bad "unknown option" 2 "unknown option '--jsn'" "$LTC" stats wakeup --jsn
bad "not root" 1 "Permission denied (its files are root-only: run as root)" \
	setpriv --reuid=65534 --regid=65534 --clear-groups "$LTC" list
tap_is "threshold unchanged by the bad input" "$(cat $P/threshold)" 150000000

# follow, stats, hist with a real outlier.
"$LTC" follow --json -n 1 wakeup >"$LT_WORK/follow.json" 2>"$LT_WORK/follow.err" &
fj=$!
"$LTC" follow -n 1 >"$LT_WORK/follow.txt" 2>/dev/null &
fp=$!
sleep 1.5
victim=$(outlier 400)
tap_ok "follow --json -n 1 ends after one record" wait_for 10 bash -c "! kill -0 $fj"
tap_ok "follow -n 1 ends too" wait_for 10 bash -c "! kill -0 $fp"
line=$(cat "$LT_WORK/follow.json")
tap_diag "json: $line"
tap_ok "--json: valid JSON alert for wakeup" python3 -c '
import json, sys
r = json.loads(sys.argv[1])
assert r["type"] == "alert" and r["tracker"] == "wakeup" and r["cause"] == "threshold"
assert isinstance(r["delay"], int) and r["delay"] >= 150000000
assert isinstance(r["comm"], str)' "$line"
tap_diag "pretty: $(cat "$LT_WORK/follow.txt")"
tap_ok "pretty line: time, tracker, cause, delay with unit" \
	grep -qE '^[0-9]+\.[0-9]{6} wakeup +threshold +[0-9.]+m?s ' "$LT_WORK/follow.txt"
stats=$("$LTC" stats wakeup)
tap_ok "stats: counters and times with units" bash -c "grep -qE '^over_threshold +[1-9]' <<<'$stats' && grep -qE '^max +[0-9.]+(ms|s)$' <<<'$stats'"
tap_is "stats --raw max_ns is the proc value" "$("$LTC" stats wakeup --raw | awk '$1 == "max_ns" { print $2 }')" "$(awk '$1 == "max_ns" { print $2 }' $P/stats)"
hist=$(COLUMNS=60 "$LTC" hist wakeup)
tap_diag "$hist"
tap_ok "hist: bars and counts" grep -qE '\|#+ +[0-9]+$' <<<"$hist"
tap_ok "hist: fits 60 columns" bash -c "! awk 'length > 60' <<<'$hist' | grep -q ."
pct=$("$LTC" hist wakeup --percentiles)
tap_diag "$pct"
tap_ok "hist --percentiles: p50 p90 p99 in their bucket, exact max" \
	bash -c "grep -qE '^p99 +[0-9.]+[mun]?s  \(in ' <<<'$pct' && grep -qE '^max +[0-9.]+[mun]?s  \(exact\)' <<<'$pct'"
tap_ok "stats --json and hist --json agree with the proc files" python3 -c '
import json, sys
s = json.loads(sys.argv[1])["stats"]
h = json.loads(sys.argv[2])
proc = dict(l.split() for l in open(sys.argv[3]))
assert s["max_ns"] == int(proc["max_ns"]) and s["over_threshold"] >= 1
assert h["count"] == sum(b["count"] for b in h["buckets"]) > 0
assert h["max_exact"] and h["max_ns"] == s["max_ns"]
for p in ("p50", "p90", "p99"):
    q = h["percentiles"][p]
    assert q["low_ns"] <= q["ns"] <= q["high_ns"] and q["ns"] <= h["max_ns"]
assert h["percentiles"]["p50"]["ns"] <= h["percentiles"]["p99"]["ns"]' \
	"$("$LTC" stats wakeup --json)" "$("$LTC" hist wakeup --json)" $P/stats
tap_done
