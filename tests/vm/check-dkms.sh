#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# check-dkms.sh - `dkms build` of the package against the headers of every
# kernel line (LT_KERNEL_LINES; the backports lines' with the dkms of their
# build root, lt_krun), in a private DKMS tree per line (the system's DKMS
# state is not touched).  Also checks that dkms.conf names every module
# the tree builds (tests excepted).  Prints TAP.
set -u
. "$(dirname "$0")/common.sh"

command -v dkms >/dev/null || lt_die "dkms missing (package dkms)"
mkdir -p "$LT_CACHE/tmp" || exit 1
name=$(sed -n 's/^PACKAGE_NAME="\(.*\)"/\1/p' "$LT_TOP/dkms.conf")
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$LT_TOP/dkms.conf")
# Under the cache: a build root sees it at the same path.
work=$(mktemp -d -p "$LT_CACHE/tmp")
trap 'rm -rf "$work"' EXIT
src=$work/src/$name-$ver
mkdir -p "$src"
(cd "$LT_TOP" && git ls-files -z 2>/dev/null | xargs -0 cp --parents -t "$src") ||
	rsync -a --exclude=.git --exclude=/build "$LT_TOP/" "$src/"
dk() { # kver line dkms-args...
	local kver=$1 line=$2
	shift 2
	mkdir -p "$work/tree-$line" &&
		lt_krun "$kver" nice -n "$LT_BUILD_NICE" dkms "$@" --dkmstree "$work/tree-$line" --sourcetree "$work/src"
}

# The obj-m of a Kbuild file (DIR/Kbuild), read by make as kbuild would
# (the goal named: a Kbuild file's own first rule would be the default).
kbuild_modules() { # dir
	printf 'include Kbuild\nlt-obj-m:\n\t@echo $(obj-m)\n' |
		make -s -C "$LT_TOP/$1" -f - src=. obj=. lt-obj-m 2>/dev/null
}

n=0 failed=0
result() { # rc desc
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else failed=$((failed + 1)); echo "not ok $n - $2"; fi
}

for line in $LT_KERNEL_LINES; do
	kver=$("$LT_TOP/tests/vm/kernel.sh" headers "$line") || { result 1 "headers of $line"; continue; }
	dk "$kver" "$line" add -m "$name" -v "$ver" >"$work/build.log" 2>&1 &&
		dk "$kver" "$line" build -m "$name" -v "$ver" -k "$kver" >>"$work/build.log" 2>&1
	rc=$?
	[ $rc != 0 ] && tail -n 20 "$work/build.log" | sed 's/^/#   /'
	result $rc "dkms add and build for $kver"
	# dkms.conf names exactly the modules the Kbuild files declare (tests
	# excepted), and dkms built every one of them.
	declared=$({ kbuild_modules tracker; kbuild_modules probes; } | tr ' ' '\n' |
		sed -n 's/\.o$//p' | sort)
	# dkms.conf read as DKMS reads it: sourced by bash.
	listed=$(bash -c '. "$1" && printf "%s\n" "${BUILT_MODULE_NAME[@]}"' _ \
		"$LT_TOP/dkms.conf" | sort)
	# (dkms >= 3.1 keeps the Module.symvers of the build there too.)
	built=$(ls "$work/tree-$line/$name/$ver/$kver"/*/module/ 2>/dev/null |
		sed -n 's/\.ko.*$//p' | sort)
	[ -n "$declared" ] && [ "$declared" = "$listed" ] && [ "$built" = "$listed" ]
	rc=$?
	[ $rc != 0 ] && echo "#   Kbuild: $(echo $declared) / dkms.conf: $(echo $listed) / built: $(echo $built)"
	result $rc "dkms.conf lists every module built for $kver"
done
echo "1..$n"
[ $failed = 0 ]
