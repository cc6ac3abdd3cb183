# SPDX-License-Identifier: GPL-2.0-only
#
# Host test of the wakeup breakdown's check in explain (a record's parts
# and tops against the snapshot's, the rules of probes/common/cpu_time.h).
# Uses explain.mk's EXPLAIN_CORE (this fragment is included after it: the
# fragments are included sorted).

UNIT_TESTS += test_explain_breakdown

test_explain_breakdown_SRCS := tests/unit/test_explain_breakdown.c $(EXPLAIN_CORE)
test_explain_breakdown_CFLAGS := $(EXPLAIN_UNIT_CFLAGS)
test_explain_breakdown_LDLIBS := -lm
