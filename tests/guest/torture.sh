#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# torture.sh - hackbench and stress-ng on both CPUs while the trackers are
# loaded and unloaded again and again with tiny pools, their thresholds,
# timeouts and enable flipped, and alert readers opening, polling and
# closing.  Afterwards: pending is 0 after disable and every module
# unloads (on the debug kernel the harness's kmemleak scan at the end of
# the boot judges what they left).  LTG_TORTURE_SECONDS
# sets the length (default 30 s; `make soak DURATION=...` runs it longer);
# LTG_SEED replays the random choices.  The workload runs for that long
# (hackbench's processes are stopped at its end too); the rounds go on
# after it until 3 are complete (the guest's test timeout is the limit):
# a round takes 10-30 s under emulation, more when other guests share the
# host.  On the debug kernel (KASAN and lockdep) a round under load takes
# about 30 s, and an rmmod or a disable waits long for grace periods
# while the workload runs (when hackbench outlived the workload, the flip
# or unload after its end took 100 to 280 s), so there the load lasts
# 15 s, about one round, and one complete round is required (the
# per-phase times are shown: 30 s, then 82 s for the whole test).
. tests/guest/lib.sh

secs_default=30 min_rounds=3
# Only the debug kernel has kmemleak.
[ -e /sys/kernel/debug/kmemleak ] && secs_default=15 min_rounds=1
secs=${LTG_TORTURE_SECONDS:-$secs_default}
seed=${LTG_SEED:-$(date +%s)}
RANDOM=$seed
tap_diag "seed $seed, $secs s"
tap_plan 6

# Attaching a probe to a tracepoint that has fewer than two patches kernel
# text (jump label, then static call).  Under QEMU's multi-threaded TCG that
# patching, racing with the other vCPU running the patched code
# (__schedule, __sysvec_apic_timer_interrupt), was seen to fail ("Oops:
# int3", a CPU stuck in insmod; see tests/guest/progs/trk.sh): an emulator
# problem, not ours.  So two other probes stay on every event of the
# systems in torture.systems -- enabled in two ftrace instances, recording
# off -- and our attach/detach patches nothing; assertion 6 counts what was
# patched.  Enabling them patches text too, once per event: the
# multi-threaded lane (6.12-mttcg: tests/vm/check-vm.sh) enables them on its kernel
# command line instead (trace_event=, and trace_instance= for
# lt_torture), before the second CPU or any workload runs, and then
# nothing here patches text: a system fully enabled before the test stays
# so, and only what this test enabled is disabled at the end (seen once in
# that lane: "Oops: int3" in __schedule while this script enabled the
# companions).
TP_SYSTEMS=$(grep -v '^#' tests/guest/torture.systems)
tr=/sys/kernel/tracing
inst_made=0
[ -d $tr/instances/lt_torture ] || { mkdir $tr/instances/lt_torture; inst_made=1; }
companions=()	# the system enable files this test turned on
for inst in $tr $tr/instances/lt_torture; do
	echo 0 >$inst/tracing_on
	for sys in $TP_SYSTEMS; do
		[ -d $inst/events/$sys ] || continue	# irq_vectors: x86 only
		[ "$(cat $inst/events/$sys/enable)" = 1 ] && continue
		echo 1 >$inst/events/$sys/enable
		companions+=($inst/events/$sys/enable)
	done
done
tap_diag "companion probes enabled by this test: ${#companions[@]} systems (the others were on at boot)"

# What the rounds patch in the kernel's own text (a module's text, patched
# as it loads, is its own business): a kprobe on the functions every jump
# label and static call update goes through (text_poke_queue and
# text_poke_bp; smp_text_poke_batch_add and smp_text_poke_single from 6.16
# on), recorded, with a filter on the address, in an instance of its own.
# Core kernel text lies below the module area (0xffffffffc0000000 on
# x86-64, MODULES_VADDR).
poke_inst=$tr/instances/lt_torture_poke
poke_probes=()
mkdir $poke_inst
for fn in text_poke_queue text_poke_bp smp_text_poke_batch_add smp_text_poke_single; do
	grep -q " [tT] $fn\$" /proc/kallsyms || continue
	ev=lt_poke_$fn
	echo "p:kprobes/$ev $fn addr=%di:x64 site=%di:symbol" >>$tr/kprobe_events 2>/dev/null || continue
	echo 'addr < 0xffffffffc0000000' >$poke_inst/events/kprobes/$ev/filter
	echo 1 >$poke_inst/events/kprobes/$ev/enable
	poke_probes+=($ev)
done
# (Enabling one kprobe patches the text of the function under it: what
# was recorded until now goes.)
echo >$poke_inst/trace
tap_diag "kernel text patching watched through: ${poke_probes[*]:-nothing}"

trackers=(latency_tracker_wakeup latency_tracker_offcpu latency_tracker_syscalls
	latency_tracker_block lt_core_test)

# Workload on both CPUs for the whole run, at a lower priority than this
# script: the point is to load modules and flip knobs while the CPUs are
# busy, not to let the workload starve the test itself.
renice -n -10 $$ >/dev/null
end=$((SECONDS + secs))
# The workload ends at the end of its time, hackbench's children too (a
# hackbench left running kept the debug kernel's flip phase busy for
# 194 s after a 15 s workload).
stop_hackbench() { pkill -x hackbench; }
(
	while [ $SECONDS -lt $end ]; do
		nice -n 10 hackbench -g 2 -l 200 >/dev/null 2>&1 &
		while kill -0 $! 2>/dev/null && [ $SECONDS -lt $end ]; do sleep 0.5; done
	done
	stop_hackbench
) &
wl1=$!
timeout $secs nice -n 10 stress-ng --switch 1 --timer 1 --timer-freq 2000 --hdd 1 \
	--hdd-bytes 4M --quiet >/dev/null 2>&1 &
wl2=$!

# One long-lived reader process opens, polls, reads and closes the alerts
# file of whatever tracker exists, over and over, until the rounds are
# over (python starts slowly under emulation: once is enough).
python3 - <<'PY' &
import glob, os, random, select
while True:
    for path in glob.glob("/proc/latency_tracker/*/alerts"):
        try:
            fd = os.open(path, os.O_RDONLY | (os.O_NONBLOCK if random.random() < 0.5 else 0))
        except OSError:
            continue  # unloaded meanwhile
        try:
            p = select.poll()
            p.register(fd, select.POLLIN)
            if p.poll(random.randint(0, 50)):
                os.read(fd, 4096)
        except OSError:
            pass
        finally:
            os.close(fd)
PY
poller=$!

load_fail=0 unload_fail=0 rounds=0 pending_bad=()
pick() { local a=("$@"); echo "${a[RANDOM % ${#a[@]}]}"; }
knob() { echo "$2" >"/proc/latency_tracker/$1/$3" 2>/dev/null; }
dir_of() { local n=${1#latency_tracker_}; echo "/proc/latency_tracker/$n"; }

while [ $SECONDS -lt $end ] || [ $rounds -lt $min_rounds ]; do
	rounds=$((rounds + 1))
	t_load=$SECONDS
	lt_loaded latency_tracker || lt_load latency_tracker || load_fail=$((load_fail + 1))
	loaded=()
	for m in "${trackers[@]}"; do
		[ $((RANDOM % 3)) = 0 ] && continue
		params="threshold=$(pick 100000 1000000 20000000) max_events=$(pick 1 2 16 4096) timeout=$(pick 0 0 1000000 50000000)"
		[ $m = lt_core_test ] && params="$params selftest=0"
		if lt_load $m $params 2>/dev/null; then loaded+=($m); else load_fail=$((load_fail + 1)); fi
	done
	t_flip=$SECONDS
	# Blocking readers that get cut off, besides the poller.
	for m in "${loaded[@]}"; do
		d=$(dir_of $m)
		timeout 0.$((RANDOM % 9 + 1)) cat "$d/alerts" >/dev/null 2>&1 &
	done
	[ -d /proc/latency_tracker/lt_core_test ] &&
		echo "pending $((RANDOM % 64))" >/proc/latency_tracker/lt_core_test/ctl 2>/dev/null
	for i in 1 2 3 4; do
		m=$(pick "${loaded[@]:-none}")
		[ "$m" = none ] && break
		d=$(dir_of $m)
		n=${d##*/}
		case $((RANDOM % 4)) in
		0) knob $n "$(pick 0 1 1)" enable ;;
		1) knob $n "$(pick 50000 5000000 50000000)" threshold ;;
		2) knob $n "$(pick 0 1000000 20000000)" timeout ;;
		3) knob $n "$(pick 0 1000 1000000000)" wakeup_interval ;;
		esac
		sleep 0.$((RANDOM % 3))
	done
	# Disable drops pending events: pending must read 0 afterwards.
	for m in "${loaded[@]}"; do
		n=$(dir_of $m); n=${n##*/}
		if [ $((RANDOM % 2)) = 0 ] && knob $n 0 enable; then
			p=$(awk '$1 == "pending" { print $2 }' /proc/latency_tracker/$n/stats)
			[ "$p" = 0 ] || pending_bad+=("$n:$p")
		fi
	done
	t_wait=$SECONDS
	readers=$(jobs -p | grep -vwE "$wl1|$wl2|$poller")
	[ -z "$readers" ] || wait $readers 2>/dev/null
	t_unload=$SECONDS
	for m in "${loaded[@]}"; do
		t_mod=$SECONDS
		lt_unload $m || unload_fail=$((unload_fail + 1))
		[ $((SECONDS - t_mod)) -lt 5 ] ||
			tap_diag "rmmod $m took $((SECONDS - t_mod)) s"
	done
	[ $((RANDOM % 3)) = 0 ] && { lt_unload latency_tracker || unload_fail=$((unload_fail + 1)); }
	tap_diag "round $rounds (${loaded[*]}): load $((t_flip - t_load)) s," \
		"flip $((t_wait - t_flip)) s, readers $((t_unload - t_wait)) s," \
		"unload $((SECONDS - t_unload)) s"
done
t_rounds=$SECONDS
kill $wl1 $wl2 $poller 2>/dev/null
stop_hackbench
wait 2>/dev/null
t_end=$SECONDS

tap_diag "$rounds rounds of load, flip, read, unload"
tap_cmp "ran at least $min_rounds complete rounds" "$rounds" -ge $min_rounds
tap_is "every load succeeded" "$load_fail" 0
tap_is "every unload succeeded" "$unload_fail" 0
tap_is "pending read 0 after every disable" "${pending_bad[*]}" ""
lt_loaded latency_tracker && lt_unload latency_tracker
tap_diag "after the rounds: workload stopped in $((t_end - t_rounds)) s, the core unloaded in $((SECONDS - t_end)) s"
tap_ok "no module of ours left loaded" bash -c '! grep -qE "^(latency_tracker|lt_core_test)" /proc/modules'
# Before the companions and the kprobes go (that patches text).
echo 0 >$poke_inst/tracing_on
pokes=$(grep -v '^#' $poke_inst/trace | sed -n 's/.* site=\([^ ]*\).*/\1/p' | sort | uniq -c | sort -rn)
if [ ${#poke_probes[@]} = 0 ]; then
	tap_skip 1 "no kprobe on this kernel's text patching functions"
else
	[ -z "$pokes" ] || tap_diag "kernel text patched: $(echo $pokes | head -c 400)"
	tap_is "no kernel text patched by the trackers' attach and detach" "$(echo "$pokes" | awk '{ n += $1 } END { print n + 0 }')" 0
fi
for ev in "${poke_probes[@]}"; do echo 0 >$poke_inst/events/kprobes/$ev/enable; done
rmdir $poke_inst
for ev in "${poke_probes[@]}"; do echo "-:kprobes/$ev" >>$tr/kprobe_events; done
for f in "${companions[@]}"; do echo 0 >"$f"; done
echo 1 >$tr/tracing_on
if [ $inst_made = 1 ]; then rmdir $tr/instances/lt_torture; else echo 1 >$tr/instances/lt_torture/tracing_on; fi
tap_done
