#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# sparse-check.sh ARGS... - kbuild's checker (CHECK=, with C=1) in the
# builds of modules.sh: runs sparse as kbuild asks and keeps what it
# printed in OBJECT.sparse, beside the object being compiled (named by the
# dependency file in kbuild's flags, -Wp,-MMD,DIR/.OBJECT.d: a source
# compiled into several objects has findings for each).  kbuild checks a
# file each time it compiles it, so every object of the build directory
# has the findings of the sources it was built from, however many builds
# later: lint.sh reads them there (tests/vm/sparse-findings.sh) instead of
# building again.  A sparse that failed is written there as a finding; the
# build goes on.
obj=
for a; do
	case $a in
	-Wp,-MMD,*) d=${a#-Wp,-MMD,}; b=${d##*/}; b=${b#.}; obj=${d%/*}/${b%.d} ;;
	esac
	src=$a
done
[ -n "$obj" ] || obj=$src
sparse "$@" >"$obj.sparse.tmp" 2>&1
rc=$?
[ "$rc" = 0 ] || echo "$src:1:1: error: sparse exited with status $rc" >>"$obj.sparse.tmp"
mv -f "$obj.sparse.tmp" "$obj.sparse"
