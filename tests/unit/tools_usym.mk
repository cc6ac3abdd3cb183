# SPDX-License-Identifier: GPL-2.0-only
#
# Host test of the naming of user-space frames (ustack=) for `latency-tracker
# flamegraph` (tools/lib/lt_usym.c) with libdw: test_tools_usym compiles a
# tiny program with gcc at run time (and uses objcopy), reads its build id
# and symbols with gelf and checks the names lt_usym gives their file
# offsets.  Needs libdw-dev and gcc (tests/vm/deps.sh unit).

UNIT_TESTS += test_tools_usym

test_tools_usym_SRCS := tests/unit/test_tools_usym.c tools/lib/lt_usym.c tools/lib/lt_num.c
test_tools_usym_CFLAGS := -std=c11 -D_GNU_SOURCE -I$(TOP)/tools/lib \
	$(shell pkg-config --cflags libdw 2>/dev/null)
test_tools_usym_LDLIBS := $(shell pkg-config --libs libdw 2>/dev/null || echo -ldw -lelf)
