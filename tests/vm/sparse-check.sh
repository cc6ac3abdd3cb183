#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# sparse-check.sh ARGS... SOURCE - kbuild's checker (CHECK=, with C=1) in
# the builds of modules.sh: runs sparse as kbuild asks, on SOURCE (its last
# argument), and keeps what it printed in SOURCE.sparse beside the object.
# kbuild checks a file each time it compiles it, so every object of the
# build directory has the findings of the sources it was built from, however
# many builds later: lint.sh reads them there instead of building again.
# A sparse that failed is written there as a finding; the build goes on.
for src; do :; done
out=$src.sparse
sparse "$@" >"$out.tmp" 2>&1
rc=$?
[ "$rc" = 0 ] || echo "$src:1:1: error: sparse exited with status $rc" >>"$out.tmp"
mv -f "$out.tmp" "$out"
