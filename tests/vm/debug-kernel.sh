#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# debug-kernel.sh - build (once; cached outside the checkout) a Linux 6.1
# kernel from Debian's linux-source-6.1 with the checkers the kernel's own
# developers rely on: KASAN, lockdep (PROVE_LOCKING, PROVE_RCU), atomic-sleep
# and list debugging, RCU-head debug objects, kmemleak.  Installs it into the
# cache like an unpacked Debian image; prints its release.  About 20
# core-minutes (13 min on 2 cores with a guest beside it).  The cache key is the source version and the configuration
# below; an interrupted build resumes where it stopped.
set -u
. "$(dirname "$0")/common.sh"

# What our tests and modules need, and the checkers.  Built-in 9p/overlay
# keep the initramfs trivial.
CONFIG_OPTS=(
	-e MODULES -e MODULE_UNLOAD -e MODULE_FORCE_UNLOAD
	-e NET_9P -e NET_9P_VIRTIO -e 9P_FS -e 9P_FS_POSIX_ACL -e OVERLAY_FS
	-e VIRTIO_PCI -e VIRTIO_BLK -e CONFIGFS_FS -m BLK_DEV_NULL_BLK -m VETH
	-e SCSI -e BLK_DEV_SD -e SCSI_LOWLEVEL -m SCSI_DEBUG
	-e TMPFS -e DEVTMPFS -e MAGIC_SYSRQ -e PROC_FS
	-e KALLSYMS -e KALLSYMS_ALL -e STACKTRACE -e IRQ_WORK
	-e FTRACE -e FUNCTION_TRACER -e DYNAMIC_FTRACE -e FTRACE_SYSCALLS
	-e SCHED_TRACER -e HIST_TRIGGERS -e KPROBES -e KPROBE_EVENTS
	-e BPF_SYSCALL -e BPF_EVENTS
	-e DEBUG_INFO_NONE -d DEBUG_INFO -d DEBUG_INFO_BTF
	-e KASAN -e KASAN_GENERIC -e KASAN_INLINE
	-e PROVE_LOCKING -e PROVE_RCU -e DEBUG_ATOMIC_SLEEP -e DEBUG_LIST
	-e DEBUG_OBJECTS -e DEBUG_OBJECTS_RCU_HEAD -e DEBUG_OBJECTS_TIMERS
	-e DEBUG_OBJECTS_WORK -e DEBUG_KMEMLEAK
	--set-val DEBUG_KMEMLEAK_MEM_POOL_SIZE 16000
	-d DEBUG_KMEMLEAK_DEFAULT_OFF -d DEBUG_KMEMLEAK_AUTO_SCAN
	-d MODULE_SIG -d SECURITY_LOCKDOWN_LSM -d WERROR
	# What a -nodefaults guest never has (qemu.sh: serial console,
	# virtio disk and 9p, no network, display, sound or USB): a fifth of
	# the built-in options and of the build time of a cold run.
	-d DRM -d FB -d SOUND -d USB_SUPPORT -d WLAN -d WIRELESS -d CFG80211
	-d MAC80211 -d RFKILL -d NFS_FS -d NFSD -d AGP -d HID
	-d INPUT_JOYSTICK -d INPUT_TABLET -d INPUT_TOUCHSCREEN -d ETHERNET
	-d ATA -d PCCARD -d NETFILTER -d HIBERNATION
)
# Options that must stick: built in, or as a module where =m says so.
MUST_HAVE="KASAN PROVE_LOCKING PROVE_RCU DEBUG_ATOMIC_SLEEP DEBUG_LIST
DEBUG_OBJECTS_RCU_HEAD DEBUG_KMEMLEAK 9P_FS OVERLAY_FS FTRACE_SYSCALLS KPROBES
VETH=m"

"$LT_TOP/tests/vm/deps.sh" debugkernel || exit 1
tarball=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n 1)
[ -n "$tarball" ] || lt_die "linux-source-6.1 is not installed"
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
key=$(echo "$srcver ${CONFIG_OPTS[*]}" | sha1sum | cut -c1-10)

# Boot options of this kernel, read by qemu.sh.  no5lvl: with QEMU's
# "max" CPU the kernel enables 5-level paging, and an interrupt taken in
# the first milliseconds of boot then hits a lock in the LA57 direct map
# that this KASAN build does not cover yet ("BUG: KASAN: wild-memory-access
# in do_raw_spin_lock ... handle_edge_irq" at 0.004 s, before any module;
# seen once in five boots).  4-level paging is what our modules run on
# everywhere else anyway.  acpi=noirq: PCI interrupts routed without
# ACPI; this KASAN build interprets the _PRT method of QEMU's i440fx so
# slowly under TCG that ACPICA aborts it twice at its 30 s loop limit
# (AE_AML_LOOP_TIMEOUT): a minute of every boot (the guest's virtio
# devices use MSI-X either way).
APPEND="no5lvl acpi=noirq"

# One build at a time; a run that comes while another builds waits for it
# and then finds the kernel installed.
lt_lock "$LT_CACHE/debug-src/$key.lock"

# Already built and installed into the cache?  append is rewritten only
# when it changed, and atomically: guests read it while they start.
for d in "$LT_CACHE"/kernels/*-lt-debug; do
	[ -e "$d/.unpacked" ] && [ "$(cat "$d/.key" 2>/dev/null)" = "$key" ] || continue
	[ "$(cat "$d/append" 2>/dev/null)" = "$APPEND" ] ||
		echo "$APPEND" | lt_put "$d/append" || exit 1
	basename "$d"
	exit 0
done

src=$LT_CACHE/debug-src/$key
if [ ! -e "$src/.configured" ]; then
	rm -rf "$src"
	mkdir -p "$src"
	lt_log "unpacking $tarball"
	tar -xf "$tarball" -C "$src" --strip-components=1 || lt_die "cannot unpack $tarball"
	(cd "$src" && make -s x86_64_defconfig kvm_guest.config >/dev/null &&
		scripts/config --set-str LOCALVERSION "-lt-debug" -d LOCALVERSION_AUTO \
			"${CONFIG_OPTS[@]}" && make -s olddefconfig) ||
		lt_die "configuring the debug kernel failed"
	for opt in $MUST_HAVE; do
		[ "${opt%=m}" = "$opt" ] && opt=$opt=y
		grep -q "^CONFIG_$opt\$" "$src/.config" ||
			lt_die "CONFIG_$opt did not stick in the debug config"
	done
	touch "$src/.configured"
fi
cd "$src" || exit 1
lt_log "building the debug kernel (about 20 core-minutes)"
make -j"$(nproc)" bzImage modules >>"$src/build.log" 2>&1 ||
	{ tail -n 30 "$src/build.log" >&2; lt_die "debug kernel build failed (log: $src/build.log)"; }
kver=$(make -s kernelrelease)
out=$LT_CACHE/kernels/$kver
rm -rf "$out"
mkdir -p "$out/root/boot"
make -s INSTALL_MOD_PATH="$out/root" modules_install >/dev/null ||
	lt_die "modules_install failed"
cp arch/x86/boot/bzImage "$out/root/boot/vmlinuz-$kver"
cp .config "$out/root/boot/config-$kver"
# Our modules build against this tree (modules.sh looks here).
ln -sfn "$src" "$out/build"
echo "$key" >"$out/.key"
echo "$APPEND" | lt_put "$out/append" || exit 1
touch "$out/.unpacked"
echo "$kver"
