# SPDX-License-Identifier: GPL-2.0-only
#
# lib.sh - helpers for guest test scripts (sourced).  A guest test runs as
# root in the QEMU guest with cwd = the repo top, LT_KO_DIR = the tree copy
# holding our built modules, LT_KVER = the kernel version.  It prints TAP on
# stdout and ends with tap_done.

_tap_n=0
_tap_failed=0

_tap_result() { # status desc
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

tap_done() {
	echo "1..$_tap_n"
	[ $_tap_failed = 0 ]
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
