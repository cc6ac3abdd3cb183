# SPDX-License-Identifier: GPL-2.0-only
#
# Host tests of the probe layer's pure logic (probes/common/): the dmesg
# stack budget (print_budget.h, header only) and the filters' syntax
# (filter_parse.c, on the core's strict decimal parser).

UNIT_TESTS += test_print_budget test_filter_parse

test_print_budget_SRCS := tests/unit/test_print_budget.c
test_print_budget_CFLAGS := -I$(TOP)/probes/common
$(foreach v,plain asan,$(BUILD)/$(v)/test_print_budget): $(TOP)/probes/common/print_budget.h

test_filter_parse_SRCS := tests/unit/test_filter_parse.c \
	probes/common/filter_parse.c tracker/parse.c
test_filter_parse_CFLAGS := -I$(TOP)/probes/common
$(foreach v,plain asan,$(BUILD)/$(v)/test_filter_parse): $(TOP)/probes/common/filter_parse.h
