#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# check.sh SUITE... - run test suites and print "N passed, M failed" last.
# Each suite prints TAP result lines; every top-level "ok"/"not ok" counts
# as one test.  A suite that fails without reporting a failure (a build
# error, a missing tool), or that reports no result at all, counts as one
# failed test itself.
#
# Suites: unit (host tests: plain, ASan+UBSan, TSan), daemon
# (latency-trackerd on the host under ASan: fake proc root and sessiond, a
# real Prometheus scraping it; tests/tools/), selftest (the harness
# checks itself), vm (guest tests; KERNEL= and T= narrow it; KERNEL=debug
# is the KASAN/lockdep/kmemleak kernel), mttcg (the race tests under
# multi-threaded TCG), dkms, lint.  "A+B" runs suites A and B side by
# side (make check: unit+daemon and dkms+deb, each single-threaded;
# lint+selftest, the one single-threaded, the other mostly one guest at a
# time).
set -u
. "$(dirname "$0")/vm/common.sh"

suite_cmd() {
	case $1 in
	unit) echo "make -s -C $LT_TOP/tests/unit all && $LT_TOP/tests/unit/run.sh" ;;
	daemon) echo "$LT_TOP/tests/tools/run.sh" ;;
	selftest) echo "$LT_TOP/tests/vm/selftest.sh" ;;
	vm) local a=""
	    for k in ${KERNEL:-}; do a+=" -k $k"; done
	    for t in ${T:-}; do a+=" -t $t"; done
	    echo "$LT_TOP/tests/vm/check-vm.sh$a" ;;
	# The in-guest race tests under QEMU's multi-threaded TCG, where the
	# two vCPUs really run at once (the other guests take turns on one
	# host thread: see qemu.sh): the core API from every context on both
	# CPUs, and a short torture run (it keeps two other probes on every
	# tracepoint it uses, so no text is patched under load).  Results are
	# named <kernel>-mttcg/<test>.
	# The companion probes of the torture test are enabled on the command
	# line, before the second CPU runs (see torture.sh: text patching
	# under multi-threaded TCG).
	mttcg) local ev=sched:sched_switch,sched:sched_waking,sched:sched_wakeup
	    ev+=,raw_syscalls:sys_enter,raw_syscalls:sys_exit,block:block_rq_issue
	    ev+=,block:block_rq_complete,block:block_rq_requeue
	    echo "LT_GUEST_APPEND='trace_event=$ev trace_instance=lt_torture,$ev'" \
		"LT_TCG_THREAD=multi LTG_TORTURE_SECONDS=\${LTG_TORTURE_SECONDS:-30}" \
		"$LT_TOP/tests/vm/check-vm.sh -k 6.12 -t core-api -t torture |" \
		"sed -u 's#^\\(\\(not \\)\\{0,1\\}ok [0-9]* - \\)6\\.12/#\\16.12-mttcg/#'" ;;
	dkms) echo "$LT_TOP/tests/vm/check-dkms.sh" ;;
	deb) echo "$LT_TOP/tests/pkg/check-deb.sh" ;;
	lint) echo "$LT_TOP/tests/lint.sh" ;;
	*) return 1 ;;
	esac
}

# count SUITE LOG RC S0: add a finished suite's results to the totals.
count() {
	local s=$1 log=$2 rc=$3 s0=$4 p f
	p=$(grep -cE '^ok ' "$log")
	f=$(grep -cE '^not ok ' "$log")
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		echo "not ok - suite $s failed to run (exit $rc)"
		f=1
	elif [ "$p" = 0 ] && [ "$f" = 0 ]; then
		echo "not ok - suite $s reported no result"
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	lt_log "suite $s: $p passed, $f failed in $(($(date +%s) - s0)) s"
}

# The debug kernel (built here once: a quarter of a cold run) starts
# building now when the guest suite will want it, beside the host suites
# that leave the CPU idle while they download; the guest suite's own fetch
# then waits for it (kernel.sh holds a lock) and finds it built.  Cached,
# this returns at once.
case " $* " in
*" vm "* | *"+vm "* | *" vm+"*)
	case " ${KERNEL:-} " in
	*" debug "*)
		mkdir -p "$LT_CACHE/tmp"
		lt_log "debug kernel: fetched or built in the background (log: $LT_CACHE/tmp/debug-kernel.log)"
		"$LT_TOP/tests/vm/kernel.sh" fetch debug >"$LT_CACHE/tmp/debug-kernel.log" 2>&1 &
		;;
	esac
	;;
esac

# The packaging suite's base root (debootstrap and a kernel's headers:
# two minutes cold, mostly downloads) the same way; check-deb.sh waits
# for it (it holds the root's lock).  Made, this returns at once.
case " $* " in
*" deb "* | *"+deb "* | *" deb+"*)
	mkdir -p "$LT_CACHE/tmp"
	lt_log "package-test root: made in the background (log: $LT_CACHE/tmp/deb-root.log)"
	"$LT_TOP/tests/pkg/check-deb.sh" prepare >"$LT_CACHE/tmp/deb-root.log" 2>&1 &
	;;
esac

# A suite runs alone, its output as it comes; "A+B" runs suites A and B at
# once (two that leave a CPU idle: lint and the harness self-test), the
# output of each shown whole when both are done, in order.
passed=0 failed=0
t0=$(date +%s)
for group in "$@"; do
	IFS=+ read -r -a members <<<"$group"
	for s in "${members[@]}"; do
		suite_cmd "$s" >/dev/null ||
			lt_die "unknown suite '$s' (known: unit daemon selftest vm mttcg dkms deb lint)"
	done
	s0=$(date +%s)
	if [ ${#members[@]} = 1 ]; then
		s=${members[0]} log=$(mktemp)
		lt_log "suite $s: start"
		bash -o pipefail -c "$(suite_cmd "$s")" 2>&1 | tee "$log"
		count "$s" "$log" "${PIPESTATUS[0]}" "$s0"
		rm -f "$log"
		continue
	fi
	declare -A logs=() pids=()
	for s in "${members[@]}"; do
		lt_log "suite $s: start (beside: ${group//+/ })"
		logs[$s]=$(mktemp)
		bash -o pipefail -c "$(suite_cmd "$s")" >"${logs[$s]}" 2>&1 &
		pids[$s]=$!
	done
	for s in "${members[@]}"; do
		wait "${pids[$s]}"
		rc=$?
		cat "${logs[$s]}"
		count "$s" "${logs[$s]}" "$rc" "$s0"
		rm -f "${logs[$s]}"
	done
	unset logs pids
done
lt_log "total wall time $(($(date +%s) - t0)) s"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
