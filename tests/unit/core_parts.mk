# SPDX-License-Identifier: GPL-2.0-only
#
# Host tests of the small core parts: slot pool, alert ring, wakeup rate
# limiter, strict number parser, alert line formatter, log2 histogram, the
# exact sum of matched delays.

UNIT_TESTS += test_pool test_alert_ring test_ratelimit test_parse \
	test_alert_fmt test_histogram test_stats_sum

test_pool_SRCS := tests/unit/test_pool.c tracker/pool.c
test_pool_TSAN := 1
test_alert_ring_SRCS := tests/unit/test_alert_ring.c tracker/alert_ring.c
test_alert_ring_TSAN := 1
test_ratelimit_SRCS := tests/unit/test_ratelimit.c tracker/ratelimit.c
test_parse_SRCS := tests/unit/test_parse.c tracker/parse.c
test_alert_fmt_SRCS := tests/unit/test_alert_fmt.c tracker/alert_fmt.c
test_histogram_SRCS := tests/unit/test_histogram.c
test_stats_sum_SRCS := tests/unit/test_stats_sum.c
test_stats_sum_TSAN := 1
