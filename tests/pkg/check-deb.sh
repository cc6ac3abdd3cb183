#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# check-deb.sh - the Debian packages as users install them.  Prints TAP.
#
# On the host: `make deb` builds latency-tracker-dkms, latency-tracker,
# liblatency-tracker1 and liblatency-tracker-dev, and lintian finds nothing
# the overrides do not justify; Makefile,
# dkms.conf and debian/changelog say one version; tools' `make install`
# writes PREFIX and SYSCONFDIR into the unit.  Then in a clean Debian 12
# root -- debootstrap minbase plus systemd and the headers of the 6.1
# line's kernel (tests/vm/kernel.sh), made once under
# $LT_CACHE/roots/pkg-bookworm, each run an overlay on it thrown away at
# the end -- with a throwaway MOK key configured for DKMS
# (/etc/dkms/framework.conf.d): apt installs the four packages (and pkgconf, gcc, libc6-dev), their
# dependencies taken from the archive (downloaded .debs are kept in
# $LT_CACHE/roots/pkg-bookworm.debs); DKMS builds and installs every
# module of dkms.conf for that kernel, each signed with that key (signer,
# key id, and the signature checked by openssl); an application builds
# with `pkg-config --cflags --libs latency-tracker` and runs against the
# shared library (no module: lt_app_open() fails, ENOENT); systemd-analyze verifies
# the installed unit and rates its exposure (at most 2.0); the unit's
# ExecStart command starts (no modules, no sessiond) and exits 0 within
# 2 s of SIGTERM.  Last, the source package builds in another clean root
# with only its Build-Depends installed.
#
# The whole run is in a private mount namespace (nothing stays mounted) and
# holds $LT_CACHE/roots/.pkg-bookworm.lock (the base root does not change
# under an overlay).  Measured on 2 busy cores: 63-73 s warm; 143 s cold
# (debootstrap 56 s, the headers 24 s, ~120 packages downloaded once).
set -u
if [ -z "${LT_DEB_NS:-}" ]; then
	[ "$(id -u)" = 0 ] || { echo "error: check-deb.sh needs root (chroot, mounts)" >&2; exit 1; }
	exec unshare -m --propagation private -- env LT_DEB_NS=1 "$0" "$@"
fi
. "$(dirname "$0")/../vm/common.sh"

SUITE=bookworm
LINE=6.1
BASE=$LT_CACHE/roots/pkg-$SUITE
DEBS=$LT_CACHE/roots/pkg-$SUITE.debs
LOCK=$LT_CACHE/roots/.pkg-$SUITE.lock
MIRROR=http://deb.debian.org/debian
BASE_PKGS=systemd
STAMP="$SUITE minbase $BASE_PKGS"
MAX_EXPOSURE=20 # systemd-analyze security --threshold: 2.0

# The plan, declared before the first assertion; a run that stops early
# (a failed build or install ends it) made fewer and fails.
PLAN=15
n=0 failed=0
result() { # rc desc
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else failed=$((failed + 1)); echo "not ok $n - $2"; fi
}
comment() { sed 's/^/#   /'; }
finish() {
	[ $n = $PLAN ] || { echo "# ran $n of $PLAN planned"; exit 1; }
	[ $failed = 0 ]
	exit
}
t_start=$(date +%s)
phase() { lt_log "check-deb: $* ($(($(date +%s) - t_start)) s)"; }

mkdir -p "$LT_CACHE/tmp" "$DEBS" || exit 1
# chroot_run ROOT CMD...: CMD in ROOT (its /proc and /dev mounted), with a
# clean environment.
chroot_run() {
	local r=$1
	shift
	mountpoint -q "$r/proc" || mount -t proc proc "$r/proc" || return 1
	mountpoint -q "$r/dev" || mount --bind /dev "$r/dev" || return 1
	chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}
# base_apt ARGS...: apt-get ARGS in the base root itself, downloads kept.
base_apt() {
	mkdir -p "$BASE/var/cache/apt/archives" &&
		mount --bind "$DEBS" "$BASE/var/cache/apt/archives" || return 1
	chroot_run "$BASE" apt-get -q -y --no-install-recommends "$@"
	local rc=$?
	umount -R "$BASE/var/cache/apt/archives" "$BASE/proc" "$BASE/dev"
	return $rc
}

# ensure_base KVER: the base root, with the headers of KVER (only).
ensure_base() {
	local kver=$1 old
	if [ "$(cat "$BASE/.ready" 2>/dev/null)" != "$STAMP" ]; then
		command -v debootstrap >/dev/null || lt_die "debootstrap missing (package debootstrap)"
		lt_log "making the $SUITE package-test root (debootstrap, about two minutes)"
		rm -rf --one-file-system "$BASE" "$BASE.new" && mkdir -p "$BASE.new" || return 1
		if ! debootstrap --variant=minbase --include="$BASE_PKGS" \
			"$SUITE" "$BASE.new" "$MIRROR" >"$BASE.log" 2>&1; then
			tail -n 20 "$BASE.log" >&2
			lt_die "debootstrap of $SUITE failed (log: $BASE.log)"
		fi
		printf 'deb %s %s main\n' "$MIRROR" "$SUITE" "$MIRROR" "$SUITE-updates" \
			"http://deb.debian.org/debian-security" "$SUITE-security" \
			>"$BASE.new/etc/apt/sources.list"
		mv "$BASE.new" "$BASE" && echo "$STAMP" >"$BASE/.ready" || return 1
	fi
	# The package lists are read again when a day old (a new kernel ABI
	# replaces the old one's packages in the archive).
	if [ -z "$(find "$BASE/.updated" -mmin -1440 2>/dev/null)" ] ||
		[ ! -e "$BASE/usr/src/linux-headers-$kver/Makefile" ]; then
		base_apt update >"$BASE.log" 2>&1 || lt_die "apt-get update in $BASE failed (log: $BASE.log)"
		touch "$BASE/.updated"
	fi
	if [ ! -e "$BASE/usr/src/linux-headers-$kver/Makefile" ]; then
		lt_log "installing linux-headers-$kver in the $SUITE package-test root"
		old=$(chroot "$BASE" dpkg-query -W -f '${Package}\n' 'linux-headers-*' 2>/dev/null |
			grep -v -e "-$kver\$" -e '-common$' | tr '\n' ' ')
		base_apt install "linux-headers-$kver" >>"$BASE.log" 2>&1 ||
			lt_die "cannot install linux-headers-$kver in $BASE (log: $BASE.log)"
		# One kernel: DKMS builds for every kernel it finds.
		[ -z "$old" ] || base_apt --autoremove purge $old >>"$BASE.log" 2>&1 ||
			lt_die "cannot remove $old from $BASE (log: $BASE.log)"
	fi
}

# `check-deb.sh prepare`: only make the base root (make check starts it in
# the background, beside the host suites, where its downloads overlap
# their work); the run that comes later waits for the lock and finds it.
if [ "${1:-}" = prepare ]; then
	kver=$("$LT_TOP/tests/vm/kernel.sh" resolve "$LINE") || lt_die "cannot resolve kernel line $LINE"
	lt_lock "$LOCK"
	ensure_base "$kver" || lt_die "cannot make the base root $BASE"
	lt_log "check-deb: base root ready ($(($(date +%s) - t_start)) s)"
	exit 0
fi
[ $# = 0 ] || lt_die "usage: check-deb.sh [prepare]"
echo "1..$PLAN"

# The run's files on a tmpfs: the roots' upper layers go away with it (rm
# of them took 40 s).
work=$(mktemp -d -p "$LT_CACHE/tmp" deb.XXXXXX) &&
	mount -t tmpfs -o size=6g,mode=0700 check-deb "$work" || exit 1
ROOT=$work/root
BROOT=$work/build-root
cleanup() {
	umount -R "$work" && rmdir "$work"
	phase "cleaned up"
}
trap cleanup EXIT

# --- on the host ---------------------------------------------------------

phase "make deb"
nice -n "$LT_BUILD_NICE" make -s -C "$LT_TOP" deb DEB_OUT="$work/deb" >"$work/make-deb.log" 2>&1
deb_rc=$?
dkms_deb=$(ls "$work"/deb/latency-tracker-dkms_*_all.deb 2>/dev/null)
tools_deb=$(ls "$work"/deb/latency-tracker_*_amd64.deb 2>/dev/null)
lib_debs=$(ls "$work"/deb/liblatency-tracker1_*_amd64.deb "$work"/deb/liblatency-tracker-dev_*_amd64.deb 2>/dev/null)
[ -n "$dkms_deb" ] && [ -n "$tools_deb" ] && [ "$(echo $lib_debs | wc -w)" = 2 ]
rc=$?
[ $rc != 0 ] && tail -n 30 "$work/make-deb.log" | comment
result $rc "make deb builds latency-tracker-dkms, latency-tracker, liblatency-tracker1 and liblatency-tracker-dev"
[ $rc = 0 ] || finish
comment <"$work/deb/lintian.txt"
result $deb_rc "lintian: no error, warning or info tag (each override in debian/*.lintian-overrides justified)"

ver=$(sed -n 's/^VERSION := //p' "$LT_TOP/Makefile")
dkms_ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$LT_TOP/dkms.conf")
deb_ver=$(cd "$LT_TOP" && dpkg-parsechangelog -S Version)
[ -n "$ver" ] && [ "$ver" = "$dkms_ver" ] && [ "$ver" = "${deb_ver%%-*}" ]
rc=$?
[ $rc != 0 ] && echo "#   Makefile $ver, dkms.conf $dkms_ver, debian/changelog $deb_ver"
result $rc "one version: Makefile, dkms.conf, debian/changelog ($ver)"

# The unit follows the prefix: the binaries the package build made,
# installed again with another PREFIX and SYSCONFDIR.
src=$work/deb/latency-tracker-$deb_ver
make -s -C "$src/tools" install BUILD="$src/debian/build/tools" DESTDIR="$work/pfx" \
	PREFIX=/opt/lt SYSCONFDIR=/opt/lt/etc >"$work/pfx.log" 2>&1 &&
	unit=$work/pfx/opt/lt/lib/systemd/system/latency-trackerd.service &&
	[ -x "$work/pfx/opt/lt/sbin/latency-trackerd" ] &&
	grep -qx 'ExecStart=/opt/lt/sbin/latency-trackerd --config /opt/lt/etc/latency-trackerd.conf' "$unit" &&
	! grep -qE '@[A-Z]+@' "$unit"
rc=$?
[ $rc != 0 ] && { tail -n 5 "$work/pfx.log"; grep -s '^ExecStart' "$unit"; } | comment
result $rc "make -C tools install PREFIX=/opt/lt SYSCONFDIR=/opt/lt/etc: the unit runs /opt/lt/sbin/latency-trackerd with /opt/lt/etc's config"

# --- the clean root ------------------------------------------------------

phase "base root"
kver=$("$LT_TOP/tests/vm/kernel.sh" resolve "$LINE") || lt_die "cannot resolve kernel line $LINE"
lt_lock "$LOCK"
ensure_base "$kver" || lt_die "cannot make the base root $BASE"

# overlay DIR: a root at DIR, the base root under a layer of its own, a
# root thrown away: dpkg does not sync, man-db indexes nothing.
overlay() {
	mkdir -p "$1" "$1.upper" "$1.work" &&
		mount -t overlay overlay -o "lowerdir=$BASE,upperdir=$1.upper,workdir=$1.work" "$1" &&
		mount --bind "$DEBS" "$1/var/cache/apt/archives" &&
		echo force-unsafe-io >"$1/etc/dpkg/dpkg.cfg.d/latency-tracker-test" &&
		echo 'man-db man-db/auto-update boolean false' | chroot "$1" debconf-set-selections
}
overlay "$ROOT" || lt_die "cannot mount an overlay on $BASE"
in_root() { chroot_run "$ROOT" "$@"; }

# A throwaway signing key, configured the way docs/install.md says.
cn="latency-tracker check-deb $$"
mkdir -p "$ROOT/root/mok" "$ROOT/etc/dkms/framework.conf.d" &&
	openssl req -new -x509 -nodes -days 2 -subj "/CN=$cn" -newkey rsa:2048 \
		-keyout "$ROOT/root/mok/mok.key" -outform DER -out "$ROOT/root/mok/mok.der" \
		>"$work/openssl.log" 2>&1 &&
	printf '%s\n' 'mok_signing_key=/root/mok/mok.key' 'mok_certificate=/root/mok/mok.der' \
		>"$ROOT/etc/dkms/framework.conf.d/latency-tracker-test.conf" ||
	lt_die "cannot make a signing key (log: $work/openssl.log)"

phase "apt install"
mkdir -p "$ROOT/tmp/debs" && cp "$dkms_deb" "$tools_deb" $lib_debs "$ROOT/tmp/debs/" || exit 1
in_root nice -n "$LT_BUILD_NICE" apt-get -q -y --no-install-recommends install \
	"/tmp/debs/${dkms_deb##*/}" "/tmp/debs/${tools_deb##*/}" \
	$(for d in $lib_debs; do echo "/tmp/debs/${d##*/}"; done) pkgconf gcc libc6-dev >"$work/apt.log" 2>&1
rc=$?
[ $rc != 0 ] && tail -n 30 "$work/apt.log" | comment
result $rc "apt installs the four packages and their dependencies in a clean $SUITE root"
[ $rc = 0 ] || finish

# An application built as its developer would, against the installed
# library: without the module, lt_app_open() fails (ENOENT) and the
# application goes on.
phase "library"
cat >"$ROOT/tmp/app.c" <<'EOF'
#include <errno.h>
#include <stdio.h>
#include <latency-tracker.h>
int main(void)
{
	struct lt_app *app = lt_app_open("checkout", 20000000, 0);

	printf("open %s errno=%d begin=%d\n", app ? "ok" : "failed", errno,
	       lt_app_begin(app, 1));
	return 0;
}
EOF
out=$(in_root sh -c 'cc -o /tmp/app /tmp/app.c $(pkg-config --cflags --libs latency-tracker) &&
	ldd /tmp/app | grep -o "=> /[^ ]*/liblatency-tracker.so.1" && /tmp/app' 2>&1)
rc=$?
echo "$out" | comment
[ $rc = 0 ] && grep -qx 'open failed errno=2 begin=-22' <<<"$out" &&
	grep -q '^=> /.*/x86_64-linux-gnu/liblatency-tracker.so.1$' <<<"$out"
result $? "an application builds with pkg-config latency-tracker, runs against the shared library, and goes on without the module (ENOENT, -EINVAL)"
grep -e '^Building' -e '^Done' -e 'skipped' "$work/apt.log" | comment

phase "dkms"
status=$(in_root dkms status -m latency-tracker -v "$ver" -k "$kver" 2>&1)
echo "$status" | comment
echo "$status" | grep -q ": installed"
result $? "the package's postinst: DKMS built and installed the modules for $kver"

mods=$ROOT/lib/modules/$kver/updates/dkms
# dkms.conf read as DKMS reads it: sourced by bash.
listed=$(bash -c '. "$1" && printf "%s\n" "${BUILT_MODULE_NAME[@]}"' _ \
	"$LT_TOP/dkms.conf" | sort)
installed=$(ls "$mods" 2>/dev/null | sed -n 's/\.ko\(\.[a-z]*\)\{0,1\}$//p' | sort)
[ -n "$listed" ] && [ "$listed" = "$installed" ]
rc=$?
[ $rc != 0 ] && echo "#   dkms.conf: $(echo $listed) / installed: $(echo $installed)"
result $rc "every module of dkms.conf is installed in /lib/modules/$kver/updates/dkms"

# Signed with our key: the signer and key id modinfo reads, and the
# PKCS#7 signature checked against our certificate.  The tail of a signed
# module: the signature, struct module_signature (12 bytes, its last 4 the
# signature's length, big endian), "~Module signature appended~\n".
phase "signatures"
openssl x509 -inform DER -in "$ROOT/root/mok/mok.der" -out "$work/mok.pem" &&
	serial=$(openssl x509 -in "$work/mok.pem" -noout -serial | sed 's/^serial=//; s/^\(00\)*//')
nmod=0 nsig=0
for m in "$mods"/*.ko*; do
	[ -e "$m" ] || break
	nmod=$((nmod + 1))
	ko=$work/${m##*/}
	case $m in
	*.xz) ko=${ko%.xz} && xz -dc "$m" >"$ko" ;;
	*.zst) ko=${ko%.zst} && zstd -qdc "$m" >"$ko" ;;
	*) cp "$m" "$ko" ;;
	esac
	signer=$(modinfo -F signer "$ko")
	key=$(modinfo -F sig_key "$ko" | tr -d ':' | sed 's/^\(00\)*//')
	siglen=0
	[ "$(tail -c 28 "$ko" | tr -d '\0')" = "~Module signature appended~" ] &&
		siglen=$(tail -c 32 "$ko" | head -c 4 | od -An -tu1 |
			awk '{ printf "%d", (($1 * 256 + $2) * 256 + $3) * 256 + $4 }')
	body=$(($(stat -c %s "$ko") - 28 - 12 - siglen))
	if [ "$signer" = "$cn" ] && [ -n "$key" ] && [ "$key" = "$serial" ] &&
		[ "$siglen" -gt 0 ] && [ "$body" -gt 0 ] &&
		head -c "$body" "$ko" >"$ko.body" &&
		tail -c $((siglen + 40)) "$ko" | head -c "$siglen" >"$ko.p7" &&
		openssl cms -verify -binary -inform DER -in "$ko.p7" -content "$ko.body" \
			-certfile "$work/mok.pem" -noverify -out /dev/null >"$ko.log" 2>&1; then
		nsig=$((nsig + 1))
	else
		echo "#   ${m##*/}: signer '$signer', key id '$key', signature $siglen bytes (ours: '$cn', '$serial'); openssl: $(tail -n 1 "$ko.log" 2>/dev/null)"
	fi
done
[ $nmod -gt 0 ] && [ $nsig = $nmod ]
sig_ok=$?
[ ! -e "$ROOT/var/lib/dkms/mok.key" ] || { sig_ok=1; echo "#   dkms generated its own key (/var/lib/dkms/mok.key)"; }
result $sig_ok "DKMS signed every module ($nsig of $nmod) with the configured key (mok_signing_key, mok_certificate)"

phase "unit"
unit=/lib/systemd/system/latency-trackerd.service
out=$(in_root systemd-analyze verify --man=no "$unit" 2>&1)
rc=$?
[ -z "$out" ] || { rc=1; echo "$out" | comment; }
result $rc "systemd-analyze verify: no complaint about the installed $unit"

in_root systemd-analyze security --offline=yes --threshold=$MAX_EXPOSURE latency-trackerd.service \
	>"$work/security.txt" 2>&1
rc=$?
grep -e '^✗' -e 'Overall exposure' "$work/security.txt" | comment
for d in ProtectSystem=strict PrivateTmp=yes ProtectKernelLogs=yes UMask=0027 \
	SystemCallFilter=@system-service StateDirectory=latency-tracker 'RestrictAddressFamilies=AF_UNIX '; do
	grep -q "^$d" "$ROOT$unit" || { rc=1; echo "#   missing: $d"; }
done
! grep -q '^ProcSubset=' "$ROOT$unit" || { rc=1; echo "#   ProcSubset= hides /proc/latency_tracker"; }
result $rc "the unit's sandbox: exposure <= $((MAX_EXPOSURE / 10)).$((MAX_EXPOSURE % 10)), ProtectSystem=strict with its state directory, /proc whole"

# The unit's own command line (no modules loaded, no lttng-sessiond: it
# says so and keeps running), then SIGTERM.
phase "daemon"
exec_start=$(sed -n 's/^ExecStart=//p' "$ROOT$unit")
out=$(in_root $exec_start --check 2>&1)
rc=$?
echo "$out" | comment
result $rc "$exec_start --check accepts the installed configuration"
dash=/usr/share/latency-tracker/latency-tracker.grafana.json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(not d["panels"])' "$ROOT$dash"
result $? "the Grafana dashboard is installed ($dash), JSON with its panels"

# chroot execs env, env the daemon: $! is the daemon (its /proc and /dev
# are mounted by the in_root calls above).
chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin $exec_start >"$work/daemon.log" 2>&1 &
pid=$!
for _ in $(seq 50); do
	grep -q '"type":"start"' "$work/daemon.log" && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
done
started=$(grep -c '"type":"start"' "$work/daemon.log")
sleep 1
alive=0
kill -0 $pid 2>/dev/null && alive=1
t0=$(date +%s%N)
kill -TERM $pid 2>/dev/null
for _ in $(seq 40); do
	kill -0 $pid 2>/dev/null || break
	sleep 0.05
done
kill -0 $pid 2>/dev/null && { kill -KILL $pid; echo "#   still running 2 s after SIGTERM"; }
wait $pid
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
comment <"$work/daemon.log"
echo "#   exit status $rc, $ms ms after SIGTERM"
[ "$started" -ge 1 ] && [ $alive = 1 ] && [ $rc = 0 ] && grep -q '"type":"exit"' "$work/daemon.log"
result $? "the unit's ExecStart ($exec_start) starts, runs, and exits 0 on SIGTERM ($ms ms)"

# What a build daemon does: a clean root, the source package, its
# Build-Depends (apt-get build-dep) and nothing else, dpkg-buildpackage;
# the same files as the packages built here.
phase "build in a clean root"
overlay "$BROOT" && mkdir -p "$BROOT/tmp/src" &&
	cp "$work"/deb/*.dsc "$work"/deb/*.tar.* "$BROOT/tmp/src/" || lt_die "cannot make the build root"
dsc=$(cd "$work/deb" && ls *.dsc)
chroot_run "$BROOT" nice -n "$LT_BUILD_NICE" sh -ec "cd /tmp/src
	apt-get -q -y --no-install-recommends build-dep ./$dsc
	dpkg-source -x $dsc build
	cd build && dpkg-buildpackage -b -us -uc" >"$work/build-root.log" 2>&1
rc=$?
if [ $rc = 0 ]; then
	for d in "$dkms_deb" "$tools_deb"; do
		cmp -s <(dpkg-deb -c "$d" | awk '{ print $1, $6 }' | sort) \
			<(dpkg-deb -c "$BROOT/tmp/src/${d##*/}" | awk '{ print $1, $6 }' | sort) ||
			{ rc=1; echo "#   ${d##*/}: not the same files as the one built on the host"; }
	done
else
	tail -n 20 "$work/build-root.log" | comment
fi
result $rc "the source package builds in a clean $SUITE root with its Build-Depends only, into the same files"

phase "done"
finish
