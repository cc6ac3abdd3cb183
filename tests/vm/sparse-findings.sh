#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# sparse-findings.sh [--unchecked] DIR - the sparse findings kept in a
# build directory of modules.sh: tests/vm/sparse-check.sh wrote them
# beside each object compiled from C (the objects whose kbuild .cmd file
# names a C source, "source_OBJECT := SOURCE.c"; not the modules' .mod.o,
# which kbuild does not check), as OBJECT.sparse.  Prints one
# "file:line:col: warning|error: text" a line, the file relative to DIR:
# kbuild names a source by its absolute path up to 6.x and relative to the
# module's directory from 7.x on; a finding in a file outside DIR (the
# kernel's headers) is not ours and is left out, and a finding in a source
# compiled into several objects is printed once.  An object with no
# findings file (checked by no sparse) is a line of its own.  The last
# line is the number of objects checked, "checked N".
# --unchecked: only the objects with no findings file, one a line.
set -u
unchecked=0
[ "${1:-}" = --unchecked ] && { unchecked=1; shift; }
dir=${1:?build directory}
cd "$dir" || exit 1
# findings: every object's lines, then the count.
findings() {
	local obj src n=0
	while read -r obj src; do
		obj=${obj#"$dir"/} src=${src#"$dir"/}
		# Not ours: the kernel's sources compiled in the module's directory
		# (scripts/module-common.c on 6.12), the modules' .mod.o.  An object
		# of a source gone from the tree is not in the build.
		case $src:$obj in /* | *.mod.o) continue ;; esac
		[ -e "$src" ] || continue
		if [ ! -e "$obj.sparse" ]; then
			if [ $unchecked = 1 ]; then
				echo "$obj"
			else
				echo "$src: not checked by sparse (no $obj.sparse)"
			fi
			continue
		fi
		n=$((n + 1))
		[ $unchecked = 1 ] && continue
		sed -e "s|^$dir/||" -e 's|^\./||' "$obj.sparse" |
			grep -E '^[^/ ][^ :]*:[0-9]+:[0-9]+: (warning|error)'
	done < <(find . -name '.*.o.cmd' -exec sed -n 's/^source_\([^ ]*\.o\) := \([^ ]*\.c\)$/\1 \2/p' {} + | sort)
	[ $unchecked = 1 ] || echo "checked $n"
}
findings | awk '!seen[$0]++'
