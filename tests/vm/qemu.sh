#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# qemu.sh KVER RESULTS_DIR TIMEOUT_S - boot the test guest for a kernel
# unpacked in the cache, with the host root shared read-only and RESULTS_DIR
# shared read-write; the console goes to RESULTS_DIR/console.log.
# Exit status: QEMU's, or 124 on timeout.
#
# Acceleration: TCG by default.  KVM only when LT_ACCEL=kvm, or when
# LT_ACCEL=auto (the default) and a one-time probe (cached per host boot
# in $LT_CACHE/kvm-probe/) showed that a KVM guest really boots here.
#
# TCG is single-threaded (both vCPUs take turns on one host thread) unless
# LT_TCG_THREAD=multi: under multi-threaded TCG the kernel's live text
# patching (static keys and static calls flipped when the first probe
# attaches to a tracepoint) can race with the other vCPU and wedge the
# guest for good -- RCU "self-detected stall", "timer wakeup didn't
# happen" on the other CPU, "soft lockup ... [insmod]" -- seen on the
# debug kernel twice and on Debian's 6.1 once, in CI (daemon-faults,
# loading the wakeup tracker).  check-vm.sh runs the kernels side by side
# instead, one host thread each.
#
# no_timer_check: under a loaded host the emulated IO-APIC timer check can
# fail and panic the boot ("IO-APIC + timer doesn't work").
# softlockup_panic=1: a wedged guest panics (and QEMU exits) at the first
# soft lockup report instead of waiting for the boot's timeout; a soft
# lockup fails the test anyway.
# loglevel=4 quiet: only errors reach the (slow, emulated) serial console;
# the harness judges the kernel log streamed from /dev/kmsg instead, which
# has every record at every level (guest-run.sh).  log_buf_len=4M: room for
# the whole boot's log before that stream starts, and for a burst the
# stream's reader has not caught up with yet.
# A kernel may carry extra boot options of its own in
# $LT_CACHE/kernels/KVER/append (the debug kernel does, see debug-kernel.sh).
#
# Watchdog: besides the boot's overall TIMEOUT_S, QEMU is killed when the
# guest makes no progress (no test started or finished: <test>.started,
# <test>.rc in RESULTS_DIR) for LT_TEST_TIMEOUT + LT_WATCHDOG_GRACE (60)
# seconds -- the guest kills a test at LT_TEST_TIMEOUT itself, so only a
# wedged guest gets there.  Until the first test starts, the boot may take
# LT_BOOT_TIMEOUT (300) seconds if that is longer: on a loaded host (other
# guests, a kernel build) a boot took over 30 s.  The reason is written to
# RESULTS_DIR/watchdog.
#
# Priority: QEMU runs at nice LT_GUEST_NICE (-10 as root, the harness's
# case): what the tests judge is timing inside the guest, and the host's
# builds beside the guests (lint, dkms, the packages, the next lines'
# preparation) take the CPU time the guests leave, rather than a share of
# what they need (the debug kernel's tests are bound by the CPU).
set -u
. "$(dirname "$0")/common.sh"

kver=${1:?kver} results=${2:?results dir} tmo=${3:?timeout}
kroot=$LT_CACHE/kernels/$kver/root
kernel=$kroot/boot/vmlinuz-$kver
[ -e "$kernel" ] || lt_die "no kernel image $kernel"
kappend=$(cat "$LT_CACHE/kernels/$kver/append" 2>/dev/null)
initrd=$("$LT_TOP/tests/vm/initramfs.sh" "$kver") || exit 1
command -v qemu-system-x86_64 >/dev/null || lt_die "qemu-system-x86_64 missing (package qemu-system-x86)"
prio=${LT_GUEST_NICE:-$([ "$(id -u)" = 0 ] && echo -10 || echo 0)}

boot() { # accel-args... ; uses kernel initrd results tmo
	timeout --kill-after=10 "$tmo" nice -n "$prio" qemu-system-x86_64 "$@" \
		-m "${LT_GUEST_MEM:-1G}" -smp "${LT_GUEST_CPUS:-2}" \
		-nodefaults -no-reboot -display none -monitor none \
		-serial "file:$results/console.log" \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 oops=panic softlockup_panic=1 loglevel=4 quiet log_buf_len=4M no_timer_check $kappend ${LT_GUEST_APPEND:-}" \
		-fsdev local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap \
		-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot \
		-fsdev local,id=ltresults,path="$results",security_model=none,multidevs=remap \
		-device virtio-9p-pci,fsdev=ltresults,mount_tag=ltresults \
		</dev/null >>"$results/qemu.log" 2>&1
}

# Seconds since the guest last started or finished a test (or booted).
idle_seconds() { # t0
	local newest=$1 f m
	for f in "$results"/*.started "$results"/*.rc; do
		# The guest removes a .started file when its test ends: one
		# gone between the glob and stat is skipped (its .rc counts).
		m=$(stat -c %Y "$f" 2>/dev/null) || continue
		[ "$m" -gt "$newest" ] && newest=$m
	done
	echo $(($(date +%s) - newest))
}

# boot() under the progress watchdog; returns boot()'s status.
watched_boot() { # accel-args...
	local pid t0 idle running lim
	local limit=$((${LT_TEST_TIMEOUT:-300} + ${LT_WATCHDOG_GRACE:-60}))
	local boot_limit=${LT_BOOT_TIMEOUT:-300}
	t0=$(date +%s)
	boot "$@" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 5
		idle=$(idle_seconds "$t0")
		lim=$limit
		# Until the first test starts, the boot's own allowance.
		if ! ls "$results"/*.started "$results"/*.rc >/dev/null 2>&1 &&
			[ "$boot_limit" -gt "$lim" ]; then
			lim=$boot_limit
		fi
		[ "$idle" -le "$lim" ] && continue
		running=$(cd "$results" && ls -- *.started 2>/dev/null | sed 's/\.started$//')
		echo "no progress for ${idle}s (running: ${running:-no test}); QEMU killed" \
			>"$results/watchdog"
		pkill -TERM -P "$pid" timeout 2>/dev/null
		kill -TERM "$pid" 2>/dev/null
		break
	done
	wait "$pid"
}

tcg_args=(-accel "tcg,thread=${LT_TCG_THREAD:-single}" -cpu max)
kvm_args=(-accel kvm -cpu host)

# The probe runs once per host boot; guests started at once wait for the
# first one's answer (a lock, and the answer renamed into place whole).
kvm_works() {
	local dir=$LT_CACHE/kvm-probe stamp answer
	stamp=$dir/$(cat /proc/sys/kernel/random/boot_id)
	mkdir -p "$dir" || return 1
	answer=$({
		flock 8
		if [ ! -s "$stamp" ]; then
			tmp=$(mktemp -d)
			cp "$LT_TOP/tests/vm/kvm-probe-run.sh" "$tmp/guest-run.sh"
			if [ -r /dev/kvm ] && (results=$tmp tmo=60 boot "${kvm_args[@]}") 2>/dev/null &&
				grep -q LT-KVM-OK "$tmp/console.log"; then
				echo yes
			else
				echo no
			fi | lt_put "$stamp"
			rm -rf "$tmp"
		fi
		cat "$stamp"
	} 8>>"$dir/.lock")
	[ "$answer" = yes ]
}

case ${LT_ACCEL:-auto} in
tcg) accel=("${tcg_args[@]}") ;;
kvm) accel=("${kvm_args[@]}") ;;
auto) if kvm_works; then accel=("${kvm_args[@]}"); else accel=("${tcg_args[@]}"); fi ;;
*) lt_die "LT_ACCEL must be auto, tcg or kvm" ;;
esac
echo "${accel[1]%%,*}" >"$results/accel"
watched_boot "${accel[@]}"
