# SPDX-License-Identifier: GPL-2.0-only
#
# Host test of what `latency-tracker flamegraph` is made of (tools/lib):
# folding records into flame graph stacks (lt_folded), XML escaping
# (lt_xml), the SVG (lt_flamesvg; read back by check_outputs.py) and the
# daemon's JSON log read back with json-c (lt_logread).  Needs
# libjson-c-dev (tests/vm/deps.sh unit).  The command itself, its options
# and its live source: test_tools_cli.

UNIT_TESTS += test_tools_flame

test_tools_flame_SRCS := tests/unit/test_tools_flame.c \
	$(addprefix tools/lib/,lt_folded.c lt_flamesvg.c lt_xml.c lt_logread.c \
	lt_record.c lt_json.c lt_utf8.c lt_num.c)
test_tools_flame_CFLAGS := -std=c11 -D_GNU_SOURCE -I$(TOP)/tools/lib \
	-DLT_TOP='"$(TOP)"' $(shell pkg-config --cflags json-c 2>/dev/null)
test_tools_flame_LDLIBS := $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)
