#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# guest-script.sh LINE NAME TIMEOUT_S - run tests/guest/NAME.sh once in a
# guest booting the kernel line LINE (not as a test: for make demo and make
# bench) and print the run directory; NAME.tap there holds what the script
# printed, NAME.rc its exit status, NAME.dmesg the kernel log while it ran
# (cut from kmsg.log, the whole boot's).  Fails when the host preparation
# fails (the tools would be older than the sources).
set -u
. "$(dirname "$0")/common.sh"
. "$LT_TOP/tests/vm/judge.sh"
lt_need_root

line=${1:?kernel line} name=${2:?script name} tmo=${3:?timeout}
kver=$(lt_stage "fetch kernel $line" "$LT_TOP/tests/vm/kernel.sh" fetch "$line") || exit 1
mkdir -p "$LT_CACHE/runs/$kver"
d=$(mktemp -d "$LT_CACHE/runs/$kver/$name-$(date +%Y%m%d-%H%M%S)-XXXX")
lt_stage "build modules for $kver" "$LT_TOP/tests/vm/modules.sh" "$kver" "$d/ko" >/dev/null || exit 1
lt_stage "host preparation for $kver" "$LT_TOP/tests/vm/host-prep.sh" "$kver" >&2 || exit 1
cp "$LT_TOP/tests/vm/guest-run.sh" "$d/"
cat >"$d/job.env" <<JOB
LT_KVER='$kver'
LT_KMODS='$LT_CACHE/kernels/$kver/root/lib/modules/$kver'
LT_TOP='$LT_TOP'
LT_KO_DIR='$d/ko'
LT_TESTS='$name'
LT_TEST_TIMEOUT=$tmo
JOB
for v in $(compgen -e | grep '^LTG_'); do printf "%s=%q\n" "$v" "${!v}" >>"$d/job.env"; done
LT_TEST_TIMEOUT=$tmo lt_stage "guest run of $name on $kver" \
	"$LT_TOP/tests/vm/qemu.sh" "$kver" "$d" $((tmo + 120)) >&2
kmsg_split "$d" "$name" final-unload
echo "$d"
