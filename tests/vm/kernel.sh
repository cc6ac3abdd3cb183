#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kernel.sh resolve LINE   print the current kernel version of a Debian line
# kernel.sh fetch LINE     make sure its headers are installed and its image
#                          is unpacked in the cache; print the version
#
# Lines: 6.1 (metapackage linux-headers-amd64) and 6.12 (linux-headers-6.12-amd64);
# debug is a 6.1 kernel built here with KASAN and lockdep (debug-kernel.sh).
# Versions are resolved from the metapackages at run time, never hard-coded:
# old ABI packages leave the archive after each security update.
set -u
. "$(dirname "$0")/common.sh"

metapackage() {
	case $1 in
	6.1) echo linux-headers-amd64 ;;
	6.12) echo linux-headers-6.12-amd64 ;;
	*) lt_die "unknown kernel line '$1' (known: $LT_KERNEL_LINES)" ;;
	esac
}

resolve() {
	local meta kver
	meta=$(metapackage "$1") || exit 1
	kver=$(apt-cache depends "$meta" 2>/dev/null |
		sed -n 's/^ *Depends: linux-headers-\(.*-amd64\)$/\1/p' | head -n 1)
	if [ -z "$kver" ]; then
		apt-get update -q >/dev/null 2>&1
		kver=$(apt-cache depends "$meta" 2>/dev/null |
			sed -n 's/^ *Depends: linux-headers-\(.*-amd64\)$/\1/p' | head -n 1)
	fi
	[ -n "$kver" ] || lt_die "cannot resolve kernel line $1 from $meta (apt-cache depends found nothing)"
	echo "$kver"
}

fetch() {
	local kver dir deb
	kver=$(resolve "$1") || exit 1
	if [ ! -e "/lib/modules/$kver/build/Makefile" ]; then
		lt_log "installing headers for $kver"
		DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends \
			"linux-headers-$kver" >/tmp/lt-apt.log 2>&1 ||
			lt_die "cannot install linux-headers-$kver (log: /tmp/lt-apt.log)"
	fi
	dir=$LT_CACHE/kernels/$kver
	# Runs started at once take turns: one unpacks, the others find it done.
	lt_lock "$LT_CACHE/kernels/.$kver.lock"
	if [ ! -e "$dir/.unpacked" ]; then
		lt_log "fetching linux-image-$kver-unsigned"
		rm -rf "$dir" && mkdir -p "$dir/dl" || exit 1
		(cd "$dir/dl" && apt-get download "linux-image-$kver-unsigned" >/dev/null 2>&1) ||
			lt_die "apt-get download linux-image-$kver-unsigned failed"
		deb=$(ls "$dir"/dl/*.deb)
		dpkg-deb -x "$deb" "$dir/root" || lt_die "cannot unpack $deb"
		rm -rf "$dir/dl"
		depmod -b "$dir/root" "$kver" || lt_die "depmod failed for $kver"
		touch "$dir/.unpacked"
	fi
	echo "$kver"
}

case ${1:-}:${2:-} in
*:debug) exec "$LT_TOP/tests/vm/debug-kernel.sh" ;;
resolve:*) resolve "${2:?kernel line}" ;;
fetch:*) fetch "${2:?kernel line}" ;;
*) lt_die "usage: kernel.sh resolve|fetch LINE" ;;
esac
