#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# initramfs.sh KVER - build (or reuse) the test initramfs for a kernel whose
# image is unpacked in the cache; print its path.  It holds busybox, the
# modules needed to mount the host root (9p, overlay, virtio) decompressed,
# and tests/vm/init.  Several guests may start at once with no initramfs
# cached: each builds its own copy in its own temporary file and renames it
# into place (the copies are identical), so none sees a partial file.
set -u
set -o pipefail
. "$(dirname "$0")/common.sh"

kver=${1:?kernel version}
kroot=$LT_CACHE/kernels/$kver/root
[ -d "$kroot/lib/modules/$kver" ] || lt_die "kernel $kver is not unpacked in $LT_CACHE (run kernel.sh fetch)"
busybox=$(command -v busybox) || lt_die "busybox not found (package busybox-static)"
file -L "$busybox" 2>/dev/null | grep -q 'dynamically' &&
	lt_die "$busybox is dynamically linked: install busybox-static"

key=$(cat "$LT_TOP/tests/vm/init" "$0" "$busybox" | sha1sum | cut -c1-12)
out=$LT_CACHE/kernels/$kver/initramfs-$key.cpio.gz
[ -e "$out" ] && { echo "$out"; exit 0; }

work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
mkdir -p "$work"/{bin,dev,proc,sys,mnt,lib/lt}
cp "$busybox" "$work/bin/busybox"
cp "$LT_TOP/tests/vm/init" "$work/init"
chmod 755 "$work/init"

# Dependency order from modprobe itself; built-in modules print "builtin".
for mod in virtio_pci 9pnet_virtio 9p overlay; do
	modprobe -S "$kver" -d "$kroot" --show-depends "$mod" ||
		lt_die "modprobe cannot resolve $mod for $kver"
done | awk '$1 == "insmod" { print $2 }' | awk '!seen[$0]++' >"$work/paths" || exit 1
while read -r path; do
	name=$(basename "$path")
	case $name in
	*.xz) xz -dc "$path" >"$work/lib/lt/${name%.xz}"; name=${name%.xz} ;;
	*.zst) zstd -qdc "$path" >"$work/lib/lt/${name%.zst}"; name=${name%.zst} ;;
	*) cp "$path" "$work/lib/lt/$name" ;;
	esac
	echo "$name" >>"$work/lib/lt/modules.order"
done <"$work/paths"
rm "$work/paths"

(cd "$work" && find . | cpio -o -H newc --quiet | gzip -1) | lt_put "$out" ||
	lt_die "cannot write $out"
echo "$out"
