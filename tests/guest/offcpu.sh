#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# offcpu.sh - latency_tracker_offcpu: a sleep of known length is reported
# with state S, its delay, and its stack in the record and dmesg, the
# timer's wake-up as the waker's stack; a pipe reader names the thread
# that wrote, its stack in the record at pipe_read and the writer's at
# pipe_write; with a timeout, a task still asleep is reported while it
# sleeps, with its stack and no waker's; with ustack=1, the user stack of
# a process with frame pointers and of one without.
. tests/guest/lib.sh
. tests/guest/progs/trk.sh
TRK=offcpu TRK_MOD=latency_tracker_offcpu
TRK_EVENTS="sched/sched_waking sched/sched_switch"
TRK_COMPANION=latency_tracker_wakeup

# Above 500 ms: kcompactd and other periodic kernel threads sleep exactly
# 500 ms, and on a slow (debug, emulated) kernel their reports alone would
# use up the dmesg rate limit (10 stacks per 5 s) before ours.
THRESHOLD=600000000		# 600 ms
SLEEP_MS=900
# sleep(1)'s timer (a CLOCK_MONOTONIC hrtimer, the tracker's clock) is
# armed just before the switch-out that starts the tracked interval: the
# interval is the sleep minus that gap (microseconds; an interrupt at
# most), so the bound allows 10 ms for it.
SLEEP_MIN_NS=$(( (SLEEP_MS - 10) * 1000000 ))
PIPE_MS=800
TP=/sys/kernel/tracing/events/latency_tracker/offcpu
TRACE=/sys/kernel/tracing/trace

# stack_of REC FIELD: the frames of a stack field, one a line.
stack_of() { field "$1" "$2" | tr ';' '\n'; }

# 43 assertions of this script, and those of the shared trk_* checks.
tap_plan $((43 + $(trk_shared_plan)))
tap_ok "load" trk_load threshold=$THRESHOLD
echo 1 >$TP/enable && echo >$TRACE

# dmesg is rate limited and every idle thread sleeping longer than the
# threshold competes for it: try a few sleeps until ours is printed.
alerts=$(mktemp) out=$(mktemp)
trk_reader_start "$alerts"
for try in 1 2 3 4 5 6; do
	sleep 0.$SLEEP_MS &
	spid=$!
	wait $spid
	sleep 0.5
	dmesg | grep -q "latency_tracker_offcpu: sleep ($spid) " && break
	sleep 5		# next rate-limit window
done
trk_reader_stop
rec=$(grep " pid=$spid " "$alerts" | head -n 1)
tap_diag "sleep $spid (try $try): $rec"
tap_ok "record header" trk_header_ok "$rec" threshold
delay=$(field "$rec" delay)
tap_cmp "delay >= sleep time (less the timer-to-switch gap)" "${delay:-0}" -ge $SLEEP_MIN_NS
tap_cmp "delay < 5 s" "${delay:-0}" -lt 5000000000
tap_is "state=S" "$(field "$rec" state)" S
tap_is "comm=sleep" "$(field "$rec" comm)" sleep
tap_is "tgid" "$(field "$rec" tgid)" "$spid"
tap_ok "cpu and waker fields" bash -c "[[ '$rec' =~ \ cpu=[0-9]+\ state=S\ waker_pid=[0-9]+\ waker_comm=[^\ ]+ ]]"
# The record's stacks (the contract: stack=, waker_stack=, frames
# innermost first, symbol+0xoff/0xlen, no scheduler or probe frame).
st=$(stack_of "$rec" stack) wst=$(stack_of "$rec" waker_stack)
tap_ok "record: stack= from where it blocked (nanosleep), no scheduler frame first" \
	bash -c "grep -q nanosleep <<<'$st' && ! head -n 1 <<<'$st' | grep -qE '^(__schedule|schedule)'"
frames_ok() { # STACK...: every frame is symbol+0xoff/0xlen
	! printf '%s\n' "$@" | grep . |
		grep -qvxE '[A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+/0x[0-9a-f]+'
}
tap_ok "record: every frame is symbol+0xoff/0xlen" frames_ok "$st" "$wst"
tap_ok "record: waker_stack= is the timer's wake-up (hrtimer_wakeup), from try_to_wake_up" \
	bash -c "grep -q '^hrtimer_wakeup+' <<<'$wst' && head -n 1 <<<'$wst' | grep -q '^try_to_wake_up+'"

# dmesg: the contract's line, then the frames, one per line.
hdr=$(dmesg | grep -n "latency_tracker_offcpu: sleep ($spid) [0-9]* us$" | tail -n 1)
tap_ok "dmesg line 'latency_tracker_offcpu: sleep ($spid) <us> us'" test -n "$hdr"
us=$(sed -n 's/.* \([0-9]*\) us$/\1/p' <<<"$hdr")
tap_cmp "dmesg delay in us >= sleep time (less the gap)" "${us:-0}" -ge $((SLEEP_MIN_NS / 1000))
frames=$(dmesg | tail -n +"$(( ${hdr%%:*} + 1 ))" | head -n 16 |
	grep -E 'latency_tracker_offcpu:   ?[A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+/0x[0-9a-f]+')
tap_diag "$(head -n 8 <<<"$frames")"
tap_cmp "stack frames printed" "$(grep -c . <<<"$frames")" -ge 3
tap_ok "the stack is the sleep's (nanosleep)" grep -q nanosleep <<<"$frames"
tap_ok "tracepoint with the stack as text" \
	grep -qE "offcpu: cause=threshold .* pid=$spid .*state=S .*stack=.*nanosleep" $TRACE

# A pipe reader woken by a writer thread: the waker is the writer.  The
# writer starts its delay once the reader is blocked (ltprog.py), so the
# reader's off-CPU time holds all of it.
trk_reader_start "$alerts"
$LTPROG pipe $PIPE_MS >"$out"
trk_reader_stop
reader=$(sed -n 's/^reader_tid=//p' "$out")
writer=$(sed -n 's/^writer_tid=//p' "$out")
rec=$(grep " pid=$reader " "$alerts" | head -n 1)
tap_diag "reader $reader writer $writer: $rec"
tap_is "reader's comm" "$(field "$rec" comm)" lt_reader
tap_is "waker_comm names the writer" "$(field "$rec" waker_comm)" lt_writer
tap_is "waker_pid is the writer thread" "$(field "$rec" waker_pid)" "$writer"
tap_cmp "reader's delay >= writer's delay" "$(field "$rec" delay)" -ge $((PIPE_MS * 1000000))
# (anon_pipe_read/_write on 7.x: anonymous pipes have file operations of
# their own there)
tap_ok "reader's record: stack= at pipe_read" \
	grep -qE '^(anon_)?pipe_read\+' <<<"$(stack_of "$rec" stack)"
tap_ok "reader's record: waker_stack= at pipe_write (the writer's write)" \
	grep -qE '^(anon_)?pipe_write\+' <<<"$(stack_of "$rec" waker_stack)"

# Timeout: reported while the task still sleeps.
tap_ok "timeout set to 300 ms" trk_set timeout 300000000
sleep 1		# the first scan reports every long sleeper; let it pass
trk_reader_start "$alerts"
sleep 4 &
spid=$!
sleep 2
tap_ok "sleeper still asleep" kill -0 $spid
trk_reader_stop 0.5
# (the child may block in D before it runs sleep(1), under emulation
# slowly enough to time out as comm=bash: the sleep's record is wanted)
rec=$(grep "cause=timeout .* pid=$spid .*comm=sleep " "$alerts" | head -n 1)
tap_diag "timeout: $rec"
tap_ok "cause=timeout record while the task sleeps" test -n "$rec"
tap_cmp "timeout delay >= 300 ms" "$(field "$rec" delay)" -ge 300000000
tap_is "timeout record: state=S" "$(field "$rec" state)" S
tap_ok "timeout record: the sleeping stack (nanosleep)" \
	grep -q nanosleep <<<"$(stack_of "$rec" stack)"
tap_ok "timeout record: nothing woke it, waker_stack= empty" \
	bash -c "[[ '$rec' == *' waker_stack=' ]]"
tap_ok "timeout tracepoint carries the sleeping stack" \
	grep -qE "offcpu: cause=timeout .* pid=$spid .*stack=.*nanosleep" $TRACE
wait $spid
tap_cmp "stats: timeouts" "$(trk_stat timeouts)" -ge 1
tap_ok "timeout back to 0" trk_set timeout 0
echo 0 >$TP/enable

tap_cmp "stats: over_threshold >= 2" "$(trk_stat over_threshold)" -ge 2
tap_cmp "stats: tracked" "$(trk_stat tracked)" -gt 10
tap_cmp "stats: pending (blocked threads)" "$(trk_stat pending)" -ge 1
tap_ok "histogram has the sleep's delay" trk_hist_has "$delay"
tap_ok "without ustack=1, no record has a ustack field" bash -c "! grep -q ' ustack=' '$alerts'"

trk_unload

# User stacks (ustack=1): a process blocked 500 ms in read() under
# main() -> lt_ustack_outer() -> lt_ustack_inner(), built with frame
# pointers (progs/ustack.c): its record's ustack= has the instruction
# pointer (in libc's read) and the return addresses into the binary's
# lt_ustack_outer() and main(), as <build_id>+0x<file offset>, the build
# id the one readelf gives; the same program without frame pointers (rbp
# holds no frame pointer at its raw read): its own frame, then [unknown];
# and with its read made from anonymous executable memory (a JIT's):
# [unknown] first (no file), then the binary's frames.
build_id() { readelf -n "$1" | sed -n 's/.*Build ID: //p'; }
ustack_of() { # PID: the ustack= of the record of PID
	grep -m 1 " pid=${1:-none} " "$alerts" | sed -n 's/.* ustack=\([^ ]*\).*/\1/p'
}
tap_ok "load with ustack=1" trk_load threshold=300000000 ustack=1
trk_reader_start "$alerts"
fp_pid=$("build/progs/ustack_fp" 500 | sed -n 's/^pid=//p')
nofp_pid=$("build/progs/ustack_nofp" 500 | sed -n 's/^pid=//p')
jit_pid=$("build/progs/ustack_jit" 500 | sed -n 's/^pid=//p')
trk_reader_stop 0.5
fp=$(ustack_of "$fp_pid") nofp=$(ustack_of "$nofp_pid") jit=$(ustack_of "$jit_pid")
trk_unload
fp_id=$(build_id "build/progs/ustack_fp")
nofp_id=$(build_id "build/progs/ustack_nofp")
jit_id=$(build_id "build/progs/ustack_jit")
tap_diag "ustack_fp ($fp_id): $fp"
tap_diag "ustack_nofp ($nofp_id): $nofp"
tap_cmp "frame pointers: the binary's lt_ustack_outer() and main() in the user stack" \
	"$(tr ';' '\n' <<<"$fp" | grep -c "^$fp_id+0x[0-9a-f]*$")" -ge 2
tap_ok "frame pointers: the first frame (libc's read) is named too" \
	bash -c "[[ '$fp' =~ ^[0-9a-f]{40}\+0x[0-9a-f]+\; ]] && [[ '$fp' != $fp_id* ]]"
tap_ok "no frame pointers: its own frame, then [unknown]" \
	bash -c "[[ '$nofp' =~ ^$nofp_id\+0x[0-9a-f]+\;\[unknown\]$ ]]"
tap_diag "ustack_jit ($jit_id): $jit"
tap_ok "code in anonymous memory: [unknown] first, then the binary's frames" \
	bash -c "[[ '$jit' =~ ^\[unknown\]\;$jit_id\+0x[0-9a-f]+\;$jit_id\+0x ]]"
trk_rounds 4 $LTPROG wakers 4 30
trk_tiny_pool 2 $LTPROG wakers 8 1
tap_ok "core unloads" lt_unload latency_tracker
rm -f "$out" "$alerts"
tap_done
