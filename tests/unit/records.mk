# SPDX-License-Identifier: GPL-2.0-only
#
# Host test of the alert records generated from include/lt_records/: the
# text of each tracker's record, byte for byte.

UNIT_TESTS += test_records

test_records_SRCS := tests/unit/test_records.c tracker/alert_fmt.c
# The tables are headers outside the folders the generic rule watches.
$(foreach v,$(VARIANTS),$(BUILD)/$(v)/test_records): \
	$(wildcard $(TOP)/include/*.h $(TOP)/include/lt_records/*.h)
