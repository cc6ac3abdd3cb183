#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# demo.sh - `make demo`: boot a real Debian kernel in a QEMU guest, load our
# modules, produce a real latency outlier, and show what was caught
# (tests/guest/demo.sh does the guest side).  KERNEL= picks the line
# (default: the newest supported).
set -u
. "$(dirname "$0")/common.sh"

line=${KERNEL:-6.12}
if [ -e /proc/modules ]; then
	echo "latency-tracker demo: in a QEMU guest booting Debian's Linux $line kernel."
else
	echo "latency-tracker demo: this machine's kernel cannot load modules, so the"
	echo "demo runs in a QEMU guest booting Debian's Linux $line kernel."
fi
d=$("$LT_TOP/tests/vm/guest-script.sh" "$line" demo 300) || exit 1
echo "(guest accelerator: $(cat "$d/accel" 2>/dev/null || echo unknown); kernel $(grep -o "LT_KVER='[^']*" "$d/job.env" | cut -d"'" -f2))"
cat "$d/demo.tap" 2>/dev/null
svg=$(ls "$d"/demo-explain/*.svg 2>/dev/null | head -n 1)
[ -z "$svg" ] || echo "   graph (SVG): $svg"
if [ "$(cat "$d/demo.rc" 2>/dev/null)" != 0 ]; then
	echo "demo failed; console and logs in $d" >&2
	tail -n 20 "$d/demo.err" "$d/console.log" >&2
	exit 1
fi
