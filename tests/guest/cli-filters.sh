#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# cli-filters.sh - the filters through the tools: `latency-tracker set`
# takes a cgroup path (as under /sys/fs/cgroup, or from the cgroup root),
# process ids separated by blanks or commas, a disk as major:minor or its
# /dev node, kthreads on/off; `get` shows them; what the kernel refuses
# gives exit 2 and a reason; latency-trackerd's configuration sets
# <tracker>.<filter> at start and again on SIGHUP.
. tests/guest/lib.sh
. tests/guest/lttng.inc
trap lt_tools_cleanup EXIT
CG=/sys/fs/cgroup
P=/proc/latency_tracker

tap_plan 20
tap_ok "tools built on the host" lt_tools_built || tap_done
grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG
mkdir -p $CG/lt_cli/svc
lt_load latency_tracker && lt_load latency_tracker_offcpu
tap_is "set filter_cgroup (the /sys/fs/cgroup path)" \
	"$("$LTC" set offcpu filter_cgroup $CG/lt_cli/svc)" "offcpu filter_cgroup = $CG/lt_cli/svc"
tap_is "the kernel file has it" "$(cat $P/offcpu/filter_cgroup)" "$CG/lt_cli/svc"
tap_is "set filter_cgroup from the cgroup root, no leading /" \
	"$("$LTC" set offcpu filter_cgroup lt_cli)" "offcpu filter_cgroup = /lt_cli"
sleep 30 &
s1=$!
sleep 30 &
s2=$!
tap_is "set filter_tgid with a blank-separated list" \
	"$("$LTC" set offcpu filter_tgid "$s1 $s2")" "offcpu filter_tgid = $s1,$s2"
tap_is "set kthreads on" "$("$LTC" set offcpu kthreads on)" "offcpu kthreads = 1"
get=$("$LTC" get offcpu)
tap_diag "$get"
tap_ok "get shows the filters" bash -c "grep -qE '^filter_cgroup +/lt_cli$' <<<'$get' &&
	grep -qE '^filter_tgid +$s1,$s2$' <<<'$get' && grep -qE '^kthreads +1$' <<<'$get'"
tap_is "get one filter" "$("$LTC" get offcpu filter_tgid)" "$s1,$s2"
msg=$("$LTC" set offcpu filter_cgroup /lt_no_such 2>&1)
tap_is "a missing cgroup: exit 2" "$?" 2
tap_ok "a missing cgroup: says why" grep -q "refused filter_cgroup '/lt_no_such' (no such cgroup" <<<"$msg"
tap_is "and changes nothing" "$(cat $P/offcpu/filter_cgroup)" /lt_cli
msg=$("$LTC" set offcpu filter_tgid 12x 2>&1)
tap_is "a bad process id: exit 2, before the kernel" "$?:$msg" "2:latency-tracker: bad filter_tgid item '12x' (want a process id)"
tap_is "set filter_tgid none clears it" "$("$LTC" set offcpu filter_tgid none)" "offcpu filter_tgid = (all)"
tap_is "get shows (all)" "$("$LTC" get offcpu filter_tgid)" "(all)"
kill $s1 $s2
wait $s1 $s2 2>/dev/null
modprobe null_blk nr_devices=1
for i in 1 2 3 4 5; do [ -b /dev/nullb0 ] && break; sleep 0.5; done
lt_load latency_tracker_block
mm=$(printf '%d:%d' "0x$(stat -c %t /dev/nullb0)" "0x$(stat -c %T /dev/nullb0)")
tap_is "block: filter_dev given as /dev/nullb0" \
	"$("$LTC" set block filter_dev /dev/nullb0)" "block filter_dev = $mm"

# latency-trackerd: filters from its configuration, at start and on SIGHUP.
conf=$LT_WORK/ltd.conf log=$LT_WORK/ltd.json
printf 'snapshot = off\noffcpu.filter_cgroup = /lt_cli/svc\noffcpu.kthreads = 0\nblock.filter_dev = none\n' >"$conf"
"$LTC" set offcpu filter_cgroup "" >/dev/null
daemon_start "$log" --config "$conf"
wait_for 30 log_has "$log" '"type":"filter".*"tracker":"block"'
tap_is "daemon start: offcpu filter_cgroup set" "$(cat $P/offcpu/filter_cgroup)" /lt_cli/svc
tap_is "daemon start: kthreads and filter_dev set" "$(cat $P/offcpu/kthreads)|$(cat $P/block/filter_dev)" "0|"
printf 'snapshot = off\noffcpu.filter_cgroup = %s/lt_cli\nsyscalls.filter_tgid = 1\n' $CG >"$conf"
kill -HUP "$LTD_PID"
wait_for 30 log_has "$log" '"type":"filter".*"tracker":"syscalls"'
tap_is "SIGHUP: the new filter_cgroup" "$(cat $P/offcpu/filter_cgroup)" "$CG/lt_cli"
tap_ok "SIGHUP: a tracker not loaded is logged" \
	log_has "$log" '"type":"filter","tracker":"syscalls".*"error":"tracker not loaded"'
daemon_stop
lt_unload latency_tracker_block
lt_unload latency_tracker_offcpu
rmmod null_blk
rmdir $CG/lt_cli/svc $CG/lt_cli
tap_ok "core unloads" lt_unload latency_tracker
tap_done
