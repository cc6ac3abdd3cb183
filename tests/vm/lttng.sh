#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# lttng.sh KVER - make LTTng's kernel tracer usable in the test guest of a
# kernel: fetch the lttng-modules source that builds against that kernel
# line, fix it, build it, install the .ko files where the guest finds them,
# and build our LTTng probe (probes/lttng) against it.  Prints the
# lttng-modules source directory (give it as LTTNG_MODULES_DIR=).
#
# Which source for which kernel (docs/testing-notes.md):
#   6.1  -> bookworm's lttng-modules-dkms (2.13.9), the host's own archive;
#   6.12 -> trixie's lttng-modules-dkms (2.13.18), fetched through a private
#           apt configuration under the cache, so the host stays on bookworm;
#   7.x  -> unstable's (2.16.0): the newest release, and the only one of the
#           three that builds against Linux 7 (2.13.18 stops at 6.x).
# The backports kernels build in the trixie build root (lt_kmake,
# buildroot.sh), the others on the host.
# Both need one fix: Debian's kernels gave the hrtimer_start tracepoint a
# `bool was_armed` argument, and lttng-modules' copy of that event must have
# the same prototype.
#
# Cache: $LT_CACHE/lttng/src/<source version>/ (unpacked, fixed source) and
# $LT_CACHE/lttng/build/<kver>-<source version>/ (built tree, reused while
# both keys are unchanged).  Installed: the guest's module directory
# $LT_CACHE/kernels/<kver>/root/lib/modules/<kver>/extra, then depmod -b.
set -u
. "$(dirname "$0")/common.sh"

kver=${1:?kernel version}
kdir=$(lt_kdir "$kver")
[ -e "$kdir/Makefile" ] || lt_die "no kernel build directory for $kver"
kroot=$LT_CACHE/kernels/$kver/root
[ -d "$kroot/lib/modules/$kver" ] ||
	lt_die "kernel $kver is not unpacked in $kroot (run tests/vm/kernel.sh fetch first)"

# One run at a time builds and installs (host-prep.sh holds its own lock
# too, but this script also runs alone); the others wait and reuse.
lt_lock "$LT_CACHE/lttng/.lock"

# The suite of lttng-modules-dkms that builds against this kernel line.
case $kver in
6.1.*) suite=bookworm ;;
6.12.* | 6.1[3-9].* | 6.[2-9][0-9].*) suite=trixie ;;
7.*) suite=unstable ;;
*) lt_die "no known lttng-modules source for kernel $kver" ;;
esac

# A private apt configuration for another suite: its own lists and cache,
# no effect on the host's apt state.
apt_private() { # suite apt-args...
	local s=$1 dir=$LT_CACHE/lttng/apt-$1
	shift
	mkdir -p "$dir/lists/partial" "$dir/archives/partial" "$dir/etc"
	[ -e "$dir/etc/sources.list" ] ||
		echo "deb http://deb.debian.org/debian $s main" >"$dir/etc/sources.list"
	apt-get -q -o Dir::Etc::SourceList="$dir/etc/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$dir/lists" \
		-o Dir::Cache="$dir" -o Dir::Cache::pkgcache="" \
		-o Dir::Cache::srcpkgcache="" "$@"
}

# apt-cache in the right configuration for $suite.
apt_for_suite_cache() {
	local dir=$LT_CACHE/lttng/apt-$suite
	if [ "$suite" = bookworm ]; then
		apt-cache "$@"
	else
		apt-cache -o Dir::Etc::SourceList="$dir/etc/sources.list" \
			-o Dir::Etc::SourceParts=/dev/null \
			-o Dir::State::Lists="$dir/lists" \
			-o Dir::Cache="$dir" -o Dir::Cache::pkgcache="" \
			-o Dir::Cache::srcpkgcache="" "$@"
	fi
}

# apt in the right configuration for $suite.
apt_for_suite() {
	if [ "$suite" = bookworm ]; then
		apt-get -q "$@"
	else
		apt_private "$suite" "$@"
	fi
}

if [ "$suite" != bookworm ] && [ ! -e "$LT_CACHE/lttng/apt-$suite/lists/.updated" ]; then
	lt_log "apt: reading the $suite package list (private configuration)"
	apt_private "$suite" update >/dev/null 2>&1 || lt_die "apt-get update for $suite failed"
	touch "$LT_CACHE/lttng/apt-$suite/lists/.updated"
fi
srcver=$(apt_for_suite_cache policy lttng-modules-dkms 2>/dev/null |
	sed -n 's/^  Candidate: //p' | head -n 1)
[ "$srcver" = "(none)" ] && srcver=
[ -n "$srcver" ] || lt_die "cannot find lttng-modules-dkms in $suite"

src=$LT_CACHE/lttng/src/$srcver
if [ ! -e "$src/.ready" ]; then
	lt_log "fetching lttng-modules-dkms $srcver ($suite)"
	rm -rf "$src" && mkdir -p "$src.dl" || exit 1
	(cd "$src.dl" && apt_for_suite download "lttng-modules-dkms=$srcver" >/dev/null 2>&1) ||
		lt_die "apt-get download lttng-modules-dkms=$srcver failed"
	dpkg-deb -x "$src.dl"/*.deb "$src.dl/x" || lt_die "cannot unpack lttng-modules-dkms"
	tree=$(ls -d "$src.dl"/x/usr/src/lttng-modules-* | head -n 1)
	[ -d "$tree" ] || lt_die "no /usr/src/lttng-modules-* in the package"
	mv "$tree" "$src" && rm -rf "$src.dl" || exit 1
	touch "$src/.ready"
fi

# The kernel's hrtimer_start tracepoint prototype: Debian added was_armed.
# (The common headers a Debian headers package includes are named by path
# in its Makefile; a build root's paths are under that root.)
ksrc=$(sed -n 's/^include \(.*\)\/Makefile$/\1/p' "$kdir/Makefile" 2>/dev/null)
[ -n "$ksrc" ] && [ -e "$LT_CACHE/kernels/$kver/buildroot" ] && ksrc=${kdir%/usr/src/*}$ksrc
ktimer=
for d in "$kdir" "$ksrc" "/lib/modules/$kver/source"; do
	[ -n "$d" ] && [ -e "$d/include/trace/events/timer.h" ] &&
		{ ktimer=$d/include/trace/events/timer.h; break; }
done
[ -n "$ktimer" ] || lt_die "cannot find include/trace/events/timer.h of $kver"

# Give lttng-modules' copy of hrtimer_start the kernel's prototype when the
# kernel has the was_armed argument (the Debian backport) and the copy not.
fix_hrtimer_start() { # tree
	local f=$1/include/instrumentation/events/timer.h
	grep -q 'bool was_armed' "$ktimer" || return 0
	grep -q 'was_armed' "$f" && return 0
	sed -i -e 's/TP_PROTO(struct hrtimer \*hrtimer, enum hrtimer_mode mode)/TP_PROTO(struct hrtimer *hrtimer, enum hrtimer_mode mode, bool was_armed)/' \
		-e 's/TP_ARGS(hrtimer, mode)/TP_ARGS(hrtimer, mode, was_armed)/' "$f" &&
		grep -q 'bool was_armed' "$f"
}

# Build a copy per kernel: kbuild writes its objects into the source tree.
# A Debian kernel's release names its ABI; the debug kernel built here
# keeps its release when its configuration changes (debug-kernel.sh), so
# its build key is part of the name: modules built against another
# configuration of it must not be loaded.
build=$LT_CACHE/lttng/build/$kver-$srcver
[ -e "$LT_CACHE/kernels/$kver/.key" ] && build=$build-$(cat "$LT_CACHE/kernels/$kver/.key")
if [ ! -e "$build/.built" ]; then
	lt_log "building lttng-modules $srcver for $kver"
	rm -rf "$build" && mkdir -p "$build" && cp -a "$src/." "$build/" || exit 1
	fix_hrtimer_start "$build" || lt_die "cannot apply the hrtimer_start was_armed fix in $build"
	if ! lt_kmake "$kver" M="$build" CONFIG_LTTNG=m -j"$(nproc)" modules \
		>"$build/build.log" 2>&1; then
		grep -E 'error' "$build/build.log" | head -n 30 >&2
		lt_die "lttng-modules build failed for $kver (log: $build/build.log)"
	fi
	touch "$build/.built"
fi

# Our probe for the latency_tracker events, against that tree; rebuilt
# when its sources or the lttng-modules build change.
ours=$LT_CACHE/lttng/probe/$kver
key=$({ cat "$LT_TOP"/probes/lttng/* "$LT_TOP/tracker/lt_trace.h" \
	"$LT_TOP"/include/*.h "$LT_TOP"/include/lt_records/*.h \
	"$LT_TOP/tracker/alert_ring.h" "$build/Module.symvers"; echo "$build"; } |
	sha256sum | cut -c1-16)
if [ "$(cat "$ours/.key" 2>/dev/null)" != "$key" ] || ! ls "$ours"/*.ko >/dev/null 2>&1; then
	rm -rf "$ours" && mkdir -p "$ours" || exit 1
	cp -a "$LT_TOP/probes/lttng/." "$ours/" || exit 1
	if ! lt_krun "$kver" make -C "$ours" KDIR="$(lt_kbuild_dir "$kver")" \
		LTTNG_MODULES_DIR="$build" LT_TOP="$LT_TOP" \
		>"$ours/build.log" 2>&1; then
		grep -E 'error|warning' "$ours/build.log" | head -n 30 >&2
		lt_die "probes/lttng build failed for $kver (log: $ours/build.log)"
	fi
	if grep -q 'warning:' "$ours/build.log"; then
		grep 'warning:' "$ours/build.log" >&2
		lt_die "probes/lttng build for $kver printed warnings"
	fi
	echo "$key" >"$ours/.key"
fi

# Install into the guest's module tree (bind-mounted as /lib/modules/<kver>)
# when something changed, then depmod.
extra=$kroot/lib/modules/$kver/extra
stamp="$build $key"
if [ "$(cat "$extra/lttng/.installed" 2>/dev/null)" != "$stamp" ]; then
	rm -rf "$extra/lttng" && mkdir -p "$extra/lttng" || exit 1
	(cd "$build" && find . -name '*.ko' -print0 | xargs -0 cp --parents -t "$extra/lttng") ||
		lt_die "cannot install lttng-modules into $extra"
	cp "$ours"/*.ko "$extra/lttng/" || lt_die "cannot install our LTTng probe"
	depmod -b "$kroot" "$kver" || lt_die "depmod -b $kroot $kver failed"
	echo "$stamp" >"$extra/lttng/.installed"
fi
echo "$build"
