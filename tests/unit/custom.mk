# SPDX-License-Identifier: GPL-2.0-only
#
# Host test of the custom trackers' definition parser and canonical form
# (probes/custom_def.c, pure logic), over the core's strict decimal parser.

UNIT_TESTS += test_custom_def

test_custom_def_SRCS := tests/unit/test_custom_def.c probes/custom_def.c \
	tracker/parse.c
test_custom_def_CFLAGS := -I$(TOP)/probes
$(foreach v,plain asan,$(BUILD)/$(v)/test_custom_def): $(TOP)/probes/custom_def.h
