# SPDX-License-Identifier: GPL-2.0-only
#
# Host tests of the lock-free hash table (tracker/lfht.c): functional tests,
# and a randomized concurrent differential test against liburcu's cds_lfht
# (LT_SEED=<n> replays a seed, LT_DIFF_OPS=<n> sets the operations per
# thread).

UNIT_TESTS += test_lfht test_lfht_diff

test_lfht_SRCS := tests/unit/test_lfht.c tracker/lfht.c
test_lfht_diff_SRCS := tests/unit/test_lfht_diff.c tracker/lfht.c
test_lfht_diff_TSAN := 1
