#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# qemu.sh KVER RESULTS_DIR TIMEOUT_S - boot the test guest for a kernel
# unpacked in the cache, with the host root shared read-only and RESULTS_DIR
# shared read-write; the console goes to RESULTS_DIR/console.log.
# Exit status: QEMU's, or 124 on timeout.
#
# Acceleration: TCG by default.  KVM only when LT_ACCEL=kvm, or when
# LT_ACCEL=auto (the default) and a one-time probe (cached per host boot)
# showed that a KVM guest really boots here.
# no_timer_check: under a loaded host the emulated IO-APIC timer check can
# fail and panic the boot ("IO-APIC + timer doesn't work").  A kernel may
# carry extra boot options of its own in $LT_CACHE/kernels/KVER/append, and
# the TCG threading it needs in $LT_CACHE/kernels/KVER/tcg-thread (single
# or multi, the default); the debug kernel has both (see debug-kernel.sh).
set -u
. "$(dirname "$0")/common.sh"

kver=${1:?kver} results=${2:?results dir} tmo=${3:?timeout}
kroot=$LT_CACHE/kernels/$kver/root
kernel=$kroot/boot/vmlinuz-$kver
[ -e "$kernel" ] || lt_die "no kernel image $kernel"
kappend=$(cat "$LT_CACHE/kernels/$kver/append" 2>/dev/null)
tcg_thread=$(cat "$LT_CACHE/kernels/$kver/tcg-thread" 2>/dev/null)
initrd=$("$LT_TOP/tests/vm/initramfs.sh" "$kver") || exit 1
command -v qemu-system-x86_64 >/dev/null || lt_die "qemu-system-x86_64 missing (package qemu-system-x86)"

boot() { # accel-args... ; uses kernel initrd results tmo
	timeout --kill-after=10 "$tmo" qemu-system-x86_64 "$@" \
		-m "${LT_GUEST_MEM:-1G}" -smp "${LT_GUEST_CPUS:-2}" \
		-nodefaults -no-reboot -display none -monitor none \
		-serial "file:$results/console.log" \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 oops=panic loglevel=4 quiet no_timer_check $kappend ${LT_GUEST_APPEND:-}" \
		-fsdev local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap \
		-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot \
		-fsdev local,id=ltresults,path="$results",security_model=none,multidevs=remap \
		-device virtio-9p-pci,fsdev=ltresults,mount_tag=ltresults \
		</dev/null >>"$results/qemu.log" 2>&1
}

tcg_args=(-accel "tcg,thread=${tcg_thread:-multi}" -cpu max)
kvm_args=(-accel kvm -cpu host)

kvm_works() {
	local stamp=$LT_CACHE/kvm-probe.$(cat /proc/sys/kernel/random/boot_id) dir
	[ -e "$stamp" ] && { [ "$(cat "$stamp")" = yes ]; return; }
	mkdir -p "$LT_CACHE"
	dir=$(mktemp -d)
	cp "$LT_TOP/tests/vm/kvm-probe-run.sh" "$dir/guest-run.sh"
	if [ -r /dev/kvm ] && (results=$dir tmo=60 boot "${kvm_args[@]}") 2>/dev/null &&
		grep -q LT-KVM-OK "$dir/console.log"; then
		echo yes >"$stamp"
	else
		echo no >"$stamp"
	fi
	rm -rf "$dir"
	[ "$(cat "$stamp")" = yes ]
}

case ${LT_ACCEL:-auto} in
tcg) accel=("${tcg_args[@]}") ;;
kvm) accel=("${kvm_args[@]}") ;;
auto) if kvm_works; then accel=("${kvm_args[@]}"); else accel=("${tcg_args[@]}"); fi ;;
*) lt_die "LT_ACCEL must be auto, tcg or kvm" ;;
esac
echo "${accel[1]%%,*}" >"$results/accel"
boot "${accel[@]}"
