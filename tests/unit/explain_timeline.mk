# SPDX-License-Identifier: GPL-2.0-only
#
# Host test of `latency-tracker timeline` (tools/explain/ex_timeline*.c,
# ex_tl_*.c): a synthetic snapshot written as trace-event JSON and as OTF2,
# read back by check_timeline.py (Python's json; otf2-print from
# otf2-tools), and the command's arguments.  Uses explain.mk's EXPLAIN_CORE
# (the fragments are included sorted: explain.mk first).  Needs libotf2
# (tests/vm/deps.sh unit).

UNIT_TESTS += test_explain_timeline

test_explain_timeline_SRCS := tests/unit/test_explain_timeline.c $(EXPLAIN_CORE) \
	$(addprefix tools/explain/,ex_timeline.c ex_timeline_view.c \
	ex_tl_json.c ex_tl_otf2.c)
test_explain_timeline_CFLAGS := $(EXPLAIN_UNIT_CFLAGS) -DLT_TOP='"$(TOP)"'
test_explain_timeline_LDLIBS := -lm \
	$(shell pkg-config --libs otf2 2>/dev/null || echo -lopen-trace-format2)
