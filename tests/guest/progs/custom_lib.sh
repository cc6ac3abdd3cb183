# SPDX-License-Identifier: GPL-2.0-only
#
# custom_lib.sh - helpers of the custom tracker tests (custom*.sh), sourced
# after tests/guest/lib.sh.

. tests/guest/progs/trk.sh

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


# reader_start NAME FILE: an alerts reader of tracker NAME into FILE, once
# it has the file open (trk.sh's, for a custom tracker's name).
reader_start() {
	TRK=$1 trk_reader_start "$2"
	READER=$TRK_READER
}

reader_stop() {
	trk_reader_stop 0
	READER=
}
