#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# lint.sh - static checks (`make lint`), one TAP line per tool:
#   sparse (C=2) over our modules, against each kernel line's headers;
#   the kernel's checkpatch.pl --strict (from Debian's linux-source-6.1)
#     over our kernel sources;
#   cppcheck over the userspace tools.
# A finding fails its tool unless tests/lint-exceptions.txt justifies it:
# one line "<tool> <file> <regex> # why", the regex matched against the
# finding's text.
set -u
. "$(dirname "$0")/vm/common.sh"

exceptions=$LT_TOP/tests/lint-exceptions.txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0 failed=0

# filter TOOL < findings > unexplained findings ("file:line: text" lines)
filter() {
	local tool=$1 line file rest pat ok
	while IFS= read -r line; do
		ok=0
		while read -r t f pat; do
			[ "$t" = "$tool" ] || continue
			pat=${pat%%#*}
			pat=${pat% }
			case $line in *"$f"*) [[ $line =~ $pat ]] && ok=1 ;; esac
		done < <(grep -vE '^\s*(#|$)' "$exceptions")
		[ $ok = 1 ] || echo "$line"
	done
}

result() { # tool findings-file
	n=$((n + 1))
	if [ -s "$2" ]; then
		failed=$((failed + 1))
		echo "not ok $n - $1 ($(wc -l <"$2") findings)"
		head -n 40 "$2" | sed 's/^/#   /'
	else
		echo "ok $n - $1 clean"
	fi
}

ksources() {
	(cd "$LT_TOP" && git ls-files 'tracker/*.[ch]' 'include/*.h' 'probes/*.[ch]' \
		'probes/**/*.[ch]' 'tests/kmod/*.c' 'tests/kmod/**/*.c' 2>/dev/null ||
		find tracker include probes tests/kmod -name '*.[ch]') | sort -u
}

# --- sparse, per kernel line -------------------------------------------------
for line in $LT_KERNEL_LINES; do
	kver=$("$LT_TOP/tests/vm/kernel.sh" resolve "$line") || { result "sparse $line" /dev/null; continue; }
	b=$work/sparse-$line
	mkdir -p "$b"
	rsync -a --exclude=/.git --exclude=/build "$LT_TOP/" "$b/"
	make -C "/lib/modules/$kver/build" M="$b" LT_TEST_MODULES=1 C=2 \
		modules >"$b/log" 2>&1 ||
		echo "build failed: $(tail -n 3 "$b/log" | tr '\n' ' ')" >>"$b/log.fail"
	# Findings in our files only (the kernel's headers are not ours).
	{ grep -E "^$b/[^ ]+\.[ch]:[0-9]+:[0-9]+: (warning|error)" "$b/log" | sed "s|$b/||"
	  cat "$b/log.fail" 2>/dev/null; } | filter sparse >"$work/sparse-$line.out"
	result "sparse on $kver" "$work/sparse-$line.out"
done

# --- checkpatch ----------------------------------------------------------------
cp_dir=$LT_CACHE/checkpatch
if [ ! -x "$cp_dir/scripts/checkpatch.pl" ]; then
	tarball=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n 1)
	[ -n "$tarball" ] || lt_die "linux-source-6.1 missing (make lint installs it)"
	mkdir -p "$cp_dir"
	tar -xf "$tarball" -C "$cp_dir" --strip-components=1 --wildcards \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch' || lt_die "cannot extract checkpatch"
fi
: >"$work/checkpatch.out"
while read -r f; do
	"$cp_dir/scripts/checkpatch.pl" --strict --no-tree --terse --show-types \
		--ignore SPDX_LICENSE_TAG,FILE_PATH_CHANGES -f "$LT_TOP/$f" 2>&1 |
		grep -E '^[^ ]+:[0-9]+: (ERROR|WARNING|CHECK)' | sed "s|$LT_TOP/||"
done < <(ksources) | filter checkpatch >"$work/checkpatch.out"
result "checkpatch --strict on the kernel sources" "$work/checkpatch.out"

# --- cppcheck -------------------------------------------------------------------
if ls "$LT_TOP"/tools/*.c >/dev/null 2>&1; then
	cppcheck --quiet --enable=warning,style,performance,portability --std=c11 \
		--error-exitcode=0 --inline-suppr --template='{file}:{line}: {severity}: {message} [{id}]' \
		-I "$LT_TOP/tools" "$LT_TOP/tools" 2>&1 | sed "s|$LT_TOP/||" |
		grep -E '^[^ ]+:[0-9]+: ' | filter cppcheck >"$work/cppcheck.out"
	result "cppcheck on tools/" "$work/cppcheck.out"
fi
echo "1..$n"
[ $failed = 0 ]
