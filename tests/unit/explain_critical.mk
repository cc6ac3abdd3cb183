# SPDX-License-Identifier: GPL-2.0-only
#
# Host test of GAPP's criticality metric in the explain analysis
# (tools/explain/ex_critical.c): synthetic traces, values computed by hand;
# and end to end through lt_explain_main (ex_main.c), the trace reader
# replaced by the test's.  Uses explain.mk's EXPLAIN_CORE (this fragment is
# included after it: the fragments are included sorted).

UNIT_TESTS += test_explain_critical

test_explain_critical_SRCS := tests/unit/test_explain_critical.c $(EXPLAIN_CORE) \
	$(EXPLAIN_MAIN)
test_explain_critical_CFLAGS := $(EXPLAIN_MAIN_CFLAGS)
test_explain_critical_LDLIBS := $(EXPLAIN_MAIN_LDLIBS)
