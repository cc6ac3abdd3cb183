# SPDX-License-Identifier: GPL-2.0-only
#
# Host tests of latency-trackerd's own parts (tools/daemon/): the options
# added for its lifecycle and metrics (flags, metrics address, children,
# session/output).  The daemon as a whole is tested by tests/tools/.

UNIT_TESTS += test_daemon_config

test_daemon_config_SRCS := tests/unit/test_daemon_config.c \
	tools/daemon/daemon_config.c tools/lib/lt_num.c tools/lib/lt_filter.c \
	tools/lib/lt_custom.c tools/lib/lt_proc.c
test_daemon_config_CFLAGS := -std=c11 -D_GNU_SOURCE -I$(TOP)/tools/lib \
	-I$(TOP)/tools/daemon
