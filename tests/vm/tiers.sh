# SPDX-License-Identifier: GPL-2.0-only
# tiers.sh - which guest tests each kernel line runs (sourced by
# check-vm.sh; `tests/vm/check-vm.sh --list [-T fast] -k LINE` prints a
# line's list).  One list per kind of test; a line's list is the kinds it
# runs.  A new test must be named in exactly one kind below (check-vm.sh
# refuses a tree where a test is in none or in two).
#
# A test runs where its outcome can differ:
#  KERNEL    our code against the kernel's scheduler, tracepoints, RCU,
#            cgroups, module loader and stack printing: every Debian line
#            (6.1, 6.12, current, current-rt);
#  RT        the core's own machinery, whose only kernel-dependent part
#            is what PREEMPT_RT changes (timers, irq_work and RCU callbacks
#            in threads, preemptible spinlocks, what preempts what): the
#            alert ring and its wait queues, timeouts, the pool's growth,
#            CPU hotplug, the stress test: 6.12 and current-rt;
#  ONE_LINE  logic that does not depend on the kernel (procfs and module
#            parameter parsing, the filters, the stack print budget, file
#            modes, the userspace tools against real modules): 6.12;
#  LTTNG     userspace whose kernel side is LTTng's events of the
#            scheduler, lock and pipe calls (changes with lttng-modules and
#            with what PREEMPT_RT makes of locks and interrupts): 6.12 and
#            current-rt (lttng-probe runs on every line);
#  DEBUG     what the KASAN/lockdep/kmemleak kernel adds: memory safety of
#            our code under every path that allocates, frees, unloads or
#            races (its measurement tests prove nothing the Debian lines
#            do not, at 4-6 times the cost: the scheduler trackers' paths
#            under load are torture's; the procfs parsers' memory safety
#            is fuzz-procfs's, whose adversarial cases all run);
#  MTTCG     the race tests under multi-threaded TCG, where the two vCPUs
#            really run at once: the line LINE-mttcg is LINE's kernel so
#            run (check-vm.sh); the full tier runs 6.12-mttcg.
# The fast tier (make check) runs FAST on 6.12: at least one guest test of
# every feature, the oracles with their short workloads.

KERNEL_TESTS="core-load core-api wakeup offcpu syscalls block
	wakeup-contended wakeup-race block-requests syscalls-ends rt-timers
	lazy-rcu stacks lttng-probe custom custom-unload app wakeup-breakdown irq
	lock net oracle-wakeup oracle-offcpu oracle-syscalls oracle-block"
RT_TESTS="core-alerts alerts-lost alerts-unload timeout-change hotplug torture
	offcpu-threads block-burst"
ONE_LINE_TESTS="core-procfs fuzz-procfs filters filters-cgroup security
	stacks-budget custom-refusals
	cli-basic cli-filters flamegraph
	daemon-explain daemon-faults daemon-remote daemon-sandbox daemon-unload
	explain-bad explain-compare explain-disk explain-lock"
LTTNG_TESTS="daemon-snapshot explain-cpu explain-flock explain-pool explain-app
	explain-pipe explain-timeline"
DEBUG_TESTS="core-load core-api core-alerts alerts-lost alerts-unload
	stacks filters-cgroup hotplug torture lttng-probe
	fuzz-procfs offcpu-threads block-burst custom-unload app
	flamegraph irq lock net"
MTTCG_TESTS="core-api torture"
FAST_TESTS="core-load core-api core-alerts alerts-lost core-procfs
	timeout-change wakeup offcpu syscalls block wakeup-contended
	block-requests block-burst rt-timers stacks stacks-budget lttng-probe filters
	filters-cgroup fuzz-procfs security alerts-unload hotplug torture
	oracle-wakeup oracle-offcpu oracle-syscalls oracle-block
	cli-basic cli-filters flamegraph daemon-explain explain-timeline custom app
	wakeup-breakdown irq lock net"

# tier_tests LINE [TIER]: the tests LINE runs in TIER (full: the default;
# fast: 6.12 only), one a line.
tier_tests() {
	local line=$1 tier=${2:-full}
	if [ "$tier" = fast ]; then
		[ "$line" = 6.12 ] && printf '%s\n' $FAST_TESTS
		return 0
	fi
	case $line in
	6.12) printf '%s\n' $KERNEL_TESTS $RT_TESTS $ONE_LINE_TESTS $LTTNG_TESTS ;;
	current-rt) printf '%s\n' $KERNEL_TESTS $RT_TESTS $LTTNG_TESTS ;;
	6.1 | current) printf '%s\n' $KERNEL_TESTS ;;
	debug) printf '%s\n' $DEBUG_TESTS ;;
	*-mttcg) printf '%s\n' $MTTCG_TESTS ;;
	esac
}

# tier_env LINE TIER: the LTG_* settings of a line in a tier: the short
# oracle workloads on the debug kernel and in the fast tier; there, the
# fuzzer's random writes get half their budget (its adversarial ones all
# run); on the debug kernel, offcpu-threads puts fewer threads to sleep
# (still more than the pool's first segment), the fuzzer's random
# writes get a quarter of their budget (memory safety: every adversarial
# case runs), on one tracker module whose knobs take every parser
# (block) besides lt_core_test, and its bad module parameters one per way
# a load is refused; custom-unload removes its trackers under load once
# and alerts-unload its watched trackers once (each round takes the same
# paths); filters-cgroup checks what its filter's cgroup can do to the
# memory (removal and reload in every order, the block path), not what
# it selects (6.12's); under multi-threaded TCG, the stress test runs
# 30 s.
tier_env() {
	case $1:${2:-full} in
	debug:*) echo "LTG_ORACLE_SHORT=1"; echo "LTG_OFFCPU_THREADS=6000"
		echo "LTG_FUZZ_SECONDS=5"; echo "LTG_FUZZ_BAD=short"
		echo "LTG_FUZZ_TRACKERS=block"
		echo "LTG_CUSTOM_ROUNDS=1"; echo "LTG_ALERTS_UNLOAD_ROUNDS=1"
		echo "LTG_CGROUP_SAFETY_ONLY=1" ;;
	*-mttcg:*) echo "LTG_TORTURE_SECONDS=30" ;;
	*:fast) echo "LTG_ORACLE_SHORT=1"; echo "LTG_FUZZ_SECONDS=10" ;;
	esac
}

# tier_lint TESTS...: every test is in exactly one of KERNEL, ONE_LINE and
# LTTNG, and DEBUG, MTTCG and FAST name only tests that exist; prints what is
# wrong, one a line.
tier_lint() {
	local t n
	for t in "$@"; do
		n=$(printf '%s\n' $KERNEL_TESTS $RT_TESTS $ONE_LINE_TESTS $LTTNG_TESTS | grep -cx -- "$t")
		[ "$n" = 1 ] || echo "tests/guest/$t.sh is in $n of the kinds KERNEL, RT, ONE_LINE, LTTNG (tests/vm/tiers.sh): must be 1"
	done
	for t in $KERNEL_TESTS $RT_TESTS $ONE_LINE_TESTS $LTTNG_TESTS $DEBUG_TESTS $MTTCG_TESTS $FAST_TESTS; do
		printf '%s\n' "$@" | grep -qx -- "$t" || echo "tests/vm/tiers.sh names $t: no such test"
	done
}
