#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# custom-refusals.sh - /proc/latency_tracker/custom (latency_tracker_custom):
# the file (root only), a definition and its canonical form, the tracker's
# standard directory, every refusal of the contract (errno, one dmesg line
# naming the reason, nothing changed), 64 trackers then one more (ENOSPC),
# the 64 all measuring at once, `del`, and rmmod with trackers defined.
# The trackers probe the test module lt_custom_target.ko (a function and
# two tracepoints nothing else runs: no live code is patched).
. tests/guest/lib.sh
. tests/guest/progs/custom_lib.sh

TARGET=/proc/lt_custom_target
TP_BEGIN=tp:lt_custom_target:lt_target_begin
TP_END=tp:lt_custom_target:lt_target_end
NOCAPS="setpriv --inh-caps=-all --bounding-set=-all"

# The refusals: "errno|line|text of the dmesg line|what".
REFUSALS=(
	"EINVAL|x fn=lt_custom_target_work colour=red|'colour=red': unknown field|unknown field"
	"EINVAL|X fn=lt_custom_target_work|'X': not a NAME|bad NAME"
	"EINVAL|x in=$TP_BEGIN out=$TP_END key=arg1|'key=arg1': argN and argN+OFF need a kprobe end|argument key at a tracepoint"
	"EINVAL|x in=kprobe:lt_custom_target_work out=kprobe:lt_custom_target_work key=ret|'key=ret': ret needs a kretprobe end|ret at a kprobe"
	"EINVAL|x fn=lt_custom_target_work threshold=0|'threshold=0': not a decimal|threshold out of range"
	"EINVAL|x fn=lt_custom_target_work threshold=5ms|'threshold=5ms': not a decimal|threshold with a unit"
	"EINVAL|x fn=lt_custom_target_work threshold=007000000|'threshold=007000000': not a decimal|threshold with leading zeros"
	"EINVAL|x in=kprobe:lt_custom_target_work out=kprobe:lt_custom_target_work|key= (or in_key= and out_key=) missing|key missing"
	"EINVAL|x in=$TP_BEGIN out=tp:latency_tracker:custom key=tid|our own events cannot be an end|our own tracepoint"
	"ENOENT|x fn=lt_no_such_function|x: no function lt_no_such_function in kallsyms|unknown function (fn=)"
	"ENOENT|x in=kprobe:lt_no_such_function out=$TP_END key=tid|x: no function lt_no_such_function in kallsyms|unknown function (kprobe)"
	"ENOENT|x in=$TP_BEGIN out=kretprobe:lt_no_such_function key=tid|x: no function lt_no_such_function in kallsyms|unknown function (kretprobe)"
	"ENOENT|x in=$TP_BEGIN out=tp:lt_custom_target:lt_no_such_event key=tid|x: no tracepoint lt_custom_target:lt_no_such_event|unknown tracepoint"
	"ENOENT|x in=tp:lt_no_such_system:lt_target_begin out=$TP_END key=tid|x: no tracepoint lt_no_such_system:lt_target_begin|unknown tracepoint system"
	"EEXIST|wakeup fn=lt_custom_target_work|'wakeup': a reserved name|a built-in tracker's name"
	"EEXIST|lock fn=lt_custom_target_work|'lock': a reserved name|a future tracker's name"
	"EEXIST|del fn=lt_custom_target_work|'del': a reserved name|del as a name"
	"EEXIST|version fn=lt_custom_target_work|'version': a reserved name|a file's name"
	"EEXIST|first fn=lt_custom_target_work|first: name in use|a name in use"
	"ENOENT|del nosuch|del nosuch: no such custom tracker|del of an unknown tracker"
	"EINVAL|x app threshold=5000000|x: an application tracker, made by writing it to /proc/latency_tracker/app|an application tracker"
)
BL_FUNCS="notifier_call_chain atomic_notifier_call_chain get_kprobe"
tap_plan $((8 + ${#REFUSALS[@]} + 4 + 5 + 64 + 6 + 4))

# The state a refusal must leave as it was: the definitions, the trackers.
state() { cat "$CUSTOM"; ls "$LTD"; }

# refuse WANT LINE DMESG WHAT: the write fails with WANT, the kernel log
# gets exactly one line of ours with DMESG in it, nothing changes.
refuse() {
	local want=$1 line=$2 msg=$3 what=$4 got before mark lines ok=0
	before=$(state)
	mark=$(kmsg_mark)
	got=$(cw "$line")
	lines=$(kmsg_since "$mark" | grep '^latency_tracker_custom: ')
	if [ "$got" = "$want" ] && [ "$(grep -c . <<<"$lines")" = 1 ] &&
		grep -qF -- "$msg" <<<"$lines" && [ "$(state)" = "$before" ]; then
		ok=1
	fi
	[ $ok = 1 ] || tap_diag "got $got (want $want); dmesg: $lines"
	tap_ok "refused ($want): $what" test $ok = 1
}

tap_ok "core loads" lt_load latency_tracker
tap_ok "latency_tracker_custom loads" lt_load latency_tracker_custom
tap_ok "the test target loads" lt_load lt_custom_target
tap_is "custom: mode 0600, owned by root" "$(stat -c '%a %U' "$CUSTOM")" "600 root"
tap_is "no definition at first" "$(cat "$CUSTOM")" ""

# A definition, its canonical form, its directory.
tap_is "a definition is accepted" \
	"$(cw "first fn=lt_custom_target_work  threshold=7000000 stack=1")" ok
tap_is "read back in canonical form" "$(cat "$CUSTOM")" \
	"first fn=lt_custom_target_work key=tid threshold=7000000 timeout=0 max_events=4096 stack=1"
files=$(cd "$LTD/first" && ls | sort | tr '\n' ' ')
tap_is "its directory: the standard files, filters and custom_stats; kthreads 1, threshold as defined" \
	"$files $(cat "$LTD/first/kthreads") $(cat "$LTD/first/threshold")" \
	"alerts custom_stats enable filter_cgroup filter_tgid histogram kthreads stats threshold timeout wakeup_interval  1 7000000"

for r in "${REFUSALS[@]}"; do
	IFS='|' read -r want line msg what <<<"$r"
	refuse "$want" "$line" "$msg" "$what"
done

# A function that kprobes refuse: one of their blacklist.
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
bl=
for f in $BL_FUNCS; do
	if grep -qw "$f" /sys/kernel/debug/kprobes/blacklist 2>/dev/null &&
		[ "$(grep -c " [tT] $f\$" /proc/kallsyms)" = 1 ]; then
		bl=$f
		break
	fi
done
tap_ok "a function on kprobes' blacklist: '$bl'" test -n "$bl"
refuse EINVAL "x in=kprobe:$bl out=$TP_END key=tid" "x: kprobes refuse $bl: error -22: " \
	"a function kprobes refuse (kprobe), with their reason"
refuse EINVAL "x fn=$bl" "x: kprobes refuse $bl: error -22: " \
	"a function kprobes refuse (fn=), with their reason"
long="x fn=lt_custom_target_work $(printf 'stack=0%.0s' $(seq 150))"
refuse EINVAL "$long" "refused: a line longer than 1024 bytes" "a line of more than 1024 bytes"

# Root only.
before=$(state)
got=$($NOBODY bash -c "printf 'y fn=lt_custom_target_work\n' >$CUSTOM" 2>&1)
tap_ok "a user other than root cannot open it ($got)" \
	bash -c "[[ '$got' == *'Permission denied'* ]]"
tap_is "refused writes changed nothing" "$(state)" "$before"
tap_ok "root without any capability (the daemon's sandbox) defines one" \
	$NOCAPS bash -c "printf 'nocaps fn=lt_custom_target_work\n' >$CUSTOM"
tap_is "and deletes it" "$($NOCAPS bash -c "printf 'del nocaps\n' >$CUSTOM && echo ok" 2>&1)" ok
tap_is "del" "$(cw "del first")" ok

# 64 trackers, the module's function and tracepoints, then a 65th.
n_ok=0
for i in $(seq 64); do
	if [ $((i % 2)) = 0 ]; then
		def="t$i in=$TP_BEGIN out=$TP_END key=tid max_events=16"
	else
		def="t$i in=kprobe:lt_custom_target_work out=kretprobe:lt_custom_target_work key=tid max_events=16"
	fi
	got=$(cw "$def")
	tap_is "tracker $i of 64 defined" "$got" ok
done
refuse ENOSPC "t65 fn=lt_custom_target_work" "t65: 64 custom trackers exist already" \
	"a 65th tracker"
tap_is "64 definitions listed" "$(wc -l <"$CUSTOM")" 64
echo 5 >"$TARGET"
matched=0 alerts=0
for i in $(seq 64); do
	[ "$(awk '$1 == "matched" { print $2 }' "$LTD/t$i/stats")" = 1 ] && matched=$((matched + 1))
	[ "$(awk '$1 == "alerts" { print $2 }' "$LTD/t$i/stats")" = 1 ] && alerts=$((alerts + 1))
done
tap_is "one 5 ms call: each of the 64 matched it once and alerted once (threshold 1 ms)" \
	"$matched $alerts" "64 64"
del_ok=0
for i in $(seq 64); do
	[ "$(cw "del t$i")" = ok ] && del_ok=$((del_ok + 1))
done
tap_is "the 64 deleted" "$del_ok" 64
tap_is "nothing listed, no directory left" "$(cat "$CUSTOM"; ls "$LTD" | grep -c '^t[0-9]')" 0
tap_is "a tracker defined again after the 64 went" \
	"$(cw "again in=$TP_BEGIN out=$TP_END key=tgid")" ok

# rmmod with a tracker defined removes it.
tap_ok "rmmod with a tracker defined" lt_unload latency_tracker_custom
tap_ok "its directory is gone" test ! -e "$LTD/again"
tap_ok "the test target unloads" lt_unload lt_custom_target
tap_ok "core unloads" lt_unload latency_tracker
tap_done
