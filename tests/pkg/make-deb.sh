#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make-deb.sh OUTDIR - what `make deb` does: copy the working tree (tracked
# and untracked files, not the ignored ones) to OUTDIR/latency-tracker-VER,
# build the source and binary packages there with dpkg-buildpackage
# (debian/), and run lintian on the result.  OUTDIR (emptied first) then
# holds the .deb files, the .dsc, the .changes, build.log and lintian.txt.
# Exits non-zero when the build fails or lintian reports an error, a
# warning or an info tag that debian/*lintian-overrides does not justify
# (pedantic and experimental tags are shown, not counted).
set -u
. "$(dirname "$0")/../vm/common.sh"

out=${1:?usage: make-deb.sh OUTDIR}
ver=$(cd "$LT_TOP" && dpkg-parsechangelog -S Version) || lt_die "cannot read debian/changelog"
src=$out/latency-tracker-${ver%%-*}

rm -rf "$out" && mkdir -p "$src" || exit 1
if git -C "$LT_TOP" rev-parse --git-dir >/dev/null 2>&1; then
	# A tracked file deleted in the working tree is left out (--ignore-failed-read).
	(cd "$LT_TOP" && git ls-files -z -co --exclude-standard |
		tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -C "$src" -xf - ||
		lt_die "cannot copy the tree to $src"
else
	rsync -a --exclude=.git --exclude=/build "$LT_TOP/" "$src/" || lt_die "cannot copy the tree to $src"
fi

lt_log "dpkg-buildpackage in $src (log: $out/build.log)"
if ! (cd "$src" && dpkg-buildpackage -us -uc) >"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	lt_die "dpkg-buildpackage failed (log: $out/build.log)"
fi
ls "$out"/*.deb

lt_log "lintian (report: $out/lintian.txt)"
lintian --display-info --pedantic --display-experimental --fail-on error,warning,info \
	"$out"/*.changes >"$out/lintian.txt" 2>&1
rc=$?
cat "$out/lintian.txt"
[ $rc = 0 ] || lt_die "lintian: errors, warnings or info tags (above)"
echo "lintian: no error, warning or info tag"
