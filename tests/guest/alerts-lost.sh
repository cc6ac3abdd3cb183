#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# alerts-lost.sh - `alerts_lost` in stats counts each record lost to the
# alert ring once, however many readers missed it: three readers fall
# behind the same overflow (each still gets its own `cause=lost` line with
# its own count); one reader that kept up while two fell behind; readers
# opened after an overflow do not count records they never wanted.
# Alerts come from lt_core_test.ko's ctl file.
. tests/guest/lib.sh

D=/proc/latency_tracker/lt_core_test
RING=64
tap_plan 10

tap_ok "insmod latency_tracker" lt_load latency_tracker
tap_ok "insmod lt_core_test selftest=0 alert_records=$RING" \
	lt_load lt_core_test selftest=0 alert_records=$RING
echo 0 >$D/wakeup_interval

out=$(mktemp)
python3 - "$D" "$RING" >"$out" 2>&1 <<'PY'
import os, sys

D, RING = sys.argv[1], int(sys.argv[2])

def check(ok, desc):
    print(("PASS " if ok else "FAIL ") + desc, flush=True)

def ctl(cmd):
    with open(D + "/ctl", "w") as f:
        f.write(cmd)

def lost():
    with open(D + "/stats") as st:
        return int(dict(l.split() for l in st)["alerts_lost"])

def drain(fd):
    out = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return out.decode().splitlines()
        if not chunk:
            return out.decode().splitlines()
        out += chunk

def opened():
    return os.open(D + "/alerts", os.O_RDONLY | os.O_NONBLOCK)

# Nobody reading: a full ring overwritten twice loses nothing anybody wanted.
base = lost()
ctl("alerts %d" % (3 * RING))
check(lost() == base, "no reader open: overwrites are not losses (%d)" % (lost() - base))

# Three readers fall behind the same overflow.
fds = [opened() for _ in range(3)]
n = 3 * RING
ctl("alerts %d" % n)
counts = []
for fd in fds:
    lines = drain(fd)
    counts.append(lines[0] if lines else "")
check(all(c.endswith(" cause=lost count=%d" % (n - RING)) for c in counts),
      "each reader's own lost line says %d" % (n - RING))
check(lost() - base == n - RING,
      "alerts_lost grew by %d, once for three readers (grew by %d)" % (n - RING, lost() - base))

# One reader keeps up (reads after every ring's worth), two fall behind.
base = lost()
for _ in range(3):
    ctl("alerts %d" % RING)
    drain(fds[0])
lines1 = drain(fds[1])
drain(fds[2])
check(lines1 and lines1[0].endswith(" cause=lost count=%d" % (2 * RING)),
      "the slow readers lost %d" % (2 * RING))
check(lost() - base == 2 * RING,
      "alerts_lost grew by %d: missed by two readers, counted once (grew by %d)" % (2 * RING, lost() - base))
for fd in fds:
    os.close(fd)
PY
rc=$?
while IFS= read -r line; do
	case $line in
	"PASS "*) tap_ok "${line#PASS }" true ;;
	"FAIL "*) tap_ok "${line#FAIL }" false ;;
	*) tap_diag "$line" ;;
	esac
done <"$out"
tap_is "checks ran to the end" "$rc" 0
tap_ok "rmmod lt_core_test" lt_unload lt_core_test
tap_ok "rmmod latency_tracker" lt_unload latency_tracker
rm -f "$out"
tap_done
