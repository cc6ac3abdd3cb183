#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# core-procfs.sh - /proc/latency_tracker/<name>/ per the interface
# contract: modes and owner, strict parsing of knob writes (refused with
# EINVAL, value unchanged), good writes taking effect, enable=0 dropping
# pending events, stats and histogram formats, non-root refused, module
# parameters checked with the same bounds.  Runs against the tracker of
# lt_core_test.ko (self-tests off).
. tests/guest/lib.sh

D=/proc/latency_tracker/lt_core_test
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)

# writes FILE:DATA...: one write(2) per argument (DATA with \\n escapes),
# in a single python run (python start-up is slow under TCG); prints, per
# write, "<errno name or 0> <value read back>".
writes() {
	python3 - "$D" "$@" <<'PY'
import errno, os, sys
d = sys.argv[1]
for arg in sys.argv[2:]:
    name, data = arg.split(":", 1)
    path = d + "/" + name
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, data.encode().decode("unicode_escape").encode("latin-1"))
        res = "0"
    except OSError as e:
        res = errno.errorcode[e.errno]
    os.close(fd)
    with open(path) as f:
        print(res, f.read().strip())
PY
}

load_fails() { ! lt_load "$@" 2>/dev/null; }
stat_of() { awk -v k="$1" '$1 == k { print $2 }' $D/stats; }
ctl() { echo "$*" > $D/ctl; }

KNOBS=(threshold timeout wakeup_interval enable)	# mode 0600
READ_ONLY=(stats histogram alerts)			# mode 0400
BAD_PARAMS=(threshold=0 timeout=5 max_events=4194305 threshold=1000000000001)

# Bad writes: EINVAL and the value unchanged.  Good writes take effect.
# (The list is made first: its length is part of the plan.)
declare -A value=([threshold]=1000000 [timeout]=0 [wakeup_interval]=1000000000 [enable]=1)
args=() descs=() wants=()
bad() { # file data desc
	args+=("$1:$2")
	descs+=("$1: '$3' refused with EINVAL, value unchanged")
	wants+=("EINVAL ${value[$1]}")
}
good() { # file data want
	args+=("$1:$2")
	descs+=("$1: '$2' accepted, reads back $3")
	wants+=("0 $3")
	value[$1]=$3
}
for f in "${KNOBS[@]}"; do
	bad $f 'abc' abc
	bad $f '-5' -5
	bad $f '18446744073709551616' 2^64
	bad $f '99999999999999999999999' 'too many digits'
	bad $f '5x' 'trailing garbage'
	bad $f '5\n\n' 'two newlines'
	bad $f '5\nx' 'garbage after the newline'
	bad $f ' 5' 'leading blank'
	bad $f '+5' 'plus sign'
	bad $f '0x10' hex
	bad $f '' empty
	bad $f '\n' 'newline only'
done
bad threshold 0 '0 (below 1 ns)'
bad threshold 1000000000001 'above 1000 s'
bad timeout 999999 'below 1 ms'
bad timeout 1000000000001 'above 1000 s'
bad wakeup_interval 60000000001 'above 60 s'
bad enable 2 2
good threshold '5000000\n' 5000000
good threshold 7000000 7000000
good threshold 1 1
good threshold 1000000000000 1000000000000
good timeout 1000000 1000000
good timeout 1000000000000 1000000000000
good timeout 0 0
good wakeup_interval 0 0
good wakeup_interval 60000000000 60000000000
good wakeup_interval 1000000000 1000000000
good threshold 1000000 1000000
bad threshold 5x 'trailing garbage, after good writes'

# Loads 2, modes 1 + files, defaults 4, writes, enable 6, events 6,
# stats 6, histogram 3, non-root 6, rmmod 1, parameters 2 each, good
# parameters and unloads 5, the version file 3.
tap_plan $((3 + 2 + 1 + ${#KNOBS[@]} + ${#READ_ONLY[@]} + 4 + ${#args[@]} + 6 + 6 + 6 + 3 +
	6 + 1 + 2 * ${#BAD_PARAMS[@]} + 5))
tap_ok "insmod latency_tracker" lt_load latency_tracker
tap_ok "insmod lt_core_test selftest=0" lt_load lt_core_test selftest=0

# The record format, for tools packaged apart (docs/design.md): what the
# modules write is what the tools read.
V=/proc/latency_tracker/version
tap_is "version: mode 0400, root" "$(stat -c '%a %u %g' $V)" "400 0 0"
tap_ok "version: one decimal number and a newline" grep -qxE '[0-9]+' $V
tap_is "version: the format the tools read" \
	"$(build/tools/latency-tracker --version | sed -n 's/.*record format \([0-9]*\).*/\1/p')" "$(cat $V)"

# Modes and owner.
tap_is "directory mode" "$(stat -c '%a %u %g' $D)" "500 0 0"
for f in "${KNOBS[@]}"; do
	tap_is "$f: mode 0600, root" "$(stat -c '%a %u %g' $D/$f)" "600 0 0"
done
for f in "${READ_ONLY[@]}"; do
	tap_is "$f: mode 0400, root" "$(stat -c '%a %u %g' $D/$f)" "400 0 0"
done

# Defaults.
tap_is "threshold default (module parameter)" "$(cat $D/threshold)" 1000000
tap_is "timeout default" "$(cat $D/timeout)" 0
tap_is "wakeup_interval default" "$(cat $D/wakeup_interval)" 1000000000
tap_is "enable default" "$(cat $D/enable)" 1

# The writes, in one python run.
mapfile -t got < <(writes "${args[@]}")
for i in "${!args[@]}"; do
	tap_is "${descs[$i]}" "${got[$i]}" "${wants[$i]}"
done

# enable=0 stops tracking and drops pending events.
ctl pending 10
tap_is "10 events pending" "$(stat_of pending)" 10
tap_is "enable=0 accepted" "$(writes enable:0)" "0 0"
tap_is "enable=0 dropped them" "$(stat_of pending)" 0
ctl pending 5
tap_is "no event tracked while disabled" "$(stat_of pending)" 0
tap_is "enable=1 accepted" "$(writes enable:1)" "0 1"
ctl pending 3
tap_is "tracking again after enable=1" "$(stat_of pending)" 3

# A write changes what is reported.
over=$(stat_of over_threshold)
tap_ok "5 ms event tracked and ended" ctl delay 5
tap_is "5 ms event over a 1 ms threshold counted" \
	"$(stat_of over_threshold)" $((over + 1))
tap_is "threshold=1 s" "$(writes threshold:1000000000)" "0 1000000000"
tap_ok "second 5 ms event tracked and ended" ctl delay 5 ||
	tap_diag "stats: $(tr '\n' ' ' <$D/stats)"
tap_is "5 ms event under a 1 s threshold not counted" \
	"$(stat_of over_threshold)" $((over + 1))
tap_is "threshold=1 ms" "$(writes threshold:1000000)" "0 1000000"

# stats: one "name value" per line, at least the contract's names.
missing=
for n in tracked matched over_threshold timeouts dropped pending alerts \
	alerts_lost min_ns max_ns avg_ns sum_ns capacity max_events grown; do
	grep -q "^$n " $D/stats || missing+="$n "
done
tap_is "stats has every name of the contract" "$missing" ""
tap_ok "stats values are integers" \
	bash -c "awk 'NF != 2 || \$2 !~ /^[0-9]+\$/ { exit 1 }' $D/stats"
tap_cmp "max_ns >= 5 ms" "$(stat_of max_ns)" -ge 5000000
tap_cmp "min_ns <= avg_ns" "$(stat_of min_ns)" -le "$(stat_of avg_ns)"
tap_is "avg_ns is sum_ns / matched" "$(stat_of avg_ns)" \
	"$(python3 -c "print($(stat_of sum_ns) // $(stat_of matched))")"
tap_is "pool: capacity and max_events 256 (max_events=256, below the initial size)" \
	"$(stat_of capacity) $(stat_of max_events) $(stat_of grown)" "256 256 0"

# histogram: "<low> <high> <count>", non-empty buckets only, one holds 5 ms.
tap_ok "histogram lines are 'low high count', low <= high, count > 0" \
	bash -c "awk 'NF != 3 || \$1 > \$2 || \$3 == 0 { exit 1 } END { exit NR == 0 }' $D/histogram"
tap_is "histogram counts sum to matched" \
	"$(awk '{ n += $3 } END { print n }' $D/histogram)" "$(stat_of matched)"
tap_ok "the >= 5 ms events are in buckets above 4 ms" \
	bash -c "awk '\$1 >= 4194304 { n += \$3 } END { exit n < 2 }' $D/histogram" ||
	tap_diag "histogram: $(tr '\n' ';' <$D/histogram)"

# Not root: refused.
for f in stats alerts threshold; do
	tap_ok "non-root cannot read $f" bash -c "! ${NOBODY[*]} cat $D/$f"
done
tap_ok "non-root cannot write threshold" \
	bash -c "! ${NOBODY[*]} sh -c 'echo 5 > $D/threshold'"
tap_is "threshold unchanged by non-root" "$(cat $D/threshold)" 1000000
tap_ok "non-root cannot list the tracker directory" \
	bash -c "! ${NOBODY[*]} ls $D"

tap_ok "rmmod lt_core_test" lt_unload lt_core_test

# Module parameters use the same bounds; the failure names the parameter.
for p in "${BAD_PARAMS[@]}"; do
	mark=$(kmsg_mark)
	tap_ok "insmod with $p fails" load_fails lt_core_test selftest=0 $p
	tap_ok "the kernel log names the parameter ($p)" \
		grep -q "lt_core_test: invalid ${p%%=*}=${p#*=} " <<<"$(kmsg_since "$mark")"
done
tap_ok "insmod with good parameters" \
	lt_load lt_core_test selftest=0 threshold=5000000 timeout=2000000 max_events=64
tap_is "threshold from the module parameter" "$(cat $D/threshold)" 5000000
tap_is "timeout from the module parameter" "$(cat $D/timeout)" 2000000
tap_ok "rmmod lt_core_test" lt_unload lt_core_test
tap_ok "rmmod latency_tracker" lt_unload latency_tracker
tap_done
