# SPDX-License-Identifier: GPL-2.0-only
#
# Host tests of the tools' outputs and of the latency-tracker CLI:
#   test_tools_json  the one JSON writer and the DOT writer (tools/lib),
#                    names with any bytes through latency-trackerd's log,
#                    explain's JSON report and DOT graph, read back by
#                    Python (check_outputs.py)
#   test_tools_cli   the CLI run in-process on a fake proc root
#                    (LT_PROC_ROOT): --version, --help, --json outputs,
#                    hist percentiles, warnings, errors and exit statuses,
#                    the record-format check, follow --json; add, del
#                    and list of custom trackers; flamegraph's options,
#                    its live source (SIGINT, --duration) and a log file

UNIT_TESTS += test_tools_json test_tools_cli

TOOLS_OUT_CFLAGS := -std=c11 -D_GNU_SOURCE -I$(TOP)/tools/lib \
	-I$(TOP)/tools/daemon -I$(TOP)/tools/explain -DLT_TOP='"$(TOP)"'
TOOLS_OUT_LIB := $(addprefix tools/lib/,lt_json.c lt_dot.c lt_utf8.c \
	lt_num.c lt_record.c)

test_tools_json_SRCS := tests/unit/test_tools_json.c $(TOOLS_OUT_LIB) \
	tools/daemon/daemon_log.c \
	$(addprefix tools/explain/,ex_util.c ex_breakdown.c ex_model.c ex_fdtab.c ex_app.c \
	ex_sync.c ex_lockview.c ex_stack.c ex_graph.c \
	ex_depgraph.c ex_classify.c ex_report.c ex_out_text.c ex_out_dot.c \
	ex_out_json.c ex_critical.c ex_out_critical.c)
test_tools_json_CFLAGS := $(TOOLS_OUT_CFLAGS)
test_tools_json_LDLIBS := -lm

test_tools_cli_SRCS := tests/unit/test_tools_cli.c $(TOOLS_OUT_LIB) \
	$(addprefix tools/lib/,lt_proc.c lt_procfmt.c lt_pct.c lt_watch.c \
	lt_filter.c lt_custom.c lt_why.c) \
	$(addprefix tools/lib/,lt_folded.c lt_flamesvg.c lt_xml.c lt_logread.c \
	lt_usym.c) \
	$(addprefix tools/cli/,cli_main.c cli_list.c cli_knob.c cli_stats.c \
	cli_hist.c cli_follow.c cli_custom.c cli_flame.c cli_flame_live.c)
test_tools_cli_CFLAGS := $(TOOLS_OUT_CFLAGS) -I$(TOP)/tools/cli \
	$(shell pkg-config --cflags json-c libdw 2>/dev/null)
test_tools_cli_LDLIBS := $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c) \
	$(shell pkg-config --libs libdw 2>/dev/null || echo -ldw -lelf)
