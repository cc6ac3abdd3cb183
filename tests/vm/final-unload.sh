#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# final-unload.sh RESULTS_DIR - the last phase of every guest boot, run by
# guest-run.sh like a test (its own .tap, .rc and slice of the kernel log,
# judged as "<kernel>/final-unload"): unload every module of ours the tests
# left loaded, trackers and test modules first, the core last; each rmmod
# is an assertion, and so is "none left".  A module whose exit path WARNs
# or leaks fails here.  On a kernel with kmemleak (the debug kernel), then
# scan and write the report to RESULTS_DIR/kmemleak.txt (check-vm.sh
# judges what is ours in it).  Prints TAP.
#
# final-unload.sh - [KEEP...]: guest-run.sh, after a test that failed:
# the unloads only (no kmemleak scan), the modules named in KEEP (loaded
# before that test) left loaded, and first whatever other module uses one
# of ours (LTTng's probe module for our events, left loaded by an
# lttng-sessiond that was killed).
set -u
R=${1:?results dir}
shift
keep=" $* "
KMEMLEAK=${LT_KMEMLEAK_FILE:-/sys/kernel/debug/kmemleak}

ours() {
	local m
	for m in $(awk '$1 ~ /^(latency_tracker|lt_)/ { print $1 }' /proc/modules); do
		[[ $keep == *" $m "* ]] || echo "$m"
	done
}
users() {
	awk '$1 ~ /^(latency_tracker|lt_)/ && $4 != "-" { gsub(",", " ", $4); print $4 }' /proc/modules |
		tr ' ' '\n' | grep -vE '^(latency_tracker|lt_|$)' | sort -u
}

# /proc/modules lists the newest first, so dependent modules come before
# what they use; the core goes last.
mods=()
[ "$R" = - ] && mods=($(users))
mods+=($(ours | grep -vx latency_tracker))
ours | grep -qx latency_tracker && mods+=(latency_tracker)
# A kernel built with kmemleak (LT_KMEMLEAK=1 from the host, which read
# its config) must give a report: an unwritable file is a failure here.
leak=0
[ "$R" != - ] && { [ -w $KMEMLEAK ] || [ "${LT_KMEMLEAK:-0}" = 1 ]; } && leak=1
echo "1..$((${#mods[@]} + 1 + leak))"
n=0 bad=0
for m in "${mods[@]}"; do
	n=$((n + 1))
	if out=$(rmmod "$m" 2>&1); then
		echo "ok $n - rmmod $m"
	else
		bad=1
		echo "not ok $n - rmmod $m"
		echo "#   $out"
	fi
done
n=$((n + 1))
left=$(ours | tr '\n' ' ')
if [ -z "$left" ]; then
	echo "ok $n - none of our modules left loaded"
else
	bad=1
	echo "not ok $n - none of our modules left loaded"
	echo "#   still loaded: $left"
fi
if [ $leak = 1 ]; then
	# An object is reported once it stayed unreferenced for two scans.
	n=$((n + 1))
	if echo scan >$KMEMLEAK && sleep 6 && echo scan >$KMEMLEAK &&
		cat $KMEMLEAK >"$R/kmemleak.txt"; then
		echo "ok $n - kmemleak report written"
	else
		bad=1
		echo "not ok $n - kmemleak report written"
		[ -w $KMEMLEAK ] || echo "#   $KMEMLEAK is not writable (debugfs: $(grep -c ' debugfs ' /proc/mounts) mounts)"
	fi
fi
exit $bad
