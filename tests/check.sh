#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# check.sh [--tier fast|full] [--deps "PROFILE..."] GROUP... - run test
# suites; prints a table of phase durations, then "N passed, M failed"
# last.  Each suite prints TAP result lines; every top-level "ok"/"not ok"
# counts as one test.  A suite that fails without reporting a failure (a
# build error, a missing tool), or that reports no result at all, counts as
# one failed test itself.
#
# Suites: unit (host tests: plain, ASan+UBSan, TSan where threads run),
# daemon (latency-trackerd on the host under ASan: fake proc root and
# sessiond, a real Prometheus scraping it; tests/tools/), selftest (the
# harness checks itself), vm (guest tests; KERNEL= and T= narrow it), dkms,
# deb, lint, browser (the
# flame graph's SVG in headless Chromium: tests/browser/; the full tier
# only, its packages are the `browser` profile).  A GROUP
# "A+B" runs suites A and B side by side; groups run one after the other.
#
# --tier (the make targets' choice; tests/vm/tiers.sh):
#   fast  one kernel line (6.12): lint against it, the self-test's guests
#         on it, its fast list of guest tests on both CPUs;
#   full  every line (KERNEL, default all five, and 6.12-mttcg: the race
#         tests under multi-threaded TCG) and each line's whole list.
# --deps: the package profiles to install first (tests/vm/deps.sh), timed
# as the first phase.  What the guest suite will need -- kernel images and
# headers, the trixie build root, LTTng builds, our modules, the debug
# kernel, the package test's root -- is fetched and built in the
# background from the start, while the host suites run; the suites that
# need it later wait for it under its lock and find it done.
set -u
. "$(dirname "$0")/vm/common.sh"

tier=full deps=
while [ $# -gt 0 ]; do
	case $1 in
	--tier) tier=${2:?--tier fast|full}; shift ;;
	--deps) deps=${2?--deps PROFILES}; shift ;;
	*) break ;;
	esac
	shift
done
case $tier in
fast) KERNEL=${KERNEL:-6.12} ;;
full) KERNEL=${KERNEL:-$LT_ALL_KERNEL_LINES 6.12-mttcg} ;;
*) lt_die "unknown tier '$tier' (fast, full)" ;;
esac
export KERNEL
# Lint builds against the Debian lines (the debug kernel and the
# multi-threaded lane build what 6.1 and 6.12 build).
lint_lines=$(for k in $KERNEL; do case $k in debug | *-mttcg) ;; *) echo "$k" ;; esac; done | paste -sd' ')
selftest_line=${KERNEL%% *}
case " $KERNEL " in *" 6.12 "*) selftest_line=6.12 ;; esac

phases=$(mktemp)
trap 'rm -f "$phases"' EXIT

suite_cmd() {
	local a
	case $1 in
	unit) echo "nice -n $LT_BUILD_NICE make -s -j$(nproc) -C $LT_TOP/tests/unit all && $LT_TOP/tests/unit/run.sh" ;;
	daemon) echo "$LT_TOP/tests/tools/run.sh" ;;
	selftest) echo "$LT_TOP/tests/vm/selftest.sh $selftest_line" ;;
	lint) echo "LT_KERNEL_LINES='$lint_lines' $LT_TOP/tests/lint.sh" ;;
	vm) a=" -T $tier"
	    for k in $KERNEL; do a+=" -k $k"; done
	    for t in ${T:-}; do a+=" -t $t"; done
	    echo "LT_PHASES=$phases $LT_TOP/tests/vm/check-vm.sh$a" ;;
	# dkms.conf and DKMS's build on the lines the package test does not
	# cover (it builds for 6.1 through apt): 6.12, and 7.x through its
	# build root's dkms.  7.x-rt's headers build the same sources as 7.x's
	# through the same dkms (vm builds them for its guests).
	dkms) echo "LT_KERNEL_LINES=\"\${LT_DKMS_LINES:-6.12 current}\" $LT_TOP/tests/vm/check-dkms.sh" ;;
	deb) echo "$LT_TOP/tests/pkg/check-deb.sh" ;;
	browser) echo "$LT_TOP/tests/browser/run.sh" ;;
	*) return 1 ;;
	esac
}
for group in "$@"; do
	IFS=+ read -r -a members <<<"$group"
	for s in "${members[@]}"; do
		suite_cmd "$s" >/dev/null ||
			lt_die "unknown suite '$s' (known: unit daemon selftest vm dkms deb lint browser)"
		# Chromium is for the full tier: the fast one installs none.
		[ "$s" != browser ] || [ "$tier" = full ] ||
			lt_die "suite browser runs in the full tier only (--tier full)"
	done
done

t0=$(date +%s)
# phase NAME START END [CPU]: a row of the table (check-vm.sh adds its
# own rows, "V<tab>NAME<tab>WALL").
phase() { printf 'T\t%s\t%s\t%s\t%s\n' "$1" $(($2 - t0)) $(($3 - $2)) "${4:-}" >>"$phases"; }
# cputime: the CPU seconds (user and system) of what this shell has run
# and waited for, its children's children too (what a child left running
# when it ended is not in it).
# (times must run in this shell: a subshell's children are not its.)
cputime() {
	local f
	f=$(mktemp)
	times >"$f"
	awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); s += a[1] * 60 + a[2] }
		printf "%d\n", s }' "$f"
	rm -f "$f"
}

passed=0 failed=0
# count SUITE LOG RC: add a finished suite's results to the totals.
count() {
	local s=$1 log=$2 rc=$3 p f
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
	lt_log "suite $s: $p passed, $f failed"
}

if [ -n "$deps" ]; then
	s0=$(date +%s)
	lt_log "packages: $deps"
	if ! "$LT_TOP/tests/vm/deps.sh" $deps; then
		echo "not ok - packages: tests/vm/deps.sh $deps failed"
		failed=$((failed + 1))
	fi
	phase packages "$s0" "$(date +%s)"
fi

# What the guest suites will need, in the background from now on (logs
# under $LT_CACHE/tmp).  Each waits for nothing but its own locks.
mkdir -p "$LT_CACHE/tmp"
bg=()
background() { # name cmd...
	local name=$1
	shift
	lt_log "background: $name (log: $LT_CACHE/tmp/$name.log)"
	(
		s0=$(date +%s)
		"$@" >"$LT_CACHE/tmp/$name.log" 2>&1
		cputime >"$LT_CACHE/tmp/$name.cpu"
		phase "background: $name" "$s0" "$(date +%s)" "$(cat "$LT_CACHE/tmp/$name.cpu")"
	) &
	bg+=($!)
}
# Only when the guest suite comes in a later group (make check's
# selftest+vm); in the first group (make check-full, make check-vm) it
# prepares its lines itself, at once.
case " ${*:2} " in *vm*)
	# The debug kernel (built here once) first: the longest.
	case " $KERNEL " in *" debug "*)
		background debug-kernel "$LT_TOP/tests/vm/kernel.sh" fetch debug ;;
	esac
	background prepare-lines "$LT_TOP/tests/vm/check-vm.sh" --prepare \
		$(for k in $KERNEL; do echo "-k $k"; done)
	;;
esac
case " $* " in *deb*)
	background deb-root "$LT_TOP/tests/pkg/check-deb.sh" prepare ;;
esac

# A suite runs alone, its output as it comes; "A+B" runs suites A and B at
# once, the output of each shown whole when both are done, in order.
for group in "$@"; do
	IFS=+ read -r -a members <<<"$group"
	s0=$(date +%s)
	if [ ${#members[@]} = 1 ]; then
		s=${members[0]} log=$(mktemp)
		lt_log "suite $s: start"
		(
			bash -o pipefail -c "$(suite_cmd "$s")" 2>&1 | tee "$log"
			rc=${PIPESTATUS[0]}
			cputime >"$log.cpu"
			exit "$rc"
		)
		count "$s" "$log" "$?"
		phase "$s" "$s0" "$(date +%s)" "$(cat "$log.cpu")"
		rm -f "$log" "$log.cpu"
		continue
	fi
	declare -A logs=() pids=() ends=()
	for s in "${members[@]}"; do
		lt_log "suite $s: start (beside: ${group//+/ })"
		logs[$s]=$(mktemp)
		(
			bash -o pipefail -c "$(suite_cmd "$s")" >"${logs[$s]}" 2>&1
			rc=$?
			{ date +%s; cputime; } >"${logs[$s]}.end"
			exit $rc
		) &
		pids[$s]=$!
	done
	for s in "${members[@]}"; do
		wait "${pids[$s]}"
		rc=$?
		cat "${logs[$s]}"
		count "$s" "${logs[$s]}" "$rc"
		{ read -r end; read -r cpu; } <"${logs[$s]}.end"
		phase "$s" "$s0" "$end" "$cpu"
		rm -f "${logs[$s]}" "${logs[$s]}.end"
	done
	unset logs pids ends
done
# The background work ends with the suites that needed it; what is left
# (a suite did not need it after all) is not waited for.
kill "${bg[@]}" 2>/dev/null
wait "${bg[@]}" 2>/dev/null

# The table: every phase with its start (minutes:seconds from the start),
# wall time and CPU time (user and system, all its processes); the guest
# suite's own phases (each line's preparation, each guest) indented under
# it, with their wall times.
mmss() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }
total=$(($(date +%s) - t0))
echo "# phase                                   start     wall      cpu"
grep $'^T\t' "$phases" | sort -t$'\t' -k3,3n -s | while IFS=$'\t' read -r _ name start wall cpu; do
	printf '# %-38s %7s %8s %8s\n' "$name" "$(mmss "$start")" "$(mmss "$wall")" \
		"$([ -z "$cpu" ] || mmss "$cpu")"
done
grep $'^V\t' "$phases" | while IFS=$'\t' read -r _ name wall; do
	printf '#   vm: %-34s %5s %8s\n' "$name" "" "$(mmss "$wall")"
done
printf '# %-38s %7s %8s\n' "total ($tier tier)" "" "$(mmss "$total")"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
