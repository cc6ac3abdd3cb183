#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# explain-compare.sh - fast and slow executions of one workload (DepGraph
# IV-A): ex_worker serves requests between sleeps; the ones that meet
# ex_holder's 100 ms hold of their mutex are slow.  --compare with k=2:
# two clusters, and the comparison shows futex -> ex_holder only in the
# slow group.
. tests/guest/lib.sh
. tests/guest/explain-progs/guest.inc
trap ex_cleanup EXIT

tap_plan 12
tap_ok "explain and the scenario programs are built" ex_built || tap_done
tap_ok "lttng kernel tracing usable" ex_lttng_ok || tap_done
tap_ok "snapshot session started" ex_session_start cmp
"$EXPROGS/ex-requests" 3 100 400 >"$EX_WORK/req.out"
snap=$(ex_session_snapshot cmp)
tap_ok "snapshot recorded" test -d "$snap"
W=$(ex_val "$EX_WORK/req.out" worker_tid)
tap_diag "worker $W served $(ex_val "$EX_WORK/req.out" requests) requests"

"$EXPLAIN" --compare "$snap" --tid "$W" --between clock_nanosleep -k 2 \
	-o "$EX_WORK/out" >"$EX_WORK/compare.txt" 2>"$EX_WORK/compare.err"
tap_is "explain --compare exits 0" "$?" 0
sed 's/^/# /' "$EX_WORK/compare.txt" "$EX_WORK/compare.err"
J=$EX_WORK/out/compare.json

tap_cmp "at least 10 executions" "$(ex_json "$J" "len(r['executions'])")" -ge 10
tap_is "two clusters, both non-empty" "$(ex_json "$J" "sum(1 for c in r['clusters'] if c['n'] > 0)")" 2
fast=$(ex_json "$J" "int(r['clusters'][r['fast']]['mean']['duration_ns'])")
slow=$(ex_json "$J" "int(r['clusters'][r['slow']]['mean']['duration_ns'])")
tap_cmp "the slow cluster's mean is > 5x the fast one's" "$slow" -gt $((fast * 5))
tap_is "futex -> ex_holder only in the slow group" \
	"$(ex_json "$J" "[e['status'] for e in r['edges'] if e['from'] == 'futex' and e['to'] == 'ex_holder']")" "['only_slow']"
# Every slow execution that waited (>= 10 ms in synchronisation) waited
# for ex_holder; under emulation one execution may also be slow by running
# (a vCPU the host left waiting: seen once, 300 ms "running"), and it is
# the only one allowed not to have waited.
waited=$(ex_json "$J" "sum(1 for x in r['executions'] if x['cluster'] == r['slow'] and x['features']['sync_ns'] >= 10e6)")
tap_diag "slow executions: $(ex_json "$J" "r['clusters'][r['slow']]['n']"), of them waiting >= 10 ms: $waited"
tap_is "every slow execution that waited, waited for ex_holder" \
	"$(ex_json "$J" "[e['in_slow'] for e in r['edges'] if e['from'] == 'futex' and e['to'] == 'ex_holder']")" "[$waited]"
tap_cmp "all slow executions but at most one waited" "$waited" -ge \
	"$(ex_json "$J" "r['clusters'][r['slow']]['n'] - 1")"
tap_ok "DOT: the edge is dotted (only in the second graph)" \
	grep -qE '"user:ex_worker:futex|syscall:ex_worker:futex" -> "thread:ex_holder" \[style=dotted' "$EX_WORK/out/compare.dot"
[ "$_tap_failed" = 0 ] || ex_keep cmp req.out out
tap_done
