#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# cli-basic.sh - the latency-tracker CLI against the real wakeup tracker:
# list, get/set with units (the proc files change accordingly), stats,
# hist, follow (pretty and --json); bad input (unknown tracker or knob,
# bad unit, not root) gives one line on stderr, a non-zero exit and
# changes nothing.
. tests/guest/lib.sh
. tests/guest/lttng.inc
trap lt_tools_cleanup EXIT
P=/proc/latency_tracker/wakeup

# 30 assertions, and 2 for each of the 8 bad inputs.
tap_plan $((30 + 2 * 8))
tap_ok "tools built on the host" lt_tools_built || tap_done
msg=$("$LTC" list 2>&1)
tap_is "no core module: exit 1" "$?" 1
tap_ok "no core module: says so" grep -q "is the latency_tracker module loaded" <<<"$msg"
tap_ok "wakeup tracker loads" wakeup_load 150000000

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
tap_ok "set enable 1" "$LTC" set wakeup enable 1
tap_is "enable 1" "$(cat $P/enable)" 1
tap_ok "back to 150ms" "$LTC" set wakeup threshold 150ms

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
bad "not root" 1 "must be run as root" setpriv --reuid=65534 --regid=65534 --clear-groups "$LTC" list
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
tap_ok "stats: counters and times with units" bash -c "grep -qE '^over_threshold +[1-9]' <<<'$stats' && grep -qE '^max_ns +[0-9.]+(ms|s)$' <<<'$stats'"
tap_is "stats --raw max_ns is the proc value" "$("$LTC" stats wakeup --raw | awk '$1 == "max_ns" { print $2 }')" "$(awk '$1 == "max_ns" { print $2 }' $P/stats)"
hist=$(COLUMNS=60 "$LTC" hist wakeup)
tap_diag "$hist"
tap_ok "hist: bars and counts" grep -qE '\|#+ +[0-9]+$' <<<"$hist"
tap_ok "hist: fits 60 columns" bash -c "! awk 'length > 60' <<<'$hist' | grep -q ."
tap_done
