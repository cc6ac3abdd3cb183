# SPDX-License-Identifier: GPL-2.0-only
#
# lib.sh - helpers for guest test scripts (sourced).  A guest test runs as
# root in the QEMU guest with cwd = the repo top, LT_KO_DIR = the tree copy
# holding our built modules, LT_KVER = the kernel version.  It prints TAP on
# stdout: tap_plan N before its first assertion, then exactly N assertions
# (tap_skip for those a kernel line cannot run), then tap_done.  The plan
# is fixed before anything runs, so a test that silently stops short or
# skips assertions fails.

_tap_n=0
_tap_failed=0
_tap_plan=
_tap_misuse=0

# tap_plan N: the number of assertions this test makes; the first TAP line.
tap_plan() {
	if [ -n "$_tap_plan" ] || [ $_tap_n != 0 ] || ! [[ "$1" =~ ^[0-9]+$ ]]; then
		echo "# tap_plan $1: must be called once, with a count, before any assertion"
		_tap_misuse=1
		return 1
	fi
	_tap_plan=$1
	echo "1..$1"
}

_tap_result() { # status desc
	if [ -z "$_tap_plan" ] && [ $_tap_misuse = 0 ]; then
		echo "# assertion before tap_plan"
		_tap_misuse=1
	fi
	_tap_n=$((_tap_n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $_tap_n - $2"
	else
		_tap_failed=$((_tap_failed + 1))
		echo "not ok $_tap_n - $2"
	fi
	return "$1"
}

# tap_ok DESC CMD [ARGS...]: ok when the command exits 0.
tap_ok() {
	local desc=$1 rc
	shift
	"$@"
	rc=$?
	[ $rc = 0 ] || echo "#   command failed ($rc): $*"
	_tap_result $((rc != 0)) "$desc"
}

# tap_is DESC GOT WANT: string equality.
tap_is() {
	[ "$2" = "$3" ] || printf '#   got:  %s\n#   want: %s\n' "$2" "$3"
	_tap_result $(([ "$2" = "$3" ]) && echo 0 || echo 1) "$1"
}

# tap_cmp DESC A OP B: integer comparison (-eq -ne -lt -le -gt -ge).
tap_cmp() {
	if [[ "$2" =~ ^-?[0-9]+$ && "$4" =~ ^-?[0-9]+$ ]] && [ "$2" "$3" "$4" ]; then
		_tap_result 0 "$1"
	else
		echo "#   not true: '$2' $3 '$4'"
		_tap_result 1 "$1"
	fi
}

tap_diag() { echo "# $*"; }

# tap_keep DIR NAME: after a failed assertion, a copy of DIR (a test's
# inputs: trace, records, workload output) beside the test's results, as
# NAME.d/.
tap_keep() {
	[ "$_tap_failed" != 0 ] && [ -w /lt-results ] && cp -r "$1" "/lt-results/$2.d" &&
		tap_diag "inputs kept: $2.d/"
	return 0
}

# tap_empty DESC FILE: FILE is empty (a program's stderr); what it holds
# is shown before the assertion when it is not.
tap_empty() {
	[ -s "$2" ] && head -n 20 "$2" | sed 's/^/#   /'
	tap_ok "$1" test ! -s "$2"
}

# tap_skip COUNT REASON: COUNT planned assertions that cannot run here (a
# feature this kernel line or the guest lacks); each counts as run, "ok N
# # SKIP REASON".
tap_skip() {
	local i
	for ((i = 0; i < $1; i++)); do
		_tap_n=$((_tap_n + 1))
		echo "ok $_tap_n # SKIP $2"
	done
}

# tap_results N FILE: the "PASS what" / "FAIL what" / "SKIP why" lines of
# a program's results as exactly N assertions ("# " lines pass as
# diagnostics).
# Results beyond N are shown, missing ones fail; returns non-zero unless
# FILE held N results and nothing else.
tap_results() {
	local want=$1 file=$2 line n=0 other=0 i
	while IFS= read -r line; do
		case $line in
		"PASS "* | "FAIL "* | "SKIP "*)
			n=$((n + 1))
			if [ $n -gt "$want" ]; then
				tap_diag "result beyond the $want planned: $line"
			elif [ "${line%% *}" = SKIP ]; then
				tap_skip 1 "${line#* }"
			else
				[ "${line%% *}" = PASS ]
				_tap_result $? "${line#* }"
			fi ;;
		"# "*) echo "$line" ;;
		*) other=$((other + 1)); tap_diag "unexpected line: $line" ;;
		esac
	done <"$file"
	for ((i = n + 1; i <= want; i++)); do
		_tap_result 1 "result $i of $want missing from $file"
	done
	[ $n = "$want" ] && [ $other = 0 ] ||
		{ tap_diag "$file: $n results (planned $want), $other other lines"; return 1; }
}

# tap_done: ends the test; fails unless the plan was declared and exactly
# that many assertions ran, none of them failing.
tap_done() {
	echo "# ran $_tap_n of ${_tap_plan:-?} planned"
	[ -n "$_tap_plan" ] && [ "$_tap_n" = "$_tap_plan" ] &&
		[ $_tap_misuse = 0 ] && [ $_tap_failed = 0 ]
	exit $?
}

# Path of one of our modules (tracker/, probes/ or tests/kmod/) by name.
lt_ko() {
	local f
	f=$(find "$LT_KO_DIR" -name "$1.ko" -print -quit)
	[ -n "$f" ] || { echo "# module $1.ko not built in $LT_KO_DIR" >&2; return 1; }
	echo "$f"
}

# lt_load NAME [PARAM=VALUE...]: insmod one of our modules.
lt_load() {
	local ko
	ko=$(lt_ko "$1") || return 1
	shift
	insmod "$ko" "$@"
}

lt_unload() { rmmod "$1"; }

lt_loaded() { grep -q "^$1 " /proc/modules; }

# The kernel log as records: a mark before an action, then the messages
# logged after it, whatever the ring held before (the log is never
# cleared: the harness reads all of it).  /dev/kmsg gives one record per
# read, "PRIO,SEQ,TS,FLAGS;MESSAGE" (continuation lines start with a
# blank); iflag=nonblock ends the read at the newest record.
_kmsg() { dd if=/dev/kmsg iflag=nonblock bs=64k status=none 2>/dev/null; }

# A raw kernel address, as text (grep -E, case-insensitive): none may
# leave our modules (security.sh, stacks.sh).
LT_RAW_PTR='(0x)?ffff[0-9a-f]{12}'

# kmsg_mark: the sequence number of the newest kernel log record.
kmsg_mark() {
	_kmsg | awk -F'[,;]' '/^[0-9]/ { s = $2 } END { print s + 0 }'
}

# kmsg_since MARK: the messages of the records logged after MARK.
kmsg_since() {
	_kmsg | awk -v m="$1" '/^[0-9]/ {
		split($0, h, ",")
		if (h[2] + 0 > m + 0) print substr($0, index($0, ";") + 1) }'
}

# lt_release_ge RELEASE MAJOR MINOR: the kernel release (uname -r form)
# is MAJOR.MINOR or newer.
lt_release_ge() {
	local maj min
	IFS=. read -r maj min _ <<<"$1"
	min=${min%%[!0-9]*}
	[ "${maj:-0}" -gt "$2" ] || { [ "${maj:-0}" = "$2" ] && [ "${min:-0}" -ge "$3" ]; }
}

# sched_feature_mode FEATURES_FILE RELEASE FEATURE SINCE_MAJOR SINCE_MINOR:
# how a test can use a scheduler feature that Linux SINCE has: "toggle"
# (listed in the features file, as FEATURE or NO_FEATURE: both settings
# can be tried), "none" (a
# kernel older than SINCE: nothing to try), "missing" (a kernel that has
# it, but the file does not list it: debugfs not mounted, say -- a
# failure, never a skip).
sched_feature_mode() {
	if grep -qwE "(NO_)?$3" "$1" 2>/dev/null; then
		echo toggle
	elif lt_release_ge "$2" "$4" "$5"; then
		echo missing
	else
		echo none
	fi
}
