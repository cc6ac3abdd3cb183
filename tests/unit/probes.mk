# SPDX-License-Identifier: GPL-2.0-only
#
# Host tests of the tracker modules' pure logic (probes/): the dmesg stack
# budget (print_budget.h, header only).

UNIT_TESTS += test_print_budget

test_print_budget_SRCS := tests/unit/test_print_budget.c
test_print_budget_CFLAGS := -I$(TOP)/probes
$(foreach v,plain asan,$(BUILD)/$(v)/test_print_budget): $(TOP)/probes/print_budget.h
