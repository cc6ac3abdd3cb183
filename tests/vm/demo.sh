#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# demo.sh - `make demo`: boot a real Debian kernel in a QEMU guest, load our
# modules, produce a real latency outlier, and show what was caught
# (tests/guest/demo.sh does the guest side).  KERNEL= picks the line
# (default: the newest supported).
set -u
. "$(dirname "$0")/common.sh"
lt_need_root

line=${KERNEL:-6.12}
echo "latency-tracker demo: this machine cannot load kernel modules itself, so"
echo "the demo runs in a QEMU guest booting Debian's Linux $line kernel."
kver=$(lt_stage "fetch kernel $line" "$LT_TOP/tests/vm/kernel.sh" fetch "$line") || exit 1
mkdir -p "$LT_CACHE/runs/$kver"
d=$(mktemp -d "$LT_CACHE/runs/$kver/demo-$(date +%Y%m%d-%H%M%S)-XXXX")
kodir=$(lt_stage "build modules for $kver" "$LT_TOP/tests/vm/modules.sh" "$kver" "$d/ko") || exit 1
cp "$LT_TOP/tests/vm/guest-run.sh" "$d/"
cat >"$d/job.env" <<JOB
LT_KVER='$kver'
LT_KMODS='$LT_CACHE/kernels/$kver/root/lib/modules/$kver'
LT_TOP='$LT_TOP'
LT_KO_DIR='$kodir'
LT_TESTS='demo'
LT_TEST_TIMEOUT=300
JOB
lt_stage "guest run" "$LT_TOP/tests/vm/qemu.sh" "$kver" "$d" 420
echo "(guest accelerator: $(cat "$d/accel" 2>/dev/null || echo unknown); kernel $kver)"
echo
cat "$d/demo.tap" 2>/dev/null
if [ "$(cat "$d/demo.rc" 2>/dev/null)" != 0 ]; then
	echo "demo failed; console and logs in $d" >&2
	tail -n 20 "$d/demo.err" "$d/console.log" >&2
	exit 1
fi
