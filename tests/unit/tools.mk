# SPDX-License-Identifier: GPL-2.0-only
#
# Host tests of the userspace tools (tools/): alert record parsing and its
# JSON, human units, the stats/histogram formats, latency-trackerd's
# configuration.  Built as C11 like the tools themselves.

UNIT_TESTS += test_tools_record test_tools_num test_tools_procfmt \
	test_tools_config test_tools_filter test_tools_why

TOOLS_UNIT_CFLAGS := -std=c11 -D_GNU_SOURCE -I$(TOP)/tools/lib \
	-I$(TOP)/tools/daemon

test_tools_record_SRCS := tests/unit/test_tools_record.c tools/lib/lt_record.c \
	tools/lib/lt_json.c tools/lib/lt_utf8.c tools/lib/lt_num.c
test_tools_record_CFLAGS := $(TOOLS_UNIT_CFLAGS)
test_tools_num_SRCS := tests/unit/test_tools_num.c tools/lib/lt_num.c
test_tools_num_CFLAGS := $(TOOLS_UNIT_CFLAGS)
test_tools_procfmt_SRCS := tests/unit/test_tools_procfmt.c \
	tools/lib/lt_procfmt.c tools/lib/lt_proc.c tools/lib/lt_num.c
test_tools_procfmt_CFLAGS := $(TOOLS_UNIT_CFLAGS)
test_tools_config_SRCS := tests/unit/test_tools_config.c \
	tools/daemon/daemon_config.c tools/lib/lt_num.c tools/lib/lt_filter.c \
	tools/lib/lt_custom.c tools/lib/lt_proc.c
test_tools_config_CFLAGS := $(TOOLS_UNIT_CFLAGS)
test_tools_filter_SRCS := tests/unit/test_tools_filter.c tools/lib/lt_filter.c
test_tools_filter_CFLAGS := $(TOOLS_UNIT_CFLAGS)
test_tools_why_SRCS := tests/unit/test_tools_why.c tools/lib/lt_why.c \
	tools/lib/lt_record.c tools/lib/lt_json.c tools/lib/lt_utf8.c \
	tools/lib/lt_num.c
test_tools_why_CFLAGS := $(TOOLS_UNIT_CFLAGS)
