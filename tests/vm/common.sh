# SPDX-License-Identifier: GPL-2.0-only
# common.sh - shared helpers of the host-side test harness (sourced).

LT_TOP=${LT_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
# Everything fetched or built for tests lives outside the checkout.
LT_CACHE=${LT_CACHE:-/var/cache/latency-tracker}
# Kernel lines the guest suite runs on; "debug" is added by the reliability lane.
LT_KERNEL_LINES=${LT_KERNEL_LINES:-"6.1 6.12"}

lt_log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
lt_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Run a named stage and print its wall time: lt_stage "name" cmd args...
lt_stage() {
	local name=$1 t0 rc
	shift
	t0=$(date +%s.%N)
	lt_log "stage $name: start"
	"$@"
	rc=$?
	lt_log "$(printf 'stage %s: %s in %.1f s' "$name" \
		"$([ $rc = 0 ] && echo done || echo "FAILED ($rc)")" \
		"$(echo "$(date +%s.%N) - $t0" | bc)")"
	return $rc
}

# lt_lock FILE: hold an exclusive lock on FILE (created when missing) on
# file descriptor 9 until the script ends; waits while another holds it.
# Children inherit the descriptor, so the lock lasts while they run.
lt_lock() {
	mkdir -p "$(dirname "$1")" && exec 9>>"$1" && flock 9
}

# lt_put FILE: write stdin to FILE atomically: a temporary file of this
# writer's own in the same directory, renamed over FILE.  Readers and
# other writers at the same time see the old FILE or a whole new one.
lt_put() {
	local tmp
	tmp=$(mktemp "$1.XXXXXX") || return 1
	if cat >"$tmp" && chmod 0644 "$tmp" && mv -f "$tmp" "$1"; then
		return 0
	fi
	rm -f "$tmp"
	return 1
}

lt_need_root() {
	[ "$(id -u)" = 0 ] || lt_die "this step needs root (it installs packages and runs QEMU)"
}
