#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run.sh - the `browser` suite of tests/check.sh (full tier only): the
# flame graph SVG of `latency-tracker flamegraph` in headless Chromium,
# driven by Selenium (flamegraph.py: title, hover, zoom, reset, search).
# Builds the CLI (make -C tools, into build/browser), draws tests/tools/data/flame-log.json,
# and keeps the SVG and the screenshots in a results directory under
# $LT_CACHE/runs/browser/.  Prints TAP lines ("ok"/"not ok").  Needs the
# `browser` packages (tests/vm/deps.sh browser: chromium, chromium-driver,
# python3-selenium).
set -u
. "$(dirname "$0")/../vm/common.sh"

build=$LT_TOP/build/browser
make -s -j"$(nproc)" -C "$LT_TOP/tools" BUILD="$build" "$build/latency-tracker" ||
	{ echo "not ok - browser: build of the CLI"; exit 1; }
for b in /usr/bin/chromium /usr/bin/chromedriver; do
	[ -x "$b" ] || { echo "not ok - browser: $b missing (tests/vm/deps.sh browser)"; exit 1; }
done
mkdir -p "$LT_CACHE/runs/browser"
results=$(mktemp -d "$LT_CACHE/runs/browser/$(date +%Y%m%d-%H%M%S)-XXXX")
echo "# results: $results"
svg=$results/offcpu.svg
if ! "$build/latency-tracker" flamegraph -o "$svg" \
	"$LT_TOP/tests/tools/data/flame-log.json" 2>"$results/flamegraph.err"; then
	echo "not ok - browser: latency-tracker flamegraph failed"
	sed 's/^/#   /' "$results/flamegraph.err"
	exit 1
fi
out=$results/flamegraph.tap
# Debian's python3 (python3-selenium), whatever python3 comes first in PATH.
timeout 300 /usr/bin/python3 "$LT_TOP/tests/browser/flamegraph.py" "$svg" "$results" >"$out" 2>"$results/selenium.err"
rc=$?
# Its TAP lines, named after the test; the plan declared first and kept.
sed -n 's/^\(\(not \)\{0,1\}ok\) [0-9]* - /\1 - browser-flamegraph: /p; /^#/p' "$out"
plan=$(grep -m 1 -E '^(1\.\.[0-9]+|ok|not ok)( |$)' "$out" | sed -n 's/^1\.\.\([0-9]\+\)$/\1/p')
ran=$(grep -cE '^(not )?ok ' "$out")
if [ -z "$plan" ] || [ "$plan" != "$ran" ]; then
	echo "not ok - browser-flamegraph: plan ${plan:-none before the first assertion}, $ran assertions made"
	tail -n 20 "$results/selenium.err" | sed 's/^/#   /'
	exit 1
fi
if [ $rc != 0 ] && ! grep -q '^not ok' "$out"; then
	echo "not ok - browser-flamegraph: exited $rc"
	tail -n 20 "$results/selenium.err" | sed 's/^/#   /'
fi
exit $rc
