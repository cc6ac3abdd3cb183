# SPDX-License-Identifier: GPL-2.0-only
#
# Host test of timer sleeps in the explain analysis (a wait ended by a timer
# expiry is a timer wait in the graph and the classification, whatever
# interrupt events the trace has).  Uses explain.mk's EXPLAIN_CORE (this
# fragment is included after it: the fragments are included sorted).

UNIT_TESTS += test_explain_timer

test_explain_timer_SRCS := tests/unit/test_explain_timer.c $(EXPLAIN_CORE)
test_explain_timer_CFLAGS := $(EXPLAIN_UNIT_CFLAGS)
test_explain_timer_LDLIBS := -lm
