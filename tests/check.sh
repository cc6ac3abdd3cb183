#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# check.sh SUITE... - run test suites and print "N passed, M failed" last.
# Each suite prints TAP result lines; every top-level "ok"/"not ok" counts
# as one test.  A suite that fails without reporting a failure (a build
# error, a missing tool), or that reports no result at all, counts as one
# failed test itself.
#
# Suites: unit (host tests: plain, ASan+UBSan, TSan), selftest (the harness
# checks itself), vm (guest tests; KERNEL= and T= narrow it; KERNEL=debug
# is the KASAN/lockdep/kmemleak kernel), mttcg (the race tests under
# multi-threaded TCG), dkms, lint.
set -u
. "$(dirname "$0")/vm/common.sh"

suite_cmd() {
	case $1 in
	unit) echo "make -s -C $LT_TOP/tests/unit all && $LT_TOP/tests/unit/run.sh" ;;
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
	mttcg) echo "LT_TCG_THREAD=multi LTG_TORTURE_SECONDS=\${LTG_TORTURE_SECONDS:-30}" \
		"$LT_TOP/tests/vm/check-vm.sh -k 6.12 -t core-api -t torture |" \
		"sed -u 's#^\\(\\(not \\)\\{0,1\\}ok [0-9]* - \\)6\\.12/#\\16.12-mttcg/#'" ;;
	dkms) echo "$LT_TOP/tests/vm/check-dkms.sh" ;;
	lint) echo "$LT_TOP/tests/lint.sh" ;;
	*) return 1 ;;
	esac
}

passed=0 failed=0
t0=$(date +%s)
for s in "$@"; do
	cmd=$(suite_cmd "$s") || lt_die "unknown suite '$s' (known: unit selftest vm mttcg dkms lint)"
	log=$(mktemp)
	lt_log "suite $s: start"
	s0=$(date +%s)
	bash -o pipefail -c "$cmd" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
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
	rm -f "$log"
done
lt_log "total wall time $(($(date +%s) - t0)) s"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
