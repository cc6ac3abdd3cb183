#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# flamegraph.sh - `latency-tracker flamegraph` on the log latency-trackerd
# wrote of a real run: the offcpu tracker (threshold 300 ms) sees a pipe
# reader wait 600 ms for its writer (progs/ltprog.py pipe) and a sleep of
# 500 ms; the daemon logs the records with their stacks.  The folded
# output's weights add up to the delays of the log's offcpu alerts (summed
# here from the JSON, independently of the tool); the reader's stack is
# folded root first under its comm down to pipe_read; off-wake mode puts
# the writer's stack above it, down from pipe_write to its comm; the SVG
# is well-formed XML with a frame per folded frame.  (The SVG in a real
# browser: tests/browser/.)  With ustack=1, a process blocked under known
# functions (progs/ustack.c): built with frame pointers, its user frames
# are named by the tool (libdw, the binary given with --binary) as the
# test's functions, below its kernel frames; built without, its user
# stack ends in [unknown].
. tests/guest/lib.sh
. tests/guest/lttng.inc
trap lt_tools_cleanup EXIT

log=$LT_WORK/daemon.json
folded=$LT_WORK/offcpu.folded
svg=$LT_WORK/offcpu.svg

tap_plan 11
tap_ok "tools built on the host" lt_tools_built || tap_done
# Readers woken at each record: the user stacks are named while their
# processes live (progs/ustack.c lingers 1 s).
load() {
	lt_load latency_tracker &&
		lt_load latency_tracker_offcpu threshold=300000000 ustack=1 &&
		echo 0 >/proc/latency_tracker/offcpu/wakeup_interval
}
tap_ok "offcpu loads (threshold 300 ms, user stacks)" load
daemon_start "$log" --snapshot off --trackers offcpu
tap_ok "daemon: watching offcpu" wait_for 10 log_has "$log" '"type":"watch","tracker":"offcpu"'
out=$($LTPROG pipe 600)
reader=$(sed -n 's/^reader_tid=//p' <<<"$out")
fp=$(build/progs/ustack_fp 500 | sed -n 's/^pid=//p')
nofp=$(build/progs/ustack_nofp 500 | sed -n 's/^pid=//p')
sleep 0.5
wait_for 5 log_has "$log" "\"type\":\"alert\".*\"pid\":${reader:-none},"
wait_for 5 log_has "$log" "\"type\":\"alert\".*\"pid\":${nofp:-none},"
daemon_stop
lt_unload latency_tracker_offcpu
lt_unload latency_tracker

"$LTC" flamegraph --folded -o "$folded" "$log" 2>"$LT_WORK/flame.err"
tap_diag "$(grep -c . "$folded") stacks; $(cat "$LT_WORK/flame.err")"
sums=$(python3 - "$log" "$folded" <<'EOF'
import json, sys
logged = sum(o["delay"] for o in map(json.loads, open(sys.argv[1]))
             if o.get("type") == "alert" and o.get("tracker") == "offcpu")
folded = sum(int(l.rsplit(" ", 1)[1]) for l in open(sys.argv[2]) if l.strip())
print(logged, folded)
EOF
)
tap_ok "weights add up to the logged delays ($sums)" \
	bash -c "set -- $sums; [ \"\$1\" -gt 0 ] && [ \"\$1\" = \"\$2\" ]"
line=$(grep -m 1 '^lt_reader;' "$folded")
tap_diag "reader: $line"
tap_ok "the reader's stack, root first under its comm, down to pipe_read" \
	bash -c "[[ '${line%% *}' =~ ^lt_reader\;.*\;(anon_)?pipe_read\+0x[0-9a-f]+/0x[0-9a-f]+$ ]]"
wake=$("$LTC" flamegraph --folded --mode offwake "$log" 2>/dev/null | grep -m 1 '^lt_reader;')
tap_diag "off-wake: $wake"
tap_ok "off-wake: the writer's stack above the reader's, pipe_write down to lt_writer" \
	bash -c "[[ '${wake%% *}' =~ pipe_read\+[^\;]*\;--\;.*pipe_write\+[^\;]*\;.*\;lt_writer$ ]]"
# Its read's record (its lingering sleep after it has one too).
us=$("$LTC" flamegraph --folded --binary build/progs/ustack_fp --pid "${fp:-0}" "$log" |
	grep -m 1 'ksys_read')
tap_diag "ustack_fp: $us"
tap_ok "user frames named by the tool: main, lt_ustack_outer, under the kernel's read" \
	bash -c "[[ '${us%% *}' =~ ^ustack_fp\;.*main.*\;lt_ustack_outer.*\;.*ksys_read ]]"
un=$("$LTC" flamegraph --folded --pid "${nofp:-0}" "$log" | grep -m 1 'ksys_read')
tap_diag "ustack_nofp: $un"
tap_ok "no frame pointers: the user stack ends in [unknown]" \
	bash -c "[[ '${un%% *}' =~ ^ustack_nofp\;\[unknown\]\; ]]"
tap_ok "the SVG is written" "$LTC" flamegraph -o "$svg" "$log"
tap_ok "the SVG is XML with a frame named pipe_read" python3 - "$svg" <<'EOF'
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
texts = [e.text or "" for e in root.iter() if e.tag.endswith("title")]
sys.exit(0 if root.tag.endswith("svg") and
         any("pipe_read+" in t for t in texts) else 1)
EOF
tap_empty "the daemon wrote nothing to stderr" "$LT_WORK/daemon.err"
tap_done
