# SPDX-License-Identifier: GPL-2.0-only
#
# Host test of the custom trackers' definitions (tools/lib/lt_custom.c):
# the one parser of the grammar that `latency-tracker add` and
# latency-trackerd's custom.NAME keys use, the canonical kernel line, the
# sameness of two definitions, the custom file of a fake proc root.

UNIT_TESTS += test_tools_custom

test_tools_custom_SRCS := tests/unit/test_tools_custom.c \
	tools/lib/lt_custom.c tools/lib/lt_num.c tools/lib/lt_proc.c
test_tools_custom_CFLAGS := -std=c11 -D_GNU_SOURCE -I$(TOP)/tools/lib
