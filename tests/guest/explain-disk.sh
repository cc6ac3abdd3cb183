#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# explain-disk.sh - disk contention (DepGraph V-C): two threads write with
# O_DIRECT to a null_blk device that completes every request after 100 ms.
# The explanation of one write of ex_victim: blocked on the disk, and the
# disk busy with the other writer's requests meanwhile; classified I/O with
# the device's file name.  The snapshot's timeline (issue 17, item 5): the
# JSON and the OTF2 archive show the same block requests, both writers'
# (the JSON on their threads, the OTF2 on lanes of the disk: the two
# writers' requests overlap, two lanes at least, each request on the first
# one free).
. tests/guest/lib.sh
. tests/guest/explain-progs/guest.inc
COMPLETION_NS=100000000
WRITES=3
LTC=$LT_TOP/build/tools/latency-tracker
CHECK="python3 $LT_TOP/tests/unit/check_timeline.py"

cleanup() {
	ex_cleanup
	grep -q '^null_blk ' /proc/modules && rmmod null_blk
}
trap cleanup EXIT

tap_plan 15
tap_ok "explain and the scenario programs are built" ex_built || tap_done
tap_ok "lttng kernel tracing usable" ex_lttng_ok || tap_done
tap_ok "null_blk loaded (timer completion after 100 ms)" \
	modprobe null_blk nr_devices=1 irqmode=2 completion_nsec=$COMPLETION_NS || tap_done
for i in $(seq 50); do [ -b /dev/nullb0 ] && break; sleep 0.1; done
tap_ok "/dev/nullb0 exists" test -b /dev/nullb0 || tap_done
tap_ok "snapshot session started" ex_session_start disk
"$EXPROGS/ex-disk" /dev/nullb0 $WRITES >"$EX_WORK/disk.out"
snap=$(ex_session_snapshot disk)
tap_ok "snapshot recorded" test -d "$snap"

V=$(ex_val "$EX_WORK/disk.out" victim_tid)
O=$(ex_val "$EX_WORK/disk.out" other_tid)
S=$(ex_val "$EX_WORK/disk.out" write_start)
E=$(ex_val "$EX_WORK/disk.out" write_end)
WIN=$((E - S))
tap_diag "victim $V, other writer $O, the victim's write took $((WIN / 1000)) us"

"$EXPLAIN" "$snap" --tid "$V" --at "$E" --window "$WIN" -o "$EX_WORK/out" \
	>"$EX_WORK/explain.txt" 2>"$EX_WORK/explain.err"
tap_is "explain exits 0" "$?" 0
sed 's/^/# /' "$EX_WORK/explain.txt" "$EX_WORK/explain.err"
J=$EX_WORK/out/explain.json
R="r['reports'][0]"

disk=$(ex_json "$J" "sum(e['weight_ns'] for e in $R['graph']['edges'] if e['kind'] == 'wait_disk')")
tap_cmp "blocked time attributed to the disk (>= 70% of the write)" $((disk * 10)) -ge $((WIN * 7))
other=$(ex_json "$J" "sum(e['weight_ns'] for e in $R['graph']['edges'] if e['kind'] == 'disk_used' and $R['graph']['nodes'][e['to']]['tid'] == $O)")
tap_diag "disk $((disk / 1000)) us, of it the other writer's requests in flight $((other / 1000)) us"
tap_cmp "disk -> the other writer's requests in flight (>= 50% of the write)" $((other * 10)) -ge $((WIN * 5))
tap_is "the main cause is I/O" "$(ex_json "$J" "$R['classification']['causes'][0]['class']")" io
tap_ok "the cause names the device file" grep -q "/dev/nullb0" <<<"$(ex_json "$J" "$R['classification']['causes'][0]['what']")"
tap_ok "text tree: disk -> ex_other [$O]" grep -qE "^ *([|] *)*[|\`]- ex_other \[$O\]" "$EX_WORK/explain.txt"

# The timeline of the same snapshot, in both formats.
"$LTC" timeline "$snap" -o "$EX_WORK/timeline.json" >"$EX_WORK/tl.out" 2>&1 &&
	"$LTC" timeline "$snap" -o "$EX_WORK/timeline.otf2" >>"$EX_WORK/tl.out" 2>&1
tap_is "timeline: JSON and OTF2 written" "$?" 0
sed 's/^/# /' "$EX_WORK/tl.out"
$CHECK requests "$EX_WORK/timeline.json" "$EX_WORK/timeline.otf2" >"$EX_WORK/rq.out" 2>"$EX_WORK/rq.err"
tap_is "timeline: JSON and OTF2 agree on every thread, wakeup, CPU slice and block request; each OTF2 request on the first free lane of its disk" "$?" 0
sed 's/^/# /' "$EX_WORK/rq.out"
sed 's/^/# /' "$EX_WORK/rq.err" | head -n 20
nv=$(awk -v t="$V" '$1 == "requests" && $2 == t { print $3 }' "$EX_WORK/rq.out")
no=$(awk -v t="$O" '$1 == "requests" && $2 == t { print $3 }' "$EX_WORK/rq.out")
dev=$(stat -c '%t %T' /dev/nullb0)
disk=$(printf '%d:%d' "0x${dev% *}" "0x${dev#* }")
lanes=$(awk -v d="$disk" '$1 == "lanes" && $2 == d { print $3 }' "$EX_WORK/rq.out")
tap_ok "timeline: $WRITES block requests of each writer at least (victim ${nv:-0}, other ${no:-0}), on $disk in ${lanes:-0} lanes (>= 2: they overlap)" \
	test "${nv:-0}" -ge $WRITES -a "${no:-0}" -ge $WRITES -a "${lanes:-0}" -ge 2
[ "$_tap_failed" = 0 ] || ex_keep disk disk.out out tl.out rq.out rq.err timeline.json
tap_done
