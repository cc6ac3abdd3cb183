#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# core-load.sh - latency_tracker.ko loads, creates /proc/latency_tracker/
# (root only), and unloads clean, several times in a row.  Then the
# tracepoints: every tracker module registers its probes in the order of
# its table and unregisters them in the reverse order, at unload and when
# an attach fails part way (lt_core_test's "unwind": two entries, then a
# tracepoint that does not exist), as kprobes on
# tracepoint_probe_register() and tracepoint_probe_unregister() see it.
. tests/guest/lib.sh

ROUNDS=3
TRACKERS=(wakeup offcpu syscalls block)
T=/sys/kernel/tracing
KP=$T/kprobe_events
tap_plan $((ROUNDS * 6 + 1 + 2 + ${#TRACKERS[@]} + 1))
for round in $(seq $ROUNDS); do
	tap_ok "round $round: insmod latency_tracker" lt_load latency_tracker
	tap_ok "round $round: module listed" lt_loaded latency_tracker
	tap_ok "round $round: /proc/latency_tracker is a directory" test -d /proc/latency_tracker
	tap_is "round $round: /proc/latency_tracker is 0511 (traversable, not listable)" \
		"$(stat -c %a /proc/latency_tracker)" 511
	tap_ok "round $round: rmmod latency_tracker" lt_unload latency_tracker
	tap_ok "round $round: /proc/latency_tracker removed" test ! -e /proc/latency_tracker
done
tap_ok "module gone" bash -c '! grep -q "^latency_tracker " /proc/modules'

# kp_set on|off: the two kprobes (the probe, their second argument),
# enabled, on an empty trace; removed again.
kp_set() {
	if [ "$1" = on ]; then
		echo 'p:lt_tp_reg tracepoint_probe_register probe=$arg2' >>$KP &&
		echo 'p:lt_tp_unreg tracepoint_probe_unregister probe=$arg2' >>$KP &&
		echo 0 >$T/tracing_on && echo >$T/trace &&
		echo 1 >$T/events/kprobes/lt_tp_reg/enable &&
		echo 1 >$T/events/kprobes/lt_tp_unreg/enable &&
		echo 1 >$T/tracing_on
	else
		echo 0 >$T/events/kprobes/lt_tp_reg/enable
		echo 0 >$T/events/kprobes/lt_tp_unreg/enable
		echo '-:lt_tp_reg' >>$KP
		echo '-:lt_tp_unreg' >>$KP
	fi
}
# syms MODULE: "address name" of the module's functions, from kallsyms
# while it is loaded (the kprobes give the probe as an address).
syms() {
	awk -v m="[$1]" '$4 == m && $2 ~ /^[tT]$/ { print "0x" $1, $3 }' /proc/kallsyms
}
# order EVENT: the probes in EVENT's records of the trace since the last
# call, by name, in order (the trace is emptied).
order() {
	local a
	grep " $1: " $T/trace | sed -n 's/.* probe=\(0x[0-9a-f]*\).*/\1/p' |
		while read -r a; do
			# As strings: as numbers, awk rounds addresses.
			awk -v a="$a" '$1 "" == a "" { print $2; exit }' "$map"
		done | tr '\n' ' '
}
# reversed WORDS...: the words, last first.
reversed() { printf '%s\n' "$@" | tac | tr '\n' ' '; }

map=$(mktemp)
tap_ok "kprobes on tracepoint_probe_register/unregister" kp_set on
loaded=
lt_load latency_tracker && loaded=1
for m in "${TRACKERS[@]}"; do
	echo >$T/trace
	lt_load latency_tracker_$m && loaded="$loaded $m"
	syms latency_tracker_$m >"$map"
	lt_unload latency_tracker_$m
	reg=$(order lt_tp_reg)
	unreg=$(order lt_tp_unreg)
	tap_diag "$m: registered: $reg; unregistered: $unreg"
	tap_ok "$m: its probes unregistered in the reverse order" \
		test -n "$reg" -a "$unreg" = "$(reversed $reg)"
done
echo >$T/trace
lt_load lt_core_test selftest=0 && loaded="$loaded lt_core_test"
syms lt_core_test >"$map"
echo "unwind 1" >/proc/latency_tracker/lt_core_test/ctl && unwound=1
reg=$(order lt_tp_reg)
unreg=$(order lt_tp_unreg)
tap_diag "unwind: registered: $reg; unregistered: $unreg"
tap_ok "unwind: the attach failed, both entries unregistered, last first" \
	test -n "$unwound" -a "$reg" = "ltt_probe_switch ltt_probe_waking " -a \
	"$unreg" = "$(reversed $reg)"
lt_unload lt_core_test
lt_unload latency_tracker
kp_set off
tap_is "the modules loaded" "$loaded" "1 ${TRACKERS[*]} lt_core_test"
rm -f "$map"
tap_done
