#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# filters-cgroup.sh - filter_cgroup on every tracker: two cgroups run the
# same sleeper; with the filter on one, only its tasks (and those of its
# descendants) produce records, carrying its cgroup id (cgroup=, the
# inode number `stat -c %i` shows), and the other's are counted as
# filtered; moving a task between cgroups changes what is tracked; bad
# paths are refused; block filters by the request's blkcg; removing the
# cgroup is safe (load, unload and rmdir in any order; the debug kernel
# checks the memory).
. tests/guest/lib.sh
. tests/guest/progs/trk.sh
TRK=offcpu TRK_MOD=latency_tracker_offcpu

PROG=build/progs/sleeploop
CG=/sys/fs/cgroup
D=/proc/latency_tracker/offcpu
BAD=(lt_a "lt_a/" /lt_no_such /sys/fs/cgroup/lt_no_such /lt_a/../lt_b
	/sys/fs/cgroupx/lt_a)

# in_cg CGROUP COMM: a sleeploop (300 ms sleeps) started in CGROUP.
in_cg() {
	(echo $BASHPID >"$CG/$1/cgroup.procs" && exec $PROG "$2" 300 0 0 >/dev/null) &
	echo $!
}
move() { echo "$2" >"$CG/$1/cgroup.procs"; }
# watch SECONDS: the alert records of the tracker meanwhile, in $alerts.
watch() { trk_reader_start "$alerts"; sleep "$1"; trk_reader_stop 0.5; }
cnt() { grep -c " $1 " "$alerts"; }
# only_cgroup ID: every record carries cgroup=ID (and there is one).
only_cgroup() {
	[ -s "$alerts" ] && ! grep -v " cgroup=$1\( \|$\)" "$alerts" | grep -q .
}

tap_plan $((34 + ${#BAD[@]}))
grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG
tap_ok "cgroup v2 mounted" grep -q " $CG cgroup2 " /proc/mounts
mkdir -p $CG/lt_a/sub $CG/lt_b
ida=$(stat -c %i $CG/lt_a) idsub=$(stat -c %i $CG/lt_a/sub) idb=$(stat -c %i $CG/lt_b)
tap_diag "cgroup ids: lt_a $ida, lt_a/sub $idsub, lt_b $idb"
alerts=$(mktemp)

tap_ok "load offcpu (threshold 200 ms)" trk_load threshold=200000000
pa=$(in_cg lt_a lt_sleep_a)
pb=$(in_cg lt_b lt_sleep_b)
# What the filter selects (15 assertions, and one per bad path); leaves lt_b's
# sleeper in lt_a/sub and lt_a's in lt_b, as the parts after need.
semantics() {
	tap_ok "filter_cgroup /sys/fs/cgroup/lt_a accepted" trk_set filter_cgroup $CG/lt_a
	tap_is "filter_cgroup reads the path back" "$(cat $D/filter_cgroup)" "$CG/lt_a"
	sleep 0.5	# a sleep lt_b's sleeper started before the filter ends, unread
	f0=$(trk_stat filtered)
	watch 2
	tap_cmp "lt_a's sleeper tracked" "$(cnt pid=$pa)" -ge 2
	tap_is "lt_b's sleeper not tracked" "$(cnt pid=$pb)" 0
	tap_ok "every record has cgroup=$ida" only_cgroup $ida
	tap_cmp "lt_b's sleeps counted as filtered" "$(trk_stat filtered)" -gt "$f0"

	# Moving tasks: lt_b's sleeper into lt_a/sub (a descendant), lt_a's out.
	move lt_a/sub $pb
	move lt_b $pa
	sleep 0.5
	watch 2
	tap_cmp "moved into a descendant of lt_a: tracked" "$(cnt pid=$pb)" -ge 2
	tap_is "moved out of lt_a: no longer tracked" "$(cnt pid=$pa)" 0
	tap_ok "its records carry the descendant's id ($idsub)" only_cgroup $idsub

	# A path from the cgroup root.
	tap_ok "filter_cgroup /lt_b (from the root) accepted" trk_set filter_cgroup /lt_b
	sleep 0.5	# sleeps started under the previous filter end
	watch 2
	tap_cmp "lt_b tracked now" "$(cnt pid=$pa)" -ge 2
	tap_is "lt_a's subtree not" "$(cnt pid=$pb)" 0
	for bad in "${BAD[@]}"; do
		tap_ok "filter_cgroup '$bad' refused, unchanged" trk_refuse filter_cgroup "$bad"
	done
	tap_ok "non-root cannot write filter_cgroup" \
		bash -c "! $NOBODY sh -c 'echo / >$D/filter_cgroup' 2>/dev/null"
	tap_ok "empty line clears it" trk_set filter_cgroup ""
	sleep 0.5
	watch 2
	tap_ok "no filter: both tracked" bash -c "grep -q ' pid=$pa ' $alerts && grep -q ' pid=$pb ' $alerts"
}
# The debug kernel checks what the parts below do to the memory only.
if [ -n "${LTG_CGROUP_SAFETY_ONLY:-}" ]; then
	tap_skip $((15 + ${#BAD[@]})) "LTG_CGROUP_SAFETY_ONLY: what the filter selects is checked on 6.12"
	move lt_a/sub $pb
	move lt_b $pa
else
	semantics
fi

# Removal: the filter's cgroup is removed while the tracker runs.
mkdir $CG/lt_c
pc=$(in_cg lt_c lt_sleep_c)
tap_ok "filter on lt_c" trk_set filter_cgroup /lt_c
sleep 1
move lt_b $pc
tap_ok "rmdir lt_c while the filter names it" rmdir $CG/lt_c
sleep 0.5	# the sleep it started in lt_c ends
watch 2
tap_is "a removed cgroup matches nothing" "$(grep -c . "$alerts")" 0
tap_is "the filter still reads its path" "$(cat $D/filter_cgroup)" /lt_c
tap_ok "the removed path is refused now" trk_refuse filter_cgroup /lt_c
tap_ok "unload after the rmdir" trk_unload
# Loaded with the module parameter, the cgroup removed, then unloaded;
# and the other order: unloaded, then removed.
mkdir $CG/lt_d $CG/lt_e
tap_ok "load with filter_cgroup=/lt_d" trk_load filter_cgroup=/lt_d
tap_is "the module parameter reads back" "$(cat $D/filter_cgroup)" /lt_d
rmdir $CG/lt_d
tap_ok "unload after rmdir (module parameter)" trk_unload
trk_load filter_cgroup=$CG/lt_e && trk_unload
tap_ok "rmdir after unload" rmdir $CG/lt_e

# The other task trackers: the same filter, the cgroup in their records.
lt_load latency_tracker_wakeup threshold=1000 filter_cgroup=/lt_a
TRK=wakeup; watch 1.5
tap_ok "wakeup: only lt_a's subtree, with its cgroup id" \
	bash -c "grep -q ' pid=$pb .* cgroup=$idsub$' $alerts && ! grep -q ' pid=$pa ' $alerts"
lt_unload latency_tracker_wakeup
lt_load latency_tracker_syscalls threshold=100000000 filter_cgroup=/lt_a/sub
TRK=syscalls; watch 1.5
tap_ok "syscalls: only lt_a/sub's sleeper, cgroup=$idsub" \
	bash -c "grep -q ' pid=$pb .* cgroup=$idsub' $alerts && ! grep -q ' pid=$pa ' $alerts"
lt_unload latency_tracker_syscalls
kill $pa $pb $pc
wait $pa $pb $pc 2>/dev/null

# block: the request's blkcg (the io controller enabled below the root).
TRK=block TRK_MOD=latency_tracker_block
if echo +io >$CG/cgroup.subtree_control 2>/dev/null; then
	modprobe null_blk nr_devices=1 irqmode=2 completion_nsec=30000000
	for i in 1 2 3 4 5; do [ -b /dev/nullb0 ] && break; sleep 0.5; done
	tap_ok "block: load with filter_cgroup=/lt_a" trk_load threshold=10000000 filter_cgroup=/lt_a
	trk_reader_start "$alerts"
	(echo $BASHPID >$CG/lt_a/cgroup.procs &&
		exec dd if=/dev/zero of=/dev/nullb0 bs=4k count=4 oflag=direct status=none)
	(echo $BASHPID >$CG/lt_b/cgroup.procs &&
		exec dd if=/dev/zero of=/dev/nullb0 bs=4k seek=100 count=4 oflag=direct status=none)
	trk_reader_stop 0.5
	tap_is "block: lt_a's writes tracked, cgroup=$ida" \
		"$(grep -c " op=write cgroup=$ida" "$alerts")" 4
	tap_is "block: lt_b's writes not (sectors 800..)" "$(grep -c ' sector=8[0-9][0-9] ' "$alerts")" 0
	tap_cmp "block: counted as filtered" "$(trk_stat filtered)" -ge 4
	trk_unload
	rmmod null_blk
	echo -io >$CG/cgroup.subtree_control
else
	tap_skip 4 "no io controller (CONFIG_BLK_CGROUP)"
fi
rmdir $CG/lt_a/sub $CG/lt_a $CG/lt_b
tap_ok "core unloads" lt_unload latency_tracker
rm -f "$alerts"
tap_done
