#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# host-prep.sh KVER - what the guest tests of one kernel need from the host,
# built before the guest boots (the guest sees the host root read-only):
# the userspace tools (build/tools), the explain analysis, the scenario
# programs of the tests, and LTTng's kernel tracer with our LTTng probe for
# that kernel (tests/vm/lttng.sh).  Each step that fails is reported; the
# tests that need it then fail on their own, naming what is missing.
set -u
. "$(dirname "$0")/common.sh"

kver=${1:?kernel version}
rc=0
# Runs started at once (several people, several checkouts) take turns.
mkdir -p "$LT_CACHE"
exec 9>"$LT_CACHE/host-prep.lock"
flock 9
step() { # name cmd...
	local name=$1 log
	shift
	log=$(mktemp)
	if ! "$@" >"$log" 2>&1; then
		echo "host-prep: $name failed:" >&2
		tail -n 15 "$log" >&2
		rc=1
	fi
	rm -f "$log"
}
step "make tools" make -s -C "$LT_TOP/tools"
[ -f "$LT_TOP/tools/explain/Makefile" ] &&
	step "make -C tools/explain" make -s -C "$LT_TOP/tools/explain"
[ -f "$LT_TOP/tests/guest/explain-progs/Makefile" ] &&
	step "explain scenario programs" make -s -C "$LT_TOP/tests/guest/explain-progs"
[ -x "$LT_TOP/tests/vm/lttng.sh" ] &&
	step "LTTng modules for $kver" "$LT_TOP/tests/vm/lttng.sh" "$kver"
exit $rc
