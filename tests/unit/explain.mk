# SPDX-License-Identifier: GPL-2.0-only
#
# Host tests of the explain analysis (tools/explain/): the state model, the
# waiting dependency graph, the classification and lock view on synthetic
# event sequences; k-means and the comparison of clusters.  The analysis
# core builds without libbabeltrace2 (only ex_trace.c uses it).

UNIT_TESTS += test_explain_graph test_explain_compare

EXPLAIN_UNIT_CFLAGS := -std=c11 -D_GNU_SOURCE -I$(TOP)/tools/explain \
	-I$(TOP)/tools/lib
EXPLAIN_CORE := $(addprefix tools/explain/,ex_util.c ex_breakdown.c ex_model.c ex_fdtab.c \
	ex_app.c ex_sync.c ex_lockview.c ex_stack.c ex_graph.c \
	ex_depgraph.c ex_classify.c ex_kmeans.c ex_compare.c ex_report.c \
	ex_out_text.c ex_out_dot.c ex_out_json.c ex_out_compare.c \
	ex_critical.c ex_out_critical.c) \
	$(addprefix tools/lib/,lt_json.c lt_dot.c lt_utf8.c lt_num.c)

test_explain_graph_SRCS := tests/unit/test_explain_graph.c $(EXPLAIN_CORE)
test_explain_graph_CFLAGS := $(EXPLAIN_UNIT_CFLAGS)
test_explain_graph_LDLIBS := -lm
test_explain_compare_SRCS := tests/unit/test_explain_compare.c $(EXPLAIN_CORE)
test_explain_compare_CFLAGS := $(EXPLAIN_UNIT_CFLAGS)
test_explain_compare_LDLIBS := -lm

# Issue 17: fd tables over time, thread exit, synchronisation classes, the
# application's lock view, our alerts' stacks.
UNIT_TESTS += test_explain_sync
test_explain_sync_SRCS := tests/unit/test_explain_sync.c $(EXPLAIN_CORE)
test_explain_sync_CFLAGS := $(EXPLAIN_UNIT_CFLAGS)
test_explain_sync_LDLIBS := -lm

# What links ex_main.c renders SVG in the process with Graphviz's
# libraries (ex_svg.c; libgraphviz-dev, tests/vm/deps.sh unit).
EXPLAIN_MAIN := tools/explain/ex_main.c tools/explain/ex_compare_cli.c \
	tools/explain/ex_svg.c
EXPLAIN_MAIN_CFLAGS := $(EXPLAIN_UNIT_CFLAGS) \
	$(shell pkg-config --cflags libgvc 2>/dev/null || echo -I/usr/include/graphviz)
EXPLAIN_MAIN_LDLIBS := -lm \
	$(shell pkg-config --libs libgvc 2>/dev/null || echo -lgvc -lcgraph -lcdt)

# The options of issue 17 through lt_explain_main, the trace reader
# replaced by the test's (synthetic snapshot).
UNIT_TESTS += test_explain_cli
test_explain_cli_SRCS := tests/unit/test_explain_cli.c $(EXPLAIN_CORE) \
	$(EXPLAIN_MAIN)
test_explain_cli_CFLAGS := $(EXPLAIN_MAIN_CFLAGS)
test_explain_cli_LDLIBS := $(EXPLAIN_MAIN_LDLIBS)

# Issue 33 item 4: an explanation that reads at a glance (the states
# table's counts in the graph, no child larger than its parent, nothing
# disconnected, the lock on its wait edge); item 7: SVG without `dot`.
UNIT_TESTS += test_explain_glance
test_explain_glance_SRCS := tests/unit/test_explain_glance.c $(EXPLAIN_CORE) \
	$(EXPLAIN_MAIN)
test_explain_glance_CFLAGS := $(EXPLAIN_MAIN_CFLAGS)
test_explain_glance_LDLIBS := $(EXPLAIN_MAIN_LDLIBS)
