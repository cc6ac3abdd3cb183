#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# host-prep.sh KVER - what the guest tests of one kernel need from the host,
# built before the guest boots (the guest sees the host root read-only):
# the userspace tools (build/tools), the explain analysis, the scenario
# programs of the tests, and LTTng's kernel tracer with our LTTng probe for
# that kernel (tests/vm/lttng.sh).  Each step that fails is reported and
# makes the exit status non-zero (check-vm.sh then runs no test of that
# kernel); a build step that fails also removes what it built before
# (make clean), so that nothing goes on using binaries older than the
# sources.  make honours BUILD and CC from the environment (the harness
# self-test breaks the tools build that way, in a directory of its own).
set -u
. "$(dirname "$0")/common.sh"

kver=${1:?kernel version}
rc=0
# Runs started at once (several people, several checkouts) take turns.
lt_lock "$LT_CACHE/host-prep.lock"
step() { # name cmd...
	local name=$1 log ok=0
	shift
	log=$(mktemp)
	if ! "$@" >"$log" 2>&1; then
		echo "host-prep: $name failed:" >&2
		tail -n 15 "$log" >&2
		rc=1 ok=1
	fi
	rm -f "$log"
	return $ok
}
# build name dir: make in dir; on failure, make clean there.
build() {
	step "$1" make -s -C "$2" || make -s -C "$2" clean >/dev/null 2>&1
}
build "make tools" "$LT_TOP/tools"
[ -f "$LT_TOP/tools/explain/Makefile" ] &&
	build "make -C tools/explain" "$LT_TOP/tools/explain"
[ -f "$LT_TOP/tests/guest/explain-progs/Makefile" ] &&
	build "explain scenario programs" "$LT_TOP/tests/guest/explain-progs"
build "tracker scenario programs" "$LT_TOP/tests/guest/progs"
step "LTTng modules for $kver" "$LT_TOP/tests/vm/lttng.sh" "$kver"
exit $rc
