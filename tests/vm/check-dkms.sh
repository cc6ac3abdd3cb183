#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# check-dkms.sh - `dkms build` of the package against the installed headers
# of every kernel line, in a private DKMS tree (the system's DKMS state is
# not touched).  Also checks that dkms.conf names every module the tree
# builds (tests excepted).  Prints TAP.
set -u
. "$(dirname "$0")/common.sh"

command -v dkms >/dev/null || lt_die "dkms missing (package dkms)"
name=$(sed -n 's/^PACKAGE_NAME="\(.*\)"/\1/p' "$LT_TOP/dkms.conf")
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$LT_TOP/dkms.conf")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$work/src/$name-$ver
mkdir -p "$src" "$work/tree"
(cd "$LT_TOP" && git ls-files -z 2>/dev/null | xargs -0 cp --parents -t "$src") ||
	rsync -a --exclude=.git --exclude=/build "$LT_TOP/" "$src/"
dk() { dkms "$@" --dkmstree "$work/tree" --sourcetree "$work/src"; }

n=0 failed=0
result() { # rc desc
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else failed=$((failed + 1)); echo "not ok $n - $2"; fi
}

dk add -m "$name" -v "$ver" >"$work/add.log" 2>&1
result $? "dkms add $name/$ver"
for line in $LT_KERNEL_LINES; do
	kver=$("$LT_TOP/tests/vm/kernel.sh" resolve "$line") || { result 1 "resolve $line"; continue; }
	dk build -m "$name" -v "$ver" -k "$kver" >"$work/build.log" 2>&1
	rc=$?
	[ $rc != 0 ] && tail -n 20 "$work/build.log" | sed 's/^/#   /'
	result $rc "dkms build for $kver"
	# Every module the tree builds must be in dkms.conf, and built.
	want=$(cd "$work/tree/$name/$ver/build" 2>/dev/null &&
		find tracker probes -name '*.ko' -printf '%f\n' | sed 's/\.ko$//' | sort)
	listed=$(sed -n 's/^BUILT_MODULE_NAME\[[0-9]*\]="\(.*\)"/\1/p' "$LT_TOP/dkms.conf" | sort)
	[ -n "$want" ] && [ "$want" = "$listed" ]
	rc=$?
	[ $rc != 0 ] && echo "#   built: $(echo $want) / dkms.conf: $(echo $listed)"
	result $rc "dkms.conf lists every module built for $kver"
done
echo "1..$n"
[ $failed = 0 ]
