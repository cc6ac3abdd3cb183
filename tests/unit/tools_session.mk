# SPDX-License-Identifier: GPL-2.0-only
#
# Host test: latency-trackerd's LTTng session (daemon_session.c against a
# fake liblttng-ctl) and the guest tests' session (lttng-session.inc
# against a fake lttng command) are the same, from session-events.def.
# -rdynamic: the fake LTTng >= 2.15 call is found with dlsym().

UNIT_TESTS += test_tools_session

test_tools_session_SRCS := tests/unit/test_tools_session.c \
	tools/daemon/daemon_session.c
test_tools_session_CFLAGS := -std=c11 -D_GNU_SOURCE -I$(TOP)/tools/lib \
	-I$(TOP)/tools/daemon '-DLT_TOP="$(TOP)"'
test_tools_session_LDLIBS := -rdynamic
