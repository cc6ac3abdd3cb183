#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run.sh [TEST...] - the host tests of latency-trackerd (the `daemon` suite
# of tests/check.sh): builds the daemon with ASan+UBSan and the fake
# session daemon (fake_lttng.so) into build/tools-test, and the CLI with
# ASan+UBSan into build/tools-test/asan-cli, then runs each
# tests/tools/daemon-*.sh and cli-*.sh (or the ones named), whose TAP
# lines it passes on;
# a script fails unless it declared its plan first and made that many.
# Needs root (a tmpfs is mounted) and the `tools` packages.
set -u
. "$(dirname "$0")/../vm/common.sh"
here=$LT_TOP/tests/tools
build=${LT_TOOLS_TEST_BUILD:-$LT_TOP/build/tools-test}
export LT_TOOLS_TEST_BUILD=$build

mkdir -p "$build/asan"
CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" \
LDFLAGS="-fsanitize=address,undefined" \
	make -s -C "$LT_TOP/tools" BUILD="$build/asan" "$build/asan/latency-trackerd" ||
	{ echo "not ok - build of the ASan daemon"; exit 1; }
gcc -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -shared -fPIC \
	-o "$build/fake_lttng.so" "$here/fake_lttng.c" -llttng-ctl ||
	{ echo "not ok - build of fake_lttng.so"; exit 1; }
install -m 0755 "$here/fake-explain.sh" "$build/asan/latency-tracker"
# The real CLI (the daemon's explain children run the fake one above).
CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" \
LDFLAGS="-fsanitize=address,undefined" \
	make -s -j"$(nproc)" -C "$LT_TOP/tools" BUILD="$build/asan-cli" "$build/asan-cli/latency-tracker" ||
	{ echo "not ok - build of the ASan CLI"; exit 1; }

tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=($(cd "$here" && ls daemon-*.sh cli-*.sh | sed 's/\.sh$//'))
rc=0
for t in "${tests[@]}"; do
	lt_log "tools test $t"
	out=$(mktemp)
	bash "$here/$t.sh" >"$out" 2>&1
	trc=$?
	# Each script's own TAP lines, named after it; its plan line dropped.
	sed -n 's/^\(\(not \)\{0,1\}ok\) [0-9]* - /\1 - '"$t"': /p; /^#/p' "$out"
	# Its plan (lib.sh's tap_plan), declared before its first assertion,
	# and exactly that many assertions made.
	plan=$(grep -m 1 -E '^(1\.\.[0-9]+|ok|not ok)( |$)' "$out" |
		sed -n 's/^1\.\.\([0-9]\+\)$/\1/p')
	ran=$(grep -cE '^(not )?ok ' "$out")
	if [ -z "$plan" ] || [ "$plan" != "$ran" ]; then
		echo "not ok - $t: plan ${plan:-none before the first assertion}, $ran assertions made"
		trc=1
	elif [ $trc != 0 ] && ! grep -q '^not ok' "$out"; then
		echo "not ok - $t: exited $trc"
		tail -n 20 "$out" | sed 's/^/#   /'
	fi
	[ $trc = 0 ] || rc=1
	rm -f "$out"
done
exit $rc
