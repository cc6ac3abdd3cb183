# SPDX-License-Identifier: GPL-2.0-only
# common.sh - shared helpers of the host-side test harness (sourced).

LT_TOP=${LT_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
# Everything fetched or built for tests lives outside the checkout.
LT_CACHE=${LT_CACHE:-/var/cache/latency-tracker}
# The kernel lines (tests/vm/kernel.sh), and Debian's among them, on which
# dkms and sparse run and the guest suite by default; "debug" (a
# KASAN/lockdep kernel built here) is added by the reliability lane.
LT_ALL_KERNEL_LINES="6.1 6.12 current current-rt debug"
LT_KERNEL_LINES=${LT_KERNEL_LINES:-"6.1 6.12 current current-rt"}

# The niceness of the builds that run beside the guests and that nothing
# waits for (the unit tests', dkms's, the packages'): they take the CPU
# time the guests leave (tests/vm/qemu.sh), not a share of what the debug
# kernel's CPU-bound tests need.  What a guest waits for (a line's
# preparation, the modules) and what is timed (a test run) keeps its
# priority.
LT_BUILD_NICE=${LT_BUILD_NICE:-19}

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

# lt_kdir KVER: the kernel build directory of KVER as the host sees it
# (for reading its headers): the headers of a backports kernel are in the
# trixie build root (kernel.sh), a kernel built here keeps its tree in the
# cache, the others are installed on the host.
lt_kdir() {
	if [ -e "$LT_CACHE/kernels/$1/buildroot" ]; then
		echo "$LT_CACHE/roots/$(cat "$LT_CACHE/kernels/$1/buildroot")/usr/src/linux-headers-$1"
	elif [ -e "/lib/modules/$1/build/Makefile" ]; then
		echo "/lib/modules/$1/build"
	else
		echo "$LT_CACHE/kernels/$1/build"
	fi
}

# lt_kbuild_dir KVER: the build directory of KVER as its builds see it
# (lt_krun): in the build root, or lt_kdir.
lt_kbuild_dir() {
	if [ -e "$LT_CACHE/kernels/$1/buildroot" ]; then
		echo "/lib/modules/$1/build"
	else
		lt_kdir "$1"
	fi
}

# lt_krun KVER CMD...: run CMD where builds against KVER run: in the build
# root when KVER's kbuild tools do not run on the host (buildroot.sh),
# else here.  Paths under the cache or the checkout mean the same in both;
# the environment does not pass into the root: give make variables as
# arguments.
lt_krun() {
	local kver=$1
	shift
	if [ -e "$LT_CACHE/kernels/$kver/buildroot" ]; then
		"$LT_TOP/tests/vm/buildroot.sh" run "$@"
	else
		"$@"
	fi
}

# lt_kmake KVER MAKE-ARGS...: make -C <build directory of KVER> MAKE-ARGS,
# where builds against KVER run (lt_krun).
lt_kmake() {
	local kver=$1
	shift
	lt_krun "$kver" make -C "$(lt_kbuild_dir "$kver")" "$@"
}

# lt_kconfig KVER: the path of KVER's kernel config in the unpacked root
# (Debian 12's packages and debug-kernel.sh: boot/config-KVER; the
# merged-/usr packages of the backports lines: lib/modules/KVER/config).
lt_kconfig() {
	local r=$LT_CACHE/kernels/$1/root f
	for f in "$r/boot/config-$1" "$r/lib/modules/$1/config"; do
		[ -r "$f" ] && { echo "$f"; return 0; }
	done
	return 1
}

# lt_kconfig_has KVER OPTION: CONFIG_OPTION=y in KVER's config.
lt_kconfig_has() {
	local c
	c=$(lt_kconfig "$1") && grep -q "^CONFIG_$2=y" "$c"
}
