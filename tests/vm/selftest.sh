#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# selftest.sh [KERNEL] - the harness checks itself: each way a test or a
# check can go wrong must be reported as a failure, naming the test and
# showing the kernel's words (or the watchdog's).  Prints TAP.
#
#   judging (host only, from made-up results): a TAP plan printed last, a
#     "# SKIP" assertion, the kernel log cut into windows by sequence
#     number, records lost or read twice;
#   the accuracy oracle (host only, from a made-up trace): a system call
#     preempted twice inside its sys_enter tracepoint needs no record, one
#     that blocked after its preemption does; an off-CPU record naming
#     the wrong waker is named in the line right before its failed check;
#     a waker that only a late probe explains is a stall if the trace
#     has no line of that probe's CPU in between, a failure otherwise;
#   a failed assertion is shown with the diagnostics just before it;
#   gate holes: a kmemleak kernel whose report cannot be had fails the
#     final phase (and, end to end, a boot told to expect one without it
#     fails by name); a scheduler feature the kernel has but the
#     features file does not list is a failure, not a skip;
#   lint: a missing tool, an empty input, a kernel line that does not
#     resolve, each a failed check, never "clean"; sparse's findings in
#     our files whatever path kbuild names them by;
#   host preparation: a tools build broken by -Werror (in a build directory
#     of its own) fails the kernel's setup, removes what it built before,
#     and no guest test runs;
#   caches: four initramfs builds at once all succeed;
#   a kernel down at boot before the tests: booted once more, then its
#     tests reported not run;
#   guests: two guests of one kernel started at once, with no initramfs in
#     their (private) cache, both build it and boot; the deliberately broken
#     tests (tests/guest/selftest-*.sh, tests/kmod/selftest/) - a test that
#     plans 5 assertions and makes 4, a module that WARNs while loading,
#     one that WARNs after its test ended, one that WARNs while the final
#     phase unloads it, one that oopses, one that wedges the guest - each
#     reported failed; and a test killed at its time limit with the core
#     loaded, after which the next test of the boot loads it again.
set -u
. "$(dirname "$0")/common.sh"
. "$LT_TOP/tests/vm/judge.sh"

k=${1:-6.12}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The plan, declared before the first assertion: a check that is never
# reached fails the self-test (the count is compared at the end).
PLAN=59
echo "1..$PLAN"
n=0 failed=0 shown=()
check() { # desc cmd...
	local desc=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $desc"
	else
		failed=$((failed + 1))
		echo "not ok $n - $desc"
	fi
}
has() { grep -qE -- "$2" "$1"; }
hasnt() { ! grep -qE -- "$2" "$1"; }
count() { [ "$(grep -cE -- "$2" "$1")" = "$3" ]; }

# --- judging, from made-up results -------------------------------------------
j=$tmp/judge
mkdir -p "$j"
printf 'ok 1 - a\nok 2 - b\n1..2\n' >"$j/late.tap"
printf '1..2\nok 1 - a\nok 2 # SKIP not on this kernel\n# ran 2 of 2 planned\n' >"$j/skip.tap"
# A stream with a record read twice (4) and two lost (6, 7); "t" starts at
# 2 and ends at 5, "u" starts at 9 and never ends.
cat >"$j/kmsg.log" <<'EOF'
6,0,1000,-;booting
6,1,2000,-;rcu: \x09RCU lockdep checking is enabled.
14,2,3000,-;lt-harness: 1 start t
 SUBSYSTEM=ignored
6,3,4000,-;inside t
6,4,5000,-;inside t again
6,4,5000,-;inside t again
14,5,6000,-;lt-harness: 2 end t
4,8,9000,-;WARNING: CPU: 0 PID: 1 at late_work+0x1/0x2
14,9,10000,-;lt-harness: 3 start u
EOF
echo "2 5" >"$j/t.seq"
echo "9" >"$j/u.seq"
(
	judge_tap() { local why=() oks skips; tap_check "$1"; echo "${why[*]:-clean} $oks $skips"; }
	judge_tap "$j/late.tap" >"$j/late.out"
	judge_tap "$j/skip.tap" >"$j/skip.out"
	kmsg_split "$j" t u final-unload
	for w in t u; do why=(); log_check "$j" $w; echo "${why[*]}" >"$j/$w.why"; done
)
check "judge: a TAP plan printed after the assertions fails" has "$j/late.out" '^no up-front TAP plan '
check "judge: a # SKIP assertion counts as run" has "$j/skip.out" '^clean 2 1$'
check "judge: the records before the first test are the boot's" \
	test "$(cat "$j/boot.dmesg" 2>/dev/null)" = "$(printf '[    0.001000] booting\n[    0.002000] rcu: \\x09RCU lockdep checking is enabled.')"
check "judge: the debug kernel's boot banner is no splat" hasnt "$j/boot.dmesg" "$LT_SPLAT_RE"
check "judge: a test's window holds its records once, without dictionary lines" \
	test "$(grep -c 'inside t' "$j/t.dmesg")-$(grep -c SUBSYSTEM "$j/t.dmesg")" = 2-0
check "judge: lost records are named where they were lost" \
	has "$j/t.dmesg-after" 'lt-harness: 2 kernel log records lost \(sequence numbers 6 to 7\)'
check "judge: a WARNING after a test ended fails that test" \
	has "$j/t.why" 'kernel splat after the test ended'
check "judge: a test whose end was never logged fails" has "$j/u.why" 'did not record its end'

# --- the accuracy oracle, from a made-up trace --------------------------------
# A getppid of 53 ms (7.3-rt, CI of 2026-11-27): preempted 0.8 ms after
# ftrace's sys_enter record, back for 0.4 ms, switched out again (STATE2),
# back 20 ms later, sys_exit 60 us after that.  The tracker reported no
# record, its histogram has a call of 60 us.  Preempted twice (R+) the
# call may not have reached the tracker's probe before the last switch-in:
# no record is allowed, as a stall.  Blocked the second time (S), it had
# passed the probe, so a 53 ms call without a record is a miss.
o=$tmp/oracle
mkdir -p "$o"
oracle_case() { # NAME STATE2
	local d=$o/$1 sw='d..2.   10.1'
	mkdir -p "$d"
	cat >"$d/trace" <<-EOF
	# tracer: nop
	            bash-100     [000] .....   10.000000: tracing_mark_write: oracle snapshot
	            bash-100     [000] .....   10.000010: tracing_mark_write: oracle enable-begin
	            bash-100     [000] .....   10.000020: tracing_mark_write: oracle enable-end
	     or_nonblock-200     [001] .....   10.100000: sys_enter: NR 110 (0, 0, 0, 0, 0, 0)
	     or_nonblock-200     [001] ${sw}00800: sched_switch: prev_comm=or_nonblock prev_pid=200 prev_prio=120 prev_state=R+ ==> next_comm=cat next_pid=300 next_prio=120
	             cat-300     [001] ${sw}33000: sched_switch: prev_comm=cat prev_pid=300 prev_prio=120 prev_state=S ==> next_comm=or_nonblock next_pid=200 next_prio=120
	     or_nonblock-200     [001] ${sw}33400: sched_switch: prev_comm=or_nonblock prev_pid=200 prev_prio=120 prev_state=$2 ==> next_comm=cat next_pid=300 next_prio=120
	             cat-300     [001] ${sw}53300: sched_switch: prev_comm=cat prev_pid=300 prev_prio=120 prev_state=S ==> next_comm=or_nonblock next_pid=200 next_prio=120
	     or_nonblock-200     [001] .....   10.153360: sys_exit: NR 110 = 199
	            bash-100     [000] .....   10.300000: tracing_mark_write: oracle disable-begin
	            bash-100     [000] .....   10.300010: tracing_mark_write: oracle disable-end
	EOF
	printf '100 S 0\n200 R 0\n300 S 0\n' >"$d/tasks"
	printf 'tracked 0\nmatched 0\nover_threshold 0\nalerts 0\n' >"$d/stats0"
	printf 'tracked 1\nmatched 1\nover_threshold 0\nalerts 0\n' >"$d/stats1"
	: >"$d/hist0"
	printf '32768 65535 1\n' >"$d/hist1"
	: >"$d/alerts"
	python3 "$LT_TOP/tests/guest/oracle/oracle.py" syscalls --trace "$d/trace" \
		--alerts "$d/alerts" --stats0 "$d/stats0" --stats1 "$d/stats1" \
		--hist0 "$d/hist0" --hist1 "$d/hist1" --threshold 2000000 \
		--tol 50000 --tasks "$d/tasks" --tp-preemptible yes >"$o/$1.out" 2>&1
}
oracle_case twice R+
oracle_case blocked S
check "oracle: a call preempted twice inside sys_enter needs no record (a stall)" \
	has "$o/twice.out" '^PASS syscalls: every pair over the threshold has its record \(1 pairs, .*, 0 missed, .*; 1 without one, .*, 1 of them only if still inside'
check "oracle: ... but a call that blocked after its preemption does" \
	has "$o/blocked.out" '^FAIL syscalls: every pair over the threshold has its record \(1 pairs, .*, 1 missed,'

# Off-CPU records of or_fair (200), blocked on CPU 1 from 10.100 to
# 10.130, against traces of who woke it (the lines between the marks: the
# case's standard input).  A record naming a waker the trace never saw
# fails, and the line right before the failed check names the record and
# its field (CI shows a failure's preceding diagnostics, failed_with_diag).
# The waker is current at the sched_waking that the sched_wakeup after the
# switch-out completed; a record without it is never excused:
#   missing     no waker, though cat (300) on CPU 0 woke it 20 ms after;
#   raced       cat as the waker, its waking 10 ms before the switch-out
#               while or_fair still ran (the waking raced the sleep; its
#               sched_wakeup after the switch-out): the waker, no stall;
#   raced-none  the same, the record naming no waker (what a tracker whose
#               waking probe found no event yet writes): a failure;
#   stale       cat as the waker, its waking from the block before, which
#               ended with a switch-in (an interrupt woke it this time);
#   runnable    a sleeping switch-out with no sched_wakeup before the
#               switch-in (a pending signal kept it runnable, before Linux
#               6.16): no pair, so the record has none.
# marked_trace < LINES > TRACE: the lines inside the oracle's window marks.
marked_trace() {
	echo '# tracer: nop'
	for l in 0:snapshot 1:enable-begin 2:enable-end; do
		echo "            bash-100     [000] .....   10.00000${l%%:*}: tracing_mark_write: oracle ${l#*:}"
	done
	cat
	echo '            bash-100     [000] .....   10.300000: tracing_mark_write: oracle disable-begin'
	echo '            bash-100     [000] .....   10.300010: tracing_mark_write: oracle disable-end'
}
offcpu_case() { # NAME WAKER PAIRS HIST0 <LINES
	local d=$o/$1
	mkdir -p "$d"
	marked_trace >"$d/trace"
	printf '100 S 0\n200 R 0\n300 R 0\n400 S 0\n' >"$d/tasks"
	printf 'tracked 0\nmatched 0\nover_threshold 0\nalerts 0\n' >"$d/stats0"
	printf 'tracked %s\nmatched %s\nover_threshold 1\nalerts 1\n' "$3" "$3" >"$d/stats1"
	: >"$d/hist0"
	printf '%b16777216 33554431 1\n' "$4" >"$d/hist1"
	echo "tracker=offcpu cause=threshold ts=10130000000 delay=30000000 pid=200 cpu=1 state=S waker_pid=$2 comm=or_fair" >"$d/alerts"
	python3 "$LT_TOP/tests/guest/oracle/oracle.py" offcpu --trace "$d/trace" \
		--alerts "$d/alerts" --stats0 "$d/stats0" --stats1 "$d/stats1" \
		--hist0 "$d/hist0" --hist1 "$d/hist1" --threshold 2000000 \
		--tol 50000 --tasks "$d/tasks" >"$o/$1.out" 2>&1
}
sw_in0='          <idle>-0       [001] d..2.   10.050000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=or_fair next_pid=200 next_prio=120'
sw_out='         or_fair-200     [001] d..2.   10.100000: sched_switch: prev_comm=or_fair prev_pid=200 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120'
sw_in='          <idle>-0       [001] d..2.   10.130000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=or_fair next_pid=200 next_prio=120'
waking() { # TS [CPU [COMM-PID]]
	echo "      ${3:-cat-300}     [00${2:-0}] d..2.   $1: sched_waking: comm=or_fair pid=200 prio=120 target_cpu=001"
}
wakeup() { # TS
	echo "             cat-300     [000] d..2.   $1: sched_wakeup: comm=or_fair pid=200 prio=120 target_cpu=001"
}
# One pair (30 ms), or two (stale: 1 ms from 10.096, then 30 ms).
one() { offcpu_case "$1" "$2" 1 ''; }
two() { offcpu_case "$1" "$2" 2 '524288 1048575 1\n'; }
printf '%s\n' "$sw_out" "$(waking 10.120000)" "$(wakeup 10.120001)" "$sw_in" | one waker 999
printf '%s\n' "$sw_out" "$(waking 10.120000)" "$(wakeup 10.120001)" "$sw_in" | one missing 0
printf '%s\n' "$sw_in0" "$(waking 10.090000)" "$sw_out" "$(wakeup 10.100001)" "$sw_in" | one raced 300
printf '%s\n' "$sw_in0" "$(waking 10.090000)" "$sw_out" "$(wakeup 10.100001)" "$sw_in" | one raced-none 0
printf '%s\n' "${sw_out/10.100000/10.096000}" "$(waking 10.096500)" "$(wakeup 10.096501)" \
	"${sw_in/10.130000/10.097000}" "$sw_out" "$(waking 10.120000 1 '<idle>-0')" \
	"$(wakeup 10.120001)" "$sw_in" | two stale 300
printf '%s\n' "$sw_out" "$sw_in" | one runnable 0
grep -B1 '^FAIL offcpu: the records name' "$o/waker.out" | head -n 1 >"$o/waker.before"
check "oracle: an off-CPU record's wrong waker is named right before its failed check, the other 8 pass" \
	test "$(cat "$o/waker.before")-$(grep -c '^PASS' "$o/waker.out")" = '# FIELDS: 200: waker_pid=999 (trace 300)-8'
check "oracle: an off-CPU waker that raced the sleep (woken before the switch-out, its wakeup after): no stall" \
	test "$(grep -c '^PASS' "$o/raced.out")-$(grep -c '^PASS offcpu: stalled clock reads 0 ' "$o/raced.out")" = 9-1
for c in missing raced-none stale; do
	check "oracle: an off-CPU record without its waker, or another ($c): a failed check" \
		test "$(grep -c '^PASS' "$o/$c.out")-$(grep -c '^FAIL offcpu: the records name' "$o/$c.out")" = 8-1
done
check "oracle: an off-CPU record of a switch-out that no wakeup followed (kept runnable): no pair" \
	has "$o/runnable.out" '^FAIL offcpu: every record has its pair'

# Wakeup records of or_fair (200), running on CPU 1 since 10.050, woken by
# cat (300) at 10.090: raced, it blocked at 10.100 and its sched_wakeup
# came after (a pair of 40 ms, 10.090 -> 10.130: its record required);
# running, its sched_wakeup came while it still ran (no pair).  Stalls of
# at most 10 ms: none can excuse a missing 40 ms pair.
wakeup_case() { # NAME RECORD(0|1) <LINES
	local d=$o/$1
	mkdir -p "$d"
	marked_trace >"$d/trace"
	printf '100 S 0\n200 R 0\n300 R 0\n' >"$d/tasks"
	printf 'tracked 0\nmatched 0\nover_threshold 0\nalerts 0\n' >"$d/stats0"
	printf 'tracked %s\nmatched %s\nover_threshold %s\nalerts %s\n' "$2" "$2" "$2" "$2" >"$d/stats1"
	: >"$d/hist0" && : >"$d/hist1" && : >"$d/alerts"
	if [ "$2" = 1 ]; then
		echo '33554432 67108863 1' >"$d/hist1"
		echo "ts=10130000000 tracker=wakeup cause=threshold delay=40000000 pid=200 tgid=200 comm=or_fair prio=120 cpu=1 waker_pid=300 waker_comm=cat prev_pid=0 prev_comm=swapper/1" >"$d/alerts"
	fi
	python3 "$LT_TOP/tests/guest/oracle/oracle.py" wakeup --trace "$d/trace" \
		--alerts "$d/alerts" --stats0 "$d/stats0" --stats1 "$d/stats1" \
		--hist0 "$d/hist0" --hist1 "$d/hist1" --threshold 2000000 \
		--tol 50000 --stall-max 10000000 --min-over 0 \
		--tasks "$d/tasks" >"$o/$1.out" 2>&1
}
printf '%s\n' "$sw_in0" "$(waking 10.090000)" "$sw_out" "$(wakeup 10.100001)" "$sw_in" |
	wakeup_case wk-raced 1
printf '%s\n' "$sw_in0" "$(waking 10.090000)" "$sw_out" "$(wakeup 10.100001)" "$sw_in" |
	wakeup_case wk-raced-none 0
printf '%s\n' "$sw_in0" "$(waking 10.090000)" "$(wakeup 10.090001)" |
	wakeup_case wk-running 0
check "oracle: a wakeup that raced the sleep (running at the waking, blocked before its wakeup) is a pair, its record matched" \
	test "$(grep -c '^PASS' "$o/wk-raced.out")" = 9
check "oracle: ... and without its record, a failed check" \
	has "$o/wk-raced-none.out" '^FAIL wakeup: every pair over the threshold has its record'
check "oracle: a wakeup that found its task still running is no pair" \
	test "$(grep -c '^PASS' "$o/wk-running.out")" = 9
printf '# stale\nok 1 - a\n# 1\n# 2\n# 3\n# 4\n# 5\n# 6\n# 7\n# 8\n# 9\nnot ok 2 - b\nok 3 - c\nnot ok 4 - d\n' >"$j/diag.tap"
failed_with_diag "$j/diag.tap" >"$j/diag.out"
check "judge: a failed assertion is shown with the 8 diagnostic lines just before it (and how many more)" \
	test "$(cat "$j/diag.out")" = "$(printf '# (1 earlier lines not shown)\n# 2\n# 3\n# 4\n# 5\n# 6\n# 7\n# 8\n# 9\nnot ok 2 - b\nnot ok 4 - d')"
shown+=("$o"/*.out)

# --- gate holes: checks that must fail, not vanish --------------------------
# A kernel built with kmemleak whose report cannot be had (debugfs not
# mounted): the final phase fails its "report written" assertion (here on
# the host, no module of ours loaded, an unwritable report file).
fu=$tmp/final-unload
mkdir -p "$fu"
LT_KMEMLEAK=1 LT_KMEMLEAK_FILE=$tmp/no-debugfs/kmemleak \
	bash "$LT_TOP/tests/vm/final-unload.sh" "$fu" >"$fu/out" 2>&1
fu_rc=$?
check "final-unload: a kmemleak kernel without its report file fails the phase" \
	test "$fu_rc-$(grep -c '^not ok [0-9]* - kmemleak report written' "$fu/out")" = 1-1
shown+=("$fu/out")
# A scheduler feature the kernel has but the features file does not list
# (debugfs not mounted): a failure, not a skip; before its release, none.
(
	. "$LT_TOP/tests/guest/lib.sh"
	for r in 6.1.0-56-amd64 6.12.117+deb12-amd64 7.3.4+deb13-rt-amd64; do
		echo "$r $(sched_feature_mode "$tmp/no-debugfs/features" "$r" DELAY_DEQUEUE 6 12)"
	done
	printf 'GENTLE_FAIR_SLEEPERS NO_DELAY_DEQUEUE\n' >"$tmp/features"
	echo "listed $(sched_feature_mode "$tmp/features" 6.12.117+deb12-amd64 DELAY_DEQUEUE 6 12)"
) >"$tmp/sched-features" 2>&1
check "wakeup-contended: DELAY_DEQUEUE missing from the features file of 6.12 or 7.3 is a failure, on 6.1 nothing to try" \
	test "$(tr '\n' ' ' <"$tmp/sched-features")" = "6.1.0-56-amd64 none 6.12.117+deb12-amd64 missing 7.3.4+deb13-rt-amd64 missing listed toggle "
shown+=("$tmp/sched-features")
# A program's results file: PASS, SKIP and FAIL each one assertion.
printf 'PASS a\n# note\nSKIP b\nFAIL c\n' >"$tmp/results"
(
	. "$LT_TOP/tests/guest/lib.sh"
	tap_plan 3
	tap_results 3 "$tmp/results"
	echo "rc=$?"
) >"$tmp/tap-results" 2>&1
check "tap_results: PASS passes, SKIP is a skip, FAIL fails, one each" \
	test "$(grep -v '^1\.\.' "$tmp/tap-results" | tr '\n' '|')" = "ok 1 - a|# note|ok 2 # SKIP b|not ok 3 - c|rc=0|"
shown+=("$tmp/tap-results")

# --- lint: checks that could not run -----------------------------------------
nocpp=$tmp/path-without-cppcheck
mkdir -p "$nocpp"
find /usr/bin /usr/sbin -maxdepth 1 ! -type d ! -name cppcheck -exec ln -sf -t "$nocpp" {} + 2>/dev/null
PATH=$nocpp "$LT_TOP/tests/lint.sh" cppcheck >"$tmp/lint-nocpp" 2>&1
check "lint: cppcheck missing is a failed check" has "$tmp/lint-nocpp" '^not ok 1 - cppcheck .*did not run: cppcheck is not installed'
mkdir -p "$tmp/empty-tree"
LT_TOP=$tmp/empty-tree "$LT_TOP/tests/lint.sh" checkpatch cppcheck >"$tmp/lint-empty" 2>&1
check "lint: no kernel source is a failed checkpatch" has "$tmp/lint-empty" '^not ok [0-9]+ - checkpatch .*did not run: no kernel source'
check "lint: no tools source is a failed cppcheck" has "$tmp/lint-empty" '^not ok [0-9]+ - cppcheck .*did not run: no C file'
LT_KERNEL_LINES=no-such-line "$LT_TOP/tests/lint.sh" sparse >"$tmp/lint-kline" 2>&1
check "lint: a kernel line that does not resolve is a failed sparse" \
	has "$tmp/lint-kline" '^not ok 1 - sparse on no-such-line \(did not run: cannot get the kernel line.s headers: .*unknown kernel line'
# The findings a module build kept (tests/vm/sparse-findings.sh), per
# object compiled from C (its kbuild .cmd file names the source): kbuild
# names our sources by their absolute path up to 6.x and relative to the
# module's directory from 7.x on; both are ours, the kernel's headers are
# not; an object that no sparse checked is a finding (and what modules.sh
# builds again); a module's .mod.o and the object of a source gone from
# the tree are not checked.
sp=$tmp/sparse-build
mkdir -p "$sp/tracker" "$sp/probes/common"
touch "$sp/tracker/a.c" "$sp/probes/common/probe.c" "$sp/probes/c.c" "$sp/probes/m.mod.c"
echo 'source_tracker/a.o := tracker/a.c' >"$sp/tracker/.a.o.cmd"
printf '%s\n' 'tracker/a.c:3:1: warning: relative' 'tracker/a.c:3:1:    expected int' \
	>"$sp/tracker/a.o.sparse"
echo "source_$sp/probes/common/b_probe.o := $sp/probes/common/probe.c" >"$sp/probes/common/.b_probe.o.cmd"
printf '%s\n' "$sp/probes/common/probe.c:4:2: error: absolute" \
	'/usr/src/linux-headers-7.3.4-common/include/linux/z.h:1:1: warning: the kernel' \
	>"$sp/probes/common/b_probe.o.sparse"
echo 'source_probes/c.o := probes/c.c' >"$sp/probes/.c.o.cmd"
echo 'source_probes/m.mod.o := probes/m.mod.c' >"$sp/probes/.m.mod.o.cmd"
echo 'source_tracker/gone.o := tracker/gone.c' >"$sp/tracker/.gone.o.cmd"
echo 'tracker/gone.c:1:1: warning: stale' >"$sp/tracker/gone.o.sparse"
{ "$LT_TOP/tests/vm/sparse-findings.sh" "$sp"
  echo "unchecked: $("$LT_TOP/tests/vm/sparse-findings.sh" --unchecked "$sp")"; } >"$tmp/sparse-findings" 2>&1
check "lint: sparse findings in our files, by either path kbuild gives; an unchecked object" \
	test "$(tr '\n' '|' <"$tmp/sparse-findings")" = \
	"probes/common/probe.c:4:2: error: absolute|probes/c.c: not checked by sparse (no probes/c.o.sparse)|tracker/a.c:3:1: warning: relative|checked 2|unchecked: probes/c.o|"
shown+=("$tmp/lint-nocpp" "$tmp/lint-empty" "$tmp/lint-kline" "$tmp/sparse-findings")

# --- guests, in a cache of their own -----------------------------------------
# The kernel is fetched into the shared cache first; the private cache links
# to everything there but this kernel's initramfs, so both guests find none,
# and the tests' costs (test-ms), which are its own.
kver=$("$LT_TOP/tests/vm/kernel.sh" fetch "$k") || lt_die "cannot fetch kernel $k"
mkdir -p "$LT_CACHE"/{build,lttng,runs,kvm-probe,debug-src} && touch "$LT_CACHE/host-prep.lock"
pc=$tmp/cache
mkdir -p "$pc/kernels/$kver"
for e in "$LT_CACHE"/* "$LT_CACHE"/.[!.]*; do
	case ${e##*/} in kernels | test-ms) continue ;; esac
	[ -e "$e" ] && ln -s "$e" "$pc/"
done
for e in "$LT_CACHE/kernels/$kver"/* "$LT_CACHE/kernels/$kver"/.[!.]*; do
	case ${e##*/} in initramfs-*) ;; *) [ -e "$e" ] && ln -s "$e" "$pc/kernels/$kver/" ;; esac
done

# Four initramfs builds at once, each must succeed with the same file.
mkdir -p "$tmp/cache4/kernels/$kver"
ln -s "$LT_CACHE/kernels/$kver/root" "$tmp/cache4/kernels/$kver/root"
for i in 1 2 3 4; do
	LT_CACHE=$tmp/cache4 "$LT_TOP/tests/vm/initramfs.sh" "$kver" >"$tmp/initrd$i" 2>&1 &
done
wait
check "initramfs: four builds at once all succeed, one file" \
	test "$(sort -u "$tmp"/initrd[1-4] | grep -c '^/.*\.cpio\.gz$')-$(cat "$tmp"/initrd[1-4] | wc -l)-$(ls "$tmp/cache4/kernels/$kver" | wc -l)" = 1-4-2
shown+=("$tmp"/initrd[1-4])

# Host preparation with a -Werror break in the tools (every file gets an
# unused variable), built into a directory of its own holding an old
# binary: no guest may boot, and the old binary must be gone.
mkdir -p "$tmp/tools"
echo 'static int lt_selftest_unused;' >"$tmp/break.h"
echo stale >"$tmp/tools/latency-tracker"
# The tree's own scenario programs, built: the broken build, in a
# directory of its own, must leave them (guests of other runs use them).
make -s -C "$LT_TOP/tests/guest/progs" >/dev/null 2>&1
LT_CACHE=$pc BUILD=$tmp/tools CC="gcc -include $tmp/break.h" \
	"$LT_TOP/tests/vm/check-vm.sh" -k "$k" -t selftest-ok >"$tmp/prep" 2>/dev/null
prep_rc=$?
check "host-prep: a broken tools build, harness exits non-zero" test "$prep_rc" != 0
check "host-prep: the kernel's setup is reported failed" has "$tmp/prep" "^not ok 1 - $k/host-prep \(host preparation failed"
check "host-prep: the compiler's error is shown" has "$tmp/prep" "lt_selftest_unused"
check "host-prep: no test ran" hasnt "$tmp/prep" 'selftest-ok'
check "host-prep: the binaries of the older build are removed" test ! -e "$tmp/tools/latency-tracker"
check "host-prep: the tree's scenario programs are left in place" test -x "$LT_TOP/build/progs/oracle_load"
shown+=("$tmp/prep")

# A kernel that goes down at boot, before the tests (its init cannot be
# run): booted once more, then its tests reported not run.
out=$tmp/bootpanic
LT_CACHE=$pc LT_GUESTS=1 LT_GUEST_APPEND="rdinit=/lt-none init=/lt-none" \
	"$LT_TOP/tests/vm/check-vm.sh" -k "$k" -t selftest-ok >"$out" 2>/dev/null
shown+=("$out")
check "a kernel down at boot, none of ours loaded: booted once more" \
	count "$out" "^# boot [0-9]+: the kernel went down before the tests" 1
check "... and its tests then reported not run" \
	has "$out" "^not ok [0-9]+ - $k/selftest-ok \(not run: the guest did not reach the tests"

# The broken tests, shared by two guests started at once (check-vm.sh deals
# them longest first, each to the guest with the least so far: the costs
# below, in ms, make the deal).  Guest 1: ok, warn, oops (crash; new
# boot), deferred-warn.  Guest 2: ok, plan, wedge (killed; new boot),
# exit-warn.  Short limits: the wedged guest is killed 30 s after its test
# started.
out=$tmp/guests
mkdir -p "$pc/test-ms/$k"
for c in ok:100 warn:91 plan:90 wedge:80 oops:79 deferred-warn:71 exit-warn:70; do
	echo "${c#*:}" >"$pc/test-ms/$k/selftest-${c%%:*}"
done
LT_CACHE=$pc LT_GUESTS=2 LT_TEST_TIMEOUT=20 LT_WATCHDOG_GRACE=10 \
	"$LT_TOP/tests/vm/check-vm.sh" -k "$k" -t selftest-ok -t selftest-ok \
	-t selftest-plan -t selftest-warn -t selftest-oops -t selftest-wedge \
	-t selftest-exit-warn -t selftest-deferred-warn >"$out" 2>/dev/null
rc=$?
shown+=("$out")
g1="\(guest 1 of 2: " g2="\(guest 2 of 2: "
check "guests: harness exits non-zero" test "$rc" != 0
check "guests: two guests at once built one initramfs, nothing left behind" \
	test "$(ls "$pc/kernels/$kver" | grep -c '^initramfs-')" = 1
check "guests: both booted and ran a passing test" count "$out" "^ok [0-9]+ - $k/selftest-ok \(guest [12] of 2: 2 assertions" 2
check "guests: every boot's log before the tests is clean" count "$out" "^ok [0-9]+ - $k/boot " 4
check "a test that plans 5 and makes 4 fails by its plan alone" \
	has "$out" "^not ok [0-9]+ - $k/selftest-plan ${g2}planned 5, ran 4\)"
check "a WARN while loading fails its test" has "$out" "^not ok [0-9]+ - $k/selftest-warn ${g1}kernel splat in dmesg\)"
check "... and the WARNING is shown" has "$out" '^#   .*WARNING: .*lt_selftest_bad_init'
check "a WARN after the test ended fails that test" \
	has "$out" "^not ok [0-9]+ - $k/selftest-deferred-warn ${g1}kernel splat after the test ended"
check "... and the WARNING is shown" has "$out" '^#   .*WARNING: .*lt_selftest_late_warn'
check "a module left loaded passes its test" has "$out" "^ok [0-9]+ - $k/selftest-exit-warn "
check "a WARN while unloading fails the final unload" \
	has "$out" "^not ok [0-9]+ - $k/final-unload ${g2}kernel splat in dmesg\)"
check "... and the WARNING is shown" has "$out" '^#   .*WARNING: .*lt_selftest_bad_exit'
check "a clean final unload passes" has "$out" "^ok [0-9]+ - $k/final-unload ${g1}2 assertions"
check "an oopsing test is reported failed by name" \
	has "$out" "^not ok [0-9]+ - $k/selftest-oops ${g1}the guest crashed"
check "... and the oops is shown from the console" has "$out" '^#   .*(BUG: kernel NULL pointer|Oops)'
check "a wedged guest is killed and its test reported by name" \
	has "$out" "^not ok [0-9]+ - $k/selftest-wedge ${g2}the guest crashed or hung"
check "... and the watchdog says why" has "$out" '^#  watchdog: no progress for [0-9]+s \(running: selftest-wedge\)'
check "guests: the counts add up" has "$out" '^# guest tests: 8 passed, 6 failed'

# A test killed at its time limit, with the core loaded and no cleanup:
# the next test of the same boot must be able to load the core again
# (before the harness unloaded after a failure: "insmod: ... File exists",
# the CI cascade after debug/stacks-budget timed out).
# The same boot as a kmemleak kernel's (LT_EXPECT_KMEMLEAK=1) on a kernel
# without it: no report, and the harness says so by name.
out=$tmp/timeout
LT_CACHE=$pc LT_GUESTS=1 LT_TEST_TIMEOUT=10 LT_WATCHDOG_GRACE=30 LT_EXPECT_KMEMLEAK=1 \
	"$LT_TOP/tests/vm/check-vm.sh" -k "$k" -t selftest-timeout -t selftest-reload >"$out" 2>/dev/null
shown+=("$out")
check "a boot of a kmemleak kernel without its report fails by name" \
	has "$out" "^not ok [0-9]+ - $k/kmemleak \(no kmemleak report from a kernel built with kmemleak"
check "a test killed at its time limit is reported failed by name" \
	has "$out" "^not ok [0-9]+ - $k/selftest-timeout \(timed out after 10s"
res=$(sed -n "s/^#  results: //p" "$out" | head -n 1)
check "... and what it left loaded is unloaded (its .unload)" has "$res/selftest-timeout.unload" '^ok [0-9]+ - rmmod latency_tracker$'
check "the next test of the boot loads the core again" has "$out" "^ok [0-9]+ - $k/selftest-reload \(2 assertions"

if [ $failed != 0 ]; then
	echo "# harness output was:"
	for f in "${shown[@]}"; do
		echo "# --- $f"
		indent <"$f"
	done
fi
if [ $n != $PLAN ]; then
	echo "# ran $n of $PLAN planned"
	exit 1
fi
[ $failed = 0 ]
