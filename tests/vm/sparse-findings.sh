#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# sparse-findings.sh DIR - the sparse findings kept in a build directory of
# modules.sh (tests/vm/sparse-check.sh wrote them beside the objects), one
# "file:line:col: text" a line, file relative to DIR: kbuild names a
# source by its absolute path up to 6.x and relative to the module's
# directory from 7.x on; a finding in a file outside DIR (the kernel's
# headers) is not ours and is left out.  A compiled source with no
# findings file (checked by no sparse) is a line of its own.  Prints the
# number of sources checked on the last line, "checked N".
set -u
dir=${1:?build directory}
cd "$dir" || exit 1
n=0
while read -r o; do
	src=${o%.o}.c
	[ -e "$src" ] || continue
	if [ ! -e "$src.sparse" ]; then
		echo "${src#./}: not checked by sparse (no ${src#./}.sparse)"
		continue
	fi
	n=$((n + 1))
	sed -e "s|^$dir/||" -e 's|^\./||' "$src.sparse" |
		grep -E '^[^/ ][^ :]*:[0-9]+:[0-9]+: (warning|error)'
done < <(find . -name '*.o' ! -name '*.mod.o' | sort)
echo "checked $n"
