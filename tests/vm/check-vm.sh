#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# check-vm.sh [-k KERNEL]... [-t TEST]... - run guest tests in QEMU.
#
# KERNEL: a kernel line (default: all of LT_KERNEL_LINES), or debug
# (tests/vm/kernel.sh lists them).  TEST: the name of a script
# tests/guest/TEST.sh (default: the tests of the kernel's tier, see
# tier_of(); never the harness self-test ones).
# All tests of a kernel run in one boot, each with its own TAP, exit status
# and window of the boot's kernel log; when the guest dies in a test, that
# test fails with the console tail and the tests after it run in a new
# boot.  Each boot ends with a final phase that unloads our modules
# (final-unload, see guest-run.sh).  The kernels are prepared one after
# the other (fetch, module build, host tools: shared caches); a kernel
# whose preparation failed runs no test.  Then their guests run side by
# side, each on one host thread (see qemu.sh), as many at a time as the
# host has CPUs (LT_PARALLEL_GUESTS), the longest first; a guest's results
# are printed when it is done.  A kernel's tests are shared among
# LT_GUESTS guests (default 1; LT_DEBUG_GUESTS on the debug kernel).
#
# A test fails on: exit status != 0, a TAP plan that is not the first line
# or that differs from the assertions run, any "not ok", a timeout, a guest
# crash, or a line matching LT_SPLAT_RE in its window of the kernel log
# (which includes what came after it ended, before the next test).  So
# does the final phase; the kernel log before the first test is
# "<kernel>/boot" (tests/vm/judge.sh).  Prints one TAP line per
# kernel/test; LT_COUNTS=FILE gets "passed failed".  Variables named LTG_*
# are passed to the guest tests.
set -u
. "$(dirname "$0")/common.sh"
. "$LT_TOP/tests/vm/judge.sh"

LT_TEST_TIMEOUT=${LT_TEST_TIMEOUT:-300}
# The debug kernel runs every step 4-6 times slower; its tests are shared
# among LT_DEBUG_GUESTS guests.  More guests than host CPUs at a time
# starve each other: the debug kernel's tests then time out.
LT_DEBUG_TEST_TIMEOUT=${LT_DEBUG_TEST_TIMEOUT:-600}
LT_DEBUG_GUESTS=${LT_DEBUG_GUESTS:-2}
LT_PARALLEL_GUESTS=${LT_PARALLEL_GUESTS:-$(nproc)}

all_tests() {
	local f
	for f in "$LT_TOP"/tests/guest/*.sh; do
		f=$(basename "$f" .sh)
		case $f in lib | demo | bench | selftest-*) continue ;; esac
		echo "$f"
	done
}

# The tiers: which tests a kernel line runs when none is named (T=), so
# that make check fits its time budget (README, "Tiers").  A new test
# joins every tier it is not excluded from below.
#  - full: every test (6.12);
#  - rt (current-rt, the PREEMPT_RT line): every test that runs code of
#    ours in the kernel, and the userspace tests whose kernel side is
#    LTTng's tracer on this line (daemon-snapshot: a snapshot taken on an
#    outlier; explain-cpu: a snapshot explained end to end; the explain
#    scenarios, below).  The other
#    cli-*, daemon-* and explain-* tests prove userspace code that does
#    not change with the kernel: 6.12 runs them (they took 3.4 of this
#    line's 16 minutes);
#  - kernel: every test that runs code of ours in the kernel, with the
#    accuracy oracles, but fuzz-procfs (the procfs parsers are the same
#    code on every line: 6.12 and the RT line run it, the debug kernel
#    under the sanitizers); not the userspace tools' tests (current);
#  - oldest (6.1): the kernel tier and the explain scenarios above;
#  - debug: the memory-safety tier of the KASAN/lockdep/kmemleak kernel
#    (4-6 times slower under emulation), without the measurement and
#    behaviour tests that the Debian lines run (block, offcpu, syscalls,
#    wakeup, security, rt-timers, syscalls-ends, timeout-change,
#    wakeup-contended: what they prove does not depend on the sanitizers,
#    and they took most of the debug kernel's guest time when it ran
#    them), without
#    lazy-rcu (a named skip on a 6.1 kernel, at the
#    cost of a boot), core-procfs (fuzz-procfs writes the same files under
#    the sanitizers) and block-requests.
#    The filters' tests stay (filters-cgroup: cgroup removal against the
#    filter, lifetimes; filters and stacks-budget: the filter issue asks
#    for every line, 116 and 193 s here).
#    One oracle, the wakeup tracker's, shorter (LTG_ORACLE_SHORT): the
#    others prove on the Debian lines what does not depend on the
#    sanitizers, and torture runs every tracker's probes under them.
# The explain scenarios whose kernel side (LTTng's events of the lock,
# pipe and scheduler system calls) changes with the kernel: the oldest
# line (6.1) and the RT line run them besides 6.12.
EXPLAIN_SCENARIOS="explain-flock explain-pool explain-pipe explain-timeline"
tier_of() { # line
	case $1 in
	6.12) echo full ;;
	current-rt) echo rt ;;
	debug) echo debug ;;
	6.1) echo oldest ;;
	*) echo kernel ;;
	esac
}
tier_tests() { # tier
	case $1 in
	full) all_tests ;;
	rt) all_tests | grep -vE '^(cli|daemon|explain)-'
		printf '%s\n' daemon-snapshot explain-cpu $EXPLAIN_SCENARIOS ;;
	kernel) all_tests | grep -vE '^(cli|daemon|explain)-|^fuzz-procfs$' ;;
	oldest) tier_tests kernel
		printf '%s\n' $EXPLAIN_SCENARIOS ;;
	debug) all_tests | grep -vE '^(cli|daemon|explain)-|^(lazy-rcu|block|offcpu|syscalls|wakeup|security|rt-timers|syscalls-ends|timeout-change|wakeup-contended|core-procfs|block-requests|oracle-(offcpu|syscalls|block))$' ;;
	esac
}

# The longest tests first: the debug tier's as measured on the debug
# kernel (2026-11-24: stacks-budget 193 s, filters 116, alerts-unload
# 106, fuzz-procfs 90, filters-cgroup 85, torture 82, hotplug 80,
# lttng-probe 57, oracle-wakeup 35, stacks 29), then the others' as
# measured on 6.12; the rest after them.
COST_ORDER="stacks-budget filters alerts-unload fuzz-procfs filters-cgroup"
COST_ORDER+=" torture hotplug lttng-probe oracle-wakeup stacks core-alerts"
COST_ORDER+=" core-api core-load alerts-lost daemon-snapshot oracle-syscalls"
COST_ORDER+=" offcpu daemon-unload syscalls wakeup daemon-faults security"
COST_ORDER+=" block oracle-offcpu"

# Deal TESTS out to N guests, longest first, in snake order (1 2 .. N N ..
# 2 1 1 2 ..), so that each guest gets a similar share; prints guest I's,
# the tests that need boot options of their own last (each has a boot of
# its own: in the middle, one more boot for the tests after it).
shard() { # n i tests...
	local n=$1 i=$2 t k=0 pos sorted=() mine=() late=()
	shift 2
	for t in $COST_ORDER; do
		case " $* " in *" $t "*) sorted+=("$t") ;; esac
	done
	for t in "$@"; do
		case " $COST_ORDER " in *" $t "*) ;; *) sorted+=("$t") ;; esac
	done
	for t in "${sorted[@]}"; do
		pos=$((k % (2 * n)))
		[ $pos -ge "$n" ] && pos=$((2 * n - 1 - pos))
		[ $((pos + 1)) = "$i" ] && mine+=("$t")
		k=$((k + 1))
	done
	for t in "${mine[@]}"; do
		if [ -n "$(boot_append_of "$t")" ]; then late+=("$t"); else echo "$t"; fi
	done
	for t in "${late[@]}"; do echo "$t"; done
}

kernels=() tests=()
while getopts k:t: opt; do
	case $opt in
	k) kernels+=($OPTARG) ;;
	t) tests+=($OPTARG) ;;
	*) lt_die "usage: check-vm.sh [-k KERNEL]... [-t TEST]..." ;;
	esac
done
[ ${#kernels[@]} = 0 ] && kernels=($LT_KERNEL_LINES)
explicit=${#tests[@]}
[ "$explicit" = 0 ] && tests=($(all_tests))
for k in "${kernels[@]}"; do
	case " $LT_ALL_KERNEL_LINES " in *" $k "*) ;; *)
		lt_die "unknown KERNEL '$k'; valid: $LT_ALL_KERNEL_LINES" ;;
	esac
done
for t in "${tests[@]}"; do
	[ -f "$LT_TOP/tests/guest/$t.sh" ] && [ "$t" != lib ] ||
		lt_die "unknown test '$t'; valid: $(all_tests | tr '\n' ' ')(harness self-tests:$(cd "$LT_TOP/tests/guest" && ls selftest-*.sh | sed 's/\.sh$//; s/^/ /' | tr -d '\n'))"
done
lt_need_root

host_prep() { # kver log
	"$LT_TOP/tests/vm/host-prep.sh" "$1" >"$2" 2>&1
}

# Fetch a kernel, prepare the host, build our modules for it; prints
# "kver kodir rundir", or reports the failure and returns 1.
prepare_kernel() { # line
	local line=$1 kver kodir run
	kver=$(lt_stage "fetch kernel $line" "$LT_TOP/tests/vm/kernel.sh" fetch "$line") ||
		{ report fail "$line/setup" "(cannot get kernel)"; return 1; }
	mkdir -p "$LT_CACHE/runs/$kver"
	run=$(mktemp -d "$LT_CACHE/runs/$kver/$(date +%Y%m%d-%H%M%S)-XXXX")
	# Tools, scenario programs and LTTng for the guest.  When this fails
	# no test runs: they would test what an older build left behind.
	if ! lt_stage "host preparation for $kver" host_prep "$kver" "$run/host-prep.log"; then
		report fail "$line/host-prep" "(host preparation failed: no test of $line ran)"
		tail -n 20 "$run/host-prep.log" | indent
		echo "#  log: $run/host-prep.log"
		return 1
	fi
	kodir=$(lt_stage "build modules for $kver" "$LT_TOP/tests/vm/modules.sh" "$kver" "$run/ko") ||
		{ report fail "$line/build" "(module build failed)"; return 1; }
	echo "$kver $kodir $run"
}

# Extra kernel command line a test asks for: a line
# "# lt-boot-append: OPTIONS" among its first lines (e.g. rcu_nocbs=all).
boot_append_of() { # test
	sed -n '1,10s/^# lt-boot-append: //p' "$LT_TOP/tests/guest/$1.sh" | head -n 1
}

# Run tests of a prepared kernel in one guest, in as many boots as crashes
# need, and a boot of its own for each test that asks for boot options
# (boot_append_of); WHO names the guest in the results when a kernel has
# several.
boot_kernel() { # line kver kodir rundir who tests...
	local line=$1 kver=$2 kodir=$3 run=$4 who=$5 kmods boot=0 remaining t tmo
	local all batch rest append
	shift 5
	kmods=$LT_CACHE/kernels/$kver/root/lib/modules/$kver
	tmo=$LT_TEST_TIMEOUT
	[ "$line" = debug ] && tmo=$LT_DEBUG_TEST_TIMEOUT
	local LT_TEST_TIMEOUT=$tmo # what judge() names as the limit
	all=("$@")
	mkdir -p "$run"
	while [ ${#all[@]} -gt 0 ]; do
		# This boot: the next test with boot options alone, else the
		# tests up to the next one with boot options.
		append=$(boot_append_of "${all[0]}")
		remaining=("${all[0]}") rest=("${all[@]:1}")
		while [ -z "$append" ] && [ ${#rest[@]} -gt 0 ] &&
			[ -z "$(boot_append_of "${rest[0]}")" ]; do
			remaining+=("${rest[0]}") rest=("${rest[@]:1}")
		done
		boot=$((boot + 1))
		local d=$run/boot$boot
		mkdir -p "$d"
		cp "$LT_TOP/tests/vm/guest-run.sh" "$d/"
		cat >"$d/job.env" <<-JOB
			LT_KVER='$kver'
			LT_KMODS='$kmods'
			LT_TOP='$LT_TOP'
			LT_KO_DIR='$kodir'
			LT_TESTS='${remaining[*]}'
			LT_TEST_TIMEOUT='$tmo'
		JOB
		# LTG_* variables (seeds, durations) go to the guest tests as is.
		for v in $(compgen -e | grep '^LTG_'); do
			printf "%s=%q\n" "$v" "${!v}" >>"$d/job.env"
		done
		LT_GUEST_APPEND="${LT_GUEST_APPEND:-} $append" LT_TEST_TIMEOUT=$tmo \
			lt_stage "boot $boot on $kver (${#remaining[*]} tests${append:+, $append})" \
			"$LT_TOP/tests/vm/qemu.sh" "$kver" "$d" "$((tmo * ${#remaining[@]} + 120))"
		# Each boot consumes at least one test, so this loop ends: the
		# tests after one that took the guest down run in a new boot.
		local left=() down=0 reached=0
		for t in "${remaining[@]}"; do
			[ -e "$d/$t.rc" ] || [ -e "$d/$t.started" ] && reached=1
		done
		if [ $reached = 0 ]; then
			for t in "${remaining[@]}" "${rest[@]}"; do
				report fail "$line/$t" "(${who}not run: the guest did not reach the tests)"
			done
			console_excerpt "$d/console.log"
			echo "#  results: $d"
			break
		fi
		kmsg_split "$d" "${remaining[@]}" final-unload
		judge_boot "$line" "$d" "$boot" "$who"
		for t in "${remaining[@]}"; do
			if [ $down = 1 ]; then
				left+=("$t")
			elif [ -e "$d/$t.rc" ]; then
				judge "$line" "$t" "$d" "$who"
			else
				down=1
				judge_crash "$line" "$t" "$d" "$who"
			fi
		done
		if [ $down = 0 ]; then
			if [ -e "$d/final-unload.rc" ]; then
				judge "$line" final-unload "$d" "$who"
			else
				down=1
				judge_crash "$line" final-unload "$d" "$who"
			fi
		fi
		all=("${left[@]}" "${rest[@]}")
		[ -e "$d/kmemleak.txt" ] && judge_kmemleak "$line" "$d" "$who"
		# A splat the stream missed: on the console of a boot that did
		# not crash, with none in any window of the stream.
		if [ $down = 0 ] && grep -qE "$LT_SPLAT_RE" "$d/console.log" &&
			! cat "$d"/*.dmesg "$d"/*.dmesg-after 2>/dev/null | grep -qE "$LT_SPLAT_RE"; then
			report fail "$line/console" "(${who}boot $boot: kernel splat on the console, not in the kernel log stream)"
			grep -hE -A 20 "$LT_SPLAT_RE" "$d/console.log" | head -n 40 | indent
		fi
	done
}

passed=0 failed=0 n=0
# Print a kernel's output, numbering its result lines.
emit() { # file
	local line
	while IFS= read -r line; do
		case $line in
		"ok - "*) n=$((n + 1)) passed=$((passed + 1)); echo "ok $n - ${line#ok - }" ;;
		"not ok - "*) n=$((n + 1)) failed=$((failed + 1)); echo "not ok $n - ${line#not ok - }" ;;
		*) echo "$line" ;;
		esac
	done <"$1"
}

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
ready=()
for k in "${kernels[@]}"; do
	if prepare_kernel "$k" >"$out/$k.prep"; then
		ready+=("$k")
	else
		emit "$out/$k.prep"
	fi
done
# All prepared before any boots: a guest's timing does not depend on
# another kernel's build.  LT_GUESTS guests per kernel (default: one, and
# LT_DEBUG_GUESTS for the debug kernel's tests, queued first: the longest).
# The longest first: the debug kernel, then the other lines by the number
# of tests in their tier, most first (with T= given, in the order asked).
order=()
for k in "${ready[@]}"; do [ "$k" = debug ] && order+=(debug); done
for k in $(for k in "${ready[@]}"; do
		[ "$k" = debug ] && continue
		n=0
		[ "$explicit" = 0 ] && n=$(tier_tests "$(tier_of "$k")" | wc -l)
		echo "$n $k"
	done | sort -s -k1,1nr | cut -d' ' -f2); do
	order+=("$k")
done
queue=()
for k in "${order[@]}"; do
	read -r kver kodir run <"$out/$k.prep"
	list=("${tests[@]}")
	[ "$explicit" = 0 ] && list=($(tier_tests "$(tier_of "$k")"))
	ng=${LT_GUESTS:-1}
	[ "$k" = debug ] && ng=${LT_GUESTS:-$LT_DEBUG_GUESTS}
	[ "$ng" -gt ${#list[@]} ] && ng=${#list[@]}
	for i in $(seq 1 "$ng"); do
		g=$k.$i
		dir=$run who=
		[ "$ng" -gt 1 ] && dir=$run/guest$i who="guest $i of $ng: "
		printf '%s\n' "$k" "$kver" "$kodir" "$dir" "$who" \
			$(shard "$ng" "$i" "${list[@]}") >"$out/$g.job"
		queue+=("$g")
	done
done

start_guest() { # g
	local a
	mapfile -t a <"$out/$1.job"
	(boot_kernel "${a[@]}" >"$out/$1.out"; touch "$out/$1.done") &
}

# Start guests while fewer than LT_PARALLEL_GUESTS run; print each one's
# results when it is done.
next=0 running=0 printed=0
while [ $printed -lt ${#queue[@]} ]; do
	while [ $running -lt "$LT_PARALLEL_GUESTS" ] && [ $next -lt ${#queue[@]} ]; do
		start_guest "${queue[next]}"
		next=$((next + 1)) running=$((running + 1))
	done
	sleep 2
	for g in "${queue[@]:0:next}"; do
		[ -e "$out/$g.done" ] && [ ! -e "$out/$g.printed" ] || continue
		emit "$out/$g.out"
		touch "$out/$g.printed"
		printed=$((printed + 1)) running=$((running - 1))
	done
done
wait
echo "1..$n"
echo "# guest tests: $passed passed, $failed failed (kernels: ${kernels[*]})"
[ -n "${LT_COUNTS:-}" ] && echo "$passed $failed" >"$LT_COUNTS"
[ "$failed" = 0 ]
