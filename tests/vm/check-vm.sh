#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# check-vm.sh [-k KERNEL]... [-t TEST]... - run guest tests in QEMU.
#
# KERNEL: a kernel line (default: all of LT_KERNEL_LINES), or debug
# (tests/vm/kernel.sh lists them), or LINE-mttcg: LINE's kernel under
# multi-threaded TCG, where the two vCPUs really run at once (the race
# tests, MTTCG in tests/vm/tiers.sh).  TEST: the name of a script
# tests/guest/TEST.sh (default: the tests of the kernel's tier, see
# tier_tests(); never the harness self-test ones).
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
# LT_GUESTS guests (default: one per 30 tests, LT_TESTS_PER_GUEST;
# LT_DEBUG_GUESTS on the debug kernel).
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
. "$LT_TOP/tests/vm/tiers.sh"

all_tests() {
	local f
	for f in "$LT_TOP"/tests/guest/*.sh; do
		f=$(basename "$f" .sh)
		case $f in lib | demo | bench | selftest-*) continue ;; esac
		echo "$f"
	done
}

# The longest tests, longest first, as measured on 6.12: the order of the
# tests a line has not run yet (a fresh cache).
COST_ORDER="oracle-syscalls daemon-snapshot daemon-unload torture offcpu"
COST_ORDER+=" stacks-budget daemon-faults filters-cgroup syscalls-ends wakeup"
COST_ORDER+=" block filters oracle-offcpu hotplug fuzz-procfs explain-flock"
COST_ORDER+=" alerts-unload security explain-pool explain-disk explain-timeline"
COST_ORDER+=" explain-compare explain-cpu daemon-sandbox explain-lock"
COST_ORDER+=" oracle-wakeup explain-pipe explain-bad daemon-explain lttng-probe"

# What a test costs on a line, in ms: what it took there in its last run
# ($LT_CACHE/test-ms/LINE/TEST, written after each boot); else above 60 s
# in COST_ORDER's order when it is named there, else 30 s.
costs=$LT_CACHE/test-ms
test_cost() { # line test
	local c t k=0
	c=$(cat "$costs/$1/$2" 2>/dev/null)
	if [ -z "$c" ]; then
		c=30000
		for t in $COST_ORDER; do
			k=$((k + 1))
			[ "$t" = "$2" ] && c=$((100000 - k * 1000))
		done
	fi
	echo "$c"
}

# Deal TESTS out to N guests, the longest first, each to the guest with
# the least so far (by test_cost); prints guest I's, the tests that need
# boot options of their own last (each has a boot of its own: in the
# middle, one more boot for the tests after it).
shard() { # n i line tests...
	local n=$1 i=$2 line=$3 t mine=() late=()
	shift 3
	mapfile -t mine < <(for t in "$@"; do echo "$(test_cost "$line" "$t") $t"; done |
		sort -s -k1,1nr | awk -v n="$n" -v i="$i" '
		{ g = 1; for (j = 2; j <= n; j++) if (load[j] < load[g]) g = j
		  load[g] += $1; if (g == i) print $2 }')
	for t in "${mine[@]}"; do
		if own_boot "$t" "$line"; then late+=("$t"); else echo "$t"; fi
	done
	for t in "${late[@]}"; do echo "$t"; done
}

kernels=() tests=() tier=full listonly=0 prepareonly=0
while [ $# -gt 0 ]; do
	case $1 in
	--list) listonly=1 ;;
	--prepare) prepareonly=1 ;;
	-k) kernels+=(${2:?-k LINE}); shift ;;
	-t) tests+=(${2:?-t TEST}); shift ;;
	-T) tier=${2:?-T fast|full}; shift ;;
	*) lt_die "usage: check-vm.sh [-T fast|full] [-k KERNEL]... [-t TEST]... [--list|--prepare]" ;;
	esac
	shift
done
case $tier in fast | full) ;; *) lt_die "unknown tier '$tier' (fast, full)" ;; esac
bad=$(tier_lint $(all_tests))
[ -z "$bad" ] || lt_die "$bad"
if [ ${#kernels[@]} = 0 ]; then
	kernels=($LT_KERNEL_LINES)
	[ $tier = fast ] && kernels=(6.12)
fi
explicit=${#tests[@]}
[ "$explicit" = 0 ] && tests=($(all_tests))
for k in "${kernels[@]}"; do
	case " $LT_ALL_KERNEL_LINES " in *" ${k%-mttcg} "*) ;; *)
		lt_die "unknown KERNEL '$k'; valid: $LT_ALL_KERNEL_LINES (and LINE-mttcg)" ;;
	esac
done
for t in "${tests[@]}"; do
	[ -f "$LT_TOP/tests/guest/$t.sh" ] && [ "$t" != lib ] ||
		lt_die "unknown test '$t'; valid: $(all_tests | tr '\n' ' ')(harness self-tests:$(cd "$LT_TOP/tests/guest" && ls selftest-*.sh | sed 's/\.sh$//; s/^/ /' | tr -d '\n'))"
done
# The tests a line runs: those named (-t), else its tier's.
line_tests() { # line
	if [ "$explicit" != 0 ]; then
		printf '%s\n' "${tests[@]}"
	else
		tier_tests "$1" "$tier"
	fi
}
if [ $listonly = 1 ]; then
	for k in "${kernels[@]}"; do
		echo "$k ($tier): $(line_tests "$k" | tr '\n' ' ')"
	done
	exit 0
fi
lt_need_root

host_prep() { # kver log
	"$LT_TOP/tests/vm/host-prep.sh" "$1" >"$2" 2>&1
}

# Fetch a kernel, prepare the host, build our modules for it; prints
# "kver kodir rundir", or reports the failure and returns 1.
prepare_kernel() { # line
	local line=$1 kver kodir run
	kver=$(lt_stage "fetch kernel $line" "$LT_TOP/tests/vm/kernel.sh" fetch "${line%-mttcg}") ||
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
	lt_stage "initramfs for $kver" "$LT_TOP/tests/vm/initramfs.sh" "$kver" >/dev/null ||
		{ report fail "$line/initramfs" "(cannot build the guest's initramfs)"; return 1; }
	echo "$kver $kodir $run"
}

# --prepare: only what the lines' guests will need, every line at once
# (check.sh runs this in the background while the host suites run); the
# run directories it made are removed.  Exit status: 0 when every line is
# ready.
if [ $prepareonly = 1 ]; then
	rc=0
	for k in "${kernels[@]}"; do
		(
			r=$(prepare_kernel "$k") || { echo "$r"; exit 1; }
			read -r _ _ run <<<"$r"
			rm -rf "$run"
		) &
	done
	for p in $(jobs -p); do wait "$p" || rc=1; done
	exit $rc
fi

# Extra kernel command line a test asks for: a line
# "# lt-boot-append: OPTIONS" among its first lines (e.g. rcu_nocbs=all).
boot_append_of() { # test
	sed -n '1,10s/^# lt-boot-append: //p' "$LT_TOP/tests/guest/$1.sh" | head -n 1
}

# Guest memory a test asks for, in QEMU's -m syntax: a line
# "# lt-guest-mem: SIZE" among its first lines (e.g. 2G).
guest_mem_of() { # test
	sed -n '1,10s/^# lt-guest-mem: //p' "$LT_TOP/tests/guest/$1.sh" | head -n 1
}

# A line's guest memory: 1G (LT_GUEST_MEM), 2G on the debug kernel
# (LT_DEBUG_GUEST_MEM), where a boot costs minutes: there the tests that
# ask for 2G share the others' boot.
line_mem() { # line
	if [ "$1" = debug ]; then
		echo "${LT_DEBUG_GUEST_MEM:-2G}"
	else
		echo "${LT_GUEST_MEM:-1G}"
	fi
}

# The memory a test asks for, unless its line's guests have that already.
test_mem() { # test line
	local m
	m=$(guest_mem_of "$1")
	[ "$m" = "$(line_mem "$2")" ] && m=
	echo "$m"
}

# A test that asks for boot options, or for memory its line's guests do
# not have, gets a boot of its own.
own_boot() { # test line
	[ -n "$(boot_append_of "$1")$(test_mem "$1" "$2")" ]
}

# Run tests of a prepared kernel in one guest, in as many boots as crashes
# need, and a boot of its own for each test that asks for boot options or
# memory (own_boot); WHO names the guest in the results when a kernel has
# several.
boot_kernel() { # line kver kodir rundir who tests...
	local line=$1 kver=$2 kodir=$3 run=$4 who=$5 kmods boot=0 remaining t tmo
	local all batch rest append mem boot_retried=0
	shift 5
	kmods=$LT_CACHE/kernels/$kver/root/lib/modules/$kver
	# A kernel built with kmemleak must give its report (final-unload).
	local kmemleak=0
	lt_kconfig_has "$kver" DEBUG_KMEMLEAK && kmemleak=1
	kmemleak=${LT_EXPECT_KMEMLEAK:-$kmemleak} # the self-test's
	tmo=$LT_TEST_TIMEOUT
	[ "$line" = debug ] && tmo=$LT_DEBUG_TEST_TIMEOUT
	local LT_TEST_TIMEOUT=$tmo # what judge() names as the limit
	# Under multi-threaded TCG, the torture test's companion probes
	# (every event of the systems in tests/guest/torture.systems) are
	# enabled on the command line, before the second CPU runs (see
	# torture.sh: text patching under multi-threaded TCG).
	local tcg=${LT_TCG_THREAD:-single} mt= ev
	if [ "${line%-mttcg}" != "$line" ]; then
		ev=$(grep -v '^#' "$LT_TOP/tests/guest/torture.systems" | sed 's/$/:/' | paste -sd,)
		tcg=multi mt="trace_event=$ev trace_instance=lt_torture,$ev"
	fi
	all=("$@")
	mkdir -p "$run"
	while [ ${#all[@]} -gt 0 ]; do
		# This boot: the next test with boot options or memory of
		# its own alone, else the tests up to the next such one.
		append=$(boot_append_of "${all[0]}")
		mem=$(test_mem "${all[0]}" "$line")
		remaining=("${all[0]}") rest=("${all[@]:1}")
		while [ -z "$append$mem" ] && [ ${#rest[@]} -gt 0 ] &&
			! own_boot "${rest[0]}" "$line"; do
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
			LT_KMEMLEAK='$kmemleak'
		JOB
		# The tier's settings, then the LTG_* variables of the
		# environment (seeds, durations), which win.
		tier_env "$line" "$tier" >>"$d/job.env"
		for v in $(compgen -e | grep '^LTG_'); do
			printf "%s=%q\n" "$v" "${!v}" >>"$d/job.env"
		done
		LT_GUEST_APPEND="${LT_GUEST_APPEND:-} $mt $append" LT_TEST_TIMEOUT=$tmo \
			LT_GUEST_MEM=${mem:-$(line_mem "$line")} LT_TCG_THREAD=$tcg \
			lt_stage "boot $boot on $kver (${#remaining[*]} tests${append:+, $append}${mem:+, $mem of memory}${mt:+, multi-threaded TCG})" \
			"$LT_TOP/tests/vm/qemu.sh" "$kver" "$d" "$((tmo * ${#remaining[@]} + 120))"
		# Each boot consumes at least one test, so this loop ends: the
		# tests after one that took the guest down run in a new boot.
		local left=() down=0 reached=0
		for t in "${remaining[@]}"; do
			[ -e "$d/$t.rc" ] || [ -e "$d/$t.started" ] && reached=1
		done
		# A kernel that died booting, before any module of ours was
		# loaded (a test with boot options may load them at boot):
		# not a result of the tests; booted once more.  Multi-threaded
		# TCG has taken Debian's 6.12 down while it patched its own
		# text (int3 at sched_clock_cpu, 2 s into boot).
		if [ $reached = 0 ] && [ $boot_retried = 0 ] && [ -z "$append" ] &&
			grep -qE "$LT_SPLAT_RE" "$d/console.log" &&
			! grep -q latency_tracker "$d/console.log"; then
			boot_retried=1
			echo "# ${who}boot $boot: the kernel went down before the tests, none of ours loaded; booting again"
			console_excerpt "$d/console.log"
			continue
		fi
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
		mkdir -p "$costs/$line"
		for t in "${remaining[@]}"; do
			[ -s "$d/$t.ms" ] && lt_put "$costs/$line/$t" <"$d/$t.ms"
		done
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
		[ $down = 0 ] && judge_kmemleak "$line" "$d" "$who" "$kmemleak"
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

# phase NAME T0: one line "NAME SECONDS" for check.sh's table of phase
# durations (LT_PHASES), when it asks.
phase() { # name t0
	[ -n "${LT_PHASES:-}" ] && printf 'V\t%s\t%s\n' "$1" $(($(date +%s) - $2)) >>"$LT_PHASES"
	return 0
}

out=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$out"' EXIT

# Every line is prepared at once, in the background (they share caches
# under locks: a kernel's fetch and build hold that kernel's lock, the
# host tools and LTTng builds take turns), and a line's guests start as
# soon as it is ready: a cold run downloads and builds one line while the
# guests of another run.
for k in "${kernels[@]}"; do
	(
		t0=$(date +%s)
		prepare_kernel "$k" >"$out/$k.prep"
		rc=$?
		phase "prepare-$k" "$t0"
		echo $rc >"$out/$k.prepared"
	) &
done

# The lines in the order their guests should start, the longest first
# (the longest guests first pack best on few CPUs): by how long its
# longest guest took in the last run of this tier that ran the whole list
# (LT_CACHE/lane-seconds/LINE.GUEST.TIER), else by the number of tests
# (30 s each); with -t, as given.  After them the debug kernel, then the
# multi-threaded lines (rank), each queued only once every line of a lower
# rank has been: the debug kernel's guests keep their CPU busy, where the
# other lines' guests leave a quarter of theirs idle in their tests'
# sleeps, which the builds running beside the guests (check-full's other
# suites) take -- beside the builds, the debug guests and the builds only
# slow each other down; a multi-threaded guest wants both CPUs, and takes
# the one that the first of the last two guests to end leaves.
rank() { # line
	case $1 in
	debug) echo 1 ;;
	*-mttcg) echo 2 ;;
	*) echo 0 ;;
	esac
}
lanes=$LT_CACHE/lane-seconds
mkdir -p "$lanes"
order=()
for k in $(for k in "${kernels[@]}"; do
		n=0
		if [ "$explicit" = 0 ]; then
			# Its longest guest.
			n=$(cat "$lanes/$k".[0-9]*".$tier" 2>/dev/null | sort -n | tail -n 1)
			[ -n "$n" ] || n=$(($(line_tests "$k" | wc -l) * 30))
		fi
		echo "$(rank "$k") $n $k"
	done | sort -s -k1,1n -k2,2nr | cut -d' ' -f3); do
	order+=("$k")
done
# waiting LINE: a line of a lower rank than LINE is not queued yet.
waiting() {
	local k r
	r=$(rank "$1")
	for k in "${order[@]}"; do
		[ "$(rank "$k")" -lt "$r" ] || continue
		case $queued in *" $k "*) ;; *) return 0 ;; esac
	done
	return 1
}

# Guests of a line: LT_GUESTS if set, else two on the debug kernel
# (LT_DEBUG_GUESTS) and in the fast tier (one line: both host CPUs), else
# one per LT_TESTS_PER_GUEST tests (30) up to LT_PARALLEL_GUESTS: a long
# line in one guest would run alone at the end of the run, the other
# CPUs idle.
LT_TESTS_PER_GUEST=${LT_TESTS_PER_GUEST:-30}
guests_of() { # line ntests
	local ng
	ng=$(( ($2 + LT_TESTS_PER_GUEST - 1) / LT_TESTS_PER_GUEST ))
	[ "$ng" -gt "$LT_PARALLEL_GUESTS" ] && ng=$LT_PARALLEL_GUESTS
	[ $tier = fast ] && ng=$LT_PARALLEL_GUESTS
	[ "$1" = debug ] && ng=$LT_DEBUG_GUESTS
	ng=${LT_GUESTS:-$ng}
	[ "${1%-mttcg}" = "$1" ] || ng=1
	[ "$ng" -gt "$2" ] && ng=$2
	echo "$ng"
}

# queue_line LINE: its guests' jobs, in the queue; or its failure printed.
queue=() queued=" "
queue_line() {
	local k=$1 kver kodir run list ng i g dir who
	queued+="$k "
	if [ "$(cat "$out/$k.prepared")" != 0 ]; then
		emit "$out/$k.prep"
		return
	fi
	read -r kver kodir run <"$out/$k.prep"
	mapfile -t list < <(line_tests "$k")
	[ ${#list[@]} -gt 0 ] || return 0
	ng=$(guests_of "$k" ${#list[@]})
	for i in $(seq 1 "$ng"); do
		g=$k.$i
		dir=$run who=
		[ "$ng" -gt 1 ] && dir=$run/guest$i who="guest $i of $ng: "
		printf '%s\n' "$k" "$kver" "$kodir" "$dir" "$who" \
			$(shard "$ng" "$i" "$k" "${list[@]}") >"$out/$g.job"
		queue+=("$g")
	done
}

start_guest() { # g
	local a
	mapfile -t a <"$out/$1.job"
	(
		t0=$(date +%s)
		boot_kernel "${a[@]}" >"$out/$1.out"
		phase "guests-$1" "$t0"
		# How long this guest took, its line's list whole.
		[ "$explicit" = 0 ] && echo $(($(date +%s) - t0)) >"$lanes/$1.$tier"
		touch "$out/$1.done"
	) &
}

# Queue the lines as they are prepared, in their order; start guests while
# fewer than LT_PARALLEL_GUESTS run, the queue's first (the longest line
# ready) first; print each guest's results when it is done.
next=0 running=0 printed=0
while :; do
	for k in "${order[@]}"; do
		case $queued in *" $k "*) continue ;; esac
		waiting "$k" && continue
		[ -e "$out/$k.prepared" ] && queue_line "$k"
	done
	# The queue in line order: a line prepared later may come first.
	sorted=()
	for k in "${order[@]}"; do
		for g in "${queue[@]:next}"; do
			[ "${g%.*}" = "$k" ] && sorted+=("$g")
		done
	done
	queue=("${queue[@]:0:next}" "${sorted[@]}")
	while [ $running -lt "$LT_PARALLEL_GUESTS" ] && [ $next -lt ${#queue[@]} ]; do
		start_guest "${queue[next]}"
		next=$((next + 1)) running=$((running + 1))
	done
	for g in "${queue[@]:0:next}"; do
		[ -e "$out/$g.done" ] && [ ! -e "$out/$g.printed" ] || continue
		emit "$out/$g.out"
		touch "$out/$g.printed"
		printed=$((printed + 1)) running=$((running - 1))
	done
	[ "$(wc -w <<<"$queued")" = ${#kernels[@]} ] && [ $printed = ${#queue[@]} ] && break
	sleep 2
done
wait
echo "1..$n"
echo "# guest tests: $passed passed, $failed failed (kernels: ${kernels[*]})"
[ -n "${LT_COUNTS:-}" ] && echo "$passed $failed" >"$LT_COUNTS"
[ "$failed" = 0 ]
