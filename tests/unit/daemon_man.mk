# SPDX-License-Identifier: GPL-2.0-only
#
# Host test: latency-trackerd's man page (tools/daemon/latency-trackerd.8)
# against the code: the config parser's keys and options, the filters, the
# log types the daemon's sources write, the exit statuses, the session's
# channels and events.

UNIT_TESTS += test_daemon_man

test_daemon_man_SRCS := tests/unit/test_daemon_man.c \
	tools/daemon/daemon_config.c tools/lib/lt_num.c tools/lib/lt_filter.c \
	tools/lib/lt_proc.c tools/lib/lt_custom.c
test_daemon_man_CFLAGS := -std=c11 -D_GNU_SOURCE -I$(TOP)/tools/lib \
	-I$(TOP)/tools/daemon '-DLT_TOP="$(TOP)"'
# Its assertions: a constant count (each one covers a whole list).
test_daemon_man_CFLAGS += -DTAP_PLAN=15
