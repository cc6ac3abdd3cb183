#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# deps.sh PROFILE... - install the Debian packages a make target needs.
# Idempotent: only missing packages are installed (apt-get update once, and
# only then).  Fails naming the packages that could not be had.
#
# Profiles: build (modules against the Debian kernel lines; debootstrap
# makes the build root of the backports kernels), unit (host
# tests), vm (QEMU guests), dkms, tools (daemon, CLI, explain), lttng
# (LTTng in the guests), lint, bench, debugkernel (the KASAN/lockdep kernel),
# browser (the flame graph's SVG in headless Chromium: tests/browser/).
set -u
. "$(dirname "$0")/common.sh"

declare -A PKGS=(
	[build]="make gcc libc6-dev bc kmod rsync xz-utils linux-headers-amd64 linux-headers-6.12-amd64 debootstrap"
	[unit]="make gcc libc6-dev liburcu-dev perl libopen-trace-format2-dev otf2-tools python3-otf2 libjson-c-dev pkg-config libgraphviz-dev libdw-dev"
	[vm]="qemu-system-x86 busybox-static cpio xz-utils kmod util-linux iproute2 python3 rt-tests stress-ng gcc gcc-multilib"
	[dkms]="dkms"
	[deb]="debhelper dh-dkms lintian dpkg-dev fakeroot debootstrap openssl systemd"
	[tools]="make gcc libc6-dev pkg-config liblttng-ctl-dev libbabeltrace2-dev babeltrace2 graphviz libmicrohttpd-dev libopen-trace-format2-dev otf2-tools python3-otf2 libjson-c-dev libgraphviz-dev libdw-dev"
	[lttng]="lttng-tools babeltrace2 dpkg-dev xz-utils make gcc"
	[bench]="rt-tests bpftrace python3 linux-perf liblttng-ust-dev"
	[lint]="sparse cppcheck linux-source-6.1 rsync make gcc"
	[browser]="chromium chromium-driver python3-selenium python3 make gcc libc6-dev pkg-config libbabeltrace2-dev babeltrace2 libopen-trace-format2-dev libjson-c-dev libgraphviz-dev libdw-dev"
	[debugkernel]="linux-source-6.1 make gcc bc flex bison libelf-dev libssl-dev xz-utils kmod"
)

want=()
for p in "$@"; do
	[ -n "${PKGS[$p]+x}" ] || lt_die "deps.sh: unknown profile '$p' (known: ${!PKGS[*]})"
	want+=(${PKGS[$p]})
done

missing=()
for p in $(printf '%s\n' "${want[@]}" | sort -u); do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} = 0 ] && exit 0

lt_need_root
lt_log "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# linux-headers-6.12-amd64 pulls its image: no initramfs for a kernel the
# host never boots (the kernel's postinst hook honours INITRD=No).
export INITRD=No
apt-get -o DPkg::Lock::Timeout=600 update -q >/dev/null || lt_die "apt-get update failed: cannot reach the Debian archive"
if ! apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "${missing[@]}" >/tmp/lt-apt.log 2>&1; then
	tail -n 20 /tmp/lt-apt.log >&2
	lt_die "could not install: ${missing[*]} (log: /tmp/lt-apt.log)"
fi
