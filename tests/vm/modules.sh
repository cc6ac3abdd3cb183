#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# modules.sh KVER DEST - build our modules (with the test-only ones) for a
# kernel, in a per-kernel copy of the tree under the cache so that several
# kernels can be built from one checkout, then copy the .ko files into DEST
# (mirroring the tree: tracker/latency_tracker.ko, probes/*.ko,
# tests/kmod/*.ko) and print DEST.  The build holds a lock, and each run
# gets its own copy of the modules: runs started at the same time by
# several people never see each other's half-built or newer modules.
# The build runs where the kernel's kbuild runs (lt_kmake: the host, or
# the trixie build root for the backports kernels).  Where sparse is
# installed there, the build checks each file it compiles (C=1) and keeps
# the findings beside its object (tests/vm/sparse-check.sh): `make lint`
# reads them instead of building every line again; an object built where
# sparse was not (a build before it was installed) is built again.
set -u
. "$(dirname "$0")/common.sh"

kver=${1:?kernel version}
dest=${2:?destination directory}
kdir=$(lt_kdir "$kver")
[ -e "$kdir/Makefile" ] || lt_die "no kernel build directory at $kdir (headers for $kver missing)"
# One build tree per kernel and checkout.  Sources are copied by content
# without their times: a changed file always gets a fresh mtime, so make
# can never take an older object for up to date.
out=$LT_CACHE/build/$kver-$(echo "$LT_TOP" | sha1sum | cut -c1-8)
mkdir -p "$out"
# By its real path: kbuild writes the module directory's path into every
# object's command line, so the same directory reached through a link (the
# self-test's private cache links build/) would compile everything again,
# twice.
out=$(cd "$out" && pwd -P) || lt_die "cannot enter $out"
exec 9>"$out.lock"
flock 9
rsync -rlpD --checksum --delete --exclude=/.git --exclude=/build \
	--exclude='*.o' --exclude='*.ko' --exclude='*.mod*' --exclude='.*.cmd' \
	--exclude=Module.symvers --exclude=modules.order --exclude='*.sparse' \
	"$LT_TOP/" "$out/" || lt_die "cannot copy the tree to $out"
check=()
if lt_krun "$kver" sh -c 'command -v sparse' >/dev/null 2>&1; then
	check=(C=1 CHECK="$out/tests/vm/sparse-check.sh")
	"$LT_TOP/tests/vm/sparse-findings.sh" --unchecked "$out" | (cd "$out" && xargs -r rm -f)
fi
log=$out/build.log
if ! lt_kmake "$kver" M="$out" LT_TEST_MODULES=1 "${check[@]}" -j"$(nproc)" modules >"$log" 2>&1; then
	grep -E 'error|warning' "$log" | head -n 40 >&2
	lt_die "module build failed for $kver (log: $log)"
fi
lt_log "modules for $kver: $(grep -c '^ *CC \[M\]' "$log") objects compiled"
if grep -q 'warning:' "$log"; then
	grep 'warning:' "$log" >&2
	lt_die "module build for $kver printed warnings"
fi
mkdir -p "$dest"
(cd "$out" && find . -name '*.ko' -print0 | xargs -0 cp --parents -t "$dest") ||
	lt_die "cannot copy the modules to $dest"
# The sparse findings of this build's sources, for lint.sh.
[ ${#check[@]} = 0 ] || "$LT_TOP/tests/vm/sparse-findings.sh" "$out" >"$dest/sparse.txt" ||
	lt_die "cannot read the sparse findings in $out"
echo "$dest"
