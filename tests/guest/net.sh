#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# net.sh - latency_tracker_net's two trackers against the kernel's trace
# of the same run (progs/net_check.py), over loopback, IPv4 and IPv6:
#  - ttfb: a TCP server (progs/net_load.py) that sleeps 30 ms after each
#    accept() before its first send gives one record per connection with
#    its 4-tuple, its pid and the trace's accept-to-send interval (kprobe
#    events where the tracker's kprobes are: inet_csk_accept()'s return,
#    tcp_sendmsg()'s entry); one
#    that closes its connections without sending gives none, each counted
#    cancelled;
#  - netrx: a UDP receiver that reads each datagram 30 ms after it was
#    sent gives one record per datagram with its 4-tuple, dev=lo, its pid
#    and the trace's interval from the datagram's netif_receive_skb to the
#    copy (a kprobe event at skb_consume_udp(), where the tracker ends a
#    UDP packet);
#  - no raw kernel address in the records, the tracepoints' text or the
#    trackers' files; filter_tgid keeps another process's connections and
#    packets out (counted filtered); a bad parameter fails the load;
#  - across a veth pair between two network namespaces (where the kernel
#    has veth and the guest has ip): a ttfb and a netrx record with the
#    namespaces' addresses and dev= the veth;
#  - the module and then the core unload.
. tests/guest/lib.sh
. tests/guest/progs/trk.sh
. tests/guest/oracle/lib.sh
TRK=ttfb TRK_MOD=latency_tracker_net
# The kprobe events (no argument: no raw kernel address in the trace).
KPROBE_EVENTS=("r:lt_net/accept inet_csk_accept" "p:lt_net/send tcp_sendmsg"
	"p:lt_net/udp_copy skb_consume_udp")
ORACLE_EVENTS="lt_net/accept lt_net/send lt_net/udp_copy
	net/netif_receive_skb latency_tracker/ttfb latency_tracker/netrx"
THRESHOLD=10000000
N=5
SLEEP_MS=30
LOAD="python3 tests/guest/progs/net_load.py"
CHECK="python3 tests/guest/progs/net_check.py"
# The trace's clock reads and ours are in probes on the same points; the
# rest is the emulation's stalls: 5 ms with the short workloads, 25 ms on
# the debug kernel (its kretprobes beside two other guests: a ttfb record
# 8.4 ms shorter than the trace's interval).
TOL_US=1000
oracle_short && TOL_US=5000
[ -e /sys/kernel/debug/kmemleak ] && TOL_US=25000
D=$(mktemp -d)
PROC=/proc/latency_tracker

# Alert readers of both trackers, started before a workload.
readers_start() { # SUFFIX
	local t i
	READERS=
	for t in ttfb netrx; do
		echo 0 >$PROC/$t/wakeup_interval
		cat $PROC/$t/alerts >"$D/$t$1" &
		READERS="$READERS $!"
		for i in $(seq 200); do
			ls -l "/proc/$!/fd" 2>/dev/null | grep -q "$PROC/$t/alerts" && break
			sleep 0.05
		done
	done
}

readers_stop() {
	sleep 0.5
	# shellcheck disable=SC2086
	kill $READERS 2>/dev/null
	# shellcheck disable=SC2086
	wait $READERS 2>/dev/null
}

stat_of() { awk -v k="$2" '$1 == k { print $2 }' "$PROC/$1/stats"; }

kprobe_events() { # +|-
	local e
	for e in "${KPROBE_EVENTS[@]}"; do
		if [ "$1" = + ]; then
			echo "$e" >>$ORACLE_T/kprobe_events || return 1
		else
			e=${e#?:}
			echo "-:${e%% *}" >>$ORACLE_T/kprobe_events
		fi
	done
}

tap_plan 25
lt_loaded latency_tracker || lt_load latency_tracker
kprobe_events + || tap_diag "cannot add the kprobe events: $(cat $ORACLE_T/error_log 2>/dev/null | tail -n 2)"
oracle_ftrace_save
oracle_ftrace_on 16384

m=$(kmsg_mark)
! lt_load $TRK_MOD threshold=0 2>/dev/null
tap_ok "threshold=0 fails the load, one dmesg line names it" \
	grep -q 'invalid threshold=0' <(kmsg_since "$m")
tap_ok "load (threshold 10 ms for both trackers)" trk_load threshold=$THRESHOLD

readers_start ""
oracle_mark begin
$LOAD ttfb 127.0.0.1 $N $SLEEP_MS >"$D/ttfb4"
$LOAD ttfb ::1 $N $SLEEP_MS >"$D/ttfb6"
cancelled=$(stat_of ttfb cancelled)
$LOAD close 127.0.0.1 $N >"$D/close4"
$LOAD close ::1 $N >"$D/close6"
cancelled=$(( $(stat_of ttfb cancelled) - cancelled ))
$LOAD netrx 127.0.0.1 $N $SLEEP_MS >"$D/rx4"
$LOAD netrx ::1 $N $SLEEP_MS >"$D/rx6"
oracle_mark end
readers_stop
echo 0 >$ORACLE_T/tracing_on
cp $ORACLE_T/trace "$D/trace"
tap_diag "trace lost $(oracle_lost_events) events; $(grep -c . "$D/ttfb") ttfb and $(grep -c . "$D/netrx") netrx records"
head -n 2 "$D/ttfb" "$D/netrx" | sed 's/^/# /'

for f in 4 6; do
	$CHECK ttfb "$D/trace" "$D/ttfb" "$D/ttfb$f" $TOL_US >"$D/check"
	tap_results 2 "$D/check"
done
tap_cmp "ttfb: the $((2 * N)) connections closed without a send counted cancelled ($cancelled)" \
	"${cancelled:-0}" -ge $((2 * N))
for f in 4 6; do
	$CHECK absent "$D/trace" "$D/ttfb" "$D/close$f" $TOL_US >"$D/check"
	tap_results 1 "$D/check"
done
for f in 4 6; do
	$CHECK netrx "$D/trace" "$D/netrx" "$D/rx$f" $TOL_US lo >"$D/check"
	tap_results 2 "$D/check"
done

# No raw kernel address: the keys (a socket, an skb) stay inside.
tap_ok "no raw kernel address in the records" \
	bash -c "! grep -qiE '$LT_RAW_PTR' '$D/ttfb' '$D/netrx'"
tap_ok "the tracepoints ttfb and netrx were emitted, without a raw kernel address" \
	bash -c "grep -q ' ttfb: ' '$D/trace' && grep -q ' netrx: ' '$D/trace' &&
		! grep -E ' (ttfb|netrx): ' '$D/trace' | grep -qiE '$LT_RAW_PTR'"
tap_ok "no raw kernel address in the trackers' files" \
	bash -c "for f in $PROC/ttfb/* $PROC/netrx/*; do
		[ \${f##*/} = alerts ] || cat \$f; done 2>/dev/null | grep -qiE '$LT_RAW_PTR'; [ \$? = 1 ]"

# filter_tgid: only this shell; the workloads are other processes.
oracle_ftrace_restore
kprobe_events -
echo $$ >$PROC/ttfb/filter_tgid
echo $$ >$PROC/netrx/filter_tgid
f0=$(stat_of ttfb filtered) r0=$(stat_of netrx filtered)
readers_start .f
$LOAD ttfb 127.0.0.1 3 $SLEEP_MS >"$D/fttfb"
$LOAD netrx 127.0.0.1 3 $SLEEP_MS >"$D/frx"
readers_stop
$CHECK absent "$D/trace" "$D/ttfb.f" "$D/fttfb" $TOL_US >"$D/check"
tap_results 1 "$D/check"
$CHECK absent "$D/trace" "$D/netrx.f" "$D/frx" $TOL_US >"$D/check"
tap_results 1 "$D/check"
tap_ok "filter_tgid: counted filtered (ttfb $f0 -> $(stat_of ttfb filtered), netrx $r0 -> $(stat_of netrx filtered))" \
	test "$(stat_of ttfb filtered)" -gt "$f0" -a "$(stat_of netrx filtered)" -gt "$r0"
echo >$PROC/ttfb/filter_tgid
echo >$PROC/netrx/filter_tgid

# Across a veth pair between two namespaces of this guest (it has no
# network device of its own: the traffic stays inside), the server and
# the receiver in lt_a, the clients in lt_b.
VA=10.200.0.1 VB=10.200.0.2 VA6=fd00:200::1 VB6=fd00:200::2
veth_up() {
	ip netns add lt_a && ip netns add lt_b &&
		ip link add lt_va netns lt_a type veth peer name lt_vb netns lt_b &&
		ip -n lt_a addr add $VA/24 dev lt_va &&
		ip -n lt_b addr add $VB/24 dev lt_vb &&
		ip -n lt_a addr add $VA6/64 dev lt_va nodad &&
		ip -n lt_b addr add $VB6/64 dev lt_vb nodad &&
		ip -n lt_a link set lt_va up && ip -n lt_b link set lt_vb up
}

# veth_run ADDR NAME: one connection to ADDR and one datagram to it.
veth_run() {
	local pid
	ip netns exec lt_a $LOAD serve "$1" 1 $SLEEP_MS >"$D/vs$2" &
	pid=$!
	ip netns exec lt_b $LOAD connect "$1" "$(trk_wait_line "$D/vs$2" port)" 1
	wait $pid
	ip netns exec lt_a $LOAD recv "$1" 1 $SLEEP_MS >"$D/vr$2" &
	pid=$!
	ip netns exec lt_b $LOAD send "$1" "$(trk_wait_line "$D/vr$2" port)" 1 \
		$((2 * SLEEP_MS))
	wait $pid
}

if ! command -v ip >/dev/null; then
	tap_skip 4 "no ip command in the guest"
elif ! modprobe veth 2>/dev/null && ! [ -d /sys/module/veth ]; then
	tap_skip 4 "no veth in this kernel (CONFIG_VETH)"
elif ! veth_up; then
	tap_skip 4 "cannot set up the namespaces and the veth pair"
else
	readers_start .v
	veth_run $VA 4
	veth_run $VA6 6
	readers_stop
	for f in 4 6; do
		$CHECK ttfb - "$D/ttfb.v" "$D/vs$f" $TOL_US >"$D/check"
		tap_results 1 "$D/check"
		$CHECK netrx - "$D/netrx.v" "$D/vr$f" $TOL_US lt_va >"$D/check"
		tap_results 1 "$D/check"
	done
fi
ip netns del lt_a 2>/dev/null
ip netns del lt_b 2>/dev/null

tap_ok "unload" trk_unload
tap_ok "core unloads" lt_unload latency_tracker
tap_keep "$D" net
rm -rf "$D"
tap_done
