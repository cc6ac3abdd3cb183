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
	# dkms.conf names exactly the modules the Kbuild files declare (tests
	# excepted), and dkms built every one of them.
	declared=$(printf 'include tracker/Kbuild\ninclude probes/Kbuild\nall:\n\t@echo $(obj-m)\n' |
		make -s -C "$LT_TOP" -f - src=. obj=. 2>/dev/null | tr ' ' '\n' |
		sed -n 's/\.o$//p' | sort)
	listed=$(sed -n 's/^BUILT_MODULE_NAME\[[0-9]*\]="\(.*\)"/\1/p' "$LT_TOP/dkms.conf" | sort)
	built=$(ls "$work/tree/$name/$ver/$kver"/*/module/ 2>/dev/null |
		sed 's/\.ko.*$//' | sort)
	[ -n "$declared" ] && [ "$declared" = "$listed" ] && [ "$built" = "$listed" ]
	rc=$?
	[ $rc != 0 ] && echo "#   Kbuild: $(echo $declared) / dkms.conf: $(echo $listed) / built: $(echo $built)"
	result $rc "dkms.conf lists every module built for $kver"
done
echo "1..$n"
[ $failed = 0 ]
