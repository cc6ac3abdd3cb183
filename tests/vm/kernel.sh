#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kernel.sh resolve LINE   print the current kernel version of a kernel line
# kernel.sh fetch LINE     make sure its headers are installed and its image
#                          and modules are unpacked in the cache; print the
#                          version
# kernel.sh headers LINE   make sure its headers are installed; print the
#                          version
# kernel.sh lines          print the valid lines
#
# Lines (versions resolved from metapackages at run time, never hard-coded:
# old ABI packages leave the archive after each security update):
#   6.1         Debian 12 (bookworm), metapackage linux-headers-amd64;
#   6.12        bookworm's linux-headers-6.12-amd64;
#   current     the newest kernel of Debian's current stable backports
#               (trixie-backports' linux-image-amd64);
#   current-rt  its PREEMPT_RT flavour (linux-image-rt-amd64);
#   debug       a 6.1 kernel built here with KASAN and lockdep
#               (debug-kernel.sh).
# The backports kernels' kbuild tools need trixie's libc and gcc-14: their
# headers are installed in the trixie build root (buildroot.sh) and every
# build against them runs there (lt_kmake); the file `buildroot` next to
# the unpacked kernel says so.  Their image and modules come in three
# packages (linux-binary-unsigned-, linux-modules-, linux-base-<kver>,
# merged-/usr layout), unpacked into the same layout as the others:
# root/boot/vmlinuz-<kver> and root/lib/modules/<kver>/.
set -u
. "$(dirname "$0")/common.sh"

BACKPORTS=trixie-backports
ROOTSH=$LT_TOP/tests/vm/buildroot.sh

# The metapackage a line follows, and whether it is a backports line.
metapackage() {
	case $1 in
	6.1) echo linux-headers-amd64 ;;
	6.12) echo linux-headers-6.12-amd64 ;;
	current) echo linux-image-amd64 ;;
	current-rt) echo linux-image-rt-amd64 ;;
	*) lt_die "unknown kernel line '$1' (valid: $LT_ALL_KERNEL_LINES)" ;;
	esac
}
is_backports() { case $1 in current | current-rt) return 0 ;; esac; return 1; }

# apt-cache depends of a metapackage, printing the versioned package's
# kernel version (PREFIX<kver>).
depends_kver() { # prefix apt-cache-cmd...
	local prefix=$1
	shift
	"$@" 2>/dev/null | sed -n "s/^ *Depends: $prefix\\(.*-amd64\\)\$/\\1/p" | head -n 1
}

resolve() {
	local meta kver
	meta=$(metapackage "$1") || exit 1
	if is_backports "$1"; then
		kver=$(depends_kver linux-image- "$ROOTSH" run apt-cache \
			-o APT::Default-Release=$BACKPORTS depends "$meta")
		[ -n "$kver" ] || lt_die "cannot resolve kernel line $1 from $BACKPORTS' $meta"
		echo "$kver"
		return
	fi
	kver=$(depends_kver linux-headers- apt-cache depends "$meta")
	if [ -z "$kver" ]; then
		apt-get update -q >/dev/null 2>&1
		kver=$(depends_kver linux-headers- apt-cache depends "$meta")
	fi
	[ -n "$kver" ] || lt_die "cannot resolve kernel line $1 from $meta (apt-cache depends found nothing)"
	echo "$kver"
}

# Debian 12's lines: headers on the host, the image from linux-image-*-unsigned.
headers_bookworm() { # kver dir
	[ -e "/lib/modules/$1/build/Makefile" ] && return 0
	lt_log "installing headers for $1"
	DEBIAN_FRONTEND=noninteractive INITRD=No apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends \
		"linux-headers-$1" >/tmp/lt-apt.log 2>&1 ||
		lt_die "cannot install linux-headers-$1 (log: /tmp/lt-apt.log)"
}

fetch_bookworm() { # kver dir
	local kver=$1 dir=$2 deb
	headers_bookworm "$kver" "$dir"
	[ -e "$dir/.unpacked" ] && return 0
	lt_log "fetching linux-image-$kver-unsigned"
	rm -rf "$dir" && mkdir -p "$dir/dl" || exit 1
	(cd "$dir/dl" && apt-get download "linux-image-$kver-unsigned" >/dev/null 2>&1) ||
		lt_die "apt-get download linux-image-$kver-unsigned failed"
	deb=$(ls "$dir"/dl/*.deb)
	dpkg-deb -x "$deb" "$dir/root" || lt_die "cannot unpack $deb"
	rm -rf "$dir/dl"
	depmod -b "$dir/root" "$kver" || lt_die "depmod failed for $kver"
	touch "$dir/.unpacked"
}

# The backports lines: headers in the build root, the image and modules
# downloaded there and unpacked on the host.
headers_backports() { # kver dir
	local root
	root=$("$ROOTSH" ensure) || exit 1
	if [ ! -e "$root/usr/src/linux-headers-$1/Makefile" ]; then
		lt_log "installing headers for $1 in the trixie build root"
		"$ROOTSH" apt -t $BACKPORTS install "linux-headers-$1" >/tmp/lt-apt.log 2>&1 ||
			lt_die "cannot install linux-headers-$1 in the build root (log: /tmp/lt-apt.log)"
	fi
	# kbuild's C=1/2 (sparse, make lint) first runs the checker through
	# scripts/checker-valid.sh, which these headers packages lack; without
	# it kbuild turns the checker off.  Ours prints 1 when the checker runs.
	local cv
	cv=$(readlink -f "$root/usr/src/linux-headers-$1/scripts")/checker-valid.sh
	[ -e "$cv" ] || printf '%s\n' '#!/bin/sh' \
		'# Written by the latency-tracker harness (tests/vm/kernel.sh).' \
		'"$@" -E /dev/null >/dev/null 2>&1 && echo 1' >"$cv" && chmod 755 "$cv"
	mkdir -p "$2" && echo trixie >"$2/buildroot"
}

fetch_backports() { # kver dir
	local kver=$1 dir=$2 deb
	headers_backports "$kver" "$dir"
	[ -e "$dir/.unpacked" ] && return 0
	lt_log "fetching the image and modules of $kver ($BACKPORTS)"
	rm -rf "$dir/root" "$dir/dl" && mkdir -p "$dir/dl" || exit 1
	"$ROOTSH" run sh -c 'cd "$1" && shift && apt-get -q -o APT::Default-Release='$BACKPORTS' \
		-o APT::Sandbox::User=root download "$@"' sh "$dir/dl" \
		"linux-binary-unsigned-$kver" "linux-modules-$kver" "linux-base-$kver" \
		>"$dir/download.log" 2>&1 ||
		lt_die "downloading the packages of $kver failed (log: $dir/download.log)"
	for deb in "$dir"/dl/*.deb; do
		dpkg-deb -x "$deb" "$dir/root" || lt_die "cannot unpack $deb"
	done
	# The layout the harness uses for every kernel.
	mkdir -p "$dir/root/lib" "$dir/root/boot" &&
		mv "$dir/root/usr/lib/modules" "$dir/root/lib/modules" &&
		mv "$dir/root/lib/modules/$kver/vmlinuz.unsigned" "$dir/root/boot/vmlinuz-$kver" ||
		lt_die "unexpected layout in the packages of $kver"
	rm -rf "$dir/dl" "$dir/download.log"
	depmod -b "$dir/root" "$kver" || lt_die "depmod failed for $kver"
	touch "$dir/.unpacked"
}

# get headers|fetch LINE
get() {
	local kver dir flavour=bookworm
	kver=$(resolve "$2") || exit 1
	dir=$LT_CACHE/kernels/$kver
	is_backports "$2" && flavour=backports
	# Runs started at once take turns: one unpacks, the others find it done.
	lt_lock "$LT_CACHE/kernels/.$kver.lock"
	"$1_$flavour" "$kver" "$dir"
	echo "$kver"
}

case ${1:-}:${2:-} in
lines:*) echo "$LT_ALL_KERNEL_LINES" ;;
*:debug) exec "$LT_TOP/tests/vm/debug-kernel.sh" ;;
resolve:*) resolve "${2:?kernel line}" ;;
headers:* | fetch:*) get "$1" "${2:?kernel line}" ;;
*) lt_die "usage: kernel.sh resolve|headers|fetch LINE | lines" ;;
esac
