#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# cli-flamegraph.sh - `latency-tracker flamegraph` (the CLI built with
# ASan+UBSan by run.sh) on a crafted latency-trackerd log
# (data/flame-log.json: offcpu records with stack= and waker_stack=, a
# user stack, a comm with markup characters and one with a byte that is
# not UTF-8, a syscalls record, a custom tracker's, a snapshot line that
# repeats an alert, a lost-records line, a malformed line): the folded
# stacks of each mode and filter, exactly; the weights against the delays
# Python reads from the log; stderr's counts; the SVG well-formed XML with
# every stack's frames; standard input; a snapshot (an LTTng-like CTF
# trace written by flame_ctf.py, read through libbabeltrace2); user
# frames (ustack=) of a program compiled here named with --binary (libdw),
# and left as build id + offset without it; the refusals and their exit
# statuses.
. "$(dirname "$0")/lib.sh"

CLI=$T_BUILD/asan-cli/latency-tracker
LOG=$LT_TOP/tests/tools/data/flame-log.json
W=$T_WORK
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

tap_plan 29

SLEEP='sleep;do_syscall_64+0x5d/0xb0;__x64_sys_clock_nanosleep+0xdb/0x140;common_nsleep+0x3f/0x50;hrtimer_nanosleep+0x9e/0x170;do_nanosleep+0x7b/0x140'
DB='db<&"x;[unknown];ab12cd+0x1a2b;?;folio_wait_bit+0x100/0x200;io_schedule+0x12/0x40'
BAD=$'bad\xef\xbf\xbd'
WAKER='hrtimer_wakeup+0x1e/0x30;__hrtimer_run_queues+0x110/0x2a0;hrtimer_interrupt+0xf9/0x230'

# fg NAME ARGS...: run the CLI, stdout in $W/NAME.out, stderr in NAME.err,
# its exit status in $W/NAME.rc.
fg() {
	local name=$1
	shift
	"$CLI" flamegraph "$@" >"$W/$name.out" 2>"$W/$name.err"
	echo $? >"$W/$name.rc"
}
rc_is() { [ "$(cat "$W/$1.rc")" = "$2" ]; }
# same NAME EXPECTED: the output is exactly EXPECTED (and exit 0).
same() {
	rc_is "$1" 0 && [ "$(cat "$W/$1.out")" = "$2" ] && return 0
	tap_diag "$1: exit $(cat "$W/$1.rc"), got:"
	sed 's/^/#   /' "$W/$1.out" "$W/$1.err"
	return 1
}

fg offcpu --folded "$LOG"
tap_ok "offcpu (default): folded stacks, root first, merged, user frames below kernel ones" \
	same offcpu "$BAD;[no stack] 50000000
$DB 250000000
$SLEEP 1000000000"
tap_ok "stderr: records used and their total, 1 malformed line (line 9), 3 lost records" \
	eval 'grep -q "4 records of tracker offcpu, total 1.300s, 3 stacks" "$W/offcpu.err" &&
	      grep -q "1 malformed line skipped (the first: line 9" "$W/offcpu.err" &&
	      grep -q "1 lost-record notice: 3 records lost" "$W/offcpu.err"'
# The weights add up to the delays of the offcpu alerts, as Python reads them.
want=$(python3 -c '
import json, sys
t = 0
for line in open(sys.argv[1]):
    try:
        o = json.loads(line)
    except ValueError:
        continue
    if o.get("type") == "alert" and o.get("tracker") == "offcpu":
        t += o["delay"]
print(t)' "$LOG")
got=$(awk '{ s += $NF } END { print s }' "$W/offcpu.out")
tap_ok "weights: their sum ($got) is the sum of the offcpu delays ($want)" [ "$got" = "$want" ]

fg offwake --folded --mode offwake "$LOG"
tap_ok "offwake: blocked root to leaf, --, the waker leaf to root, the waker's comm" \
	same offwake "$BAD;[no stack];--;[no stack];kworker/1:2 50000000
$DB;--;[no stack];[no waker] 250000000
$SLEEP;--;$WAKER;swapper/0 300000000
$SLEEP;--;$WAKER;swapper/1 700000000"
fg syscalls --folded --mode syscalls "$LOG"
tap_ok "syscalls mode" same syscalls "cat;ksys_read+0x6f/0xf0;vfs_read+0x1f4/0x2d0;pipe_read+0x2f0/0x450 20000000"
fg custom --folded --tracker slowsync "$LOG"
tap_ok "--tracker: a custom tracker's stacks" \
	same custom "fsync-test;ext4_sync_file+0x1c5/0x3b0;jbd2_log_wait_commit+0xb0/0x120 15000000"
fg pid --folded --pid 499 "$LOG"
tap_ok "--pid: the tgid matches" same pid "$DB 250000000"
fg window --folded --since 1001.5 --until 1003000000000 "$LOG"
tap_ok "--since (seconds as follow prints them) and --until (ns)" \
	same window "$BAD;[no stack] 50000000
$DB 250000000"
fg stdin --folded - <"$LOG"
tap_ok "SOURCE -: the log on standard input" same stdin "$(cat "$W/offcpu.out")"
fg none --folded --tracker nosuch "$LOG"
tap_ok "no record of the tracker: empty output, a warning, exit 0" \
	eval 'rc_is none 0 && [ ! -s "$W/none.out" ] && grep -q "no record of tracker nosuch" "$W/none.err"'

# The SVG: well-formed XML (Python), the title, every stack's frames.
fg svg -o "$W/offcpu.svg" "$LOG"
tap_ok "SVG written with -o, nothing on stdout, exit 0" \
	eval 'rc_is svg 0 && [ -s "$W/offcpu.svg" ] && [ ! -s "$W/svg.out" ]'
check_svg() { # FILE TITLE-WORDS FOLDED-FILE
	python3 - "$@" <<'PY'
import sys
import xml.etree.ElementTree as ET
path, words, folded = sys.argv[1], sys.argv[2].split("|"), sys.argv[3]
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(path).getroot()
bad = []
if root.tag != ns + "svg":
    bad.append("root " + root.tag)
title = root.find(ns + "title").text
for w in words:
    if w not in title:
        bad.append(f"{w!r} not in the title {title!r}")
frames = {}
for g in root.iter(ns + "g"):
    if g.get("class") == "fr":
        frames.setdefault(int(g.get("data-d")), []).append(g)
total = int(root.get("data-total"))
if [g.get("data-n") for g in frames.get(0, [])] != ["all"] or \
        int(frames[0][0].get("data-w")) != total:
    bad.append("no root frame 'all' of the total")
# Each folded stack: a frame per level with its name, covering its weight.
for line in open(folded, encoding="utf-8", errors="replace"):
    stack, weight = line.rstrip("\n").rsplit(" ", 1)
    for d, name in enumerate(stack.split(";"), 1):
        if not any(g.get("data-n") == name and int(g.get("data-w")) >= int(weight)
                   for g in frames.get(d, [])):
            bad.append(f"no frame {name!r} at depth {d}")
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
}
tap_ok "SVG: well-formed XML, title, root frame, every stack's frames at their depth (hostile names decoded)" \
	check_svg "$W/offcpu.svg" "Off-CPU time|offcpu|$LOG" "$W/offcpu.out"
fg svgw --mode offwake -o "$W/offwake.svg" "$LOG"
tap_ok "SVG of offwake: the same checks" \
	check_svg "$W/offwake.svg" "wakers|offcpu" "$W/offwake.out"
tap_ok "SVG: self-contained (inline script and style, no external reference)" \
	eval '! grep -qE "(href|src)=|@import|https?://[^\"]*\.(js|css)" "$W/offcpu.svg" &&
	      grep -q "<script>" "$W/offcpu.svg" && grep -q "<style>" "$W/offcpu.svg"'

# A snapshot: LTTng's latency_tracker events through libbabeltrace2.
python3 "$LT_TOP/tests/tools/flame_ctf.py" "$W/snap"
fg snap --folded "$W/snap"
tap_ok "snapshot: offcpu events folded (a raw byte of comm kept)" \
	same snap $'db<&\xff;?;io_schedule+0x12/0x40 50\nsleep;do_syscall_64+0x5d/0xb0;do_nanosleep+0x7b/0x140 1000'
fg snapw --folded --mode offwake "$W/snap"
tap_ok "snapshot: offwake" same snapw $'db<&\xff;?;io_schedule+0x12/0x40;--;[no stack];[no waker] 50\nsleep;do_syscall_64+0x5d/0xb0;do_nanosleep+0x7b/0x140;--;hrtimer_wakeup+0x1e/0x30;hrtimer_interrupt+0xf9/0x230;swapper/1 1000'
fg snaps --folded --mode syscalls "$W/snap"
fg snapc --folded --tracker slowsync "$W/snap"
tap_ok "snapshot: the syscall event is tracker syscalls, a custom event its own tracker" \
	eval 'same snaps "cat;vfs_read+0x1f4/0x2d0;pipe_read+0x2f0/0x450 40" &&
	      same snapc "fsync-test;ext4_sync_file+0x1c5/0x3b0;jbd2_log_wait_commit+0xb0/0x120 9"'
fg snapsvg -o "$W/snap.svg" "$W/snap"
tap_ok "snapshot: its SVG well-formed (a byte that is not UTF-8 replaced)" \
	check_svg "$W/snap.svg" "offcpu" /dev/null

# User frames named: a program built here (frame pointers, a build id),
# two records whose ustack= has its frames, innermost first, as
# <build id>+0x<file offset> (the offset through the PT_LOAD holding the
# address, from readelf and nm, not from the CLI's code).
cat >"$W/usym.c" <<'EOF'
int lt_usym_inner(int x) __attribute__((noinline));
int lt_usym_outer(int x) __attribute__((noinline));
int lt_usym_inner(int x) { int y = x * 3; return y + 1; }
int lt_usym_outer(int x) { int y = lt_usym_inner(x); return y + 2; }
int main(int argc, char **argv) { (void)argv; return lt_usym_outer(argc) == 7; }
EOF
gcc -O0 -fno-omit-frame-pointer -Wl,--build-id -o "$W/usym" "$W/usym.c"
UID_=$(readelf -n "$W/usym" | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')
# uoff SYMBOL N: the file offset of SYMBOL's address + N, in hex.
uoff() {
	local va t o v p f rest
	va=$(nm "$W/usym" | sed -n "s/^\([0-9a-f]*\) [Tt] $1\$/\1/p")
	[ -n "$va" ] || return
	va=$((16#$va + $2))
	while read -r t o v p f rest; do
		[ "$t" = LOAD ] && [ $va -ge $((v)) ] && [ $va -lt $((v + f)) ] &&
			printf '%x\n' $((va - v + o)) && return
	done < <(readelf -lW "$W/usym")
}
IN=$(uoff lt_usym_inner 4) OUT=$(uoff lt_usym_outer 8)
tap_ok "the program built, its build id ($UID_) and offsets (0x$IN, 0x$OUT) read" \
	eval '[ -n "$UID_" ] && [ -n "$IN" ] && [ -n "$OUT" ]'
USTACK="$UID_+0x$IN;$UID_+0x$OUT;[unknown]"
for ts in 2000000000000 2001000000000; do
	printf '{"time":"2026-11-29T10:00:00.000Z","type":"alert","ts":%s,"tracker":"offcpu","cause":"threshold","delay":1000,"pid":800,"tgid":800,"comm":"usym","cpu":0,"state":"S","waker_pid":0,"waker_comm":"swapper/0","cgroup":1,"stack":"do_nanosleep+0x7b/0x140","waker_stack":"","ustack":"%s","action":"off"}\n' \
		"$ts" "$USTACK"
done >"$W/ulog.json"
fg ubin --folded --binary "$W/usym" --binary /bin/sh "$W/ulog.json"
tap_ok "--binary: the user frames named, root first, below the kernel's, merged" \
	same ubin "usym;[unknown];lt_usym_outer+0x8;lt_usym_inner+0x4;do_nanosleep+0x7b/0x140 2000"
tap_ok "--binary: no warning about frames not named" \
	eval '! grep -q "not named" "$W/ubin.err"'
fg uraw --folded "$W/ulog.json"
tap_ok "without --binary: the build id frames as they are, a warning counting them" \
	eval 'same uraw "usym;[unknown];$UID_+0x$OUT;$UID_+0x$IN;do_nanosleep+0x7b/0x140 2000" &&
	      grep -q "4 of 4 user frames not named" "$W/uraw.err"'
fg ubad --folded --binary "$W/usym.c" "$W/ulog.json"
fg unone --folded --binary "$W/nosuch" "$W/ulog.json"
tap_ok "--binary of a file that is not ELF: exit 2; that does not exist: exit 1" \
	eval 'rc_is ubad 2 && grep -q "not an ELF file" "$W/ubad.err" &&
	      rc_is unone 1 && grep -q "No such file" "$W/unone.err"'

# Refusals.
fg badmode --mode bogus "$LOG"
tap_ok "--mode bogus: exit 2, said" eval 'rc_is badmode 2 && grep -q "bad mode" "$W/badmode.err"'
fg badpid --pid x "$LOG"
fg badsince --since yesterday "$LOG"
tap_ok "--pid x, --since yesterday: exit 2" eval 'rc_is badpid 2 && rc_is badsince 2'
fg badopt --frobnicate "$LOG"
tap_ok "an unknown option: exit 2, the usage named" \
	eval 'rc_is badopt 2 && grep -q "usage: latency-tracker flamegraph" "$W/badopt.err"'
fg nosrc --folded "$W/nosuch.json"
tap_ok "a source that does not exist: exit 1" eval 'rc_is nosrc 1 && grep -q "No such file" "$W/nosrc.err"'
tap_ok "a directory without a trace: exit 1" eval 'mkdir -p "$W/empty" && fg notrace2 "$W/empty" && rc_is notrace2 1 && grep -q "not a trace directory" "$W/notrace2.err"'
fg badout -o "$W/nodir/x.svg" "$LOG"
tap_ok "an output that cannot be written: exit 1" rc_is badout 1
tap_end
