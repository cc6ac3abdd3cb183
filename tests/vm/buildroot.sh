#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# buildroot.sh - the Debian trixie build root of the kernels whose kbuild
# tools need a newer libc and compiler than the host's (Debian's current
# stable backports, see kernel.sh: their linux-kbuild is built against
# trixie's libc and calls gcc-14).  The host stays on bookworm.
#
#   buildroot.sh ensure          make the root (cached), print its path
#   buildroot.sh apt ARGS...     apt-get ARGS in the root (noninteractive)
#   buildroot.sh run CMD...      CMD in the root, as the caller's user
#
# The root: $LT_CACHE/roots/trixie, made with `debootstrap --variant=minbase`
# and the packages in PKGS (the build tools of a kernel module, dkms for
# check-dkms), apt sources trixie and trixie-backports (and unstable, pinned
# never to install).  It is remade when what goes in changes (the stamp
# .ready holds it); kernel.sh then installs the kernel headers again.
# sparse: since v6.14 ("compiler.h: Introduce TYPEOF_UNQUAL() macro") the
# kernel's headers use __typeof_unqual__ under the checker, which trixie's
# sparse 0.6.4 cannot parse ("got __typeof_unqual__"); Debian unstable's
# 0.6.5 can.  Its package pulls gcc-16, but the sparse binary needs only
# libc: that binary alone goes to /usr/local/bin in the root.
# CMD runs in a private mount namespace (nothing stays mounted afterwards)
# where the root has /proc (objtool reads /proc/self), /dev, and the cache
# and the checkout at their own paths, so that paths given to CMD mean the
# same inside and outside.  Runs started at once take turns to make the
# root or to install packages in it (lock $LT_CACHE/roots/.trixie.lock).
set -u
. "$(dirname "$0")/common.sh"

SUITE=trixie
ROOT=$LT_CACHE/roots/$SUITE
PKGS="gcc make libc6-dev bc bison flex libelf-dev libssl-dev kmod xz-utils zstd rsync dkms apt-utils"
STAMP="$PKGS + sparse/unstable"
LOCK=$LT_CACHE/roots/.$SUITE.lock

# The package lists are read again when a day old: a new backports kernel
# is found the day it appears, and the old one's packages, which leave the
# archive with it, are no longer asked for.
fresh() {
	[ -n "$(find "$ROOT/.updated" -mmin -1440 2>/dev/null)" ] && return 0
	lt_lock "$LOCK"
	[ -n "$(find "$ROOT/.updated" -mmin -1440 2>/dev/null)" ] && return 0
	in_root apt-get -q update >"$ROOT.log" 2>&1 ||
		lt_die "apt-get update in the $SUITE root failed (log: $ROOT.log)"
	touch "$ROOT/.updated"
}

ensure() {
	if [ "$(cat "$ROOT/.ready" 2>/dev/null)" = "$STAMP" ]; then
		(fresh) || exit 1
		echo "$ROOT"
		return 0
	fi
	lt_need_root
	command -v debootstrap >/dev/null || lt_die "debootstrap missing (package debootstrap)"
	lt_lock "$LOCK"
	if [ "$(cat "$ROOT/.ready" 2>/dev/null)" != "$STAMP" ]; then
		lt_log "making the $SUITE build root (debootstrap, about a minute)"
		rm -rf "$ROOT" "$ROOT.new" && mkdir -p "$ROOT.new" || exit 1
		if ! debootstrap --variant=minbase --include="$(echo "$PKGS" | tr ' ' ,)" \
			"$SUITE" "$ROOT.new" http://deb.debian.org/debian >"$ROOT.log" 2>&1; then
			tail -n 20 "$ROOT.log" >&2
			lt_die "debootstrap of $SUITE failed (log: $ROOT.log)"
		fi
		# unstable: never installed from, only downloaded (sparse); the
		# archive mirror here may serve an unstable Release file past its
		# Valid-Until date.
		printf 'deb http://deb.debian.org/debian %s main\n' \
			"$SUITE" "$SUITE-backports" >"$ROOT.new/etc/apt/sources.list"
		echo 'deb [check-valid-until=no] http://deb.debian.org/debian unstable main' \
			>>"$ROOT.new/etc/apt/sources.list"
		printf 'Package: *\nPin: release a=unstable\nPin-Priority: -1\n' \
			>"$ROOT.new/etc/apt/preferences.d/unstable"
		mv "$ROOT.new" "$ROOT" || exit 1
		in_root apt-get -q update >"$ROOT.log" 2>&1 ||
			lt_die "apt-get update in the $SUITE root failed (log: $ROOT.log)"
		touch "$ROOT/.updated"
		in_root sh -ec 'cd /tmp && rm -rf sp && mkdir sp && cd sp &&
			apt-get -q -o APT::Sandbox::User=root download sparse/unstable &&
			dpkg-deb -x sparse_*.deb x && install -m 755 x/usr/bin/sparse /usr/local/bin/sparse &&
			cd / && rm -rf /tmp/sp && /usr/local/bin/sparse --version' >>"$ROOT.log" 2>&1 ||
			lt_die "cannot install unstable's sparse in the $SUITE root (log: $ROOT.log)"
		echo "$STAMP" >"$ROOT/.ready"
	fi
	echo "$ROOT"
}

# in_root CMD...: CMD in the root with the mounts described above.
in_root() {
	local d
	for d in "$LT_CACHE" "$LT_TOP"; do
		mkdir -p "$ROOT$d" || return 1
	done
	unshare -m --propagation private -- /bin/sh -ec '
		r=$1 cache=$2 top=$3
		shift 3
		mount -t proc proc "$r/proc"
		mount --bind /dev "$r/dev"
		mount --bind "$cache" "$r$cache"
		mount --bind "$top" "$r$top"
		exec chroot "$r" /usr/bin/env -i PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
	' sh "$ROOT" "$LT_CACHE" "$LT_TOP" "$@"
}

case ${1:-} in
ensure) ensure ;;
apt)
	shift
	ensure >/dev/null || exit 1
	lt_lock "$LOCK"
	in_root apt-get -o DPkg::Lock::Timeout=600 -q -y --no-install-recommends "$@"
	;;
run)
	shift
	ensure >/dev/null || exit 1
	in_root "$@"
	;;
*) lt_die "usage: buildroot.sh ensure | apt ARGS... | run CMD..." ;;
esac
