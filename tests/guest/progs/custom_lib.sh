# SPDX-License-Identifier: GPL-2.0-only
#
# custom_lib.sh - helpers of the custom tracker tests (custom*.sh), sourced
# after tests/guest/lib.sh.

CUSTOM=/proc/latency_tracker/custom
LTD=/proc/latency_tracker

# cw LINE: writes LINE to /proc/latency_tracker/custom (one write); prints
# ok or the name of the errno the write failed with.
cw() {
	local err
	if err=$({ printf '%s\n' "$1" >"$CUSTOM"; } 2>&1); then
		echo ok
		return
	fi
	case $err in
	*"Invalid argument"*) echo EINVAL ;;
	*"No such file or directory"*) echo ENOENT ;;
	*"File exists"*) echo EEXIST ;;
	*"No space left on device"*) echo ENOSPC ;;
	*"Operation not permitted"*) echo EPERM ;;
	*"Permission denied"*) echo EACCES ;;
	*) echo "other: $err" ;;
	esac
}

# cstat NAME KEY: one value of custom tracker NAME's stats.
cstat() { awk -v k="$2" '$1 == k { print $2 }' "$LTD/$1/stats"; }

# wait_pid FILE: the pid=... a custom_load.py workload prints once ready.
wait_pid() {
	local i
	for i in $(seq 300); do
		grep -q '^pid=' "$1" && break
		sleep 0.1
	done
	sed -n 's/^pid=//p' "$1"
}

# reader_start NAME FILE: an alerts reader of tracker NAME into FILE, once
# it has the file open (it gets the records appended after its open).
reader_start() {
	local i
	echo 0 >"$LTD/$1/wakeup_interval"
	cat "$LTD/$1/alerts" >"$2" &
	READER=$!
	for i in $(seq 200); do
		ls -l "/proc/$READER/fd" 2>/dev/null | grep -q "$LTD/$1/alerts" && break
		sleep 0.05
	done
}

reader_stop() {
	kill "$READER" 2>/dev/null
	wait "$READER" 2>/dev/null
	READER=
}
